//! `Kalah`: a Kalah(m, n) game with its history, over `mancala_core::kalah::KalahGame`.
//!
//! Moves cross the boundary as Python values: a house number `1..=m` (an `int`, counted
//! from the mover's left, `docs/notation.md`) or the string `"swap"` (the pie-rule swap).
//! Move texts (`"3"`, `"swap"`) are accepted too.

use numpy::PyArray1;
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};

use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_core::GameRecord;

type KalahGame = GameRecord<KalahPosition>;

use crate::errors::{error, from_error, Kind};
use crate::side::{Side, SideArg};

/// What `__reduce__` pickles: the rules, the start position (notation) and the moves.
type Record = (String, String, Vec<Py<PyAny>>);

/// The rules named by `text`, refusing a Bao la Kete rule set with a pointer to `Bao`.
///
/// # Errors
/// `RulesError` with the parser's message.
pub fn parse_rules(py: Python<'_>, text: &str) -> PyResult<KalahRules> {
    if mancala_core::GameKind::of_rules(text) == mancala_core::GameKind::Bao {
        return Err(error(
            py,
            Kind::Rules,
            format!(
                "`{}` names a Bao la Kete rule set: use mancala.Bao",
                text.trim()
            ),
        ));
    }
    text.parse::<KalahRules>()
        .map_err(|e| from_error(py, Kind::Rules, e))
}

/// The Python value of a move: the house number as an `int`, or `"swap"`.
pub fn move_to_py(py: Python<'_>, mv: KalahMove) -> Py<PyAny> {
    match mv {
        KalahMove::House(h) => h.into_pyobject(py).map(|o| o.into_any().unbind()),
        KalahMove::Swap => Ok(PyString::new(py, "swap").into_any().unbind()),
    }
    .unwrap_or_else(|never| match never {})
}

/// The move a Python value names: an `int` (or any integer with `__index__`, such as a
/// NumPy integer) is a house number, a `str` is move notation (`"3"`, `"swap"`).
///
/// # Errors
/// `TypeError` for any other type (a `bool` included); `NotationError` for a malformed move
/// text; `IllegalMoveError` for a house number outside `0..=255` (of any size), which no board has (the
/// same message as the library's for a house past m).
pub fn move_from_py(py: Python<'_>, obj: &Bound<'_, PyAny>, houses: u8) -> PyResult<KalahMove> {
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(
            "a Kalah move is a house number (int) or \"swap\", not a bool",
        ));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_cow()?;
        return text
            .parse::<KalahMove>()
            .map_err(|e| from_error(py, Kind::Notation, e));
    }
    // Any integer type (`numpy.uint64` included, as `operator.index` reads it); one that is
    // no house (negative, or beyond a byte) is an illegal move, whatever its size.
    match obj.extract::<crate::int::Int>() {
        Ok(i) => match i.get::<u8>("house", 0, 255, "") {
            Ok(h) => Ok(KalahMove::House(h)),
            Err(_) => {
                let h = i.text();
                Err(error(
                    py,
                    Kind::IllegalMove,
                    format!(
                        "illegal move {h}: house {h} does not exist: houses are numbered 1..={houses}"
                    ),
                ))
            }
        },
        Err(_) => Err(PyTypeError::new_err(format!(
            "a Kalah move is a house number (int) or \"swap\", not {}",
            obj.get_type().name()?
        ))),
    }
}

/// A game of Kalah(m, n): the rules, the start position, every move played and the current
/// position.
///
/// `Kalah(rules="standard", position=None)`: `rules` is a rule-set text (`"standard"`,
/// `"manchester"`, `"kalah(6,3)+empty_capture"`, `docs/notation.md`); `position` a
/// position in notation (`"4,4,4,4,4,4,0,4,4,4,4,4,4,0 S"`) to start from instead of the
/// start position. Raises `RulesError` or `NotationError` with the library's message.
#[pyclass(module = "mancala")]
#[derive(Clone)]
pub struct Kalah {
    game: KalahGame,
}

impl Kalah {
    /// The current position.
    #[must_use]
    pub fn position(&self) -> &KalahPosition {
        self.game.position()
    }

    /// A game starting at `position`.
    #[must_use]
    pub fn from_position(position: KalahPosition) -> Kalah {
        Kalah {
            game: KalahGame::from_position(position),
        }
    }

    fn m(&self) -> u8 {
        self.position().rules().houses()
    }
}

#[pymethods]
impl Kalah {
    #[new]
    #[pyo3(signature = (rules = "standard", position = None))]
    fn new(py: Python<'_>, rules: &str, position: Option<&str>) -> PyResult<Kalah> {
        let rules = parse_rules(py, rules)?;
        let start = match position {
            None => KalahPosition::start(rules),
            Some(text) => {
                KalahPosition::parse(rules, text).map_err(|e| from_error(py, Kind::Notation, e))?
            }
        };
        Ok(Kalah::from_position(start))
    }

    /// Every legal move of the current position, in the library's order (houses 1..=m, then
    /// `"swap"` when the pie rule offers it); empty once the game is over.
    fn legal_moves(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.position()
            .legal_moves()
            .iter()
            .map(|&mv| move_to_py(py, mv))
            .collect()
    }

