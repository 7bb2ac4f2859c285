//! The Togyz Kumalak rules value: board size and the five options of
//! `docs/rules/togyz-kumalak.md` (TK-8), the three named rule sets (TK-7) and the rule-set
//! notation (TK-8.2, TK-8.3).
//!
//! Every option's name and values are written once, in [`TogyzOption::TABLE`]; the parser,
//! the printer and the error messages derive from it.
//!
//! | option | values | `togyz-kumalak` | `togyz-ludii` | `bestemshe` | rule |
//! |---|---|---|---|---|---|
//! | `tuzdyk` | `on`, `off` | `on` | `on` | `off` | TK-4.1 |
//! | `tuzdyk_last` | `forbidden`, `allowed` | `forbidden` | `allowed` | `forbidden` | TK-4.1 (3) |
//! | `majority` | `stop`, `off` | `stop` | `off` | `stop` | TK-6.2 |
//! | `empty_row` | `on_turn`, `after_move` | `on_turn` | `after_move` | `on_turn` | TK-6.1 |
//! | `move_limit` | `1` … `65535`, `off` | `off` | `off` | `off` | TK-6.4 |
//!
//! Board sizes: `togyz-kumalak` and `togyz-ludii` are (9,9), `bestemshe` (5,5).

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

/// Largest number of houses a side (TK-8.1).
pub const MAX_HOUSES: u8 = 9;

/// Largest number of kumalaks in a game (TK-8.1: 2·h·s ≤ 255), so that every house and kazan
/// count fits a byte.
pub const MAX_TOTAL_KUMALAKS: u32 = 255;

/// One option of the rule-set notation (`+name=value`, TK-8.2), in the grammar's order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TogyzOption {
    /// `tuzdyk`: `on` (tuzdyks are made, TK-4.1) or `off` (never).
    Tuzdyk,
    /// `tuzdyk_last`: whether the opponent's house h may become a tuzdyk (TK-4.1 (3)).
    TuzdykLast,
    /// `majority`: whether more than half the kumalaks in a kazan ends the game (TK-6.2).
    Majority,
    /// `empty_row`: which empty row ends the game (TK-6.1).
    EmptyRow,
    /// `move_limit`: the plies after which the game ends, 1..=65535, or `off` (TK-6.4).
    MoveLimit,
}

/// One row of [`TogyzOption::TABLE`]: everything the notation knows about an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TogyzOptionInfo {
    /// The option this row describes.
    pub option: TogyzOption,
    /// Its name in the notation; parsed in any ASCII case, printed as written here.
    pub name: &'static str,
    /// Its word values; word i of a word option is the value of index i (for `move_limit`
    /// the one word is `off`).
    pub words: &'static [&'static str],
    /// The numbers it takes besides its words, `(least, most)` inclusive, if any.
    pub numbers: Option<(u32, u32)>,
    /// The rule id of `docs/rules/togyz-kumalak.md` the option chooses a reading of.
    pub rule: &'static str,
}

const OFF: &str = "off";

impl TogyzOption {
    /// Every option, in the grammar's order, which is the printing order (TK-8.2, TK-8.3).
    pub const ALL: [TogyzOption; 5] = [
        TogyzOption::Tuzdyk,
        TogyzOption::TuzdykLast,
        TogyzOption::Majority,
        TogyzOption::EmptyRow,
        TogyzOption::MoveLimit,
    ];

    /// The option table, row i describing `ALL[i]`: the one place the names and values are
    /// written down.
    pub const TABLE: [TogyzOptionInfo; 5] = [
        TogyzOptionInfo {
            option: TogyzOption::Tuzdyk,
            name: "tuzdyk",
            words: &["on", OFF],
            numbers: None,
            rule: "TK-4.1",
        },
        TogyzOptionInfo {
            option: TogyzOption::TuzdykLast,
            name: "tuzdyk_last",
            words: &["forbidden", "allowed"],
            numbers: None,
            rule: "TK-4.1",
        },
        TogyzOptionInfo {
            option: TogyzOption::Majority,
            name: "majority",
            words: &["stop", OFF],
            numbers: None,
            rule: "TK-6.2",
        },
        TogyzOptionInfo {
            option: TogyzOption::EmptyRow,
            name: "empty_row",
            words: &["on_turn", "after_move"],
            numbers: None,
            rule: "TK-6.1",
        },
        TogyzOptionInfo {
            option: TogyzOption::MoveLimit,
            name: "move_limit",
            words: &[OFF],
            numbers: Some((1, 65535)),
            rule: "TK-6.4",
        },
    ];

