//! `Database`: the database of exact values of any game, one class — open (the game told by
//! the file's header), build, save, convert, its properties, and the value of a game's
//! position and of each of its legal moves. `Egdb` (Kalah) and `AwariDb` (Oware) are its
//! kinds: `Database.open` and `Database.build` give an object of the kind of the game, so
//! their older methods keep working on it.
//!
//! Written once, generically over the game's database type
//! (`mancala_solver::ExactGame::Database`): the object holds the solver's `AnyDatabase`
//! trait object (the one the C API's handle holds too) made for the game a rule set or a
//! file names.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::PyClassInitializer;

use mancala_core::{with_game, AnyGame, GameRecord, Rules};
use mancala_solver::egdb::{game_of_file, Database as DbFile, DatabaseInfo, Encoding, NoDatabase};
use mancala_solver::engine::{any_database, database_of, AnyDatabase, Evaluate};
use mancala_solver::{BuildOptions, EgdbError};

use crate::errors::{error, from_error, Kind};
use crate::game::{Game, PyGame};
use crate::int::Int;
use crate::path::FsPath;

/// The Python class of a game's database type: `Egdb`, `AwariDb`, or `Database` itself for
/// a game that has none.
pub(crate) trait DbClass: DbFile {
    /// A new object of the class, with `base` as its `Database` part.
    fn object(py: Python<'_>, base: Database, db: Arc<Self>) -> PyResult<Py<Database>>;
}

impl DbClass for mancala_solver::Egdb {
    fn object(py: Python<'_>, base: Database, db: Arc<Self>) -> PyResult<Py<Database>> {
        let init = PyClassInitializer::from(base).add_subclass(crate::solver::Egdb { inner: db });
        Ok(Py::new(py, init)?.into_bound(py).into_super().unbind())
    }
}

impl DbClass for mancala_solver::awari::AwariDb {
    fn object(py: Python<'_>, base: Database, db: Arc<Self>) -> PyResult<Py<Database>> {
        let init = PyClassInitializer::from(base).add_subclass(crate::awari::AwariDb { inner: db });
        Ok(Py::new(py, init)?.into_bound(py).into_super().unbind())
    }
}

impl<G: mancala_core::Game> DbClass for NoDatabase<G> {
    fn object(py: Python<'_>, base: Database, _: Arc<Self>) -> PyResult<Py<Database>> {
        Py::new(py, base)
    }
}

/// The Python object of the database `db` of game `G` built with `rules`: of its game's kind
/// of `Database` (`DbClass`).
fn object_for<G: Evaluate + PyGame>(
    _: &GameRecord<G>,
    py: Python<'_>,
    db: Arc<dyn AnyDatabase>,
    rules: String,
) -> PyResult<Py<Database>>
where
    G::Database: DbClass,
{
    let inner = database_of::<G>(&*db).ok_or_else(|| {
        error(
            py,
            Kind::Database,
            format!("not a database of {}", G::KIND.name()),
        )
    })?;
    let base = Database { db, rules };
    <G::Database as DbClass>::object(py, base, inner)
}

/// The Python object of the database `db` (of any game) built with `rules`.
fn object(py: Python<'_>, db: Arc<dyn AnyDatabase>, rules: String) -> PyResult<Py<Database>> {
    with_game!(&AnyGame::new(Rules::default_of(db.kind())), g => object_for(g, py, db, rules))
}

/// The object of the database `db` of game `G` built with `rules`.
pub(crate) fn object_of<G: Evaluate + PyGame>(
    py: Python<'_>,
    db: Arc<G::Database>,
    rules: String,
) -> PyResult<Py<Database>>
where
    G::Database: DbClass,
{
    object(py, any_database::<G>(db), rules)
}

/// The base part (`Database`) of the object of the database `db` of game `G`.
pub(crate) fn base_of<G: Evaluate + PyGame>(db: Arc<G::Database>, rules: String) -> Database
where
    G::Database: DbClass,
{
    Database {
        db: any_database::<G>(db),
        rules,
    }
}

/// `Database.bits_per_entry`: a whole width (`int`) or an average (`float`).
#[derive(IntoPyObject)]
enum Bits {
    /// The fixed width of a one-byte or packed encoding.
    Width(u32),
    /// The payload's bits over the entries of an encoding without a fixed width.
    Average(f64),
}

/// The legal moves of `g`'s position as Python values, in the order of `legal_moves`.
fn legal_moves_py<G: PyGame>(g: &GameRecord<G>, py: Python<'_>) -> Vec<Py<PyAny>> {
    g.position()
        .legal_moves()
        .into_iter()
        .map(|m| G::move_to_py(py, m))
        .collect()
}

/// The database of exact values of one game (`Egdb` for Kalah, `AwariDb` for Oware are its
/// kinds): the exact value of every position with at most `max_seeds` seeds in the houses.
/// Made by `Database.open` or `Database.build`; given to `Engine(database=…)` and
/// `grade(database=…)`. Read-only: it may be shared by several engines.
#[pyclass(module = "mancala", subclass, frozen)]
pub struct Database {
    pub(crate) db: Arc<dyn AnyDatabase>,
    /// The rule set it was built with, as its file's header or the build names it.
    pub(crate) rules: String,
}

impl Database {
    /// The database, when it is one of game `G`.
    pub(crate) fn shared<G: Evaluate>(&self) -> Option<Arc<G::Database>> {
        database_of::<G>(&*self.db)
    }
}

fn open_as<G: Evaluate + PyGame>(
    _: &GameRecord<G>,
    py: Python<'_>,
    path: &Path,
) -> PyResult<Py<Database>>
where
    G::Database: DbClass,
{
    let opened = py.detach(|| {
        let rules = G::Database::info(path)?.rules().to_string();
        Ok::<_, EgdbError>((rules, G::Database::open(path)?))
    });
    let (rules, db) = opened.map_err(|e| from_error(py, Kind::Database, e.about(path)))?;
    object_of::<G>(py, Arc::new(db), rules)
}

/// `Database.open` on a path: the database of the game the file's header names.
pub(crate) fn open_path(py: Python<'_>, path: &Path) -> PyResult<Py<Database>> {
    let (kind, _) =
        game_of_file(path).map_err(|e| from_error(py, Kind::Database, e.about(path)))?;
    with_game!(&AnyGame::new(Rules::default_of(kind)), g => open_as(g, py, path))
}

/// Why no database serves the Oware rule set `rules` (`mancala_solver::awari::check_rules`,
/// the check of the `mancala` command's `--rules`), in the command's words: `no database
/// holds the values of oware, which has majority=stop, cycle_score=own_row; tip: …`, the
/// tip naming the rule sets the databases serve. `None` for a rule set one database serves.
pub(crate) fn unserved_oware(rules: &mancala_core::oware::OwareRules) -> Option<String> {
    let refused = mancala_solver::awari::check_rules(rules).err()?;
    Some(mancala_solver::awari::unserved(
        &refused,
        "the databases are",
    ))
}

/// `Database.find` for game `G` (the game of `g`'s rules, `rules`): the database serving
/// the rules of `g` with the most seeds in the folder `path`, by the files' headers, or the
/// file `path` ([`mancala_solver::egdb::find_in`], as the `mancala` command's `--egdb`).
///
/// # Errors
/// `DatabaseError`: a game no database serves, or an Oware rule set no database serves
/// ([`unserved_oware`]; both checked before the folder is read), no file serving the rules
/// (naming every file passed over and why), a file that does not serve them or cannot be
/// read.
pub(crate) fn find_as<G: Evaluate + PyGame>(
    g: &GameRecord<G>,
    py: Python<'_>,
    path: &Path,
    rules: Rules,
) -> PyResult<Py<Database>>
where
    G::Database: DbClass,
{
    // A rule set no database serves says so, as the command does, rather than a folder
    // where no file serves it: an Oware rule set whose values differ (`oware`), a game
    // without databases (Bao la Kete, Togyz Kumalak).
    if let Rules::Oware(oware) = rules {
        if let Some(why) = unserved_oware(&oware) {
            return Err(error(py, Kind::Database, why));
        }
    }
    let rules = g.position().rules();
    if let Err(e @ EgdbError::NoDatabase { .. }) = G::Database::entries(&rules, 0) {
        return Err(from_error(py, Kind::Database, e));
    }
    let found = py.detach(|| {
        let found = mancala_solver::egdb::find_in::<G::Database>(path, &rules)?;
        // The rule set its header names, as `Database.open` reports it.
        let built_with = G::Database::info(&found.path)?.rules().to_string();
        Ok::<_, EgdbError>((found.database, built_with))
    });
    let (db, built_with) = found.map_err(|e| from_error(py, Kind::Database, e))?;
    object_of::<G>(py, Arc::new(db), built_with)
}

fn build_as<G: Evaluate + PyGame>(
    g: &GameRecord<G>,
    py: Python<'_>,
    max_seeds: u32,
    threads: usize,
    encoding: Encoding,
) -> PyResult<Py<Database>>
where
    G::Database: DbClass,
{
    let rules = g.position().rules();
    let cancel = AtomicBool::new(false);
    let built = crate::interrupt::run(py, &cancel, || {
        G::Database::build(
            &rules,
            max_seeds,
            BuildOptions::new()
                .encoding(encoding)
                .threads(threads)
                .progress(crate::interrupt::TICK, &mut |_| {
                    if cancel.load(Ordering::SeqCst) {
                        std::ops::ControlFlow::Break(())
                    } else {
                        std::ops::ControlFlow::Continue(())
                    }
                }),
        )
    })?;
    match built {
        Ok(db) => object_of::<G>(py, Arc::new(db), rules.to_string()),
        Err(EgdbError::Cancelled) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
            "the database build was stopped",
        )),
        Err(e) => Err(from_error(py, Kind::Database, e)),
    }
}

