//! The Bao la Kete rules value: every **\[RES\]** option of `docs/rules/bao-la-kete.md`
//! with the Lamu defaults of its "Decisions for this project", and the rule-set notation.
//!
//! Notation (`Display`/`FromStr`): `bao-la-kete` is the Lamu default rule set; options that
//! differ from the default follow as `+name=value`, printed in this order:
//!
//! | option | values | default | rule |
//! |--------|--------|---------|------|
//! | `first` | `S`, `N` | `S` | K-4.3, A13 |
//! | `setup` | `kuu,f6,f7,reserve` | `6,2,2,22` | K-4.2, A1 |
//! | `safari` | `forced`, `choice` | `forced` | K-8.3b, A5 |
//! | `lap_cap` | 1..=4294967295 | `100000` | K-10.4, decision 7 |
//! | `kuu_lap_exempt` | `on`, `off` | `on` | K-8.4, A7a |
//! | `singleton_exempt` | `on`, `off` | `off` | K-8.4, A7b |
//! | `must_capture_reserved` | `on`, `off` | `on` | K-8.4, A7c |
//! | `first_mtaji_takata_from_kuu` | `on`, `off` | `on` | K-8.3a, D5, decision 3 |
//! | `block_duration` | `1`..=`8` | `1` | K-8.4, A8 |
//!
//! Rules that are fixed in Lamu and therefore **not** options: the six-seed rule (K-7.4,
//! decision 2, the §14 flag `kuu_min_six`) and the taxation of a lone kuu holding 7 or more
//! (K-7.3) are always on. Turning the six-seed rule off (Zanzibar, D2/D3) taxes a lone kuu
//! of 6 down to 5, and a standing kuu with fewer than 6 seeds is a state the rules
//! (`docs/rules/bao-la-kete.md`) do not define for this game: it is the Zanzibar "temporarily not
//! functional" nyumba (K-9, A2), whose behaviour when a lap ends in it the file leaves unresolved
//! (A4: three readings, "irrelevant for Lamu"), and the Lamu invariant "a standing kuu holds ≥ 6"
//! (K-9, §14) that positions are validated against would no longer hold. A3's other trigger reading
//! (i) ("only a kuu reduced to 6 after holding more") cannot be told from a position: a standing
//! kuu of 6 may be untouched or taxed down from 8, so it needs a history bit, and it also
//! leads to a kuu of 5. Neither is offered.

use core::fmt;
use core::str::FromStr;

use thiserror::Error;

use crate::Side;

/// The number of seeds in the game (K-4.1): 32 a player.
pub const TOTAL_SEEDS: u32 = 64;

/// The default lap cap of decision 7 (K-10.4): a move still going after this many laps is a
/// never-ending move.
pub const DEFAULT_LAP_CAP: u32 = 100_000;

/// Whether a capturing lap of the mtaji stage that ends in the mover's standing kuu (facing
/// pit empty) must go on safari (K-8.3b).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SafariRule {
    /// Safari is mandatory (decision 4, the Lamu default): lift the kuu and sow on; the kuu is
    /// destroyed.
    Forced,
    /// The player chooses stop or safari, as in the nemo stage (K-7.5).
    Choice,
}

/// The starting setup of each player (K-4.2, A1): the kuu (F5), the two pits to its right (F6,
/// F7) and the reserve. The four numbers total 32.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BaoSetup {
    /// Seeds in the kuu, F5 (at least 6, K-9).
    pub kuu: u8,
    /// Seeds in F6.
    pub f6: u8,
    /// Seeds in F7.
    pub f7: u8,
    /// Seeds in the reserve.
    pub reserve: u8,
}

impl BaoSetup {
    /// The Lamu (and Zanzibar) setup: 6 in the kuu, 2 and 2 to its right, 22 in reserve.
    pub const LAMU: BaoSetup = BaoSetup {
        kuu: 6,
        f6: 2,
        f7: 2,
        reserve: 22,
    };
}

