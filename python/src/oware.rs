//! `Oware`: an Oware (Abapa) or Awari game with its history, a `Game` (`game.rs`) holding a
//! `GameRecord<OwarePosition>` (which applies the repetition rule and the move limit), with
//! Oware's board, stores and final counts.
//!
//! Moves cross the boundary as house numbers `1..=h` (an `int`, counted from the mover's
//! left, `docs/notation.md`); move texts (`"3"`) are accepted too.

use numpy::PyArray1;
use pyo3::prelude::*;

use mancala_core::oware::{OwareMove, OwarePosition};
use mancala_core::{AnyGame, GameRecord};

use crate::game::{game_subclass, house_move_from_py, record_of, PyGame};
use crate::side::SideArg;

impl PyGame for OwarePosition {
    type Class = Oware;
    const CLASS_NAME: &'static str = "Oware";
    const ANY: fn(GameRecord<Self>) -> AnyGame = AnyGame::Oware;

    fn move_to_py(py: Python<'_>, mv: OwareMove) -> Py<PyAny> {
        mv.house()
            .into_pyobject(py)
            .map(|o| o.into_any().unbind())
            .unwrap_or_else(|never| match never {})
    }

    /// An `int` (or any integer with `__index__`) is a house number, a `str` move notation,
    /// as `house_move_from_py` (in `game.rs`) reads them.
    fn move_from_py(
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
        position: &OwarePosition,
    ) -> PyResult<OwareMove> {
        house_move_from_py(
            py,
            obj,
            "an Oware move is a house number (int)",
            position.rules().houses(),
            OwareMove,
        )
    }
}

game_subclass!(
    /// A game of Oware (Abapa, the default rule set `"oware"`), Awari (`"awari"`, the rules of
    /// the solved databases) or OpenSpiel's oware (`"oware-openspiel"`): the rules, the start
    /// position, every move played and the current position. The methods every game has are
    /// those of `Game`; the repetition rule and the move limit end the game as the rule set says.
    ///
    /// `Oware(rules="oware", position=None)`: `rules` is a rule-set text (`"oware"`, `"awari"`,
    /// `"oware(4,3)+grand_slam=all"`, `docs/notation.md`); `position` a position in notation
    /// (`"4,4,4,4,4,4,0,4,4,4,4,4,4,0 S"`) to start from instead of the start position. Raises
    /// `RulesError` or `NotationError` with the library's message.
    Oware,
    OwarePosition,
    "oware"
);

/// The position of an `Oware` object.
fn position<'a>(slf: &'a PyRef<'_, Oware>) -> PyResult<&'a OwarePosition> {
    Ok(record_of::<OwarePosition>(slf)?.position())
}

#[pymethods]
impl Oware {
    /// The board as a NumPy array of `int64`, shape `(2h + 2,)`, in notation order: South's
    /// houses 1..h (from South's left), South's store (captured seeds), North's houses 1..h
    /// (from North's left), North's store. A new array each time.
    #[getter]
    fn board<'py>(slf: PyRef<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let counts: Vec<i64> = position(&slf)?
            .counts()
            .iter()
            .map(|&s| i64::from(s))
            .collect();
        Ok(PyArray1::from_vec(py, counts))
    }

    /// Seeds `side` has captured (`side`: a `Side`, or 0 for South and 1 for North).
    fn store(slf: PyRef<'_, Self>, side: SideArg) -> PyResult<u8> {
        Ok(position(&slf)?.store(side.0.into()))
    }

    /// h, the houses a row.
    #[getter]
    fn houses(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(position(&slf)?.rules().houses())
    }

    /// s, the seeds each house holds at the start.
    #[getter]
    fn seeds(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(position(&slf)?.rules().seeds())
    }

    /// Each player's final count once the game is over, in seeds (a float: an even split
    /// of a cycle's seeds under `cycle_score=split` can give half seeds, 23.5–24.5), as
    /// `(south, north)`; `None` while the game goes on.
    fn final_counts(slf: PyRef<'_, Self>) -> PyResult<Option<(f64, f64)>> {
        let p = position(&slf)?;
        let half = |side| p.final_half_seeds(side).map(|h| f64::from(h) / 2.0);
        Ok(half(mancala_core::Side::South).zip(half(mancala_core::Side::North)))
    }
}

/// The game's observation and action encoding for `VectorGames` ([`VecGame`](crate::vector::VecGame)),
/// as `OwareCodec` of `mancala/envs/_codec.py` writes it.
mod encoding {
    use mancala_core::oware::{OwareMove, OwarePosition};
    use mancala_core::{GameRecord, Side};
    use std::mem::MaybeUninit;

    use crate::vector::{rotated, VecGame};

    impl VecGame for OwarePosition {
        fn all_moves(start: &Self) -> Vec<OwareMove> {
            (1..=start.rules().houses()).map(OwareMove).collect()
        }
        fn observation_size(start: &Self) -> usize {
            2 * usize::from(start.rules().houses()) + 2
        }
        fn high(start: &Self) -> i64 {
            let r = start.rules();
            2 * i64::from(r.houses()) * i64::from(r.seeds())
        }
        /// House h is action h − 1.
        fn action_index(_moves: &[OwareMove], mv: OwareMove) -> Option<usize> {
            usize::from(mv.0).checked_sub(1)
        }
        fn observe(record: &GameRecord<Self>, side: Side, out: &mut [MaybeUninit<i64>]) {
            let counts = record.position().counts();
            rotated(&counts, counts.len() / 2, side, out);
        }
        /// `side`'s captured seeds minus the opponent's (once over, the outcome's score).
        fn margin(record: &GameRecord<Self>, side: Side) -> Option<f64> {
            let p = record.position();
            Some(f64::from(p.store(side)) - f64::from(p.store(side.opponent())))
        }
    }
}