#[pymethods]
impl Database {
    /// Opens the database file `path` (a `str`, `bytes` or `os.PathLike`) of any game: the game and
    /// its rule set are read from the file's header, then the file is checked completely
    /// (header, checksums, every entry). Returns an object of the game's kind (`Egdb` for
    /// Kalah, `AwariDb` for Oware). Raises `DatabaseError` with the library's reason
    /// (missing, truncated, corrupt, another format version).
    #[staticmethod]
    fn open(py: Python<'_>, path: FsPath) -> PyResult<Py<Database>> {
        open_path(py, &path.0)
    }

    /// The database serving `rules` (a rule-set text, which chooses the game: `"kalah(6,4)"`,
    /// `"awari"`, `"oware+majority=off+cycle_score=split"`) with the most seeds (K or N) in
    /// the folder `path` (a `str`, `bytes` or `os.PathLike`), chosen by what the files'
    /// headers say, never by their names, as `--egdb` of the `mancala` command does; a
    /// candidate whose entries are damaged is passed over for the next. A path that is not a
    /// folder is opened as one database file, which must serve `rules`. The database is
    /// checked completely (every checksum and entry). Returns an object of the game's kind
    /// (`Egdb` for Kalah, as `Egdb.find`; `AwariDb` for Oware). Raises `RulesError` (a
    /// malformed rule set), `DatabaseError` (a game or rule set no database serves, such as
    /// `bao-la-kete` or `oware`, before the folder is read, in the words of the `mancala`
    /// command; no file serving the rules, with every file passed over and why; a file that
    /// does not serve them or cannot be read).
    #[staticmethod]
    fn find(py: Python<'_>, path: FsPath, rules: &str) -> PyResult<Py<Database>> {
        let rules: Rules = rules.parse().map_err(|e| from_error(py, Kind::Rules, e))?;
        let path = path.0;
        with_game!(&AnyGame::new(rules), g => find_as(g, py, &path, rules))
    }

