//! The packed Oware position against the plain array reference (`tests/oware_reference`):
//! perft counts, and random games under random rules — every board size and every value of
//! every option, the option ranges taken from `OwareOption::TABLE` — compared after every
//! ply (position, legal moves, refusals, final counts), with seed conservation and notation
//! round trips. The history rules run in a small local game loop over the history-free
//! packed position (`history_rules`, `end_by`) and inside the reference's own game.

mod oware_reference;

use mancala_core::oware::{perft, OwareMove, OwareOption, OwarePosition, OwareRuleSet, OwareRules};
use mancala_core::{HistoryEnd, Side};
use oware_reference::{RefGame, RefPos, RefRules};
use proptest::prelude::*;

/// Plays `mv` on `pos` in a game whose earlier positions are `seen` and whose plies are
/// `plies`, applying the history rules the way a game record does: the position after the
/// move, if not already over, is counted; at the `repetition`-th occurrence or at the
/// `move_limit`-th ply `end_by` finishes it.
fn play_in_game(
    pos: &OwarePosition,
    mv: OwareMove,
    seen: &mut Vec<OwarePosition>,
    plies: &mut u32,
) -> OwarePosition {
    let next = pos.play(mv).unwrap();
    *plies += 1;
    if next.is_over() {
        return next;
    }
    let rules = next.history_rules();
    let occurrences = 1 + seen.iter().filter(|q| **q == next).count();
    seen.push(next);
    if rules
        .repetition
        .is_some_and(|n| occurrences >= usize::from(n))
    {
        return next.end_by(HistoryEnd::Repetition);
    }
    if rules.move_limit.is_some_and(|n| *plies >= u32::from(n)) {
        return next.end_by(HistoryEnd::MoveLimit);
    }
    next
}

#[test]
fn perft_matches_reference() {
    for (name, depth) in [
        ("oware", 7),
        ("awari", 7),
        ("oware-openspiel", 7),
        ("oware+grand_slam=forbidden", 7),
        ("oware+grand_slam=all+majority=collect", 7),
        ("oware+grand_slam=leave_last", 7),
        ("awari(3,2)", 12),
        ("oware(2,2)+grand_slam=forbidden", 14),
        ("awari(1,4)", 10),
        ("oware(4,3)+grand_slam=all", 9),
        ("oware(8,2)+grand_slam=unless_only", 6),
        ("oware(5,1)+grand_slam=unless_only+majority=off", 10),
    ] {
        let r: OwareRules = name.parse().unwrap();
        let packed = OwarePosition::start(r);
        let rr = RefRules::of(r);
        let plain = RefPos::start(&rr);
        for d in 1..=depth {
            assert_eq!(perft(&packed, d), plain.perft(&rr, d), "{name} depth {d}");
        }
    }
}

/// A value of one option from its table row: a word, a number near the low end of its range
/// (where short games can reach it), or any number of its range.
fn option_value(option: OwareOption) -> BoxedStrategy<String> {
    let info = option.info();
    let words = proptest::sample::select(info.words.to_vec()).prop_map(str::to_string);
    match info.numbers {
        None => words.boxed(),
        Some((lo, hi)) => prop_oneof![
            words,
            (lo..=hi.min(lo + 30)).prop_map(|n| n.to_string()),
            (lo..=hi).prop_map(|n| n.to_string()),
        ]
        .boxed(),
    }
}

/// Random rules: a head, a board size (h = 1..=8, s with 2·h·s ≤ 255) and, for each option of
/// the table, either nothing (the head's default) or a value of the option.
fn any_rules() -> impl Strategy<Value = OwareRules> {
    let options: Vec<BoxedStrategy<Option<String>>> = OwareOption::ALL
        .iter()
        .map(|&o| {
            proptest::option::of(option_value(o).prop_map(move |v| format!("+{}={v}", o.name())))
                .boxed()
        })
        .collect();
    (
        proptest::sample::select(OwareRuleSet::ALL.to_vec()),
        1u32..=8,
        1u32..=127,
        options,
    )
        .prop_map(|(head, h, s, opts)| {
            let s = 1 + (s - 1) % (255 / (2 * h)).max(1);
            let text = format!(
                "{}({h},{s}){}",
                head.name(),
                opts.into_iter().flatten().collect::<String>()
            );
            text.parse::<OwareRules>()
                .unwrap_or_else(|e| panic!("{text}: {e}"))
        })
}