    /// The option's row of [`TogyzOption::TABLE`].
    #[must_use]
    pub const fn info(self) -> &'static TogyzOptionInfo {
        &TogyzOption::TABLE[self as usize]
    }

    /// The option's name in the notation (`tuzdyk`, …).
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// Looks an option up by name, in any ASCII case.
    #[must_use]
    pub fn from_name(name: &str) -> Option<TogyzOption> {
        TogyzOption::TABLE
            .iter()
            .find(|row| row.name.eq_ignore_ascii_case(name))
            .map(|row| row.option)
    }
}

/// The values an option accepts, for messages (`on, off` or `1..=65535, off`).
struct Accepted(TogyzOption);

impl fmt::Display for Accepted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let info = self.0.info();
        let mut first = true;
        if let Some((lo, hi)) = info.numbers {
            write!(f, "{lo}..={hi}")?;
            first = false;
        }
        for w in info.words {
            if !first {
                f.write_str(", ")?;
            }
            f.write_str(w)?;
            first = false;
        }
        Ok(())
    }
}

/// The three named rule sets of TK-7, the heads of the notation, in the order printing
/// breaks ties (TK-8.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TogyzRuleSet {
    /// `togyz-kumalak` (default): the federation's rules (TK-7.1).
    TogyzKumalak,
    /// `bestemshe`: PlayStrategy's 5 × 5 beginners' game without tuzdyks (TK-7.3).
    Bestemshe,
    /// `togyz-ludii`: Ludii's Toguz Kumalak after Pantusov 1906 (TK-7.2).
    TogyzLudii,
}

impl TogyzRuleSet {
    /// Every named set, in the order printing breaks ties (TK-8.3).
    pub const ALL: [TogyzRuleSet; 3] = [
        TogyzRuleSet::TogyzKumalak,
        TogyzRuleSet::Bestemshe,
        TogyzRuleSet::TogyzLudii,
    ];

    /// The head's name in the notation.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            TogyzRuleSet::TogyzKumalak => "togyz-kumalak",
            TogyzRuleSet::Bestemshe => "bestemshe",
            TogyzRuleSet::TogyzLudii => "togyz-ludii",
        }
    }

    /// The named set's rules, its board size included (TK-7).
    #[must_use]
    pub const fn rules(self) -> TogyzRules {
        match self {
            TogyzRuleSet::TogyzKumalak => TogyzRules::TOGYZ_KUMALAK,
            TogyzRuleSet::Bestemshe => TogyzRules::BESTEMSHE,
            TogyzRuleSet::TogyzLudii => TogyzRules::TOGYZ_LUDII,
        }
    }

    /// Looks a head up by name, in any ASCII case.
    #[must_use]
    pub fn from_name(name: &str) -> Option<TogyzRuleSet> {
        TogyzRuleSet::ALL
            .into_iter()
            .find(|h| h.name().eq_ignore_ascii_case(name))
    }
}

/// The names of every head or every option, comma-separated, for messages.
struct Known(bool);

impl fmt::Display for Known {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: &mut dyn Iterator<Item = &str> = if self.0 {
            &mut TogyzRuleSet::ALL.iter().map(|h| h.name())
        } else {
            &mut TogyzOption::TABLE.iter().map(|r| r.name)
        };
        for (i, n) in names.enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(n)?;
        }
        Ok(())
    }
}

