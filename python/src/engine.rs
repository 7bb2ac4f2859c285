//! `Engine`: the anytime playing engine of `mancala_solver::engine` for every game, at a
//! strength level, with the result as the dataclass `mancala.results.SearchResult`.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use mancala_core::{with_game, GameRecord};
use mancala_solver::engine::{
    AnyDatabase, Choice, EngineError, Evaluate, Level, Limits, Players, DEFAULT_TT_BYTES, SEED,
};

use crate::database::Database;
use crate::errors::{error, from_error, Kind};
use crate::game::{Game, PyGame};
use crate::int::Int;
use crate::interrupt;
use crate::solver::{mebibytes, Egdb, ENGINE_MAX_TT_MB};

/// The anytime playing engine: iterative-deepening alpha-beta with a heuristic evaluation,
/// for Kalah (any m, n, options) and Bao la Kete, at a strength level.
///
/// `Engine(level=10, tt_mb=16, seed=0, database=None)`: `level` 1 (weakest) to 10
/// (strongest; levels 1–9 limit the depth to 1, 2, 3, 4, 5, 6, 8, 10, 14 plies, levels 1–4
/// play a deliberately weaker move with probability 50, 30, 15, 5 %, drawn from `seed`),
/// `tt_mb` the transposition table of each game in MiB, 1..=4096 as `mancala bestmove
/// --tt-mb` (kept between searches, so the moves of one game reuse it), `database` a
/// `Database` (or a sequence of them, one a game: a list, a tuple, any
/// `collections.abc.Sequence`, not a `str`, `bytes`, set, dict or iterator) for exact play
/// of its game: Kalah with an `Egdb`, Oware with an `AwariDb`. `egdb=` (an `Egdb`) is the
/// older name of `database=`, deprecated since 0.3.0 and gone in 0.4.0 (a
/// `DeprecationWarning`). The same database given twice in the sequence counts once, the
/// first kept: the same `Database` object, or two serving the same game, rules and seeds (the
/// same `game`, `description` and `max_seeds`: two opened on one file, two built alike).
/// Raises `EngineError` for a level outside 1..10, `ValueError` for `tt_mb` outside
/// 1..=4096 or two different databases of one game (the `egdb=` one counted with those of
/// `database=`; the message names both and says which to give: of two serving the same
/// rules the one with the larger `max_seeds`, else the one serving the rules played, for
/// Oware the one whose `rules` are those played; `Database.find(folder, rules)` picks the
/// database with the most seeds serving a rule set), `TypeError` for a database that is not a `Database`
/// (in a sequence, naming the element's index and type: `database[1] must be a
/// mancala.Database, not NoneType`).
///
/// `search` and `best_move` release the GIL; Ctrl-C (`KeyboardInterrupt`) stops them. One
/// search at a time runs on an engine (a second waits).
#[pyclass(module = "mancala")]
pub struct Engine {
    players: Mutex<Players>,
    level: u32,
}

/// The databases of `Engine(database=…, egdb=…)`: none, one `Database`, or a sequence of
/// them, one a game, and the Kalah database of the deprecated `egdb=`, which counts with
/// them. The same database given more than once counts once, the first kept (it serves its
/// game as it would alone): the same object, or another one serving the same game, rules
/// and seeds ([`same_database`]). The result leaves out `egdb`.
///
/// # Errors
/// `TypeError` for anything else: for a sequence with an element that is not a `Database`,
/// naming its index and type (`database[1] must be a mancala.Database, not NoneType`);
/// `ValueError` for two different databases of one game ([`one_a_game`]).
fn databases(
    database: Option<&Bound<'_, PyAny>>,
    egdb: Option<&Bound<'_, Egdb>>,
) -> PyResult<Vec<Py<Database>>> {
    let given = given_databases(database)?;
    let mut all: Vec<&Py<Database>> = Vec::new();
    let egdb = egdb.map(|e| e.as_super().clone().unbind());
    for db in egdb.iter().chain(&given) {
        // The same database again adds nothing: it is kept once.
        if !all.iter().any(|kept| same_database(kept, db)) {
            all.push(db);
        }
    }
    one_a_game(&all)?;
    let mut kept: Vec<Py<Database>> = Vec::new();
    for db in given {
        if !kept.iter().any(|k| same_database(k, &db)) {
            kept.push(db);
        }
    }
    Ok(kept)
}

