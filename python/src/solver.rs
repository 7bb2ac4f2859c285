//! `Solver` (the exact Kalah solver), `Egdb` (endgame databases) and `build_egdb`.
//!
//! Results come back as the frozen dataclasses of `mancala/results.py` (`Solution`,
//! `SwapChoice`, `Analysis`, `MoveValue`, `BuildProgress`). Values follow the library
//! (`mancala_solver::Solution`): seeds, from the point of view of the player to move.

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use pyo3::exceptions::{PyRuntimeError, PyRuntimeWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_core::{GameKind, Rules};
use mancala_solver::egdb::Encoding;
use mancala_solver::progress::MIN_INTERVAL;
use mancala_solver::{
    available_memory_bytes, BuildOptions, BuildProgress, Cache, CacheEvent, Database, EgdbError,
    SolveError, SolveOptions,
};

use crate::errors::{error, from_error, Kind};
use crate::int::Int;
use crate::interrupt::{panic_message, pending_signal, TICK};
use crate::kalah::{move_to_py, parse_rules, Kalah};
use crate::path::FsPath;

/// An instance of the dataclass `name` of `mancala.results`, made from `kwargs`.
fn result<'py>(
    py: Python<'py>,
    name: &str,
    kwargs: &Bound<'py, PyDict>,
) -> PyResult<Bound<'py, PyAny>> {
    py.import("mancala.results")?
        .getattr(name)?
        .call((), Some(kwargs))
}

/// Most MiB of the playing engine's table (`Engine(tt_mb=…)`), as `mancala bestmove
/// --tt-mb` and `agent --tt-mb` allow.
pub const ENGINE_MAX_TT_MB: i128 = 4096;

/// Most MiB of the exact solver's table (`Solver(tt_mb=…)`), 1 TiB, as `mancala bench
/// --tt-mb` allows.
pub const SOLVER_MAX_TT_MB: i128 = 1 << 20;

/// Bytes of `mb` mebibytes, `mb` in `1..=max_mb` (the range the message names is the one
/// checked: a table of 0 MiB is none, and a size beyond `max_mb` is refused as asked, never
/// capped).
///
/// # Errors
/// `ValueError` naming `what` and the range (`tt_mb must be in 1..=4096 (MiB), got 0`).
pub fn mebibytes(mb: &Int, what: &str, max_mb: i128) -> PyResult<usize> {
    let mb: u64 = mb.get(what, 1, max_mb, " (MiB)")?;
    usize::try_from(mb << 20).map_err(|_| {
        PyValueError::new_err(format!("{what} of {mb} MiB does not fit the address space"))
    })
}

/// A duration of `seconds`, refused when negative or not finite.
///
/// # Errors
/// `ValueError`.
pub fn seconds(seconds: f64, what: &str) -> PyResult<Duration> {
    Duration::try_from_secs_f64(seconds).map_err(|_| {
        PyValueError::new_err(format!(
            "{what} must be a finite number of seconds ≥ 0, got {}",
            // `{:e}` keeps 1e300 short (`{}` prints 301 digits).
            if seconds.abs() < 1e15 {
                format!("{seconds}")
            } else {
                format!("{seconds:e}")
            }
        ))
    })
}

/// Refuses a `progress=` that cannot be called, before any work: a small build may end
/// before its first report, and would otherwise accept `progress=5` without a word.
///
/// # Errors
/// `TypeError` naming the object's type.
fn check_callable(py: Python<'_>, progress: Option<&Py<PyAny>>) -> PyResult<()> {
    match progress {
        Some(p) if !p.bind(py).is_callable() => {
            Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "progress must be None or a callable taking a BuildProgress, not {}",
                p.bind(py).get_type().name()?
            )))
        }
        _ => Ok(()),
    }
}

