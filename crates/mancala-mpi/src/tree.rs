//! The coordinator's tree: every position a few plies from the root, its leaves solved
//! exactly by the workers, and an alpha-beta over it that chooses which leaves are needed.
//!
//! Each node holds an interval its value surely lies in (values are store differences the
//! mover can still gain, as in `mancala_solver::Solution::value`): a leaf not solved yet
//! ±(seeds in the houses), a solved leaf its value, a finished game 0, an inner node the
//! maximum over its moves of `gain ± child` (`+` when the move gives an extra turn, `−` when
//! the turn passes; the gain is the change of the mover's store difference).
//!
//! [`Tree::select`] walks the tree as alpha-beta would, with windows from what is known:
//! a move whose upper bound cannot beat the window is skipped, a node whose lower bound
//! reaches the window's top is cut, and the first leaves met that are neither solved nor
//! being solved are returned. With one worker that is alpha-beta's order; with more, the
//! leaves after the first are solved in parallel before the earlier ones are known
//! (speculation: work that a sequential search might have pruned). At the root the window
//! keeps ties (`value − 1`), so that every move that reaches the value is known: the best
//! moves. The solve is over when the root's interval is one value and each root move is
//! either that value or surely below it (see [`Tree::done`]).
//!
//! Whatever the order in which leaves are solved, every value is exact, so the root's value
//! and best moves do not depend on the number of workers; only the leaves solved (and the
//! nodes searched) do.

use std::collections::{HashMap, HashSet};

use mancala_core::kalah::{KalahMove, KalahPosition};
use mancala_core::Side;

/// Beyond any value (values are at most 2 × 255 seeds).
const INF: i32 = 1 << 20;

/// What the workers found for a leaf.
#[derive(Debug, Clone, PartialEq)]
pub struct LeafSolution {
    /// Its exact value for its player to move, seeds.
    pub value: i32,
    /// A principal variation from the leaf.
    pub pv: Vec<KalahMove>,
    /// Its best moves.
    pub best_moves: Vec<KalahMove>,
    /// Under the pie rule at the swap: (swap value, best house move's value, swap better).
    pub swap: Option<(i32, Option<i32>, bool)>,
    /// Nodes the worker searched for it.
    pub nodes: u64,
    /// Seconds the worker took.
    pub seconds: f64,
}