/// Whether `a` and `b` serve the same values: the same object, or two databases (two opened
/// on one file, two built alike) that report the same game, the same rules served and the
/// same seeds (`Database.game`, `Database.description`, `Database.max_seeds`), whatever
/// their encodings.
fn same_database(a: &Py<Database>, b: &Py<Database>) -> bool {
    let (x, y) = (&a.get().db, &b.get().db);
    a.is(b)
        || (x.kind() == y.kind() && x.max_seeds() == y.max_seeds() && x.describe() == y.describe())
}

/// Whether the database `db` serves the rule set `rules` (a `Database.rules` text): the
/// lookup of the start of a game of `rules` is not refused (`AnyDatabase::value`, which
/// refuses another game and rules whose values differ; a start with more seeds than the
/// database holds is `None`, no refusal).
fn serves(db: &dyn AnyDatabase, rules: &str) -> bool {
    rules
        .parse::<mancala_core::Rules>()
        .is_ok_and(|r| db.value(&mancala_core::AnyGame::new(r)).is_ok())
}

/// Refuses two databases of one game among `all` (no two the same, [`same_database`]): the
/// engine keeps one a game, and a second one would replace the first without a word.
///
/// # Errors
/// `ValueError` naming the game and both databases, with advice that serves the game: when
/// both serve the rules either was built with ([`serves`]), the one with the larger
/// `max_seeds`; else the one serving the rules played (for Kalah, whose databases each serve
/// one board size; for Oware, the one whose `Database.rules` are those played), of two
/// serving them the larger; and `Database.find(folder, rules)`, which picks the database
/// with the most seeds serving a rule set from a folder.
fn one_a_game(all: &[&Py<Database>]) -> PyResult<()> {
    for (i, db) in all.iter().enumerate() {
        let db = db.get();
        let Some(other) = all[..i]
            .iter()
            .map(|d| d.get())
            .find(|d| d.db.kind() == db.db.kind())
        else {
            continue;
        };
        let kind = db.db.kind();
        let find = "Database.find(folder, rules) picks the database with the most seeds serving \
                    the rules from a folder";
        let advice = if serves(&*db.db, &other.rules) && serves(&*other.db, &db.rules) {
            // What both serve, as the database describes it (`kalah(4,·)`: every n of the
            // board; `awari`), not the one rule set it was built with.
            let served = other.db.describe();
            let served = served.split(", ").next().unwrap_or(&served);
            format!("both serve {served}: give the one with the larger max_seeds ({find})")
        } else {
            let serving = match kind {
                mancala_core::GameKind::Kalah => {
                    "the one serving the rules played (a Kalah database serves one board size \
                     and one set of value-relevant options, such as the capture rule)"
                }
                mancala_core::GameKind::Oware => {
                    "the one whose rules (Database.rules) are those played"
                }
                _ => "the one serving the rules played",
            };
            format!(
                "give {serving}, of two serving them the one with the larger max_seeds ({find})"
            )
        };
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "database: two databases of {}; the engine keeps one a game: {advice} (given: {}; {})",
            kind.name(),
            other.db.describe(),
            db.db.describe()
        )));
    }
    Ok(())
}