/// A thread count of 1 to [`mancala_solver::MAX_THREADS`] (`None`: the library's default,
/// every core).
///
/// # Errors
/// `ValueError` naming the range for another integer.
pub fn threads(threads: Option<Int>) -> PyResult<Option<usize>> {
    threads
        .map(|t| {
            let max = mancala_solver::MAX_THREADS as i128;
            t.get("threads", 1, max, " (None: every core)")
        })
        .transpose()
}

/// The exception of a [`SolveError`]: `SolveError`, or `DatabaseError` when the database
/// does not serve the position's rules.
fn solve_error(py: Python<'_>, e: SolveError) -> PyErr {
    let kind = match e {
        SolveError::DatabaseMismatch { .. } => Kind::Database,
        _ => Kind::Solve,
    };
    from_error(py, kind, e)
}

/// Runs `f` (which calls a `*_watched` function of the library with the tick it is given)
/// with the GIL released; the tick looks for a pending signal (Ctrl-C) and stops the work
/// when a handler raised. A panic becomes a `RuntimeError`.
///
/// # Errors
/// The signal handler's exception, or `RuntimeError` for a panic.
fn watched<R: Send>(
    py: Python<'_>,
    f: impl FnOnce(&mut dyn FnMut() -> ControlFlow<()>) -> R + Send,
) -> PyResult<R> {
    let (r, interrupt) = py.detach(|| {
        let mut interrupt: Option<PyErr> = None;
        let mut tick = || match pending_signal() {
            Some(e) => {
                interrupt = Some(e);
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        };
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut tick)));
        (r.map_err(|p| panic_message(&p)), interrupt)
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    r.map_err(PyRuntimeError::new_err)
}

/// The Kalah rules of a Kalah database (`Egdb.find`, `Egdb.cached`, `build_egdb`) named by
/// `text`. Another game's rule set is refused saying where that game's database is, not
/// which game class to use: an Oware one names `mancala.Database.build` and
/// `mancala.Database.open`, the others have none.
///
/// # Errors
/// `RulesError`: a malformed rule set (the parser's message), or another game's.
fn database_rules(py: Python<'_>, text: &str) -> PyResult<KalahRules> {
    let rules: Rules = text.parse().map_err(|e| from_error(py, Kind::Rules, e))?;
    let kind = rules.kind();
    let instead = match kind {
        GameKind::Kalah => return parse_rules(py, text),
        GameKind::Oware => "the Oware databases are mancala.Database.build(rules, max_seeds) \
             and mancala.Database.open(path)"
            .to_string(),
        other => format!("{} has no database of exact values", other.name()),
    };
    Err(error(
        py,
        Kind::Rules,
        format!(
            "`{}` names {} rule set, not a Kalah one: {instead}",
            mancala_core::Shortened(text.trim()),
            kind.with_article()
        ),
    ))
}

/// The exact Kalah solver: MTD(f) alpha-beta with a transposition table, in parallel, with
/// an optional endgame database (`mancala_solver::Solver`).
///
/// `Solver(threads=None, tt_mb=None, egdb=None, max_seconds=None, max_nodes=None)`:
/// `threads` search threads (`None`: every core; the value never depends on it), `tt_mb`
/// the transposition table in MiB (1..=1048576, 1 TiB), the same for every position but never more than the
/// position can use (one 32-byte bucket a key of its key space) (`None`: sized to each position solved,
/// 2^(⌈seeds/2⌉ + 4) bytes for its seeds in the houses, from 4 MiB up to 64 MiB, and with
/// a database of K seeds at most 2^(⌈(seeds − K)/2⌉ + 9) bytes; the table
/// is kept between solves of one rule set), `egdb` an `Egdb`
/// probed for every position with at most its K seeds in the houses, `max_seconds` /
/// `max_nodes` limits after which a solve returns the bounds proven so far
/// (`exact=False`). Raises `ValueError` for a thread count outside 1..=1024, a zero table,
/// a negative time (a whole-number argument out of range names itself and its range; see
/// the module `int`).
///
/// `solve` and `analyse` release the GIL; Ctrl-C (`KeyboardInterrupt`) stops them. One call
/// at a time runs on a solver (a second waits).
#[pyclass(module = "mancala")]
pub struct Solver {
    solver: Mutex<mancala_solver::Solver>,
    egdb: Option<Py<Egdb>>,
}