/// Why a rules value or rule-set text was refused; every message is one line and lists what
/// is accepted.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The text does not have the shape `head[(h,s)][+name=value…]` (TK-8.2).
    #[error(
        "malformed rule set `{}`: expected `togyz-kumalak|togyz-ludii|bestemshe[(h,s)][+name=value…]`",
        crate::Shortened(.0)
    )]
    Syntax(String),
    /// A head that is not one of the named rule sets.
    #[error("unknown rule set `{}` (accepted: {})", crate::Shortened(.0), Known(true))]
    UnknownHead(String),
    /// Houses a side outside 1..=9 (TK-8.1).
    #[error("houses per side must be 1..=9, got {0}")]
    Houses(u32),
    /// Kumalaks a house 0 (TK-8.1).
    #[error("kumalaks per house must be at least 1, got {0}")]
    Kumalaks(u32),
    /// 2·h·s over 255 kumalaks (TK-8.1).
    #[error("({houses},{kumalaks}) has 2·{houses}·{kumalaks} = {total} kumalaks; at most 255 fit the board")]
    TooManyKumalaks {
        /// Houses a side.
        houses: u32,
        /// Kumalaks a house.
        kumalaks: u32,
        /// 2·houses·kumalaks.
        total: u32,
    },
    /// An option name TK-8.2 does not list.
    #[error("unknown rule option `{}` (accepted: {})", crate::Shortened(.0), Known(false))]
    UnknownOption(String),
    /// The same option given twice.
    #[error("rule option `{}` given twice", .0.name())]
    DuplicateOption(TogyzOption),
    /// An option without `=value`.
    #[error("rule option `{}` needs a value: `+{}=value` (accepted: {})", .0.name(), .0.name(), Accepted(*.0))]
    MissingValue(TogyzOption),
    /// A value the option does not accept.
    #[error("bad value `{}` for rule option `{}` (accepted: {})", crate::Shortened(value), option.name(), Accepted(*option))]
    BadValue {
        /// The option.
        option: TogyzOption,
        /// The value found (its first 100 characters).
        value: String,
    },
}

/// The rules of one Togyz Kumalak game: `h` houses a side, `s` kumalaks a house at the start,
/// and the five options of TK-8. Validated on construction (1 ≤ h ≤ 9, s ≥ 1, 2·h·s ≤ 255),
/// so a value always describes a playable game.
///
/// [`TogyzRules::default`] is `togyz-kumalak` (TK-7.1). Notation (`Display`/`FromStr`,
/// TK-8.2, TK-8.3): `togyz-kumalak`, `bestemshe`, `togyz-ludii`, `togyz-kumalak(7,7)`,
/// `togyz-kumalak+move_limit=300`.
///
/// ```
/// use mancala_core::togyz::TogyzRules;
/// let r: TogyzRules = "togyz-kumalak(5,5)+tuzdyk=off".parse().unwrap();
/// assert_eq!(r.to_string(), "bestemshe");
/// assert_eq!(r.total_kumalaks(), 50);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TogyzRules {
    houses: u8,
    kumalaks: u8,
    /// The word index of each word option, in [`TogyzOption::ALL`] order (the first four).
    words: [u8; 4],
    /// 0 = off, else 1..=65535.
    move_limit: u16,
}

impl Default for TogyzRules {
    /// `togyz-kumalak` (TK-7.1).
    fn default() -> Self {
        TogyzRules::TOGYZ_KUMALAK
    }
}

impl TogyzRules {
    /// `togyz-kumalak` (TK-7.1): (9,9), `tuzdyk=on`, `tuzdyk_last=forbidden`,
    /// `majority=stop`, `empty_row=on_turn`, `move_limit=off`.
    pub const TOGYZ_KUMALAK: TogyzRules = TogyzRules {
        houses: 9,
        kumalaks: 9,
        words: [0, 0, 0, 0],
        move_limit: 0,
    };

    /// `togyz-ludii` (TK-7.2): (9,9), `tuzdyk=on`, `tuzdyk_last=allowed`, `majority=off`,
    /// `empty_row=after_move`, `move_limit=off`.
    pub const TOGYZ_LUDII: TogyzRules = TogyzRules {
        houses: 9,
        kumalaks: 9,
        words: [0, 1, 1, 1],
        move_limit: 0,
    };

    /// `bestemshe` (TK-7.3): (5,5), `tuzdyk=off`, otherwise as `togyz-kumalak`.
    pub const BESTEMSHE: TogyzRules = TogyzRules {
        houses: 5,
        kumalaks: 5,
        words: [1, 0, 0, 0],
        move_limit: 0,
    };

    /// The options of `togyz-kumalak` on a board of `houses` houses a side and `kumalaks`
    /// kumalaks a house.
    ///
    /// # Errors
    /// [`RulesError::Houses`] for h outside 1..=9, [`RulesError::Kumalaks`] for s = 0,
    /// [`RulesError::TooManyKumalaks`] when 2·h·s > 255 (TK-8.1).
    pub fn new(houses: u32, kumalaks: u32) -> Result<TogyzRules, RulesError> {
        TogyzRules::TOGYZ_KUMALAK.with_size(houses, kumalaks)
    }

