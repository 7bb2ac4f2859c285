//! The generator of positions files ([`generate_midgame`]): random play from the start with
//! a fixed, documented random generator, each position kept solved exactly; how the
//! mid-game file (`data/kalah64-midgame-v1.txt`) was made.

use std::collections::HashSet;
use std::ops::ControlFlow;

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_core::oware::{OwarePosition, OwareRules};
use mancala_solver::{SolveOptions, SolveProgress, Solver};

use crate::{BenchError, POSITIONS_FORMAT_VERSION};

/// Most positions [`generate_midgame`] writes in one file (its `count`): each is solved
/// exactly, so a larger file would take days; a larger count is [`BenchError::Parameters`].
pub(crate) const MAX_GENERATE_COUNT: usize = 100_000;

/// Walks in a row that find no new position (each ends in a finished game or a position
/// already kept) after which [`generate_midgame`] stops with [`BenchError::Parameters`]: the
/// seed range then has no such position (`--min-seeds 1 --max-seeds 1`) or fewer than the
/// count asked for. The mid-game file's longest such run is a few walks.
pub(crate) const MAX_FRUITLESS_WALKS: u64 = 1000;

/// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): a fixed, documented generator, so that a file generated from a seed is the
/// same with every version of every dependency.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64(u64);

impl SplitMix64 {
    /// A generator started at `seed`.
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (n ≥ 1) by Lemire's multiply-shift (the high word of a 64 × 64-bit
    /// product; the bias is below n / 2^64).
    pub(crate) fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }
}

/// Parameters of [`generate_midgame`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GenerateParams {
    /// Rule set of the positions (the file's `# rules:` line).
    pub rules: KalahRules,
    /// Seed of the random generator (SplitMix64, Steele, Lea & Flood 2014).
    pub seed: u64,
    /// Positions to write.
    pub count: usize,
    /// Lower end of the target seeds in the houses (a capture may leave a position below it).
    pub min_seeds: u32,
    /// Upper end of the target: no position has more seeds in the houses.
    pub max_seeds: u32,
}

impl GenerateParams {
    /// The parameters of the mid-game file: Kalah(6,4) standard rules, seed
    /// 1, 240 positions for targets of 8..=30 seeds in the houses.
    #[must_use]
    pub fn midgame_v1() -> GenerateParams {
        GenerateParams {
            rules: "standard".parse().expect("standard parses"),
            seed: 1,
            count: 240,
            min_seeds: 8,
            max_seeds: 30,
        }
    }
}

/// Writes a positions file by random play, the procedure of the mid-game file
/// (`data/kalah64-midgame-v1.txt`): for each position, draw a target t uniformly in
/// `min_seeds..=max_seeds`, play uniformly random legal moves from the start of `rules` until
/// at most t seeds are left in the houses; keep the position if the game is still on and it
/// is new, otherwise start again from the start position with the generator as it stands;
/// after 1,000 walks in a row that keep nothing, stop with an error. Each kept position is solved with `solver`
/// (table cleared first) and written with its exact value. The result is a function of the
/// parameters alone (the generator is SplitMix64 (Steele, Lea & Flood 2014), values are
/// exact).
///
/// # Errors
/// [`BenchError::Parameters`] for an empty or impossible seed range or a count of 0 or
/// above 100,000 (each position is solved exactly), and when 1,000 walks in a row find no new
/// position (the range has fewer positions than the count, or none; the message says how
/// many were found),
/// [`BenchError::Solve`] when the solver refuses a position, [`BenchError::NotExact`] when a
/// limit of `solver` stops a solve.
pub fn generate_midgame(
    params: &GenerateParams,
    solver: &mut Solver,
    progress: impl FnMut(usize, &KalahPosition),
) -> Result<String, BenchError> {
    generate(params, solver, progress, None)
}

/// How often a solve of [`generate_midgame_until`] calls its `stop`: 50 ms.
pub(crate) const STOP_INTERVAL: std::time::Duration = std::time::Duration::from_millis(50);

