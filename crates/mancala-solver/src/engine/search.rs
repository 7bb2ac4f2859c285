//! The anytime search: iterative deepening over a negamax alpha-beta with principal-variation
//! (null-window) search, a transposition table and move ordering.
//!
//! Algorithm sources: alpha-beta as in Knuth and Moore, "An analysis of alpha-beta pruning"
//! (1975), in its negamax form; iterative deepening with a transposition table and killer
//! moves as in Slate and Atkin's Chess 4.5 (1977); principal-variation search (a null window
//! for every move after the first, re-searched on a fail-high) after Marsland and Campbell
//! (1982); the "complete subtree" flag that makes a result exact follows the way exact Kalah
//! solvers (Irving, Donkers and Uiterwijk, "Solving Kalah", 2000) mark proven values.
//!
//! Exact play: with an endgame database ([`Engine::set_database`]) every position it holds
//! gets its exact value ([`Evaluate::exact_value`]) and is not searched further, and counts as
//! proven for the `exact` flag. Before the heuristic search, when the budget has a time or
//! node limit and no depth limit (a depth limit asks for a weaker, depth-limited search, as
//! the levels 1–9 do), [`Evaluate::solve_exactly`] may solve the root with the exact [`Solver`]
//! (same database, a quarter of the budget, the same cancel flag; Kalah tries it with at most
//! [`super::eval::ROOT_SOLVE_MAX_SEEDS`] seeds above the database's K); a proven result is
//! returned as it is, otherwise iterative deepening gets the rest of the budget.
//!
//! Extra turns: a move after which the same player is still to move keeps the sign of the
//! score and the window; any other move negates both, and the pie-rule swap
//! ([`Game::swaps_players`]) negates although the side to move stays. Every move, an
//! extra-turn move included, is one ply of depth.
//!
//! History: under a rule set with history rules ([`Game::history_rules`]: Oware's repetition,
//! OW-6.2, and move limit, OW-6.4) the search keeps the path from the last irreversible move
//! ([`Game::is_irreversible`]) of the game's [`History`] down to the node searched. A move to
//! a position that would then occur the rule set's repetition count of times, or a move made
//! at the move limit, leads to the finished position of [`Game::end_by`] (its final score,
//! the cycle rule's or the rows'), which is not searched. Near the move limit the plies left
//! are part of the table key. The values the table keeps for positions below a repetition
//! are those of the path they were searched on (the usual graph-history interaction of
//! transposition tables); the root's children are always judged on the game's own history.
//! Games without history rules (Kalah, Bao la Kete) are searched exactly as before.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_core::oware::{OwarePosition, OwareRules};
use mancala_core::{Game, GameRecord, HistoryEnd, HistoryRules, Side};
use smallvec::SmallVec;

use super::eval::{Evaluate, DECISIVE, WIN};
use super::tt::{Bound, Entry, Table};
use super::EngineError;
use crate::awari::AwariDb;
use crate::{Egdb, Solver};

/// The deepest search, in plies (a depth limit above it is refused).
pub const MAX_DEPTH: u32 = 120;
/// Default transposition-table size, in bytes (16 MiB: 2^20 entries of 16 bytes).
pub const DEFAULT_TT_BYTES: usize = 16 << 20;

const INF: i32 = WIN + 1;
/// Node-count interval between two looks at the clock and the cancel flag.
const CHECK_EVERY: u64 = 1024;

