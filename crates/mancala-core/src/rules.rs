//! A rule set of either game, with the one decision of which game a rule-set text names.

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::bao::{self, BaoRules};
use crate::kalah::{self, KalahRules};

/// The rules of a game of this library: Kalah(m, n) with its options or Bao la Kete with its
/// options. The game-neutral value the front ends (the `mancala` command's `--rules`, the C
/// API's `mancala_rules_new`) parse a rule-set text into.
///
/// Notation (`Display`/`FromStr`): a Bao la Kete rule set (`bao-la-kete[+name=value…]`,
/// [`BaoRules`]) or a Kalah rule set (`standard`, `manchester`, `kalah(m,n)[+option…]`,
/// [`KalahRules`]); `docs/notation.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Kalah(m, n) with options (`docs/rules/kalah.md`).
    Kalah(KalahRules),
    /// Bao la Kete (`docs/rules/bao-la-kete.md`).
    Bao(BaoRules),
}

/// Why a rule-set text was refused: the error of the game it names.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// A text naming a Kalah rule set (anything not starting with `bao`) that
    /// [`KalahRules`]' parser refused.
    #[error(transparent)]
    Kalah(#[from] kalah::RulesError),
    /// A text starting with `bao` (any case) that [`BaoRules`]' parser refused.
    #[error(transparent)]
    Bao(#[from] bao::RulesError),
}

impl Rules {
    /// Whether a rule-set text names Bao la Kete: its first three characters, after leading
    /// white space, are `bao` in any case (so that `bao`, `Bao-la-kete+x=y`, … are refused as
    /// Bao rule sets, with Bao's message, not as malformed Kalah ones). Everything else is read
    /// as a Kalah rule set.
    #[must_use]
    pub fn names_bao(text: &str) -> bool {
        text.trim_start()
            .get(..3)
            .is_some_and(|h| h.eq_ignore_ascii_case("bao"))
    }

    /// The Kalah rules, or `None` for Bao la Kete.
    #[must_use]
    pub const fn kalah(self) -> Option<KalahRules> {
        match self {
            Rules::Kalah(r) => Some(r),
            Rules::Bao(_) => None,
        }
    }

    /// The Bao la Kete rules, or `None` for Kalah.
    #[must_use]
    pub const fn bao(self) -> Option<BaoRules> {
        match self {
            Rules::Bao(r) => Some(r),
            Rules::Kalah(_) => None,
        }
    }
}

impl From<KalahRules> for Rules {
    fn from(rules: KalahRules) -> Rules {
        Rules::Kalah(rules)
    }
}

impl From<BaoRules> for Rules {
    fn from(rules: BaoRules) -> Rules {
        Rules::Bao(rules)
    }
}

impl fmt::Display for Rules {
    /// The rule-set notation of the game's rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rules::Kalah(r) => r.fmt(f),
            Rules::Bao(r) => r.fmt(f),
        }
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Parses a rule set of either game: [`BaoRules`] when [`Rules::names_bao`] says so, else
    /// [`KalahRules`]. Never panics.
    ///
    /// # Errors
    /// [`RulesError::Bao`] or [`RulesError::Kalah`] with the parser's reason.
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        if Rules::names_bao(s) {
            Ok(Rules::Bao(s.parse()?))
        } else {
            Ok(Rules::Kalah(s.parse()?))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_head_decides_the_game() {
        assert_eq!(
            "standard".parse::<Rules>(),
            Ok(Rules::Kalah(KalahRules::standard()))
        );
        assert_eq!(
            "  BAO-LA-KETE".parse::<Rules>(),
            Ok(Rules::Bao(BaoRules::LAMU))
        );
        // `bao` alone is a bad Bao rule set, not a bad Kalah one.
        assert!(matches!("bao".parse::<Rules>(), Err(RulesError::Bao(_))));
        assert!(matches!("ba".parse::<Rules>(), Err(RulesError::Kalah(_))));
        assert!(matches!("".parse::<Rules>(), Err(RulesError::Kalah(_))));
        // A multi-byte character where the head is cut does not panic.
        assert!(matches!("bé".parse::<Rules>(), Err(RulesError::Kalah(_))));
        let r: Rules = "kalah(7,7)+pie_rule".parse().unwrap();
        assert_eq!(r.to_string(), "kalah(7,7)+pie_rule");
        assert_eq!(Rules::Bao(BaoRules::LAMU).to_string(), "bao-la-kete");
    }
}
