//! `Game`: the base class of every game's class (`Kalah`, `Bao`, `Oware`), over the core's
//! `AnyGame`. What every game has — legal moves, play, undo, copies, pickling, the result,
//! the notation, the drawing — is written here once; each game's class adds its board and
//! what only it has. The game-specific part of the Python face is [`PyGame`]: how its moves
//! cross the boundary and which class holds it.

use std::fmt;
use std::str::FromStr;

use pyo3::exceptions::{PyIndexError, PyMemoryError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString, PyType};
use pyo3::PyClass;

use mancala_core::{with_game, AnyGame, Game as CoreGame, GameKind, GameRecord, Rules};

use crate::errors::{error, from_error, Kind};
use crate::side::Side;

/// How a game of the library is seen from Python: the class that holds it and how its
/// moves cross the boundary.
pub trait PyGame: CoreGame {
    /// The game's Python class (`Kalah`, `Bao`, `Oware`): a subclass of `Game` with no data
    /// of its own.
    type Class: PyClass<BaseType = Game> + Default;

    /// The name of [`PyGame::Class`] in the module `mancala` (`"Kalah"`, `"Bao"`, …).
    const CLASS_NAME: &'static str;

    /// The variant of `AnyGame` that holds the game's record (`AnyGame::Kalah`, …).
    const ANY: fn(GameRecord<Self>) -> AnyGame;