fn moves_of(p: &OwarePosition) -> Vec<usize> {
    p.legal_moves()
        .iter()
        .map(|m| usize::from(m.house()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn random_games_match_reference(rules in any_rules(), choices in proptest::collection::vec(any::<u16>(), 1..400)) {
        let rr = RefRules::of(rules);
        let mut packed = OwarePosition::start(rules);
        let mut game = RefGame::new(rr, RefPos::start(&rr));
        let mut seen = vec![packed];
        let mut plies = 0;
        let total = rules.total_seeds();
        for c in choices {
            prop_assert_eq!(packed.to_string(), game.pos.notation());
            // Seed conservation (OW-1.2): seeds are never removed, only moved to stores.
            prop_assert_eq!(packed.total_seeds(), total);
            // Notation round trip (OW-9): a position parses back to itself.
            prop_assert_eq!(OwarePosition::parse(rules, &packed.to_string()), Ok(packed));
            prop_assert_eq!(OwarePosition::try_from(packed.layout()), Ok(packed));
            let moves = moves_of(&packed);
            prop_assert_eq!(&moves, &game.pos.moves(&rr));
            // Every house is refused or accepted as the reference says.
            for house in 0..=rules.houses() + 1 {
                let ok = packed.play(OwareMove(house)).is_ok();
                prop_assert_eq!(ok, moves.contains(&usize::from(house)), "house {}", house);
            }
            let finals = [Side::South, Side::North].map(|s| packed.final_half_seeds(s));
            match game.pos.final_half(&rr) {
                None => prop_assert_eq!(finals, [None, None]),
                Some([s, n]) => {
                    prop_assert_eq!(finals, [Some(s), Some(n)]);
                    let o = packed.outcome().unwrap();
                    // OW-6.5: the split cancels in the difference.
                    prop_assert_eq!(i64::from(o.score) * 2, i64::from(s) - i64::from(n));
                    let winner = match s.cmp(&n) {
                        core::cmp::Ordering::Greater => Some(Side::South),
                        core::cmp::Ordering::Less => Some(Side::North),
                        core::cmp::Ordering::Equal => None,
                    };
                    prop_assert_eq!(o.winner, winner);
                }
            }
            if packed.is_over() {
                prop_assert!(moves.is_empty());
                prop_assert_eq!(packed.outcome().is_some(), true);
                break;
            }
            let i = moves[usize::from(c) % moves.len()];
            packed = play_in_game(&packed, OwareMove(i as u8), &mut seen, &mut plies);
            game.play(i);
        }
    }
}

/// Random set-up positions (OW-9.3): counts of any size up to 255 seeds, so laps of many
/// rounds and long chains arise that random play from the start rarely reaches.
fn any_setup() -> impl Strategy<Value = (OwareRules, Vec<u8>, bool)> {
    (
        any_rules(),
        proptest::collection::vec(0u8..=40, 18),
        any::<bool>(),
        any::<u8>(),
    )
        .prop_map(|(rules, raw, north, big)| {
            let h = usize::from(rules.houses());
            let mut counts: Vec<u8> = raw[..2 * h + 2].to_vec();
            // Now and then one house holds many seeds (several laps).
            counts[usize::from(big) % h] = counts[usize::from(big) % h].saturating_add(big / 2);
            // Keep the total within 255 by emptying counts from the end.
            let mut i = counts.len();
            while counts.iter().map(|&c| u32::from(c)).sum::<u32>() > 255 {
                i -= 1;
                counts[i] = 0;
            }
            (rules, counts, north)
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Every legal move of a set-up position conserves the seeds (OW-1.2) and equals the
    /// reference; the legal moves equal the reference's; a refused position is one the
    /// reference also finds over (majority or no move).
    #[test]
    fn seed_conservation_on_set_up_positions((rules, counts, north) in any_setup()) {
        let h = usize::from(rules.houses());
        let rr = RefRules::of(rules);
        let side = if north { Side::North } else { Side::South };
        let plain = RefPos::from_counts(h, &counts, Some(usize::from(north)));
        let total: u32 = counts.iter().map(|&c| u32::from(c)).sum();
        match OwarePosition::new(rules, &counts, Some(side)) {
            Err(_) => {
                let majority = rr.majority != oware_reference::Major::Off && plain.majority_reached();
                prop_assert!(majority || plain.moves(&rr).is_empty());
            }
            Ok(p) => {
                prop_assert_eq!(p.total_seeds(), total);
                prop_assert_eq!(moves_of(&p), plain.moves(&rr));
                for mv in p.legal_moves() {
                    let q = p.play(mv).unwrap();
                    prop_assert_eq!(q.total_seeds(), total);
                    prop_assert_eq!(q.to_string(), plain.play(&rr, usize::from(mv.house())).notation());
                }
                let mut children = 0;
                p.for_each_child(|mv, child| {
                    children += 1;
                    assert_eq!(Ok(child), p.play(mv));
                });
                prop_assert_eq!(children, p.legal_moves().len());
            }
        }
    }
}
