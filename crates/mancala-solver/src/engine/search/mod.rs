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
//! Exact play: with a database of the game ([`Engine::set_database`], the one slot, typed by
//! the game: [`ExactGame::Database`](crate::exact_values::ExactGame::Database)) every position it holds gets its exact value
//! ([`ExactValues::value_of`](crate::exact_values::ExactValues::value_of) plus the seeds stored, on the scale of finished games) and is
//! not searched further, and counts as proven for the `exact` flag; where the game's
//! history could change a database value (a position repeated since the last irreversible
//! move) the database is not asked. Before the heuristic search the root is offered to the
//! game's exact root solve ([`ExactGame::solve_root`](crate::exact_values::ExactGame::solve_root)): by default a move of the largest
//! database value when the database holds the root; for Kalah, when the budget has a time or
//! node limit and no depth limit (a depth limit asks for a weaker, depth-limited search, as
//! the levels 1–9 do), the exact [`Solver`] with the database, a quarter of the budget and
//! the same cancel flag (at most [`crate::exact_values::ROOT_SOLVE_MAX_SEEDS`] seeds above
//! the database's K). A proven result is returned as it is, otherwise iterative deepening
//! gets the rest of the budget.
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
//! are part of the table key. Under a repetition rule the value of a position depends on the
//! positions met since the last irreversible move (which of them a move would repeat, and
//! how often they occurred): the table key is then the position's hash combined with a hash
//! of that multiset (the wrapping sum of a hash of each occurrence, whatever their order),
//! so that a value is only reused where the same positions could recur (the
//! graph-history interaction of transposition tables does not arise). Iterative deepening
//! still finds its earlier iterations' entries on the same lines.
//! Games without history rules (Kalah, Bao la Kete) are searched exactly as before.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mancala_core::{Game, GameRecord, HistoryRules};

use super::eval::{Evaluate, DECISIVE, SEED, WIN};
use super::tt::Table;
use super::EngineError;
use crate::egdb::Database;
use crate::exact_values::{ExactValues, Root};
use crate::Solver;

mod tree;

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
    /// Wall-clock budget, counted from the call: the table's memory and the first touches
    /// of its pages (at most an eighth of the budget; the pages left are taken as the search
    /// stores into them) are inside it. The search looks at the clock every 1024 nodes, and
    /// does not start a new iteration once half of it is spent (the next one would hardly
    /// finish).
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

/// The root exact solve gets this fraction (1/`SOLVE_SHARE`) of the time and node budget.
const SOLVE_SHARE: u32 = 4;

