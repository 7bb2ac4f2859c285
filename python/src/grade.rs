//! `grade` and `generate_positions`: a player scored against the exact values of every move
//! on a set of Kalah positions (the exact solver) or of Oware positions of a six-house rule
//! set (an Oware database: the rule set's own, or for Abapa and the other rule sets with the
//! majority end its neighbour without it, cycles split, `mancala_bench::grade::oware`, with a
//! caveat in the report) (`mancala_bench::grade`, the same grader as `mancala grade`).
//!
//! The player is an engine level (`int`), an external program speaking the line protocol (a
//! list of `str`: the command and its arguments; it is told the rule set, `rules …`), or a
//! Python callable called with a `Kalah` (or `Oware`) game set up at the position and
//! returning a move. The grading runs with the GIL released;
//! a callable is called with the GIL held. A callable that raises, returns something that is
//! not a move or an illegal move, or answers after the time plus the grace is scored as the
//! worst legal move (listed among the failures), never an exception of `grade`. An external
//! program that cannot start, ends, or does not answer the `rules` request is an
//! `EngineError` before any work; Ctrl-C stops the wait for a program's reply within a tenth
//! of a second (it is killed with every process it started).

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Mutex;

use pyo3::exceptions::{PyKeyboardInterrupt, PySystemExit, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use mancala_bench::grade as grader;
use mancala_bench::grade::{
    Answer, Budget, EnginePlayer, ExternalPlayer, FnPlayer, GradeReport, MoveGrade, Player, Valued,
};
use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_core::oware::OwarePosition;
use mancala_core::Game;
use mancala_solver::awari::AwariDb as Db;
use mancala_solver::engine::{Evaluate, Level};
use mancala_solver::exact_values::{ExactError, ExactValues, RulesMismatch};
use std::sync::Arc;

use crate::game::PyGame;

use crate::errors::{error, from_error, Kind};
use crate::int::Int;
use crate::interrupt::pending_signal;
use crate::kalah::Kalah;
use crate::path::FsPath;

/// The solver as the source of exact values, stopped by Ctrl-C: every solve looks for a
/// pending signal every [`crate::interrupt::TICK`]; when a handler raised, the exception is
/// kept in `interrupt` and the solve stops (the position is then not exact, and every later
/// one is refused at once).
struct Watched<'a> {
    solver: std::cell::RefCell<&'a mut mancala_solver::Solver>,
    interrupt: &'a Mutex<Option<PyErr>>,
}

impl ExactValues<KalahPosition> for Watched<'_> {
    fn check_rules(&self, rules: &KalahRules) -> Result<(), RulesMismatch> {
        self.solver.borrow().check_rules(rules)
    }

    fn value_of(&self, position: &KalahPosition) -> Result<i32, ExactError> {
        self.solver.borrow().value_of(position)
    }

    fn move_values_of(
        &self,
        position: &KalahPosition,
    ) -> Result<Vec<(KalahMove, i32)>, ExactError> {
        let stopped = || {
            self.interrupt
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .is_some()
        };
        if stopped() {
            return Err(ExactError::NotExact);
        }
        let interrupt = self.interrupt;
        let mut tick = |_: &_| match pending_signal() {
            Some(e) => {
                *interrupt.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                ControlFlow::Break(())
            }
            None => ControlFlow::Continue(()),
        };
        let a = self.solver.borrow_mut().analyse(
            position,
            mancala_solver::SolveOptions::new().progress(
                mancala_solver::progress::MIN_INTERVAL.max(crate::interrupt::TICK),
                &mut tick,
            ),
        )?;
        if a.moves.iter().any(|m| !m.exact) {
            return Err(ExactError::NotExact);
        }
        Ok(a.moves.iter().map(|m| (m.mv, m.value)).collect())
    }
}

/// Longest `time + grace` of `grade`, seconds.
const MAX_SECONDS: f64 = 1e9;

/// What plays: the engine, a program, or a Python callable.
enum Who {
    Engine(Level, u64),
    Program(Vec<String>),
    Callable(Py<PyAny>),
}

