//! `AwariDb`: the Awari databases (`docs/awari.md`) — build (GIL released, Ctrl-C stops it
//! between levels), open, save, and the exact value of an `Oware` game of the `awari` rule
//! set and of each of its legal moves.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use mancala_core::oware::OwarePosition;
use mancala_solver::awari::{entries_to, AwariBoard, AwariDb as Db, AwariError};
use mancala_solver::engine::oware::awari_values_carry_over;
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

/// Why the values of an Awari database do not carry over to `rules` (which
/// `awari_values_carry_over` refused), for messages: the board's size, or the rules.
pub(crate) fn why_not_awari(rules: &mancala_core::oware::OwareRules) -> String {
    if rules.houses() != 6 {
        format!(
            "its board has {} houses a side, the databases' boards 6",
            rules.houses()
        )
    } else {
        "its grand slam, majority, cycle or move-limit rule gives other values".to_string()
    }
}

/// The board of `p` mover first, or a `DatabaseError` for a rule set the values do not carry
/// over to; `None` when the game is over or has more seeds than `db` holds.
fn board_of(py: Python<'_>, db: &Db, p: &OwarePosition) -> PyResult<Option<AwariBoard>> {
    if !awari_values_carry_over(&p.rules()) {
        return Err(from_error(
            py,
            Kind::Database,
            format!(
                "an Awari database holds positions of the rule set awari, not of {} ({})",
                p.rules(),
                why_not_awari(&p.rules())
            ),
        ));
    }
    if p.side_to_move().is_none() || p.seeds_in_houses() > db.max_seeds() {
        return Ok(None);
    }
    let bits = p.mover_relative();
    Ok(AwariBoard::new(std::array::from_fn(|i| (bits >> (8 * i)) as u8)).ok())
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
            .map_err(|e| from_error(py, Kind::Database, e.in_file(&path)))?;
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

    /// How the values are held in memory and written by `save`: `"byte"` (one byte a board,
    /// what `build` gives) or `"packed"` (the value's index among −n..=n of its level n, 6
    /// bits a board for N = 16..31; docs/awari.md). A database opened from a packed file
    /// stays packed.
    #[getter]
    fn encoding(&self) -> &'static str {
        self.inner.encoding().name()
    }

    /// Bits a board takes: 8 for `"byte"`; for `"packed"` ⌈log2(2N + 1)⌉ (5 for N = 8..15,
    /// 6 for N = 16..31, 7 above).
    #[getter]
    fn bits_per_entry(&self) -> u32 {
        self.inner.bits_per_entry()
    }

    /// Memory its values take, bytes: `boards` for `"byte"`; for `"packed"` the bit stream,
    /// ⌈boards · bits_per_entry / 8⌉ bytes, plus 8 bytes of padding.
    #[getter]
    fn memory_bytes(&self) -> usize {
        self.inner.bytes()
    }

    /// The same database in the encoding `encoding` (`"byte"` or `"packed"`): a new
    /// `AwariDb` with every value the same (a copy when it is already in that encoding),
    /// which `save` writes in that encoding. Both are in memory at once while converting;
    /// the GIL is released meanwhile. Raises `ValueError` for another encoding name,
    /// `DatabaseError` when the new values do not fit in memory.
    fn convert(&self, py: Python<'_>, encoding: &str) -> PyResult<AwariDb> {
        let encoding = crate::solver::encoding(encoding, "encoding")?;
        let db = Arc::clone(&self.inner);
        let converted = py
            .detach(move || db.convert(encoding))
            .map_err(|e| from_error(py, Kind::Database, e))?;
        Ok(AwariDb {
            inner: Arc::new(converted),
        })
    }

    /// The exact value of the current position of `game` (an `Oware` game of the rule set
    /// `awari`) for the player to move, in seeds: the mover's future captures minus the
    /// opponent's, the final allotment included (the final margin is the captured difference
    /// plus it). `None` when the game is over or has more seeds in the houses than N. The
    /// game's history is not looked at. Raises `DatabaseError` for another rule set.
    fn value(&self, py: Python<'_>, game: PyRef<'_, Oware>) -> PyResult<Option<i32>> {
        let p = record_of::<OwarePosition>(&game)?.position();
        match board_of(py, &self.inner, p)? {
            None => Ok(None),
            Some(b) => self
                .inner
                .value(&b)
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
        match board_of(py, &self.inner, p)? {
            None => Ok(None),
            Some(b) => self
                .inner
                .move_values(&b)
                .map(|v| Some(v.into_iter().map(|(m, v)| (m.house, v)).collect()))
                .map_err(|e| from_error(py, Kind::Database, e)),
        }
    }

    fn __repr__(&self) -> String {
        format!("AwariDb(max_seeds={})", self.inner.max_seeds())
    }
}
