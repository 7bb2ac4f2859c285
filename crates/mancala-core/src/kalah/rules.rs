//! The Kalah(m, n) rules value: houses, starting seeds and variant options, with the rule-set
//! notation of `docs/notation.md` ("Kalah rule sets").

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

/// Largest number of houses per row this library supports (`docs/rules/kalah.md`: m in 1..=7, so
/// that the 2m + 2 slots fit 16 lanes of 8 bits).
pub const MAX_HOUSES: u8 = 7;

/// Largest number of seeds on a board (each 8-bit lane must hold every seed of the game).
pub const MAX_TOTAL_SEEDS: u32 = 255;

/// One variant option of `docs/rules/kalah.md` ("Options"). Options combine freely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KalahOption {
    /// A last seed in an own empty house is captured even when the opposite house is empty.
    EmptyCapture,
    /// The game ends only when the player to move has no legal move; the remaining seeds go
    /// to the owner of the side they lie on.
    EndWhenNoMove,
    /// At the end, seeds still in the houses are removed and given to nobody.
    DiscardRemaining,
    /// After South's complete first turn North may swap sides once.
    PieRule,
    /// South's very first move never earns an extra turn.
    NoFirstMoveBonus,
}

/// One row of the Kalah option table ([`KalahOption::TABLE`]): everything the library knows
/// about an option apart from how the rules apply it (that is in `kalah::position`, the
/// solver's `board.rs` and the database build, which read the option through this table).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KalahOptionInfo {
    /// The option this row describes.
    pub option: KalahOption,
    /// Its name in the rule-set notation (`docs/notation.md`, "Kalah rule sets"); parsed in
    /// any case, printed as written here.
    pub name: &'static str,
    /// Whether turning the option on can change the game value of some position
    /// (`docs/rules/kalah.md`, "Options"). Every option of the rules page does; an option
    /// that did not (a presentation setting) would say `false` here.
    pub changes_values: bool,
    /// Whether the option acts on positions past the opening, and so changes the values an
    /// endgame database stores and the solver's sowing and end rule (`empty_capture`,
    /// `end_when_no_move`, `discard_remaining`). `pie_rule` and `no_first_move_bonus` only
    /// act on South's first turn and North's reply to it, which no database holds and which
    /// the solver values through the core position.
    pub changes_database: bool,
}

impl KalahOption {
    /// Every option, in the canonical printing order.
    pub const ALL: [KalahOption; 5] = [
        KalahOption::EmptyCapture,
        KalahOption::EndWhenNoMove,
        KalahOption::DiscardRemaining,
        KalahOption::PieRule,
        KalahOption::NoFirstMoveBonus,
    ];

    /// The option table: one row per option, in the order of [`KalahOption::ALL`] (row i
    /// describes `ALL[i]`, whose bit is i). The one place an option's name and its effects
    /// are written down.
    pub const TABLE: [KalahOptionInfo; 5] = [
        KalahOptionInfo {
            option: KalahOption::EmptyCapture,
            name: "empty_capture",
            changes_values: true,
            changes_database: true,
        },
        KalahOptionInfo {
            option: KalahOption::EndWhenNoMove,
            name: "end_when_no_move",
            changes_values: true,
            changes_database: true,
        },
        KalahOptionInfo {
            option: KalahOption::DiscardRemaining,
            name: "discard_remaining",
            changes_values: true,
            changes_database: true,
        },
        KalahOptionInfo {
            option: KalahOption::PieRule,
            name: "pie_rule",
            changes_values: true,
            changes_database: false,
        },
        KalahOptionInfo {
            option: KalahOption::NoFirstMoveBonus,
            name: "no_first_move_bonus",
            changes_values: true,
            changes_database: false,
        },
    ];

    /// The option's row of [`KalahOption::TABLE`].
    #[must_use]
    pub const fn info(self) -> &'static KalahOptionInfo {
        &KalahOption::TABLE[self as usize]
    }

    /// The option's name in the rule-set notation (`empty_capture`, …), from
    /// [`KalahOption::TABLE`].
    #[must_use]
    pub const fn name(self) -> &'static str {
        self.info().name
    }

    /// Whether the option can change a game value ([`KalahOptionInfo::changes_values`]).
    #[must_use]
    pub const fn changes_values(self) -> bool {
        self.info().changes_values
    }

    /// Whether the option changes endgame database values and the solver's play past the
    /// opening ([`KalahOptionInfo::changes_database`]).
    #[must_use]
    pub const fn changes_database(self) -> bool {
        self.info().changes_database
    }

    /// The option's bit in [`KalahOptions`].
    #[must_use]
    pub const fn bit(self) -> u8 {
        1 << (self as u8)
    }

    /// Looks an option up by its notation name, in any case; `None` if there is no such option.
    #[must_use]
    pub fn from_name(name: &str) -> Option<KalahOption> {
        KalahOption::TABLE
            .iter()
            .find(|row| row.name.eq_ignore_ascii_case(name))
            .map(|row| row.option)
    }
}

