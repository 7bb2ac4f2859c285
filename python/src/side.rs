//! `Side`: South or North, as an integer enum (South 0, North 1: the index of the side in
//! the library's arrays and in `Kalah.board`'s halves).

use pyo3::prelude::*;

/// A side of the board: `Side.SOUTH` (0, moves first in Kalah) or `Side.NORTH` (1).
/// Compares equal to its integer (`int(Side.NORTH) == 1`) and hashes as it.
#[pyclass(module = "mancala", eq, eq_int, frozen)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// South: the first player's side in Kalah (`S` in the notations).
    #[pyo3(name = "SOUTH")]
    South = 0,
    /// North (`N` in the notations).
    #[pyo3(name = "NORTH")]
    North = 1,
}

#[pymethods]
impl Side {
    /// The other side.
    fn opponent(&self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// The letter of the notations: `"S"` or `"N"`.
    #[getter]
    fn letter(&self) -> &'static str {
        match self {
            Side::South => "S",
            Side::North => "N",
        }
    }

    /// The index, so that a side indexes arrays (`board[Side.NORTH]`).
    fn __index__(&self) -> isize {
        *self as isize
    }

    /// The hash of the integer it equals, so that `{0: x}[Side.SOUTH]` finds `x`.
    fn __hash__(&self) -> isize {
        *self as isize
    }

    fn __str__(&self) -> &'static str {
        match self {
            Side::South => "South",
            Side::North => "North",
        }
    }

    /// Pickling: `getattr(Side, "SOUTH")` (or `"NORTH"`), so that unpickling gives the
    /// class's own value, `Side.SOUTH` itself, and `pickle`, `copy.deepcopy` and the
    /// processes of Gymnasium's async vector environments carry a side (in an `info`
    /// dict, a result, a game's winner) as other values.
    ///
    /// # Errors
    /// Only when `builtins.getattr` cannot be had.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<Reduced<'py>> {
        let getattr = py.import("builtins")?.getattr("getattr")?;
        let name = match self {
            Side::South => "SOUTH",
            Side::North => "NORTH",
        };
        Ok((getattr, (py.get_type::<Side>(), name)))
    }

    /// `copy.copy`: the side itself (it is immutable).
    fn __copy__(slf: Py<Self>) -> Py<Self> {
        slf
    }

    /// `copy.deepcopy`: the side itself (it is immutable and holds nothing).
    fn __deepcopy__(slf: Py<Self>, _memo: &Bound<'_, PyAny>) -> Py<Self> {
        slf
    }
}

/// What `Side.__reduce__` returns: `builtins.getattr` and its arguments, the class and the
/// name of the value.
type Reduced<'py> = (
    Bound<'py, PyAny>,
    (Bound<'py, pyo3::types::PyType>, &'static str),
);

impl From<mancala_core::Side> for Side {
    fn from(s: mancala_core::Side) -> Side {
        match s {
            mancala_core::Side::South => Side::South,
            mancala_core::Side::North => Side::North,
        }
    }
}

impl From<Side> for mancala_core::Side {
    fn from(s: Side) -> mancala_core::Side {
        match s {
            Side::South => mancala_core::Side::South,
            Side::North => mancala_core::Side::North,
        }
    }
}

/// A side argument: a [`Side`], or its integer (0 South, 1 North, as `Side` compares equal
/// to it), so that `game.store(0)` works as `game.store(Side.SOUTH)` does.
///
/// Extraction raises `TypeError` for an object that is neither (PyO3 prefixes the argument's
/// name) and `ValueError` for another integer.
pub struct SideArg(pub Side);

impl<'a, 'py> FromPyObject<'a, 'py> for SideArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<SideArg> {
        if let Ok(s) = obj.extract::<Side>() {
            return Ok(SideArg(s));
        }
        let i = obj.extract::<crate::int::Int>().map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!(
                "expected a Side or its integer (0 South, 1 North), not {}",
                obj.get_type()
                    .name()
                    .map_or_else(|_| "?".into(), |n| n.to_string())
            ))
        })?;
        match i.get::<u8>("side", 0, 1, " (0 South, 1 North)")? {
            0 => Ok(SideArg(Side::South)),
            _ => Ok(SideArg(Side::North)),
        }
    }
}