    /// Builds in memory the database of the rule set `rules` (a rule-set text: `"kalah(6,4)"`,
    /// `"awari"`, `"oware+majority=off+cycle_score=split"`; the text chooses the game and, for
    /// Oware, the database of its grand-slam rule) for every position with at most `max_seeds`
    /// seeds in the houses, on `threads` threads (`None`: every core), in the entry encoding
    /// `encoding` (`"byte"`, `"packed"` or, for Oware, `"compact"`), with the GIL released; Ctrl-C stops it (a
    /// `KeyboardInterrupt`). Kalah(6,·) with 12 seeds takes 2.7 MB and a few seconds; Awari
    /// with 18 seeds 84 MB and about 13 s on two cores. Returns an object of the game's kind.
    /// Raises `RulesError` (a malformed rule set), `ValueError` (`max_seeds` or `threads` out
    /// of range, another encoding name), `DatabaseError` (a game or rule set no database
    /// serves, too many seeds for the game or the format, out of memory).
    #[staticmethod]
    #[pyo3(signature = (rules, max_seeds, threads = None, encoding = "byte"))]
    fn build(
        py: Python<'_>,
        rules: &str,
        max_seeds: Int,
        threads: Option<Int>,
        encoding: &str,
    ) -> PyResult<Py<Database>> {
        let rules: Rules = rules.parse().map_err(|e| from_error(py, Kind::Rules, e))?;
        let max_seeds: u32 = max_seeds.get("max_seeds", 0, i128::from(u32::MAX), "")?;
        let threads = crate::solver::threads(threads)?.unwrap_or(0);
        let encoding = crate::solver::encoding(encoding, "encoding")?;
        with_game!(&AnyGame::new(rules), g => build_as(g, py, max_seeds, threads, encoding))
    }