/// A distinct leaf position (positions reached by several paths are one leaf).
#[derive(Debug, Clone)]
pub struct Leaf {
    /// The moves from the root to it (along the first path found).
    pub path: Vec<KalahMove>,
    /// The position.
    pub pos: KalahPosition,
    /// Its solution, once known.
    pub solution: Option<LeafSolution>,
    bound: i32,
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

/// The tree of the positions up to a depth from the root (module docs).
#[derive(Debug, Clone)]
pub struct Tree {
    root: KalahPosition,
    nodes: Vec<Node>,
    leaves: Vec<Leaf>,
    /// The leaf of each position key.
    index: HashMap<u128, usize>,
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
    /// the swap (a leaf: the worker's solver values the swap).
    #[must_use]
    pub fn new(root: KalahPosition, depth: u32) -> Tree {
        let mut t = Tree {
            root,
            nodes: Vec::new(),
            leaves: Vec::new(),
            index: HashMap::new(),
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
                self.leaves.push(Leaf {
                    path: path.clone(),
                    pos,
                    solution: None,
                    bound: if special { k + 2 * stores } else { k },
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

    /// Recomputes every interval from the leaves (children come after their parents).
    fn update(&mut self) {
        for i in (0..self.nodes.len()).rev() {
            let (lo, hi) = match &self.nodes[i].kind {
                Kind::Over => (0, 0),
                Kind::Leaf(l) => {
                    let leaf = &self.leaves[*l];
                    match &leaf.solution {
                        Some(s) => (s.value, s.value),
                        None => (-leaf.bound, leaf.bound),
                    }
                }
                Kind::Inner(edges) => edges.iter().fold((-INF, -INF), |(lo, hi), e| {
                    let (a, b) = self.term(e);
                    (lo.max(a), hi.max(b))
                }),
            };
            self.nodes[i].lo = lo;
            self.nodes[i].hi = hi;
        }
    }

    /// The root position.
    #[must_use]
    pub fn root(&self) -> &KalahPosition {
        &self.root
    }

    /// The distinct leaves.
    #[must_use]
    pub fn leaves(&self) -> &[Leaf] {
        &self.leaves
    }

    /// Positions in the tree (leaves reached by several paths counted once a path).
    #[must_use]
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// The leaf of position `pos`, if it is one.
    #[must_use]
    pub fn leaf_of(&self, pos: &KalahPosition) -> Option<usize> {
        self.index.get(&pos.key()).copied()
    }

    /// Records the solution of leaf `l` and updates the intervals.
    pub fn solved(&mut self, l: usize, s: LeafSolution) {
        self.leaves[l].solution = Some(s);
        self.update();
    }

    /// The root's proven interval (lower, upper).
    #[must_use]
    pub fn bounds(&self) -> (i32, i32) {
        (self.nodes[0].lo, self.nodes[0].hi)
    }

    /// Up to `want` leaves to solve next, in alpha-beta order, none of them solved or in
    /// `busy` (module docs). Empty when nothing is left to solve but the leaves in `busy`.
    #[must_use]
    pub fn select(&self, want: usize, busy: &HashSet<usize>) -> Vec<usize> {
        let mut out = Vec::new();
        if want > 0 {
            self.select_at(0, -INF, INF, true, want, busy, &mut out);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn select_at(
        &self,
        n: usize,
        alpha: i32,
        beta: i32,
        root: bool,
        want: usize,
        busy: &HashSet<usize>,
        out: &mut Vec<usize>,
    ) {
        let node = &self.nodes[n];
        match &node.kind {
            Kind::Over => {}
            Kind::Leaf(l) => {
                let l = *l;
                if self.leaves[l].solution.is_none() && !busy.contains(&l) && !out.contains(&l) {
                    out.push(l);
                }
            }
            Kind::Inner(edges) => {
                if !root && (node.lo >= beta || node.hi <= alpha || node.lo == node.hi) {
                    return;
                }
                // Below the root a move must beat the best proven so far; at the root it
                // must reach it (ties are best moves too).
                let a = if root {
                    alpha.max(node.lo - 1)
                } else {
                    alpha.max(node.lo)
                };
                for e in edges {
                    let (lo, hi) = self.term(e);
                    if hi <= a || lo == hi {
                        continue;
                    }
                    let (ca, cb) = if e.same {
                        (a - e.gain, beta - e.gain)
                    } else {
                        (e.gain - beta, e.gain - a)
                    };
                    self.select_at(e.child, ca, cb, false, want, busy, out);
                    if out.len() >= want {
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

    /// The root as a leaf (a swap on offer, depth 0), if it is one.
    #[must_use]
    pub fn root_leaf(&self) -> Option<&Leaf> {
        match self.nodes[0].kind {
            Kind::Leaf(l) => Some(&self.leaves[l]),
            _ => None,
        }
    }

    /// Once [`Tree::done`]: the root's best moves, in [`KalahPosition::legal_moves`] order.
    #[must_use]
    pub fn best_moves(&self) -> Vec<KalahMove> {
        let root = &self.nodes[0];
        let Kind::Inner(edges) = &root.kind else {
            return self
                .root_leaf()
                .and_then(|l| l.solution.as_ref())
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

    /// Once [`Tree::done`]: a principal variation, value-keeping moves through the tree (the
    /// first in legal order at each node) and then the leaf's own.
    #[must_use]
    pub fn principal_variation(&self) -> Vec<KalahMove> {
        let mut pv = Vec::new();
        let mut n = 0;
        loop {
            let node = &self.nodes[n];
            match &node.kind {
                Kind::Over => return pv,
                Kind::Leaf(l) => {
                    if let Some(s) = &self.leaves[*l].solution {
                        pv.extend_from_slice(&s.pv);
                    }
                    return pv;
                }
                Kind::Inner(edges) => {
                    let next = edges
                        .iter()
                        .filter(|e| self.term(e) == (node.lo, node.lo))
                        .min_by_key(|e| e.mv);
                    let Some(e) = next else { return pv };
                    pv.push(e.mv);
                    n = e.child;
                }
            }
        }
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

    /// Solves every leaf `select` asks for, `workers` at a time with the results coming
    /// back in a scrambled order, until `done`: the value and best moves of a plain negamax
    /// at every worker count and depth.
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
            for depth in [1, 2, 4] {
                for workers in [1, 2, 5] {
                    let mut t = Tree::new(root, depth);
                    let mut busy: Vec<usize> = Vec::new();
                    let mut rounds = 0;
                    while !t.done() {
                        rounds += 1;
                        assert!(rounds < 100_000);
                        let set: HashSet<usize> = busy.iter().copied().collect();
                        busy.extend(t.select(workers - busy.len(), &set));
                        assert!(!busy.is_empty(), "nothing to solve before done");
                        // The last one given out comes back first.
                        let l = busy.remove(busy.len() - 1);
                        let v = negamax(&t.leaves()[l].pos);
                        t.solved(
                            l,
                            LeafSolution {
                                value: v,
                                pv: Vec::new(),
                                best_moves: Vec::new(),
                                swap: None,
                                nodes: 1,
                                seconds: 0.0,
                            },
                        );
                    }
                    assert_eq!(t.bounds(), (want, want), "{rules} depth {depth}");
                    if t.root_leaf().is_none() {
                        assert_eq!(t.best_moves(), want_best, "{rules} depth {depth}");
                        // The variation keeps the value: replayed, its final margin is the
                        // root's margin plus the value.
                        let mut p = root;
                        for mv in t.principal_variation() {
                            p = p.play(mv).unwrap();
                        }
                        if p.is_over() {
                            let side = root.side_to_move().unwrap();
                            assert_eq!(diff_for(&p, side) - diff_for(&root, side), want);
                        }
                    }
                }
            }
        }
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