    /// The Python value of a move (Kalah: an `int` or `"swap"`; Bao la Kete: a `str`).
    fn move_to_py(py: Python<'_>, mv: Self::Move) -> Py<PyAny>;

    /// The move a Python value names in `position`.
    ///
    /// # Errors
    /// `TypeError` for a value of the wrong type, `NotationError` for malformed text,
    /// `IllegalMoveError` for a number no house has.
    fn move_from_py(
        py: Python<'_>,
        obj: &Bound<'_, PyAny>,
        position: &Self,
    ) -> PyResult<Self::Move>;
}

/// What `__reduce__` pickles: the rules, the start position (notation) and the moves.
type Record = (String, String, Vec<Py<PyAny>>);

/// A game of any kind with its history: the base class of `mancala.Kalah` and
/// `mancala.Bao` (make games with those classes or with `mancala.new_game`).
#[pyclass(module = "mancala", subclass)]
#[derive(Clone)]
pub struct Game {
    pub(crate) game: AnyGame,
}

impl Game {
    /// The typed record of game `G` (the classes only ever hold their own game).
    ///
    /// # Errors
    /// `RuntimeError` if the object holds another game.
    pub(crate) fn record<G: CoreGame>(&self) -> PyResult<&GameRecord<G>> {
        let found = self.game.kind();
        with_game!(&self.game, g => (g as &dyn std::any::Any).downcast_ref::<GameRecord<G>>())
            .ok_or_else(|| {
                PyRuntimeError::new_err(format!(
                    "the object holds {} game, not {} game",
                    found.with_article(),
                    G::KIND.with_article()
                ))
            })
    }
}

/// A new object of the class of `game`'s kind.
///
/// # Errors
/// Only Python's.
pub fn wrap(py: Python<'_>, game: AnyGame) -> PyResult<Py<PyAny>> {
    with_game!(game, g => wrap_record(py, g))
}

/// A new object of game `G`'s class holding `game`.
fn wrap_record<G: PyGame>(py: Python<'_>, game: GameRecord<G>) -> PyResult<Py<PyAny>> {
    let init =
        PyClassInitializer::from(Game { game: G::ANY(game) }).add_subclass(G::Class::default());
    Ok(Py::new(py, init)?.into_any())
}

/// The `#[new]` of game `G`'s class: the game of `rules` (which must name game `G`) at its
/// start or at `position`, as [`new_game`].
///
/// # Errors
/// As [`new_game`].
pub(crate) fn new_object<G: PyGame>(
    py: Python<'_>,
    rules: &str,
    position: Option<&str>,
) -> PyResult<(G::Class, Game)> {
    let game = new_game(py, G::KIND, rules, position)?;
    Ok((G::Class::default(), Game { game }))
}

/// Declares the Python class of a game (`Kalah`, `Bao`, `Oware`): the struct `$class`, a
/// subclass of `Game` with no data of its own and the doc comments given before its name,
/// and its constructor `$class(rules=$default_rules, position=None)` (a game of `$position`
/// by [`new_object`]: at the start position of `rules`, or at `position` in notation; raises
/// `RulesError` or `NotationError`). The class's own methods are in a `#[pymethods]` block of
/// its file (PyO3's `multiple-pymethods`).
macro_rules! game_subclass {
    ($(#[$attr:meta])* $class:ident, $position:ty, $default_rules:tt) => {
        $(#[$attr])*
        #[::pyo3::pyclass(module = "mancala", extends = $crate::game::Game)]
        #[derive(Default)]
        pub struct $class;

        #[::pyo3::pymethods]
        impl $class {
            #[new]
            #[pyo3(signature = (rules = $default_rules, position = None))]
            fn new(
                py: ::pyo3::Python<'_>,
                rules: &str,
                position: Option<&str>,
            ) -> ::pyo3::PyResult<($class, $crate::game::Game)> {
                $crate::game::new_object::<$position>(py, rules, position)
            }
        }
    };
}
pub(crate) use game_subclass;

/// The record of game `G` that an object of `G`'s class holds.
///
/// # Errors
/// `RuntimeError` if the object holds another game (never for objects made by the class).
pub(crate) fn record_of<'a, G: PyGame>(
    slf: &'a PyRef<'_, G::Class>,
) -> PyResult<&'a GameRecord<G>> {
    let base: &Game = slf.as_ref();
    base.record()
}

/// The move a Python value names in a game whose moves are house numbers (Kalah, Oware): an
/// `int` (or any integer with `__index__`, such as a NumPy integer) is a house number, made a
/// move by `house`; a `str` is move notation (`"3"`). `what` says what a move of the game is,
/// for the `TypeError` (`"an Oware move is a house number (int)"`).
///
/// # Errors
/// `TypeError` for any other type (a `bool` included); `NotationError` for a malformed move
/// text; `IllegalMoveError` for a house number outside `0..=255` (of any size), which no
/// board has (the same message as the library's for a house past the last one, `houses`;
/// one too long to write out by its size, `illegal move: no house has a number of at least
/// 302 digits: houses are numbered 1..=6`).
pub(crate) fn house_move_from_py<M>(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    what: &str,
    houses: u8,
    house: impl FnOnce(u8) -> M,
) -> PyResult<M>
where
    M: FromStr,
    M::Err: fmt::Display,
{
    if obj.is_instance_of::<PyBool>() {
        return Err(PyTypeError::new_err(format!("{what}, not a bool")));
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .to_cow()?
            .parse::<M>()
            .map_err(|e| from_error(py, Kind::Notation, e));
    }
    // Any integer type (`numpy.uint64` included, as `operator.index` reads it); one that is
    // no house (negative, or beyond a byte) is an illegal move, whatever its size.
    match obj.extract::<crate::int::Int>() {
        Ok(i) => match i.get::<u8>("house", 0, 255, "") {
            Ok(h) => Ok(house(h)),
            Err(_) => {
                // A number too long to write out is named by its size, in a sentence of
                // its own ("illegal move an integer of at least 302 digits: house an
                // integer of …" did not read).
                let why = match i.size() {
                    Some(size) => format!("illegal move: no house has {}", size.words("number")),
                    None => {
                        let h = i.text();
                        format!("illegal move {h}: house {h} does not exist")
                    }
                };
                Err(error(
                    py,
                    Kind::IllegalMove,
                    format!("{why}: houses are numbered 1..={houses}"),
                ))
            }
        },
        Err(_) => Err(PyTypeError::new_err(format!(
            "{what}, not {}",
            obj.get_type().name()?
        ))),
    }
}

/// The Python class of a game's kind ([`PyGame::CLASS_NAME`] of its position type).
#[must_use]
pub fn class_name(kind: GameKind) -> &'static str {
    fn class_of<G: PyGame>(_: &GameRecord<G>) -> &'static str {
        G::CLASS_NAME
    }
    let game = AnyGame::new(Rules::default_of(kind));
    with_game!(&game, g => class_of(g))
}

/// The game of `rules` (a rule-set text that must name game `kind`, else `RulesError`
/// naming the class of the game it names), at its start or at `position`.
///
/// # Errors
/// `RulesError`, `NotationError` with the library's message.
pub fn new_game(
    py: Python<'_>,
    kind: GameKind,
    rules: &str,
    position: Option<&str>,
) -> PyResult<AnyGame> {
    // A text no game accepts is said as such (with the library's suggestion of a near
    // name), not as a rule set of another game.
    let parsed: Rules = rules.parse().map_err(|e| from_error(py, Kind::Rules, e))?;
    let found = GameKind::of_rules(rules);
    if found != kind {
        return Err(error(
            py,
            Kind::Rules,
            format!(
                "`{}` names {} rule set, not {} one: use mancala.{}",
                mancala_core::Shortened(rules.trim()),
                found.with_article(),
                kind.with_article(),
                class_name(found)
            ),
        ));
    }
    match position {
        None => Ok(AnyGame::new(parsed)),
        Some(text) => AnyGame::parse(parsed, text).map_err(|e| from_error(py, Kind::Notation, e)),
    }
}