fn who(py: Python<'_>, player: &Bound<'_, PyAny>, seed: u64) -> PyResult<Who> {
    if player.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(
            "player: an engine level (int 1..=10), a command (list of str) or a callable, not bool",
        ));
    }
    if let Ok(i) = player.extract::<Int>() {
        return Ok(Who::Engine(crate::engine::checked_level(py, &i)?, seed));
    }
    if player.is_instance_of::<PyList>() || player.is_instance_of::<pyo3::types::PyTuple>() {
        let cmd: Vec<String> = player.extract().map_err(|_| {
            PyTypeError::new_err(
                "an external player is a list of str: the command and its arguments",
            )
        })?;
        if cmd.is_empty() {
            return Err(PyValueError::new_err(
                "an external player's command is empty",
            ));
        }
        return Ok(Who::Program(cmd));
    }
    if player.is_callable() {
        return Ok(Who::Callable(player.clone().unbind()));
    }
    Err(PyTypeError::new_err(format!(
        "player: an engine level (int 1..=10), a command (list of str) or a callable, not {}",
        player.get_type().name()?
    )))
}

/// A set of positions: Kalah (for a file, with its path and the line number and value of
/// each position, checked against the exact values), or Oware (graded against an Oware
/// database).
enum Set {
    Kalah(Vec<KalahPosition>, Option<(PathBuf, Vec<(usize, i32)>)>),
    Oware(Vec<OwarePosition>),
}

impl Set {
    /// Whether the set has no position.
    fn is_empty(&self) -> bool {
        match self {
            Set::Kalah(ps, _) => ps.is_empty(),
            Set::Oware(ps) => ps.is_empty(),
        }
    }
}

/// The positions named by `positions`: `"midgame64"`, a path of a positions file (Kalah, or
/// Oware with `# rules: …` naming an Oware rule set), or a sequence of `Kalah` games or of
/// `Oware` games.
fn positions(py: Python<'_>, positions: &Bound<'_, PyAny>) -> PyResult<Set> {
    let text_of_file = |path: PathBuf| -> PyResult<Set> {
        let text = std::fs::read_to_string(&path).map_err(|e| {
            pyo3::exceptions::PyOSError::new_err(format!(
                "{}: {e}",
                mancala_core::ShortenedPath(&path)
            ))
        })?;
        // The same reading of the `# rules:` line as both readers' (`mancala_bench`), parsed
        // once by the parser of the game it names, which picks the reader; a rule set that
        // does not parse is refused with that game's own reason (as `mancala grade` does).
        let rules = match mancala_bench::file_rules(&text) {
            Some((line, r)) => Some(r.parse::<mancala_core::Rules>().map_err(|e| {
                from_error(
                    py,
                    Kind::Notation,
                    format!(
                        "{}: line {line}: the `# rules:` line: {e}",
                        mancala_core::ShortenedPath(&path)
                    ),
                )
            })?),
            None => None,
        };
        let oware = rules.is_some_and(|r| r.oware().is_some());
        if oware {
            let (_, ps) = mancala_bench::parse_oware_positions(&text).map_err(|e| {
                from_error(
                    py,
                    Kind::Notation,
                    format!("{}: {e}", mancala_core::ShortenedPath(&path)),
                )
            })?;
            return Ok(Set::Oware(ps));
        }
        let (_, ps) = mancala_bench::parse_positions_at(&text).map_err(|e| {
            from_error(
                py,
                Kind::Notation,
                format!("{}: {e}", mancala_core::ShortenedPath(&path)),
            )
        })?;
        let values = ps.iter().map(|(line, p)| (*line, p.value)).collect();
        Ok(Set::Kalah(
            ps.into_iter().map(|(_, p)| p.position).collect(),
            Some((path, values)),
        ))
    };
    if let Ok(s) = positions.cast::<PyString>() {
        let s = s.to_cow()?;
        if s == "midgame64" {
            let set =
                mancala_bench::set("midgame64").map_err(|e| from_error(py, Kind::Solve, e))?;
            return Ok(Set::Kalah(
                set.positions.into_iter().map(|p| p.position).collect(),
                None,
            ));
        }
        return text_of_file(PathBuf::from(s.as_ref()));
    }
    if positions.is_instance_of::<pyo3::types::PyBytes>() || positions.hasattr("__fspath__")? {
        return text_of_file(positions.extract::<FsPath>()?.0);
    }
    let mut kalah = Vec::new();
    let mut oware = Vec::new();
    let wrong = || {
        PyTypeError::new_err(
            "positions: \"midgame64\", a positions file, or Kalah games, or Oware games (not both)",
        )
    };
    for item in positions.try_iter()? {
        let item = item?;
        if let Ok(game) = item.cast::<Kalah>() {
            kalah.push(crate::kalah::position_of(&game.borrow())?);
        } else if let Ok(game) = item.cast::<crate::oware::Oware>() {
            oware.push(*crate::game::record_of::<OwarePosition>(&game.borrow())?.position());
        } else {
            return Err(wrong());
        }
        if !kalah.is_empty() && !oware.is_empty() {
            return Err(wrong());
        }
    }
    Ok(if oware.is_empty() {
        Set::Kalah(kalah, None)
    } else {
        Set::Oware(oware)
    })
}

