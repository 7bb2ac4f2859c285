//! # mancala-bench
//!
//! The solver benchmark suite behind `mancala bench`: a fixed, versioned set of Kalah
//! positions with known exact values, a runner that solves them and checks every value, and
//! the suite's *signature* (the total nodes searched, like a chess engine's `bench`).
//!
//! # The sets (suite version [`SUITE_VERSION`])
//!
//! | name | positions | expected values from |
//! |---|---|---|
//! | `kalah63` | start of `kalah(6,3)` | +2, Rawlings 2015 |
//! | `kalah63-ec` | start of `kalah(6,3)+empty_capture` | +2, Irving, Donkers & Uiterwijk 2000 |
//! | `kalah64` | start of `standard` (Kalah(6,4)) | +8, Rawlings 2015 |
//! | `kalah64-ec` | start of `kalah(6,4)+empty_capture` | +10, Irving, Donkers & Uiterwijk 2000 |
//! | `kalah55-ec` | start of `kalah(5,5)+empty_capture` | +2, this solver and Irving et al.'s program (see [`set`]) |
//! | `midgame64` | the mid-game file (`data/kalah64-midgame-v1.txt`): Kalah(6,4) standard positions from random play | this solver, brute force for the small ones |
//! | `midgame64-quick` | the first 20 positions of `midgame64` | as `midgame64` |
//!
//! [`full`] is every set but `midgame64-quick` (minutes on one thread without a database:
//! the Kalah(6,4) start positions dominate); [`quick`] is `kalah63-ec` and
//! `midgame64-quick` (about 1.5 M nodes, well under a second of CPU in a release build),
//! the set CI runs.
//!
//! # What is measured
//!
//! [`run_set`] solves every position of a set with [`Solver::solve`] (value, best moves and
//! principal variation, as `mancala solve` does) after [`Solver::clear_table`], so a
//! position's node count never depends on the positions solved before it. A value is *checked*
//! when the solve is exact and equals the expected value.
//!
//! # Grading a player
//!
//! The module [`grade`] scores any player (the engine at a level, a closure, an external
//! program speaking the line protocol) by the seeds each of its moves gives away against
//! the exact values of every move, on these sets or generated ones (`mancala grade`).
//!
//! # Matches
//!
//! The module [`matches`](mod@matches) plays a match between two such players (`mancala match`): pairs of
//! games from the same random opening, sides exchanged, a failure losing the game, and the
//! score with a 95 % Wilson interval.
//!
//! # The signature
//!
//! The sum of the nodes of every position of the sets run ([`signature`]). With one thread
//! ([`SIGNATURE_THREADS`]), a [`SIGNATURE_TT_BYTES`] lock-free table and no endgame database
//! the search is deterministic, so two runs of one build give the same signature; it changes
//! when the search changes (move ordering, pruning), never the values. More threads or a
//! database give other node counts: those runs print their total nodes but no signature.
//!
//! ## Comparing builds
//!
//! The signature is the total nodes of the quick ([`quick`]) or full ([`full`]) suite at
//! `--threads 1 --tt-mb 64` without a database. On one thread the search makes no decision
//! that depends on time: the suite sets no node or time limit, no thread races another (the
//! pool of one thread never splits a node; a progress display only reads snapshots), the
//! table's size is fixed by `--tt-mb`, and move ordering and table replacement are integer
//! arithmetic on the position and on what the search stored before (no clock, no random
//! numbers, no hash map's order). So the node counts of one source are the same on every
//! CPU and operating system and in every build profile. To
//! compare two builds, run `mancala bench --quick` with each and compare the signatures: a
//! change means the search visits other nodes (move ordering, pruning), not that it is
//! wrong — the values are checked separately, and a run with a wrong value fails and prints
//! no signature. A run of `--set` or `--file` prints the signature of its selection, named
//! after it (the set names, then `file:` and the file's path as given); it compares only with a run of
//! the same selection and [`SUITE_VERSION`].

#![deny(missing_docs)]

mod generate;
pub mod grade;
pub mod matches;

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use mancala_core::kalah::{KalahPosition, KalahRules, PositionError};
use mancala_core::RulesError;
use mancala_solver::{SolveError, SolveOptions, SolveProgress, Solver};
use thiserror::Error;