/// The budget of one search. At least one of the four must be set. Whatever runs out first
/// stops the search; the result is the best move of the last completed iteration.
///
/// The first iteration (depth 1) always completes, so that a legal move is returned even with
/// a zero budget; it may exceed a node budget by at most the number of legal moves plus one.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Wall-clock budget. The search looks at the clock every 1024 nodes, and does not start
    /// a new iteration once half of it is spent (the next one would hardly finish).
    pub time: Option<Duration>,
    /// Node budget: positions visited (each searched position and each finished game reached
    /// counts one).
    pub nodes: Option<u64>,
    /// Depth limit in plies, 1..=[`MAX_DEPTH`].
    pub depth: Option<u32>,
    /// Set to `true` from another thread to stop the search (looked at every 1024 nodes).
    /// The engine only reads the flag, never clears it: a flag already set when the search
    /// starts stops it after the first iteration (which always completes), and the caller
    /// resets it before the next search it should not stop.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Limits {
    /// A wall-clock budget only.
    #[must_use]
    pub fn time(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// A node budget only.
    #[must_use]
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// A depth limit only, in plies.
    #[must_use]
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// These limits with a wall-clock budget.
    #[must_use]
    pub fn with_time(self, time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..self
        }
    }

    /// These limits with a node budget.
    #[must_use]
    pub fn with_nodes(self, nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..self
        }
    }

    /// These limits with a depth limit, in plies.
    #[must_use]
    pub fn with_depth(self, depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..self
        }
    }

    /// These limits with a cancel flag.
    #[must_use]
    pub fn with_cancel(self, cancel: Arc<AtomicBool>) -> Limits {
        Limits {
            cancel: Some(cancel),
            ..self
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The best move found (first move of `pv`); always legal in the searched position.
    pub best_move: M,
    /// Its score for the player to move, in score units (Kalah: hundredths of a seed of final
    /// store difference, see [`crate::engine::eval`]); the game-theoretic value when `exact`.
    pub score: i32,
    /// Depth of the last completed iteration, in plies; for a result of the exact root solve
    /// (module documentation), the length of the solver's principal variation.
    pub depth: u32,
    /// Principal variation: the expected line of play, starting with `best_move` (may be
    /// shorter than `depth` where the transposition table cut the line short).
    pub pv: Vec<M>,
    /// Nodes searched, all iterations together (the unfinished last one included).
    pub nodes: u64,
    /// Whether `score` is exact (the game-theoretic value, which deeper search cannot
    /// change): the last completed iteration reached only finished games and positions
    /// valued by the endgame database, or the exact root solve proved the value.
    pub exact: bool,
    /// Wall-clock time of the search.
    pub elapsed: Duration,
}

impl<M> SearchResult<M> {
    /// Whether the score is a forced win or loss of a win/loss-scored game (beyond
    /// ±[`DECISIVE`]).
    #[must_use]
    pub fn is_decisive(&self) -> bool {
        self.score.abs() > DECISIVE
    }

    /// Nodes per second of the search (0 when no time was measured).
    #[must_use]
    pub fn nodes_per_second(&self) -> f64 {
        let s = self.elapsed.as_secs_f64();
        if s > 0.0 {
            self.nodes as f64 / s
        } else {
            0.0
        }
    }
}

/// The part of a game's history the search needs ([`Engine::search_history`]): the
/// positions since the last irreversible move before the position searched, and the plies
/// played. Only rule sets with history rules ([`Game::history_rules`]) look at it.
#[derive(Clone, Copy, Debug)]
pub struct History<'a, G> {
    /// The positions since the last irreversible move ([`Game::is_irreversible`]; Oware: the
    /// last capture), oldest first, **without** the position searched: those it or a later
    /// position can repeat (OW-6.2). Earlier positions may be included (they are compared
    /// too, and cannot match); finished ones must not be.
    pub earlier: &'a [G],
    /// Moves (plies) played from the start or set-up position to the position searched, for
    /// the move limit (OW-6.4).
    pub plies: u64,
}

impl<'a, G: Game> History<'a, G> {
    /// No history: the position searched is the start or set-up position (occurring once,
    /// no move played).
    #[must_use]
    pub fn none() -> History<'a, G> {
        History {
            earlier: &[],
            plies: 0,
        }
    }

    /// The history of `game` at its current position: the positions since its last
    /// irreversible move ([`GameRecord::since_irreversible`], the current one left out) and
    /// its plies.
    #[must_use]
    pub fn of(game: &'a GameRecord<G>) -> History<'a, G> {
        let since = game.since_irreversible();
        History {
            earlier: &since[..since.len() - 1],
            plies: game.plies() as u64,
        }
    }
}

struct Kid<G: Evaluate> {
    order: i32,
    hint: i32,
    index: u8,
    mv: G::Move,
    child: G,
}

/// The root exact solve gets this fraction (1/`SOLVE_SHARE`) of the time and node budget.
const SOLVE_SHARE: u32 = 4;

/// The root exact solve's table size per second of its budget (bytes): a one-thread solve
/// stores at most a few million entries a second, and a table it cannot fill costs its first
/// touch of every page. Measured (2-core VM, K = 20 database loaded, `mancala solve
/// --max-seconds 0.05 --threads 1 --egdb …`): a 16 MiB table took 0.23 s and a 64 MiB one
/// 0.72 s to stop at a 0.05 s limit, a 1 MiB one 0.051 s, so at a 0.2 s `bestmove` the
/// engine's 16 MiB table left the heuristic search depth 1.
const SOLVE_TABLE_BYTES_PER_SECOND: f64 = 16.0 * 1024.0 * 1024.0;
/// The same per node of a node budget (bytes).
const SOLVE_TABLE_BYTES_PER_NODE: u64 = 16;
/// The smallest root-solve table (bytes).
const SOLVE_TABLE_MIN_BYTES: usize = 1 << 20;

/// The table size of the root exact solve for a search with budget `limits` by an engine
/// whose own table has `engine_bytes` bytes: proportional to the solve's share of the budget
/// ([`SOLVE_TABLE_BYTES_PER_SECOND`], [`SOLVE_TABLE_BYTES_PER_NODE`]), a power of two from
/// [`SOLVE_TABLE_MIN_BYTES`] up to `engine_bytes`.
fn solve_table_bytes(time: Option<Duration>, nodes: Option<u64>, engine_bytes: usize) -> usize {
    let by_time = time.map(|t| {
        let b = t.as_secs_f64() / f64::from(SOLVE_SHARE) * SOLVE_TABLE_BYTES_PER_SECOND;
        if b >= engine_bytes as f64 {
            engine_bytes
        } else {
            b as usize
        }
    });
    let by_nodes = nodes.map(|n| {
        let b = (n / u64::from(SOLVE_SHARE)).saturating_mul(SOLVE_TABLE_BYTES_PER_NODE);
        usize::try_from(b).unwrap_or(usize::MAX)
    });
    let want = match (by_time, by_nodes) {
        (Some(a), Some(b)) => a.min(b),
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => engine_bytes,
    };
    let want = want.checked_next_power_of_two().unwrap_or(usize::MAX);
    want.min(engine_bytes)
        .max(SOLVE_TABLE_MIN_BYTES.min(engine_bytes))
}

