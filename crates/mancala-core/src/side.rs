//! The two sides of a two-row or four-row mancala board.

use core::fmt;

/// One of the two players' sides. South moves first in every game of this library
/// (`docs/rules/kalah.md`, "Board and names"; `docs/rules/bao-la-kete.md` K-4.3;
/// `docs/rules/oware.md` OW-1.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// The side nearest the first player, drawn at the bottom; moves first.
    South,
    /// The side drawn at the top; moves second.
    North,
}

impl Side {
    /// Both sides, South first.
    pub const ALL: [Side; 2] = [Side::South, Side::North];

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North (an index into per-side arrays).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The one-letter notation of the side: `S` or `N`.
    #[inline]
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// Parses the one-letter notation (`S` or `N`, either case); `None` for anything else.
    #[must_use]
    pub fn from_letter(c: char) -> Option<Side> {
        match c {
            'S' | 's' => Some(Side::South),
            'N' | 'n' => Some(Side::North),
            _ => None,
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Side::South => "South",
            Side::North => "North",
        })
    }
}