/// One option of the Bao la Kete rule-set notation (`+name=value`, table in the module docs).
/// Its name is written once, in [`BaoOption::TABLE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BaoOption {
    /// `first=S|N`: who moves first (decision 1).
    First,
    /// `setup=kuu,f6,f7,reserve`: the starting setup (K-4.2, A1).
    Setup,
    /// `safari=forced|choice`: [`SafariRule`] (K-8.3b, decision 4).
    Safari,
    /// `lap_cap=N`: the never-ending-move cap (K-10.4, decision 7).
    LapCap,
    /// `kuu_lap_exempt=on|off` (decision 2).
    KuuLapExempt,
    /// `singleton_exempt=on|off` (decision 3).
    SingletonExempt,
    /// `must_capture_reserved=on|off` (K-8.4, A7c).
    MustCaptureReserved,
    /// `first_mtaji_takata_from_kuu=on|off` (S2).
    FirstMtajiTakataFromKuu,
    /// `block_duration=N`: hizi zetu block length in turns (K-8.4, A8).
    BlockDuration,
}

impl BaoOption {
    /// Every option with its notation name, in the canonical printing order.
    pub const TABLE: [(BaoOption, &'static str); 9] = [
        (BaoOption::First, "first"),
        (BaoOption::Setup, "setup"),
        (BaoOption::Safari, "safari"),
        (BaoOption::LapCap, "lap_cap"),
        (BaoOption::KuuLapExempt, "kuu_lap_exempt"),
        (BaoOption::SingletonExempt, "singleton_exempt"),
        (BaoOption::MustCaptureReserved, "must_capture_reserved"),
        (
            BaoOption::FirstMtajiTakataFromKuu,
            "first_mtaji_takata_from_kuu",
        ),
        (BaoOption::BlockDuration, "block_duration"),
    ];

    /// The option's name in the rule-set notation (`lap_cap`, …), from [`BaoOption::TABLE`].
    #[must_use]
    pub const fn name(self) -> &'static str {
        BaoOption::TABLE[self as usize].1
    }

    /// Looks an option up by its notation name, in any case; `None` if there is no such option.
    #[must_use]
    pub fn from_name(name: &str) -> Option<BaoOption> {
        BaoOption::TABLE
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|&(o, _)| o)
    }

    /// The values the option accepts, written out for messages (`forced, choice`; `on,
    /// off`; `1..=8`).
    #[must_use]
    pub const fn accepted(self) -> &'static str {
        match self {
            BaoOption::First => "S, N",
            BaoOption::Setup => "kuu,f6,f7,reserve: four numbers totalling 32, the kuu at least 6",
            BaoOption::Safari => "forced, choice",
            BaoOption::LapCap => "1..=4294967295",
            BaoOption::KuuLapExempt
            | BaoOption::SingletonExempt
            | BaoOption::MustCaptureReserved
            | BaoOption::FirstMtajiTakataFromKuu => "on, off",
            BaoOption::BlockDuration => "1..=8",
        }
    }
}

/// What the option named `option` accepts, for the message of [`RulesError::BadValue`].
struct AcceptedOf<'a>(&'a str);

impl fmt::Display for AcceptedOf<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match BaoOption::from_name(self.0) {
            Some(o) => write!(f, " (accepted: {})", o.accepted()),
            None => Ok(()),
        }
    }
}

/// The names of every Bao option, comma-separated, for error messages.
struct KnownOptions;

impl fmt::Display for KnownOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (_, name)) in BaoOption::TABLE.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(name)?;
        }
        Ok(())
    }
}

/// Why a rules value or rule-set string was refused. Each variant names the bad part.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RulesError {
    /// The text does not start with `bao-la-kete` or an option is not `name=value`.
    #[error("malformed rule set `{}`: expected `{}[+name=value…]`", crate::Shortened(.0), BaoRules::NAME)]
    Syntax(String),
    /// An option name this module does not know.
    #[error("unknown rule option `{}` (known: {})", crate::Shortened(.0), KnownOptions)]
    UnknownOption(String),
    /// The same option given twice.
    #[error("rule option `{}` given twice", crate::Shortened(.0))]
    DuplicateOption(String),
    /// An option value that is not allowed for that option.
    #[error(
        "bad value `{}` for rule option `{option}`{}",
        crate::Shortened(value),
        AcceptedOf(option)
    )]
    BadValue {
        /// The option.
        option: &'static str,
        /// The value found.
        value: String,
    },
    /// A setup whose four numbers do not total 32, or whose kuu holds fewer than 6 (K-4.2,
    /// K-9).
    #[error("setup {kuu},{f6},{f7},{reserve} is invalid: the four numbers must total 32 and the kuu must hold at least 6 (K-4.2, K-9)")]
    Setup {
        /// Kuu seeds.
        kuu: u8,
        /// F6 seeds.
        f6: u8,
        /// F7 seeds.
        f7: u8,
        /// Reserve seeds.
        reserve: u8,
    },
    /// A lap cap of 0 (K-10.4).
    #[error("the lap cap must be at least 1 (K-10.4)")]
    LapCap,
    /// A hizi zetu block duration outside 1..=[`MAX_BLOCK_DURATION`] (K-8.4, A8).
    #[error("the block duration must be 1..=8 turns (K-8.4, A8)")]
    BlockDuration,
}