impl Solver {
    /// The library's solver behind its lock (for `grade`, which runs it without the GIL).
    pub(crate) fn inner(&self) -> &Mutex<mancala_solver::Solver> {
        &self.solver
    }

    /// Runs `job` on the solver without the GIL, stoppable by Ctrl-C.
    fn with<R: Send>(
        &self,
        py: Python<'_>,
        job: impl FnOnce(&mut mancala_solver::Solver, &mut dyn FnMut() -> ControlFlow<()>) -> R + Send,
    ) -> PyResult<R> {
        let solver = &self.solver;
        watched(py, move |tick| {
            let mut s = solver.lock().unwrap_or_else(|e| e.into_inner());
            job(&mut s, tick)
        })
    }
}

#[pymethods]
impl Solver {
    #[new]
    #[pyo3(signature = (threads = None, tt_mb = None, egdb = None, max_seconds = None, max_nodes = None),
           text_signature = "(threads=None, tt_mb=None, egdb=None, max_seconds=None, max_nodes=None)")]
    fn new(
        threads: Option<Int>,
        tt_mb: Option<Int>,
        egdb: Option<Py<Egdb>>,
        max_seconds: Option<f64>,
        max_nodes: Option<Int>,
    ) -> PyResult<Solver> {
        let tt_bytes = tt_mb
            .map(|n| mebibytes(&n, "tt_mb", SOLVER_MAX_TT_MB))
            .transpose()?;
        let max_nodes = max_nodes.map(|n| n.u64("max_nodes")).transpose()?;
        let mut s = mancala_solver::Solver::new();
        if let Some(bytes) = tt_bytes {
            s = s.tt_bytes(bytes);
        }
        if let Some(t) = self::threads(threads)? {
            s = s.threads(t);
        }
        if let Some(limit) = max_seconds {
            s = s.time_limit(Some(seconds(limit, "max_seconds")?));
        }
        s = s.node_limit(max_nodes);
        if let Some(db) = &egdb {
            s = s.database(Arc::clone(&db.get().inner));
        }
        Ok(Solver {
            solver: Mutex::new(s),
            egdb,
        })
    }

    /// The endgame database the solver probes, if any.
    #[getter]
    fn egdb(&self, py: Python<'_>) -> Option<Py<Egdb>> {
        self.egdb.as_ref().map(|d| d.clone_ref(py))
    }

    /// Solves the current position of `game` (a `Kalah`): a `Solution` with the value, the
    /// final score, every best move, a principal variation, the pie-rule choice, nodes and
    /// seconds; after a limit, the bounds proven so far (`exact=False`). Raises `SolveError`
    /// (too many seeds to solve, threads or table memory not available), `DatabaseError`
    /// (the database serves other rules), `KeyboardInterrupt`.
    fn solve<'py>(&self, py: Python<'py>, game: PyRef<'py, Kalah>) -> PyResult<Bound<'py, PyAny>> {
        let pos = crate::kalah::position_of(&game)?;
        drop(game);
        let s = self
            .with(py, move |solver, tick| {
                solver.solve(
                    &pos,
                    SolveOptions::new().progress(MIN_INTERVAL.max(TICK), &mut |_| tick()),
                )
            })?
            .map_err(|e| solve_error(py, e))?;
        let kw = PyDict::new(py);
        kw.set_item("value", s.value)?;
        kw.set_item("lower", s.lower)?;
        kw.set_item("upper", s.upper)?;
        kw.set_item("exact", s.exact)?;
        kw.set_item("score", s.score)?;
        let moves = |v: &[mancala_core::kalah::KalahMove]| -> Vec<Py<PyAny>> {
            v.iter().map(|&m| move_to_py(py, m)).collect()
        };
        kw.set_item("best_moves", moves(&s.best_moves))?;
        kw.set_item("pv", moves(&s.pv))?;
        let swap = match s.swap {
            None => None,
            Some(c) => {
                let k = PyDict::new(py);
                k.set_item("swap_value", c.swap_value)?;
                k.set_item("stay_value", c.stay_value)?;
                k.set_item("swap_is_better", c.swap_is_better)?;
                Some(result(py, "SwapChoice", &k)?)
            }
        };
        kw.set_item("swap", swap)?;
        kw.set_item("nodes", s.nodes)?;
        kw.set_item("seconds", s.seconds)?;
        result(py, "Solution", &kw)
    }

    /// The value of every legal move of the current position of `game` (a `Kalah`), the swap
    /// included when offered: an `Analysis` whose `moves` are `MoveValue`s in `legal_moves()`
    /// order. Limits and errors as `solve`.
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        game: PyRef<'py, Kalah>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pos = crate::kalah::position_of(&game)?;
        drop(game);
        let a = self
            .with(py, move |solver, tick| {
                solver.analyse(
                    &pos,
                    SolveOptions::new().progress(MIN_INTERVAL.max(TICK), &mut |_| tick()),
                )
            })?
            .map_err(|e| solve_error(py, e))?;
        let mut moves = Vec::with_capacity(a.moves.len());
        for m in &a.moves {
            let k = PyDict::new(py);
            k.set_item("move", move_to_py(py, m.mv))?;
            k.set_item("value", m.value)?;
            k.set_item("lower", m.lower)?;
            k.set_item("upper", m.upper)?;
            k.set_item("exact", m.exact)?;
            moves.push(result(py, "MoveValue", &k)?);
        }
        let kw = PyDict::new(py);
        kw.set_item("moves", moves)?;
        kw.set_item("nodes", a.nodes)?;
        kw.set_item("seconds", a.seconds)?;
        result(py, "Analysis", &kw)
    }

    /// Forgets every entry of the transposition table.
    fn clear_table(&self, py: Python<'_>) -> PyResult<()> {
        self.with(py, |s, _| s.clear_table())
    }

    fn __repr__(&self) -> String {
        let s = self.solver.lock().unwrap_or_else(|e| e.into_inner());
        format!("<mancala.Solver {s:?}>")
    }

    /// A solver is not pickled (its transposition table is not copied): `TypeError` saying
    /// to make one in the other process.
    ///
    /// # Errors
    /// Always `TypeError`.
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::errors::not_picklable(
            "Solver",
            "its transposition table is not copied; make a Solver in the other process",
        ))
    }
}