    /// The same options on another board size.
    ///
    /// # Errors
    /// As [`TogyzRules::new`].
    pub fn with_size(self, houses: u32, kumalaks: u32) -> Result<TogyzRules, RulesError> {
        if !(1..=u32::from(MAX_HOUSES)).contains(&houses) {
            return Err(RulesError::Houses(houses));
        }
        if kumalaks == 0 {
            return Err(RulesError::Kumalaks(kumalaks));
        }
        let total = 2 * u64::from(houses) * u64::from(kumalaks);
        if total > u64::from(MAX_TOTAL_KUMALAKS) {
            return Err(RulesError::TooManyKumalaks {
                houses,
                kumalaks,
                total: u32::try_from(total).unwrap_or(u32::MAX),
            });
        }
        Ok(TogyzRules {
            houses: houses as u8,
            kumalaks: kumalaks as u8,
            ..self
        })
    }

    /// Houses a side, h (1..=9).
    #[inline]
    #[must_use]
    pub const fn houses(self) -> u8 {
        self.houses
    }

    /// Kumalaks a house at the start, s.
    #[inline]
    #[must_use]
    pub const fn kumalaks(self) -> u8 {
        self.kumalaks
    }

    /// Kumalaks of the start position, 2·h·s (TK-1.2).
    #[inline]
    #[must_use]
    pub const fn total_kumalaks(self) -> u32 {
        2 * self.houses as u32 * self.kumalaks as u32
    }

    /// Whether tuzdyks are made (`tuzdyk=on`, TK-4.1 (1)).
    #[inline]
    #[must_use]
    pub const fn tuzdyk(self) -> bool {
        self.words[0] == 0
    }

    /// Whether the opponent's house h may become a tuzdyk (`tuzdyk_last=allowed`,
    /// TK-4.1 (3)).
    #[inline]
    #[must_use]
    pub const fn tuzdyk_last_allowed(self) -> bool {
        self.words[1] == 1
    }

    /// Whether a kazan holding more than half the kumalaks (or both half) ends the game
    /// (`majority=stop`, TK-6.2).
    #[inline]
    #[must_use]
    pub const fn majority_stops(self) -> bool {
        self.words[2] == 0
    }

    /// Whether the game also ends when the player who has just moved has an empty row
    /// (`empty_row=after_move`, TK-6.1).
    #[inline]
    #[must_use]
    pub const fn empty_row_after_move(self) -> bool {
        self.words[3] == 1
    }

    /// The plies (1..=65535) after which the game ends, or `None` (TK-6.4).
    #[inline]
    #[must_use]
    pub const fn move_limit(self) -> Option<u16> {
        if self.move_limit == 0 {
            None
        } else {
            Some(self.move_limit)
        }
    }

    /// The same rules with `option` set to the value `text` (one of its words in any ASCII
    /// case, or a decimal number of at most six digits in its range, white space around it
    /// ignored).
    ///
    /// # Errors
    /// [`RulesError::BadValue`] when the option does not accept `text`.
    pub fn with_option(self, option: TogyzOption, text: &str) -> Result<TogyzRules, RulesError> {
        let info = option.info();
        let t = text.trim();
        let bad = || RulesError::BadValue {
            option,
            value: t.chars().take(100).collect(),
        };
        let word = info.words.iter().position(|w| w.eq_ignore_ascii_case(t));
        let mut rules = self;
        match (option, word) {
            (TogyzOption::MoveLimit, Some(_)) => rules.move_limit = 0,
            (TogyzOption::MoveLimit, None) => {
                let (lo, hi) = info.numbers.unwrap_or((1, 65535));
                match parse_number(t) {
                    Some(n) if (lo..=hi).contains(&n) => rules.move_limit = n as u16,
                    _ => return Err(bad()),
                }
            }
            (_, Some(i)) => rules.words[option as usize] = i as u8,
            (_, None) => return Err(bad()),
        }
        Ok(rules)
    }

    /// The value of `option` as the notation writes it (`on`, `after_move`, `300`, …).
    #[must_use]
    pub fn value(self, option: TogyzOption) -> OptionText {
        match option {
            TogyzOption::MoveLimit => match self.move_limit {
                0 => OptionText::Word(OFF),
                n => OptionText::Number(n),
            },
            _ => OptionText::Word(option.info().words[usize::from(self.words[option as usize])]),
        }
    }

