//! [`GameKind`]: which game a rule-set text names, decided in one place for every front end;
//! and from the games' rule-set forms and names, the parts of the message of a rule-set text
//! no game accepts (the forms expected, a suggestion for a mistyped name).

use core::fmt;

/// The registry of the library's games: one entry a game, the only list of them in the core.
/// An entry names the game's [`GameKind`] variant (documented by its doc comment), its module,
/// its rules and position types, its name, its name with the indefinite article,
/// and its rule-set heads, forms and names ([`GameKind::of_rules`],
/// [`GameKind::rule_set_forms`]).
///
/// `for_each_game!(callback)` (or `for_each_game!(callback, $)` for a callback that defines a
/// macro and needs the `$` token) expands to `callback! { [extra] entry… }`: [`GameKind`] and
/// its tables here, `Rules` and `RulesError` (`crate::rules`), and `AnyGame` and `with_game!`
/// (`crate::any`) are each declared by one callback over this list, so that a game added here
/// is in all of them and in [`GameKind::ALL`], and every `match` over them is exhaustive by
/// construction.
macro_rules! for_each_game {
    ($callback:ident $(, $extra:tt)*) => {
        $callback! {
            [$($extra)*]
            /// Kalah(m, n) with its options (`docs/rules/kalah.md`).
            Kalah {
                module: kalah,
                rules: KalahRules,
                position: KalahPosition,
                name: "Kalah",
                article: "a Kalah",
                heads: [],
                forms: ["standard", "manchester", "kalah(m,n)[+option…]"],
                names: ["standard", "manchester"],
            }
            /// Bao la Kete (`docs/rules/bao-la-kete.md`).
            Bao {
                module: bao,
                rules: BaoRules,
                position: BaoPosition,
                name: "Bao la Kete",
                article: "a Bao la Kete",
                heads: ["bao"],
                forms: ["bao-la-kete[+name=value…]"],
                names: ["bao-la-kete"],
            }
            /// Oware (Abapa) and Awari (`docs/rules/oware.md`).
            Oware {
                module: oware,
                rules: OwareRules,
                position: OwarePosition,
                name: "Oware",
                article: "an Oware",
                heads: ["oware", "awari"],
                forms: ["oware|awari|oware-openspiel[(h,s)][+name=value…]"],
                names: ["oware", "awari", "oware-openspiel"],
            }
            /// Togyz Kumalak (Toguz Korgool) and Bestemshe (`docs/rules/togyz-kumalak.md`).
            Togyz {
                module: togyz,
                rules: TogyzRules,
                position: TogyzPosition,
                name: "Togyz Kumalak",
                article: "a Togyz Kumalak",
                heads: ["togyz", "bestemshe"],
                forms: ["togyz-kumalak|togyz-ludii|bestemshe[(h,s)][+name=value…]"],
                names: ["togyz-kumalak", "togyz-ludii", "bestemshe"],
            }
        }
    };
}
pub(crate) use for_each_game;

/// Declares [`GameKind`], [`GameKind::ALL`] and the game's names and rule-set tables from the
/// registry ([`for_each_game!`]), so that `ALL` holds every game by construction: a game added
/// to the registry is in `ALL`, and so in every list the front ends and the tests fold over it.
macro_rules! game_kinds {
    ([$($extra:tt)*] $($(#[doc = $doc:expr])* $variant:ident {
        module: $module:ident,
        rules: $rules:ident,
        position: $position:ident,
        name: $name:literal,
        article: $article:literal,
        heads: [$($head:literal),* $(,)?],
        forms: [$($form:literal),* $(,)?],
        names: [$($rule_set:literal),* $(,)?] $(,)?
    })+) => {
        /// The games of this library. A rule-set text names exactly one of them by its head
        /// ([`GameKind::of_rules`]); `Rules` (`crate::Rules`) then parses it with that game's
        /// parser, so that a malformed Bao rule set gets Bao's message and not Kalah's.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum GameKind {
            $($(#[doc = $doc])* $variant,)+
        }

        impl GameKind {
            /// Every game, in the order of the enum.
            pub const ALL: [GameKind; [$(stringify!($variant)),+].len()] =
                [$(GameKind::$variant),+];

            /// The heads that make a rule-set text one of the game's ([`GameKind::of_rules`]);
            /// none for Kalah, which takes every text no other game's head starts.
            const fn rule_set_heads(self) -> &'static [&'static str] {
                match self {
                    $(GameKind::$variant => &[$($head),*],)+
                }
            }

            /// The game's name as the documents write it: `Kalah`, `Bao la Kete`.
            #[must_use]
            pub const fn name(self) -> &'static str {
                match self {
                    $(GameKind::$variant => $name,)+
                }
            }

            /// The game's name with its indefinite article, for messages: `a Kalah`, `a Bao
            /// la Kete`, `an Oware`.
            #[must_use]
            pub const fn with_article(self) -> &'static str {
                match self {
                    $(GameKind::$variant => $article,)+
                }
            }

            /// The forms of the game's rule-set texts, for messages and help texts
            /// (`standard`, `manchester`, `kalah(m,n)[+option…]`; `bao-la-kete[+name=value…]`):
            /// the message of a text no game's parser accepts lists those of every game.
            #[must_use]
            pub const fn rule_set_forms(self) -> &'static [&'static str] {
                match self {
                    $(GameKind::$variant => &[$($form),*],)+
                }
            }

            /// The named rule sets of the game, which a mistyped rule-set text is compared
            /// with for a suggestion (`did you mean`).
            pub(crate) const fn rule_set_names(self) -> &'static [&'static str] {
                match self {
                    $(GameKind::$variant => &[$($rule_set),*],)+
                }
            }
        }
    };
}