/// The entry encoding named `name` (`"byte"`, `"packed"` or `"compact"`), for the argument
/// `what`.
///
/// # Errors
/// `ValueError` naming the argument and the two names.
pub(crate) fn encoding(name: &str, what: &str) -> PyResult<Encoding> {
    name.parse().map_err(|_| {
        PyValueError::new_err(format!(
            "{what} must be \"byte\", \"packed\" or \"compact\" (Oware databases), got {name:?}"
        ))
    })
}

/// The exception of an [`EgdbError`]: `KeyboardInterrupt`-free `DatabaseError`.
fn egdb_error(py: Python<'_>, e: EgdbError) -> PyErr {
    crate::errors::database_error(py, &e)
}

/// An endgame database in memory: the exact value of every Kalah position with at most K
/// seeds in the houses, for one m and one set of value-relevant options
/// (`mancala_solver::Egdb`). Made by `Egdb.open`, `Egdb.find` or `build_egdb`; given to
/// `Solver`, `solve`, `Engine`. Read-only: it may be shared by several solvers and engines.
///
/// The kind of `Database` of Kalah: its properties (`max_seeds`, `rules`, `entries`,
/// `encoding`, …), `value`, `move_values`, `save` and `convert` are `Database`'s.
#[pyclass(module = "mancala", frozen, extends = crate::database::Database)]
pub struct Egdb {
    pub(crate) inner: Arc<mancala_solver::Egdb>,
}