pub use generate::{generate_midgame, generate_midgame_until, generate_oware, GenerateParams};

/// Version of the suite: raised whenever a set's positions or expected values change, so that
/// two signatures are only compared for one version. Version 2 added `kalah55-ec` to the full
/// suite (the quick suite is the same as in version 1).
pub const SUITE_VERSION: u32 = 2;

/// Version of the positions file format ([`parse_positions`]), the number on the first line of
/// a file [`generate_midgame`] writes (`# mancala bench positions file, format version 1`).
/// It is the file's layout, not the suite's positions ([`SUITE_VERSION`]): it changes only
/// when the format does.
pub(crate) const POSITIONS_FORMAT_VERSION: u32 = 1;

/// The mid-game file, version 1: Kalah(6,4) standard positions reached by random play from
/// the start, one `position value` line each, generated by [`generate_midgame`] with the
/// parameters in its header (`mancala bench --generate` prints it again bit for bit).
const MIDGAME_V1: &str = include_str!("../data/kalah64-midgame-v1.txt");

/// Positions of the `midgame64-quick` set: the first this many lines of [`MIDGAME_V1`].
const QUICK_MIDGAME: usize = 20;

/// Threads of the signature's configuration.
pub const SIGNATURE_THREADS: usize = 1;

/// Transposition-table size of the signature's configuration, bytes (64 MiB, the
/// [`Solver::new`] default).
pub const SIGNATURE_TT_BYTES: usize = 64 << 20;

/// Every set name, in the order [`full`] runs them (`midgame64-quick` last, outside `full`).
pub const SET_NAMES: [&str; 7] = [
    "kalah63",
    "kalah63-ec",
    "kalah64",
    "kalah64-ec",
    "kalah55-ec",
    "midgame64",
    "midgame64-quick",
];

/// Where a set's expected values come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueSource {
    /// A published value; the text cites the source.
    Published(&'static str),
    /// Values computed by this solver and recorded in the suite (see the set's description for
    /// how they were checked).
    Recorded(&'static str),
}

impl std::fmt::Display for ValueSource {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ValueSource::Published(s) => write!(f, "published: {s}"),
            ValueSource::Recorded(s) => write!(f, "recorded: {s}"),
        }
    }
}

/// One position of a set and its expected exact value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BenchPosition {
    /// The position (its rules included).
    pub position: KalahPosition,
    /// The exact value for the player to move, seeds: the store difference they can still gain
    /// with perfect play on both sides ([`Solution::value`](mancala_solver::Solution::value)).
    pub value: i32,
}

/// A named set of positions with expected values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchSet {
    /// The set's name ([`SET_NAMES`], or a name chosen by the caller for a file).
    pub name: String,
    /// The rules every position is played under.
    pub rules: KalahRules,
    /// Where the expected values come from.
    pub source: ValueSource,
    /// The positions, in the order they are solved.
    pub positions: Vec<BenchPosition>,
}