for_each_game!(game_kinds);

impl GameKind {
    /// The game a rule-set text names, from its head after leading white space, in any ASCII
    /// letter case: `bao…` is Bao la Kete; `oware…` and `awari…` are Oware (the named rule
    /// sets `oware`, `oware-openspiel`, `awari`); `togyz…` and `bestemshe…` are Togyz Kumalak;
    /// everything else is read as Kalah (`standard`,
    /// `manchester`, `kalah(m,n)…`, and any text no parser accepts, which Kalah's parser then
    /// refuses with the list of expected forms). Never panics.
    #[must_use]
    pub fn of_rules(text: &str) -> GameKind {
        let head = text.trim_start();
        let starts = |word: &str| {
            head.get(..word.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(word))
        };
        GameKind::ALL
            .into_iter()
            .find(|kind| kind.rule_set_heads().iter().any(|word| starts(word)))
            .unwrap_or(GameKind::Kalah)
    }
}

impl fmt::Display for GameKind {
    /// [`GameKind::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The rule-set forms of every game ([`GameKind::rule_set_forms`]) with the game's name:
/// ``expected `standard`, `manchester` or `kalah(m,n)[+option…]` (Kalah), …, or `…` (Oware)``
/// without the `expected`, for the message of a rule-set text no game's parser accepts.
pub(crate) struct ExpectedForms;

impl fmt::Display for ExpectedForms {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let last_kind = GameKind::ALL.len() - 1;
        for (k, kind) in GameKind::ALL.into_iter().enumerate() {
            if k > 0 {
                f.write_str(if k == last_kind { ", or " } else { ", " })?;
            }
            let forms = kind.rule_set_forms();
            for (i, form) in forms.iter().enumerate() {
                if i > 0 {
                    f.write_str(if i == forms.len() - 1 { " or " } else { ", " })?;
                }
                write!(f, "`{form}`")?;
            }
            write!(f, " ({})", kind.name())?;
        }
        Ok(())
    }
}

/// The message of a text Kalah's parser refuses (`kalah::RulesError::Syntax`). A text that
/// names another game's rule set ([`GameKind::of_rules`]: `oware`, `bestemshe(5,5)`), which
/// reaches Kalah's parser only when Kalah rules alone are asked for, says so and gives
/// Kalah's own forms: ``"`oware` names an Oware rule set, not a Kalah one (expected
/// `standard`, `manchester` or `kalah(m,n)[+option…]`)"``. Any other text is malformed:
/// ``"malformed rule set `kalha(6,4)`: expected …"`` with the forms of every game
/// ([`ExpectedForms`]) and a suggestion ([`DidYouMean`]).
pub(crate) struct KalahSyntax<'a>(pub &'a str);

impl fmt::Display for KalahSyntax<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shown = crate::Shortened(self.0.trim());
        let kind = GameKind::of_rules(self.0);
        if kind == GameKind::Kalah {
            return write!(
                f,
                "malformed rule set `{shown}`: expected {ExpectedForms}{}",
                DidYouMean(self.0)
            );
        }
        write!(
            f,
            "`{shown}` names {} rule set, not a Kalah one (expected ",
            kind.with_article()
        )?;
        let forms = GameKind::Kalah.rule_set_forms();
        for (i, form) in forms.iter().enumerate() {
            if i > 0 {
                f.write_str(if i == forms.len() - 1 { " or " } else { ", " })?;
            }
            write!(f, "`{form}`")?;
        }
        f.write_str(")")
    }
}

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
        let names = || {
            GameKind::ALL
                .into_iter()
                .flat_map(|kind| kind.rule_set_names().iter().copied())
        };
        if head.is_empty() || head.len() > 40 || names().any(|n| n == head) {
            return Ok(());
        }
        let best = names()
            .map(|n| (edit_distance(&head, n), n))
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
        assert_eq!(DidYouMean("awri").to_string(), "; did you mean `awari`?");
        assert_eq!(
            DidYouMean("oware-opensp1el").to_string(),
            "; did you mean `oware-openspiel`?"
        );
        assert_eq!(DidYouMean("kalah(6").to_string(), "");
    }
}