/// The databases given as `database=`, in order, each object once as often as given: one
/// `Database`, or a sequence of them (a `collections.abc.Sequence` other than `str`, `bytes`,
/// `bytearray` and `memoryview`).
///
/// # Errors
/// As [`databases`], but for two databases of one game: a set, a dict, an iterator and a
/// text are refused whole (`TypeError`, `database must be a mancala.Database or a sequence
/// of them, not set`).
fn given_databases(database: Option<&Bound<'_, PyAny>>) -> PyResult<Vec<Py<Database>>> {
    let Some(d) = database else {
        return Ok(Vec::new());
    };
    if let Ok(one) = d.cast::<Database>() {
        return Ok(vec![one.clone().unbind()]);
    }
    let type_name = |obj: &Bound<'_, PyAny>| {
        obj.get_type()
            .name()
            .map_or_else(|_| "?".into(), |n| n.to_string())
    };
    let err = || {
        pyo3::exceptions::PyTypeError::new_err(format!(
            "database must be a mancala.Database or a sequence of them, not {}",
            type_name(d)
        ))
    };
    // A sequence, as documented: a list, a tuple, any `collections.abc.Sequence`. Not a
    // text or bytes (`str`, `bytes`, `bytearray`, `memoryview`: `b'abc'` was read as three
    // ints), nor a set, a
    // dict or an iterator, whose order or contents are not the list the docs promise.
    let text = d.is_instance_of::<pyo3::types::PyString>()
        || d.is_instance_of::<pyo3::types::PyBytes>()
        || d.is_instance_of::<pyo3::types::PyByteArray>()
        || d.is_instance_of::<pyo3::types::PyMemoryView>();
    if text || d.cast::<pyo3::types::PySequence>().is_err() {
        return Err(err());
    }
    let mut all: Vec<Py<Database>> = Vec::new();
    for (i, item) in d.try_iter().map_err(|_| err())?.enumerate() {
        let item = item?;
        let db = item.cast_into::<Database>().map_err(|e| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "database[{i}] must be a mancala.Database, not {}",
                type_name(&e.into_inner())
            ))
        })?;
        all.push(db.unbind());
    }
    Ok(all)
}

/// The longest time the engine is given for a move, in milliseconds: one day, the
/// `mancala` command's limit on `--time-ms`. `Engine.search`'s and `Engine.best_move`'s
/// `time_ms` and the environments' `opponent_time_ms` (`VectorGames`) are capped at it.
pub const MAX_TIME_MS: u64 = 86_400_000;

/// What the message of a time beyond [`MAX_TIME_MS`] says of the range.
pub const TIME_RANGE_NOTE: &str = " (one day; 0: no time limit)";

/// `time_ms` as a number of milliseconds in `0..=`[`MAX_TIME_MS`] (0: no time limit).
///
/// # Errors
/// `ValueError` naming `name` and the range (`time_ms must be in 0..=86400000 (one day; 0:
/// no time limit), got 86400001`), as the environments' check of `opponent_time_ms`.
pub fn time_ms(time_ms: &Int, name: &str) -> PyResult<u64> {
    time_ms.get::<u64>(name, 0, i128::from(MAX_TIME_MS), TIME_RANGE_NOTE)
}

/// The search limits of a budget of `time_ms` milliseconds and `nodes` positions at
/// `level`, 0 meaning no limit of that kind, as in the C API (`mancala_engine_bestmove`) and
/// `mancala bestmove`; the level's depth limit is the player's own.
///
/// # Errors
/// `ValueError` for level 10 (no depth limit) with neither budget above 0, with the
/// command's reason ("level 10 needs a budget: give {what} above 0", `what` naming the
/// caller's arguments).
pub fn budget(level: u32, time_ms: u64, nodes: u64, what: &str) -> PyResult<Limits> {
    let no_depth = Level::new(level).is_ok_and(|l| l.max_depth().is_none());
    if no_depth && time_ms == 0 && nodes == 0 {
        return Err(pyo3::exceptions::PyValueError::new_err(format!(
            "level {level} needs a budget: give {what} above 0"
        )));
    }
    Ok(Limits {
        time: (time_ms > 0).then(|| Duration::from_millis(time_ms)),
        nodes: (nodes > 0).then_some(nodes),
        ..Limits::default()
    })
}

