//! Whole-number arguments checked where their name is known.
//!
//! PyO3 converts a Python `int` to a Rust integer type itself, but a value out of the type's
//! range then raises `OverflowError` with no argument name ("can't convert negative int to
//! unsigned" for `threads=-1`). An argument typed [`Int`] accepts any Python integer (an
//! `int`, or an object with `__index__` such as `numpy.int64`, as `operator.index` does) but
//! not a `bool` (`True` is a Python `int`, but a count, a level or a seed given as `True` is
//! a mistake: `AwariDb.build(True)` would build N = 1), and its range is checked by the
//! function that takes it, with a `ValueError` that names the argument and the range:
//! `threads must be in 1..=1024 (None: every core), got -1`.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// A Python integer argument, its range not yet checked: [`Int::get`] checks it.
///
/// Extraction raises `TypeError` for an object that is not an integer (PyO3 prefixes the
/// argument's name), as `operator.index` would, and for a `bool`.
pub struct Int {
    /// The value when it fits 128 bits (every value a parameter takes does).
    value: Option<i128>,
    /// The value as Python prints it when it does not fit 128 bits, for the message of a
    /// value out of range (made only then: the common case pays no `str()`).
    text: Option<String>,
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        let py = obj.py();
        if obj.is_instance_of::<PyBool>() {
            return Err(PyTypeError::new_err(format!(
                "expected an integer, got a bool ({})",
                obj.str()?.to_cow()?
            )));
        }
        let i = if obj.is_instance_of::<PyInt>() {
            obj.to_owned()
        } else {
            py.import("operator")?.getattr("index")?.call1((obj,))?
        };
        let value = i
            .extract::<i64>()
            .map(i128::from)
            .or_else(|_| i.extract::<u64>().map(i128::from))
            .ok();
        let text = match value {
            Some(_) => None,
            None => Some(i.str()?.to_cow()?.into_owned()),
        };
        Ok(Int { value, text })
    }
}

impl Int {
    /// `value` as an argument's default (`#[pyo3(signature = (level = Int::of(10)))]`; such a
    /// function spells its Python signature with `text_signature`, since PyO3 prints a
    /// default that is not a literal as `...`).
    #[must_use]
    pub fn of(value: i64) -> Int {
        Int {
            value: Some(i128::from(value)),
            text: None,
        }
    }

    /// The value as a `T`, when it lies in `lo..=hi` (which `T` must hold).
    ///
    /// # Errors
    /// `ValueError` naming `name`, the range and `what` (a hint such as `" (None: every
    /// core)"`, or empty) for a value outside it.
    pub fn get<T: TryFrom<i128>>(&self, name: &str, lo: i128, hi: i128, what: &str) -> PyResult<T> {
        self.value
            .filter(|v| (lo..=hi).contains(v))
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| {
                PyValueError::new_err(format!(
                    "{name} must be in {lo}..={hi}{what}, got {}",
                    self.text()
                ))
            })
    }

    /// The value as Python prints it (`-1`, `1180591620717411303424`).
    #[must_use]
    pub fn text(&self) -> String {
        match (self.value, &self.text) {
            (Some(v), _) => v.to_string(),
            (None, Some(t)) => t.clone(),
            (None, None) => String::new(),
        }
    }

    /// The value as a `u64` (0 ..= 2^64 − 1).
    ///
    /// # Errors
    /// `ValueError` naming `name` for a negative value or one beyond 64 bits.
    pub fn u64(&self, name: &str) -> PyResult<u64> {
        self.get(name, 0, i128::from(u64::MAX), "")
    }
}
