//! [`TogyzMove`]: a house of the mover and its notation (TK-9.5); game records are read by
//! the generic [`crate::parse_moves`].

use core::fmt;
use core::str::FromStr;

use super::error::MoveParseError;

/// One Togyz Kumalak move: the number of the mover's house to sow, 1..=h, counted from the mover's
/// left as he sits (TK-1.3). Any `u8` can be written here; whether the house exists and the
/// move is legal is checked when it is played ([`super::TogyzPosition::play`]).
///
/// Notation (TK-9.5): the house number in decimal, `3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TogyzMove(pub u8);

impl TogyzMove {
    /// The house number, 1-based from the mover's left.
    #[inline]
    #[must_use]
    pub const fn house(self) -> u8 {
        self.0
    }
}

impl fmt::Display for TogyzMove {
    /// The house number in decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for TogyzMove {
    type Err = MoveParseError;

    /// Parses a house number of one to three decimal digits, 0..=255, white space around it
    /// ignored (TK-9.5). Never panics.
    ///
    /// # Errors
    /// [`MoveParseError`] with the trimmed text for anything else.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let t = s.trim();
        crate::byte_number(t)
            .map(TogyzMove)
            .ok_or_else(|| MoveParseError(t.chars().take(100).collect()))
    }
}