/// The exception of an [`EngineError`]: `IllegalMoveError` for a finished game (there is no
/// move to choose), `DatabaseError` for a database of other rules, `MemoryError` when the
/// transposition table does not fit in memory (the library's one-line message: "the
/// transposition table does not fit in memory: out of memory: cannot allocate 4294967296
/// bytes (4.0 GiB)"; a later search tries again), else `EngineError`.
fn engine_error(py: Python<'_>, e: EngineError) -> PyErr {
    if let EngineError::OutOfMemory(_) = e {
        return pyo3::exceptions::PyMemoryError::new_err(e.to_string());
    }
    let kind = match e {
        EngineError::GameOver => Kind::IllegalMove,
        EngineError::DatabaseMismatch { .. } => Kind::Database,
        _ => Kind::Engine,
    };
    from_error(py, kind, e)
}

/// Searches the position of `game` with its history (Oware's repetitions and move limit)
/// with the player of its game (made at its first use) and returns its `SearchResult`; the
/// GIL is released meanwhile and Ctrl-C cancels.
fn search_game<'py, G: Evaluate + PyGame>(
    py: Python<'py>,
    players: &Mutex<Players>,
    cancel: &Arc<AtomicBool>,
    game: &GameRecord<G>,
    limits: Limits,
) -> PyResult<Bound<'py, PyAny>> {
    // The record goes to the search thread: the positions since the last irreversible move
    // and the plies are what the search reads (OW-6.2, OW-6.4).
    let game = game.clone();
    let choice = interrupt::run(py, cancel, move || {
        let mut players = players.lock().unwrap_or_else(|e| e.into_inner());
        players.choose_game(&game, limits)
    })?
    .map_err(|e| engine_error(py, e))?;
    search_result(py, &choice, G::SCORED_IN_SEEDS, |m| G::move_to_py(py, m))
}

/// The `SearchResult` dataclass of a choice, the moves converted by `mv`.
fn search_result<'py, M: Copy>(
    py: Python<'py>,
    choice: &Choice<M>,
    in_seeds: bool,
    mv: impl Fn(M) -> Py<PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let s = &choice.search;
    let kw = PyDict::new(py);
    kw.set_item("move", mv(choice.mv))?;
    kw.set_item("weaker", choice.weaker)?;
    kw.set_item("search_move", mv(s.best_move))?;
    kw.set_item("score", s.score)?;
    // Kalah scores are hundredths of a seed of store difference; Bao la Kete has no seeds
    // to count (its scores are heuristic units or a forced win or loss).
    let seeds = if in_seeds {
        Some(f64::from(s.score) / f64::from(SEED))
    } else {
        None
    };
    kw.set_item("score_seeds", seeds)?;
    kw.set_item("depth", s.depth)?;
    kw.set_item("pv", s.pv.iter().map(|&m| mv(m)).collect::<Vec<_>>())?;
    kw.set_item("nodes", s.nodes)?;
    kw.set_item("exact", s.exact)?;
    kw.set_item("seconds", s.elapsed.as_secs_f64())?;
    py.import("mancala.results")?
        .getattr("SearchResult")?
        .call((), Some(&kw))
}