/// [`generate_midgame`] that its caller can stop: each solve calls `stop` every 50 ms (the
/// solver's progress callback, on the calling thread), and
/// between positions; when it returns [`ControlFlow::Break`] the generation ends with
/// [`BenchError::Cancelled`] (how Python's `generate_positions` stops on Ctrl-C). The file,
/// when it is finished, is the same as [`generate_midgame`]'s.
///
/// # Errors
/// As [`generate_midgame`], and [`BenchError::Cancelled`].
pub fn generate_midgame_until(
    params: &GenerateParams,
    solver: &mut Solver,
    progress: impl FnMut(usize, &KalahPosition),
    stop: &mut dyn FnMut() -> ControlFlow<()>,
) -> Result<String, BenchError> {
    generate(params, solver, progress, Some(stop))
}

fn generate(
    params: &GenerateParams,
    solver: &mut Solver,
    mut progress: impl FnMut(usize, &KalahPosition),
    mut stop: Option<&mut dyn FnMut() -> ControlFlow<()>>,
) -> Result<String, BenchError> {
    let start = KalahPosition::start(params.rules);
    let total = start.seeds_in_houses();
    if params.count == 0
        || params.count > MAX_GENERATE_COUNT
        || params.min_seeds == 0
        || params.min_seeds > params.max_seeds
        || params.max_seeds >= total
    {
        return Err(BenchError::Parameters(format!(
            "expected a count of 1..={MAX_GENERATE_COUNT} and 1 <= min-seeds <= max-seeds < {total} (the seeds \
             of the start position), got count {}, seeds {}..={}",
            params.count, params.min_seeds, params.max_seeds
        )));
    }
    let mut rng = SplitMix64::new(params.seed);
    let mut seen = HashSet::new();
    // No capacity reserved from `count`: it is the caller's number, and a file of
    // MAX_GENERATE_COUNT positions is still far more than a walk usually finds.
    let mut lines = Vec::new();
    let mut plies_min = u32::MAX;
    let mut plies_max = 0;
    let mut plies_sum = 0u64;
    let mut attempts = 0u64;
    let mut fruitless = 0u64;
    while lines.len() < params.count {
        if fruitless == MAX_FRUITLESS_WALKS {
            return Err(BenchError::Parameters(format!(
                "{} of {} positions found under {} with {}..={} seeds in the houses: the last \
                 {MAX_FRUITLESS_WALKS} random walks found no new one (each ended in a finished \
                 game or a position already found); ask for fewer positions or widen the seed range",
                lines.len(),
                params.count,
                params.rules,
                params.min_seeds,
                params.max_seeds
            )));
        }
        attempts += 1;
        let span = u64::from(params.max_seeds - params.min_seeds) + 1;
        let target = params.min_seeds + rng.below(span) as u32;
        let mut pos = start;
        let mut plies = 0u32;
        while !pos.is_over() && pos.seeds_in_houses() > target {
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            pos = pos.play_unchecked(mv);
            plies += 1;
        }
        if pos.is_over() || !seen.insert(pos) {
            fruitless += 1;
            continue;
        }
        fruitless = 0;
        solver.clear_table();
        let mut stopped = false;
        let s = match stop.as_deref_mut() {
            None => solver.solve(&pos, SolveOptions::new()),
            Some(stop) => {
                if stop().is_break() {
                    return Err(BenchError::Cancelled);
                }
                let mut tick = |_: &SolveProgress| {
                    let flow = stop();
                    stopped |= flow.is_break();
                    flow
                };
                solver.solve(&pos, SolveOptions::new().progress(STOP_INTERVAL, &mut tick))
            }
        }
        .map_err(|source| BenchError::Solve {
            position: pos.to_string(),
            source,
        })?;
        if stopped {
            return Err(BenchError::Cancelled);
        }
        if !s.exact {
            return Err(BenchError::NotExact(pos.to_string()));
        }
        progress(lines.len(), &pos);
        plies_min = plies_min.min(plies);
        plies_max = plies_max.max(plies);
        plies_sum += u64::from(plies);
        lines.push(format!("{pos} {:+}", s.value));
    }
    let mut out = String::new();
    out.push_str(&format!(
        "# mancala bench positions file, format version {POSITIONS_FORMAT_VERSION}\n\
         # generated by: mancala bench --generate --rules {quoted} --seed {seed} --count {count} \
         --min-seeds {lo} --max-seeds {hi}\n\
         # procedure: for each position a target t uniform in {lo}..={hi} seeds in the houses, \
         uniformly random legal moves\n\
         # from the start until at most t seeds are in the houses (SplitMix64 generator, seed \
         {seed}; a finished game or a\n\
         # repeated position is dropped and the next walk starts); {walks}, plies of \
         random play {pmin}..={pmax} (mean {pmean:.1})\n\
         # value: exact value for the player to move (seeds they can still gain over the \
         opponent with perfect play),\n\
         # computed by mancala-solver; the solver's tests check the small positions against an \
         exhaustive minimax\n\
         # rules: {rules}\n",
        rules = params.rules,
        quoted = shell_word(&params.rules.to_string()),
        walks = mancala_core::words::count(attempts, "walk", "walks"),
        seed = params.seed,
        count = params.count,
        lo = params.min_seeds,
        hi = params.max_seeds,
        pmin = plies_min,
        pmax = plies_max,
        pmean = plies_sum as f64 / params.count as f64,
    ));
    for l in lines {
        out.push_str(&l);
        out.push('\n');
    }
    Ok(out)
}

