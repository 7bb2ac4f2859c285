//! The Oware rules value: board size and the five options of `docs/rules/oware.md` (OW-8),
//! the three named rule sets (OW-7) and the rule-set notation (OW-8.2, OW-8.3).
//!
//! Every option's name and values are written once, in [`OwareOption::TABLE`]; the parser,
//! the printer, the error messages and the tests derive from it.
//!
//! | option | values | `oware` | `awari` | `oware-openspiel` | rule |
//! |---|---|---|---|---|---|
//! | `grand_slam` | `none`, `all`, `forbidden`, `leave_last`, `unless_only` | `none` | `unless_only` | `none` | OW-4.2, OW-5.3 |
//! | `majority` | `stop`, `collect`, `off` | `stop` | `off` | `collect` | OW-6.1 |
//! | `repetition` | `2` … `9`, `off` | `3` | `3` | `2` | OW-6.2 |
//! | `cycle_score` | `own_row`, `split` | `own_row` | `split` | `own_row` | OW-6.2 |
//! | `move_limit` | `1` … `65535`, `off` | `off` | `off` | `1000` | OW-6.4 |

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

/// Largest number of houses per side (OW-8.1): each row fits the eight 8-bit lanes of a `u64`.
pub const MAX_HOUSES: u8 = 8;

/// Largest number of seeds in a game (OW-8.1: 2·h·s ≤ 255; every 8-bit lane must be able to
/// hold every seed of the game).
pub const MAX_TOTAL_SEEDS: u32 = 255;

/// What a grand slam does (option `grand_slam`, OW-4.2). A grand slam is a move whose capture
/// chain would take every seed in the opponent's row (OW-4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum GrandSlam {
    /// `none`: legal, nothing is captured, the seeds stay on the board (Abapa, OpenSpiel).
    None,
    /// `all`: legal, the whole chain is captured.
    All,
    /// `forbidden`: illegal; a mover whose every otherwise legal move is a grand slam has no
    /// legal move (OW-6.3).
    Forbidden,
    /// `leave_last`: legal, the chain is captured except its last house, the opponent's
    /// house 1, whose seeds stay.
    LeaveLast,
    /// `unless_only`: a move that leaves the opponent's row empty is illegal unless every move
    /// of the mover does so; a grand slam captures the whole chain (OW-5.3, the Awari rules).
    UnlessOnly,
}

impl GrandSlam {
    /// Every value, in the order of the notation's grammar (OW-8.2).
    pub const ALL: [GrandSlam; 5] = [
        GrandSlam::None,
        GrandSlam::All,
        GrandSlam::Forbidden,
        GrandSlam::LeaveLast,
        GrandSlam::UnlessOnly,
    ];

    /// The value's word in the rule-set notation (`none`, …), from [`OwareOption::TABLE`].
    #[must_use]
    pub const fn name(self) -> &'static str {
        OwareOption::GrandSlam.info().words[self as usize]
    }
}

/// What happens when a player has captured more than half the seeds, or both exactly half
/// (option `majority`, OW-6.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Majority {
    /// `stop`: the game is over; the seeds left in houses count for nobody (Abapa).
    Stop,
    /// `collect`: the game is over; each player adds the seeds of his row to his store
    /// (OpenSpiel).
    Collect,
    /// `off`: no majority end; play goes on until another end (the Awari databases).
    Off,
}

impl Majority {
    /// Every value, in the order of the notation's grammar (OW-8.2).
    pub const ALL: [Majority; 3] = [Majority::Stop, Majority::Collect, Majority::Off];

    /// The value's word in the rule-set notation (`stop`, …), from [`OwareOption::TABLE`].
    #[must_use]
    pub const fn name(self) -> &'static str {
        OwareOption::Majority.info().words[self as usize]
    }
}

/// How the seeds left on the board are allotted when a repetition ends the game (option
/// `cycle_score`, OW-6.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum CycleScore {
    /// `own_row`: each player takes the seeds in his row (Abapa, OpenSpiel, Ludii).
    OwnRow,
    /// `split`: each player is credited with half the seeds left, possibly a half seed each;
    /// the seeds stay in the houses of the finished position (Awari, OW-9.4).
    Split,
}

