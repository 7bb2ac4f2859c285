//! The solver against a plain exhaustive minimax (`mancala_reference::minimax::Brute`,
//! written on the core's positions) on random small positions of several m and every
//! end/capture option.

use mancala_core::kalah::{KalahOption, KalahOptions, KalahPosition, KalahRules};
use mancala_core::Side;
use mancala_reference::minimax::Brute;
use mancala_solver::{SolveOptions, Solver, TableKind};
use proptest::prelude::*;

/// The options that change values past the opening: those of the option table
/// (`KalahOption::TABLE`) marked `changes_database`.
fn end_and_capture_options() -> Vec<KalahOption> {
    KalahOption::TABLE
        .iter()
        .filter(|row| row.changes_database)
        .map(|row| row.option)
        .collect()
}

/// Kalah(m,1) with the options of [`end_and_capture_options`] whose bits are set in `bits`.
fn rules(m: u32, bits: u8) -> KalahRules {
    let mut o = KalahOptions::NONE;
    for (i, opt) in end_and_capture_options().into_iter().enumerate() {
        if bits & (1 << i) != 0 {
            o = o.with(opt);
        }
    }
    KalahRules::new(m, 1, o).expect("rules")
}

/// A random legal position: m houses, seeds spread over the houses, some in the stores.
fn position() -> impl Strategy<Value = KalahPosition> {
    let subsets = 1u8 << end_and_capture_options().len();
    (1u32..=5, 0..subsets, any::<bool>())
        .prop_flat_map(|(m, bits, north)| {
            let houses = 2 * m as usize;
            let max = if m >= 4 { 2u8 } else { 4 };
            (
                Just(m),
                Just(bits),
                Just(north),
                proptest::collection::vec(0u8..=max, houses),
                0u8..5,
                0u8..5,
            )
        })
        .prop_filter_map("the game must be on", |(m, bits, north, h, s1, s2)| {
            let m_us = m as usize;
            let mut slots = Vec::with_capacity(2 * m_us + 2);
            slots.extend_from_slice(&h[..m_us]);
            slots.push(s1);
            slots.extend_from_slice(&h[m_us..]);
            slots.push(s2);
            let side = if north { Side::North } else { Side::South };
            KalahPosition::new(rules(m, bits), &slots, Some(side), false).ok()
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 150, .. ProptestConfig::default() })]

    #[test]
    fn solve_equals_minimax(pos in position()) {
        let mut brute = Brute::new();
        let expected = brute.value(&pos);
        prop_assert_eq!(Brute::new().value_ab(&pos), expected);
        // One thread, and two and three threads that split at every node with a seed in its
        // houses (young brothers searched side by side, so siblings' cut-offs stop each other
        // mid-search), with a table small enough to overwrite entries all the time.
        let mut solver = Solver::new().threads(1).tt_bytes(1 << 16);
        let s = solver.solve(&pos, SolveOptions::new()).unwrap();
        let s2 = Solver::new().threads(2).split_margin(1).tt_bytes(1 << 16).solve(&pos, SolveOptions::new()).unwrap();
        let s3 = Solver::new().threads(3).split_margin(1).tt_bytes(1 << 10).solve(&pos, SolveOptions::new()).unwrap();
        prop_assert!(s.exact && s2.exact && s3.exact);
        prop_assert_eq!(s.value, expected, "{}", pos);
        prop_assert_eq!(s2.value, expected, "{}", pos);
        prop_assert_eq!(s3.value, expected, "{}", pos);
        // Every best move reaches the value, every other move does not.
        let values = brute.move_values(&pos);
        for (mv, v) in &values {
            prop_assert_eq!(s.best_moves.contains(mv), *v == expected, "{} move {}", pos, mv);
            prop_assert_eq!(s2.best_moves.contains(mv), *v == expected, "{} move {}", pos, mv);
            prop_assert_eq!(s3.best_moves.contains(mv), *v == expected, "{} move {}", pos, mv);
        }
        // The principal variation is a legal game whose final margin is the score.
        let side = pos.side_to_move().unwrap();
        let mut p = pos;
        for mv in &s.pv {
            p = p.play(*mv).unwrap();
        }
        prop_assert!(p.is_over());
        let end = p.store_difference();
        let final_margin = if side == Side::South { end } else { -end };
        prop_assert_eq!(final_margin, s.score);
    }

    #[test]
    fn analyse_and_exact_table_equal_minimax(pos in position()) {
        let mut brute = Brute::new();
        let values = brute.move_values(&pos);
        let mut solver = Solver::new().threads(1).table(TableKind::Exact);
        let a = solver.analyse(&pos, SolveOptions::new()).unwrap();
        prop_assert_eq!(a.moves.len(), values.len());
        for (mv, (bmv, v)) in a.moves.iter().zip(values.iter()) {
            prop_assert_eq!(mv.mv, *bmv);
            prop_assert!(mv.exact);
            prop_assert_eq!(mv.value, *v, "{} move {}", pos, bmv);
        }
    }
}