    /// Writes the database to `path` (a `str`, `bytes` or `os.PathLike`) crash-safely (a
    /// temporary file renamed over it), in its encoding (`convert` first for the other).
    /// Without `overwrite`, only over nothing or over a file that holds this same database
    /// (the same game, rule family, K or N and encoding): a file holding another database,
    /// or no database, is left as it is, as `mancala egdb build` leaves it without
    /// `--force`; `overwrite=True` writes over it. Of two saves started at once to a new
    /// path, the later one finds the earlier one's file. Raises `DatabaseExistsError` (a
    /// `DatabaseError` and a `FileExistsError`; without `overwrite`) for such a file, naming
    /// it and what it holds, and `DatabaseError` when the file cannot be written.
    #[pyo3(signature = (path, overwrite = false))]
    fn save(&self, py: Python<'_>, path: FsPath, overwrite: bool) -> PyResult<()> {
        let path = path.0;
        let db = Arc::clone(&self.db);
        py.detach(move || db.save_checked(&path, overwrite))
            .map_err(|e| crate::errors::database_error(py, &e))
    }

    /// The game whose values it holds, by name (`"Kalah"`, `"Oware"`, as `Game.kind`).
    #[getter]
    fn game(&self) -> &'static str {
        self.db.kind().name()
    }

    /// The rule set it was built with, in notation (`"kalah(6,4)"`, `"awari"`): a Kalah
    /// database serves every n and the options that do not change values as well.
    #[getter]
    fn rules(&self) -> String {
        self.rules.clone()
    }

    /// K (Kalah) or N (Oware): it holds every position with at most this many seeds in the
    /// houses.
    #[getter]
    fn max_seeds(&self) -> u32 {
        self.db.max_seeds()
    }

    /// Its entries (positions, or Oware boards).
    #[getter]
    fn entries(&self) -> u64 {
        self.db.entries()
    }

    /// How the entries are held in memory and written by `save`: `"byte"` (one byte an entry),
    /// `"packed"` (the value's index among those its seed count allows, in a few bits) or,
    /// for Oware, `"compact"` (Huffman codes in blocks, `docs/awari.md`).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.db.encoding().name()
    }

    /// Bits an entry takes, on average: 8 (an `int`) for `"byte"`, the packed width (an
    /// `int`) for `"packed"`, and for `"compact"`, whose codes have no fixed width, the
    /// payload's bits over the entries (a `float`, about 3.3 at N = 20..=24): what the file
    /// holds, its header left out, as `mancala egdb info` prints it.
    #[getter]
    fn bits_per_entry(&self) -> Bits {
        match self.db.encoding() {
            Encoding::Compact => Bits::Average(self.db.average_bits()),
            _ => Bits::Width(self.db.bits_per_entry()),
        }
    }

    /// Memory its entries take, bytes: `entries` for `"byte"`; for `"packed"` the bit stream,
    /// ⌈entries · bits_per_entry / 8⌉ bytes, plus 8 bytes of padding; for `"compact"` its
    /// payload, 8 bytes of padding and the decoders of its code tables.
    #[getter]
    fn memory_bytes(&self) -> u64 {
        self.db.memory_bytes()
    }

    /// What it serves, for messages: `"kalah(6,·)+empty_capture, K = 20"`,
    /// `"awari, levels 0..=18"`.
    #[getter]
    fn description(&self) -> String {
        self.db.describe()
    }

    /// The same database in the entry encoding `encoding` (`"byte"`, `"packed"`, or `"compact"`
    /// for Oware), every
    /// value the same (a copy when it is already in it): a new object of the same kind,
    /// which `save` writes in that encoding. Both are in memory at once while converting;
    /// the GIL is released meanwhile. Raises `ValueError` for another encoding name,
    /// `DatabaseError` when the new entries do not fit in memory.
    fn convert(&self, py: Python<'_>, encoding: &str) -> PyResult<Py<Database>> {
        let encoding = crate::solver::encoding(encoding, "encoding")?;
        let db = Arc::clone(&self.db);
        let converted = py
            .detach(move || db.convert(encoding))
            .map_err(|e| from_error(py, Kind::Database, e))?;
        object(py, converted, self.rules.clone())
    }

    /// The exact value of the current position of `game` for the player to move, in seeds:
    /// what that player can still gain minus what the opponent can, with best play (Kalah:
    /// into the stores, the final sweep included; Oware: captures and the final allotment);
    /// the final margin is the stored (captured) difference plus it. `None` when the game is
    /// over or the database does not hold the position (more seeds in the houses than
    /// `max_seeds`, a Kalah opening state). The game's history is not looked at. Raises
    /// `DatabaseError` for a game of another kind, or of rules whose values it does not hold
    /// (the message names the rules that differ).
    fn value(&self, py: Python<'_>, game: PyRef<'_, Game>) -> PyResult<Option<i32>> {
        self.db
            .value(&game.game)
            .map_err(|m| error(py, Kind::Database, m.to_string()))
    }

    /// Each legal move of the current position of `game` (as `value`) with its exact value for
    /// the player who makes it: `{move: value}`, the moves as `Game.legal_moves` gives them;
    /// the position's value is the largest. `None` and the exceptions as for `value`.
    fn move_values(
        &self,
        py: Python<'_>,
        game: PyRef<'_, Game>,
    ) -> PyResult<Option<Py<pyo3::types::PyDict>>> {
        let values = self
            .db
            .move_values(&game.game)
            .map_err(|m| error(py, Kind::Database, m.to_string()))?;
        let Some(values) = values else {
            return Ok(None);
        };
        let moves = with_game!(&game.game, g => legal_moves_py(g, py));
        let d = pyo3::types::PyDict::new(py);
        for (mv, value) in moves.into_iter().zip(values) {
            d.set_item(mv, value)?;
        }
        Ok(Some(d.unbind()))
    }

    fn __repr__(&self) -> String {
        format!("<mancala.Database {}>", self.db.describe())
    }

    /// A database is not pickled (its table can be gigabytes): `TypeError` saying to save it
    /// and open the file in the other process. For `Egdb` and `AwariDb` too.
    ///
    /// # Errors
    /// Always `TypeError`.
    fn __reduce__(&self) -> PyResult<()> {
        Err(crate::errors::not_picklable(
            "Database",
            "its table is not copied; save() it and Database.open() the file in the other process",
        ))
    }
}

/// A `DeprecationWarning` (stack level 1) saying that `old` goes in 0.4.0 and `new` replaces
/// it.
///
/// # Errors
/// Only when the warning is turned into an error (`-W error`).
pub(crate) fn deprecated(py: Python<'_>, old: &str, new: &str) -> PyResult<()> {
    let text = std::ffi::CString::new(format!(
        "{old} is deprecated since 0.3.0 and goes in 0.4.0: use {new}"
    ))
    .unwrap_or_default();
    PyErr::warn(
        py,
        &py.get_type::<pyo3::exceptions::PyDeprecationWarning>(),
        &text,
        1,
    )
}