/// Longest random walk of [`generate_oware`], plies: a walk that has not reached its target
/// by then (Oware's seeds can circle for ever without a capture) is dropped as fruitless.
pub(crate) const MAX_WALK_PLIES: u32 = 1000;

/// Oware positions by random play, the walks of [`generate_midgame`] under Oware rules
/// (e.g. `awari`, for grading against an Awari database): for each position, draw a target
/// t uniformly in `min_seeds..=max_seeds` (SplitMix64 from `seed`), play uniformly random
/// legal moves from the start of `rules` until at most t seeds are left in the houses; keep
/// the position if the game is still on and it is new, else (or after 1,000 plies without
/// reaching t: seeds may circle without a capture) start again. Positions only,
/// no value (a database values them); the history rules (repetition, move limit) are not
/// applied to the walk. `stop` is called between walks; [`ControlFlow::Break`] ends the
/// generation with [`BenchError::Cancelled`]. The result is a function of the parameters.
///
/// # Errors
/// [`BenchError::Parameters`] for a count of 0 or above 100,000, an empty or impossible seed
/// range (min-seeds 0, above max-seeds, max-seeds not below the start's seeds), and after
/// 1,000 walks in a row that keep nothing;
/// [`BenchError::Cancelled`].
pub fn generate_oware(
    rules: OwareRules,
    seed: u64,
    count: usize,
    min_seeds: u32,
    max_seeds: u32,
    stop: &mut dyn FnMut() -> ControlFlow<()>,
) -> Result<Vec<OwarePosition>, BenchError> {
    let start = OwarePosition::start(rules);
    let total = start.seeds_in_houses();
    if count == 0
        || count > MAX_GENERATE_COUNT
        || min_seeds == 0
        || min_seeds > max_seeds
        || max_seeds >= total
    {
        return Err(BenchError::Parameters(format!(
            "expected a count of 1..={MAX_GENERATE_COUNT} and 1 <= min-seeds <= max-seeds < {total} (the seeds \
             of the start position), got count {count}, seeds {min_seeds}..={max_seeds}"
        )));
    }
    let mut rng = SplitMix64::new(seed);
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    let mut fruitless = 0u64;
    while out.len() < count {
        if stop().is_break() {
            return Err(BenchError::Cancelled);
        }
        if fruitless == MAX_FRUITLESS_WALKS {
            return Err(BenchError::Parameters(format!(
                "{} of {count} positions found under {rules} with {min_seeds}..={max_seeds} seeds in \
                 the houses: the last {MAX_FRUITLESS_WALKS} random walks found no new one; ask for \
                 fewer positions or widen the seed range",
                out.len()
            )));
        }
        let span = u64::from(max_seeds - min_seeds) + 1;
        let target = min_seeds + rng.below(span) as u32;
        let mut pos = start;
        let mut plies = 0;
        while !pos.is_over() && pos.seeds_in_houses() > target && plies < MAX_WALK_PLIES {
            let moves = pos.legal_moves();
            let mv = moves[rng.below(moves.len() as u64) as usize];
            pos = pos.play_unchecked(mv);
            plies += 1;
        }
        if pos.is_over() || pos.seeds_in_houses() > target || !seen.insert(pos) {
            fruitless += 1;
            continue;
        }
        fruitless = 0;
        out.push(pos);
    }
    Ok(out)
}

