//! [`OwareMove`]: a house of the mover, its notation, and game records (OW-9.5).

use core::fmt;
use core::str::FromStr;

use super::error::{MoveParseError, RecordError};

/// One Oware move: the number of the mover's house to sow, 1..=h, counted from the mover's
/// left as he sits (OW-1.3). Any `u8` can be written here; whether the house exists and the
/// move is legal is checked when it is played ([`super::OwarePosition::play`]).
///
/// Notation (OW-9.5): the house number in decimal, `3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OwareMove(pub u8);

impl OwareMove {
    /// The house number, 1-based from the mover's left.
    #[inline]
    #[must_use]
    pub const fn house(self) -> u8 {
        self.0
    }
}

impl fmt::Display for OwareMove {
    /// The house number in decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for OwareMove {
    type Err = MoveParseError;

    /// Parses a house number of one to three decimal digits, 0..=255, white space around it
    /// ignored (OW-9.5). Never panics.
    ///
    /// # Errors
    /// [`MoveParseError`] with the trimmed text for anything else.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        crate::byte_number(t)
            .map(OwareMove)
            .ok_or_else(|| MoveParseError(t.chars().take(100).collect()))
    }
}

/// Parses a game record (OW-9.5): moves separated by commas and/or white space, `3,1,6 2`.
/// Empty fields are skipped, so an empty text is an empty record. Whether each move is legal
/// is checked when it is played. Never panics.
///
/// # Errors
/// [`RecordError`] naming the first malformed move (1-based).
pub fn parse_moves(text: &str) -> Result<Vec<OwareMove>, RecordError> {
    text.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .enumerate()
        .map(|(i, t)| {
            t.parse::<OwareMove>().map_err(|source| RecordError {
                index: i + 1,
                source,
            })
        })
        .collect()
}