/// `moves` as Python values, in a list whose memory is asked for fallibly.
///
/// # Errors
/// `MemoryError` naming `what` when the list's memory cannot be had.
fn moves_to_py<G: PyGame>(
    py: Python<'_>,
    moves: &[G::Move],
    what: &str,
) -> PyResult<Vec<Py<PyAny>>> {
    let mut out = Vec::new();
    out.try_reserve_exact(moves.len()).map_err(|_| {
        PyMemoryError::new_err(format!(
            "no memory left for a list of the {} {what}",
            moves.len()
        ))
    })?;
    out.extend(moves.iter().map(|&mv| G::move_to_py(py, mv)));
    Ok(out)
}

fn legal_moves_of<G: PyGame>(py: Python<'_>, g: &GameRecord<G>) -> PyResult<Vec<Py<PyAny>>> {
    moves_to_py::<G>(py, &g.position().legal_moves(), "legal moves")
}

fn moves_of<G: PyGame>(py: Python<'_>, g: &GameRecord<G>) -> PyResult<Vec<Py<PyAny>>> {
    moves_to_py::<G>(py, g.moves(), "moves played")
}

/// A copy of `g` (history included) in a new object of its class.
///
/// # Errors
/// `MemoryError` when the copy's memory (one position a ply, one move a move) cannot be had.
fn copy_of<G: PyGame>(py: Python<'_>, g: &GameRecord<G>) -> PyResult<Py<PyAny>> {
    let copy = g.try_clone().map_err(|_| {
        PyMemoryError::new_err(format!(
            "no memory left for a copy of the game ({} moves played)",
            g.moves().len()
        ))
    })?;
    wrap_record(py, copy)
}

fn undo<G: PyGame>(py: Python<'_>, g: &mut GameRecord<G>) -> Option<Py<PyAny>> {
    g.undo().map(|mv| G::move_to_py(py, mv))
}

fn play<G: PyGame>(py: Python<'_>, g: &mut GameRecord<G>, obj: &Bound<'_, PyAny>) -> PyResult<()> {
    let mv = G::move_from_py(py, obj, g.position())?;
    g.play(mv)
        .map_err(|e| from_error(py, Kind::IllegalMove, e))?;
    Ok(())
}

#[pymethods]
impl Game {
    /// Every legal move of the current position, in the library's order (Kalah: houses
    /// 1..=m, then `"swap"` when the pie rule offers it; Bao la Kete: notation strings);
    /// empty once the game is over. Raises `MemoryError` when the list cannot be had.
    fn legal_moves(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        with_game!(&self.game, g => legal_moves_of(py, g))
    }

    /// Plays `move` (Kalah: a house number or `"swap"`; Bao la Kete: a move in notation,
    /// `"F6>"`). Raises `IllegalMoveError` (the game is unchanged), `NotationError` for a
    /// malformed move text, `TypeError` for a value that is no move.
    #[pyo3(signature = (move_))]
    fn play(&mut self, py: Python<'_>, move_: &Bound<'_, PyAny>) -> PyResult<()> {
        with_game!(&mut self.game, g => play(py, g, move_))
    }

    /// Takes back the last move and returns it. Raises `IndexError` when no move was played.
    fn undo(&mut self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        with_game!(&mut self.game, g => undo(py, g))
            .ok_or_else(|| PyIndexError::new_err("no move to undo"))
    }

    /// An independent copy of the game (history included), of the same class. Raises
    /// `MemoryError` when the copy's memory cannot be had.
    fn copy(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        with_game!(&self.game, g => copy_of(py, g))
    }