/// Why a set could not be read or made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BenchError {
    /// No set of that name ([`SET_NAMES`] lists them).
    #[error("no benchmark set named {0:?} (sets: {names})", names = SET_NAMES.join(", "))]
    UnknownSet(String),
    /// A positions file has no `# rules: …` line before its first position.
    #[error("line {line}: a position before the `# rules: …` line")]
    MissingRules {
        /// 1-based line number.
        line: usize,
    },
    /// A second `# rules: …` line: a file has one, before its first position.
    #[error("line {line}: a second `# rules: …` line (a file has one, on line {first} here)")]
    SecondRules {
        /// 1-based line number of the second one.
        line: usize,
        /// 1-based line number of the first one.
        first: usize,
    },
    /// The rule set of a `# rules: …` line does not parse as a Kalah rule set
    /// ([`mancala_core::Rules::parse_kalah`]: a malformed rule set of another game gets
    /// that game's parser's reason).
    #[error("line {line}: the `# rules:` line: {source}")]
    Rules {
        /// 1-based line number.
        line: usize,
        /// The parser's reason.
        source: RulesError,
    },
    /// A position does not parse under the file's rules.
    #[error("line {line}: {source}")]
    Position {
        /// 1-based line number.
        line: usize,
        /// The parser's reason.
        source: PositionError,
    },
    /// A line is not `position value` with an integer value (seeds).
    #[error("line {line}: expected `position value`, e.g. `4,4,4,4,4,4,0,4,4,4,4,4,4,0 S +8`, got {text:?}")]
    Line {
        /// 1-based line number.
        line: usize,
        /// The line.
        text: String,
    },
    /// A position of the file is a finished game (it has nothing to solve).
    #[error("line {line}: the game is over in this position")]
    Finished {
        /// 1-based line number.
        line: usize,
    },
    /// A file with no position.
    #[error("no position in the file")]
    Empty,
    /// A generator parameter is out of range.
    #[error("{0}")]
    Parameters(String),
    /// The solver refused a position while generating.
    #[error("solving {position}: {source}")]
    Solve {
        /// The position, in the notation.
        position: String,
        /// The solver's reason.
        source: SolveError,
    },
    /// The solver stopped before an exact value while generating (a limit was set).
    #[error("solving {0}: no exact value (a node or time limit stopped the solver)")]
    NotExact(String),
    /// The caller stopped the generation ([`generate_midgame_until`], [`generate_oware`]).
    #[error("the generation was stopped")]
    Cancelled,
    /// A rule set or position of a file of Oware positions ([`parse_oware_positions`]) is
    /// refused, or the file's rule set is not Oware.
    #[error("line {line}: {reason}")]
    Oware {
        /// 1-based line number.
        line: usize,
        /// The parser's reason.
        reason: String,
    },
}

/// Reads a file of Oware positions (e.g. for grading against an Awari database): `#`
/// comment lines, blank lines, one `# rules: RULES` line (an Oware rule set, e.g. `awari`)
/// before the first position, then one position a line in the Oware notation
/// (`docs/notation.md`), optionally followed by a value (an integer, as in a Kalah positions
/// file; not read). Returns the rules and the positions in file order.
///
/// # Errors
/// [`BenchError::MissingRules`], [`BenchError::SecondRules`], [`BenchError::Oware`] (a rule
/// set that does not parse or is not Oware's, a position that does not parse),
/// [`BenchError::Finished`], [`BenchError::Empty`].
pub fn parse_oware_positions(
    text: &str,
) -> Result<
    (
        mancala_core::oware::OwareRules,
        Vec<mancala_core::oware::OwarePosition>,
    ),
    BenchError,
> {
    use mancala_core::oware::OwarePosition;

    parse_file(
        text,
        |r, line| {
            let any: mancala_core::Rules = r.parse().map_err(|e| BenchError::Oware {
                line,
                reason: format!("the `# rules:` line: {e}"),
            })?;
            any.oware().ok_or_else(|| BenchError::Oware {
                line,
                reason: format!("the `# rules:` line: {r} is not an Oware rule set"),
            })
        },
        |r, t, line| {
            // `counts side [value]`: the position is the first two words.
            let mut words = t.split_whitespace();
            let text = match (words.next(), words.next()) {
                (Some(a), Some(b)) => format!("{a} {b}"),
                _ => t.to_string(),
            };
            let position = OwarePosition::parse(r, &text).map_err(|e| BenchError::Oware {
                line,
                reason: e.to_string(),
            })?;
            if position.is_over() {
                return Err(BenchError::Finished { line });
            }
            Ok(position)
        },
    )
}

/// Reads a positions file: `#` comment lines, blank lines, one `# rules: RULES` line before
/// the first position, then one `position value` line per position (the position in the
/// notation of `KalahPosition::parse`, the value an integer number of seeds with an optional
/// sign). Returns the rules and the positions in file order.
///
/// # Errors
/// [`BenchError::MissingRules`], [`BenchError::SecondRules`], [`BenchError::Rules`],
/// [`BenchError::Position`],
/// [`BenchError::Line`], [`BenchError::Finished`], [`BenchError::Empty`].
pub fn parse_positions(text: &str) -> Result<(KalahRules, Vec<BenchPosition>), BenchError> {
    let (rules, ps) = parse_positions_at(text)?;
    Ok((rules, ps.into_iter().map(|(_, p)| p).collect()))
}

