//! `Togyz`: a Togyz Kumalak (or Bestemshe) game with its history, a `Game` (`game.rs`)
//! holding a `GameRecord<TogyzPosition>` (which applies the move limit), with its board,
//! kazans and tuzdyks.
//!
//! Moves cross the boundary as house numbers `1..=h` (an `int`, counted from the mover's
//! left, `docs/notation.md`); move texts (`"9"`) are accepted too.

use numpy::PyArray1;
use pyo3::prelude::*;

use mancala_core::togyz::{TogyzMove, TogyzPosition};
use mancala_core::{AnyGame, GameRecord, Side};

use crate::game::{game_subclass, house_move_from_py, record_of, PyGame};
use crate::side::SideArg;

impl PyGame for TogyzPosition {
    type Class = Togyz;
    const CLASS_NAME: &'static str = "Togyz";
    const ANY: fn(GameRecord<Self>) -> AnyGame = AnyGame::Togyz;

    fn move_to_py(py: Python<'_>, mv: TogyzMove) -> Py<PyAny> {
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
        position: &TogyzPosition,
    ) -> PyResult<TogyzMove> {
        house_move_from_py(
            py,
            obj,
            "a Togyz Kumalak move is a house number (int)",
            position.rules().houses(),
            TogyzMove,
        )
    }
}

game_subclass!(
    /// A game of Togyz Kumalak (the federation's rules, the default rule set
    /// `"togyz-kumalak"`), Ludii's reading (`"togyz-ludii"`) or Bestemshe (`"bestemshe"`, 5 × 5
    /// without tuzdyks): the rules, the start position, every move played and the current
    /// position. The methods every game has are those of `Game`; the move limit ends the game
    /// when the rule set has one.
    ///
    /// `Togyz(rules="togyz-kumalak", position=None)`: `rules` is a rule-set text
    /// (`docs/notation.md`); `position` a position in notation
    /// (`"9,9,9,9,9,9,9,9,9,0,9,9,9,9,9,9,9,9,9,0 -,- S"`) to start from instead of the start
    /// position. Raises `RulesError` or `NotationError` with the library's message.
    Togyz,
    TogyzPosition,
    "togyz-kumalak"
);

/// The position of a `Togyz` object.
fn position<'a>(slf: &'a PyRef<'_, Togyz>) -> PyResult<&'a TogyzPosition> {
    Ok(record_of::<TogyzPosition>(slf)?.position())
}

#[pymethods]
impl Togyz {
    /// The board as a NumPy array of `int64`, shape `(2h + 2,)`, in notation order: South's
    /// houses 1..h (from South's left), South's kazan, North's houses 1..h (from North's
    /// left), North's kazan. A tuzdyk holds 0. A new array each time.
    #[getter]
    fn board<'py>(slf: PyRef<'py, Self>, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i64>>> {
        let p = position(&slf)?;
        let h = p.rules().houses();
        let mut counts = Vec::with_capacity(2 * usize::from(h) + 2);
        for side in Side::ALL {
            counts.extend((1..=h).map(|i| i64::from(p.house(side, i))));
            counts.push(i64::from(p.kazan(side)));
        }
        Ok(PyArray1::from_vec(py, counts))
    }

    /// Kumalaks in `side`'s kazan, his store (`side`: a `Side`, or 0 for South and 1 for
    /// North).
    fn store(slf: PyRef<'_, Self>, side: SideArg) -> PyResult<u8> {
        Ok(position(&slf)?.kazan(side.0.into()))
    }

    /// The tuzdyk `side` owns: the number of a house in the opponent's row, or `None`.
    fn tuzdyk(slf: PyRef<'_, Self>, side: SideArg) -> PyResult<Option<u8>> {
        Ok(position(&slf)?.tuzdyk(side.0.into()))
    }

    /// h, the houses a row.
    #[getter]
    fn houses(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(position(&slf)?.rules().houses())
    }

    /// s, the kumalaks (seeds) each house holds at the start.
    #[getter]
    fn seeds(slf: PyRef<'_, Self>) -> PyResult<u8> {
        Ok(position(&slf)?.rules().kumalaks())
    }
}

/// The game's observation and action encoding for `VectorGames` ([`VecGame`](crate::vector::VecGame)),
/// as `TogyzCodec` of `mancala/envs/_codec.py` writes it.
mod encoding {
    use mancala_core::togyz::{TogyzMove, TogyzPosition};
    use mancala_core::{GameRecord, Side};
    use std::mem::MaybeUninit;

    use crate::vector::{rotated, VecGame};

    /// The most houses a side of any Togyz Kumalak rule set.
    const TOGYZ_MAX_HOUSES: usize = mancala_core::togyz::MAX_HOUSES as usize;

    impl VecGame for TogyzPosition {
        fn all_moves(start: &Self) -> Vec<TogyzMove> {
            (1..=start.rules().houses()).map(TogyzMove).collect()
        }
        fn observation_size(start: &Self) -> usize {
            2 * usize::from(start.rules().houses()) + 4
        }
        fn high(start: &Self) -> i64 {
            i64::from(start.rules().total_kumalaks())
        }
        /// House h is action h − 1.
        fn action_index(_moves: &[TogyzMove], mv: TogyzMove) -> Option<usize> {
            usize::from(mv.0).checked_sub(1)
        }
        /// The houses and kazans seen from `side`, then `side`'s tuzdyk and the opponent's (0
        /// for none), as `TogyzCodec` writes them.
        fn observe(record: &GameRecord<Self>, side: Side, out: &mut [MaybeUninit<i64>]) {
            let p = record.position();
            let h = p.rules().houses();
            // At most 9 houses a side and a kazan each: on the stack, not allocated a step.
            let mut board = [0u8; 2 * (TOGYZ_MAX_HOUSES + 1)];
            let half = usize::from(h) + 1;
            for (s, row) in Side::ALL.into_iter().zip(board.chunks_exact_mut(half)) {
                for (i, slot) in (1..=h).zip(row.iter_mut()) {
                    *slot = p.house(s, i);
                }
                row[half - 1] = p.kazan(s);
            }
            let slots = &board[..2 * half];
            rotated(slots, half, side, out);
            out[slots.len()].write(i64::from(p.tuzdyk(side).unwrap_or(0)));
            out[slots.len() + 1].write(i64::from(p.tuzdyk(side.opponent()).unwrap_or(0)));
        }
        /// `side`'s kazan minus the opponent's (once over, the outcome's score).
        fn margin(record: &GameRecord<Self>, side: Side) -> Option<f64> {
            let p = record.position();
            Some(f64::from(p.kazan(side)) - f64::from(p.kazan(side.opponent())))
        }
    }
}
