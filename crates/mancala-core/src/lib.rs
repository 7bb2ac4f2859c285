//! # mancala-core
//!
//! Exact rules of mancala games on compact, bit-packed, `Copy` positions:
//!
//! * [`kalah`] — Kalah(m, n), m in 1..=7, with every variant of `docs/rules/kalah.md`
//!   (`empty_capture`, `end_when_no_move`, `discard_remaining`, `pie_rule`,
//!   `no_first_move_bonus`) and the rule-set and position notations;
//! * [`bao`] — Bao la Kete, the four-row Bao of Lamu, with every rule of
//!   `docs/rules/bao-la-kete.md` (Lamu defaults, the open readings of those rules as options);
//! * [`game`] — the [`Game`] trait both games implement, and generic [`game::perft`];
//! * [`rules`] — [`Rules`], a rule set of either game, parsed from the rule-set notation.
//!
//! ```
//! use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
//! let start = KalahPosition::start("standard".parse::<KalahRules>().unwrap());
//! let next = start.play(KalahMove::House(3)).unwrap();
//! assert_eq!(next.to_string(), "4,4,0,5,5,5,1,4,4,4,4,4,4,0 S"); // extra turn
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod bao;
pub mod game;
pub mod kalah;
pub mod rules;
mod side;

pub use game::{Game, MoveList, Outcome};
pub use rules::{Rules, RulesError};
pub use side::Side;

/// Text a user gave, for an error message: shown whole up to [`Shortened::MAX_CHARS`]
/// characters, else its first [`Shortened::MAX_CHARS`] characters and `…` (so that a 128 KB
/// bad move gives a one-line message, not 128 KB of echo). The error values keep the whole
/// text; only their messages are shortened.
#[derive(Clone, Copy, Debug)]
pub struct Shortened<'a>(pub &'a str);

impl Shortened<'_> {
    /// Characters shown of a longer text.
    pub const MAX_CHARS: usize = 60;
}

impl core::fmt::Display for Shortened<'_> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self.0.char_indices().nth(Self::MAX_CHARS) {
            None => f.write_str(self.0),
            Some((cut, _)) => write!(f, "{}…", &self.0[..cut]),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Shortened;

    #[test]
    fn shortened_text_keeps_60_characters() {
        let sixty = "a".repeat(60);
        assert_eq!(Shortened(&sixty).to_string(), sixty);
        let sixty_one = "b".repeat(61);
        assert_eq!(
            Shortened(&sixty_one).to_string(),
            format!("{}…", "b".repeat(60))
        );
        // Characters, not bytes: two-byte `é` is never cut in half.
        let accents = "é".repeat(100);
        assert_eq!(
            Shortened(&accents).to_string(),
            format!("{}…", "é".repeat(60))
        );
        assert_eq!(Shortened("").to_string(), "");
    }
}