impl CycleScore {
    /// Every value, in the order of the notation's grammar (OW-8.2).
    pub const ALL: [CycleScore; 2] = [CycleScore::OwnRow, CycleScore::Split];

    /// The value's word in the rule-set notation (`own_row`, `split`), from
    /// [`OwareOption::TABLE`].
    #[must_use]
    pub const fn name(self) -> &'static str {
        OwareOption::CycleScore.info().words[self as usize]
    }
}

/// One option of the Oware rule-set notation (`+name=value`, OW-8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OwareOption {
    /// `grand_slam`: [`GrandSlam`] (OW-4.2).
    GrandSlam,
    /// `majority`: [`Majority`] (OW-6.1).
    Majority,
    /// `repetition`: the occurrence of a position that ends the game, 2..=9, or `off`
    /// (OW-6.2).
    Repetition,
    /// `cycle_score`: [`CycleScore`] (OW-6.2).
    CycleScore,
    /// `move_limit`: the plies after which the game ends, 1..=65535, or `off` (OW-6.4).
    MoveLimit,
}

/// One row of the option table ([`OwareOption::TABLE`]): everything the notation knows about
/// an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OwareOptionInfo {
    /// The option this row describes.
    pub option: OwareOption,
    /// Its name in the rule-set notation; parsed in any ASCII case, printed as written here.
    pub name: &'static str,
    /// The option's word values, parsed in any ASCII case and printed as written here. For
    /// `grand_slam`, `majority` and `cycle_score` word i is the value whose discriminant is i
    /// ([`GrandSlam::ALL`], …); for `repetition` and `move_limit` the one word is `off`.
    pub words: &'static [&'static str],
    /// The decimal numbers the option accepts besides its words, `(least, most)` inclusive;
    /// `None` when it takes words only.
    pub numbers: Option<(u32, u32)>,
    /// The rule id of `docs/rules/oware.md` that the option chooses a reading of.
    pub rule: &'static str,
}

impl OwareOptionInfo {
    /// The accepted values written out for messages: the numbers first when there are any
    /// (`2..=9, off`), else the words (`stop, collect, off`).
    #[must_use]
    pub const fn accepted(&'static self) -> AcceptedValues {
        AcceptedValues(self)
    }
}

/// The values an option accepts, as text for error messages (`none, all, forbidden,
/// leave_last, unless_only` or `2..=9, off`), from [`OwareOption::TABLE`].
#[derive(Clone, Copy, Debug)]
pub struct AcceptedValues(&'static OwareOptionInfo);

impl fmt::Display for AcceptedValues {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut first = true;
        if let Some((lo, hi)) = self.0.numbers {
            write!(f, "{lo}..={hi}")?;
            first = false;
        }
        for w in self.0.words {
            if !first {
                f.write_str(", ")?;
            }
            f.write_str(w)?;
            first = false;
        }
        Ok(())
    }
}

/// A value of an option: one of its words or a number (see [`OwareOptionInfo`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OptionValue {
    /// A word value, as written in [`OwareOptionInfo::words`] (lower case).
    Word(&'static str),
    /// A number value within [`OwareOptionInfo::numbers`].
    Number(u32),
}

impl fmt::Display for OptionValue {
    /// The value as the notation prints it: the word, or the number in decimal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Word(w) => f.write_str(w),
            OptionValue::Number(n) => write!(f, "{n}"),
        }
    }
}

const OFF: &str = "off";

impl OwareOption {
    /// Every option, in the order of the grammar (OW-8.2), which is the printing order.
    pub const ALL: [OwareOption; 5] = [
        OwareOption::GrandSlam,
        OwareOption::Majority,
        OwareOption::Repetition,
        OwareOption::CycleScore,
        OwareOption::MoveLimit,
    ];

