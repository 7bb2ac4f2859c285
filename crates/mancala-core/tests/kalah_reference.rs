//! The packed board against the plain array reference (`mancala_reference::kalah`): perft
//! counts, and random games on random rules (m, n, options) compared after every ply, with
//! seed conservation and notation round-trips.

use mancala_core::kalah::{perft, KalahMove, KalahOption, KalahOptions, KalahPosition, KalahRules};
use mancala_core::Side;
use mancala_reference::kalah::{RefPos, RefRules};
use proptest::prelude::*;

fn to_ref(r: KalahRules) -> RefRules {
    RefRules::of(r)
}

#[test]
fn perft_matches_reference_on_standard_and_manchester() {
    for (name, depth) in [
        ("standard", 8),
        ("kalah(6,4)+empty_capture", 7),
        ("manchester", 6),
        ("kalah(4,3)+end_when_no_move+pie_rule", 9),
    ] {
        let r: KalahRules = name.parse().unwrap();
        let packed = KalahPosition::start(r);
        let plain = RefPos::start(to_ref(r));
        for d in 1..=depth {
            assert_eq!(perft(&packed, d), plain.perft(d), "{name} depth {d}");
        }
    }
}

/// `text` with the case of its ASCII letters flipped where the bits of `case` (cycled) are
/// set.
fn random_case(text: &str, case: u64) -> String {
    text.chars()
        .enumerate()
        .map(|(i, c)| {
            if case >> (i % 64) & 1 == 1 {
                if c.is_ascii_lowercase() {
                    c.to_ascii_uppercase()
                } else {
                    c.to_ascii_lowercase()
                }
            } else {
                c
            }
        })
        .collect()
}

/// Rules of any m and n that fit the board, with any subset of the options of the option
/// table (`KalahOption::TABLE`, so that a new option is drawn too).
fn any_rules() -> impl Strategy<Value = KalahRules> {
    let subsets = 1u32 << KalahOption::TABLE.len();
    (1u32..=7, 1u32..=18, 0..subsets).prop_filter_map("fits the board", |(m, n, subset)| {
        let chosen: Vec<KalahOption> = KalahOption::TABLE
            .iter()
            .enumerate()
            .filter(|(i, _)| subset >> i & 1 != 0)
            .map(|(_, row)| row.option)
            .collect();
        KalahRules::new(m, n, KalahOptions::of(&chosen)).ok()
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn random_games_match_reference(rules in any_rules(), choices in proptest::collection::vec(any::<u8>(), 1..300)) {
        let mut packed = KalahPosition::start(rules);
        let mut plain = RefPos::start(to_ref(rules));
        let total = rules.total_seeds();
        for c in choices {
            prop_assert_eq!(packed.to_string(), plain.notation());
            // Seed conservation (discard_remaining removes seeds only at the end).
            if !(packed.is_over() && rules.has(KalahOption::DiscardRemaining)) {
                prop_assert_eq!(packed.total_seeds(), total);
            }
            // Notation round-trip.
            let reparsed = KalahPosition::parse(rules, &packed.to_string()).unwrap();
            prop_assert_eq!(reparsed.to_string(), packed.to_string());
            let moves = packed.legal_moves();
            let ref_moves: Vec<KalahMove> = plain.moves().into_iter()
                .map(|h| if h == 0 { KalahMove::Swap } else { KalahMove::House(h as u8) })
                .collect();
            prop_assert_eq!(moves.to_vec(), ref_moves);
            if moves.is_empty() {
                prop_assert!(packed.is_over());
                let o = packed.outcome().unwrap();
                prop_assert_eq!(o.score, packed.store_difference());
                break;
            }
            // Every non-listed house is refused and leaves the position alone.
            for h in 0..=8u8 {
                let mv = KalahMove::House(h);
                if !moves.contains(&mv) {
                    prop_assert!(packed.play(mv).is_err());
                }
            }
            let mv = moves[c as usize % moves.len()];
            packed = packed.play(mv).unwrap();
            plain = plain.play(match mv { KalahMove::House(h) => h as usize, KalahMove::Swap => 0 });
        }
    }

    #[test]
    fn arbitrary_positions_round_trip(rules in any_rules(), raw in proptest::collection::vec(0u8..40, 16), side in 0u8..3, swap in any::<bool>(), case in any::<u64>()) {
        let m = rules.houses() as usize;
        let to_move = match side { 0 => Some(Side::South), 1 => Some(Side::North), _ => None };
        if let Ok(p) = KalahPosition::new(rules, &raw[..2 * m + 2], to_move, swap) {
            let text = p.to_string();
            let q = KalahPosition::parse(rules, &text).unwrap();
            prop_assert_eq!(q, p);
            prop_assert_eq!(&q.to_string(), &text);
            // Every letter of the notation is a keyword (`S`, `N`, `swap`): any case reads
            // the same (docs/notation.md, "Letter case").
            let q = KalahPosition::parse(rules, &random_case(&text, case)).unwrap();
            prop_assert_eq!(q, p);
        }
    }

    #[test]
    fn rule_sets_and_moves_round_trip_in_any_case(rules in any_rules(), case in any::<u64>(), house in 1u8..=7) {
        let text = rules.to_string();
        prop_assert_eq!(text.parse::<KalahRules>(), Ok(rules));
        prop_assert_eq!(random_case(&text, case).parse::<KalahRules>(), Ok(rules));
        for mv in [KalahMove::House(house), KalahMove::Swap] {
            prop_assert_eq!(random_case(&mv.to_string(), case).parse::<KalahMove>(), Ok(mv));
        }
    }

    #[test]
    fn parsing_never_panics(text in ".{0,80}", rules_text in ".{0,40}") {
        let _ = text.parse::<KalahRules>();
        let _ = rules_text.parse::<KalahRules>();
        let _ = KalahPosition::parse(KalahRules::standard(), &text);
        let _ = text.parse::<KalahMove>();
        let _ = mancala_core::parse_moves::<mancala_core::kalah::KalahPosition>(&text);
    }
}