/// The answer of the Python callable `f` in `pos`: called with a game of `G`'s class at the
/// position, its return value read by `read`. A `KeyboardInterrupt` (or `SystemExit`) it
/// raises is kept in `interrupt`, to stop the run.
fn ask<G: PyGame>(
    f: &Py<PyAny>,
    pos: &G,
    interrupt: &Mutex<Option<PyErr>>,
    read: impl FnOnce(Python<'_>, &Bound<'_, PyAny>) -> Answer<G::Move>,
) -> Answer<G::Move> {
    Python::attach(|py| {
        let game = match py
            .get_type::<G::Class>()
            .call1((pos.rules().to_string(), pos.to_string()))
        {
            Ok(g) => g,
            Err(e) => return Answer::Failed(format!("making the game: {e}")),
        };
        match f.bind(py).call1((game,)) {
            Ok(obj) => read(py, &obj),
            Err(e) => {
                let text = format!("raised {}", echo(&e));
                if e.is_instance_of::<PyKeyboardInterrupt>(py)
                    || e.is_instance_of::<PySystemExit>(py)
                {
                    *interrupt.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                }
                Answer::Failed(text)
            }
        }
    })
}

/// The answer of a Python callable in an Oware position ([`ask`]); the move read as `Oware`
/// reads moves (a house number, or its text).
fn call_game<G: PyGame>(
    f: &Py<PyAny>,
    pos: &G,
    interrupt: &Mutex<Option<PyErr>>,
) -> Answer<G::Move> {
    ask(f, pos, interrupt, |py, obj| {
        if obj.is_instance_of::<pyo3::types::PyBool>() {
            return Answer::Unreadable(echo(obj));
        }
        match G::move_from_py(py, obj, pos) {
            Ok(m) => Answer::Move(m),
            Err(_) => Answer::Unreadable(obj.str().map_or_else(|_| "?".to_string(), |r| echo(&r))),
        }
    })
}

/// The answer of a Python callable in a Kalah position ([`ask`]): a move's text or a house
/// number 0..=255 (a number no house has is then scored illegal, not unreadable).
fn call(f: &Py<PyAny>, pos: &KalahPosition, interrupt: &Mutex<Option<PyErr>>) -> Answer<KalahMove> {
    ask(f, pos, interrupt, |_, obj| {
        if let Ok(s) = obj.cast::<PyString>() {
            return match s.to_cow().map(|t| t.parse::<KalahMove>()) {
                Ok(Ok(m)) => Answer::Move(m),
                _ => Answer::Unreadable(echo(&obj)),
            };
        }
        match obj
            .extract::<Int>()
            .ok()
            .and_then(|i| i.get::<u8>("house", 0, 255, "").ok())
        {
            Some(h) if !obj.is_instance_of::<pyo3::types::PyBool>() => {
                Answer::Move(KalahMove::House(h))
            }
            _ => Answer::Unreadable(obj.repr().map_or_else(|_| "?".to_string(), |r| echo(&r))),
        }
    })
}