    /// The option table: one row per option, row i describing `ALL[i]`. The one place an
    /// option's name and values are written down.
    pub const TABLE: [OwareOptionInfo; 5] = [
        OwareOptionInfo {
            option: OwareOption::GrandSlam,
            name: "grand_slam",
            words: &["none", "all", "forbidden", "leave_last", "unless_only"],
            numbers: None,
            rule: "OW-4.2",
        },
        OwareOptionInfo {
            option: OwareOption::Majority,
            name: "majority",
            words: &["stop", "collect", OFF],
            numbers: None,
            rule: "OW-6.1",
        },
        OwareOptionInfo {
            option: OwareOption::Repetition,
            name: "repetition",
            words: &[OFF],
            numbers: Some((2, 9)),
            rule: "OW-6.2",
        },
        OwareOptionInfo {
            option: OwareOption::CycleScore,
            name: "cycle_score",
            words: &["own_row", "split"],
            numbers: None,
            rule: "OW-6.2",
        },
        OwareOptionInfo {
            option: OwareOption::MoveLimit,
            name: "move_limit",
            words: &[OFF],
            numbers: Some((1, 65535)),
            rule: "OW-6.4",
        },
    ];

    /// The option's row of [`OwareOption::TABLE`].
    #[must_use]
    pub const fn info(self) -> &'static OwareOptionInfo {
        &OwareOption::TABLE[self as usize]
    }

    /// The option's name in the rule-set notation (`grand_slam`, …).
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// Looks an option up by its notation name, in any ASCII case; `None` if there is none.
    #[must_use]
    pub fn from_name(name: &str) -> Option<OwareOption> {
        OwareOption::TABLE
            .iter()
            .find(|row| row.name.eq_ignore_ascii_case(name))
            .map(|row| row.option)
    }

    /// Reads a value of this option: one of its words in any ASCII case, or a decimal number
    /// of at most six digits within its range. Never panics.
    ///
    /// # Errors
    /// [`RulesError::BadValue`] (naming the accepted values) for anything else.
    pub fn parse_value(self, text: &str) -> Result<OptionValue, RulesError> {
        let info = self.info();
        let t = text.trim();
        if let Some(w) = info.words.iter().find(|w| w.eq_ignore_ascii_case(t)) {
            return Ok(OptionValue::Word(w));
        }
        let bad = || RulesError::BadValue {
            option: self,
            value: t.chars().take(100).collect(),
        };
        let (lo, hi) = info.numbers.ok_or_else(bad)?;
        let n = parse_number(t).ok_or_else(bad)?;
        if (lo..=hi).contains(&n) {
            Ok(OptionValue::Number(n))
        } else {
            Err(bad())
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

/// The three named rule sets of OW-7, the heads of the rule-set notation (OW-8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OwareRuleSet {
    /// `oware` (default): Oware Abapa as played in tournaments (OW-7.1).
    Oware,
    /// `awari`: Romein and Bal's database rules (OW-7.2).
    Awari,
    /// `oware-openspiel`: exactly OpenSpiel's `oware` (OW-7.3).
    OwareOpenspiel,
}

impl OwareRuleSet {
    /// Every named set, in the order printing breaks ties (OW-8.3).
    pub const ALL: [OwareRuleSet; 3] = [
        OwareRuleSet::Oware,
        OwareRuleSet::Awari,
        OwareRuleSet::OwareOpenspiel,
    ];

    /// The head's name in the notation.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            OwareRuleSet::Oware => "oware",
            OwareRuleSet::Awari => "awari",
            OwareRuleSet::OwareOpenspiel => "oware-openspiel",
        }
    }

    /// The named set's rules on the board of 6 houses and 4 seeds (OW-7).
    #[must_use]
    pub const fn rules(self) -> OwareRules {
        match self {
            OwareRuleSet::Oware => OwareRules::OWARE,
            OwareRuleSet::Awari => OwareRules::AWARI,
            OwareRuleSet::OwareOpenspiel => OwareRules::OPENSPIEL,
        }
    }

    /// Looks a head up by name, in any ASCII case; `None` if there is none.
    #[must_use]
    pub fn from_name(name: &str) -> Option<OwareRuleSet> {
        OwareRuleSet::ALL
            .into_iter()
            .find(|h| h.name().eq_ignore_ascii_case(name))
    }
}

/// The names of every head, comma-separated, for messages.
struct KnownHeads;

impl fmt::Display for KnownHeads {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, h) in OwareRuleSet::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(h.name())?;
        }
        Ok(())
    }
}

/// The names of every option, comma-separated, for messages.
struct KnownOptions;

impl fmt::Display for KnownOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in OwareOption::TABLE.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(row.name)?;
        }
        Ok(())
    }
}