/// The longest hizi zetu block [`BaoRules::with_block_duration`] accepts, in turns of the
/// blocked player (K-8.4, A8): the packed position keeps the turns still to come in 3 bits.
pub const MAX_BLOCK_DURATION: u8 = 8;

const KUU_LAP_EXEMPT: u8 = 1;
const SINGLETON_EXEMPT: u8 = 1 << 1;
const MUST_CAPTURE_RESERVED: u8 = 1 << 2;
const SAFARI_CHOICE: u8 = 1 << 3;
const NORTH_FIRST: u8 = 1 << 4;
const NO_KUU_FIRST: u8 = 1 << 5;

/// The rules of one Bao la Kete game: the Lamu rules of `docs/rules/bao-la-kete.md` with its
/// **\[RES\]** options. Always valid (every setter validates). 12 bytes.
///
/// [`BaoRules::default`] (also [`BaoRules::LAMU`], notation `bao-la-kete`) is the Lamu default
/// of the "Decisions for this project".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BaoRules {
    lap_cap: u32,
    setup: [u8; 4],
    flags: u8,
    block_duration: u8,
}

impl Default for BaoRules {
    fn default() -> Self {
        BaoRules::LAMU
    }
}

impl BaoRules {
    /// The game's name in the rule-set notation, the head of every Bao la Kete rule set
    /// (parsed in any case).
    pub const NAME: &'static str = "bao-la-kete";

    /// The Lamu defaults (decisions 1–10): South first, setup 6/2/2/22, safari forced in the
    /// mtaji stage, lap cap 100,000, the hizi zetu first-lap-from-kuu exemption on, no
    /// singleton exemption, the blocker must capture the reserved pit, the first mtaji takata
    /// from a standing kuu, a hizi zetu block of one turn.
    pub const LAMU: BaoRules = BaoRules {
        lap_cap: DEFAULT_LAP_CAP,
        setup: [6, 2, 2, 22],
        flags: KUU_LAP_EXEMPT | MUST_CAPTURE_RESERVED,
        block_duration: 1,
    };

    /// The player who moves first (K-4.3; default South).
    #[must_use]
    pub const fn first_player(self) -> Side {
        if self.flags & NORTH_FIRST != 0 {
            Side::North
        } else {
            Side::South
        }
    }

    /// The starting setup (K-4.2).
    #[must_use]
    pub const fn setup(self) -> BaoSetup {
        BaoSetup {
            kuu: self.setup[0],
            f6: self.setup[1],
            f7: self.setup[2],
            reserve: self.setup[3],
        }
    }

    /// Safari in the mtaji stage (K-8.3b; default [`SafariRule::Forced`]).
    #[must_use]
    pub const fn mtaji_safari(self) -> SafariRule {
        if self.flags & SAFARI_CHOICE != 0 {
            SafariRule::Choice
        } else {
            SafariRule::Forced
        }
    }

    /// The lap cap of decision 7 (K-10.4; default 100,000): a move that needs more laps than
    /// this is never-ending; a move that ends in lap `lap_cap` is finite.
    #[must_use]
    pub const fn lap_cap(self) -> u32 {
        self.lap_cap
    }

    /// Whether a lap that reaches the blocked pit in the first lap of a move started from the
    /// blocked player's standing kuu is let through (K-8.4 \[LAMU\], A7a; default on).
    #[must_use]
    pub const fn kuu_lap_exempt(self) -> bool {
        self.flags & KUU_LAP_EXEMPT != 0
    }