fn move_dict<'py, G: PyGame>(py: Python<'py>, g: &MoveGrade<G>) -> PyResult<Bound<'py, PyAny>> {
    let k = PyDict::new(py);
    k.set_item("index", g.index)?;
    k.set_item("position", g.valued.position.to_string())?;
    k.set_item("seeds", g.valued.seeds)?;
    k.set_item("move", g.chosen.map(|m| G::move_to_py(py, m)))?;
    k.set_item("verdict", g.verdict.to_string())?;
    k.set_item("failed", g.verdict.failed())?;
    k.set_item("loss", g.loss)?;
    k.set_item("best", g.valued.best())?;
    let best: Vec<Py<PyAny>> = g
        .valued
        .best_moves()
        .into_iter()
        .map(|m| G::move_to_py(py, m))
        .collect();
    k.set_item("best_moves", best)?;
    let values: Vec<(Py<PyAny>, i32)> = g
        .valued
        .moves
        .iter()
        .map(|&(m, v)| (G::move_to_py(py, m), v))
        .collect();
    k.set_item("values", values)?;
    k.set_item("seconds", g.seconds)?;
    py.import("mancala.results")?
        .getattr("GradedMove")?
        .call((), Some(&k))
}

/// The `GradeReport` of `r`; `caveat` and `database` (the source of an Oware set's exact
/// values, `None` for Kalah's) as the report carries them.
fn report<'py, G: PyGame>(
    py: Python<'py>,
    r: &GradeReport<G>,
    worst: usize,
    bucket: u32,
    caveat: Option<String>,
    database: Option<String>,
) -> PyResult<Bound<'py, PyAny>> {
    let results = py.import("mancala.results")?;
    let k = PyDict::new(py);
    k.set_item("player", &r.player)?;
    k.set_item("caveat", caveat)?;
    k.set_item("database", database)?;
    k.set_item("rules_refused", &r.rules_refused)?;
    k.set_item("positions", r.positions())?;
    k.set_item("optimal", r.optimal_share())?;
    k.set_item("mean_loss", r.mean_loss())?;
    k.set_item("worst_loss", r.worst_loss())?;
    k.set_item("total_loss", r.total_loss())?;
    let moves = r
        .moves
        .iter()
        .map(|g| move_dict(py, g))
        .collect::<PyResult<Vec<_>>>()?;
    k.set_item("moves", moves)?;
    let worst = r
        .worst(worst)
        .into_iter()
        .map(|g| move_dict(py, g))
        .collect::<PyResult<Vec<_>>>()?;
    k.set_item("worst", worst)?;
    let mut groups = Vec::new();
    for b in r.by_seeds(bucket) {
        let g = PyDict::new(py);
        g.set_item("min_seeds", b.min_seeds)?;
        g.set_item("max_seeds", b.max_seeds)?;
        g.set_item("positions", b.positions)?;
        g.set_item("optimal", b.optimal)?;
        g.set_item("mean_loss", b.mean_loss)?;
        g.set_item("worst_loss", b.worst_loss)?;
        groups.push(results.getattr("SeedGroup")?.call((), Some(&g))?);
    }
    k.set_item("by_seeds", groups)?;
    results.getattr("GradeReport")?.call((), Some(&k))
}

/// An echoed answer of a callable (or its exception) as a verdict shows it: cut to
/// [`mancala_core::Shortened::MAX_CHARS`] characters, control characters escaped, as the
/// grader cuts a program's reply.
fn echo(text: &impl std::fmt::Display) -> String {
    mancala_core::Shortened(&text.to_string()).to_string()
}

/// A signal handler's exception (`KeyboardInterrupt`), seen while grading: the run stops
/// and it is raised. Shared with an external player's stop test.
type Interrupt = Arc<Mutex<Option<PyErr>>>;

/// The pending signal handler's exception, kept in `interrupt`: whether the run must stop.
fn stopped(interrupt: &Mutex<Option<PyErr>>) -> bool {
    let mut i = interrupt.lock().unwrap_or_else(|e| e.into_inner());
    if i.is_none() {
        *i = pending_signal();
    }
    i.is_some()
}

/// How a Python callable is asked for a move in a position of game `G`.
type Call<G> = fn(&Py<PyAny>, &G, &Mutex<Option<PyErr>>) -> Answer<<G as Game>::Move>;

