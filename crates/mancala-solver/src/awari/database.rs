//! The Oware databases as one of the games' databases ([`Database`]): which Oware rule sets
//! their values hold ([`values_carry_over`], [`check_rules`], [`check_rules_for`]), the file
//! facts (names, sizes, the build), so that the generic policy of [`crate::egdb`] (folder
//! scan, cache, choice) serves them as it serves Kalah's.

use std::ops::ControlFlow;
use std::time::Instant;

use mancala_core::oware::{CycleScore, GrandSlam, Majority, OwareRules};
use mancala_core::GameKind;

use super::file::{bits_per_entry, entries_to, AwariInfo};
use super::rank::{byte_build_memory, level_len};
use super::{AwariDb, AwariError, DEFAULT_MAX_SEEDS, MAX_SEEDS};
use crate::egdb::choose::build_fits_memory as fits;
use crate::egdb::{BuildOptions, Database, DatabaseInfo, EgdbError, Encoding, RulesMismatch};
use crate::progress::BuildProgress;

/// Whether the values of one of the Oware databases (OW-10.3: the mover's future captures
/// minus the opponent's, the final allotment included, endless play even) are the exact
/// game values of positions played under `rules`, history permitting (`docs/awari.md`, "The
/// engine", gives the proof): 6 houses a side (any seeds a house: with no majority end the
/// total plays no part), `majority=off`, `cycle_score=split`, no move limit, any
/// `repetition` (off or 2..=9) and any `grand_slam` (each has its own database,
/// [`check_rules_for`]). That is the rule set `awari`, `oware+majority=off+cycle_score=split`
/// (the Abapa rules without the majority end, cycles split) and their variants in the
/// grand-slam rule, the repetition count and the seeds a house; not `oware` nor
/// `oware-openspiel` (the majority ends the game, cycles go to the own rows, and OpenSpiel's
/// move limit ends it too).
#[must_use]
pub fn values_carry_over(rules: &OwareRules) -> bool {
    check_rules(rules).is_ok()
}

/// What the Oware databases hold together, in words (the rules [`values_carry_over`] asks
/// for): one database a grand-slam rule.
const HOLDS: &str = "one Oware database a grand-slam rule holds each of them: awari, oware+majority=off+cycle_score=split and the other grand_slam values";

/// The refusal of an Oware rule set whose values no database holds, `refused` being
/// [`check_rules`]'s reason, in the one sentence the `mancala` command and the Python package
/// say it in: first what is wrong, short (no database holds them, and the rules that make
/// them differ: `no database holds the values of oware, which has majority=stop,
/// cycle_score=own_row`), then, after `; tip: `, what `serves` (`solve and analyse are`,
/// `the databases are`) for: the Kalah rule sets and the Oware rule sets the databases hold.
#[must_use]
pub fn unserved(refused: &RulesMismatch, serves: &str) -> String {
    format!(
        "{}; tip: {serves} for Kalah rule sets and the Oware rule sets with 6 houses a side, majority=off, cycle_score=split and no move limit, such as awari and oware+majority=off+cycle_score=split (one database a grand-slam rule)",
        refused.no_database()
    )
}

/// Ok when one of the Oware databases holds the values of positions played under `rules`
/// ([`values_carry_over`]: the database of the grand-slam rule of `rules`,
/// [`check_rules_for`]); else the refusal naming the rules of `rules` that differ, as a
/// rule-set text spells them (`majority=stop`, `cycle_score=own_row`, `5 houses a side`).
///
/// # Errors
/// [`RulesMismatch`].
pub fn check_rules(rules: &OwareRules) -> Result<(), RulesMismatch> {
    check_rules_for(rules.grand_slam(), rules)
}

