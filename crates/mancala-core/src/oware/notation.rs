//! The Oware position notation of OW-9 (`docs/notation.md`, "Oware positions"): parsing
//! and printing.

use core::fmt;

use super::error::PositionError;
use super::position::OwarePosition;
use super::rules::{OwareRules, MAX_HOUSES, MAX_TOTAL_SEEDS};
use crate::Side;

impl OwarePosition {
    /// Parses the position notation of OW-9.1: `<2h+2 comma-separated counts> <S|N|->`, the
    /// counts `S1 … Sh, S-captured, N1 … Nh, N-captured`, each of one to three digits; the
    /// two fields separated by white space (any amount, also around the whole text); `s`,
    /// `n` read as `S`, `N`. The position starts a new history (OW-9.3). Never panics.
    ///
    /// # Errors
    /// [`PositionError::Syntax`] for the wrong shape, [`PositionError::BadCount`] for a count
    /// that is not 0..=255, [`PositionError::CountNumber`] for other than 2h + 2 counts, and
    /// the refusals of OW-9.2 ([`OwarePosition::try_from`] an [`super::OwareLayout`]).
    pub fn parse(rules: OwareRules, text: &str) -> Result<OwarePosition, PositionError> {
        let syntax = || PositionError::Syntax(text.chars().take(200).collect());
        let mut fields = text.split_whitespace();
        let counts = fields.next().ok_or_else(syntax)?;
        let side = fields.next().ok_or_else(syntax)?;
        if fields.next().is_some() {
            return Err(syntax());
        }
        let to_move = match side {
            "-" => None,
            _ => {
                let mut chars = side.chars();
                match (chars.next().and_then(Side::from_letter), chars.next()) {
                    (Some(s), None) => Some(s),
                    _ => return Err(syntax()),
                }
            }
        };
        let mut values = [0u8; 18];
        let mut count = 0usize;
        for (i, t) in counts.split(',').enumerate() {
            let ok = !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit());
            let v = if ok { t.parse::<u8>().ok() } else { None };
            let v = v.ok_or_else(|| PositionError::BadCount {
                slot: i + 1,
                text: t.chars().take(20).collect(),
            })?;
            if i < values.len() {
                values[i] = v;
            }
            count = i + 1;
        }
        let expected = 2 * rules.houses() as usize + 2;
        if count != expected {
            return Err(PositionError::CountNumber {
                houses: rules.houses(),
                expected,
                got: count,
            });
        }
        OwarePosition::new(rules, &values[..count], to_move)
    }
}

impl fmt::Display for OwarePosition {
    /// The position notation of OW-9.1: the counts, a space, the side (`S`, `N`, `-`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.counts().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{c}")?;
        }
        match self.side_to_move() {
            Some(s) => write!(f, " {}", s.letter()),
            None => f.write_str(" -"),
        }
    }
}

/// The longest position notation of any Oware board this library accepts, in bytes (UTF-8,
/// no NUL): 55, for h = 8 with all 18 counts of 10 or more (180 seeds; a count of 100 or
/// more would cost too many seeds for the digit it adds).
///
/// Derived from the grammar of OW-9.1 and the limits of OW-9.2: 2h + 2 counts summing to at
/// most [`MAX_TOTAL_SEEDS`] (255), so as many digits as such counts can have (a count of 100
/// costs 100 seeds for 3 digits, one of 10 costs 10 for 2), 2h + 1 commas and the side
/// (` S`, ` N` or ` -`, 2 bytes), maximised over h in 1..=[`MAX_HOUSES`].
pub const NOTATION_MAX_BYTES: usize = notation_max_bytes();

const fn notation_max_bytes() -> usize {
    let mut best = 0;
    let mut h = 1;
    while h <= MAX_HOUSES as u32 {
        let counts = 2 * h + 2;
        let digits = crate::max_count_digits(counts, MAX_TOTAL_SEEDS, 255);
        let bytes = digits + (counts - 1) + 2;
        if bytes > best {
            best = bytes;
        }
        h += 1;
    }
    best as usize
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_longest_notation() {
        // h = 8: 18 counts of two digits each (180 seeds), 17 commas, ` S`: 36 + 17 + 2 = 55.
        // A count of 100 (3 digits) costs 100 seeds, which would turn ten two-digit counts
        // into one-digit ones.
        let rules = OwareRules::new(8, 15).unwrap();
        let text = format!("{} S", ["10"; 18].join(","));
        assert_eq!(text.len(), 55);
        assert!(OwarePosition::parse(rules, &text).is_ok());
        assert_eq!(NOTATION_MAX_BYTES, 55);
    }
}