    fn __copy__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        self.copy(py)
    }

    fn __deepcopy__(&self, py: Python<'_>, _memo: &Bound<'_, PyDict>) -> PyResult<Py<PyAny>> {
        self.copy(py)
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.game.is_over()
    }

    /// The side that won, once the game is over; `None` for a draw and while the game goes
    /// on (see `is_over`).
    fn winner(&self) -> Option<Side> {
        self.game.outcome().and_then(|o| o.winner).map(Side::from)
    }

    /// The final score once the game is over, South minus North (Bao la Kete: +1 once
    /// South has won, −1 once North has won); 0 while the game goes on (`Kalah.score` gives
    /// the store difference so far).
    fn score(&self) -> i32 {
        self.game.outcome().map_or(0, |o| o.score)
    }

    /// The side to move, `None` once the game is over.
    #[getter]
    fn side_to_move(&self) -> Option<Side> {
        self.game.side_to_move().map(Side::from)
    }

    /// The rule set, in notation (`"kalah(6,4)"`, `"bao-la-kete"`).
    #[getter]
    fn rules(&self) -> String {
        self.game.rules().to_string()
    }

    /// The game's name: `"Kalah"`, `"Bao la Kete"` or `"Oware"` (the names of
    /// `mancala.GAME_KINDS`).
    #[getter]
    fn kind(&self) -> &'static str {
        self.game.kind().name()
    }

    /// The moves played so far (the values `legal_moves` gives). Raises `MemoryError` when
    /// the list cannot be had.
    #[getter]
    fn moves(&self, py: Python<'_>) -> PyResult<Vec<Py<PyAny>>> {
        with_game!(&self.game, g => moves_of(py, g))
    }

    /// The position in notation (`docs/notation.md`); the class reads it back with
    /// `position=`.
    fn notation(&self) -> String {
        self.game.position_text()
    }

    /// The start position of this game, in notation.
    fn start_notation(&self) -> String {
        self.game.start_text()
    }

    /// The board drawn as `mancala show` draws it: North on top, South at the bottom, the
    /// side to move (or the result) on the last line.
    fn __str__(&self) -> String {
        self.game.drawing_text()
    }

    fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
        let this = slf.borrow();
        Ok(format!(
            "{}({:?}, position={:?})",
            slf.get_type().name()?,
            this.rules(),
            this.notation()
        ))
    }

    /// Games compare by value and change: they are not hashable.
    #[classattr]
    const __hash__: Option<Py<PyAny>> = None;

    /// Games are equal when their rules, start positions and moves are.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Game>()
            .is_ok_and(|o| o.borrow().game == self.game)
    }

    /// Pickling: the class, the rules, the start position and the moves.
    fn __reduce__(slf: &Bound<'_, Self>, py: Python<'_>) -> PyResult<(Py<PyAny>, Record)> {
        let from_record = slf.get_type().getattr("_from_record")?.unbind();
        let this = slf.borrow();
        Ok((
            from_record,
            (this.rules(), this.start_notation(), this.moves(py)?),
        ))
    }

    /// The state as a JSON-ready `dict` (`mancala.state.to_dict`, schema in
    /// `docs/python.md`): rules, start and current position, moves, houses and stores by
    /// side, side to move, legal moves, result.
    ///
    /// # Errors
    /// Only Python's.
    fn to_dict<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("mancala.state")?
            .call_method1("to_dict", (slf,))
    }

    /// `to_dict()` as JSON text, on one line or indented by `indent` spaces (`None`, or an
    /// integer from 0 to 1000).
    ///
    /// # Errors
    /// `ValueError` naming `indent` for one out of that range, `TypeError` for a bool or a
    /// non-integer (`mancala.state.to_json` checks it).
    #[pyo3(signature = (indent = None))]
    fn to_json<'py>(
        slf: &Bound<'py, Self>,
        indent: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        slf.py()
            .import("mancala.state")?
            .call_method1("to_json", (slf, indent))
    }

    /// The game a `to_dict()` `dict` describes (`mancala.from_dict`), an object of the
    /// class it is called on (`Game.from_dict` takes any game, `Oware.from_dict` only an
    /// Oware one).
    ///
    /// `rules`, `start` and `moves` make the game; `game`, `position` and the derived fields
    /// (`side_to_move`, `houses`, `stores`, `extra`, `legal_moves`, `over`, `winner`,
    /// `score`) are checked against the game the moves reach when they are given, with or
    /// without `position` (any may be left out).
    ///
    /// # Errors
    /// `ValueError` for another schema version, a missing field, a position or a derived
    /// field that does not match the moves (one line naming the field and both values), or a
    /// game of another class than the one called (naming the one to use); `TypeError` for a
    /// field of the wrong type (`mancala.from_dict`); `RulesError`, `NotationError`,
    /// `IllegalMoveError`.
    #[classmethod]
    fn from_dict<'py>(
        cls: &Bound<'py, PyType>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let game = data
            .py()
            .import("mancala.state")?
            .call_method1("from_dict", (data,))?;
        if !game.is_instance(cls.as_any())? {
            let asked = cls.name()?;
            let found = game.get_type().name()?;
            return Err(pyo3::exceptions::PyValueError::new_err(format!(
                "{asked}.from_dict: the state is of {found}, not of {asked}: read it with {found}.from_dict or mancala.from_dict"
            )));
        }
        Ok(game)
    }

    /// The game `rules` from `start` (notation) after `moves`: what `__reduce__` pickles.
    #[classmethod]
    fn _from_record(
        cls: &Bound<'_, PyType>,
        rules: &str,
        start: &str,
        moves: Vec<Bound<'_, PyAny>>,
    ) -> PyResult<Py<PyAny>> {
        let game = cls.call1((rules, start))?;
        for mv in &moves {
            game.call_method1("play", (mv,))?;
        }
        Ok(game.unbind())
    }
}