/// The anytime engine for any game that implements [`Evaluate`]. Holds the transposition
/// table (kept between searches, so consecutive moves of one game reuse it), the search
/// stacks, and for exact play an optional endgame database and an exact [`Solver`] (one
/// thread, a table sized to the solve's share of the budget up to the engine's table size,
/// made at its first use). The engine is `Send`
/// and `Sync` (for the games of the core; e.g. it may be moved to a search thread or kept
/// behind a `Mutex`), but a search takes `&mut self`: one search at a time per engine,
/// single-threaded.
pub struct Engine<G: Evaluate> {
    tt: Table,
    db: Option<Arc<Egdb>>,
    /// The Awari database (Oware rule sets it serves, [`Evaluate::awari_serves`]).
    awari: Option<Arc<AwariDb>>,
    /// The root solve's solver and its table size (bytes).
    solver: Option<(Solver, usize)>,
    root_solve: bool,
    killers: Vec<[Option<G::Move>; 2]>,
    pv: Vec<Vec<G::Move>>,
    root_moves: Vec<G::Move>,
    nodes: u64,
    horizon: u64,
    /// Node count at which the clock and the cancel flag are next looked at.
    next_check: u64,
    aborted: bool,
    can_abort: bool,
    node_limit: u64,
    deadline: Option<Instant>,
    cancel: Option<Arc<AtomicBool>>,
    /// The history rules of the position searched ([`HistoryRules::NONE`]: nothing tracked).
    rules: HistoryRules,
    /// The game's positions since its last irreversible move, then the search path down to
    /// the node searched (only under history rules).
    path: Vec<G>,
    /// For each node of `path` from the root on, the index in `path` of the first position
    /// since the last irreversible move before it.
    stretch: Vec<usize>,
    /// Plies played in the game before the root.
    root_plies: u64,
}

impl<G: Evaluate> Default for Engine<G> {
    fn default() -> Self {
        Engine::new()
    }
}

impl<G: Evaluate> Engine<G> {
    /// An engine with a [`DEFAULT_TT_BYTES`] transposition table.
    #[must_use]
    pub fn new() -> Engine<G> {
        Engine::with_tt_bytes(DEFAULT_TT_BYTES)
    }

    /// An engine whose transposition table takes at most `bytes` bytes (rounded down to a
    /// power of two of 64-byte buckets, at least 16 KiB).
    #[must_use]
    pub fn with_tt_bytes(bytes: usize) -> Engine<G> {
        let stack = MAX_DEPTH as usize + 2;
        Engine {
            tt: Table::new(bytes),
            db: None,
            awari: None,
            solver: None,
            root_solve: true,
            killers: vec![[None, None]; stack],
            pv: (0..stack).map(|_| Vec::with_capacity(stack)).collect(),
            root_moves: Vec::new(),
            nodes: 0,
            horizon: 0,
            next_check: CHECK_EVERY,
            aborted: false,
            can_abort: false,
            node_limit: u64::MAX,
            deadline: None,
            cancel: None,
            rules: HistoryRules::NONE,
            path: Vec::new(),
            stretch: Vec::new(),
            root_plies: 0,
        }
    }

    /// Size of the transposition table, in bytes.
    #[must_use]
    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Uses the endgame database `db` (or none): every position it holds is valued exactly
    /// during the search, and the root exact solve ([`Evaluate::solve_exactly`]) uses it too.
    /// Whether it serves the positions searched is checked at each search
    /// ([`EngineError::DatabaseMismatch`]); [`Engine::with_database`] checks it for Kalah
    /// rules at once.
    pub fn set_database(&mut self, db: Option<Arc<Egdb>>) {
        self.db = db;
        // The solver keeps its database: make a new one.
        self.solver = None;
    }

    /// The endgame database in use, if any.
    #[must_use]
    pub fn database(&self) -> Option<&Arc<Egdb>> {
        self.db.as_ref()
    }

    /// Uses the Awari database `db` (or none) for Oware positions of the rule sets its values
    /// carry over to ([`super::oware::awari_values_carry_over`]: `awari` and its variants in
    /// the repetition count): a root with at most `db.max_seeds()` seeds in the houses is
    /// played by the database (a move of the largest value, the exact score), and every node
    /// of the search it holds is scored exactly, `SEED` × (captured difference + value),
    /// the final margin under best play, on the scale of finished games. Where the game's
    /// history could change the value (a position repeated since the last capture), the
    /// database is not asked (`docs/awari.md`, "The engine"). A search of a position of
    /// another rule set is refused with [`EngineError::DatabaseMismatch`].
    pub fn set_awari_database(&mut self, db: Option<Arc<AwariDb>>) {
        self.awari = db;
    }