/// The first touches of the engine's table's pages before a search get at most this
/// fraction (1/`TOUCH_SHARE`) of its time budget ([`Table::touch`](crate::engine::tt::Table::touch)):
/// a table of gibibytes takes seconds to touch whole, and the budget counts from the call.
const TOUCH_SHARE: u32 = 8;

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
/// stacks, and for exact play an optional database of the game ([`ExactGame::Database`](crate::exact_values::ExactGame::Database))
/// and an exact [`Solver`] (one thread, a table sized to the solve's share of the budget up
/// to the engine's table size, made at its first use). The engine is `Send`
/// and `Sync` (for the games of the core; e.g. it may be moved to a search thread or kept
/// behind a `Mutex`), but a search takes `&mut self`: one search at a time per engine,
/// single-threaded.
pub struct Engine<G: Evaluate> {
    tt: Table,
    /// The one database slot: the game's database, if any.
    db: Option<Arc<G::Database>>,
    /// A database whose values serve as the evaluation ([`Engine::set_estimates`]).
    estimates: Option<Arc<G::Database>>,
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
    /// For each node of `path` from the root on, the hash of the multiset of positions from
    /// the first since the last irreversible move to the node (`tree::occurrence_hash`).
    sets: Vec<u64>,
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
            estimates: None,
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
            sets: Vec::new(),
        }
    }

    /// Size of the transposition table, in bytes.
    #[must_use]
    pub fn tt_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// Uses the database `db` of the game (or none: [`ExactGame::Database`](crate::exact_values::ExactGame::Database), the Kalah
    /// endgame databases for Kalah, the Awari databases for Oware): every position it holds
    /// is scored exactly during the search, `SEED` × (the seeds stored + its value), the
    /// final margin under best play on the scale of finished games, and the root is first
    /// offered to the game's exact root solve with it ([`ExactGame::solve_root`](crate::exact_values::ExactGame::solve_root): Kalah's
    /// exact solver reads it; an Oware root it holds is played by it, a move of the largest
    /// value with the exact score). Where the game's history could change a value (a
    /// position repeated since the last capture), the database is not asked
    /// (`docs/awari.md`, "The engine"). Whether it serves the positions searched is checked
    /// at each search ([`EngineError::DatabaseMismatch`]); [`Engine::with_database`] checks
    /// it for a rule set at once.
    pub fn set_database(&mut self, db: Option<Arc<G::Database>>) {
        self.db = db;
        // The root solver may hold the old database: make a new one.
        self.solver = None;
    }

    /// Uses the values of `db` (or none) as the **evaluation** of the positions it holds
    /// whose game goes on, in place of the game's heuristic: `SEED` × (the seeds stored +
    /// [`ExactValues::estimate_of`]), an estimate of the final margin, never taken as exact.
    /// Meant for the database of a neighbouring rule set: for Oware Abapa (`oware`,
    /// `oware+repetition=2`) the Oware database of `grand_slam=none` (the rule set
    /// `oware+majority=off+cycle_score=split`), whose values it does not hold exactly (the
    /// majority end and own-row cycles change them where they come into play). Where the
    /// database's value decides the result whatever a cycle could change (the seeds stored
    /// plus the value beyond the seeds in the houses, just after a capture, without a move
    /// limit: `docs/oware-databases.md`, "Abapa"), the position is scored as the won or lost
    /// game it is ([`Evaluate::margin_score`]), still not flagged exact (the final margin
    /// under the majority end is not the database's). Under the database's own rule set use
    /// [`Engine::set_database`], which values them exactly (and comes first where both
    /// hold a position). Whether `db` serves the positions searched
    /// ([`ExactValues::check_estimate_rules`]: for Oware, six houses a side and the
    /// database's grand-slam rule) is checked at each search
    /// ([`EngineError::DatabaseMismatch`]). Another evaluation database than the one in use
    /// (or none in place of one, or one in place of none) empties the transposition table,
    /// whose scores were those of the other evaluation.
    pub fn set_estimates(&mut self, db: Option<Arc<G::Database>>) {
        let same = match (&self.estimates, &db) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same {
            self.tt.clear();
        }
        self.estimates = db;
    }

    /// The database in use, if any.
    #[must_use]
    pub fn database(&self) -> Option<&Arc<G::Database>> {
        self.db.as_ref()
    }

    /// The database whose values serve as the evaluation ([`Engine::set_estimates`]), if any.
    #[must_use]
    pub fn estimates(&self) -> Option<&Arc<G::Database>> {
        self.estimates.as_ref()
    }

    /// This engine with the database `db` for positions played under `rules`
    /// ([`Engine::set_database`], checked now).
    ///
    /// # Errors
    /// [`EngineError::DatabaseMismatch`] when `db` does not hold the values of `rules`
    /// (for Kalah another m or other value-relevant options; for Oware a rule set other than
    /// `awari` and its variants in the repetition rule).
    pub fn with_database(
        mut self,
        db: Arc<G::Database>,
        rules: &G::Rules,
    ) -> Result<Engine<G>, EngineError> {
        if db.check_rules(rules).is_err() {
            return Err(EngineError::DatabaseMismatch {
                database: db.describe(),
            });
        }
        self.set_database(Some(db));
        Ok(self)
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
    /// 1..=[`MAX_DEPTH`], [`EngineError::DatabaseMismatch`] when the engine's database (or
    /// its estimates database, [`Engine::set_estimates`]) does not serve `pos`,
    /// [`EngineError::OutOfMemory`] when the transposition table's memory cannot be had (at
    /// the first search, or the first after [`Engine::clear`]).
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
            if db.check_rules(&pos.rules()).is_err() {
                return Err(EngineError::DatabaseMismatch {
                    database: db.describe(),
                });
            }
        }
        if let Some(db) = &self.estimates {
            if db.check_estimate_rules(&pos.rules()).is_err() {
                return Err(EngineError::DatabaseMismatch {
                    database: format!("{}, as the evaluation", db.describe()),
                });
            }
        }
        let start = Instant::now();
        self.tt.allocate()?;
        // The table's first touches, within the budget: the pages not touched in its share
        // are taken as the search stores into them.
        let touch_until = limits.time.and_then(|t| start.checked_add(t / TOUCH_SHARE));
        self.tt.touch(touch_until, limits.cancel.as_deref());
        self.tt.new_search();
        let mut solver_nodes = 0;
        self.rules = pos.history_rules();
        self.path.clear();
        self.stretch.clear();
        self.sets.clear();
        self.root_plies = history.plies;
        if !self.rules.is_none() {
            self.path.extend_from_slice(history.earlier);
            let from = match history.earlier.last() {
                Some(last) if last.is_irreversible(pos) => self.path.len(),
                _ => 0,
            };
            self.path.push(*pos);
            self.stretch.push(from);
            let set = self.path[from..]
                .iter()
                .fold(0u64, |s, p| s.wrapping_add(tree::occurrence_hash(p)));
            self.sets.push(set);
        }
        if self.root_moves.is_empty() {
            // The game's exact root solve: may the solver be used, may the database.
            let solve = self.root_solve
                && self.rules.is_none()
                && limits.depth.is_none()
                && (limits.time.is_some() || limits.nodes.is_some());
            if solve {
                self.prepare_solver(limits);
            }
            let database_ok = self.history_ok(pos, true);
            let root = Root {
                database: self.db.as_ref().filter(|_| database_ok),
                solver: self.solver.as_mut().filter(|_| solve).map(|(s, _)| s),
            };
            match pos.solve_root(root) {
                Ok(r) if legal.contains(&r.best_move) => {
                    return Ok(SearchResult {
                        best_move: r.best_move,
                        score: SEED * r.score,
                        depth: r.pv.len() as u32,
                        pv: r.pv,
                        nodes: r.nodes,
                        exact: true,
                        elapsed: start.elapsed(),
                    });
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
                score: G::reported_score(score),
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
}

impl<G: Evaluate> Engine<G> {
    /// Gets the root solve's solver ready for a search within `limits`: one thread, a table
    /// for its share of the budget, that share of the limits and the search's cancel flag. A
    /// solver made for a smaller budget is made anew (its table would be too small); one
    /// with a table at least as large is kept, with what its table holds.
    fn prepare_solver(&mut self, limits: &Limits) {
        let bytes = solve_table_bytes(limits.time, limits.nodes, self.tt.bytes());
        let (solver, had) = match self.solver.take() {
            Some((s, had)) if had >= bytes => (Some(s), had),
            _ => (None, bytes),
        };
        let solver = solver
            .unwrap_or_else(|| Solver::new().threads(1).tt_bytes(bytes))
            .node_limit(limits.nodes.map(|n| n / u64::from(SOLVE_SHARE)))
            .time_limit(limits.time.map(|t| t / SOLVE_SHARE))
            .cancel_flag(limits.cancel.clone().unwrap_or_default());
        self.solver = Some((solver, had));
    }
}
