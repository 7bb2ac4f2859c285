//! `Bao`: a Bao la Kete game with its history, over `mancala_core::bao::BaoPosition`.
//!
//! Moves cross the boundary as their notation (`"F6>"`, `"F3L+"`, `docs/notation.md`,
//! "Bao la Kete"): the rules' moves carry up to four choices (pit, direction, kichwa,
//! stop/safari), which a string states exactly.

use numpy::{PyArray1, PyArray3};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};

use mancala_core::bao::{BaoMove, BaoPosition, BaoRules, Pit};
use mancala_core::Game;

use crate::errors::{error, from_error, Kind};
use crate::side::Side;

/// What `__reduce__` pickles: the rules, the start position (notation) and the moves.
type Record = (String, String, Vec<String>);

/// The Bao la Kete rules named by `text` (`"bao-la-kete"` and its `+name=value` options).
///
/// # Errors
/// `RulesError` with the parser's message (a Kalah rule set is refused with a pointer to
/// `Kalah`).
pub fn parse_rules(py: Python<'_>, text: &str) -> PyResult<BaoRules> {
    if mancala_core::GameKind::of_rules(text) != mancala_core::GameKind::Bao {
        return Err(error(
            py,
            Kind::Rules,
            format!(
                "`{}` is not a Bao la Kete rule set (`bao-la-kete[+name=value…]`): use mancala.Kalah for Kalah",
                mancala_core::Shortened(text.trim())
            ),
        ));
    }
    text.parse::<BaoRules>()
        .map_err(|e| from_error(py, Kind::Rules, e))
}

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

/// A game of Bao la Kete: the rules, the start position, every move played and the
/// current position.
///
/// `Bao(rules="bao-la-kete", position=None)`: `rules` is `"bao-la-kete"` with optional
/// `+name=value` options (`docs/notation.md`); `position` a position in notation to start
/// from instead of the start position. Raises `RulesError` or `NotationError` with the
/// library's message.
#[pyclass(module = "mancala")]
#[derive(Clone)]
pub struct Bao {
    positions: Vec<BaoPosition>,
    moves: Vec<BaoMove>,
}

impl Bao {
    /// The current position.
    #[must_use]
    pub fn position(&self) -> &BaoPosition {
        self.positions
            .last()
            .expect("a game always holds its start position")
    }

    /// A game starting at `position`.
    #[must_use]
    pub fn from_position(position: BaoPosition) -> Bao {
        Bao {
            positions: vec![position],
            moves: Vec::new(),
        }
    }
}

#[pymethods]
impl Bao {
    #[new]
    #[pyo3(signature = (rules = "bao-la-kete", position = None))]
    fn new(py: Python<'_>, rules: &str, position: Option<&str>) -> PyResult<Bao> {
        let rules = parse_rules(py, rules)?;
        let start = match position {
            None => BaoPosition::start(rules),
            Some(text) => {
                BaoPosition::parse(rules, text).map_err(|e| from_error(py, Kind::Notation, e))?
            }
        };
        Ok(Bao::from_position(start))
    }

    /// Every legal move of the current position in notation, in the library's order (pits
    /// `F1..F8, B1..B8`; clockwise `>` before anticlockwise `<`; `L` before `R`; stop `.`
    /// before safari `+`); empty once the game is over.
    fn legal_moves(&self) -> Vec<String> {
        self.position()
            .legal_moves()
            .iter()
            .map(|mv| mv.to_string())
            .collect()
    }

    /// Plays `move` (a move in notation, `"F6>"`). Raises `IllegalMoveError` naming the rule
    /// broken (the game is unchanged), `NotationError` for a malformed move, `TypeError` for
    /// a value that is not a `str`.
    #[pyo3(signature = (move_))]
    fn play(&mut self, py: Python<'_>, move_: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_from_py(py, move_)?;
        let next = self
            .position()
            .play(mv)
            .map_err(|e| from_error(py, Kind::IllegalMove, e))?;
        self.positions.push(next);
        self.moves.push(mv);
        Ok(())
    }

    /// Takes back the last move and returns it. Raises `IndexError` when no move was played.
    fn undo(&mut self) -> PyResult<String> {
        match self.moves.pop() {
            Some(mv) => {
                self.positions.pop();
                Ok(mv.to_string())
            }
            None => Err(PyIndexError::new_err("no move to undo")),
        }
    }

