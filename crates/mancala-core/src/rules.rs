//! A rule set of any game of the library, parsed by the parser of the game its text names
//! ([`GameKind::of_rules`]).

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::game::for_each_game;
use crate::GameKind;

/// Declares [`Rules`], [`RulesError`] and their game-by-game parts from the registry of games
/// (`for_each_game!` in `game/kind.rs`): one variant of each a game.
macro_rules! rules {
    ([$($extra:tt)*] $($(#[doc = $doc:expr])* $variant:ident {
        module: $module:ident,
        rules: $rules:ident,
        position: $position:ident,
        name: $name:literal,
        article: $article:literal,
        $($rest:tt)*
    })+) => {
        /// The rules of a game of this library, one variant a game ([`GameKind`]): Kalah(m, n),
        /// Bao la Kete, Oware or Togyz Kumalak, each with its options. The game-neutral value
        /// the front ends (the `mancala` command's `--rules`, the C API's
        /// `mancala_rules_new`) parse a rule-set text into.
        ///
        /// Notation (`Display`/`FromStr`): the rule-set notation of the game the text's head
        /// names ([`GameKind::of_rules`]): that of the game's rules type,
        /// [`KalahRules`](crate::kalah::KalahRules), [`BaoRules`](crate::bao::BaoRules),
        /// [`OwareRules`](crate::oware::OwareRules), …; `docs/notation.md`.
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
            $($(#[doc = $doc])* $variant(crate::$module::$rules),)+
        }

        /// Why a rule-set text was refused: the error of the game it names.
        #[derive(Clone, Debug, PartialEq, Eq, Error)]
        pub enum RulesError {
            $(
                #[doc = concat!(
                    "A text naming ", $article, " rule set ([`GameKind::of_rules`]) that [`",
                    stringify!($rules), "`](crate::", stringify!($module), "::", stringify!($rules),
                    ")'s parser refused."
                )]
                #[error(transparent)]
                $variant(#[from] crate::$module::RulesError),
            )+
        }

        impl Rules {
            /// Which game these rules are of.
            #[must_use]
            pub const fn kind(self) -> GameKind {
                match self {
                    $(Rules::$variant(_) => GameKind::$variant,)+
                }
            }

            /// The default rule set of game `kind` (its rules type's `Default`: `standard`,
            /// `bao-la-kete`, `oware`), for code that walks every game ([`GameKind::ALL`]).
            #[must_use]
            pub fn default_of(kind: GameKind) -> Rules {
                match kind {
                    $(GameKind::$variant => Rules::$variant(crate::$module::$rules::default()),)+
                }
            }

            $(
                #[doc = concat!("The ", $name, " rules, or `None` for another game.")]
                #[must_use]
                #[allow(unreachable_patterns)]
                pub const fn $module(self) -> Option<crate::$module::$rules> {
                    match self {
                        Rules::$variant(r) => Some(r),
                        _ => None,
                    }
                }
            )+
        }

        $(
            impl From<crate::$module::$rules> for Rules {
                fn from(rules: crate::$module::$rules) -> Rules {
                    Rules::$variant(rules)
                }
            }
        )+

        impl fmt::Display for Rules {
            /// The rule-set notation of the game's rules.
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                match self {
                    $(Rules::$variant(r) => r.fmt(f),)+
                }
            }
        }

        impl FromStr for Rules {
            type Err = RulesError;

            /// Parses a rule set of any game, with the parser of the game
            /// [`GameKind::of_rules`] names. Never panics.
            ///
            /// # Errors
            /// The [`RulesError`] variant of that game, with its parser's reason.
            fn from_str(s: &str) -> Result<Rules, RulesError> {
                match GameKind::of_rules(s) {
                    $(GameKind::$variant => Ok(Rules::$variant(s.parse()?)),)+
                }
            }
        }
    };
}

for_each_game!(rules);