/// Ok when the database of the grand-slam rule `grand_slam` ([`AwariDb::rules_of`]) holds
/// the values of positions played under `rules`: 6 houses a side, the same grand-slam rule,
/// `majority=off`, `cycle_score=split`, no move limit (any seeds a house and repetition
/// rule); else the refusal naming the rules of `rules` that differ (`grand_slam=none`,
/// `majority=stop`, …).
///
/// # Errors
/// [`RulesMismatch`].
pub fn check_rules_for(grand_slam: GrandSlam, rules: &OwareRules) -> Result<(), RulesMismatch> {
    let mut differences = Vec::new();
    if rules.houses() != 6 {
        differences.push(format!("{} houses a side", rules.houses()));
    }
    if rules.grand_slam() != grand_slam {
        differences.push(format!("grand_slam={}", rules.grand_slam().name()));
    }
    if rules.majority() != Majority::Off {
        differences.push(format!("majority={}", rules.majority().name()));
    }
    if rules.cycle_score() != CycleScore::Split {
        differences.push(format!("cycle_score={}", rules.cycle_score().name()));
    }
    if let Some(n) = rules.move_limit() {
        differences.push(format!("move_limit={n}"));
    }
    if differences.is_empty() {
        Ok(())
    } else {
        let only_slam = differences.len() == 1 && rules.grand_slam() != grand_slam;
        Err(RulesMismatch {
            database: match grand_slam {
                GrandSlam::UnlessOnly => "an Awari database".into(),
                g => format!("the Oware database of {}", AwariDb::rules_of(g)),
            },
            holds: if only_slam {
                format!(
                    "the Oware rule sets with 6 houses a side, grand_slam={}, majority=off, cycle_score=split and no move limit",
                    grand_slam.name()
                )
            } else {
                format!(
                    "the Oware rule sets with 6 houses a side, grand_slam={}, majority=off, cycle_score=split and no move limit, any repetition rule ({}; {HOLDS})",
                    grand_slam.name(),
                    AwariDb::rules_of(grand_slam)
                )
            },
            rules: rules.to_string(),
            differences,
        })
    }
}

impl DatabaseInfo for AwariInfo {
    fn max_seeds(&self) -> u32 {
        self.max_seeds
    }
    fn encoding(&self) -> Encoding {
        self.encoding
    }
    fn rules(&self) -> &str {
        &self.rules
    }
    fn memory_bytes(&self) -> u64 {
        // A packed database stays packed in memory, with 8 bytes of padding; a compact one
        // stays compact, with its padding and the decoders of its tables.
        self.memory_bytes
    }
    fn average_bits(&self) -> f64 {
        AwariInfo::average_bits(self)
    }
    fn describe(&self) -> String {
        format!("{}, levels 0..={}", self.rules, self.max_seeds)
    }
    fn entries(&self) -> u64 {
        self.entries
    }
    fn bits_in(&self, encoding: Encoding) -> u32 {
        bits_per_entry(encoding, self.max_seeds)
    }
    fn file_name(&self, encoding: Encoding) -> String {
        AwariDb::file_name_under(self.grand_slam, self.max_seeds, encoding)
    }
}

/// The [`EgdbError`] of a build's [`AwariError`].
fn build_error(rules: &OwareRules, e: AwariError) -> EgdbError {
    match e {
        AwariError::OutOfMemory(m) => EgdbError::OutOfMemory(m),
        AwariError::Cancelled => EgdbError::Cancelled,
        AwariError::TooManySeeds { seeds, max } => EgdbError::MoreSeedsThanTheGame {
            rules: AwariDb::rules_of(rules.grand_slam()).to_string(),
            max_seeds: seeds,
            total_seeds: max,
            largest: max,
        },
        other => EgdbError::Threads(other.to_string()),
    }
}

impl Database for AwariDb {
    type Rules = OwareRules;
    type Info = AwariInfo;
    const GAME: GameKind = GameKind::Oware;
    const KIND: &'static str = "Awari database";
    const A_KIND: &'static str = "the Awari database";
    const ENTRY: &'static str = "board";
    const SEEDS_BOUND: &'static str = "N";

    crate::egdb::forward_to_inherent!(AwariDb);

    fn average_bits(&self) -> f64 {
        AwariDb::average_bits(self)
    }

    /// Builds the levels 0..=`max_seeds` ([`AwariDb::build_until`]) on the threads asked
    /// for (0 or none: every core), reporting the boards done after each level (the
    /// interval is not waited for: a level is a large share of the build), then converts to
    /// the encoding asked for.
    fn build(
        rules: &OwareRules,
        max_seeds: u32,
        options: BuildOptions<'_>,
    ) -> Result<AwariDb, EgdbError> {
        let total = Self::entries(rules, max_seeds)?;
        let (encoding, threads, progress) = options.into_parts();
        // Refused before any work, as `mancala egdb build` refuses it (the same check).
        fits(Self::build_memory(rules, max_seeds, encoding)?).map_err(EgdbError::OutOfMemory)?;
        let mut report = progress.map(|(_, callback)| callback);
        let start = Instant::now();
        let mut done = 0;
        let g = rules.grand_slam();
        let db = AwariDb::build_until_under(g, max_seeds, threads.unwrap_or(0), |r| {
            done += r.stats.boards;
            let p = BuildProgress {
                done,
                total,
                seconds: start.elapsed().as_secs_f64(),
            };
            report
                .as_mut()
                .is_none_or(|callback| callback(&p) == ControlFlow::Continue(()))
        })
        .map_err(|e| build_error(rules, e))?;
        match encoding {
            Encoding::Byte => Ok(db),
            Encoding::Packed | Encoding::Compact => db.convert(encoding),
        }
    }