#[cfg(test)]
mod tests {
    use super::GameKind;

    #[test]
    fn all_lists_every_game_once_in_the_order_of_the_enum() {
        assert_eq!(
            GameKind::ALL,
            [
                GameKind::Kalah,
                GameKind::Bao,
                GameKind::Oware,
                GameKind::Togyz
            ]
        );
        assert!(GameKind::ALL.windows(2).all(|w| w[0] < w[1]));
    }

    /// A text no game's parser accepts is refused by Kalah's, with every game's forms.
    #[test]
    fn a_text_of_no_game_lists_the_forms_of_every_game() {
        let e = "kalha(6,4)".parse::<crate::Rules>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "malformed rule set `kalha(6,4)`: expected `standard`, `manchester` or \
             `kalah(m,n)[+option…]` (Kalah), `bao-la-kete[+name=value…]` (Bao la Kete), \
             `oware|awari|oware-openspiel[(h,s)][+name=value…]` (Oware), or \
             `togyz-kumalak|togyz-ludii|bestemshe[(h,s)][+name=value…]` (Togyz Kumalak)"
        );
        let e = "standrd".parse::<crate::Rules>().unwrap_err();
        assert!(
            e.to_string()
                .ends_with("(Togyz Kumalak); did you mean `standard`?"),
            "{e}"
        );
    }

    /// Kalah's parser given another game's rule set (as `mancala bench --file` and
    /// `mancala-mpi` parse theirs) names that game and Kalah's forms; it said the text was
    /// malformed and listed it among the forms expected.
    #[test]
    fn a_kalah_parse_of_another_games_rule_set_names_that_game() {
        use crate::kalah::KalahRules;
        let kalah_forms = "(expected `standard`, `manchester` or `kalah(m,n)[+option…]`)";
        for (text, article) in [
            ("oware", "an Oware"),
            (" Awari+grand_slam=all", "an Oware"),
            ("bestemshe(5,5)", "a Togyz Kumalak"),
            ("togyz-kumalak", "a Togyz Kumalak"),
            ("bao-la-kete", "a Bao la Kete"),
        ] {
            let e = text.parse::<KalahRules>().unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "`{}` names {article} rule set, not a Kalah one {kalah_forms}",
                    text.trim()
                )
            );
        }
        // A text of no game keeps the list of every game's forms.
        let e = "kalha(6,4)".parse::<KalahRules>().unwrap_err();
        assert!(
            e.to_string()
                .starts_with("malformed rule set `kalha(6,4)`: expected `standard`"),
            "{e}"
        );
    }

    /// The default rule set of each game ([`crate::Rules::default_of`]), in the order of
    /// [`GameKind::ALL`].
    #[test]
    fn default_rule_sets() {
        let texts = GameKind::ALL.map(|k| crate::Rules::default_of(k).to_string());
        assert_eq!(texts, ["standard", "bao-la-kete", "oware", "togyz-kumalak"]);
    }

    #[test]
    fn articles() {
        assert_eq!(GameKind::Oware.with_article(), "an Oware");
        assert_eq!(GameKind::Bao.with_article(), "a Bao la Kete");
        assert_eq!(GameKind::Kalah.with_article(), "a Kalah");
        assert_eq!(GameKind::Togyz.with_article(), "a Togyz Kumalak");
    }

    #[test]
    fn the_head_decides_the_game() {
        assert_eq!(GameKind::of_rules("bao-la-kete"), GameKind::Bao);
        assert_eq!(GameKind::of_rules("  BAO"), GameKind::Bao);
        assert_eq!(GameKind::of_rules("Bao-la-kete+x=y"), GameKind::Bao);
        assert_eq!(GameKind::of_rules("ba"), GameKind::Kalah);
        assert_eq!(GameKind::of_rules(" Togyz-Ludii"), GameKind::Togyz);
        assert_eq!(GameKind::of_rules("bestemshe(5,5)"), GameKind::Togyz);
        assert_eq!(GameKind::of_rules(""), GameKind::Kalah);
        assert_eq!(GameKind::of_rules("standard"), GameKind::Kalah);
        // A multi-byte character where the head is cut does not panic.
        assert_eq!(GameKind::of_rules("bé"), GameKind::Kalah);
        assert_eq!(GameKind::of_rules(" OWARE(6,4)"), GameKind::Oware);
        assert_eq!(GameKind::of_rules("awari"), GameKind::Oware);
        assert_eq!(GameKind::of_rules("oware-openspiel"), GameKind::Oware);
        assert_eq!(GameKind::of_rules("owa"), GameKind::Kalah);
    }
}