/// `level` as an engine level: any level outside 1..=10 is the library's `EngineError`
/// (also a `ValueError`), with its message "level 11 is out of range: levels are 1..=10",
/// also one that does not fit a u32 (-1, 2**70), and one too long to write out named by its
/// size ("a level of at least 302 digits …"): one exception for one mistake, wherever a level
/// is taken (`Engine`, `best_move`, the `opponent` of `VectorGames`).
///
/// # Errors
/// `EngineError` for a level outside 1..=10.
pub(crate) fn checked_level(py: Python<'_>, level: &Int) -> PyResult<Level> {
    let out_of_range = || {
        let level = match level.size() {
            Some(size) => size.words("level"),
            None => format!("level {}", level.text()),
        };
        error(
            py,
            Kind::Engine,
            format!("{level} is out of range: levels are 1..=10"),
        )
    };
    let n: u32 = level
        .get("level", 0, i128::from(u32::MAX), "")
        .map_err(|_| out_of_range())?;
    Level::new(n).map_err(|e| engine_error(py, e))
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (level = Int::of(10), tt_mb = None, seed = Int::of(0), database = None, egdb = None),
           text_signature = "(level=10, tt_mb=None, seed=0, database=None, egdb=None)")]
    fn new(
        py: Python<'_>,
        level: Int,
        tt_mb: Option<Int>,
        seed: Int,
        database: Option<&Bound<'_, PyAny>>,
        egdb: Option<Py<Egdb>>,
    ) -> PyResult<Engine> {
        if egdb.is_some() {
            crate::database::deprecated(py, "Engine(egdb=…)", "Engine(database=…)")?;
        }
        let databases = databases(database, egdb.as_ref().map(|e| e.bind(py)))?;
        let lvl = checked_level(py, &level)?;
        let level = lvl.get();
        let tt_bytes = tt_mb
            .map(|t| mebibytes(&t, "tt_mb", ENGINE_MAX_TT_MB))
            .transpose()?;
        let seed = seed.u64("seed")?;
        let tt_bytes = tt_bytes.unwrap_or(DEFAULT_TT_BYTES);
        Ok(Engine {
            players: Mutex::new({
                let mut players = Players::new(lvl, seed, tt_bytes);
                players.set_database(egdb.map(|d| d.get().shared()));
                for db in &databases {
                    db.get().db.give_to(&mut players);
                }
                players
            }),
            level,
        })
    }

    /// The strength level, 1..10.
    #[getter]
    fn level(&self) -> u32 {
        self.level
    }

    /// Searches the current position of `game` (a `Kalah` or a `Bao`) within `time_ms`
    /// milliseconds (and at most `max_nodes` positions when given) at the engine's level, and
    /// returns a `SearchResult`: the move to play, the search's own best move and score, the
    /// depth, the principal variation, nodes, seconds and whether the score is exact. The
    /// first iteration always completes, so a move comes back even from a budget of 1 ms or
    /// 1 node. A budget of 0 is no limit of that kind, as in the C API and `mancala bestmove`
    /// (`--time-ms 0`, `--nodes 0`): levels 1–9 then search to their depth, and level 10,
    /// which has no depth limit, needs `time_ms` or `max_nodes` above 0. The search sees the
    /// game's history: in an `Oware` game a move that repeats a position for the rule set's
    /// repetition count (OW-6.2) or reaches its move limit (OW-6.4) is valued as the end of
    /// the game it is.
    ///
    /// Scores are for the player to move, in engine units: Kalah in hundredths of a seed of
    /// final store difference (`score_seeds` in seeds), Bao la Kete in heuristic units or
    /// ±(1,000,000 − plies) for a forced win or loss. Raises `IllegalMoveError` when the game
    /// is over, `DatabaseError` when the engine's database serves other rules (or its
    /// evaluation database, `set_estimates`, holds no estimates of them), `MemoryError`
    /// when the transposition table (`tt_mb`) does not fit in memory (a later search tries
    /// again), `ValueError` for a negative node count, a `time_ms` outside
    /// 0..=86400000 (one day, the command's longest `--time-ms`) and, at level 10, for
    /// `time_ms=0` without `max_nodes` above 0 ("level 10 needs a budget: give time_ms or
    /// max_nodes above 0", the command's reason), `TypeError` for another object.
    #[pyo3(signature = (game, time_ms = Int::of(1000), max_nodes = None),
           text_signature = "($self, game, time_ms=1000, max_nodes=None)")]
    fn search<'py>(
        &self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        time_ms: Int,
        max_nodes: Option<Int>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let time_ms = self::time_ms(&time_ms, "time_ms")?;
        let max_nodes = max_nodes.map(|n| n.u64("max_nodes")).transpose()?;
        let cancel = Arc::new(AtomicBool::new(false));
        let limits = budget(
            self.level,
            time_ms,
            max_nodes.unwrap_or(0),
            "time_ms or max_nodes",
        )?
        .with_cancel(Arc::clone(&cancel));
        let Ok(game) = game.cast::<Game>() else {
            let classes: Vec<&str> = mancala_core::GameKind::ALL
                .into_iter()
                .map(crate::game::class_name)
                .collect();
            return Err(PyTypeError::new_err(format!(
                "the engine plays a mancala game ({}), not {}",
                classes.join(", "),
                game.get_type().name()?
            )));
        };
        let game = game.borrow().game.clone();
        with_game!(&game, g => search_game(py, &self.players, &cancel, g, limits))
    }

    /// The move the engine plays in the current position of `game` (`search(...).move`).
    #[pyo3(signature = (game, time_ms = Int::of(1000), max_nodes = None),
           text_signature = "($self, game, time_ms=1000, max_nodes=None)")]
    fn best_move<'py>(
        &self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        time_ms: Int,
        max_nodes: Option<Int>,
    ) -> PyResult<Bound<'py, PyAny>> {
        self.search(py, game, time_ms, max_nodes)?.getattr("move")
    }

    /// Gives the engine a `Database` whose values serve as the **evaluation** of the
    /// positions of its game that it holds, in place of the engine's heuristic, never taken
    /// as exact; `None` removes the evaluation database of every game. Meant for the
    /// database of a neighbouring rule set whose values cannot be taken as exact: for Oware
    /// Abapa (`oware`, `oware+repetition=2`), which no database holds exactly, the Oware
    /// database of `grand_slam=none` (`Database.build("oware+majority=off+cycle_score=split",
    /// n)`; docs/oware-databases.md, "Abapa"). Under the database's own rule set give it as
    /// `Engine(database=…)`, which values its positions exactly (and comes first where both
    /// are given). One evaluation database a game; another one empties the engine's table of
    /// that game (its scores were those of the other evaluation).
    ///
    /// Whether the database serves the rule set of a game searched is checked at each search:
    /// `search` and `best_move` raise `DatabaseError` for a database whose values are no
    /// estimates of its rules (an Oware database: another board size than six houses a side,
    /// or another grand-slam rule, e.g. the `awari` database under Abapa). Raises `TypeError`
    /// for an object that is neither a `Database` nor `None`.
    #[pyo3(signature = (database), text_signature = "($self, database)")]
    fn set_estimates(&self, py: Python<'_>, database: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let db = match database {
            None => None,
            Some(d) => Some(
                d.cast::<Database>()
                    .map_err(|_| {
                        PyTypeError::new_err(format!(
                            "database must be a mancala.Database or None, not {}",
                            d.get_type()
                                .name()
                                .map_or_else(|_| "?".into(), |n| n.to_string())
                        ))
                    })?
                    .get()
                    .db
                    .clone(),
            ),
        };
        let players = &self.players;
        py.detach(|| {
            let mut players = players.lock().unwrap_or_else(|e| e.into_inner());
            match db {
                Some(db) => db.give_estimates_to(&mut players),
                None => players.clear_estimates(),
            }
        });
        Ok(())
    }

    /// Forgets everything learnt (transposition tables, killer moves), e.g. before a new game.
    fn clear(&self, py: Python<'_>) {
        let players = &self.players;
        py.detach(|| {
            players.lock().unwrap_or_else(|e| e.into_inner()).clear();
        });
    }

    fn __repr__(&self) -> String {
        format!("<mancala.Engine level={}>", self.level)
    }

    /// An engine is not pickled (its search table is not copied): `TypeError` saying to make
    /// one in the other process.
    ///
    /// # Errors
    /// Always `TypeError`.
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::errors::not_picklable(
            "Engine",
            "its search table is not copied; make an Engine(level) in the other process",
        ))
    }
}
