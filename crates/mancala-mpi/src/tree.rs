//! The coordinator's tree: every position a few plies from the root, and MTD(f) over it,
//! which chooses the leaves the workers search and the window each search must answer.
//!
//! Each node holds an interval its value surely lies in (values are store differences the
//! mover can still gain, as in `mancala_solver::Solution::value`): a leaf the bounds the
//! workers proved (before any, ±seeds in the houses, more under the opening rules), a
//! finished game 0, an inner node the maximum over its moves of `gain ± child` (`+` when the
//! move gives an extra turn, `−` when the turn passes; the gain is the change of the mover's
//! store difference). Every bound is proven, whichever window it was proven for, so
//! results can come back in any order, from any worker, or from a journal.
//!
//! [`Tree::next`] runs MTD(f) (Plaat, Schaeffer, Pijls & de Bruin 1996) over the tree, as
//! `mancala_solver::Solver::solve` runs it over the whole game: the root is probed with null
//! windows `(β − 1, β)`, β starting at a first guess ([`Tree::set_guess`]: the solver's own
//! heuristic estimate) and moving as the probes fail high or low, until the root's interval
//! is one value. A probe walks the tree as alpha-beta with that null window would: a node
//! whose interval already answers the window is skipped, and so is a move that cannot reach
//! it; the first leaves met that do not answer it and are not being searched are handed out
//! with the window they need there (`Ask::Window`, a null window, answered by
//! `Solver::solve_within` with one probe). With one worker that is alpha-beta's order. With
//! more, young brothers wait (Feldmann, Monien, Mysliwietz & Vornberger 1989), as in the
//! solver's own parallel search: at a node, the moves after the first open one are handed out
//! before it is answered only once some move there is proven not to reach the window (the
//! node then likely needs every move); otherwise the first move may answer the window alone,
//! and its brothers wait. What is searched in parallel a sequential search might still have
//! pruned (speculation), but far less than handing out every open leaf would. Once the value
//! v is known, every root move not yet settled is probed
//! with the window `(v − 1, v)`, so that every move reaching the value is known: the best
//! moves. Last, the leaf at the end of the principal variation (value-keeping moves through
//! the tree) is solved in full (`Ask::Full`, `Solver::solve`), for its own principal
//! variation; a root that is itself a leaf (a swap on offer, depth 0) is solved in full at
//! once. [`Tree::finished`] says when all of that is known.
//!
//! The value and the best moves are proven facts whatever the order in which results came
//! back, so they do not depend on the number of workers; only the searches made (and the
//! nodes) do.

use std::collections::{HashMap, HashSet};

use mancala_core::kalah::{KalahMove, KalahPosition};
use mancala_core::Side;

/// Beyond any value (values are at most 2 × 255 seeds).
const INF: i32 = 1 << 20;

/// What a worker is asked about a leaf.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask {
    /// Proven bounds that answer the open window `(a, b)` (`Solver::solve_within`): the
    /// exact value, or a proof that it is at most `a`, or at least `b`.
    Window(i32, i32),
    /// A full solve (`Solver::solve`): the exact value, the leaf's best moves, a principal
    /// variation and the pie-rule choice.
    Full,
}

impl Ask {
    /// Whether bounds `lower ≤ v ≤ upper` answer this question (for [`Ask::Full`]: exact).
    #[must_use]
    pub fn answered_by(&self, lower: i32, upper: i32) -> bool {
        match *self {
            Ask::Window(a, b) => lower == upper || upper <= a || lower >= b,
            Ask::Full => lower == upper,
        }
    }
}

/// What a full solve of a leaf adds to its value.
#[derive(Debug, Clone, PartialEq)]
pub struct FullLeaf {
    /// A principal variation from the leaf to the end of the game.
    pub pv: Vec<KalahMove>,
    /// The leaf's best moves.
    pub best_moves: Vec<KalahMove>,
    /// Under the pie rule at the swap: (swap value, best house move's value, swap better).
    pub swap: Option<(i32, Option<i32>, bool)>,
}

