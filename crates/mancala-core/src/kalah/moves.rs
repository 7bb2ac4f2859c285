//! [`KalahMove`]: a house or the pie-rule swap, and its notation.

use core::fmt;

use super::error::MoveParseError;

/// One Kalah move: a house number 1..=m counted from the mover's left, or the pie-rule swap.
///
/// Notation: the house number (`3`) or `swap`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KalahMove {
    /// Sow the seeds of the mover's house with this number (1-based, 1..=m).
    House(u8),
    /// The pie-rule swap (`docs/rules/kalah.md`, option `pie_rule`): the players exchange sides;
    /// the board and the side to move stay as they are.
    Swap,
}

impl fmt::Display for KalahMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            KalahMove::House(h) => write!(f, "{h}"),
            KalahMove::Swap => f.write_str("swap"),
        }
    }
}

impl core::str::FromStr for KalahMove {
    type Err = MoveParseError;

    /// Parses `swap` (in any ASCII case: `SWAP`, `Swap`) or a house number 1..=255 (whether
    /// the house exists on the board is checked when the move is played). Surrounding white
    /// space is ignored. `Display` writes `swap`.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        if t.eq_ignore_ascii_case("swap") {
            return Ok(KalahMove::Swap);
        }
        if t.is_empty() || t.len() > 3 || !t.bytes().all(|b| b.is_ascii_digit()) {
            return Err(MoveParseError(t.to_string()));
        }
        t.parse::<u8>()
            .map(KalahMove::House)
            .map_err(|_| MoveParseError(t.to_string()))
    }
}