    fn entry_count(&self) -> u64 {
        entries_to(self.max_seeds())
    }

    fn check_encoding(_: Encoding) -> Result<(), EgdbError> {
        // One byte a board, packed and compact: `awari::file`, `awari::compact`.
        Ok(())
    }

    fn info_serves(info: &AwariInfo, rules: &OwareRules) -> Result<(), RulesMismatch> {
        // A header that checks names the rule set of one of the databases.
        check_rules_for(info.grand_slam, rules)
    }

    fn serves_rules(&self, rules: &OwareRules) -> Result<(), RulesMismatch> {
        check_rules_for(self.grand_slam, rules)
    }

    fn file_name(rules: &OwareRules, max_seeds: u32, encoding: Encoding) -> String {
        AwariDb::file_name_under(rules.grand_slam(), max_seeds, encoding)
    }

    fn own_file_name(&self) -> String {
        AwariDb::file_name_under(self.grand_slam, self.max_seeds, self.encoding())
    }

    fn entries(rules: &OwareRules, max_seeds: u32) -> Result<u64, EgdbError> {
        // No database holds it, whichever grand-slam rule: said as the command says it.
        check_rules(rules).map_err(EgdbError::Unserved)?;
        if max_seeds > MAX_SEEDS {
            return Err(build_error(
                rules,
                AwariError::TooManySeeds {
                    seeds: max_seeds,
                    max: MAX_SEEDS,
                },
            ));
        }
        Ok(entries_to(max_seeds))
    }

    /// The values (one byte a board) and the build's work space for the top level (about
    /// four bytes a board of it), or for a packed build the one-byte values and the packed
    /// ones at once while packing, whichever is more; for a compact build the one-byte
    /// values, the top level's codes and about a byte a board for the compact payload
    /// while it is coded and copied.
    fn build_memory(
        rules: &OwareRules,
        max_seeds: u32,
        encoding: Encoding,
    ) -> Result<u64, EgdbError> {
        let entries = Self::entries(rules, max_seeds)?;
        let top = level_len(max_seeds).unwrap_or(0);
        let byte = byte_build_memory(max_seeds);
        let packed = match encoding {
            Encoding::Byte => 0,
            Encoding::Packed => {
                let w = bits_per_entry(encoding, max_seeds);
                (entries * u64::from(w)).div_ceil(8) + crate::egdb::packed::PAD as u64
            }
            Encoding::Compact => top + entries + super::compact::decoder_bytes(max_seeds),
        };
        Ok(byte.max(entries + packed))
    }

    /// [`DEFAULT_MAX_SEEDS`] for the rule sets whose values the databases hold.
    fn default_max_seeds(rules: &OwareRules, _: Option<u64>) -> Option<u32> {
        values_carry_over(rules).then_some(DEFAULT_MAX_SEEDS)
    }

    fn describe(&self) -> String {
        format!("{}, {}", self.rules(), Self::extent(self.max_seeds()))
    }

    fn family(rules: &OwareRules) -> String {
        AwariDb::rules_of(rules.grand_slam()).to_string()
    }

    fn extent(max_seeds: u32) -> String {
        format!("levels 0..={max_seeds}")
    }

    /// `Awari database` for `awari`'s grand-slam rule, `Oware database of
    /// awari+grand_slam=none` (the rule set of the database) for the others.
    fn kind_of(rules: &OwareRules) -> String {
        match rules.grand_slam() {
            GrandSlam::UnlessOnly => Self::KIND.to_string(),
            g => format!("Oware database of {}", AwariDb::rules_of(g)),
        }
    }

    /// `the Awari database`, `the Oware database of awari+grand_slam=none`.
    fn a_kind_of(rules: &OwareRules) -> String {
        format!("the {}", Self::kind_of(rules))
    }
}