/// What a worker proved about a leaf.
#[derive(Debug, Clone, PartialEq)]
pub struct LeafResult {
    /// What it was asked.
    pub ask: Ask,
    /// Proven lower bound of the leaf's value for its player to move, seeds.
    pub lower: i32,
    /// Proven upper bound, seeds (`lower == upper`: the exact value).
    pub upper: i32,
    /// For [`Ask::Full`]: the rest of the solution.
    pub full: Option<FullLeaf>,
    /// Nodes the worker searched for it.
    pub nodes: u64,
    /// Seconds the worker took.
    pub seconds: f64,
}

/// A search to hand out: a leaf and what to ask about it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Task {
    /// The leaf's number ([`Tree::leaves`]).
    pub leaf: usize,
    /// What to ask.
    pub ask: Ask,
}

/// A distinct leaf position (positions reached by several paths are one leaf).
#[derive(Debug, Clone)]
pub struct Leaf {
    /// The moves from the root to it (along the first path found).
    pub path: Vec<KalahMove>,
    /// The position (read by the tests and the measurements of `examples/plan66.rs`, which
    /// compiles this file too; the command does not).
    #[allow(dead_code)]
    pub pos: KalahPosition,
    lower: i32,
    upper: i32,
    full: Option<FullLeaf>,
}

impl Leaf {
    /// The interval its value is proven to lie in (seeds, for its player to move).
    #[must_use]
    pub fn bounds(&self) -> (i32, i32) {
        (self.lower, self.upper)
    }

    /// Its full solution, once solved in full.
    #[must_use]
    pub fn full(&self) -> Option<&FullLeaf> {
        self.full.as_ref()
    }
}

#[derive(Debug, Clone)]
struct Edge {
    mv: KalahMove,
    child: usize,
    /// The mover's store difference gained by the move (the final one for a finished game).
    gain: i32,
    /// The child's mover is the parent's (an extra turn).
    same: bool,
}

#[derive(Debug, Clone)]
enum Kind {
    Over,
    Leaf(usize),
    Inner(Vec<Edge>),
}

#[derive(Debug, Clone)]
struct Node {
    kind: Kind,
    lo: i32,
    hi: i32,
}

/// The tree of the positions up to a depth from the root, and MTD(f) over it (module docs).
#[derive(Debug, Clone)]
pub struct Tree {
    root: KalahPosition,
    nodes: Vec<Node>,
    leaves: Vec<Leaf>,
    /// The leaf of each position key.
    index: HashMap<u128, usize>,
    /// MTD(f)'s first guess of the root's value.
    guess: i32,
    /// The β of the running root probe (`value ≥ β?`), once one started.
    beta: Option<i32>,
}

/// The mover's store difference (South's view once the game is over) from `side`'s view.
fn diff_for(pos: &KalahPosition, side: Side) -> i32 {
    let d = pos.mover_store_difference();
    match pos.side_to_move().unwrap_or(Side::South) {
        s if s == side => d,
        _ => -d,
    }
}

impl Tree {
    /// The tree of `root` to `depth` plies (a ply is one move; an extra turn is a ply too).
    /// Expansion stops early at a finished game and at a position where the pie rule offers
    /// the swap (a leaf: the worker's solver values the swap). MTD(f)'s first guess is 0
    /// until [`Tree::set_guess`].
    #[must_use]
    pub fn new(root: KalahPosition, depth: u32) -> Tree {
        let mut t = Tree {
            root,
            nodes: Vec::new(),
            leaves: Vec::new(),
            index: HashMap::new(),
            guess: 0,
            beta: None,
        };
        let mut index = HashMap::new();
        t.expand(root, depth, &mut Vec::new(), &mut index);
        t.index = index;
        t.update();
        t
    }

