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
    /// Its size, when it is too long to write out (beyond [`SHOWN_BITS`] bits).
    size: Option<Size>,
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
        let (text, size) = match value {
            Some(_) => (None, None),
            // Not `str()`: Python refuses to write an integer of more than 4300 digits.
            None => (Some(shown(&i)), Size::of(&i)),
        };
        Ok(Int { value, text, size })
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
            size: None,
        }
    }

    /// The value's size when it is too long for a message to write out (beyond
    /// [`SHOWN_BITS`] bits), for a sentence where a number would stand: a house number, a
    /// level ([`Size::words`]); `None` for a value [`Int::text`] writes out.
    #[must_use]
    pub fn size(&self) -> Option<Size> {
        self.size
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

    /// The value as Python prints it (`-1`, `1180591620717411303424`), or by its size beyond
    /// [`SHOWN_BITS`] bits, as [`shown`] gives it.
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

/// The most bits of an integer a message writes out (2^190 has 58 digits); a longer one is
/// shown by its size. As `SHOWN_BITS` of `mancala/state.py`.
pub const SHOWN_BITS: u64 = 190;

/// An integer too long for a message to write out (beyond [`SHOWN_BITS`] bits), as the
/// message names it: its sign and its number of decimal digits, at least (those of
/// 2^(bits − 1), counted as `mancala/state.py` counts them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Whether it is below zero.
    pub negative: bool,
    /// Its decimal digits are at least this many.
    pub digits: u64,
}

impl Size {
    /// The size of `obj` when it is an `int` (not a `bool`) beyond [`SHOWN_BITS`] bits;
    /// `None` for any other object or a shorter `int`. Never raises.
    #[must_use]
    pub fn of(obj: &Bound<'_, PyAny>) -> Option<Size> {
        if !obj.is_instance_of::<PyInt>() || obj.is_instance_of::<PyBool>() {
            return None;
        }
        let bits = obj
            .call_method0("bit_length")
            .and_then(|b| b.extract::<u64>())
            .ok()
            .filter(|&bits| bits > SHOWN_BITS)?;
        // At least 2^(bits - 1): the digits of that power of two, as `mancala/state.py`
        // counts them (the same product of floats).
        let digits = ((bits - 1) as f64 * std::f64::consts::LOG10_2).floor() as u64 + 1;
        Some(Size {
            negative: obj.lt(0).unwrap_or(false),
            digits,
        })
    }

    /// The integer in words, as `noun` (in the singular, without an article) names what it
    /// is: `words("integer")` is `an integer of at least 5000 digits` (how [`shown`] and
    /// [`Int::text`] show it), `words("number")` of a negative one `a negative number of at
    /// least 302 digits`, so that a message reads as a sentence where the number would
    /// stand (`illegal move: no house has a number of at least 302 digits`).
    #[must_use]
    pub fn words(&self, noun: &str) -> String {
        let article = if self.negative {
            "a negative"
        } else if noun.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {noun} of at least {} digits", self.digits)
    }
}

/// The most characters of a value's `repr()` a message shows.
const SHOWN_CHARS: usize = 60;

/// `obj` as a message shows it, as `_shown` of `mancala/state.py` does (the Python checks of
/// the environments give the same text): its `repr()` on one line and at most 60 characters
/// (its first 59 and `…`); an `int` beyond [`SHOWN_BITS`] bits by its size, `an integer of
/// at least 5000 digits`, without writing it out (Python refuses to write one of more than 4300
/// digits, and a shorter one would still fill the message); `a list nested too deep to show`
/// when `repr()` recurses too deep, `a R that repr() cannot show` when it raises otherwise.
/// Never raises.
pub fn shown(obj: &Bound<'_, PyAny>) -> String {
    let type_name = || {
        obj.get_type()
            .name()
            .map_or_else(|_| "?".to_string(), |n| n.to_string())
    };
    if let Some(size) = Size::of(obj) {
        return size.words("integer");
    }
    let text = match obj.repr() {
        Ok(r) => r.to_string().replace('\n', "\\n"),
        Err(e) if e.is_instance_of::<pyo3::exceptions::PyRecursionError>(obj.py()) => {
            format!("a {} nested too deep to show", type_name())
        }
        Err(_) => format!("a {} that repr() cannot show", type_name()),
    };
    if text.chars().count() <= SHOWN_CHARS {
        text
    } else {
        let mut cut: String = text.chars().take(SHOWN_CHARS - 1).collect();
        cut.push('…');
        cut
    }
}
