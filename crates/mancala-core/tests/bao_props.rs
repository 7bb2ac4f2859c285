//! Property tests over random Bao la Kete games from the start (proptest): seed count,
//! kuu invariant, front row of the mover, notation round-trips, and legality: every listed
//! move plays, gives the board of the plain seed-by-seed reference (`mancala_reference::bao`),
//! and every other syntactically possible move is refused.

use mancala_core::bao::{BaoLayout, BaoMove, BaoOption, BaoPosition, BaoRules, Pit};
use mancala_core::Side;
use proptest::prelude::*;

mod common;

/// Values of every shape the Bao rule-set notation takes (`docs/notation.md`): sides, the
/// safari rules, on/off, small numbers, setups of 32 seeds with a kuu of 6 or more.
const VALUE_POOL: [&str; 16] = [
    "S",
    "N",
    "forced",
    "choice",
    "on",
    "off",
    "1",
    "2",
    "3",
    "4",
    "8",
    "64",
    "6,2,2,22",
    "8,2,2,20",
    "6,0,0,26",
    "12,4,4,12",
];

/// Every option of the option table (`BaoOption::TABLE`) with its name and the values of
/// [`VALUE_POOL`] the notation accepts for it, so that an option added to the table is drawn
/// without an edit here (`every_option_has_values_to_draw` fails for a value of a new shape).
fn option_values() -> Vec<(&'static str, Vec<&'static str>)> {
    BaoOption::TABLE
        .iter()
        .map(|&(_, name)| {
            let accepted = VALUE_POOL
                .into_iter()
                .filter(|v| {
                    format!("{}+{name}={v}", BaoRules::NAME)
                        .parse::<BaoRules>()
                        .is_ok()
                })
                .collect();
            (name, accepted)
        })
        .collect()
}

/// Rule sets with each option of the table left at its Lamu default or set to one of its
/// values ([`option_values`]).
fn rules_strategy() -> impl Strategy<Value = BaoRules> {
    let options: Vec<BoxedStrategy<Option<String>>> = option_values()
        .into_iter()
        .map(|(name, values)| {
            proptest::option::of(
                proptest::sample::select(values).prop_map(move |v| format!("+{name}={v}")),
            )
            .boxed()
        })
        .collect();
    options.prop_map(|parts| {
        let text: String = std::iter::once(BaoRules::NAME.to_string())
            .chain(parts.into_iter().flatten())
            .collect();
        text.parse()
            .unwrap_or_else(|e| panic!("`{text}`, every option valid alone, is refused: {e}"))
    })
}