/// `word` as one word of a POSIX shell command line, to be pasted into a shell: as it is when
/// the shell takes every character of it literally (`standard`), else in single quotes
/// (`'kalah(4,2)'`; a `'` in it written `'\''`).
fn shell_word(word: &str) -> String {
    let literal = |c: char| c.is_ascii_alphanumeric() || "_-.,+=:/@%".contains(c);
    if !word.is_empty() && word.chars().all(literal) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splitmix64_reference_outputs() {
        // First outputs for seed 0 of the reference C implementation (Vigna,
        // prng.di.unimi.it/splitmix64.c), as used to seed xoshiro generators.
        let mut g = SplitMix64::new(0);
        assert_eq!(g.next_u64(), 0xE220_A839_7B1D_CDAF);
        assert_eq!(g.next_u64(), 0x6E78_9E6A_A1B9_65F4);
        assert_eq!(g.next_u64(), 0x06C4_5D18_8009_454F);
    }

    #[test]
    fn generator_refuses_a_count_out_of_range() {
        let mut solver = Solver::new().threads(1).tt_bytes(1 << 20);
        for count in [0, MAX_GENERATE_COUNT + 1, 1_000_000_000_000, usize::MAX] {
            let params = GenerateParams {
                count,
                ..GenerateParams::midgame_v1()
            };
            let e = generate_midgame(&params, &mut solver, |_, _| {}).unwrap_err();
            match e {
                BenchError::Parameters(m) => {
                    assert!(m.contains("count of 1..=100000"), "{m}");
                    assert!(m.contains(&format!("got count {count},")), "{m}");
                }
                other => panic!("{count}: {other:?}"),
            }
        }
    }

    #[test]
    fn generator_stops_when_the_range_runs_out_of_positions() {
        let mut solver = Solver::new().threads(1).tt_bytes(1 << 20);
        // One seed left in the houses: the side without it has none, so every walk ends in
        // a finished game.
        let none = GenerateParams {
            count: 1,
            min_seeds: 1,
            max_seeds: 1,
            ..GenerateParams::midgame_v1()
        };
        // Kalah(2,2) with 1..=3 seeds in the houses: at most C(3 + 4, 4) = 35 ways to put at
        // most 3 seeds in the 4 houses, at most 9 splits of the other seeds of the 8 between
        // the stores, 2 sides to move: at most 630 positions, fewer than the 1000 asked for.
        let few = GenerateParams {
            rules: "kalah(2,2)".parse().unwrap(),
            count: 1000,
            min_seeds: 1,
            max_seeds: 3,
            ..GenerateParams::midgame_v1()
        };
        for (params, found) in [(none, "0 of 1 positions"), (few, " of 1000 positions")] {
            match generate_midgame(&params, &mut solver, |_, _| {}).unwrap_err() {
                BenchError::Parameters(m) => {
                    assert!(m.contains(found), "{m}");
                    assert!(
                        m.contains("the last 1000 random walks found no new one"),
                        "{m}"
                    );
                }
                other => panic!("{params:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn shell_words_are_quoted_when_the_shell_would_read_them() {
        assert_eq!(shell_word("standard"), "standard");
        assert_eq!(shell_word("kalah(4,2)"), "'kalah(4,2)'");
        assert_eq!(
            shell_word("kalah(6,4)+empty_capture"),
            "'kalah(6,4)+empty_capture'"
        );
        assert_eq!(shell_word("a b"), "'a b'");
        assert_eq!(shell_word("it's"), "'it'\\''s'");
        assert_eq!(shell_word(""), "''");
    }
}