/// The player `who` for positions of game `G`; `call` answers for a callable. An external
/// program is started now and told the rule set `rules` (`ExternalPlayer::tell_rules`, as
/// `mancala grade` does): one that cannot start, ends, or does not answer within the
/// start-up limit is an error before any work (a refusal is kept in the report); its waits
/// for a reply look for a pending signal every `POLL` (then the program is killed).
///
/// # Errors
/// Why the program cannot be graded (the text of `tell_rules`).
fn make_player<'a, G: Evaluate>(
    who: Who,
    interrupt: &'a Interrupt,
    call: Call<G>,
    rules: &str,
) -> Result<Box<dyn Player<G> + 'a>, String> {
    Ok(match who {
        Who::Engine(level, seed) => Box::new(EnginePlayer::new(level, seed)),
        Who::Program(cmd) => {
            let flag = Arc::clone(interrupt);
            let mut p = ExternalPlayer::new(cmd).stop_when(move || stopped(&flag));
            p.tell_rules(rules)?;
            Box::new(p)
        }
        Who::Callable(f) => {
            let name = Python::attach(|py| {
                f.bind(py)
                    .getattr("__name__")
                    .and_then(|n| n.extract::<String>())
                    .unwrap_or_else(|_| "python callable".to_string())
            });
            Box::new(FnPlayer::new(name, move |pos: &G, _: &Budget| {
                call(&f, pos, interrupt)
            }))
        }
    })
}

/// Why a grading stopped with an error.
enum Failed {
    /// The external program cannot be graded (it cannot start, or did not answer `rules`).
    Player(String),
    /// The set could not be valued.
    Grade(grader::GradeError),
    /// A positions file gives a position a value that is not its exact value (the message,
    /// naming the file, the line and both values).
    File(String),
}

impl From<grader::GradeError> for Failed {
    fn from(e: grader::GradeError) -> Failed {
        Failed::Grade(e)
    }
}

/// The Python exception of `f`, a failure of the values being of `kind`.
fn failed_err(py: Python<'_>, f: Failed, kind: Kind) -> PyErr {
    match f {
        Failed::Player(why) => from_error(py, Kind::Engine, format!("the player: {why}")),
        Failed::Grade(e) => from_error(py, kind, e),
        Failed::File(why) => from_error(py, Kind::Notation, why),
    }
}

/// Grades `player` on `valued`, stopping at a pending signal between two positions.
fn run_grade<G: Game>(
    player: &mut dyn Player<G>,
    valued: &[Valued<G>],
    budget: &Budget,
    interrupt: &Mutex<Option<PyErr>>,
) -> GradeReport<G> {
    grader::grade(player, valued, budget, |_| {
        if stopped(interrupt) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    })
}

/// Largest N `grade` builds by itself for a set of Oware positions (the cache's default:
/// about 13 s on two free cores); a set with more seeds needs `database=`.
const MAX_AUTO_SEEDS: u32 = mancala_solver::awari::DEFAULT_MAX_SEEDS;

/// `grade(player, positions="midgame64", *, solver=None, database=None, time=1.0, grace=0.5,
/// nodes=None, seed=1, take=None, worst=5, bucket=4)`: grades `player` on the Kalah
/// positions (valued by the solver, with the Kalah `database` when one is given) or the Oware
/// positions of a six-house rule set (valued by the Oware `database` of the rule set, or of
/// its neighbour without the majority end and with cycles split for Abapa and the others —
/// the report's `caveat` then says so, and positions already over are left out; by default
/// one built in memory for the set's largest number of seeds, at most 18) and returns a
/// `GradeReport` (`mancala.results`). See the module's documentation and `docs/python.md`.
#[pyfunction]
#[pyo3(signature = (player, positions = None, *, solver = None, database = None, time = 1.0, grace = 0.5, nodes = None, seed = Int::of(1), take = None, worst = Int::of(5), bucket = Int::of(4)),
       text_signature = "(player, positions=None, *, solver=None, database=None, time=1.0, grace=0.5, nodes=None, seed=1, take=None, worst=5, bucket=4)")]