    /// Whether a singleton pit is exempt from hizi zetu (K-8.4, A7b; default off).
    #[must_use]
    pub const fn singleton_exempt(self) -> bool {
        self.flags & SINGLETON_EXEMPT != 0
    }

    /// Whether the blocker must capture the reserved pit on their next turn when a legal
    /// capture of it exists (K-8.4 \[LAMU\], A7c, decision 10; default on).
    #[must_use]
    pub const fn must_capture_reserved(self) -> bool {
        self.flags & MUST_CAPTURE_RESERVED != 0
    }

    /// Whether, while a player's kuu stands, every mtaji takata of that player must start from
    /// it (K-8.3a \[LAMU\], D5, decision 3; default on).
    ///
    /// Off (the Zanzibar reading of S2, "takata may start from the nyumba"): a mtaji takata may
    /// start from any front pit with 2 or more seeds, the standing kuu included (K-8.2; lifting
    /// the kuu destroys it, K-9), and the kuu can stand far into the mtaji stage. Reading taken
    /// for the case the file only reaches with this option off (K-8.3c says it cannot arise in
    /// Lamu): a **takata** lap of the mtaji stage that ends in the mover's standing kuu ends the
    /// move, as K-7.5 rules for a takata lap in the nemo stage (K-6.8 step 3: "never relay out
    /// of the kuu"); the kuu stands on. A capturing lap there still follows K-8.3b (`safari`).
    #[must_use]
    pub const fn first_mtaji_takata_from_kuu(self) -> bool {
        self.flags & NO_KUU_FIRST == 0
    }

    /// How many of the blocked player's turns a hizi zetu block lasts (K-8.4, A8; default 1,
    /// "the opponent's next turn only"; I2 blocks for 3 plies, i.e. two turns of the blocked
    /// player). 1..=[`MAX_BLOCK_DURATION`].
    ///
    /// Reading taken for a block of `d` turns (K-8.4, A8, decision 10), P the blocker and Q
    /// the blocked player:
    /// * the block is imposed after P's mtaji takata (its exceptions are checked then, as
    ///   K-8.4 says "`h` is not blocked if"), and then holds on each of Q's next `d` turns:
    ///   Q may not start from `h` nor relay out of it (with the first-lap-from-kuu exemption).
    ///   On Q's later blocked turns the exceptions of K-8.4 are read again: if `h` has become
    ///   Q's only occupied front pit or its only front pit with more than one seed (or a
    ///   singleton under `singleton_exempt`), it is not blocked on that turn, so a block never
    ///   takes from Q what its exceptions protect;
    /// * the pit is reserved for P all that time, so P's duty (A7c, "the contents of a pit
    ///   reserved by hizi zetu must be captured, even if the contents of other pits became
    ///   threatened too") applies on **each** of P's turns that follows a blocked turn of Q,
    ///   i.e. the `d` turns of P in between and after — not only on the last one;
    /// * once P's move has captured `h` (the pit is empty after P's move: only P's captures
    ///   take seeds from it while Q may not lift it), the reservation has served its purpose
    ///   and ends, block and duty together;
    /// * one pit is reserved at a time (the file's state `block: Option<(player, pit)>`, §14):
    ///   a new block triggered by either side replaces the running one (the trigger requires
    ///   that the side to move has no legal capture, so a duty is never lost to it that could
    ///   have been fulfilled on that turn);
    /// * with `must_capture_reserved=off` the reservation is only the block: P's turns in
    ///   between carry no duty, and it ends after Q's last blocked turn.
    ///
    /// With `d = 1` this is exactly decision 10.
    #[must_use]
    pub const fn block_duration(self) -> u8 {
        self.block_duration
    }

    const fn with_flag(self, flag: u8, on: bool) -> BaoRules {
        BaoRules {
            flags: if on {
                self.flags | flag
            } else {
                self.flags & !flag
            },
            ..self
        }
    }

    /// The same rules with another first player (K-4.3).
    #[must_use]
    pub const fn with_first_player(self, side: Side) -> BaoRules {
        self.with_flag(NORTH_FIRST, matches!(side, Side::North))
    }

    /// The same rules with another safari rule (K-8.3b).
    #[must_use]
    pub const fn with_mtaji_safari(self, rule: SafariRule) -> BaoRules {
        self.with_flag(SAFARI_CHOICE, matches!(rule, SafariRule::Choice))
    }

