//! `AwariDb`: the Awari databases (`docs/awari.md`) — build (GIL released, Ctrl-C stops it
//! between levels), open, save, and the exact value of an `Oware` game of the `awari` rule
//! set and of each of its legal moves.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use mancala_core::oware::OwarePosition;
use mancala_solver::awari::{check_rules, entries_to, AwariDb as Db, AwariError};
use mancala_solver::exact_values::ExactValues;
use pyo3::prelude::*;

use crate::errors::{from_error, Kind};
use crate::game::record_of;
use crate::int::Int;
use crate::oware::Oware;

/// An Awari database in memory: the exact value (the mover's future captures minus the
/// opponent's, the final allotment included, endless play even; OW-10.3) of every Oware
/// board with at most N seeds in the houses under the `awari` rule set
/// (`mancala_solver::awari::AwariDb`). Made by `AwariDb.build` or `AwariDb.open`.
/// Read-only.
#[pyclass(module = "mancala", frozen)]
pub struct AwariDb {
    pub(crate) inner: Arc<Db>,
}

/// The position of `p` when `db` holds the values of its rules, `None` when it does not
/// hold the position (the game is over, or more seeds in the houses than N); a
/// `DatabaseError` with the library's refusal (the rules that differ) for another rule set.
fn held<'a>(py: Python<'_>, db: &Db, p: &'a OwarePosition) -> PyResult<Option<&'a OwarePosition>> {
    check_rules(&p.rules()).map_err(|m| from_error(py, Kind::Database, m))?;
    Ok((!p.is_over() && p.seeds_in_houses() <= db.max_seeds()).then_some(p))
}

#[pymethods]
impl AwariDb {
    /// Builds every level 0..=`max_seeds` (N ≤ 48) on `threads` threads (`None`: every
    /// core), with the GIL released; Ctrl-C stops it after the level being built (a
    /// `KeyboardInterrupt`). N = 12 takes about a second and 2.7 MB, N = 18 about 13 s on two
    /// free cores and 84 MB. Raises `ValueError` naming the argument and its range
    /// (`max_seeds` outside 0..=48, `threads` outside 1..=1024), `DatabaseError` (memory).
    #[staticmethod]
    #[pyo3(signature = (max_seeds, threads = None))]
    fn build(py: Python<'_>, max_seeds: Int, threads: Option<Int>) -> PyResult<AwariDb> {
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
            Ok(db) => Ok(AwariDb {
                inner: Arc::new(db),
            }),
            Err(AwariError::Cancelled) => Err(pyo3::exceptions::PyKeyboardInterrupt::new_err(
                "the Awari database build was stopped",
            )),
            Err(e) => Err(from_error(py, Kind::Database, e)),
        }
    }

    /// Loads the Awari database file `path` (a `str` or `os.PathLike`), checking it
    /// completely (header, checksums, every value). Raises `DatabaseError` with the
    /// library's reason (missing, truncated, corrupt, a Kalah file).
    #[staticmethod]
    fn open(py: Python<'_>, path: PathBuf) -> PyResult<AwariDb> {
        let db = py
            .detach(|| Db::open(&path))
            .map_err(|e| from_error(py, Kind::Database, e.about(&path)))?;
        Ok(AwariDb {
            inner: Arc::new(db),
        })
    }

    /// Writes the database to `path` crash-safely (a temporary file renamed over it), in its
    /// encoding (`encoding`; `convert` first for the other). Raises `DatabaseError` when it
    /// cannot be written.
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        let db = Arc::clone(&self.inner);
        py.detach(move || db.save(&path))
            .map(|_| ())
            .map_err(|e| from_error(py, Kind::Database, e))
    }

    /// N: it holds every board with at most this many seeds.
    #[getter]
    fn max_seeds(&self) -> u32 {
        self.inner.max_seeds()
    }

    /// The boards it holds.
    #[getter]
    fn boards(&self) -> u64 {
        entries_to(self.inner.max_seeds())
    }

    /// The exact value of the current position of `game` (an `Oware` game of the rule set
    /// `awari`) for the player to move, in seeds: the mover's future captures minus the
    /// opponent's, the final allotment included (the final margin is the captured difference
    /// plus it). `None` when the game is over or has more seeds in the houses than N. The
    /// game's history is not looked at. Raises `DatabaseError` for another rule set.
    fn value(&self, py: Python<'_>, game: PyRef<'_, Oware>) -> PyResult<Option<i32>> {
        let p = record_of::<OwarePosition>(&game)?.position();
        match held(py, &self.inner, p)? {
            None => Ok(None),
            Some(p) => self
                .inner
                .value_of(p)
                .map(Some)
                .map_err(|e| from_error(py, Kind::Database, e)),
        }
    }

    /// Each legal move of the current position of `game` (as `value`) with its exact value:
    /// `{house: value}`, the seeds the move captures minus the value of the board it leaves
    /// to the opponent; the position's value is the largest. `None` as for `value`.
    fn move_values(
        &self,
        py: Python<'_>,
        game: PyRef<'_, Oware>,
    ) -> PyResult<Option<std::collections::BTreeMap<u8, i32>>> {
        let p = record_of::<OwarePosition>(&game)?.position();
        match held(py, &self.inner, p)? {
            None => Ok(None),
            Some(p) => self
                .inner
                .move_values_of(p)
                .map(|v| Some(v.into_iter().map(|(m, v)| (m.0, v)).collect()))
                .map_err(|e| from_error(py, Kind::Database, e)),
        }
    }

    fn __repr__(&self) -> String {
        format!("AwariDb(max_seeds={})", self.inner.max_seeds())
    }
}

crate::solver::storage_methods!(
    AwariDb,
    |py, e| from_error(py, Kind::Database, e),
    encoding: "How the values are held in memory and written by `save`: `\"byte\"` (one byte a board,\nwhat `build` gives) or `\"packed\"` (the value's index among −n..=n of its level n, 6\nbits a board for N = 16..31; docs/awari.md). A database opened from a packed file\nstays packed.",
    bits_per_entry: "Bits a board takes: 8 for `\"byte\"`; for `\"packed\"` ⌈log2(2N + 1)⌉ (5 for N = 8..15,\n6 for N = 16..31, 7 above).",
    memory_bytes: "Memory its values take, bytes: `boards` for `\"byte\"`; for `\"packed\"` the bit stream,\n⌈boards · bits_per_entry / 8⌉ bytes, plus 8 bytes of padding.",
    convert: "The same database in the encoding `encoding` (`\"byte\"` or `\"packed\"`): a new\n`AwariDb` with every value the same (a copy when it is already in that encoding),\nwhich `save` writes in that encoding. Both are in memory at once while converting;\nthe GIL is released meanwhile. Raises `ValueError` for another encoding name,\n`DatabaseError` when the new values do not fit in memory.",
);