    fn expand(
        &mut self,
        pos: KalahPosition,
        depth: u32,
        path: &mut Vec<KalahMove>,
        index: &mut HashMap<u128, usize>,
    ) -> usize {
        let me = self.nodes.len();
        let Some(side) = pos.side_to_move() else {
            self.nodes.push(Node {
                kind: Kind::Over,
                lo: 0,
                hi: 0,
            });
            return me;
        };
        if depth == 0 || pos.swap_offered() {
            let l = *index.entry(pos.key()).or_insert_with(|| {
                let k = pos.seeds_in_houses() as i32;
                let stores = i32::from(pos.store(Side::South)) + i32::from(pos.store(Side::North));
                // Under the opening rules the stores can change hands (the swap).
                let special = pos.swap_offered() || pos.is_first_move() || pos.in_opening_turn();
                let bound = if special { k + 2 * stores } else { k };
                self.leaves.push(Leaf {
                    path: path.clone(),
                    pos,
                    lower: -bound,
                    upper: bound,
                    full: None,
                });
                self.leaves.len() - 1
            });
            self.nodes.push(Node {
                kind: Kind::Leaf(l),
                lo: 0,
                hi: 0,
            });
            return me;
        }
        self.nodes.push(Node {
            kind: Kind::Inner(Vec::new()),
            lo: 0,
            hi: 0,
        });
        let before = diff_for(&pos, side);
        let mut children = Vec::new();
        pos.for_each_child(|mv, child| children.push((mv, child)));
        let mut edges = Vec::with_capacity(children.len());
        for (mv, child) in children {
            path.push(mv);
            let c = self.expand(child, depth - 1, path, index);
            path.pop();
            edges.push(Edge {
                mv,
                child: c,
                gain: diff_for(&child, side) - before,
                same: child.side_to_move() == Some(side),
            });
        }
        // Extra turns first, then the larger gains: the moves most likely best, so that
        // alpha-beta's window closes early.
        edges.sort_by_key(|e| (!e.same, -e.gain));
        self.nodes[me].kind = Kind::Inner(edges);
        me
    }

    /// The interval of a move's value for the parent's mover.
    fn term(&self, e: &Edge) -> (i32, i32) {
        let c = &self.nodes[e.child];
        if e.same {
            (e.gain + c.lo, e.gain + c.hi)
        } else {
            (e.gain - c.hi, e.gain - c.lo)
        }
    }

    /// The window `(a, b)` of a move's value as the window of its child's value.
    fn child_window(e: &Edge, a: i32, b: i32) -> (i32, i32) {
        if e.same {
            (a - e.gain, b - e.gain)
        } else {
            (e.gain - b, e.gain - a)
        }
    }

    /// Recomputes every interval from the leaves (children come after their parents).
    fn update(&mut self) {
        for i in (0..self.nodes.len()).rev() {
            let (lo, hi) = match &self.nodes[i].kind {
                Kind::Over => (0, 0),
                Kind::Leaf(l) => self.leaves[*l].bounds(),
                Kind::Inner(edges) => edges.iter().fold((-INF, -INF), |(lo, hi), e| {
                    let (a, b) = self.term(e);
                    (lo.max(a), hi.max(b))
                }),
            };
            self.nodes[i].lo = lo;
            self.nodes[i].hi = hi;
        }
    }

    /// The distinct leaves.
    #[must_use]
    pub fn leaves(&self) -> &[Leaf] {
        &self.leaves
    }

    /// Positions in the tree (leaves reached by several paths counted once a path): for the
    /// measurements of `examples/plan66.rs`, which compiles this file too.
    #[allow(dead_code)]
    #[must_use]
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The leaf of position `pos`, if it is one.
    #[must_use]
    pub fn leaf_of(&self, pos: &KalahPosition) -> Option<usize> {
        self.index.get(&pos.key()).copied()
    }

    /// MTD(f)'s first guess of the root's value (seeds; `Solver::estimate` at
    /// `Solver::guess_depth` plies gives the single solver's). Only the order of the
    /// searches depends on it, never the result.
    pub fn set_guess(&mut self, guess: i32) {
        self.guess = guess;
    }