#[allow(clippy::too_many_arguments)]
pub fn grade<'py>(
    py: Python<'py>,
    player: &Bound<'py, PyAny>,
    positions: Option<&Bound<'py, PyAny>>,
    solver: Option<PyRef<'py, crate::solver::Solver>>,
    database: Option<PyRef<'py, crate::database::Database>>,
    time: f64,
    grace: f64,
    nodes: Option<Int>,
    seed: Int,
    take: Option<Int>,
    worst: Int,
    bucket: Int,
) -> PyResult<Bound<'py, PyAny>> {
    let seed = seed.u64("seed")?;
    let who = who(py, player, seed)?;
    let budget = Budget {
        time: crate::solver::seconds(time, "time")?,
        grace: crate::solver::seconds(grace, "grace")?,
        nodes: nodes.map(|n| n.u64("nodes")).transpose()?,
    };
    // A deadline past any clock's range would overflow `Instant`: 1e9 s (31 years) at most.
    if time + grace > MAX_SECONDS {
        return Err(PyValueError::new_err(format!(
            "time + grace must be at most {MAX_SECONDS:e} seconds, got {:e}",
            time + grace
        )));
    }
    // As `mancala grade --time-ms 0`: the program is sent `go time <ms>`, a whole number.
    if time < 1e-3 {
        return Err(PyValueError::new_err(format!(
            "time {time}: a move needs a time budget of at least 1 ms (0.001 s; use nodes= for a budget that does not depend on the machine, with time large enough)"
        )));
    }
    let set = match positions {
        None => self::positions(py, PyString::new(py, "midgame64").as_any())?,
        Some(p) => self::positions(py, p)?,
    };
    // An empty list is said to be one, whatever the game of `database` (an empty list is
    // neither Kalah's nor Oware's).
    if set.is_empty() {
        return Err(PyValueError::new_err(
            "no position to grade: positions is empty",
        ));
    }
    let take = take.map(|t| t.u64("take")).transpose()?;
    let worst = worst.u64("worst")? as usize;
    let bucket: u32 = bucket.get("bucket", 1, i128::from(u32::MAX), "")?;
    let cut = |len: usize| take.map_or(len, |t| len.min(t as usize));
    // A `KeyboardInterrupt` (or any exception a signal handler raises), seen between two
    // positions or raised inside the callable: the run stops and it is raised.
    let interrupt: Interrupt = Arc::new(Mutex::new(None));
    let ps = match set {
        Set::Oware(mut ps) => {
            if solver.is_some() {
                return Err(PyValueError::new_err(
                    "solver= values Kalah positions; Oware positions are valued by database=",
                ));
            }
            ps.truncate(cut(ps.len()));
            if ps.is_empty() {
                return Err(PyValueError::new_err("no position to grade"));
            }
            // The rule set whose database values the set: its own, or for Abapa and the
            // other six-house rule sets the neighbour without the majority end, cycles split.
            let own_rules = ps[0].rules();
            let Some(valued_rules) = grader::oware::valued_rules(own_rules) else {
                // In the words of `mancala grade`: no database holds them, and what grade is for.
                let why = mancala_solver::awari::check_rules(&own_rules).err().map_or_else(
                    || {
                        "grade values Oware positions of six-house rule sets with an Oware database"
                            .to_string()
                    },
                    |m| mancala_solver::awari::unserved(&m, "grade is"),
                );
                return Err(from_error(py, Kind::Database, why));
            };
            // The database and where its values come from, as `mancala grade` says it.
            let (db, source): (Arc<Db>, String) = match &database {
                Some(d) => {
                    let db = d.shared::<OwarePosition>().ok_or_else(|| {
                        from_error(
                            py,
                            Kind::Database,
                            format!(
                                "grade values Oware positions with a database of Oware, not of {}",
                                d.db.kind().name()
                            ),
                        )
                    })?;
                    // Its file is not known here: the object was opened or built by the caller.
                    let source = format!("the database given (levels 0..={})", db.max_seeds());
                    (db, source)
                }
                None => {
                    let n = ps
                        .iter()
                        .map(OwarePosition::seeds_in_houses)
                        .max()
                        .unwrap_or(0);
                    if n > MAX_AUTO_SEEDS {
                        return Err(PyValueError::new_err(format!(
                            "a position has {n} seeds in its houses: give database=AwariDb.build({n}) (or open one); grade builds at most N = {MAX_AUTO_SEEDS} by itself"
                        )));
                    }
                    let cancel = std::sync::atomic::AtomicBool::new(false);
                    let built = crate::interrupt::run(py, &cancel, || {
                        Db::build_until_under(valued_rules.grand_slam(), n, 0, |_| {
                            !cancel.load(std::sync::atomic::Ordering::SeqCst)
                        })
                    })?;
                    let db = Arc::new(built.map_err(|e| from_error(py, Kind::Database, e))?);
                    let source = grader::oware::database_line(None, db.max_seeds());
                    (db, source)
                }
            };
            let rules = ps[0].rules().to_string();
            let outcome = py.detach(|| {
                let mut p = make_player::<OwarePosition>(who, &interrupt, call_game, &rules)
                    .map_err(Failed::Player)?;
                let valued = grader::oware::value_positions(&ps, valued_rules, &*db, |_| {})?;
                if valued.is_empty() {
                    return Ok(None);
                }
                Ok::<_, Failed>(Some(run_grade(p.as_mut(), &valued, &budget, &interrupt)))
            });
            if let Some(e) = interrupt.lock().unwrap_or_else(|e| e.into_inner()).take() {
                return Err(e);
            }
            let Some(r) = outcome.map_err(|e| failed_err(py, e, Kind::Database))? else {
                return Err(PyValueError::new_err(
                    "no position to grade: every position of the set is over (a player has passed half the seeds)",
                ));
            };
            let caveat = grader::oware::caveat(own_rules, valued_rules);
            return report(py, &r, worst, bucket, caveat, Some(source));
        }
        Set::Kalah(ps, file) => (ps, file),
    };
    let (mut ps, file) = ps;
    // A Kalah database: the solver's (one made here), read for the positions it holds.
    let kalah_db = match &database {
        None => None,
        Some(_) if solver.is_some() => {
            return Err(PyValueError::new_err(
                "give a Kalah database to the Solver of solver=, or as database=, not both",
            ))
        }
        Some(d) => Some(d.shared::<KalahPosition>().ok_or_else(|| {
            from_error(
                py,
                Kind::Database,
                format!(
                    "grade values Kalah positions with the solver and a database of Kalah, not of {}",
                    d.db.kind().name()
                ),
            )
        })?),
    };
    ps.truncate(cut(ps.len()));
    if ps.is_empty() {
        return Err(PyValueError::new_err("no position to grade"));
    }
    let own;
    let solver_lock: &Mutex<mancala_solver::Solver> = match &solver {
        Some(s) => s.inner(),
        None => {
            own = Mutex::new(match kalah_db {
                Some(db) => mancala_solver::Solver::new().database(db),
                None => mancala_solver::Solver::new(),
            });
            &own
        }
    };
    let rules = ps[0].rules().to_string();
    let outcome = py.detach(|| {
        let mut p =
            make_player::<KalahPosition>(who, &interrupt, call, &rules).map_err(Failed::Player)?;
        let mut s = solver_lock.lock().unwrap_or_else(|e| e.into_inner());
        let valued: Vec<Valued<KalahPosition>> = grader::value_set(
            &ps,
            &Watched {
                solver: std::cell::RefCell::new(&mut s),
                interrupt: &interrupt,
            },
            |_| {},
        )?;
        drop(s);
        // A file's values are its positions' exact values: one that disagrees is refused
        // before any move is asked for.
        if let Some((path, values)) = &file {
            grader::check_values(&valued, values)
                .map_err(|e| Failed::File(format!("{}: {e}", mancala_core::ShortenedPath(path))))?;
        }
        Ok::<_, Failed>(run_grade(p.as_mut(), &valued, &budget, &interrupt))
    });
    if let Some(e) = interrupt.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(e);
    }
    let r = outcome.map_err(|e| failed_err(py, e, Kind::Solve))?;
    report(py, &r, worst, bucket, None, None)
}

