//! `AwariDb`: the kind of `Database` of Oware (`docs/awari.md`), its finder `AwariDb.find`
//! (`Database.find` for Oware rule sets only), and its older constructors `AwariDb.build`
//! and `AwariDb.open` (deprecated: `Database.build("awari", n)` and `Database.open` make the
//! same objects).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use mancala_core::oware::OwarePosition;
use mancala_core::{with_game, AnyGame, Rules};
use mancala_solver::awari::{entries_to, AwariDb as Db, AwariError};
use pyo3::prelude::*;

use crate::database::{deprecated, Database};
use crate::errors::{error, from_error, Kind};
use crate::int::Int;
use crate::path::FsPath;

/// An Awari database in memory: the exact value (the mover's future captures minus the
/// opponent's, the final allotment included, endless play even; OW-10.3) of every Oware
/// board with at most N seeds in the houses, for the rule sets whose values it holds
/// (`mancala_solver::awari::AwariDb`). The kind of `Database` of Oware: its properties,
/// `value`, `move_values` (`{house: value}`), `save` and `convert` are `Database`'s. Made by
/// `Database.build("awari", n)` or `Database.open`. Read-only.
#[pyclass(module = "mancala", frozen, extends = Database)]
pub struct AwariDb {
    pub(crate) inner: Arc<Db>,
}

impl AwariDb {
    /// A new `AwariDb` object of `db` (a `Database` of Oware).
    fn object(py: Python<'_>, db: Db) -> PyResult<Py<AwariDb>> {
        let db = Arc::new(db);
        let base = crate::database::base_of::<OwarePosition>(
            Arc::clone(&db),
            mancala_solver::awari::FILE_RULES.to_string(),
        );
        Py::new(
            py,
            pyo3::PyClassInitializer::from(base).add_subclass(AwariDb { inner: db }),
        )
    }
}

#[pymethods]
impl AwariDb {
    /// Deprecated since 0.3.0, goes in 0.4.0 (a `DeprecationWarning`):
    /// `Database.build("awari", max_seeds)` builds the same database.
    ///
    /// Builds every level 0..=`max_seeds` (N ≤ 48) on `threads` threads (`None`: every
    /// core), with the GIL released; Ctrl-C stops it after the level being built (a
    /// `KeyboardInterrupt`). N = 12 takes about a second and 2.7 MB, N = 18 about 13 s on two
    /// free cores and 84 MB. Raises `ValueError` naming the argument and its range
    /// (`max_seeds` outside 0..=48, `threads` outside 1..=1024), `DatabaseError` (memory).
    #[staticmethod]
    #[pyo3(signature = (max_seeds, threads = None))]
    fn build(py: Python<'_>, max_seeds: Int, threads: Option<Int>) -> PyResult<Py<AwariDb>> {
        deprecated(py, "AwariDb.build", "Database.build(\"awari\", max_seeds)")?;
        let most = i128::from(mancala_solver::awari::MAX_SEEDS);
        let max_seeds: u32 = max_seeds.get(
            "max_seeds",
            0,
            most,
            " (Awari has 48 seeds: a level holds the boards of that many seeds in the houses)",
        )?;
        let threads = crate::solver::threads(threads)?;
        let cancel = AtomicBool::new(false);
        let threads = threads.unwrap_or(0);
        let built = crate::interrupt::run(py, &cancel, || {
            Db::build_until(max_seeds, threads, |_| !cancel.load(Ordering::SeqCst))
        })?;
        match built {
            Ok(db) => AwariDb::object(py, db),
            Err(AwariError::Cancelled) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                "the Awari database build was stopped",
            )),
            Err(e) => Err(from_error(py, Kind::Database, e)),
        }
    }

    /// Deprecated since 0.3.0, goes in 0.4.0 (a `DeprecationWarning`): `Database.open` opens
    /// the file of any game.
    ///
    /// Loads the Awari database file `path` (a `str`, `bytes` or `os.PathLike`), checking it
    /// completely (header, checksums, every value). Raises `DatabaseError` with the
    /// library's reason (missing, truncated, corrupt, a Kalah file).
    #[staticmethod]
    fn open(py: Python<'_>, path: FsPath) -> PyResult<Py<AwariDb>> {
        let path = path.0;
        deprecated(py, "AwariDb.open", "Database.open")?;
        let db = py
            .detach(|| Db::open(&path))
            .map_err(|e| from_error(py, Kind::Database, e.about(&path)))?;
        AwariDb::object(py, db)
    }

    /// `Database.find` for Oware only: the Oware database serving `rules` (an Oware rule-set
    /// text: `"awari"`, `"oware+majority=off+cycle_score=split"`) with the most seeds (N)
    /// in the folder `path` (a `str`, `bytes` or `os.PathLike`), by the files' headers, or
    /// the file `path`, which must serve `rules`; checked completely. Returns an `AwariDb`.
    /// Raises `RulesError` (a malformed rule set), `DatabaseError` (the rule set of another
    /// game, `kalah(4,3)`, as `AwariDb.open` refuses a Kalah file: `kalah(4,3) is a rule set
    /// of Kalah, not of Oware; …`; an Oware rule set no database serves, such as `oware`; no
    /// file serving the rules, with every file passed over and why; a file that does not
    /// serve them or cannot be read).
    #[staticmethod]
    fn find(py: Python<'_>, path: FsPath, rules: &str) -> PyResult<Py<Database>> {
        let parsed: Rules = rules.parse().map_err(|e| from_error(py, Kind::Rules, e))?;
        if !matches!(parsed, Rules::Oware(_)) {
            return Err(error(
                py,
                Kind::Database,
                format!(
                    "{} is a rule set of {}, not of Oware; AwariDb.find finds Oware databases, \
                     Database.find(folder, rules) the database of any game",
                    mancala_core::Shortened(rules.trim()),
                    parsed.kind().name()
                ),
            ));
        }
        let path = path.0;
        with_game!(&AnyGame::new(parsed), g => crate::database::find_as(g, py, &path, parsed))
    }

    /// Deprecated since 0.3.0, goes in 0.4.0 (a `DeprecationWarning`): `Database.entries`.
    /// The boards it holds.
    #[getter]
    fn boards(&self, py: Python<'_>) -> PyResult<u64> {
        deprecated(py, "AwariDb.boards", "Database.entries")?;
        Ok(entries_to(self.inner.max_seeds()))
    }

    /// `AwariDb(rules='awari+grand_slam=none', max_seeds=N)`: the rule set whose values it
    /// holds and its N.
    fn __repr__(&self) -> String {
        format!(
            "AwariDb(rules='{}', max_seeds={})",
            self.inner.rules(),
            self.inner.max_seeds()
        )
    }
}