    /// Records what was proven about leaf `l` (`lower ≤ value ≤ upper`, and for a full solve
    /// the rest of the solution) and updates the intervals. Bounds proven before are kept:
    /// the leaf's interval becomes the intersection.
    ///
    /// # Errors
    /// A one-line reason, nothing changed, when `l` is not a leaf, when the bounds
    /// contradict those proven before (the intersection is empty: a result of another game,
    /// or a damaged journal), or when a full solution has no exact value.
    pub fn record(
        &mut self,
        l: usize,
        lower: i32,
        upper: i32,
        full: Option<FullLeaf>,
    ) -> Result<(), String> {
        let Some(leaf) = self.leaves.get_mut(l) else {
            return Err(format!("leaf {l}: no such leaf"));
        };
        let (lo, hi) = (leaf.lower.max(lower), leaf.upper.min(upper));
        if lo > hi {
            return Err(format!(
                "leaf {l}: the bounds {lower}..={upper} contradict {}..={} proven before",
                leaf.lower, leaf.upper
            ));
        }
        if full.is_some() && lower != upper {
            return Err(format!(
                "leaf {l}: a full solution with the bounds {lower}..={upper} instead of a value"
            ));
        }
        leaf.lower = lo;
        leaf.upper = hi;
        if full.is_some() {
            leaf.full = full;
        }
        self.update();
        Ok(())
    }

    /// The root's proven interval (lower, upper).
    #[must_use]
    pub fn bounds(&self) -> (i32, i32) {
        (self.nodes[0].lo, self.nodes[0].hi)
    }

    /// Up to `want` searches to hand out next, none of them of a leaf in `busy` (module
    /// docs): the null-window probes of the running root probe of MTD(f), then those of the
    /// best moves, then the full solve of the principal variation's leaf. Empty when nothing
    /// is left to search but the leaves in `busy`, and once [`Tree::finished`].
    pub fn next(&mut self, want: usize, busy: &HashSet<usize>) -> Vec<Task> {
        let mut out = Vec::new();
        if want == 0 || self.finished() {
            return out;
        }
        if let Kind::Leaf(l) = self.nodes[0].kind {
            if !busy.contains(&l) {
                out.push(Task {
                    leaf: l,
                    ask: Ask::Full,
                });
            }
            return out;
        }
        if self.done() {
            if let Some(l) = self.pv_leaf() {
                if self.leaves[l].full.is_none() && !busy.contains(&l) {
                    out.push(Task {
                        leaf: l,
                        ask: Ask::Full,
                    });
                }
            }
            return out;
        }
        let (lo, hi) = self.bounds();
        if lo < hi {
            // MTD(f): β as the single solver's driver moves it: from the guess, then one
            // above the bound a probe failed high with, or at the one it failed low with.
            let beta = match self.beta {
                Some(b) if lo < b && b <= hi => b,
                Some(b) if lo >= b => lo + 1,
                Some(_) => hi,
                None => self.guess.clamp(lo + 1, hi),
            };
            self.beta = Some(beta);
            self.walk(0, beta - 1, beta, want, busy, &mut out);
        } else {
            // The value v is known: each root move not known to be below it or equal to it
            // is tested for `≥ v`.
            let v = lo;
            let Kind::Inner(edges) = &self.nodes[0].kind else {
                return out;
            };
            for e in edges {
                let (elo, ehi) = self.term(e);
                if ehi < v || elo == ehi {
                    continue;
                }
                let (a, b) = Tree::child_window(e, v - 1, v);
                self.walk(e.child, a, b, want, busy, &mut out);
                if out.len() >= want {
                    break;
                }
            }
        }
        out
    }