/// [`parse_positions`], each position with the 1-based number of its line in `text` (for
/// messages about a position of the file, such as a value that disagrees with the exact one:
/// [`grade::check_values`]).
///
/// # Errors
/// Those of [`parse_positions`].
pub fn parse_positions_at(
    text: &str,
) -> Result<(KalahRules, Vec<(usize, BenchPosition)>), BenchError> {
    parse_file(
        text,
        |r, line| {
            mancala_core::Rules::parse_kalah(r).map_err(|source| BenchError::Rules { line, source })
        },
        |r, t, line| {
            let bad = || BenchError::Line {
                line,
                text: t.to_string(),
            };
            let (pos_text, value_text) = t.rsplit_once(char::is_whitespace).ok_or_else(bad)?;
            let value: i32 = value_text
                .strip_prefix('+')
                .unwrap_or(value_text)
                .parse()
                .map_err(|_| bad())?;
            let position = KalahPosition::parse(r, pos_text.trim())
                .map_err(|source| BenchError::Position { line, source })?;
            if position.is_over() {
                return Err(BenchError::Finished { line });
            }
            Ok((line, BenchPosition { position, value }))
        },
    )
}

/// The rule-set text of a positions file's header line `line` (`# rules: RULES`), `None`
/// when `line` is not one. The one reader of that line for every game (the Kalah and the
/// Oware readers of this crate, and the front ends that look for the rule set before they
/// choose a reader). Accepted: whitespace around the line and around `#`, `rules` and `:`
/// (`#rules: awari`, `#  rules :  awari`), `rules` in any case (`# Rules: awari`), and a
/// UTF-8 byte-order mark (U+FEFF) before the line (a file saved by an editor that writes
/// one). The text returned is trimmed; it is not checked (the rule-set parser does that).
/// Format: `docs/grading.md`, "Positions files".
#[must_use]
pub fn rules_header(line: &str) -> Option<&str> {
    let t = line.trim_start_matches('\u{feff}').trim();
    let rest = t.strip_prefix('#')?.trim_start();
    let word = rest.get(..5)?;
    if !word.eq_ignore_ascii_case("rules") {
        return None;
    }
    Some(rest[5..].trim_start().strip_prefix(':')?.trim())
}

/// The first `# rules:` header line of the positions file `text` ([`rules_header`]): its
/// 1-based line number and its rule-set text; `None` when the file has none.
#[must_use]
pub fn file_rules(text: &str) -> Option<(usize, &str)> {
    text.lines()
        .enumerate()
        .find_map(|(i, l)| rules_header(l).map(|r| (i + 1, r)))
}

/// The frame of a positions file, for every game: `#` comment lines and blank lines skipped,
/// one `# rules: RULES` line ([`rules_header`]; read by `rules_of` with the text after
/// `rules:` and the 1-based line number) before the first position, then one position a line (read by `position_of`
/// with the rules, the trimmed line and its number). Returns the rules and the positions in
/// file order.
///
/// # Errors
/// [`BenchError::SecondRules`] for a second rules line, [`BenchError::MissingRules`] for a
/// position before it, [`BenchError::Empty`] for a file without rules or positions, and
/// whatever `rules_of` and `position_of` return.
fn parse_file<R: Copy, P>(
    text: &str,
    rules_of: impl Fn(&str, usize) -> Result<R, BenchError>,
    position_of: impl Fn(R, &str, usize) -> Result<P, BenchError>,
) -> Result<(R, Vec<P>), BenchError> {
    let mut rules: Option<R> = None;
    let mut rules_line = 0;
    let mut positions = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim_start_matches('\u{feff}').trim();
        if t.is_empty() {
            continue;
        }
        if t.starts_with('#') {
            if let Some(r) = rules_header(t) {
                if rules.is_some() {
                    return Err(BenchError::SecondRules {
                        line,
                        first: rules_line,
                    });
                }
                rules_line = line;
                rules = Some(rules_of(r, line)?);
            }
            continue;
        }
        let r = rules.ok_or(BenchError::MissingRules { line })?;
        positions.push(position_of(r, t, line)?);
    }
    match rules {
        Some(r) if !positions.is_empty() => Ok((r, positions)),
        _ => Err(BenchError::Empty),
    }
}

