//! A rule set of any game of the library, parsed by the parser of the game its text names
//! ([`GameKind::of_rules`]).

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::bao::{self, BaoRules};
use crate::kalah::{self, KalahRules};
use crate::oware::{self, OwareRules};
use crate::GameKind;

/// The rules of a game of this library: Kalah(m, n), Bao la Kete or Oware (Abapa, Awari),
/// each with its options; one variant a game ([`GameKind`]). The game-neutral value the
/// front ends (the `mancala` command's `--rules`, the C API's `mancala_rules_new`) parse a
/// rule-set text into.
///
/// Notation (`Display`/`FromStr`): a Kalah rule set (`standard`, `manchester`,
/// `kalah(m,n)[+option…]`, [`KalahRules`]), a Bao la Kete rule set
/// (`bao-la-kete[+name=value…]`, [`BaoRules`]) or an Oware rule set (`oware`, `awari`,
/// `oware-openspiel`, `oware(h,n)[+option…]`, [`OwareRules`]); `docs/notation.md`.
///
/// ```
/// use mancala_core::{GameKind, Rules};
///
/// for (text, kind) in [
///     ("kalah(4,3)+empty_capture", GameKind::Kalah),
///     ("bao-la-kete", GameKind::Bao),
///     ("awari", GameKind::Oware),
/// ] {
///     let rules: Rules = text.parse()?;
///     assert_eq!(rules.kind(), kind);
///     assert_eq!(rules.to_string().parse::<Rules>()?, rules);
/// }
/// assert!("kalah(9,4)".parse::<Rules>().is_err()); // at most 7 houses a row
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rules {
    /// Kalah(m, n) with options (`docs/rules/kalah.md`).
    Kalah(KalahRules),
    /// Bao la Kete (`docs/rules/bao-la-kete.md`).
    Bao(BaoRules),
    /// Oware and Awari (`docs/rules/oware.md`).
    Oware(OwareRules),
}

/// Why a rule-set text was refused: the error of the game it names.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// A text naming a Kalah rule set ([`GameKind::of_rules`]) that [`KalahRules`]' parser
    /// refused.
    #[error(transparent)]
    Kalah(#[from] kalah::RulesError),
    /// A text starting with `bao` (any case) that [`BaoRules`]' parser refused.
    #[error(transparent)]
    Bao(#[from] bao::RulesError),
    /// A text starting with `oware` or `awari` (any case) that [`OwareRules`]' parser refused.
    #[error(transparent)]
    Oware(#[from] oware::RulesError),
}

impl Rules {
    /// Which game these rules are of.
    #[must_use]
    pub const fn kind(self) -> GameKind {
        match self {
            Rules::Kalah(_) => GameKind::Kalah,
            Rules::Bao(_) => GameKind::Bao,
            Rules::Oware(_) => GameKind::Oware,
        }
    }

    /// The Kalah rules, or `None` for another game.
    #[must_use]
    pub const fn kalah(self) -> Option<KalahRules> {
        match self {
            Rules::Kalah(r) => Some(r),
            Rules::Bao(_) | Rules::Oware(_) => None,
        }
    }

    /// The Bao la Kete rules, or `None` for another game.
    #[must_use]
    pub const fn bao(self) -> Option<BaoRules> {
        match self {
            Rules::Bao(r) => Some(r),
            Rules::Kalah(_) | Rules::Oware(_) => None,
        }
    }

    /// The Oware rules, or `None` for another game.
    #[must_use]
    pub const fn oware(self) -> Option<OwareRules> {
        match self {
            Rules::Oware(r) => Some(r),
            Rules::Kalah(_) | Rules::Bao(_) => None,
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

impl From<OwareRules> for Rules {
    fn from(rules: OwareRules) -> Rules {
        Rules::Oware(rules)
    }
}

impl fmt::Display for Rules {
    /// The rule-set notation of the game's rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rules::Kalah(r) => r.fmt(f),
            Rules::Bao(r) => r.fmt(f),
            Rules::Oware(r) => r.fmt(f),
        }
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    /// Parses a rule set of any game, with the parser of the game [`GameKind::of_rules`]
    /// names. Never panics.
    ///
    /// # Errors
    /// [`RulesError::Bao`] or [`RulesError::Kalah`] with the parser's reason.
    fn from_str(s: &str) -> Result<Rules, RulesError> {
        match GameKind::of_rules(s) {
            GameKind::Bao => Ok(Rules::Bao(s.parse()?)),
            GameKind::Kalah => Ok(Rules::Kalah(s.parse()?)),
            GameKind::Oware => Ok(Rules::Oware(s.parse()?)),
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

/// The rule-set names a mistyped one is compared with for a suggestion.
const NAMES: [&str; 6] = [
    "standard",
    "manchester",
    "bao-la-kete",
    "oware",
    "awari",
    "oware-openspiel",
];

/// `; did you mean `standard`?` when the head of a refused rule-set text (before `+` or `(`)
/// is within two edits of a rule-set name (Levenshtein distance, letters in any case), else
/// nothing: the suffix of the message of a malformed rule set.
pub(crate) struct DidYouMean<'a>(pub &'a str);

impl fmt::Display for DidYouMean<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = self
            .0
            .trim()
            .split(['+', '('])
            .next()
            .unwrap_or("")
            .to_ascii_lowercase();
        if head.is_empty() || head.len() > 40 || NAMES.contains(&head.as_str()) {
            return Ok(());
        }
        let best = NAMES
            .iter()
            .map(|n| (edit_distance(&head, n), *n))
            .min_by_key(|&(d, _)| d);
        match best {
            Some((d, name)) if d <= 2 => write!(f, "; did you mean `{name}`?"),
            _ => Ok(()),
        }
    }
}

/// The Levenshtein distance between `a` and `b` (insertions, deletions and substitutions of
/// one character each), by the classic two-row dynamic programme.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(diagonal + 1);
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod did_you_mean {
    use super::*;

    #[test]
    fn distances_by_hand() {
        assert_eq!(edit_distance("standrad", "standard"), 2);
        assert_eq!(edit_distance("owar", "oware"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "awari"), 5);
    }

    #[test]
    fn suggestions() {
        assert_eq!(
            DidYouMean("standrad").to_string(),
            "; did you mean `standard`?"
        );
        assert_eq!(
            DidYouMean("Manchestr+pie_rule").to_string(),
            "; did you mean `manchester`?"
        );
        assert_eq!(
            DidYouMean("bao-la-ket").to_string(),
            "; did you mean `bao-la-kete`?"
        );
        assert_eq!(DidYouMean("xyzzy").to_string(), "");
        assert_eq!(DidYouMean("kalah(6").to_string(), "");
    }
}
