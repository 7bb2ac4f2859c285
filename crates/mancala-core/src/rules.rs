//! A rule set of any game of the library, parsed by the parser of the game its text names
//! ([`GameKind::of_rules`]).

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::bao::{self, BaoRules};
use crate::kalah::{self, KalahRules};
use crate::oware::{self, OwareRules};
use crate::togyz::{self, TogyzRules};
use crate::GameKind;

/// The rules of a game of this library, one variant a game ([`GameKind`]): Kalah(m, n), Bao
/// la Kete, Oware or Togyz Kumalak, each with its options. The game-neutral value the front
/// ends (the `mancala` command's `--rules`, the C API's `mancala_rules_new`) parse a rule-set
/// text into.
///
/// Notation (`Display`/`FromStr`): the rule-set notation of the game the text's head names
/// ([`GameKind::of_rules`]): [`KalahRules`], [`BaoRules`], [`OwareRules`], [`TogyzRules`];
/// `docs/notation.md`.
///
/// ```
/// use mancala_core::{GameKind, Rules};
///
/// for (text, kind) in [
///     ("kalah(4,3)+empty_capture", GameKind::Kalah),
///     ("bao-la-kete", GameKind::Bao),
///     ("awari", GameKind::Oware),
///     ("bestemshe", GameKind::Togyz),
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
    /// Togyz Kumalak and Bestemshe (`docs/rules/togyz-kumalak.md`).
    Togyz(TogyzRules),
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
    /// A text starting with `togyz` or `bestemshe` (any case) that [`TogyzRules`]' parser
    /// refused.
    #[error(transparent)]
    Togyz(#[from] togyz::RulesError),
}

impl Rules {
    /// Which game these rules are of.
    #[must_use]
    pub const fn kind(self) -> GameKind {
        match self {
            Rules::Kalah(_) => GameKind::Kalah,
            Rules::Bao(_) => GameKind::Bao,
            Rules::Oware(_) => GameKind::Oware,
            Rules::Togyz(_) => GameKind::Togyz,
        }
    }

    /// The default rule set of game `kind` (its rules type's `Default`: `standard`,
    /// `bao-la-kete`, `oware`), for code that walks every game ([`GameKind::ALL`]).
    #[must_use]
    pub fn default_of(kind: GameKind) -> Rules {
        match kind {
            GameKind::Kalah => Rules::Kalah(KalahRules::default()),
            GameKind::Bao => Rules::Bao(BaoRules::default()),
            GameKind::Oware => Rules::Oware(OwareRules::default()),
            GameKind::Togyz => Rules::Togyz(TogyzRules::default()),
        }
    }

    /// The Kalah rules, or `None` for another game.
    #[must_use]
    pub const fn kalah(self) -> Option<KalahRules> {
        match self {
            Rules::Kalah(r) => Some(r),
            Rules::Bao(_) | Rules::Oware(_) | Rules::Togyz(_) => None,
        }
    }

    /// The Bao la Kete rules, or `None` for another game.
    #[must_use]
    pub const fn bao(self) -> Option<BaoRules> {
        match self {
            Rules::Bao(r) => Some(r),
            Rules::Kalah(_) | Rules::Oware(_) | Rules::Togyz(_) => None,
        }
    }

    /// The Oware rules, or `None` for another game.
    #[must_use]
    pub const fn oware(self) -> Option<OwareRules> {
        match self {
            Rules::Oware(r) => Some(r),
            Rules::Kalah(_) | Rules::Bao(_) | Rules::Togyz(_) => None,
        }
    }

    /// The Togyz Kumalak rules, or `None` for another game.
    #[must_use]
    pub const fn togyz(self) -> Option<TogyzRules> {
        match self {
            Rules::Togyz(r) => Some(r),
            Rules::Kalah(_) | Rules::Bao(_) | Rules::Oware(_) => None,
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

impl From<TogyzRules> for Rules {
    fn from(rules: TogyzRules) -> Rules {
        Rules::Togyz(rules)
    }
}

impl fmt::Display for Rules {
    /// The rule-set notation of the game's rules.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rules::Kalah(r) => r.fmt(f),
            Rules::Bao(r) => r.fmt(f),
            Rules::Oware(r) => r.fmt(f),
            Rules::Togyz(r) => r.fmt(f),
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
            GameKind::Togyz => Ok(Rules::Togyz(s.parse()?)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text no game's parser accepts is refused by Kalah's, with every game's forms.
    #[test]
    fn a_text_of_no_game_lists_the_forms_of_every_game() {
        let e = "kalha(6,4)".parse::<Rules>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "malformed rule set `kalha(6,4)`: expected `standard`, `manchester` or \
             `kalah(m,n)[+option…]` (Kalah), `bao-la-kete[+name=value…]` (Bao la Kete), \
             `oware|awari|oware-openspiel[(h,s)][+name=value…]` (Oware), or \
             `togyz-kumalak|togyz-ludii|bestemshe[(h,s)][+name=value…]` (Togyz Kumalak)"
        );
        let e = "standrd".parse::<Rules>().unwrap_err();
        assert!(
            e.to_string()
                .ends_with("(Togyz Kumalak); did you mean `standard`?"),
            "{e}"
        );
    }

    #[test]
    fn each_game_has_a_default_rule_set() {
        for kind in GameKind::ALL {
            let rules = Rules::default_of(kind);
            assert_eq!(rules.kind(), kind);
            assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
        }
        let texts = GameKind::ALL.map(|k| Rules::default_of(k).to_string());
        assert_eq!(texts, ["standard", "bao-la-kete", "oware", "togyz-kumalak"]);
    }

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
