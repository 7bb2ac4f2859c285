//! `Bao`: a Bao la Kete game with its history, a `Game` (`game.rs`) holding a
//! `GameRecord<BaoPosition>`, with Bao's board, reserves, kuus and reserved pit.
//!
//! Moves cross the boundary as their notation (`"F6>"`, `"F3L+"`, `docs/notation.md`,
//! "Bao la Kete"): the rules' moves carry up to four choices (pit, direction, kichwa,
//! stop/safari), which a string states exactly.

use numpy::{PyArray1, PyArray3};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use mancala_core::bao::{BaoMove, BaoPosition, Pit};
use mancala_core::{AnyGame, GameRecord};

use crate::errors::{from_error, Kind};
use crate::game::{game_subclass, record_of, PyGame};
use crate::side::Side;

/// The move a Python value names: a `str` in Bao move notation.
///
/// # Errors
/// `TypeError` for a value that is not a `str`; `NotationError` for a malformed move.
pub fn move_from_py(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<BaoMove> {
    let Ok(s) = obj.cast::<PyString>() else {
        return Err(PyTypeError::new_err(format!(
            "a Bao la Kete move is a str in move notation such as \"F6>\", not {}",
            obj.get_type().name()?
        )));
    };
    s.to_cow()?
        .parse::<BaoMove>()
        .map_err(|e| from_error(py, Kind::Notation, e))
}

/// Every syntactically possible Bao la Kete move in notation, 432 of them (16 pits ×
/// no direction, `>` or `<` × no kichwa, `L` or `R` × no choice, `.` or `+`), in a fixed
/// order (`mancala_core::bao::BaoMove::all_raw`): the action space of the environments.
/// Each legal move of any position is one of them.
#[pyfunction]
pub fn bao_moves() -> Vec<String> {
    BaoMove::all_raw().iter().map(|m| m.to_string()).collect()
}

impl PyGame for BaoPosition {
    type Class = Bao;
    const CLASS_NAME: &'static str = "Bao";
    const ANY: fn(GameRecord<Self>) -> AnyGame = AnyGame::Bao;

    fn move_to_py(py: Python<'_>, mv: BaoMove) -> Py<PyAny> {
        PyString::new(py, &mv.to_string()).into_any().unbind()
    }

    fn move_from_py(
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
        _position: &BaoPosition,
    ) -> PyResult<BaoMove> {
        move_from_py(py, obj)
    }
}

game_subclass!(
    /// A game of Bao la Kete: the rules, the start position, every move played and the
    /// current position. The methods every game has are those of `Game`; moves are strings in
    /// notation (`"F6>"`).
    ///
    /// `Bao(rules="bao-la-kete", position=None)`: `rules` is `"bao-la-kete"` with optional
    /// `+name=value` options (`docs/notation.md`); `position` a position in notation to start
    /// from instead of the start position. Raises `RulesError` or `NotationError` with the
    /// library's message.
    Bao,
    BaoPosition,
    "bao-la-kete"
);

/// The position of a `Bao` object.
fn position<'a>(slf: &'a PyRef<'_, Bao>) -> PyResult<&'a BaoPosition> {
    Ok(record_of::<BaoPosition>(slf)?.position())
}

#[pymethods]
impl Bao {
    /// The board as a NumPy array of `int64`, shape `(2, 2, 8)`: `board[side][row][k]` is
    /// the seeds in `side`'s (0 South, 1 North) front (`row` 0) or back (`row` 1) pit
    /// number `k + 1`, pits numbered 1..8 from their owner's left (`F1..F8`, `B1..B8`;
    /// the kuu is front pit 5). The reserves are in `reserves`. A new array each time.
    #[getter]
    fn board<'py>(slf: PyRef<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<i64>>> {
        let layout = position(&slf)?.layout();
        let rows: Vec<Vec<Vec<i64>>> = (0..2)
            .map(|s| {
                vec![
                    layout.front[s].iter().map(|&v| i64::from(v)).collect(),
                    layout.back[s].iter().map(|&v| i64::from(v)).collect(),
                ]
            })
            .collect();
        PyArray3::from_vec3(py, &rows).map_err(|e| PyTypeError::new_err(e.to_string()))
    }

    /// The reserves (ghala) as a NumPy array of `int64`, shape `(2,)`: South's, North's.
    #[getter]
    fn reserves<'py>(
        slf: PyRef<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let layout = position(&slf)?.layout();
        Ok(PyArray1::from_vec(
            py,
            layout.reserve.iter().map(|&v| i64::from(v)).collect(),
        ))
    }

    /// Whether each side's kuu (front pit 5) still stands: `(south, north)`.
    #[getter]
    fn kuu_stands(slf: PyRef<'_, Self>) -> PyResult<(bool, bool)> {
        let layout = position(&slf)?.layout();
        Ok((layout.kuu[0], layout.kuu[1]))
    }

    /// The pit reserved by hizi zetu (K-8.4): `(owner, front pit number 1..8)`, or `None`.
    #[getter]
    fn reserved(slf: PyRef<'_, Self>) -> PyResult<Option<(Side, u8)>> {
        Ok(position(&slf)?
            .reserved()
            .map(|(side, pit): (mancala_core::Side, Pit)| (Side::from(side), pit.number())))
    }

    /// With a reserved pit: how many more of its owner's turns after the current one are
    /// blocked (always 0 under the default `block_duration=1`).
    #[getter]
    fn block_turns_left(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(position(&slf)?.block_turns_left())
    }
}

/// The game's observation and action encoding for `VectorGames` ([`VecGame`](crate::vector::VecGame)),
/// as `BaoCodec` of `mancala/envs/_codec.py` writes it.
mod encoding {
    use mancala_core::bao::{BaoMove, BaoPosition};
    use mancala_core::{GameRecord, Side};
    use std::mem::MaybeUninit;

    use crate::vector::VecGame;

    impl VecGame for BaoPosition {
        fn all_moves(_start: &Self) -> Vec<BaoMove> {
            BaoMove::all_raw()
        }
        fn observation_size(_start: &Self) -> usize {
            39
        }
        fn high(_start: &Self) -> i64 {
            64
        }
        fn observe(record: &GameRecord<Self>, side: Side, out: &mut [MaybeUninit<i64>]) {
            let p = record.position();
            let l = p.layout();
            let (s, o) = (side.index(), side.opponent().index());
            let rows = [l.front[s], l.back[s], l.front[o], l.back[o]];
            for (k, v) in rows.iter().flatten().enumerate() {
                out[k].write(i64::from(*v));
            }
            let reserved = |owner: Side| match p.reserved() {
                Some((who, pit)) if who == owner => i64::from(pit.number()),
                _ => 0,
            };
            let tail = [
                i64::from(l.reserve[s]),
                i64::from(l.reserve[o]),
                i64::from(l.kuu[s]),
                i64::from(l.kuu[o]),
                reserved(side),
                reserved(side.opponent()),
                i64::from(p.block_turns_left()),
            ];
            for (o, v) in out[32..39].iter_mut().zip(tail) {
                o.write(v);
            }
        }
    }
}
