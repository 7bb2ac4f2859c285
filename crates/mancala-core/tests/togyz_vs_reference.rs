//! The packed Togyz Kumalak position against the plain array reference
//! (`mancala-reference`'s `togyz`): perft counts, and random games under random rules — board
//! sizes and every value of every word option, from `TogyzOption::TABLE` — compared after
//! every ply (position, legal moves, the end), with the bookkeeping identities of TK-11.3
//! checked along the way.

use mancala_core::togyz::{perft, TogyzMove, TogyzOption, TogyzPosition, TogyzRules};
use mancala_core::Side;
use mancala_reference::togyz::Board;
use proptest::prelude::*;

#[test]
fn perft_matches_reference() {
    for (name, depth) in [
        ("togyz-kumalak", 5),
        ("togyz-ludii", 5),
        ("bestemshe", 8),
        ("togyz-kumalak(3,2)", 11),
        ("togyz-ludii(2,3)+majority=stop", 12),
        ("togyz-kumalak(1,4)", 12),
        ("togyz-kumalak(4,5)+tuzdyk_last=allowed", 9),
        ("togyz-ludii(6,10)", 6),
        ("togyz-kumalak(9,14)", 4),
    ] {
        let r: TogyzRules = name.parse().unwrap();
        let packed = TogyzPosition::start(r);
        let plain = Board::start(r);
        for d in 1..=depth {
            assert_eq!(perft(&packed, d), plain.perft(d), "{name} depth {d}");
        }
    }
}

/// Random rules: a size with 2·h·s ≤ 255 and a word of each word option.
fn any_rules() -> impl Strategy<Value = TogyzRules> {
    let words = TogyzOption::ALL[..4]
        .iter()
        .map(|o| proptest::sample::select(o.info().words.to_vec()))
        .collect::<Vec<_>>();
    (1u32..=9, 1u32..=14, words).prop_filter_map("too many kumalaks", |(h, s, w)| {
        let mut r = TogyzRules::new(h, s).ok()?;
        for (o, word) in TogyzOption::ALL.iter().zip(w) {
            r = r.with_option(*o, word).ok()?;
        }
        Some(r)
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Every ply of a random game equals the reference's, and TK-11.3 holds after it.
    #[test]
    fn random_games_match_reference(
        rules in any_rules(),
        choices in proptest::collection::vec(any::<u16>(), 0..400),
    ) {
        let mut packed = TogyzPosition::start(rules);
        let mut plain = Board::start(rules);
        let total = rules.total_kumalaks();
        let mut tuzdyks = [None; 2];
        for c in choices {
            let moves: Vec<usize> = packed.legal_moves().iter().map(|m| usize::from(m.0)).collect();
            prop_assert_eq!(&moves, &plain.moves());
            if moves.is_empty() {
                break;
            }
            let mv = moves[usize::from(c) % moves.len()];
            packed = packed.play(TogyzMove(mv as u8)).unwrap();
            plain.play(mv);
            prop_assert_eq!(packed.to_string(), plain.notation());
            // TK-11.3: T is kept, tuzdyk houses hold 0, the two never share a number, and a
            // tuzdyk once made never changes.
            prop_assert_eq!(packed.total(), total);
            for owner in Side::ALL {
                let t = packed.tuzdyk(owner);
                if let Some(house) = t {
                    prop_assert_eq!(packed.house(owner.opponent(), house), 0);
                }
                let before = &mut tuzdyks[owner.index()];
                prop_assert!(before.is_none() || *before == t, "{owner}'s tuzdyk changed");
                *before = t;
            }
            prop_assert!(tuzdyks[0].is_none() || tuzdyks[0] != tuzdyks[1]);
            // The notation reads back as the same position.
            prop_assert_eq!(TogyzPosition::parse(rules, &packed.to_string()).unwrap(), packed);
        }
        if let Some(o) = packed.outcome() {
            let s = i32::from(packed.kazan(Side::South)) - i32::from(packed.kazan(Side::North));
            prop_assert_eq!(o.score, s);
        }
    }
}