    /// Alpha-beta's walk of node `n` with the open window `(a, b)`: pushes the leaves that
    /// must answer it (with the window they need), until `want` (module docs).
    fn walk(
        &self,
        n: usize,
        a: i32,
        b: i32,
        want: usize,
        busy: &HashSet<usize>,
        out: &mut Vec<Task>,
    ) {
        let node = &self.nodes[n];
        if node.lo >= b || node.hi <= a || node.lo == node.hi {
            return;
        }
        match &node.kind {
            Kind::Over => {}
            Kind::Leaf(l) => {
                let l = *l;
                if !busy.contains(&l) && !out.iter().any(|t| t.leaf == l) {
                    out.push(Task {
                        leaf: l,
                        ask: Ask::Window(a, b),
                    });
                }
            }
            Kind::Inner(edges) => {
                // A move must beat the best proven so far.
                let a = a.max(node.lo);
                // Young brothers wait: the moves after the first open one are searched at
                // once only when a move here is already proven not to reach the window (the
                // node then likely needs every move: an all-node); otherwise the first open
                // move may answer the window alone, and its brothers wait for it.
                let all_node = edges.iter().any(|e| self.term(e).1 <= a);
                for e in edges {
                    let (lo, hi) = self.term(e);
                    if hi <= a || lo == hi {
                        continue;
                    }
                    let (ca, cb) = Tree::child_window(e, a, b);
                    self.walk(e.child, ca, cb, want, busy, out);
                    if out.len() >= want || !all_node {
                        return;
                    }
                }
            }
        }
    }

    /// Whether the root's value and best moves are proven: its interval is one value and
    /// every root move is proven equal to it or below it.
    #[must_use]
    pub fn done(&self) -> bool {
        let root = &self.nodes[0];
        if root.lo != root.hi {
            return false;
        }
        match &root.kind {
            Kind::Inner(edges) => edges.iter().all(|e| {
                let (lo, hi) = self.term(e);
                hi < root.lo || lo == hi
            }),
            _ => true,
        }
    }

    /// Whether everything the solve reports is known: [`Tree::done`], and the full solution
    /// of the principal variation's leaf (of the root, when it is a leaf).
    #[must_use]
    pub fn finished(&self) -> bool {
        self.done()
            && match self.nodes[0].kind {
                Kind::Leaf(l) => self.leaves[l].full.is_some(),
                _ => self.pv_leaf().is_none_or(|l| self.leaves[l].full.is_some()),
            }
    }

    /// The root as a leaf (a swap on offer, depth 0), if it is one.
    #[must_use]
    pub fn root_leaf(&self) -> Option<&Leaf> {
        match self.nodes[0].kind {
            Kind::Leaf(l) => Some(&self.leaves[l]),
            _ => None,
        }
    }

    /// Once [`Tree::done`]: the root's best moves, in [`KalahPosition::legal_moves`] order
    /// (for a root that is a leaf, its full solution's).
    #[must_use]
    pub fn best_moves(&self) -> Vec<KalahMove> {
        let root = &self.nodes[0];
        let Kind::Inner(edges) = &root.kind else {
            return self
                .root_leaf()
                .and_then(Leaf::full)
                .map(|s| s.best_moves.clone())
                .unwrap_or_default();
        };
        let mut best: Vec<KalahMove> = edges
            .iter()
            .filter(|e| self.term(e) == (root.lo, root.lo))
            .map(|e| e.mv)
            .collect();
        best.sort_by_key(|m| self.root.legal_moves().iter().position(|x| x == m));
        best
    }

    /// The value-keeping moves through the tree (the first in move order at each node) and
    /// the node they end at.
    fn pv_path(&self) -> (Vec<KalahMove>, usize) {
        let mut pv = Vec::new();
        let mut n = 0;
        loop {
            let node = &self.nodes[n];
            let Kind::Inner(edges) = &node.kind else {
                return (pv, n);
            };
            let next = edges
                .iter()
                .filter(|e| self.term(e) == (node.lo, node.lo))
                .min_by_key(|e| e.mv);
            let Some(e) = next else { return (pv, n) };
            pv.push(e.mv);
            n = e.child;
        }
    }