/// `generate_positions(rules, count, *, seed=1, min_seeds=4, max_seeds=16, solver=None)`:
/// `count` positions of the rule set `rules` reached by random play (the generator of
/// `mancala bench --generate`): a Kalah rule set gives `Kalah` games (each solved exactly on
/// the way, as the generator does), an Oware rule set of six houses a side (`awari`, `oware`,
/// …) gives `Oware` games still on under it (not valued: `grade` values them with an Oware
/// database). Ctrl-C stops it (a `KeyboardInterrupt`).
#[pyfunction]
#[pyo3(signature = (rules, count, *, seed = Int::of(1), min_seeds = Int::of(4), max_seeds = Int::of(16), solver = None),
       text_signature = "(rules, count, *, seed=1, min_seeds=4, max_seeds=16, solver=None)")]
pub fn generate_positions<'py>(
    py: Python<'py>,
    rules: &str,
    count: Int,
    seed: Int,
    min_seeds: Int,
    max_seeds: Int,
    solver: Option<PyRef<'py, crate::solver::Solver>>,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let awari = match rules.parse::<mancala_core::Rules>() {
        Ok(mancala_core::Rules::Oware(r)) if grader::oware::valued_rules(r).is_some() => Some(r),
        Ok(mancala_core::Rules::Oware(r)) => {
            return Err(from_error(
                py,
                Kind::Rules,
                format!(
                    "generate_positions: Kalah rule sets, or Oware rule sets of six houses a side (graded with an Oware database); {r} has {} houses a side",
                    r.houses()
                ),
            ))
        }
        Ok(other) if !matches!(other, mancala_core::Rules::Kalah(_)) => {
            return Err(from_error(
                py,
                Kind::Rules,
                format!(
                    "generate_positions: Kalah rule sets, or Oware rule sets of six houses a side (the games with exact values to grade against); {other} is a rule set of {}",
                    other.kind().name()
                ),
            ))
        }
        _ => None,
    };
    let kalah_rules = match awari {
        Some(_) => None,
        None => Some(crate::kalah::parse_rules(py, rules)?),
    };
    let count_n: usize = count.get("count", 1, 100_000, "")?;
    let (lo, hi): (u32, u32) = (
        min_seeds.get("min_seeds", 1, i128::from(u32::MAX), "")?,
        max_seeds.get("max_seeds", 1, i128::from(u32::MAX), "")?,
    );
    if lo > hi {
        return Err(PyValueError::new_err(format!(
            "min_seeds {lo} is more than max_seeds {hi}"
        )));
    }
    let seed = seed.u64("seed")?;
    // A signal handler's exception, seen while generating: the generation stops.
    let interrupt: Mutex<Option<PyErr>> = Mutex::new(None);
    let mut stop = || {
        let mut i = interrupt.lock().unwrap_or_else(|e| e.into_inner());
        if i.is_none() {
            *i = pending_signal();
        }
        if i.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    if let Some(r) = awari {
        if solver.is_some() {
            return Err(PyValueError::new_err(
                "solver= is for Kalah rule sets (Oware positions are not solved here)",
            ));
        }
        let made = py.detach(|| mancala_bench::generate_oware(r, seed, count_n, lo, hi, &mut stop));
        if let Some(e) = interrupt.into_inner().unwrap_or_else(|e| e.into_inner()) {
            return Err(e);
        }
        let ps = made.map_err(|e| error(py, Kind::Solve, e.to_string()))?;
        let class = py.get_type::<crate::oware::Oware>();
        return ps
            .iter()
            .map(|p| class.call1((p.rules().to_string(), p.to_string())))
            .collect();
    }
    let params = mancala_bench::GenerateParams {
        rules: kalah_rules.expect("a Kalah rule set"),
        seed,
        count: count_n,
        min_seeds: lo,
        max_seeds: hi,
    };
    let own;
    let solver_lock: &Mutex<mancala_solver::Solver> = match &solver {
        Some(s) => s.inner(),
        None => {
            own = Mutex::new(mancala_solver::Solver::new());
            &own
        }
    };
    let made = py.detach(|| {
        let mut s = solver_lock.lock().unwrap_or_else(|e| e.into_inner());
        mancala_bench::generate_midgame_until(&params, &mut s, |_, _| {}, &mut stop)
    });
    if let Some(e) = interrupt.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let text = made.map_err(|e| error(py, Kind::Solve, e.to_string()))?;
    let (_, ps) =
        mancala_bench::parse_positions(&text).map_err(|e| error(py, Kind::Solve, e.to_string()))?;
    let class = py.get_type::<Kalah>();
    ps.iter()
        .map(|p| class.call1((p.position.rules().to_string(), p.position.to_string())))
        .collect()
}