#[test]
fn every_option_has_values_to_draw() {
    for (name, values) in option_values() {
        assert!(
            !values.is_empty(),
            "no value of the pool is accepted for `{name}`: add one of its shape to VALUE_POOL"
        );
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

/// The notation of `p` with the case of every keyword (kuus, side) chosen by `case`; the
/// reserved pit, whose case names its owner, as written (docs/notation.md, "Letter case").
fn position_in_random_case(p: &BaoPosition, case: u64) -> String {
    let text = p.to_string();
    let (keywords, reserved) = text.rsplit_once(' ').unwrap();
    format!("{} {reserved}", random_case(keywords, case))
}

fn check_position(p: &BaoPosition, raw: &[BaoMove]) -> Result<(), TestCaseError> {
    prop_assert_eq!(p.total_seeds(), 64, "K-4.1 in {}", p);
    for side in Side::ALL {
        if p.kuu_stands(side) {
            prop_assert!(p.seeds(side, Pit::KUU) >= 6, "K-9 in {}", p);
        }
    }
    // K-8.4, A8: the blocked turns still to come fit the rules' block duration.
    prop_assert!(
        p.block_turns_left() < p.rules().block_duration(),
        "A8 in {}",
        p
    );
    if p.reserved().is_none() {
        prop_assert_eq!(p.block_turns_left(), 0);
    }
    // Notation round-trip.
    let text = p.to_string();
    let back = BaoPosition::parse(p.rules(), &text);
    prop_assert_eq!(back, Ok(*p));
    let rules_back: BaoRules = p.rules().to_string().parse().unwrap();
    prop_assert_eq!(rules_back, p.rules());
    let legal = p.legal_moves();
    if !legal.is_empty() {
        prop_assert!(p.front_row_occupied(p.to_move()), "K-6.7 in {}", p);
    }
    for (i, mv) in legal.iter().enumerate() {
        prop_assert!(!legal[..i].contains(mv), "duplicate {} in {}", mv, p);
        // The packed result equals the seed-by-seed reference.
        if let Err(msg) = mancala_reference::bao::agrees(p, *mv) {
            prop_assert!(false, "{}", msg);
        }
        let parsed: BaoMove = mv.to_string().parse().unwrap();
        prop_assert_eq!(parsed, *mv);
    }
    for &mv in raw {
        let r = p.play(mv);
        if legal.contains(&mv) {
            prop_assert!(r.is_ok(), "{} listed but refused in {}: {:?}", mv, p, r);
        } else {
            match r {
                Ok(_) => prop_assert!(false, "{} not listed but played in {}", mv, p),
                Err(e) => prop_assert_eq!(e.position, *p),
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant(seed in any::<u64>(), rules in rules_strategy()) {
        let raw = BaoMove::all_raw();
        let mut rng = seed | 1;
        let mut p = BaoPosition::start(rules);
        let mut plies = 0;
        loop {
            check_position(&p, &raw)?;
            let legal = p.legal_moves();
            if legal.is_empty() {
                prop_assert!(p.outcome().is_some());
                break;
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let mv = legal[(rng % legal.len() as u64) as usize];
            p = p.play(mv).unwrap();
            plies += 1;
            prop_assert!(plies < 10_000);
        }
        // A finished game: either the loser's front row is empty (won mid-move) or it has
        // no legal move (K-10.1, K-10.2).
        prop_assert_eq!(p.side_to_move(), None);
    }

    /// Random valid positions, not only those reached from the start: blocked pits, duties,
    /// standing kuus in the mtaji stage, unequal reserves. Every listed move plays and keeps
    /// the invariants; every other raw move is refused.
    #[test]
    fn random_positions_list_exactly_the_legal_moves(
        cells in proptest::collection::vec(0usize..36, 64),
        kuus in (any::<bool>(), any::<bool>()),
        north in any::<bool>(),
        reserved in proptest::option::of((any::<bool>(), 1u8..=8, 0u8..=3)),
        rules in rules_strategy(),
    ) {
        // Cells 0..32 are pits (16 a side, ring order), 32..34 reserves, 34..36 folded
        // into the pits again so that reserves are rarer than pits.
        let mut lanes = [0u8; 32];
        let mut reserve = [0u8; 2];
        for c in cells {
            match c {
                0..=31 => lanes[c] += 1,
                32 | 33 => reserve[c - 32] += 1,
                _ => lanes[(c * 7) % 32] += 1,
            }
        }
        let mut front = [[0u8; 8]; 2];
        let mut back = [[0u8; 8]; 2];
        for s in 0..2 {
            for k in 0..8 {
                front[s][k] = lanes[16 * s + k];
                back[s][k] = lanes[16 * s + 15 - k];
            }
        }
        let layout = BaoLayout {
            front,
            back,
            reserve,
            kuu: [kuus.0 && front[0][4] >= 6, kuus.1 && front[1][4] >= 6],
            to_move: if north { Side::North } else { Side::South },
            reserved: reserved.map(|(n, k, _)| (if n { Side::North } else { Side::South }, k)),
            block_turns_left: reserved.map_or(0, |r| r.2),
        };
        if let Ok(p) = BaoPosition::new(rules, &layout) {
            let raw = BaoMove::all_raw();
            check_position(&p, &raw)?;
            for mv in p.legal_moves() {
                let q = p.play(mv).unwrap();
                check_position(&q, &[])?;
            }
        }
    }

    /// Every keyword in any case reads as the canonical text: rule sets, positions (all but
    /// the reserved pit) and moves, along random games under random rules.
    #[test]
    fn keywords_read_in_any_case(seed in any::<u64>(), rules in rules_strategy(), case in any::<u64>()) {
        let rules_text = rules.to_string();
        prop_assert_eq!(random_case(&rules_text, case).parse::<BaoRules>(), Ok(rules));
        let mut rng = seed | 1;
        let mut p = BaoPosition::start(rules);
        for ply in 0..200 {
            let case = case.rotate_left(ply);
            prop_assert_eq!(BaoPosition::parse(rules, &position_in_random_case(&p, case)), Ok(p));
            let legal = p.legal_moves();
            if legal.is_empty() {
                break;
            }
            for mv in &legal {
                prop_assert_eq!(random_case(&mv.to_string(), case).parse::<BaoMove>(), Ok(*mv));
            }
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            p = p.play(legal[(rng % legal.len() as u64) as usize]).unwrap();
        }
    }

    #[test]
    fn parsing_never_panics(s in "\\PC{0,80}") {
        let _ = s.parse::<BaoPosition>();
        let _ = s.parse::<BaoMove>();
        let _ = s.parse::<BaoRules>();
    }

    #[test]
    fn parsing_near_valid_text_never_panics(
        rows in proptest::collection::vec(0u8..70, 32),
        r in (0u8..70, 0u8..70),
        kuus in prop::sample::select(vec!["SN", "S", "N", "-", "X"]),
        side in prop::sample::select(vec!["S", "N", "x"]),
        res in prop::sample::select(vec!["-", "F1", "f8", "F9", "b2", "f4:1", "F2:7", "f3:0", "F5:8", "f1:", "-:1"]),
    ) {
        let row = |k: usize| rows[8 * k..8 * k + 8].iter().map(ToString::to_string).collect::<Vec<_>>().join(",");
        let text = format!("{}/{}/{}/{} {},{} {kuus} {side} {res}", row(0), row(1), row(2), row(3), r.0, r.1);
        if let Ok(p) = text.parse::<BaoPosition>() {
            prop_assert_eq!(p.to_string().parse::<BaoPosition>(), Ok(p));
            let _ = p.legal_moves();
        }
        let long: BaoRules = "bao-la-kete+block_duration=8".parse().unwrap();
        if let Ok(p) = BaoPosition::parse(long, &text) {
            prop_assert_eq!(BaoPosition::parse(long, &p.to_string()), Ok(p));
            let _ = p.legal_moves();
        }
    }
}