    /// The same rules with the first-lap-from-kuu exemption on or off (K-8.4, A7a).
    #[must_use]
    pub const fn with_kuu_lap_exempt(self, on: bool) -> BaoRules {
        self.with_flag(KUU_LAP_EXEMPT, on)
    }

    /// The same rules with the singleton exemption on or off (K-8.4, A7b).
    #[must_use]
    pub const fn with_singleton_exempt(self, on: bool) -> BaoRules {
        self.with_flag(SINGLETON_EXEMPT, on)
    }

    /// The same rules with the blocker's duty to capture the reserved pit on or off (K-8.4,
    /// A7c).
    #[must_use]
    pub const fn with_must_capture_reserved(self, on: bool) -> BaoRules {
        self.with_flag(MUST_CAPTURE_RESERVED, on)
    }

    /// The same rules with the first-mtaji-takata-from-the-kuu rule on or off (K-8.3a, D5).
    #[must_use]
    pub const fn with_first_mtaji_takata_from_kuu(self, on: bool) -> BaoRules {
        self.with_flag(NO_KUU_FIRST, !on)
    }

    /// The same rules with a hizi zetu block lasting `turns` turns of the blocked player
    /// (K-8.4, A8).
    ///
    /// # Errors
    /// [`RulesError::BlockDuration`] unless `1 <= turns <= MAX_BLOCK_DURATION`.
    pub const fn with_block_duration(self, turns: u8) -> Result<BaoRules, RulesError> {
        if turns == 0 || turns > MAX_BLOCK_DURATION {
            return Err(RulesError::BlockDuration);
        }
        Ok(BaoRules {
            block_duration: turns,
            ..self
        })
    }

    /// The same rules with another lap cap (K-10.4).
    ///
    /// # Errors
    /// [`RulesError::LapCap`] for 0.
    pub const fn with_lap_cap(self, cap: u32) -> Result<BaoRules, RulesError> {
        if cap == 0 {
            return Err(RulesError::LapCap);
        }
        Ok(BaoRules {
            lap_cap: cap,
            ..self
        })
    }

    /// The same rules with another setup (K-4.2, A1).
    ///
    /// # Errors
    /// [`RulesError::Setup`] unless the four numbers total 32 and the kuu holds at least 6.
    pub fn with_setup(self, setup: BaoSetup) -> Result<BaoRules, RulesError> {
        let total = u32::from(setup.kuu)
            + u32::from(setup.f6)
            + u32::from(setup.f7)
            + u32::from(setup.reserve);
        if total != TOTAL_SEEDS / 2 || setup.kuu < 6 {
            return Err(RulesError::Setup {
                kuu: setup.kuu,
                f6: setup.f6,
                f7: setup.f7,
                reserve: setup.reserve,
            });
        }
        Ok(BaoRules {
            setup: [setup.kuu, setup.f6, setup.f7, setup.reserve],
            ..self
        })
    }
}

fn on_off(b: bool) -> &'static str {
    if b {
        "on"
    } else {
        "off"
    }
}

impl fmt::Display for BaoRules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = BaoRules::LAMU;
        f.write_str(BaoRules::NAME)?;
        for (option, name) in BaoOption::TABLE {
            match option {
                BaoOption::First if self.first_player() != d.first_player() => {
                    write!(f, "+{name}={}", self.first_player().letter())?;
                }
                BaoOption::Setup if self.setup != d.setup => {
                    let s = self.setup();
                    write!(f, "+{name}={},{},{},{}", s.kuu, s.f6, s.f7, s.reserve)?;
                }
                BaoOption::Safari if self.mtaji_safari() != d.mtaji_safari() => {
                    write!(f, "+{name}=choice")?;
                }
                BaoOption::LapCap if self.lap_cap != d.lap_cap => {
                    write!(f, "+{name}={}", self.lap_cap)?;
                }
                BaoOption::KuuLapExempt if self.kuu_lap_exempt() != d.kuu_lap_exempt() => {
                    write!(f, "+{name}={}", on_off(self.kuu_lap_exempt()))?;
                }
                BaoOption::SingletonExempt if self.singleton_exempt() != d.singleton_exempt() => {
                    write!(f, "+{name}={}", on_off(self.singleton_exempt()))?;
                }
                BaoOption::MustCaptureReserved
                    if self.must_capture_reserved() != d.must_capture_reserved() =>
                {
                    write!(f, "+{name}={}", on_off(self.must_capture_reserved()))?;
                }
                BaoOption::FirstMtajiTakataFromKuu
                    if self.first_mtaji_takata_from_kuu() != d.first_mtaji_takata_from_kuu() =>
                {
                    write!(f, "+{name}={}", on_off(self.first_mtaji_takata_from_kuu()))?;
                }
                BaoOption::BlockDuration if self.block_duration != d.block_duration => {
                    write!(f, "+{name}={}", self.block_duration)?;
                }
                _ => {}
            }
        }
        Ok(())
    }
}

