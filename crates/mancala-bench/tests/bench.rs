//! The benchmark suite (`mancala_bench`): the mid-game file's values against the
//! independent brute force, the generator reproducing the file, the quick suite's values and
//! the determinism of its node counts.

use std::collections::HashSet;

use mancala_bench::{self as bench, BenchPosition, BenchSet, GenerateParams, ValueSource};
use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_reference::minimax::Brute;
use mancala_solver::Solver;

/// The suite's mid-game file, read as a user reads it.
const MIDGAME_V1: &str = include_str!("../data/kalah64-midgame-v1.txt");

/// Positions of the file with at most this many seeds in the houses are checked against the
/// exhaustive minimax of `mancala_reference::minimax::Brute` (memoised on the houses and the
/// side to move).
const BRUTE_FORCE_SEEDS: u32 = 16;

#[test]
fn midgame_file_is_the_documented_set() {
    let (rules, positions) = bench::parse_positions(MIDGAME_V1).unwrap();
    assert_eq!(rules, "standard".parse::<KalahRules>().unwrap());
    assert!(positions.len() >= 200, "{} positions", positions.len());
    let params = GenerateParams::midgame_v1();
    assert_eq!(positions.len(), params.count);
    let mut seen = HashSet::new();
    for p in &positions {
        assert!(seen.insert(p.position), "{} twice", p.position);
        let k = p.position.seeds_in_houses();
        // The walk stops at the first position with at most the target: a capture may take
        // it below `min_seeds`, never above `max_seeds`.
        assert!(
            k <= params.max_seeds,
            "{} has {k} seeds in the houses",
            p.position
        );
        // A value never exceeds the seeds still in play (none are stored twice).
        assert!(p.value.unsigned_abs() <= k, "{} {}", p.position, p.value);
    }
}

#[test]
fn midgame_values_equal_brute_force_for_small_positions() {
    let (_, positions) = bench::parse_positions(MIDGAME_V1).unwrap();
    let mut brute = Brute::new();
    let mut checked = 0;
    for p in &positions {
        if p.position.seeds_in_houses() <= BRUTE_FORCE_SEEDS {
            assert_eq!(brute.value(&p.position), p.value, "{}", p.position);
            checked += 1;
        }
    }
    // The file's seed range (8..=30) puts about a third of its positions in reach.
    assert!(checked >= 60, "only {checked} positions checked");
    eprintln!(
        "{checked} of {} positions checked by brute force",
        positions.len()
    );
}

#[test]
fn generator_reproduces_the_file() {
    // The generator is sequential: the first positions of a shorter run are the file's first
    // positions, values included (and the header names these parameters).
    let params = GenerateParams {
        count: 12,
        ..GenerateParams::midgame_v1()
    };
    let mut solver = Solver::new().threads(1).tt_bytes(16 << 20);
    let text = bench::generate_midgame(&params, &mut solver, |_, _| {}).unwrap();
    let body = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.starts_with('#'))
            .map(str::to_string)
            .collect()
    };
    let file = body(MIDGAME_V1);
    assert_eq!(body(&text), file[..12]);
    // The header's first line is the format's, whatever the count.
    assert_eq!(
        text.lines().next(),
        Some("# mancala bench positions file, format version 1")
    );
    assert_eq!(text.lines().next(), MIDGAME_V1.lines().next());
    let full = GenerateParams::midgame_v1();
    let header = format!(
        "--rules {} --seed {} --count {} --min-seeds {} --max-seeds {}",
        full.rules, full.seed, full.count, full.min_seeds, full.max_seeds
    );
    assert!(MIDGAME_V1.contains(&header), "{header}");
}

#[test]
fn generator_reprints_the_whole_file_bit_for_bit() {
    // The whole file, header included, from the documented parameters (seconds: 240 solves).
    let mut solver = Solver::new().threads(1).tt_bytes(16 << 20);
    let text =
        bench::generate_midgame(&GenerateParams::midgame_v1(), &mut solver, |_, _| {}).unwrap();
    assert!(text == MIDGAME_V1, "the generated file differs:\n{text}");
}

#[test]
fn quick_midgame_values_and_deterministic_nodes() {
    let run = || {
        let mut solver = Solver::new()
            .threads(bench::SIGNATURE_THREADS)
            .tt_bytes(bench::SIGNATURE_TT_BYTES);
        // The mid-game part of the quick suite (the CLI's tests run the whole of it).
        [bench::set("midgame64-quick").unwrap()]
            .iter()
            .map(|s| bench::run_set(s, &mut solver, |_, _| {}, None).unwrap())
            .collect::<Vec<_>>()
    };
    let a = run();
    let b = run();
    for r in &a {
        assert_eq!(r.correct(), r.positions.len(), "set {}", r.name);
    }
    let nodes = |rs: &[bench::SetResult]| -> Vec<u64> {
        rs.iter()
            .flat_map(|r| r.positions.iter().map(|p| p.nodes))
            .collect()
    };
    assert_eq!(nodes(&a), nodes(&b));
    assert_eq!(bench::signature(&a), bench::signature(&b));
    assert!(bench::signature(&a) > 0);
}

#[test]
fn a_wrong_expected_value_is_reported() {
    // Kalah(6,1) is a first-player win by 2 (Irving et al. 2000); expecting 3 must fail.
    let rules: KalahRules = "kalah(6,1)".parse().unwrap();
    let set = BenchSet {
        name: "wrong".into(),
        rules,
        source: ValueSource::Recorded("test"),
        positions: vec![BenchPosition {
            position: KalahPosition::start(rules),
            value: 3,
        }],
    };
    let mut solver = Solver::new().threads(1).tt_bytes(1 << 20);
    let r = bench::run_set(&set, &mut solver, |_, _| {}, None).unwrap();
    assert_eq!(r.correct(), 0);
    let wrong: Vec<_> = r.wrong().collect();
    assert_eq!(wrong.len(), 1);
    assert_eq!(wrong[0].value, Some(2));
    assert_eq!(wrong[0].expected, 3);
}