    /// The Awari database in use, if any.
    #[must_use]
    pub fn awari_database(&self) -> Option<&Arc<AwariDb>> {
        self.awari.as_ref()
    }

    /// Whether the engine may solve the root exactly before the heuristic search (default
    /// `true`; see the module documentation). Turning it off leaves the database in use.
    pub fn set_root_solve(&mut self, on: bool) {
        self.root_solve = on;
    }

    /// Forgets everything learnt (transposition tables, killer moves), e.g. before a new game.
    pub fn clear(&mut self) {
        self.tt.clear();
        if let Some((s, _)) = &mut self.solver {
            s.clear_table();
        }
        for k in &mut self.killers {
            *k = [None, None];
        }
    }

    /// Searches `pos` by iterative deepening within `limits` and returns the best move of the
    /// last completed iteration, with its score, depth, principal variation, node count and
    /// exactness. Stops early when an iteration is exact. With a time or node budget the root
    /// may first be solved exactly (module documentation).
    ///
    /// # Errors
    /// [`EngineError::GameOver`] when `pos` is a finished game, [`EngineError::NoLimit`] when
    /// `limits` sets nothing, [`EngineError::Depth`] for a depth limit outside
    /// 1..=[`MAX_DEPTH`], [`EngineError::DatabaseMismatch`] when the engine's database does
    /// not serve `pos`, [`EngineError::OutOfMemory`] when the transposition table's memory
    /// cannot be had (at the first search, or the first after [`Engine::clear`]).
    pub fn search(
        &mut self,
        pos: &G,
        limits: &Limits,
    ) -> Result<SearchResult<G::Move>, EngineError> {
        self.search_moves(pos, limits, &[])
    }

    /// Like [`Engine::search`], but the move chosen is one of `moves` (all legal moves when
    /// `moves` is empty); e.g. a player who has decided not to swap. Moves of `moves` that
    /// are not legal are ignored. A restricted search does not try the root exact solve
    /// (whose best move might not be among `moves`); the database is still used.
    ///
    /// # Errors
    /// As [`Engine::search`], and [`EngineError::NoRootMove`] when `moves` is not empty but
    /// holds no legal move.
    pub fn search_moves(
        &mut self,
        pos: &G,
        limits: &Limits,
        moves: &[G::Move],
    ) -> Result<SearchResult<G::Move>, EngineError> {
        self.search_history(pos, History::none(), limits, moves)
    }

    /// Searches the current position of `game` with its history (module documentation,
    /// "History"): under Oware's rule sets a move that repeats a position for the repetition
    /// count (OW-6.2) or reaches the move limit (OW-6.4) is valued as the end it is.
    ///
    /// # Errors
    /// As [`Engine::search`] (a game over by a history rule is [`EngineError::GameOver`]).
    pub fn search_game(
        &mut self,
        game: &GameRecord<G>,
        limits: &Limits,
    ) -> Result<SearchResult<G::Move>, EngineError> {
        self.search_history(game.position(), History::of(game), limits, &[])
    }