/// Why a rules value or rule-set text was refused. Each variant names the bad part; every
/// message is one line and lists the accepted values.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The text does not have the shape `head[(h,s)][+name=value…]` (OW-8.2).
    #[error(
        "malformed rule set `{}`: expected `oware|awari|oware-openspiel[(h,s)][+name=value…]`",
        crate::Shortened(.0)
    )]
    Syntax(String),
    /// A head that is not one of the named rule sets.
    #[error("unknown rule set `{}` (accepted: {}){}", crate::Shortened(.0), KnownHeads, crate::game::DidYouMean(.0))]
    UnknownHead(String),
    /// Houses per side outside 1..=8 (OW-8.1).
    #[error("houses per side must be 1..=8, got {0}")]
    Houses(u32),
    /// Seeds per house 0 (OW-8.1).
    #[error("seeds per house must be at least 1, got {0}")]
    Seeds(u32),
    /// 2·h·s over 255 seeds (OW-8.1).
    #[error(
        "({houses},{seeds}) has 2·{houses}·{seeds} = {total} seeds; at most 255 fit the board"
    )]
    TooManySeeds {
        /// Houses per side.
        houses: u32,
        /// Seeds per house.
        seeds: u32,
        /// 2·houses·seeds.
        total: u32,
    },
    /// An option name that OW-8.2 does not list.
    #[error("unknown rule option `{}` (accepted: {})", crate::Shortened(.0), KnownOptions)]
    UnknownOption(String),
    /// The same option given twice.
    #[error("rule option `{}` given twice", .0.name())]
    DuplicateOption(OwareOption),
    /// An option without `=value`.
    #[error("rule option `{}` needs a value: `+{}=value` (accepted: {})", .0.name(), .0.name(), .0.info().accepted())]
    MissingValue(OwareOption),
    /// A value the option does not accept.
    #[error(
        "bad value `{}` for rule option `{}` (accepted: {})",
        crate::Shortened(value),
        option.name(),
        option.info().accepted()
    )]
    BadValue {
        /// The option.
        option: OwareOption,
        /// The value found (its first 100 characters).
        value: String,
    },
}

/// The rules of one Oware game: `h` houses per side, `s` starting seeds per house and the
/// five options of OW-8. Validated on construction (1 ≤ h ≤ 8, s ≥ 1, 2·h·s ≤ 255, options in
/// range), so a value always describes a playable game. Eight bytes.
///
/// [`OwareRules::default`] is `oware` (OW-7.1). Notation (`Display`/`FromStr`, OW-8.2,
/// OW-8.3): `oware`, `awari(4,3)`, `oware+grand_slam=forbidden`, `oware-openspiel(2,2)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OwareRules {
    houses: u8,
    seeds: u8,
    grand_slam: GrandSlam,
    majority: Majority,
    cycle_score: CycleScore,
    /// 0 = off, else 2..=9.
    repetition: u8,
    /// 0 = off, else 1..=65535.
    move_limit: u16,
}

impl Default for OwareRules {
    /// `oware` (OW-7.1).
    fn default() -> Self {
        OwareRules::OWARE
    }
}

impl OwareRules {
    /// `oware` (OW-7.1): (6,4), `grand_slam=none`, `majority=stop`, `repetition=3`,
    /// `cycle_score=own_row`, `move_limit=off`.
    pub const OWARE: OwareRules = OwareRules {
        houses: 6,
        seeds: 4,
        grand_slam: GrandSlam::None,
        majority: Majority::Stop,
        cycle_score: CycleScore::OwnRow,
        repetition: 3,
        move_limit: 0,
    };

    /// `awari` (OW-7.2): (6,4), `grand_slam=unless_only`, `majority=off`, `repetition=3`,
    /// `cycle_score=split`, `move_limit=off`.
    pub const AWARI: OwareRules = OwareRules {
        houses: 6,
        seeds: 4,
        grand_slam: GrandSlam::UnlessOnly,
        majority: Majority::Off,
        cycle_score: CycleScore::Split,
        repetition: 3,
        move_limit: 0,
    };