impl Egdb {
    /// The shared database.
    #[must_use]
    pub fn shared(&self) -> Arc<mancala_solver::Egdb> {
        Arc::clone(&self.inner)
    }

    /// A new `Egdb` object of `db` (a `Database` of Kalah).
    pub(crate) fn object(py: Python<'_>, db: mancala_solver::Egdb) -> PyResult<Py<Egdb>> {
        let rules = db.built_with().to_string();
        let db = Arc::new(db);
        let base = crate::database::base_of::<KalahPosition>(Arc::clone(&db), rules);
        Py::new(
            py,
            pyo3::PyClassInitializer::from(base).add_subclass(Egdb { inner: db }),
        )
    }
}

#[pymethods]
impl Egdb {
    /// Loads the database file `path` (a `str`, `bytes` or `os.PathLike`), checking its header,
    /// checksums and every entry. Raises `DatabaseError` with the library's reason (missing,
    /// truncated, corrupt file, another format version).
    /// Deprecated since 0.3.0, goes in 0.4.0 (a `DeprecationWarning`): `Database.open`
    /// opens the file of any game.
    #[staticmethod]
    fn open(py: Python<'_>, path: FsPath) -> PyResult<Py<Egdb>> {
        let path = path.0;
        crate::database::deprecated(py, "Egdb.open", "Database.open")?;
        let db = py
            .detach(|| mancala_solver::Egdb::open(&path))
            .map_err(|e| from_error(py, Kind::Database, e.about(&path)))?;
        Egdb::object(py, db)
    }

    /// The database serving `rules` (a rule-set text) with the largest K in the folder
    /// `path`, by the files' headers (`mancala solve --egdb` does the same); a path that is
    /// not a folder is opened as one database file, which must serve `rules`. Raises
    /// `DatabaseError` (no such database, with every file passed over and why), `RulesError`.
    #[staticmethod]
    fn find(py: Python<'_>, path: FsPath, rules: &str) -> PyResult<Py<Egdb>> {
        let path = path.0;
        let rules = database_rules(py, rules)?;
        let found = py
            .detach(|| mancala_solver::Egdb::find_in(&path, &rules))
            .map_err(|e| egdb_error(py, e))?;
        Egdb::object(py, found.database)
    }