fn start_set(name: &str, rules: &str, value: i32, source: ValueSource) -> BenchSet {
    let rules: KalahRules = rules.parse().expect("the suite's rule sets parse");
    BenchSet {
        name: name.to_string(),
        rules,
        source,
        positions: vec![BenchPosition {
            position: KalahPosition::start(rules),
            value,
        }],
    }
}

const MIDGAME_SOURCE: &str = "this solver at generation; every position with at most 16 \
     seeds in the houses equals an exhaustive minimax in the solver's tests (tests/bench.rs)";

const KALAH55_SOURCE: &str = "this solver (the same +2 for any thread count and table size); \
     no published value was found, and the solver of Irving, Donkers & Uiterwijk (2000), \
     rebuilt for five houses, gives +2 too (BENCHMARKS.md)";

fn midgame(name: &str, take: usize) -> BenchSet {
    let (rules, mut positions) = parse_positions(MIDGAME_V1).expect("the suite's file parses");
    positions.truncate(take);
    BenchSet {
        name: name.to_string(),
        rules,
        source: ValueSource::Recorded(MIDGAME_SOURCE),
        positions,
    }
}

/// The set called `name` (one of [`SET_NAMES`]). The value of `kalah55-ec` (+2) is this
/// solver's: no published value of Kalah(5,5) with empty capture was found. The solver of
/// Irving, Donkers & Uiterwijk (2000), rebuilt for five houses with its own exact database,
/// gives the same +2 (BENCHMARKS.md, "`mancala bench`").
///
/// # Errors
/// [`BenchError::UnknownSet`] for any other name.
pub fn set(name: &str) -> Result<BenchSet, BenchError> {
    const RAWLINGS: &str = "Rawlings 2015";
    const IRVING: &str = "Irving, Donkers & Uiterwijk 2000, \"Solving Kalah\"";
    Ok(match name {
        "kalah63" => start_set(name, "kalah(6,3)", 2, ValueSource::Published(RAWLINGS)),
        "kalah63-ec" => start_set(
            name,
            "kalah(6,3)+empty_capture",
            2,
            ValueSource::Published(IRVING),
        ),
        "kalah64" => start_set(name, "standard", 8, ValueSource::Published(RAWLINGS)),
        "kalah64-ec" => start_set(
            name,
            "kalah(6,4)+empty_capture",
            10,
            ValueSource::Published(IRVING),
        ),
        "kalah55-ec" => start_set(
            name,
            "kalah(5,5)+empty_capture",
            2,
            ValueSource::Recorded(KALAH55_SOURCE),
        ),
        "midgame64" => midgame(name, usize::MAX),
        "midgame64-quick" => midgame(name, QUICK_MIDGAME),
        _ => return Err(BenchError::UnknownSet(name.to_string())),
    })
}

/// The full suite: every set of [`SET_NAMES`] but `midgame64-quick`, in that order.
#[must_use]
pub fn full() -> Vec<BenchSet> {
    SET_NAMES[..SET_NAMES.len() - 1]
        .iter()
        .map(|n| set(n).expect("a listed set"))
        .collect()
}

/// The quick suite CI runs: `kalah63-ec`, `midgame64-quick`.
#[must_use]
pub fn quick() -> Vec<BenchSet> {
    ["kalah63-ec", "midgame64-quick"]
        .iter()
        .map(|n| set(n).expect("a listed set"))
        .collect()
}

/// The outcome of one position of a set.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionResult {
    /// The position solved.
    pub position: KalahPosition,
    /// The expected value (seeds).
    pub expected: i32,
    /// The solver's value (seeds), `None` when the solve was not exact (a limit stopped it).
    pub value: Option<i32>,
    /// Nodes searched ([`Solution::nodes`](mancala_solver::Solution::nodes)).
    pub nodes: u64,
    /// Wall time of the solve, seconds.
    pub seconds: f64,
}

impl PositionResult {
    /// Whether the solve was exact and gave the expected value.
    #[must_use]
    pub fn correct(&self) -> bool {
        self.value == Some(self.expected)
    }
}

/// The outcome of a whole set.
#[derive(Clone, Debug, PartialEq)]
pub struct SetResult {
    /// The set's name.
    pub name: String,
    /// One result per position, in the set's order.
    pub positions: Vec<PositionResult>,
}