fn parse_u32(option: &'static str, value: &str) -> Result<u32, RulesError> {
    if value.is_empty() || value.len() > 10 || !value.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(option, value));
    }
    value.parse().map_err(|_| bad(option, value))
}

fn bad(option: &'static str, value: &str) -> RulesError {
    RulesError::BadValue {
        option,
        value: value.chars().take(100).collect(),
    }
}

/// `on` or `off`, in any ASCII case.
fn parse_bool(option: &'static str, value: &str) -> Result<bool, RulesError> {
    if value.eq_ignore_ascii_case("on") {
        Ok(true)
    } else if value.eq_ignore_ascii_case("off") {
        Ok(false)
    } else {
        Err(bad(option, value))
    }
}

impl FromStr for BaoRules {
    type Err = RulesError;

    /// Parses `bao-la-kete` followed by zero or more `+name=value` options (table in the
    /// module docs). Surrounding white space is ignored; the game's name, the options' names
    /// and their word values (`first=n`, `safari=CHOICE`, `kuu_lap_exempt=Off`) are read in
    /// any ASCII case (`docs/notation.md`, "Letter case"); `Display` writes them as in the
    /// table. Never panics.
    ///
    /// # Errors
    /// [`RulesError::Syntax`], [`RulesError::UnknownOption`], [`RulesError::DuplicateOption`],
    /// [`RulesError::BadValue`] (also for a block duration outside 1..=8),
    /// [`RulesError::Setup`], [`RulesError::LapCap`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let whole = s.trim();
        let syntax = || RulesError::Syntax(whole.chars().take(200).collect());
        let mut parts = whole.split('+');
        // Every keyword is read in any ASCII case, as in the Kalah notation.
        if !parts
            .next()
            .is_some_and(|n| n.eq_ignore_ascii_case(BaoRules::NAME))
        {
            return Err(syntax());
        }
        let mut rules = BaoRules::LAMU;
        let mut seen: Vec<BaoOption> = Vec::new();
        for part in parts {
            let (name, value) = part.split_once('=').ok_or_else(syntax)?;
            let Some(option) = BaoOption::from_name(name) else {
                return Err(RulesError::UnknownOption(
                    name.to_ascii_lowercase().chars().take(100).collect(),
                ));
            };
            if seen.contains(&option) {
                return Err(RulesError::DuplicateOption(option.name().to_string()));
            }
            seen.push(option);
            let key = option.name();
            rules = match option {
                BaoOption::First => match value {
                    "S" | "s" => rules.with_first_player(Side::South),
                    "N" | "n" => rules.with_first_player(Side::North),
                    _ => return Err(bad(key, value)),
                },
                BaoOption::Setup => {
                    let nums: Vec<&str> = value.split(',').collect();
                    if nums.len() != 4 {
                        return Err(bad(key, value));
                    }
                    let mut v = [0u8; 4];
                    for (slot, t) in v.iter_mut().zip(nums) {
                        let n = parse_u32(key, t)?;
                        *slot = u8::try_from(n).map_err(|_| bad(key, value))?;
                    }
                    rules.with_setup(BaoSetup {
                        kuu: v[0],
                        f6: v[1],
                        f7: v[2],
                        reserve: v[3],
                    })?
                }
                BaoOption::Safari => {
                    if value.eq_ignore_ascii_case("forced") {
                        rules.with_mtaji_safari(SafariRule::Forced)
                    } else if value.eq_ignore_ascii_case("choice") {
                        rules.with_mtaji_safari(SafariRule::Choice)
                    } else {
                        return Err(bad(key, value));
                    }
                }
                BaoOption::LapCap => rules.with_lap_cap(parse_u32(key, value)?)?,
                BaoOption::KuuLapExempt => rules.with_kuu_lap_exempt(parse_bool(key, value)?),
                BaoOption::SingletonExempt => rules.with_singleton_exempt(parse_bool(key, value)?),
                BaoOption::MustCaptureReserved => {
                    rules.with_must_capture_reserved(parse_bool(key, value)?)
                }
                BaoOption::FirstMtajiTakataFromKuu => {
                    rules.with_first_mtaji_takata_from_kuu(parse_bool(key, value)?)
                }
                BaoOption::BlockDuration => {
                    let n = parse_u32(key, value)?;
                    let n = u8::try_from(n).map_err(|_| bad(key, value))?;
                    rules.with_block_duration(n).map_err(|_| bad(key, value))?
                }
            };
        }
        Ok(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_name_round_trips() {
        let r: BaoRules = "bao-la-kete".parse().unwrap();
        assert_eq!(r, BaoRules::default());
        assert_eq!(r.to_string(), "bao-la-kete");
        assert_eq!(r.lap_cap(), 100_000);
        assert_eq!(r.first_player(), Side::South);
        assert_eq!(r.mtaji_safari(), SafariRule::Forced);
        assert!(r.kuu_lap_exempt() && !r.singleton_exempt() && r.must_capture_reserved());
        assert!(r.first_mtaji_takata_from_kuu());
        assert_eq!(r.block_duration(), 1);
        assert_eq!(core::mem::size_of::<BaoRules>(), 12);
    }

    #[test]
    fn options_round_trip() {
        let text = "bao-la-kete+first=N+setup=8,2,2,20+safari=choice+lap_cap=500+kuu_lap_exempt=off+singleton_exempt=on+must_capture_reserved=off+first_mtaji_takata_from_kuu=off+block_duration=3";
        let r: BaoRules = text.parse().unwrap();
        assert_eq!(r.to_string(), text);
        assert!(!r.first_mtaji_takata_from_kuu());
        assert_eq!(r.block_duration(), 3);
        // Each new option alone, and its default printed as nothing.
        for t in [
            "bao-la-kete+first_mtaji_takata_from_kuu=off",
            "bao-la-kete+block_duration=2",
            "bao-la-kete+block_duration=8",
        ] {
            assert_eq!(t.parse::<BaoRules>().unwrap().to_string(), t);
        }
        for (t, canon) in [
            ("bao-la-kete+first_mtaji_takata_from_kuu=on", "bao-la-kete"),
            ("bao-la-kete+block_duration=1", "bao-la-kete"),
        ] {
            assert_eq!(t.parse::<BaoRules>().unwrap().to_string(), canon);
        }
        assert_eq!(
            BaoRules::LAMU.with_block_duration(0),
            Err(RulesError::BlockDuration)
        );
        assert_eq!(
            BaoRules::LAMU.with_block_duration(9),
            Err(RulesError::BlockDuration)
        );
        assert_eq!(r.setup().kuu, 8);
        assert_eq!(r.lap_cap(), 500);
    }

    #[test]
    fn bad_rule_sets_are_refused() {
        for t in [
            "",
            "bao",
            "bao-la-kete+",
            "bao-la-kete+first",
            "bao-la-kete+first=X",
            "bao-la-kete+lap_cap=0",
            "bao-la-kete+lap_cap=99999999999",
            "bao-la-kete+setup=5,3,2,22",
            "bao-la-kete+setup=6,2,2,23",
            "bao-la-kete+setup=6,2,2",
            "bao-la-kete+safari=choice+safari=forced",
            "bao-la-kete+colour=red",
            "bao-la-kete+block_duration=0",
            "bao-la-kete+block_duration=9",
            "bao-la-kete+block_duration=256",
            "bao-la-kete+block_duration=",
            "bao-la-kete+first_mtaji_takata_from_kuu=yes",
            "bao-la-kete+kuu_min_six=off",
        ] {
            assert!(t.parse::<BaoRules>().is_err(), "{t}");
        }
    }
}