    /// The database of `rules` (a rule-set text) from a cache folder, built and saved there
    /// first when it is missing or damaged: the same cache as the `mancala` command's
    /// (`folder`, else `$MANCALA_CACHE_DIR` when it is an absolute path, else the user's
    /// cache folder, `~/.cache/mancala` on Linux; a relative `$MANCALA_CACHE_DIR` is ignored
    /// with a `RuntimeWarning`, as the command warns). `max_seeds` is K (`None`: what the command picks from
    /// the board size and the free memory, K = 20 for m = 6, 215 MiB, built in about 8 s on
    /// two cores). A file read back is checked completely. `progress` and `interval` as in
    /// `build_egdb`; the GIL is released and Ctrl-C stops a build (nothing is saved then). A
    /// database built but not saved (a full disk) is returned with a `RuntimeWarning`.
    /// Raises `DatabaseError` (no cache folder, a folder that cannot be written, K too
    /// large, out of memory), `RulesError`.
    #[staticmethod]
    #[pyo3(signature = (rules, max_seeds = None, folder = None, threads = None, progress = None, interval = 0.5))]
    fn cached(
        py: Python<'_>,
        rules: &str,
        max_seeds: Option<Int>,
        folder: Option<FsPath>,
        threads: Option<Int>,
        progress: Option<Py<PyAny>>,
        interval: f64,
    ) -> PyResult<Py<Egdb>> {
        let rules: KalahRules = database_rules(py, rules)?;
        let threads = self::threads(threads)?.unwrap_or(0);
        let interval = seconds(interval, "interval")?;
        check_callable(py, progress.as_ref())?;
        let folder = match folder {
            Some(f) => Some(f.0),
            None => {
                // The command's reading of the variable: a relative value is ignored, with
                // the command's warning.
                let (dir, ignored) = Cache::dir_from_env();
                if let Some(ignored) = ignored {
                    PyErr::warn(
                        py,
                        &py.get_type::<PyRuntimeWarning>(),
                        &std::ffi::CString::new(ignored.to_string()).unwrap_or_default(),
                        1,
                    )?;
                }
                dir
            }
        };
        let folder = folder.ok_or_else(|| {
            error(
                py,
                Kind::Database,
                "no cache folder: this system names none; give folder=",
            )
        })?;
        let k = match max_seeds {
            Some(k) => k.get("max_seeds", 0, i128::from(u32::MAX), "")?,
            None => mancala_solver::Egdb::default_max_seeds(&rules, available_memory_bytes())
                .ok_or_else(|| {
                    error(
                        py,
                        Kind::Database,
                        format!("not even K = 1 fits in memory for {rules}"),
                    )
                })?,
        };
        let cache = Cache::new(folder);
        let mut callback_error: Option<PyErr> = None;
        let got = {
            let callback_error = &mut callback_error;
            let progress = progress.as_ref();
            watched(py, move |tick| {
                let mut reporter = Reporter::new(progress, interval, callback_error);
                cache.read_or_build::<mancala_solver::Egdb>(
                    &rules,
                    k,
                    threads,
                    TICK,
                    &mut |event| {
                        tick()?;
                        match event {
                            CacheEvent::Progress(p) => reporter.report(p),
                            _ => ControlFlow::Continue(()),
                        }
                    },
                )
            })?
        };
        if let Some(e) = callback_error {
            return Err(e);
        }
        let cached = got.map_err(|e| egdb_error(py, e))?;
        if let Some(e) = &cached.save_error {
            PyErr::warn(
                py,
                &py.get_type::<PyRuntimeWarning>(),
                &std::ffi::CString::new(format!(
                    "the database was built but not saved in the cache: {e}"
                ))
                .unwrap_or_default(),
                1,
            )?;
        }
        Egdb::object(py, cached.database)
    }

    /// m, the houses a row of the positions it holds.
    #[getter]
    fn houses(&self) -> u8 {
        self.inner.houses()
    }

    /// Whether it gives the values of positions played under `rules` (a rule-set text): same
    /// m and value-relevant options; `False` for another game's rule set. Raises `RulesError`
    /// for a malformed rule set.
    fn serves(&self, py: Python<'_>, rules: &str) -> PyResult<bool> {
        let parsed: Rules = rules.parse().map_err(|e| from_error(py, Kind::Rules, e))?;
        Ok(match parsed {
            Rules::Kalah(r) => self.inner.serves(&r),
            _ => false,
        })
    }

    fn __repr__(&self) -> String {
        format!("<mancala.Egdb {}>", self.inner.description())
    }
}

/// Hands build progress to a Python callback at most once an interval; the callback's
/// exception is kept and stops the build.
struct Reporter<'a> {
    callback: Option<&'a Py<PyAny>>,
    interval: Duration,
    last: Instant,
    error: &'a mut Option<PyErr>,
}

impl<'a> Reporter<'a> {
    fn new(
        callback: Option<&'a Py<PyAny>>,
        interval: Duration,
        error: &'a mut Option<PyErr>,
    ) -> Self {
        Reporter {
            callback,
            interval,
            last: Instant::now(),
            error,
        }
    }

    /// Calls the callback with a `BuildProgress` when the interval has passed.
    fn report(&mut self, p: &BuildProgress) -> ControlFlow<()> {
        let Some(cb) = self.callback else {
            return ControlFlow::Continue(());
        };
        if self.last.elapsed() < self.interval {
            return ControlFlow::Continue(());
        }
        self.last = Instant::now();
        let called = Python::attach(|py| -> PyResult<()> {
            let kw = PyDict::new(py);
            kw.set_item("done", p.done)?;
            kw.set_item("total", p.total)?;
            kw.set_item("seconds", p.seconds)?;
            cb.call1(py, (result(py, "BuildProgress", &kw)?,))?;
            Ok(())
        });
        match called {
            Ok(()) => ControlFlow::Continue(()),
            Err(e) => {
                *self.error = Some(e);
                ControlFlow::Break(())
            }
        }
    }
}