    /// An independent copy of the game (history included).
    fn copy(&self) -> Bao {
        self.clone()
    }

    fn __copy__(&self) -> Bao {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyDict>) -> Bao {
        self.clone()
    }

    /// Whether the game is over: the side to move has an empty front row or no legal move
    /// (K-10.1, K-10.2).
    fn is_over(&self) -> bool {
        self.position().is_over()
    }

    /// The side that won once the game is over (Bao la Kete has no draw); `None` while the
    /// game goes on.
    fn winner(&self) -> Option<Side> {
        self.position()
            .outcome()
            .and_then(|o| o.winner)
            .map(Side::from)
    }

    /// +1 once South has won, −1 once North has won, 0 while the game goes on (Bao la Kete
    /// is won or lost, not scored in seeds).
    fn score(&self) -> i32 {
        self.position().outcome().map_or(0, |o| o.score)
    }

    /// The side to move, `None` once the game is over.
    #[getter]
    fn side_to_move(&self) -> Option<Side> {
        Game::side_to_move(self.position()).map(Side::from)
    }

    /// The board as a NumPy array of `int64`, shape `(2, 2, 8)`: `board[side][row][k]` is
    /// the seeds in `side`'s (0 South, 1 North) front (`row` 0) or back (`row` 1) pit
    /// number `k + 1`, pits numbered 1..8 from their owner's left (`F1..F8`, `B1..B8`;
    /// the kuu is front pit 5). The reserves are in `reserves`. A new array each time.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<i64>>> {
        let layout = self.position().layout();
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
    fn reserves<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let layout = self.position().layout();
        PyArray1::from_vec(py, layout.reserve.iter().map(|&v| i64::from(v)).collect())
    }

    /// Whether each side's kuu (front pit 5) still stands: `(south, north)`.
    #[getter]
    fn kuu_stands(&self) -> (bool, bool) {
        let layout = self.position().layout();
        (layout.kuu[0], layout.kuu[1])
    }

    /// The pit reserved by hizi zetu (K-8.4): `(owner, front pit number 1..8)`, or `None`.
    #[getter]
    fn reserved(&self) -> Option<(Side, u8)> {
        self.position()
            .reserved()
            .map(|(side, pit): (mancala_core::Side, Pit)| (Side::from(side), pit.number()))
    }

    /// With a reserved pit: how many more of its owner's turns after the current one are
    /// blocked (always 0 under the default `block_duration=1`).
    #[getter]
    fn block_turns_left(&self) -> u8 {
        self.position().block_turns_left()
    }

    /// The rule set, in notation (`"bao-la-kete"`).
    #[getter]
    fn rules(&self) -> String {
        self.position().rules().to_string()
    }

    /// The moves played so far, in notation.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.moves.iter().map(|m| m.to_string()).collect()
    }

    /// The position in notation (`docs/notation.md`); `Bao(rules, position=...)` reads it
    /// back.
    fn notation(&self) -> String {
        self.position().to_string()
    }

    /// The start position of this game, in notation.
    fn start_notation(&self) -> String {
        self.positions[0].to_string()
    }

    /// The board drawn as `mancala show` draws it: North on top, South at the bottom, the
    /// reserves, and the side to move (or the result) on the last line.
    fn __str__(&self) -> String {
        self.position().drawing().to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Bao({:?}, position={:?})",
            self.rules(),
            self.position().to_string()
        )
    }

    /// Games compare by value and change: they are not hashable.
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    /// Games are equal when their rules, start positions and moves are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Bao>().is_ok_and(|o| {
            let o = o.borrow();
            o.positions[0] == self.positions[0] && o.moves == self.moves
        })
    }

    /// Pickling: the rules, the start position and the moves.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, Record)> {
        let from_record = py.get_type::<Bao>().getattr("_from_record")?.unbind();
        Ok((
            from_record,
            (self.rules(), self.start_notation(), self.moves()),
        ))
    }

    /// The game `rules` from `start` (notation) after `moves`: what `__reduce__` pickles.
    #[staticmethod]
    fn _from_record(
        py: Python<'_>,
        rules: &str,
        start: &str,
        moves: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<Bao> {
        let mut game = Bao::new(py, rules, Some(start))?;
        for mv in &moves {
            game.play(py, mv)?;
        }
        Ok(game)
    }
}