    /// The named rule set whose defaults leave the fewest items to print (TK-8.3; the size
    /// is one item when it differs), ties broken in [`TogyzRuleSet::ALL`] order.
    #[must_use]
    pub fn nearest_rule_set(self) -> TogyzRuleSet {
        let items = |head: TogyzRuleSet| {
            let base = head.rules();
            let size = usize::from((base.houses, base.kumalaks) != (self.houses, self.kumalaks));
            size + TogyzOption::ALL
                .iter()
                .filter(|&&o| base.value(o) != self.value(o))
                .count()
        };
        let mut best = TogyzRuleSet::ALL[0];
        for head in TogyzRuleSet::ALL {
            if items(head) < items(best) {
                best = head;
            }
        }
        best
    }
}

/// The value of an option as the notation writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionText {
    /// A word, as written in [`TogyzOptionInfo::words`].
    Word(&'static str),
    /// A number (`move_limit`).
    Number(u16),
}

impl fmt::Display for OptionText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionText::Word(w) => f.write_str(w),
            OptionText::Number(n) => write!(f, "{n}"),
        }
    }
}

/// A decimal number of one to six ASCII digits, white space around it ignored.
fn parse_number(text: &str) -> Option<u32> {
    let t = text.trim();
    if t.is_empty() || t.len() > 6 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

impl fmt::Display for TogyzRules {
    /// The shortest form of TK-8.3: the nearest head, the size if it differs from the head's,
    /// then each option that differs, in the grammar's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = self.nearest_rule_set();
        let base = head.rules();
        f.write_str(head.name())?;
        if (base.houses, base.kumalaks) != (self.houses, self.kumalaks) {
            write!(f, "({},{})", self.houses, self.kumalaks)?;
        }
        for option in TogyzOption::ALL {
            let value = self.value(option);
            if value != base.value(option) {
                write!(f, "+{}={}", option.name(), value)?;
            }
        }
        Ok(())
    }
}

impl FromStr for TogyzRules {
    type Err = RulesError;