/// Builds the endgame database of `rules` (a Kalah rule-set text; its m and value-relevant
/// options) for every position with at most `max_seeds` seeds in the houses, on `threads`
/// threads (`None`: every core), saves it to `path` when given, and returns it.
///
/// `progress`, when given, is called with a `BuildProgress` (entries done, entries in all,
/// seconds) at most every `interval` seconds while the build runs; an exception it raises
/// stops the build and is raised here. The GIL is released while the build runs, and
/// Ctrl-C (`KeyboardInterrupt`) stops it; nothing is saved then.
///
/// `encoding` chooses how the entries are stored (the values are the same): `"byte"` (the
/// default), one byte an entry, C(K + 2m, 2m) bytes (m = 6: K = 16 takes 30 MiB and a few
/// seconds, K = 20 215 MiB), the fastest lookups; `"packed"`, ⌈log2(K + 2)⌉ bits an entry
/// (5 for K = 15..30: K = 20 takes 135 MiB), built layer by layer so that the build needs
/// the packed entries plus one byte for each position of the largest layer, not one byte an
/// entry (docs/egdb.md). A saved packed file is what `mancala egdb build --encoding packed`
/// writes (its conventional name is `kalah6.k20.packed.egdb`).
///
/// The file is saved as `Database.save` saves without `overwrite`: a file at `path` holding
/// another database, or no database, is left as it is (`DatabaseExistsError`).
///
/// Raises `DatabaseError` (K too large, out of memory, the file cannot be written;
/// `DatabaseExistsError` for a file in the way),
/// `RulesError`, `ValueError` (`threads` 0, a bad `interval`, an `encoding` other than
/// `"byte"`, `"packed"` or, for Oware, `"compact"`).
#[pyfunction]
#[pyo3(signature = (rules, max_seeds, path = None, threads = None, progress = None, interval = 0.5, encoding = "byte"))]
#[allow(clippy::too_many_arguments)]
pub fn build_egdb(
    py: Python<'_>,
    rules: &str,
    max_seeds: Int,
    path: Option<FsPath>,
    threads: Option<Int>,
    progress: Option<Py<PyAny>>,
    interval: f64,
    encoding: &str,
) -> PyResult<Py<Egdb>> {
    let rules: KalahRules = database_rules(py, rules)?;
    let max_seeds: u32 = max_seeds.get("max_seeds", 0, i128::from(u32::MAX), "")?;
    let encoding = self::encoding(encoding, "encoding")?;
    let threads = self::threads(threads)?.unwrap_or(0);
    let interval = seconds(interval, "interval")?;
    check_callable(py, progress.as_ref())?;
    // The progress callback's exception, kept apart from a signal's.
    let mut callback_error: Option<PyErr> = None;
    let built = {
        let callback_error = &mut callback_error;
        let progress = progress.as_ref();
        watched(py, move |tick| {
            let mut reporter = Reporter::new(progress, interval, callback_error);
            let mut report = |p: &BuildProgress| -> ControlFlow<()> {
                tick()?;
                reporter.report(p)
            };
            mancala_solver::Egdb::build(
                &rules,
                max_seeds,
                BuildOptions::new()
                    .encoding(encoding)
                    .threads(threads)
                    .progress(TICK, &mut report),
            )
        })?
    };
    if let Some(e) = callback_error {
        return Err(e);
    }
    let db = built.map_err(|e| egdb_error(py, e))?;
    if let Some(FsPath(path)) = path {
        py.detach(|| db.save(&path))
            .map_err(|e| egdb_error(py, e))?;
    }
    Egdb::object(py, db)
}