    /// Like [`Engine::search_moves`], in a game whose `history` before `pos` is given: the
    /// general form of [`Engine::search`], [`Engine::search_moves`] and
    /// [`Engine::search_game`]. The history matters only under history rules
    /// ([`Game::history_rules`]); the root exact solve is not tried under them (it sees the
    /// position alone).
    ///
    /// # Errors
    /// As [`Engine::search_moves`].
    pub fn search_history(
        &mut self,
        pos: &G,
        history: History<'_, G>,
        limits: &Limits,
        moves: &[G::Move],
    ) -> Result<SearchResult<G::Move>, EngineError> {
        let legal = pos.legal_moves();
        if pos.side_to_move().is_none() || legal.is_empty() {
            return Err(EngineError::GameOver);
        }
        self.root_moves.clear();
        self.root_moves
            .extend(moves.iter().copied().filter(|m| legal.contains(m)));
        if !moves.is_empty() && self.root_moves.is_empty() {
            return Err(EngineError::NoRootMove);
        }
        let first = self.root_moves.first().copied().unwrap_or(legal[0]);
        if limits.time.is_none()
            && limits.nodes.is_none()
            && limits.depth.is_none()
            && limits.cancel.is_none()
        {
            return Err(EngineError::NoLimit);
        }
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH);
        if !(1..=MAX_DEPTH).contains(&max_depth) {
            return Err(EngineError::Depth(max_depth));
        }
        if let Some(db) = &self.db {
            if !pos.database_serves(db) {
                return Err(EngineError::DatabaseMismatch {
                    database: db.description(),
                });
            }
        }
        if let Some(db) = &self.awari {
            if !pos.awari_serves() {
                return Err(EngineError::DatabaseMismatch {
                    database: format!("Awari, rule set awari, 0..={} seeds", db.max_seeds()),
                });
            }
        }
        self.tt.allocate()?;
        let start = Instant::now();
        self.tt.new_search();
        let mut solver_nodes = 0;
        self.rules = pos.history_rules();
        self.path.clear();
        self.stretch.clear();
        self.root_plies = history.plies;
        if !self.rules.is_none() {
            self.path.extend_from_slice(history.earlier);
            let from = match history.earlier.last() {
                Some(last) if last.is_irreversible(pos) => self.path.len(),
                _ => 0,
            };
            self.path.push(*pos);
            self.stretch.push(from);
        }
        if self.root_moves.is_empty() {
            if let Some(r) = self.awari_root(pos, start) {
                return Ok(r);
            }
        }
        if self.root_solve
            && self.rules.is_none()
            && self.root_moves.is_empty()
            && limits.depth.is_none()
            && (limits.time.is_some() || limits.nodes.is_some())
        {
            let bytes = solve_table_bytes(limits.time, limits.nodes, self.tt.bytes());
            // A solver made for a smaller budget is made anew (its table would be too small);
            // one with a table at least as large is kept, with what its table holds.
            let (solver, had) = match self.solver.take() {
                Some((s, had)) if had >= bytes => (Some(s), had),
                _ => (None, bytes),
            };
            let mut solver = solver
                .unwrap_or_else(|| {
                    let s = Solver::new().threads(1).tt_bytes(bytes);
                    match &self.db {
                        Some(db) => s.database(db.clone()),
                        None => s,
                    }
                })
                .node_limit(limits.nodes.map(|n| n / u64::from(SOLVE_SHARE)))
                .time_limit(limits.time.map(|t| t / SOLVE_SHARE))
                .cancel_flag(limits.cancel.clone().unwrap_or_default());
            let solved = pos.solve_exactly(&mut solver);
            self.solver = Some((solver, had));
            match solved {
                Ok(mut r) if legal.contains(&r.best_move) => {
                    r.elapsed = start.elapsed();
                    return Ok(r);
                }
                Ok(r) => solver_nodes = r.nodes,
                Err(nodes) => solver_nodes = nodes,
            }
        }
        self.nodes = 0;
        self.next_check = CHECK_EVERY;
        self.aborted = false;
        self.node_limit = limits
            .nodes
            .map_or(u64::MAX, |n| n.saturating_sub(solver_nodes));
        // A budget too large for the clock (e.g. `Duration::MAX`) means no deadline.
        self.deadline = limits.time.and_then(|t| start.checked_add(t));
        self.cancel = limits.cancel.clone();
        let mut best: Option<SearchResult<G::Move>> = None;
        for depth in 1..=max_depth {
            self.can_abort = depth > 1;
            self.horizon = 0;
            let score = self.negamax(pos, depth, -INF, INF, 0);
            if self.aborted {
                break;
            }
            let pv = self.pv[0].clone();
            let exact = self.horizon == 0;
            best = Some(SearchResult {
                best_move: pv.first().copied().unwrap_or(first),
                score,
                depth,
                pv,
                nodes: self.nodes,
                exact,
                elapsed: start.elapsed(),
            });
            if exact || self.nodes >= self.node_limit || self.cancelled() {
                break;
            }
            if let Some(t) = limits.time {
                if start.elapsed().saturating_mul(2) > t {
                    break;
                }
            }
        }
        let mut result = best.unwrap_or(SearchResult {
            best_move: first,
            score: 0,
            depth: 0,
            pv: vec![first],
            nodes: 0,
            exact: false,
            elapsed: Duration::ZERO,
        });
        result.nodes = self.nodes + solver_nodes;
        result.elapsed = start.elapsed();
        self.cancel = None;
        Ok(result)
    }

    fn cancelled(&self) -> bool {
        self.cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.nodes >= self.node_limit {
            return true;
        }
        // Not `nodes % CHECK_EVERY == 0`: leaves scored in place also count nodes, so the
        // count can step over a multiple between two calls and the look would be skipped.
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            if self.cancelled() {
                return true;
            }
            if let Some(d) = self.deadline {
                return Instant::now() >= d;
            }
        }
        false
    }

    /// The value of a finished `child` for the player who moved from `side` (negated across
    /// a swap), shortened by the distance from the root when decisive.
    #[inline]
    fn final_value(child: &G, side: Side, swaps: bool, ply: usize) -> i32 {
        let v = child.final_value(side);
        let v = if swaps { -v } else { v };
        let d = ply as i32 + 1;
        if v > DECISIVE {
            v - d
        } else if v < -DECISIVE {
            v + d
        } else {
            v
        }
    }

    /// The exact value of `pos` from the database, for the player to move, if it holds it.
    /// `on_path`: `pos` is the last position of the path (a node searched), else a child of
    /// the last position (a leaf scored in place).
    #[inline]
    fn exact_value(&self, pos: &G, on_path: bool) -> Option<i32> {
        if let Some(db) = self.awari.as_deref() {
            if self.awari_history_ok(pos, on_path) {
                return pos.awari_value(db);
            }
            return None;
        }
        self.db.as_deref().and_then(|db| pos.exact_value(db))
    }

    /// Whether the history cannot change the Awari database's value of `x`
    /// (`docs/awari.md`, "The engine"): with repetition count k, no position of the stretch
    /// before `x` (the positions since the last irreversible move, a capture) has occurred
    /// more than k − 2 times. Then the player with a winning strategy by the database's
    /// attractors never meets a position a k-th time, and a repetition the other player can
    /// force ends the game at the even split, worth no more to him than the value. Always
    /// `true` without a repetition rule. Positions are counted by their table hash (a
    /// collision can only count more, so the answer stays safe).
    fn awari_history_ok(&self, x: &G, on_path: bool) -> bool {
        let Some(k) = self.rules.repetition else {
            return true;
        };
        let (from, end) = if on_path {
            let end = self.path.len().saturating_sub(1);
            (self.stretch.last().copied().unwrap_or(0).min(end), end)
        } else {
            match self.path.last() {
                Some(parent) if !parent.is_irreversible(x) => {
                    (self.stretch.last().copied().unwrap_or(0), self.path.len())
                }
                _ => return true,
            }
        };
        let stretch = &self.path[from..end];
        if stretch.is_empty() {
            return true;
        }
        let most = usize::from(k).saturating_sub(2);
        if most == 0 {
            return false;
        }
        let mut keys: SmallVec<[u64; 64]> = stretch.iter().map(Evaluate::hash_key).collect();
        keys.sort_unstable();
        let mut run = 0;
        for (i, key) in keys.iter().enumerate() {
            run = if i > 0 && keys[i - 1] == *key {
                run + 1
            } else {
                1
            };
            if run > most {
                return false;
            }
        }
        true
    }

    /// The root played by the Awari database (`docs/awari.md`, "The engine"): when the engine
    /// has one that holds `pos` and the history cannot change its value, a move of the
    /// largest database value, with that value as the exact score (depth 1, no node
    /// searched). `None` otherwise.
    fn awari_root(&self, pos: &G, start: Instant) -> Option<SearchResult<G::Move>> {
        let db = self.awari.as_deref()?;
        if !self.awari_history_ok(pos, true) {
            return None;
        }
        let values = pos.awari_move_values(db)?;
        let (best_move, score) = values.iter().copied().fold(
            None,
            |best: Option<(G::Move, i32)>, (m, v)| match best {
                Some((_, b)) if b >= v => best,
                _ => Some((m, v)),
            },
        )?;
        Some(SearchResult {
            best_move,
            score,
            depth: 1,
            pv: vec![best_move],
            nodes: 0,
            exact: true,
            elapsed: start.elapsed(),
        })
    }

    /// The static value of `child` (reached by a move from a position with `side` to move)
    /// for the player who moved: final value, database value or heuristic evaluation, and
    /// whether it was heuristic.
    #[inline]
    fn static_value(&self, child: &G, side: Side, swaps: bool, ply: usize) -> (i32, bool) {
        match child.side_to_move() {
            None => (Self::final_value(child, side, swaps, ply), false),
            Some(s) => {
                let (v, heuristic) = match self.exact_value(child, false) {
                    Some(v) => (v, false),
                    None => (child.evaluate(), true),
                };
                if (s == side) != swaps {
                    (v, heuristic)
                } else {
                    (-v, heuristic)
                }
            }
        }
    }

    fn set_pv(&mut self, ply: usize, mv: G::Move, with_child: bool) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(mv);
        if with_child {
            line.extend_from_slice(&tail[0]);
        }
    }

    /// The position `mv` leads to from `pos` (at `ply`), with the history rules applied
    /// (module documentation, "History"): finished by [`Game::end_by`] when it repeats a
    /// position of the path for the rule set's repetition count (OW-6.2), or when it is
    /// reached at the move limit (OW-6.4); the plain child otherwise, and always for games
    /// without history rules.
    #[inline]
    fn child_of(&self, pos: &G, mv: G::Move, ply: usize) -> G {
        let child = pos.play_unchecked(mv);
        if self.rules.is_none() || child.is_over() {
            return child;
        }
        if let Some(k) = self.rules.repetition {
            // After an irreversible move nothing on the path can recur.
            if !pos.is_irreversible(&child) {
                let from = self.stretch.last().copied().unwrap_or(0);
                let earlier = self.path[from..].iter().filter(|&&p| p == child).count();
                if earlier + 1 >= usize::from(k) {
                    return child.end_by(HistoryEnd::Repetition);
                }
            }
        }
        if let Some(limit) = self.rules.move_limit {
            if self.root_plies + ply as u64 + 1 >= u64::from(limit) {
                return child.end_by(HistoryEnd::MoveLimit);
            }
        }
        child
    }

    /// The table key of `pos` at `ply`: its hash, and when the move limit is within reach of
    /// any search from it ([`MAX_DEPTH`] plies), the plies left to the limit, since the value
    /// then depends on them.
    #[inline]
    fn key(&self, pos: &G, ply: usize) -> u64 {
        let key = pos.hash_key();
        match self.rules.move_limit {
            Some(limit) => {
                let left = u64::from(limit).saturating_sub(self.root_plies + ply as u64);
                if left <= u64::from(MAX_DEPTH) {
                    key ^ super::eval::mix64(left.wrapping_add(0x9e37_79b9_7f4a_7c15))
                } else {
                    key
                }
            }
            None => key,
        }
    }

    /// Searches a non-final `child` of `parent`: same sign and window when the same player
    /// moves again, negated otherwise. The child is on the path while it is searched.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        parent: &G,
        child: &G,
        same_player: bool,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let tracked = !self.rules.is_none();
        if tracked {
            let from = if parent.is_irreversible(child) {
                self.path.len()
            } else {
                self.stretch.last().copied().unwrap_or(0)
            };
            self.path.push(*child);
            self.stretch.push(from);
        }
        let v = if same_player {
            self.negamax(child, depth, alpha, beta, ply)
        } else {
            -self.negamax(child, depth, -beta, -alpha, ply)
        };
        if tracked {
            self.path.pop();
            self.stretch.pop();
        }
        v
    }

    /// Counts the node and looks at the budget: `true` when the search must stop (and then
    /// marks it aborted).
    #[inline]
    fn enter(&mut self, ply: usize) -> bool {
        self.nodes += 1;
        self.pv[ply].clear();
        if self.can_abort && self.out_of_budget() {
            self.aborted = true;
            return true;
        }
        false
    }

    /// The table's word on `key` at `ply` with `depth` plies to go and the window
    /// (`alpha`, `beta`): `Err(value)` when a stored value decides the node (no cut-offs at
    /// the root nor in principal-variation nodes, so that the principal variation is
    /// collected in full), else `Ok` with the stored best move's index, if any.
    fn probe(
        &mut self,
        key: u64,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Result<Option<u8>, i32> {
        let Some(e) = self.tt.probe(key) else {
            return Ok(None);
        };
        let pv_node = beta - alpha > 1;
        if ply > 0 && !pv_node && (e.complete || u32::from(e.depth) >= depth) {
            let v = from_tt(e.value, ply);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => v >= beta,
                Bound::Upper => v <= alpha,
            };
            if cut {
                if !e.complete {
                    self.horizon += 1;
                }
                return Err(v);
            }
        }
        Ok(Some(e.best))
    }

    /// The last ply: every child of `pos` is scored in place (a finished game, a database
    /// value or the heuristic), no ordering needed. Returns the best value and its move's
    /// index, or `None` when the node budget ran out.
    fn score_leaves(
        &mut self,
        pos: &G,
        side: Side,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<(i32, u8)> {
        let restricted = ply == 0 && !self.root_moves.is_empty();
        let mut best = -INF;
        let mut best_index = 0u8;
        for (i, &mv) in pos.legal_moves().iter().enumerate() {
            if restricted && !self.root_moves.contains(&mv) {
                continue;
            }
            let child = self.child_of(pos, mv, ply);
            self.nodes += 1;
            if self.can_abort && self.nodes >= self.node_limit {
                self.aborted = true;
                return None;
            }
            let (v, heuristic) = self.static_value(&child, side, pos.swaps_players(mv), ply);
            if heuristic {
                self.horizon += 1;
            }
            if v > best {
                best = v;
                best_index = i as u8;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, mv, false);
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        Some((best, best_index))
    }

    /// The children of `pos` in the order they are searched: the table move, the killers,
    /// then the game's hint (higher first), then the static value, then the move order.
    fn ordered_kids(
        &self,
        pos: &G,
        side: Side,
        tt_best: Option<u8>,
        ply: usize,
    ) -> SmallVec<[Kid<G>; 16]> {
        let restricted = ply == 0 && !self.root_moves.is_empty();
        let killers = self.killers[ply];
        let mut kids: SmallVec<[Kid<G>; 16]> = SmallVec::new();
        for (i, &mv) in pos.legal_moves().iter().enumerate() {
            if restricted && !self.root_moves.contains(&mv) {
                continue;
            }
            let child = self.child_of(pos, mv, ply);
            let (order, hint) = if tt_best == Some(i as u8) {
                (i32::MAX, 0)
            } else if killers[0] == Some(mv) {
                (i32::MAX - 1, 0)
            } else if killers[1] == Some(mv) {
                (i32::MAX - 2, 0)
            } else {
                let v = self
                    .static_value(&child, side, pos.swaps_players(mv), ply)
                    .0;
                (v, pos.order_hint(mv, &child))
            };
            kids.push(Kid {
                order,
                hint,
                index: i as u8,
                mv,
                child,
            });
        }
        kids.sort_unstable_by(|a, b| {
            let class = |k: &Kid<G>| k.order >= i32::MAX - 2;
            class(b)
                .cmp(&class(a))
                .then(b.hint.cmp(&a.hint))
                .then(b.order.cmp(&a.order))
                .then(a.index.cmp(&b.index))
        });
        kids
    }

    /// Searches the ordered `kids` of `pos` to `depth - 1` plies by principal-variation
    /// search (the first with the full window, the others with a null window, re-searched
    /// on a fail-high); a killer move is kept at a cut-off. Returns the best value and its
    /// move's index, or `None` when the search was aborted.
    #[allow(clippy::too_many_arguments)]
    fn search_kids(
        &mut self,
        pos: &G,
        side: Side,
        kids: &[Kid<G>],
        tt_best: Option<u8>,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<(i32, u8)> {
        let killers = self.killers[ply];
        let mut best = -INF;
        let mut best_index = 0u8;
        for (n, kid) in kids.iter().enumerate() {
            let swaps = pos.swaps_players(kid.mv);
            let (v, searched) = match kid.child.side_to_move() {
                None => {
                    self.nodes += 1;
                    if self.can_abort && self.nodes >= self.node_limit {
                        self.aborted = true;
                    }
                    (Self::final_value(&kid.child, side, swaps, ply), false)
                }
                Some(s) => {
                    let same = (s == side) != swaps;
                    let d = depth - 1;
                    let c = &kid.child;
                    let v = if n == 0 {
                        self.child(pos, c, same, d, alpha, beta, ply + 1)
                    } else {
                        let v = self.child(pos, c, same, d, alpha, alpha + 1, ply + 1);
                        if !self.aborted && v > alpha && v < beta {
                            self.child(pos, c, same, d, alpha, beta, ply + 1)
                        } else {
                            v
                        }
                    };
                    (v, true)
                }
            };
            if self.aborted {
                return None;
            }
            if v > best {
                best = v;
                best_index = kid.index;
                if v > alpha {
                    alpha = v;
                    self.set_pv(ply, kid.mv, searched);
                    if v >= beta {
                        if tt_best != Some(kid.index) && killers[0] != Some(kid.mv) {
                            self.killers[ply] = [Some(kid.mv), killers[0]];
                        }
                        break;
                    }
                }
            }
        }
        Some((best, best_index))
    }

    /// Negamax alpha-beta of `pos` (not finished) to `depth` plies at `ply` from the root,
    /// within (`alpha`, `beta`), for the player to move: the budget, the database, the
    /// horizon, the table, the children (scored in place at the last ply, else ordered and
    /// searched), the table again.
    fn negamax(&mut self, pos: &G, depth: u32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.enter(ply) {
            return 0;
        }
        let Some(side) = pos.side_to_move() else {
            // Finished games are scored by their parent; this is only reached if a caller
            // passes one, and 0 keeps the search sound.
            return 0;
        };
        if ply > 0 {
            if let Some(v) = self.exact_value(pos, true) {
                return v;
            }
        }
        if depth == 0 || ply >= MAX_DEPTH as usize {
            self.horizon += 1;
            return pos.evaluate();
        }
        let key = self.key(pos, ply);
        let horizon_before = self.horizon;
        let tt_best = match self.probe(key, depth, alpha, beta, ply) {
            Ok(best) => best,
            Err(v) => return v,
        };
        let searched = if depth == 1 {
            self.score_leaves(pos, side, alpha, beta, ply)
        } else {
            let kids = self.ordered_kids(pos, side, tt_best, ply);
            self.search_kids(pos, side, &kids, tt_best, depth, alpha, beta, ply)
        };
        let Some((best, best_index)) = searched else {
            return 0;
        };
        if ply == 0 && !self.root_moves.is_empty() {
            // The value of a restricted root is not the position's value.
            return best;
        }
        let bound = if best <= alpha {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt.store(Entry {
            key,
            value: to_tt(best, ply),
            depth: depth.min(255) as u8,
            bound,
            complete: self.horizon == horizon_before,
            best: best_index,
        });
        best
    }
}

impl Engine<KalahPosition> {
    /// This engine with the endgame database `db` for positions played under `rules`
    /// ([`Engine::set_database`], checked now).
    ///
    /// # Errors
    /// [`EngineError::DatabaseMismatch`] when `db` was built for another m or other
    /// value-relevant options than `rules`.
    pub fn with_database(
        mut self,
        db: Arc<Egdb>,
        rules: &KalahRules,
    ) -> Result<Engine<KalahPosition>, EngineError> {
        if !db.serves(rules) {
            return Err(EngineError::DatabaseMismatch {
                database: db.description(),
            });
        }
        self.set_database(Some(db));
        Ok(self)
    }
}

impl Engine<OwarePosition> {
    /// This engine with the Awari database `db` for positions played under `rules`
    /// ([`Engine::set_awari_database`], checked now).
    ///
    /// # Errors
    /// [`EngineError::DatabaseMismatch`] when the database's values do not carry over to
    /// `rules`.
    pub fn with_awari_database(
        mut self,
        db: Arc<AwariDb>,
        rules: &OwareRules,
    ) -> Result<Engine<OwarePosition>, EngineError> {
        if !super::oware::awari_values_carry_over(rules) {
            return Err(EngineError::DatabaseMismatch {
                database: format!("Awari, rule set awari, 0..={} seeds", db.max_seeds()),
            });
        }
        self.set_awari_database(Some(db));
        Ok(self)
    }
}

/// A decisive value made relative to the node (distance counted from it) for the table.
#[inline]
fn to_tt(v: i32, ply: usize) -> i32 {
    if v > DECISIVE {
        v + ply as i32
    } else if v < -DECISIVE {
        v - ply as i32
    } else {
        v
    }
}

/// A decisive table value made relative to the root again.
#[inline]
fn from_tt(v: i32, ply: usize) -> i32 {
    if v > DECISIVE {
        v - ply as i32
    } else if v < -DECISIVE {
        v + ply as i32
    } else {
        v
    }
}