/// The names of every Kalah option, comma-separated, for error messages (from
/// [`KalahOption::TABLE`]).
struct KnownOptions;

impl fmt::Display for KnownOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, row) in KalahOption::TABLE.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(row.name)?;
        }
        Ok(())
    }
}

/// A set of [`KalahOption`]s, one bit each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct KalahOptions(u8);

impl KalahOptions {
    /// No option: the standard rules.
    pub const NONE: KalahOptions = KalahOptions(0);

    /// The set holding exactly the given options.
    #[must_use]
    pub fn of(options: &[KalahOption]) -> KalahOptions {
        KalahOptions(options.iter().fold(0, |b, o| b | o.bit()))
    }

    /// Whether `option` is in the set.
    #[inline]
    #[must_use]
    pub const fn has(self, option: KalahOption) -> bool {
        self.0 & option.bit() != 0
    }

    /// The set with `option` added.
    #[must_use]
    pub const fn with(self, option: KalahOption) -> KalahOptions {
        KalahOptions(self.0 | option.bit())
    }

    /// The raw bits (bit i = `KalahOption::ALL[i]`), for file headers and the C ABI.
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// The set from raw bits; `None` if a bit names no option.
    #[must_use]
    pub const fn from_bits(bits: u8) -> Option<KalahOptions> {
        if bits >> KalahOption::ALL.len() == 0 {
            Some(KalahOptions(bits))
        } else {
            None
        }
    }

    /// The options in the set, in canonical order.
    pub fn iter(self) -> impl Iterator<Item = KalahOption> {
        KalahOption::ALL.into_iter().filter(move |o| self.has(*o))
    }

    /// The options of the set that change endgame database values
    /// ([`KalahOption::changes_database`]): two rule sets of the same m whose sets agree here
    /// give every position past the opening the same value.
    #[must_use]
    pub const fn database_relevant(self) -> KalahOptions {
        let mut bits = 0;
        let mut i = 0;
        while i < KalahOption::TABLE.len() {
            let row = &KalahOption::TABLE[i];
            if row.changes_database && self.has(row.option) {
                bits |= row.option.bit();
            }
            i += 1;
        }
        KalahOptions(bits)
    }
}

/// Why a rules value or rule-set string was refused. Each variant names the bad part.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The number of houses per row is outside 1..=7.
    #[error("houses per row must be 1..=7, got {0}")]
    Houses(u32),
    /// The number of starting seeds per house is 0.
    #[error("starting seeds per house must be at least 1, got {0}")]
    Seeds(u32),
    /// 2·m·n exceeds 255 seeds.
    #[error(
        "kalah({houses},{seeds}) has 2·{houses}·{seeds} = {total} seeds; at most 255 fit the board"
    )]
    TooManySeeds {
        /// Houses per row.
        houses: u32,
        /// Seeds per house.
        seeds: u32,
        /// 2·houses·seeds.
        total: u32,
    },
    /// An option name that `docs/rules/kalah.md` does not list.
    #[error("unknown rule option `{}` (known: {})", crate::Shortened(.0), KnownOptions)]
    UnknownOption(String),
    /// The same option given twice.
    #[error("rule option `{0}` given twice")]
    DuplicateOption(&'static str),
    /// The text is not `kalah(m,n)[+option…]`, `standard` or `manchester`. The message of a
    /// text naming none of the games (which is read as Kalah's) lists every game's forms and,
    /// for a near miss, the name meant (`did you mean`); that of another game's rule set
    /// (`oware`, met when Kalah rules alone are parsed) says which game it names and gives
    /// Kalah's forms.
    #[error("{}", crate::game::KalahSyntax(.0))]
    Syntax(String),
}

/// The rules of one Kalah(m, n) game: `m` houses per row, `n` starting seeds per house and a
/// set of variant options. Validated on construction: `1 <= m <= 7`, `n >= 1`,
/// `2·m·n <= 255`. Three bytes.
///
/// Notation (`Display`/`FromStr`): `kalah(6,4)+empty_capture`, `standard`, `manchester`.
/// Options print in the order of [`KalahOption::ALL`]; the two named sets print by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KalahRules {
    houses: u8,
    seeds: u8,
    options: KalahOptions,
}