    /// `oware-openspiel` (OW-7.3): (6,4), `grand_slam=none`, `majority=collect`,
    /// `repetition=2`, `cycle_score=own_row`, `move_limit=1000`.
    pub const OPENSPIEL: OwareRules = OwareRules {
        houses: 6,
        seeds: 4,
        grand_slam: GrandSlam::None,
        majority: Majority::Collect,
        cycle_score: CycleScore::OwnRow,
        repetition: 2,
        move_limit: 1000,
    };

    /// The options of `oware` on a board of `houses` houses per side and `seeds` seeds per
    /// house.
    ///
    /// # Errors
    /// [`RulesError::Houses`] for h outside 1..=8, [`RulesError::Seeds`] for s = 0,
    /// [`RulesError::TooManySeeds`] when 2·h·s > 255 (OW-8.1).
    pub fn new(houses: u32, seeds: u32) -> Result<OwareRules, RulesError> {
        OwareRules::OWARE.with_size(houses, seeds)
    }

    /// The same options on a board of `houses` houses per side and `seeds` seeds per house.
    ///
    /// # Errors
    /// As [`OwareRules::new`].
    pub fn with_size(self, houses: u32, seeds: u32) -> Result<OwareRules, RulesError> {
        if !(1..=u32::from(MAX_HOUSES)).contains(&houses) {
            return Err(RulesError::Houses(houses));
        }
        if seeds == 0 {
            return Err(RulesError::Seeds(seeds));
        }
        let total = 2 * u64::from(houses) * u64::from(seeds);
        if total > u64::from(MAX_TOTAL_SEEDS) {
            return Err(RulesError::TooManySeeds {
                houses,
                seeds,
                total: u32::try_from(total).unwrap_or(u32::MAX),
            });
        }
        Ok(OwareRules {
            houses: houses as u8,
            seeds: seeds as u8,
            ..self
        })
    }

    /// Houses per side, h (1..=8).
    #[inline]
    #[must_use]
    pub const fn houses(self) -> u8 {
        self.houses
    }

    /// Starting seeds per house, s.
    #[inline]
    #[must_use]
    pub const fn seeds(self) -> u8 {
        self.seeds
    }

    /// Seeds of the start position, 2·h·s (OW-1.2).
    #[inline]
    #[must_use]
    pub const fn total_seeds(self) -> u32 {
        2 * self.houses as u32 * self.seeds as u32
    }

    /// What a grand slam does (OW-4.2).
    #[inline]
    #[must_use]
    pub const fn grand_slam(self) -> GrandSlam {
        self.grand_slam
    }

    /// The majority end (OW-6.1).
    #[inline]
    #[must_use]
    pub const fn majority(self) -> Majority {
        self.majority
    }

    /// The occurrence of a position that ends the game (2..=9), or `None` when repetition
    /// does not end it (OW-6.2).
    #[inline]
    #[must_use]
    pub const fn repetition(self) -> Option<u8> {
        if self.repetition == 0 {
            None
        } else {
            Some(self.repetition)
        }
    }

    /// The allotment of the seeds left at a repetition end (OW-6.2).
    #[inline]
    #[must_use]
    pub const fn cycle_score(self) -> CycleScore {
        self.cycle_score
    }

    /// The plies (1..=65535) after which the game ends, or `None` for no limit (OW-6.4).
    #[inline]
    #[must_use]
    pub const fn move_limit(self) -> Option<u16> {
        if self.move_limit == 0 {
            None
        } else {
            Some(self.move_limit)
        }
    }

    /// The same rules with another grand-slam rule (OW-4.2).
    #[must_use]
    pub const fn with_grand_slam(self, grand_slam: GrandSlam) -> OwareRules {
        OwareRules { grand_slam, ..self }
    }

    /// The same rules with another majority rule (OW-6.1).
    #[must_use]
    pub const fn with_majority(self, majority: Majority) -> OwareRules {
        OwareRules { majority, ..self }
    }

    /// The same rules with another cycle allotment (OW-6.2).
    #[must_use]
    pub const fn with_cycle_score(self, cycle_score: CycleScore) -> OwareRules {
        OwareRules {
            cycle_score,
            ..self
        }
    }

