//! The Kalah position notation of `docs/notation.md` ("Kalah positions"): parsing and
//! printing.

use core::fmt;

use super::error::PositionError;
use super::position::KalahPosition;
use super::rules::KalahRules;
use crate::Side;

impl KalahPosition {
    /// Parses the position notation of `docs/notation.md` ("Kalah positions"): `<2m+2
    /// comma-separated counts> <S|N|->` and, when a pie-rule swap is on offer, a trailing ` swap`.
    /// The side letter and `swap` are read in any ASCII case (`s`, `SWAP`); `Display` writes
    /// `S`, `N` and `swap`. Never panics.
    ///
    /// # Errors
    /// [`PositionError::Syntax`] for the wrong shape, [`PositionError::BadCount`] for a count
    /// that is not 0..=255, and every error of [`KalahPosition::new`].
    pub fn parse(rules: KalahRules, text: &str) -> Result<KalahPosition, PositionError> {
        let syntax = || PositionError::Syntax(text.chars().take(200).collect());
        let mut fields = text.split_whitespace();
        let counts = fields.next().ok_or_else(syntax)?;
        let side = fields.next().ok_or_else(syntax)?;
        // Keywords in any ASCII case (`docs/notation.md`, "Letter case"): `s`, `N`, `SWAP`.
        let swap = match fields.next() {
            None => false,
            Some(t) if t.eq_ignore_ascii_case("swap") => true,
            Some(_) => return Err(syntax()),
        };
        if fields.next().is_some() {
            return Err(syntax());
        }
        let to_move = match side {
            "S" | "s" => Some(Side::South),
            "N" | "n" => Some(Side::North),
            "-" => None,
            _ => return Err(syntax()),
        };
        let mut slots = [0u8; 16];
        let mut count = 0usize;
        for (i, t) in counts.split(',').enumerate() {
            let ok = !t.is_empty() && t.len() <= 3 && t.bytes().all(|b| b.is_ascii_digit());
            let v = if ok { t.parse::<u8>().ok() } else { None };
            let v = v.ok_or_else(|| PositionError::BadCount {
                slot: i + 1,
                text: t.chars().take(20).collect(),
            })?;
            if i < 16 {
                slots[i] = v;
            }
            count = i + 1;
        }
        if count != 2 * rules.houses() as usize + 2 {
            return Err(PositionError::SlotCount {
                houses: rules.houses(),
                expected: 2 * rules.houses() as usize + 2,
                got: count,
            });
        }
        KalahPosition::new(rules, &slots[..count], to_move, swap)
    }
}

impl fmt::Display for KalahPosition {
    /// The position notation of `docs/notation.md` ("Kalah positions"): counts, side (`S`, `N`,
    /// `-`), and ` swap` when offered.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.slots().iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{c}")?;
        }
        match self.side_to_move() {
            Some(s) => write!(f, " {}", s.letter())?,
            None => f.write_str(" -")?,
        }
        if self.swap_offered() {
            f.write_str(" swap")?;
        }
        Ok(())
    }
}

/// The longest position notation of any Kalah board this library accepts, in bytes (UTF-8,
/// no NUL): 55, for m = 7 with one count of 100 or more, the other fifteen of 10 or more, North
/// to move and ` swap`.
///
/// Derived from the notation's grammar (`docs/notation.md`, "Kalah positions") and the limits
/// of [`KalahPosition::new`]: 2m + 2 counts summing to at most [`MAX_TOTAL_SEEDS`] (255), so
/// as many digits as such counts can have (a count of 100 costs 100 seeds for 3 digits, one
/// of 10 costs 10 for 2), 2m + 1 commas, the side (` S`, ` N` or ` -`, 2 bytes) and
/// ` swap` (5 bytes), maximised over m in 1..=[`MAX_HOUSES`].
///
/// [`MAX_TOTAL_SEEDS`]: super::rules::MAX_TOTAL_SEEDS
/// [`MAX_HOUSES`]: super::rules::MAX_HOUSES
pub const NOTATION_MAX_BYTES: usize = notation_max_bytes();

const fn notation_max_bytes() -> usize {
    let mut best = 0;
    let mut m = 1;
    while m <= super::rules::MAX_HOUSES as u32 {
        let counts = 2 * m + 2;
        let digits = crate::max_count_digits(counts, super::rules::MAX_TOTAL_SEEDS, 255);
        let bytes = digits + (counts - 1) + 2 + 5;
        if bytes > best {
            best = bytes;
        }
        m += 1;
    }
    best as usize
}