impl KalahRules {
    /// Validates and builds a rules value.
    ///
    /// # Errors
    /// [`RulesError::Houses`] for m outside 1..=7, [`RulesError::Seeds`] for n = 0,
    /// [`RulesError::TooManySeeds`] when 2·m·n > 255.
    pub fn new(houses: u32, seeds: u32, options: KalahOptions) -> Result<KalahRules, RulesError> {
        if !(1..=u32::from(MAX_HOUSES)).contains(&houses) {
            return Err(RulesError::Houses(houses));
        }
        if seeds == 0 {
            return Err(RulesError::Seeds(seeds));
        }
        let total = 2u64 * u64::from(houses) * u64::from(seeds);
        if total > u64::from(MAX_TOTAL_SEEDS) {
            return Err(RulesError::TooManySeeds {
                houses,
                seeds,
                total: u32::try_from(total).unwrap_or(u32::MAX),
            });
        }
        Ok(KalahRules {
            houses: houses as u8,
            seeds: seeds as u8,
            options,
        })
    }

    /// `standard`: Kalah(6,4) with no option.
    #[must_use]
    pub const fn standard() -> KalahRules {
        KalahRules {
            houses: 6,
            seeds: 4,
            options: KalahOptions::NONE,
        }
    }

    /// `manchester`: Kalah(7,7) with `pie_rule` and `no_first_move_bonus` (the University of
    /// Manchester agent competition rules).
    #[must_use]
    pub const fn manchester() -> KalahRules {
        KalahRules {
            houses: 7,
            seeds: 7,
            options: KalahOptions(KalahOption::PieRule.bit() | KalahOption::NoFirstMoveBonus.bit()),
        }
    }

    /// Houses per row, m (1..=7).
    #[inline]
    #[must_use]
    pub const fn houses(self) -> u8 {
        self.houses
    }

    /// Starting seeds per house, n.
    #[inline]
    #[must_use]
    pub const fn seeds(self) -> u8 {
        self.seeds
    }

    /// Total seeds of the game, 2·m·n.
    #[inline]
    #[must_use]
    pub const fn total_seeds(self) -> u32 {
        2 * self.houses as u32 * self.seeds as u32
    }

    /// The variant options.
    #[inline]
    #[must_use]
    pub const fn options(self) -> KalahOptions {
        self.options
    }

    /// Whether `option` is on.
    #[inline]
    #[must_use]
    pub const fn has(self, option: KalahOption) -> bool {
        self.options.has(option)
    }

    /// The same board with another option set.
    #[must_use]
    pub const fn with_options(self, options: KalahOptions) -> KalahRules {
        KalahRules { options, ..self }
    }

    /// The same options on another m and n.
    ///
    /// # Errors
    /// As [`KalahRules::new`].
    pub fn with_size(self, houses: u32, seeds: u32) -> Result<KalahRules, RulesError> {
        KalahRules::new(houses, seeds, self.options)
    }
}

impl Default for KalahRules {
    fn default() -> Self {
        KalahRules::standard()
    }
}

impl fmt::Display for KalahRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == KalahRules::standard() {
            return f.write_str("standard");
        }
        if *self == KalahRules::manchester() {
            return f.write_str("manchester");
        }
        write!(f, "kalah({},{})", self.houses, self.seeds)?;
        for o in self.options.iter() {
            write!(f, "+{}", o.name())?;
        }
        Ok(())
    }
}

fn parse_number(text: &str, whole: &str) -> Result<u32, RulesError> {
    let t = text.trim();
    if t.is_empty() || t.len() > 6 || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(RulesError::Syntax(whole.to_string()));
    }
    t.parse().map_err(|_| RulesError::Syntax(whole.to_string()))
}

impl FromStr for KalahRules {
    type Err = RulesError;

    /// Parses `kalah(m,n)` followed by zero or more `+option`, or `standard` / `manchester`
    /// (each optionally followed by `+option`s). Surrounding white space is ignored; names are
    /// case-insensitive (`KALAH(6,4)+EMPTY_CAPTURE`, `Standard`), as move names are; `Display`
    /// prints them in lower case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let whole = s.trim();
        let mut parts = whole.split('+');
        // Names are case-insensitive, as move names are (`KALAH(6,4)+SWAP` = `kalah(6,4)+swap`).
        let head = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let mut rules = match head.as_str() {
            "standard" => KalahRules::standard(),
            "manchester" => KalahRules::manchester(),
            _ => {
                let inner = head
                    .strip_prefix("kalah(")
                    .and_then(|r| r.strip_suffix(')'))
                    .ok_or_else(|| RulesError::Syntax(whole.to_string()))?;
                let (m, n) = inner
                    .split_once(',')
                    .ok_or_else(|| RulesError::Syntax(whole.to_string()))?;
                let m = parse_number(m, whole)?;
                let n = parse_number(n, whole)?;
                KalahRules::new(m, n, KalahOptions::NONE)?
            }
        };
        let mut seen = KalahOptions::NONE;
        for part in parts {
            let name = part.trim();
            let option = KalahOption::from_name(name)
                .ok_or_else(|| RulesError::UnknownOption(name.to_string()))?;
            if seen.has(option) {
                return Err(RulesError::DuplicateOption(option.name()));
            }
            seen = seen.with(option);
            rules.options = rules.options.with(option);
        }
        Ok(rules)
    }
}