    /// The same rules with another repetition rule: `Some(n)` ends the game at the n-th
    /// occurrence of a position, n in 2..=9; `None` turns the rule off (OW-6.2).
    ///
    /// # Errors
    /// [`RulesError::BadValue`] for a count outside 2..=9.
    pub fn with_repetition(self, repetition: Option<u8>) -> Result<OwareRules, RulesError> {
        let value = match repetition {
            None => OptionValue::Word(OFF),
            Some(n) => OptionValue::Number(u32::from(n)),
        };
        self.with_value(OwareOption::Repetition, value)
    }

    /// The same rules with another move limit: `Some(n)` ends the game after n plies, n ≥ 1;
    /// `None` removes the limit (OW-6.4).
    ///
    /// # Errors
    /// [`RulesError::BadValue`] for `Some(0)`.
    pub fn with_move_limit(self, move_limit: Option<u16>) -> Result<OwareRules, RulesError> {
        let value = match move_limit {
            None => OptionValue::Word(OFF),
            Some(n) => OptionValue::Number(u32::from(n)),
        };
        self.with_value(OwareOption::MoveLimit, value)
    }

    /// The value of `option` in these rules, as the notation writes it.
    #[must_use]
    pub fn value(self, option: OwareOption) -> OptionValue {
        let words = option.info().words;
        match option {
            OwareOption::GrandSlam => OptionValue::Word(words[self.grand_slam as usize]),
            OwareOption::Majority => OptionValue::Word(words[self.majority as usize]),
            OwareOption::CycleScore => OptionValue::Word(words[self.cycle_score as usize]),
            OwareOption::Repetition => match self.repetition {
                0 => OptionValue::Word(OFF),
                n => OptionValue::Number(u32::from(n)),
            },
            OwareOption::MoveLimit => match self.move_limit {
                0 => OptionValue::Word(OFF),
                n => OptionValue::Number(u32::from(n)),
            },
        }
    }

    /// The same rules with `option` set to `value` (a word of the option, in any ASCII case,
    /// or a number in its range, as listed in [`OwareOption::TABLE`]).
    ///
    /// # Errors
    /// [`RulesError::BadValue`] when the option does not accept `value`.
    pub fn with_value(
        self,
        option: OwareOption,
        value: OptionValue,
    ) -> Result<OwareRules, RulesError> {
        let info = option.info();
        let bad = || RulesError::BadValue {
            option,
            value: value.to_string().chars().take(100).collect(),
        };
        match value {
            OptionValue::Word(w) => {
                let i = info
                    .words
                    .iter()
                    .position(|x| x.eq_ignore_ascii_case(w))
                    .ok_or_else(bad)?;
                Ok(match option {
                    OwareOption::GrandSlam => self.with_grand_slam(GrandSlam::ALL[i]),
                    OwareOption::Majority => self.with_majority(Majority::ALL[i]),
                    OwareOption::CycleScore => self.with_cycle_score(CycleScore::ALL[i]),
                    OwareOption::Repetition => OwareRules {
                        repetition: 0,
                        ..self
                    },
                    OwareOption::MoveLimit => OwareRules {
                        move_limit: 0,
                        ..self
                    },
                })
            }
            OptionValue::Number(n) => {
                let (lo, hi) = info.numbers.ok_or_else(bad)?;
                if !(lo..=hi).contains(&n) {
                    return Err(bad());
                }
                Ok(match option {
                    OwareOption::Repetition => OwareRules {
                        repetition: n as u8,
                        ..self
                    },
                    OwareOption::MoveLimit => OwareRules {
                        move_limit: n as u16,
                        ..self
                    },
                    // Word-only options have no number range (checked above).
                    _ => return Err(bad()),
                })
            }
        }
    }

    /// The options that differ from `base`, in printing order.
    fn differing(self, base: OwareRules) -> impl Iterator<Item = OwareOption> {
        OwareOption::ALL
            .into_iter()
            .filter(move |&o| self.value(o) != base.value(o))
    }

    /// The head that prints these rules shortest (OW-8.3): the named set whose defaults leave
    /// the fewest options to print; ties go to `oware`, then `awari`, then `oware-openspiel`.
    #[must_use]
    pub fn closest_rule_set(self) -> OwareRuleSet {
        let mut best = OwareRuleSet::Oware;
        let mut fewest = usize::MAX;
        for head in OwareRuleSet::ALL {
            let n = self.differing(head.rules()).count();
            if n < fewest {
                fewest = n;
                best = head;
            }
        }
        best
    }
}