impl SetResult {
    /// Nodes of every position (nodes).
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.positions.iter().map(|p| p.nodes).sum()
    }

    /// Wall time of every solve, seconds.
    #[must_use]
    pub fn seconds(&self) -> f64 {
        self.positions.iter().map(|p| p.seconds).sum()
    }

    /// Positions whose value was checked correct.
    #[must_use]
    pub fn correct(&self) -> usize {
        self.positions.iter().filter(|p| p.correct()).count()
    }

    /// The positions with a wrong or unproven value.
    pub fn wrong(&self) -> impl Iterator<Item = &PositionResult> {
        self.positions.iter().filter(|p| !p.correct())
    }
}

/// Reports while a position of a set is solved ([`run_set`]): every `interval` (at least
/// [`MIN_INTERVAL`](mancala_solver::progress::MIN_INTERVAL)), the callback gets the index
/// of the position being solved and its [`SolveProgress`] (bounds, nodes, seconds), as
/// [`SolveOptions::progress`] gives them, on the calling thread.
pub type Watch<'a> = (Duration, &'a mut dyn FnMut(usize, &SolveProgress));

/// Solves every position of `set` with `solver` (its threads, table and database as
/// configured; the table is cleared before each position) and checks each value. `progress`
/// is called after each position with its index and result; `watch`, when given, while each
/// position is solved ([`Watch`]). The solves and their node counts are the same with or
/// without `watch` (it only reads the search's snapshots), so the signature is the same.
///
/// # Errors
/// The first [`SolveError`] of the solver (a database for other rules, no memory for the
/// table, …; [`SolveError::Threads`] also when the helper thread of a watched solve cannot
/// start); a wrong value is not an error but a result that is not
/// [`PositionResult::correct`].
pub fn run_set(
    set: &BenchSet,
    solver: &mut Solver,
    mut progress: impl FnMut(usize, &PositionResult),
    mut watch: Option<Watch<'_>>,
) -> Result<SetResult, SolveError> {
    let mut positions = Vec::with_capacity(set.positions.len());
    for (i, p) in set.positions.iter().enumerate() {
        solver.clear_table();
        let t0 = Instant::now();
        let s = match &mut watch {
            None => solver.solve(&p.position, SolveOptions::new())?,
            Some((interval, f)) => {
                let mut each = |sp: &SolveProgress| {
                    f(i, sp);
                    ControlFlow::Continue(())
                };
                let options = SolveOptions::new().progress(*interval, &mut each);
                solver.solve(&p.position, options)?
            }
        };
        let r = PositionResult {
            position: p.position,
            expected: p.value,
            value: s.exact.then_some(s.value),
            nodes: s.nodes,
            seconds: t0.elapsed().as_secs_f64(),
        };
        progress(i, &r);
        positions.push(r);
    }
    Ok(SetResult {
        name: set.name.clone(),
        positions,
    })
}

