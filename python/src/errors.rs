//! The library's errors as Python exceptions.
//!
//! The exception classes live in Python (`mancala/errors.py`), so that each can derive from
//! both `mancala.MancalaError` and the built-in class it behaves as (`ValueError` for bad
//! input); this module looks them up by name when it raises one. The message is always the
//! library's own (`Display` of its error type), the same text the `mancala` command prints
//! after `mancala: `.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// Which exception of `mancala.errors` to raise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `RulesError(MancalaError, ValueError)`: a rule-set text the parser refused.
    Rules,
    /// `NotationError(MancalaError, ValueError)`: a position or move text that cannot be read
    /// or names an impossible position.
    Notation,
    /// `IllegalMoveError(MancalaError, ValueError)`: a move the rules do not allow here.
    IllegalMove,
    /// `SolveError(MancalaError)`: the exact solver could not start.
    Solve,
    /// `DatabaseError(MancalaError)`: an endgame database could not be built, saved, opened
    /// or used.
    Database,
    /// `EngineError(MancalaError, ValueError)`: the playing engine refused the request.
    Engine,
    /// `DatabaseExistsError(DatabaseError, FileExistsError)`: a save that does not overwrite
    /// found a file holding another database, or no database, at its path.
    DatabaseExists,
}

impl Kind {
    /// The class name in `mancala.errors`.
    #[must_use]
    pub fn class_name(self) -> &'static str {
        match self {
            Kind::Rules => "RulesError",
            Kind::Notation => "NotationError",
            Kind::IllegalMove => "IllegalMoveError",
            Kind::Solve => "SolveError",
            Kind::Database => "DatabaseError",
            Kind::Engine => "EngineError",
            Kind::DatabaseExists => "DatabaseExistsError",
        }
    }

    /// The exception of the database error `e`: [`Kind::DatabaseExists`] for a save that
    /// found a file in its way (`EgdbError::Occupied`), [`Kind::Database`] for every other.
    #[must_use]
    pub fn of_database(e: &mancala_solver::EgdbError) -> Kind {
        match e {
            mancala_solver::EgdbError::Occupied { .. } => Kind::DatabaseExists,
            _ => Kind::Database,
        }
    }
}

/// The `TypeError` that `pickle` (and `copy`) of an object of class `class` raises, for
/// the classes that hold what cannot cross to another process (a database's table, a
/// search's table, a batch of games); `instead` says what to do ("make it anew there").
pub fn not_picklable(class: &str, instead: &str) -> PyErr {
    pyo3::exceptions::PyTypeError::new_err(format!("cannot pickle a mancala.{class}: {instead}"))
}

/// The exception `kind` with `message`. When `mancala.errors` cannot be imported (the
/// extension module loaded on its own, outside its package), a `RuntimeError` with the same
/// message.
pub fn error(py: Python<'_>, kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    let class = py
        .import("mancala.errors")
        .and_then(|m| m.getattr(kind.class_name()));
    match class.and_then(|c| c.call1((message.clone(),))) {
        Ok(value) => PyErr::from_value(value),
        Err(_) => PyRuntimeError::new_err(message),
    }
}

/// The exception of the database error `e` ([`Kind::of_database`]) with its message. A save
/// that found a file in its way (`EgdbError::Occupied`) raises `DatabaseExistsError` as
/// `FileExistsError(errno.EEXIST, message, path)` would be made: `errno` and `filename`
/// set (the path as the library has it), its `str` the one-line message.
pub fn database_error(py: Python<'_>, e: &mancala_solver::EgdbError) -> PyErr {
    let message = e.to_string();
    let mancala_solver::EgdbError::Occupied { path, .. } = e else {
        return error(py, Kind::of_database(e), message);
    };
    let class = py
        .import("mancala.errors")
        .and_then(|m| m.getattr(Kind::DatabaseExists.class_name()));
    let eexist = i64::from(libc_eexist());
    match class.and_then(|c| c.call1((eexist, message.clone(), path.as_os_str()))) {
        Ok(value) => PyErr::from_value(value),
        Err(_) => PyRuntimeError::new_err(message),
    }
}

/// `EEXIST`, the system's number for a name taken (17 on Linux, macOS and Windows' CRT).
const fn libc_eexist() -> i32 {
    17
}

/// [`error`] from a library error value (its `Display` is the message).
pub fn from_error(py: Python<'_>, kind: Kind, e: impl std::fmt::Display) -> PyErr {
    error(py, kind, e.to_string())
}