impl fmt::Display for OwareRules {
    /// The canonical rule-set notation (OW-8.3): the closest head, `(h,s)` unless (6,4), then
    /// `+name=value` for each option that differs from the head, in the grammar's order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let head = self.closest_rule_set();
        f.write_str(head.name())?;
        if (self.houses, self.seeds) != (6, 4) {
            write!(f, "({},{})", self.houses, self.seeds)?;
        }
        for o in self.differing(head.rules()) {
            write!(f, "+{}={}", o.name(), self.value(o))?;
        }
        Ok(())
    }
}

impl FromStr for OwareRules {
    type Err = RulesError;

    /// Parses the rule-set notation of OW-8.2: `head [ "(" h "," s ")" ] { "+" name "=" value }`.
    /// Keywords in any ASCII case; white space around the whole text, each `+` part, each
    /// name, value and number ignored; an option at most once; h and s of at most six digits.
    /// The head chooses the defaults of every option not given. Never panics.
    ///
    /// # Errors
    /// [`RulesError::Syntax`], [`RulesError::UnknownHead`], [`RulesError::Houses`],
    /// [`RulesError::Seeds`], [`RulesError::TooManySeeds`], [`RulesError::UnknownOption`],
    /// [`RulesError::DuplicateOption`], [`RulesError::MissingValue`],
    /// [`RulesError::BadValue`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let whole = s.trim();
        let syntax = || RulesError::Syntax(whole.chars().take(200).collect());
        let mut parts = whole.split('+');
        let head_part = parts.next().unwrap_or("").trim();
        let (name, size) = match head_part.split_once('(') {
            None => (head_part, None),
            Some((name, rest)) => {
                let inner = rest.strip_suffix(')').ok_or_else(syntax)?;
                let (h, s) = inner.split_once(',').ok_or_else(syntax)?;
                let h = parse_number(h).ok_or_else(syntax)?;
                let s = parse_number(s).ok_or_else(syntax)?;
                (name.trim(), Some((h, s)))
            }
        };
        if name.is_empty()
            || !name
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        {
            return Err(syntax());
        }
        let head = OwareRuleSet::from_name(name)
            .ok_or_else(|| RulesError::UnknownHead(name.chars().take(100).collect()))?;
        let mut rules = head.rules();
        if let Some((h, s)) = size {
            rules = rules.with_size(h, s)?;
        }
        let mut seen = [false; 5];
        for part in parts {
            let part = part.trim();
            let (name, value) = match part.split_once('=') {
                Some((n, v)) => (n.trim(), Some(v)),
                None => (part, None),
            };
            let option = OwareOption::from_name(name)
                .ok_or_else(|| RulesError::UnknownOption(name.chars().take(100).collect()))?;
            if seen[option as usize] {
                return Err(RulesError::DuplicateOption(option));
            }
            seen[option as usize] = true;
            let value = value.ok_or(RulesError::MissingValue(option))?;
            rules = rules.with_value(option, option.parse_value(value)?)?;
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_lists_every_option_in_order() {
        for (i, row) in OwareOption::TABLE.iter().enumerate() {
            assert_eq!(row.option, OwareOption::ALL[i]);
            assert_eq!(row.option as usize, i);
        }
        assert_eq!(
            GrandSlam::ALL.len(),
            OwareOption::GrandSlam.info().words.len()
        );
        assert_eq!(
            Majority::ALL.len(),
            OwareOption::Majority.info().words.len()
        );
        assert_eq!(
            CycleScore::ALL.len(),
            OwareOption::CycleScore.info().words.len()
        );
        for (i, g) in GrandSlam::ALL.iter().enumerate() {
            assert_eq!(*g as usize, i);
        }
        assert_eq!(core::mem::size_of::<OwareRules>(), 8);
    }

    #[test]
    fn named_sets_print_by_name() {
        assert_eq!(OwareRules::default().to_string(), "oware");
        assert_eq!(OwareRules::AWARI.to_string(), "awari");
        assert_eq!(OwareRules::OPENSPIEL.to_string(), "oware-openspiel");
    }
}
