//! [`GameKind`]: which game a rule-set text names, decided in one place for every front end.

use core::fmt;

/// The games of this library. A rule-set text names exactly one of them by its head
/// ([`GameKind::of_rules`]); `Rules` (`crate::Rules`) then parses it with that game's parser,
/// so that a malformed Bao rule set gets Bao's message and not Kalah's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum GameKind {
    /// Kalah(m, n) with its options (`docs/rules/kalah.md`).
    Kalah,
    /// Bao la Kete (`docs/rules/bao-la-kete.md`).
    Bao,
    /// Oware (Abapa) and Awari (`docs/rules/oware.md`).
    Oware,
}

impl GameKind {
    /// Every game, in the order of the enum.
    pub const ALL: [GameKind; 3] = [GameKind::Kalah, GameKind::Bao, GameKind::Oware];

    /// The game a rule-set text names, from its head after leading white space, in any ASCII
    /// letter case: `bao…` is Bao la Kete; `oware…` and `awari…` are Oware (the named rule
    /// sets `oware`, `oware-openspiel`, `awari`); everything else is read as Kalah (`standard`,
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

    /// The heads that make a rule-set text one of the game's ([`GameKind::of_rules`]); none
    /// for Kalah, which takes every text no other game's head starts.
    const fn rule_set_heads(self) -> &'static [&'static str] {
        match self {
            GameKind::Kalah => &[],
            GameKind::Bao => &["bao"],
            GameKind::Oware => &["oware", "awari"],
        }
    }

    /// The game's name as the documents write it: `Kalah`, `Bao la Kete`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            GameKind::Kalah => "Kalah",
            GameKind::Bao => "Bao la Kete",
            GameKind::Oware => "Oware",
        }
    }

    /// The game's name with its indefinite article, for messages: `a Kalah`, `a Bao la Kete`,
    /// `an Oware`.
    #[must_use]
    pub const fn with_article(self) -> &'static str {
        match self {
            GameKind::Kalah => "a Kalah",
            GameKind::Bao => "a Bao la Kete",
            GameKind::Oware => "an Oware",
        }
    }

    /// The forms of the game's rule-set texts, for messages and help texts (`standard`,
    /// `manchester`, `kalah(m,n)[+option…]`; `bao-la-kete[+name=value…]`): the message of a
    /// text no game's parser accepts lists those of every game.
    #[must_use]
    pub const fn rule_set_forms(self) -> &'static [&'static str] {
        match self {
            GameKind::Kalah => &["standard", "manchester", "kalah(m,n)[+option…]"],
            GameKind::Bao => &["bao-la-kete[+name=value…]"],
            GameKind::Oware => &["oware|awari|oware-openspiel[(h,s)][+name=value…]"],
        }
    }

    /// The named rule sets of the game, which a mistyped rule-set text is compared with for
    /// a suggestion (`did you mean`).
    pub(crate) const fn rule_set_names(self) -> &'static [&'static str] {
        match self {
            GameKind::Kalah => &["standard", "manchester"],
            GameKind::Bao => &["bao-la-kete"],
            GameKind::Oware => &["oware", "awari", "oware-openspiel"],
        }
    }
}

impl fmt::Display for GameKind {
    /// [`GameKind::name`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::GameKind;

    #[test]
    fn articles() {
        assert_eq!(GameKind::Oware.with_article(), "an Oware");
        assert_eq!(GameKind::Bao.with_article(), "a Bao la Kete");
        assert_eq!(GameKind::Kalah.with_article(), "a Kalah");
    }

    #[test]
    fn the_head_decides_the_game() {
        assert_eq!(GameKind::of_rules("bao-la-kete"), GameKind::Bao);
        assert_eq!(GameKind::of_rules("  BAO"), GameKind::Bao);
        assert_eq!(GameKind::of_rules("Bao-la-kete+x=y"), GameKind::Bao);
        assert_eq!(GameKind::of_rules("ba"), GameKind::Kalah);
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