    /// Parses the rule-set notation of TK-8.2: `head[(h,s)]{+name=value}`, keywords in any
    /// ASCII case, white space around numbers, parts, `=` and the whole text ignored, each
    /// option at most once. Never panics.
    ///
    /// # Errors
    /// A [`RulesError`] naming the bad part.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let text = s.trim();
        let syntax = || RulesError::Syntax(text.chars().take(200).collect());
        let mut parts = text.split('+');
        let head_part = parts.next().unwrap_or("").trim();
        let (name, size) = match head_part.find('(') {
            None => (head_part, None),
            Some(open) => {
                let inner = head_part[open + 1..].strip_suffix(')').ok_or_else(syntax)?;
                let (h, k) = inner.split_once(',').ok_or_else(syntax)?;
                let h = parse_number(h).ok_or_else(syntax)?;
                let k = parse_number(k).ok_or_else(syntax)?;
                (head_part[..open].trim_end(), Some((h, k)))
            }
        };
        if name.is_empty() || name.contains(|c: char| c.is_whitespace() || c == ')' || c == ',') {
            return Err(syntax());
        }
        let head =
            TogyzRuleSet::from_name(name).ok_or_else(|| RulesError::UnknownHead(name.into()))?;
        let mut rules = head.rules();
        if let Some((h, k)) = size {
            rules = rules.with_size(h, k)?;
        }
        let mut seen = [false; 5];
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                return Err(syntax());
            }
            let (key, value) = match part.split_once('=') {
                Some((k, v)) => (k.trim(), Some(v)),
                None => (part, None),
            };
            let option = TogyzOption::from_name(key)
                .ok_or_else(|| RulesError::UnknownOption(key.chars().take(100).collect()))?;
            if std::mem::replace(&mut seen[option as usize], true) {
                return Err(RulesError::DuplicateOption(option));
            }
            let value = value.ok_or(RulesError::MissingValue(option))?;
            rules = rules.with_option(option, value)?;
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(text: &str) -> TogyzRules {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    /// The printing examples of TK-8.3.
    #[test]
    fn printing_picks_the_nearest_head() {
        for (text, printed) in [
            (
                "togyz-kumalak+tuzdyk_last=allowed+majority=off+empty_row=after_move",
                "togyz-ludii",
            ),
            ("togyz-kumalak(5,5)+tuzdyk=off", "bestemshe"),
            ("bestemshe+tuzdyk=on", "togyz-kumalak(5,5)"),
            (
                "TOGYZ-KUMALAK + Majority = OFF",
                "togyz-kumalak+majority=off",
            ),
            ("  togyz-kumalak ( 9 , 9 ) ", "togyz-kumalak"),
            (
                "togyz-ludii+move_limit=000300",
                "togyz-ludii+move_limit=300",
            ),
            ("bestemshe(9,9)", "togyz-kumalak+tuzdyk=off"),
            ("togyz-kumalak+move_limit=off", "togyz-kumalak"),
        ] {
            assert_eq!(r(text).to_string(), printed, "{text}");
            assert_eq!(r(printed), r(text), "{printed} reads back");
        }
    }

    /// The named sets of TK-7, as the table in the rules page gives them.
    #[test]
    fn named_rule_sets_have_their_options() {
        let k = TogyzRules::default();
        assert_eq!((k.houses(), k.kumalaks(), k.total_kumalaks()), (9, 9, 162));
        assert!(k.tuzdyk() && !k.tuzdyk_last_allowed() && k.majority_stops());
        assert!(!k.empty_row_after_move() && k.move_limit().is_none());
        let l = r("togyz-ludii");
        assert!(l.tuzdyk() && l.tuzdyk_last_allowed() && !l.majority_stops());
        assert!(l.empty_row_after_move());
        let b = r("bestemshe");
        assert_eq!((b.houses(), b.kumalaks()), (5, 5));
        assert!(!b.tuzdyk() && b.majority_stops() && !b.empty_row_after_move());
    }

    #[test]
    fn refusals_name_the_bad_part() {
        for (text, want) in [
            ("", RulesError::Syntax(String::new())),
            ("togyz", RulesError::UnknownHead("togyz".into())),
            ("togyz-kumalak(10,9)", RulesError::Houses(10)),
            ("togyz-kumalak(9,0)", RulesError::Kumalaks(0)),
            (
                "togyz-kumalak(9,15)",
                RulesError::TooManyKumalaks {
                    houses: 9,
                    kumalaks: 15,
                    total: 270,
                },
            ),
            (
                "togyz-kumalak+tuz=on",
                RulesError::UnknownOption("tuz".into()),
            ),
            (
                "togyz-kumalak+tuzdyk=on+tuzdyk=off",
                RulesError::DuplicateOption(TogyzOption::Tuzdyk),
            ),
            (
                "togyz-kumalak+majority",
                RulesError::MissingValue(TogyzOption::Majority),
            ),
            (
                "togyz-kumalak+move_limit=0",
                RulesError::BadValue {
                    option: TogyzOption::MoveLimit,
                    value: "0".into(),
                },
            ),
            (
                "togyz-kumalak+majority=collect",
                RulesError::BadValue {
                    option: TogyzOption::Majority,
                    value: "collect".into(),
                },
            ),
            (
                "togyz-kumalak+",
                RulesError::Syntax("togyz-kumalak+".into()),
            ),
            (
                "togyz-kumalak(9,9",
                RulesError::Syntax("togyz-kumalak(9,9".into()),
            ),
            (
                "togyz-kumalak(9,1234567)",
                RulesError::Syntax("togyz-kumalak(9,1234567)".into()),
            ),
        ] {
            assert_eq!(text.parse::<TogyzRules>(), Err(want), "{text}");
        }
        let message = "togyz-kumalak+majority=x"
            .parse::<TogyzRules>()
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            "bad value `x` for rule option `majority` (accepted: stop, off)"
        );
        let message = "togyz-kumalak+move_limit=x"
            .parse::<TogyzRules>()
            .unwrap_err()
            .to_string();
        assert!(message.ends_with("(accepted: 1..=65535, off)"), "{message}");
    }

    /// Every combination of the word options and a few sizes reads back from its printed
    /// form as the same rules (TK-8.3: equality is size plus the five options).
    #[test]
    fn every_option_combination_round_trips() {
        for bits in 0..16u32 {
            for (h, s) in [(9, 9), (5, 5), (1, 1), (7, 18), (9, 14)] {
                let mut rules = TogyzRules::new(h, s).unwrap();
                for (i, option) in TogyzOption::ALL[..4].iter().enumerate() {
                    let word = option.info().words[(bits >> i & 1) as usize];
                    rules = rules.with_option(*option, word).unwrap();
                }
                for limit in ["off", "1", "65535"] {
                    let rules = rules.with_option(TogyzOption::MoveLimit, limit).unwrap();
                    assert_eq!(r(&rules.to_string()), rules, "{rules}");
                }
            }
        }
    }
}