impl Rules {
    /// Parses `text` as a Kalah rule set, for a reader of Kalah rules alone: the text is read
    /// first as a rule set of any game ([`Rules`]'s `FromStr`), so that a text naming another
    /// game's rule set that game's parser refuses gets that parser's reason
    /// (`awari+grand_slam=nonee`: ``"bad value `nonee` for rule option `grand_slam` (accepted:
    /// …)"``), where Kalah's own parser would only say which game the text names; another
    /// game's well-formed rule set is refused as Kalah's parser refuses it (``"`oware` names
    /// an Oware rule set, not a Kalah one (expected …)"``). Never panics.
    ///
    /// ```
    /// use mancala_core::{kalah::KalahRules, Rules, RulesError};
    ///
    /// assert_eq!(Rules::parse_kalah("kalah(4,3)")?, "kalah(4,3)".parse::<KalahRules>()?);
    /// assert!(matches!(Rules::parse_kalah("oware"), Err(RulesError::Kalah(_))));
    /// assert!(matches!(
    ///     Rules::parse_kalah("awari+grand_slam=nonee"),
    ///     Err(RulesError::Oware(_))
    /// ));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    /// [`RulesError::Kalah`] for a text Kalah's parser refuses, among them another game's
    /// rule set that its own parser accepts; the [`RulesError`] variant of another game, with
    /// that game's parser's reason, for a text naming that game that its parser refuses.
    pub fn parse_kalah(text: &str) -> Result<crate::kalah::KalahRules, RulesError> {
        match text.parse::<Rules>()? {
            Rules::Kalah(rules) => Ok(rules),
            _ => Err(RulesError::Kalah(
                match text.parse::<crate::kalah::KalahRules>() {
                    Err(e) => e,
                    // Not met: no Kalah rule set starts with another game's head.
                    Ok(_) => crate::kalah::RulesError::Syntax(text.to_owned()),
                },
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bao::BaoRules;
    use crate::kalah::KalahRules;

    #[test]
    fn each_game_has_a_default_rule_set() {
        for kind in GameKind::ALL {
            let rules = Rules::default_of(kind);
            assert_eq!(rules.kind(), kind);
            assert_eq!(rules.to_string().parse::<Rules>(), Ok(rules));
        }
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

    /// A Kalah-only parse of another game's rule set that this game's own parser refuses (a
    /// misspelt option value) gives that parser's reason: Kalah's parser alone said the text
    /// named an Oware rule set, not a Kalah one.
    #[test]
    fn a_kalah_parse_of_another_games_bad_rule_set_gives_that_games_reason() {
        let e = Rules::parse_kalah("awari+grand_slam=nonee").unwrap_err();
        assert_eq!(
            e.to_string(),
            "bad value `nonee` for rule option `grand_slam` \
             (accepted: none, all, forbidden, leave_last, unless_only)"
        );
        for text in [
            "oware+no_such_option",
            "bestemshe(5,99)",
            "bao-la-kete+kuu=maybe",
        ] {
            let kalah = Rules::parse_kalah(text).unwrap_err().to_string();
            let own = text.parse::<Rules>().unwrap_err().to_string();
            assert_eq!(kalah, own, "{text}");
            assert!(!kalah.contains("not a Kalah one"), "{kalah}");
        }
    }

    /// Every other text keeps the message of Kalah's parser, byte for byte: another game's
    /// well-formed rule set, a malformed text of no game, a bad Kalah rule set.
    #[test]
    fn a_kalah_parse_keeps_kalahs_other_messages() {
        for text in [
            "oware",
            " Awari+grand_slam=all",
            "bestemshe(5,5)",
            "bao-la-kete",
            "kalha(6,4)",
            "kalah(9,4)",
            "standard+no_such_option",
            "",
        ] {
            let kalah = text.parse::<KalahRules>().unwrap_err();
            assert_eq!(
                Rules::parse_kalah(text),
                Err(RulesError::Kalah(kalah)),
                "{text}"
            );
        }
        assert_eq!(
            Rules::parse_kalah(" kalah(6,4)+empty_capture "),
            " kalah(6,4)+empty_capture "
                .parse::<KalahRules>()
                .map_err(RulesError::Kalah)
        );
    }
}