/// The signature of a run: the total nodes of every position of every set (nodes). Only
/// comparable between runs of one [`SUITE_VERSION`] and one selection of sets with the
/// signature's configuration ([`SIGNATURE_THREADS`], [`SIGNATURE_TT_BYTES`], no database).
#[must_use]
pub fn signature(results: &[SetResult]) -> u64 {
    results.iter().map(SetResult::nodes).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_format_errors_name_the_line() {
        let r = "# rules: standard\n";
        assert_eq!(
            parse_positions("4,4,4,4,4,4,0,4,4,4,4,4,4,0 S +8\n"),
            Err(BenchError::MissingRules { line: 1 })
        );
        assert!(matches!(
            parse_positions("# rules: kalah(9,4)\n"),
            Err(BenchError::Rules { line: 1, .. })
        ));
        assert!(matches!(
            parse_positions(&format!("{r}4,4,4,4,4,4,0,4,4,4,4,4,4,0 S eight\n")),
            Err(BenchError::Line { line: 2, .. })
        ));
        assert!(matches!(
            parse_positions(&format!("{r}\n4,4,4,4,4,0,4,4,4,4,4,4,0 S +8\n")),
            Err(BenchError::Position { line: 3, .. })
        ));
        assert_eq!(
            parse_positions(&format!("{r}0,0,0,0,0,0,30,0,0,0,0,0,0,18 - 0\n")),
            Err(BenchError::Finished { line: 2 })
        );
        assert_eq!(parse_positions(r), Err(BenchError::Empty));
        // One `# rules:` line: a second one is refused, after a position or before, the same
        // rules or others.
        for second in ["kalah(6,3)+empty_capture", "standard"] {
            assert_eq!(
                parse_positions(&format!(
                    "{r}4,4,4,4,4,4,0,4,4,4,4,4,4,0 S +8\n# rules: {second}\n"
                )),
                Err(BenchError::SecondRules { line: 3, first: 1 })
            );
        }
        assert_eq!(
            parse_positions(&format!("# x\n{r}{r}4,4,4,4,4,4,0,4,4,4,4,4,4,0 S +8\n")),
            Err(BenchError::SecondRules { line: 3, first: 2 })
        );
        let (rules, ps) = parse_positions(&format!(
            "{r}# a comment\n4,4,4,4,4,4,0,4,4,4,4,4,4,0 S +8\n"
        ))
        .unwrap();
        assert_eq!(rules, "kalah(6,4)".parse::<KalahRules>().unwrap());
        assert_eq!(ps.len(), 1);
        assert_eq!(ps[0].value, 8);
        assert_eq!(ps[0].position, KalahPosition::start(rules));
    }

    #[test]
    fn the_rules_header_is_read_alike_for_every_game() {
        for line in [
            "# rules: awari",
            "#rules: awari",
            "#  rules :  awari  ",
            "  # Rules: awari",
            "# RULES:awari",
            "\u{feff}# rules: awari",
        ] {
            assert_eq!(rules_header(line), Some("awari"), "{line:?}");
        }
        for line in [
            "# rules awari",
            "# the rules: awari",
            "rules: awari",
            "# ruleset: awari",
            "# rulesé",
            "#",
        ] {
            assert_eq!(rules_header(line), None, "{line:?}");
        }
        assert_eq!(file_rules("# x\n\n#Rules : awari\n"), Some((3, "awari")));
        assert_eq!(file_rules("# x\n"), None);
        // Both readers take every form, a byte-order mark at the start of the file included.
        let kalah = "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S +8\n";
        let oware = "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S\n";
        for header in ["#rules: standard", "\u{feff}#  Rules :  standard"] {
            let (rules, ps) = parse_positions(&format!("{header}\n{kalah}")).unwrap();
            assert_eq!(rules, "kalah(6,4)".parse::<KalahRules>().unwrap());
            assert_eq!(ps.len(), 1);
        }
        for header in ["#rules: awari", "\u{feff}#  Rules :  awari"] {
            let (rules, ps) = parse_oware_positions(&format!("{header}\n{oware}")).unwrap();
            assert_eq!(rules.to_string(), "awari");
            assert_eq!(ps.len(), 1);
        }
        // A rules line that does not parse is named as the `# rules:` line, for both.
        let e = parse_positions(&format!("# rules: nonsense\n{kalah}")).unwrap_err();
        assert!(
            e.to_string().starts_with("line 1: the `# rules:` line: "),
            "{e}"
        );
        let e = parse_oware_positions(&format!("# rules: nonsense\n{oware}")).unwrap_err();
        assert!(
            e.to_string().starts_with("line 1: the `# rules:` line: "),
            "{e}"
        );
    }

    #[test]
    fn positions_come_with_their_line_numbers() {
        let (_, ps) = parse_positions_at(
            "# rules: standard\n\n# c\n4,4,4,4,4,4,0,4,4,4,4,4,4,0 S +8\n4,4,4,4,4,4,0,4,4,4,4,4,4,0 N -8\n",
        )
        .unwrap();
        let lines: Vec<(usize, i32)> = ps.iter().map(|(l, p)| (*l, p.value)).collect();
        assert_eq!(lines, vec![(4, 8), (5, -8)]);
    }

    #[test]
    fn unknown_set_is_an_error() {
        assert_eq!(
            set("kalah99"),
            Err(BenchError::UnknownSet("kalah99".into()))
        );
        for name in SET_NAMES {
            assert_eq!(set(name).unwrap().name, name);
        }
    }
}

/// The README's example, compiled and run as a doctest (`cargo test --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