    /// Once [`Tree::done`]: the leaf at the end of the principal variation through the tree
    /// (`None` when it ends at a finished game).
    #[must_use]
    pub fn pv_leaf(&self) -> Option<usize> {
        match self.nodes[self.pv_path().1].kind {
            Kind::Leaf(l) => Some(l),
            _ => None,
        }
    }

    /// Once [`Tree::finished`]: a principal variation, value-keeping moves through the tree
    /// (the first in move order at each node) and then the leaf's own.
    #[must_use]
    pub fn principal_variation(&self) -> Vec<KalahMove> {
        let (mut pv, n) = self.pv_path();
        if let Kind::Leaf(l) = self.nodes[n].kind {
            if let Some(s) = &self.leaves[l].full {
                pv.extend_from_slice(&s.pv);
            }
        }
        pv
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use mancala_core::kalah::KalahRules;

    /// A plain negamax from the rules (through `KalahPosition::play`): the value for the mover.
    fn negamax(pos: &KalahPosition) -> i32 {
        let Some(side) = pos.side_to_move() else {
            return 0;
        };
        let before = diff_for(pos, side);
        let mut best = -INF;
        pos.for_each_child(|_, c| {
            let gain = diff_for(&c, side) - before;
            let v = if c.side_to_move() == Some(side) {
                gain + negamax(&c)
            } else {
                gain - negamax(&c)
            };
            best = best.max(v);
        });
        best
    }

    /// What a worker would answer: the exact value `v` of the leaf, for `ask`. `tight`: a
    /// fail-soft search's bound (the value itself beyond the window's end); otherwise the
    /// least a search may answer (the window's end).
    fn answer(ask: Ask, v: i32, tight: bool) -> (i32, i32) {
        match ask {
            Ask::Full => (v, v),
            Ask::Window(a, _) if v <= a => (-INF, if tight { v } else { a }),
            Ask::Window(_, b) if v >= b => (if tight { v } else { b }, INF),
            Ask::Window(..) => (v, v),
        }
    }

    /// Runs the searches `next` asks for, `workers` at a time, with the results coming
    /// back in a scrambled order (the last one handed out first), until `finished`;
    /// returns the tree, the number of searches and the leaves searched.
    fn run(
        root: KalahPosition,
        depth: u32,
        workers: usize,
        tight: bool,
    ) -> (Tree, usize, HashSet<usize>) {
        let mut t = Tree::new(root, depth);
        t.set_guess(1);
        let mut busy: Vec<Task> = Vec::new();
        let mut searches = 0;
        let mut searched = HashSet::new();
        while !t.finished() {
            searches += 1;
            assert!(searches < 100_000);
            let set: HashSet<usize> = busy.iter().map(|x| x.leaf).collect();
            let more = t.next(workers - busy.len(), &set);
            for task in &more {
                // The value's probes are null windows.
                if let Ask::Window(a, b) = task.ask {
                    assert_eq!(b, a + 1, "{task:?}");
                }
            }
            busy.extend(more);
            assert!(!busy.is_empty(), "nothing to search before the end");
            let task = busy.remove(busy.len() - 1);
            searched.insert(task.leaf);
            let pos = &t.leaves()[task.leaf].pos;
            let v = negamax(pos);
            let (lower, upper) = answer(task.ask, v, tight);
            let full = (task.ask == Ask::Full).then(|| FullLeaf {
                pv: Vec::new(),
                best_moves: Vec::new(),
                swap: None,
            });
            t.record(task.leaf, lower, upper, full).unwrap();
        }
        (t, searches, searched)
    }

    /// The value and best moves of a plain negamax at every worker count and depth,
    /// whatever bounds the leaves' searches give back (the least they may, or fail-soft
    /// ones), and every leaf of the principal variation solved in full.
    #[test]
    fn the_tree_gives_the_negamax_value_whatever_the_order() {
        for (rules, text) in [
            ("kalah(3,2)", None),
            ("kalah(3,2)+empty_capture", None),
            ("kalah(4,2)", Some("2,1,0,3,1,1,0,2,0,1 N")),
            ("kalah(2,2)+pie_rule", None),
            ("kalah(3,1)+no_first_move_bonus", None),
        ] {
            let rules: KalahRules = rules.parse().unwrap();
            let root = match text {
                Some(t) => KalahPosition::parse(rules, t).unwrap(),
                None => KalahPosition::start(rules),
            };
            let want = negamax(&root);
            let mut want_best = Vec::new();
            let before = diff_for(&root, root.side_to_move().unwrap());
            for mv in root.legal_moves() {
                let c = root.play(mv).unwrap();
                let gain = diff_for(&c, root.side_to_move().unwrap()) - before;
                let v = if c.side_to_move() == root.side_to_move() {
                    gain + negamax(&c)
                } else {
                    gain - negamax(&c)
                };
                if v == want {
                    want_best.push(mv);
                }
            }
            for depth in [0, 1, 2, 4] {
                for workers in [1, 2, 5] {
                    for tight in [false, true] {
                        let (t, _, _) = run(root, depth, workers, tight);
                        let what = format!("{rules} depth {depth}, {workers} workers");
                        assert_eq!(t.bounds(), (want, want), "{what}");
                        if t.root_leaf().is_some() {
                            continue;
                        }
                        assert_eq!(t.best_moves(), want_best, "{what}");
                        // The variation keeps the value: it reaches the leaf solved in full
                        // (or the end of the game), whose value makes up the rest.
                        let mut p = root;
                        let side = root.side_to_move().unwrap();
                        let pv = t.principal_variation();
                        for &mv in &pv {
                            p = p.play(mv).unwrap();
                        }
                        let rest = match p.side_to_move() {
                            None => 0,
                            Some(s) => {
                                let l = t.leaf_of(&p).expect("the variation ends at a leaf");
                                assert!(t.leaves()[l].full().is_some(), "{what}");
                                if s == side {
                                    negamax(&p)
                                } else {
                                    -negamax(&p)
                                }
                            }
                        };
                        assert_eq!(diff_for(&p, side) - diff_for(&root, side) + rest, want);
                    }
                }
            }
        }
    }

    /// With one worker and a good first guess, MTD(f) over the tree searches fewer leaves
    /// than there are, and bounds that contradict what is proven are refused.
    #[test]
    fn one_worker_prunes_and_contradictions_are_refused() {
        let root = KalahPosition::start("kalah(4,2)".parse().unwrap());
        let (t, searches, searched) = run(root, 4, 1, true);
        let distinct = t.leaves().len();
        assert!(
            searched.len() < distinct,
            "{} of {distinct} leaves searched",
            searched.len()
        );
        assert!(
            searches < 2 * distinct,
            "{searches} searches, {distinct} leaves"
        );
        let mut t = Tree::new(root, 2);
        t.record(0, 2, 4, None).unwrap();
        assert_eq!(t.leaves()[0].bounds(), (2, 4));
        let before = t.bounds();
        let e = t.record(0, 5, 9, None).unwrap_err();
        assert!(e.contains("contradict"), "{e}");
        assert_eq!(t.leaves()[0].bounds(), (2, 4));
        assert_eq!(t.bounds(), before);
        assert!(t
            .record(
                0,
                2,
                3,
                Some(FullLeaf {
                    pv: Vec::new(),
                    best_moves: Vec::new(),
                    swap: None
                })
            )
            .is_err());
        assert!(t.record(9999, 0, 0, None).is_err());
    }

    #[test]
    fn a_swap_on_offer_is_a_leaf() {
        let rules: KalahRules = "kalah(3,2)+pie_rule".parse().unwrap();
        let start = KalahPosition::start(rules);
        let t = Tree::new(start, 5);
        assert!(t
            .leaves()
            .iter()
            .all(|l| l.pos.swap_offered() || l.path.len() == 5));
        let after = start.play(KalahMove::House(1)).unwrap();
        assert!(after.swap_offered());
        let t = Tree::new(after, 3);
        assert!(t.root_leaf().is_some());
    }
}