    /// Plays `move` (a house number or `"swap"`). Raises `IllegalMoveError` (the game is
    /// unchanged), `NotationError` for a malformed move text, `TypeError` for a value that is
    /// no move.
    #[pyo3(signature = (move_))]
    fn play(&mut self, py: Python<'_>, move_: &Bound<'_, PyAny>) -> PyResult<()> {
        let mv = move_from_py(py, move_, self.m())?;
        self.game
            .play(mv)
            .map_err(|e| from_error(py, Kind::IllegalMove, e))?;
        Ok(())
    }

    /// Takes back the last move and returns it. Raises `IndexError` when no move was played.
    fn undo(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let last = self.game.moves().last().copied();
        match last {
            Some(mv) if self.game.undo().is_some() => Ok(move_to_py(py, mv)),
            _ => Err(PyIndexError::new_err("no move to undo")),
        }
    }

    /// An independent copy of the game (history included).
    fn copy(&self) -> Kalah {
        self.clone()
    }

    fn __copy__(&self) -> Kalah {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyDict>) -> Kalah {
        self.clone()
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.position().is_over()
    }

    /// The side that won, once the game is over; `None` for a draw and while the game goes
    /// on (see `is_over`).
    fn winner(&self) -> Option<Side> {
        self.position()
            .outcome()
            .and_then(|o| o.winner)
            .map(Side::from)
    }

    /// South's store minus North's, in seeds: the final score once the game is over (the
    /// remaining seeds swept, or discarded under `discard_remaining`).
    fn score(&self) -> i32 {
        self.position().store_difference()
    }

    /// The side to move, `None` once the game is over.
    #[getter]
    fn side_to_move(&self) -> Option<Side> {
        self.position().side_to_move().map(Side::from)
    }

    /// The board as a NumPy array of `int64`, shape `(2m + 2,)`, in notation order: South's
    /// houses 1..m (from South's left), South's store, North's houses 1..m (from North's
    /// left), North's store. A new array each time (changing it changes nothing).
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        let slots: Vec<i64> = self
            .position()
            .slots()
            .iter()
            .map(|&s| i64::from(s))
            .collect();
        PyArray1::from_vec(py, slots)
    }

    /// Seeds in `side`'s store (`side`: a `Side`, or 0 for South and 1 for North).
    fn store(&self, side: SideArg) -> u8 {
        self.position().store(side.0.into())
    }

    /// m, the houses a row.
    #[getter]
    fn houses(&self) -> u8 {
        self.m()
    }

    /// The rule set, in notation (`"kalah(6,4)"`).
    #[getter]
    fn rules(&self) -> String {
        self.position().rules().to_string()
    }

    /// n, the seeds each house holds at the start.
    #[getter]
    fn seeds(&self) -> u8 {
        self.position().rules().seeds()
    }

    /// The names of the rule options in force (`["empty_capture"]` for
    /// `"kalah(6,4)+empty_capture"`), in the
    /// library's order.
    #[getter]
    fn options(&self) -> Vec<&'static str> {
        self.position()
            .rules()
            .options()
            .iter()
            .map(|o| o.name())
            .collect()
    }

    /// The moves played so far (house numbers and `"swap"`).
    #[getter]
    fn moves(&self, py: Python<'_>) -> Vec<Py<PyAny>> {
        self.game
            .moves()
            .iter()
            .map(|&mv| move_to_py(py, mv))
            .collect()
    }

    /// Whether the pie rule offers the swap to the player to move now.
    #[getter]
    fn swap_offered(&self) -> bool {
        self.position().swap_offered()
    }

    /// Whether the players have exchanged sides (a swap was played): the first player then
    /// plays North.
    #[getter]
    fn swapped(&self) -> bool {
        self.game.swapped()
    }

    /// The position in notation (`"4,4,4,4,4,4,0,4,4,4,4,4,4,0 S"`, `docs/notation.md`);
    /// `Kalah(rules, position=...)` reads it back.
    fn notation(&self) -> String {
        self.position().to_string()
    }

    /// The start position of this game, in notation.
    fn start_notation(&self) -> String {
        self.game.positions()[0].to_string()
    }

    /// The board drawn as `mancala show` draws it: North on top, South at the bottom, the
    /// side to move (or the result) on the last line.
    fn __str__(&self) -> String {
        self.position().drawing().to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "Kalah({:?}, position={:?})",
            self.position().rules().to_string(),
            self.position().to_string()
        )
    }

    /// Games compare by value and change: they are not hashable.
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    /// Games are equal when their rules, start positions and moves are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Kalah>()
            .is_ok_and(|o| o.borrow().game == self.game)
    }

    /// Pickling: the rules, the start position and the moves.
    fn __reduce__(&self, py: Python<'_>) -> PyResult<(Py<PyAny>, Record)> {
        let from_record = py.get_type::<Kalah>().getattr("_from_record")?.unbind();
        Ok((
            from_record,
            (self.rules(), self.start_notation(), self.moves(py)),
        ))
    }

    /// The game `rules` from `start` (notation) after `moves`: what `__reduce__` pickles.
    #[staticmethod]
    fn _from_record(
        py: Python<'_>,
        rules: &str,
        start: &str,
        moves: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<Kalah> {
        let mut game = Kalah::new(py, rules, Some(start))?;
        for mv in &moves {
            game.play(py, mv)?;
        }
        Ok(game)
    }
}
