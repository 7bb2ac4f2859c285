//! Hand-traced Kalah rules: every worked example of `docs/rules/kalah.md` and every tricky
//! kind of move the issue names. Each expected position was traced seed by seed by hand from
//! the rules text (the trace is in the comment above it), not read off the implementation.

use mancala_core::kalah::{
    perft, IllegalReason, KalahMove, KalahPosition, KalahRules, PositionError, RulesError,
};
use mancala_core::{Game, GameRecord, Outcome, Player, Side};

type KalahGame = GameRecord<KalahPosition>;

fn rules(s: &str) -> KalahRules {
    s.parse().unwrap()
}

fn pos(r: &str, p: &str) -> KalahPosition {
    KalahPosition::parse(rules(r), p).unwrap()
}

fn after(r: &str, p: &str, moves: &[KalahMove]) -> String {
    let mut x = pos(r, p);
    for &mv in moves {
        x = x.play(mv).unwrap();
    }
    x.to_string()
}

use KalahMove::{House, Swap};

// docs/rules/kalah.md, worked example 1: start, South plays 3 → sows S4, S5, S6, S-store; extra
// turn.
#[test]
fn worked_example_start_house_3_extra_turn() {
    let start = KalahPosition::start(KalahRules::standard());
    assert_eq!(start.to_string(), "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S");
    let next = start.play(House(3)).unwrap();
    assert_eq!(next.to_string(), "4,4,0,5,5,5,1,4,4,4,4,4,4,0 S");
    assert_eq!(next.side_to_move(), Some(Side::South));
    assert!(start.is_extra_turn(House(3)));
    assert!(!start.is_extra_turn(House(2)));
}

// docs/rules/kalah.md, worked example 2, standard capture: the seed lands in empty S6, opposite N1
// is empty, nothing is captured, North moves.
#[test]
fn worked_example_empty_opposite_standard() {
    let p = "0,0,0,0,1,0,20,0,0,0,0,0,2,25 S";
    assert_eq!(
        after("standard", p, &[House(5)]),
        "0,0,0,0,0,1,20,0,0,0,0,0,2,25 N"
    );
}

// docs/rules/kalah.md, worked example 2 under empty_capture: the seed goes to South's store (21),
// South's row is empty, the game ends and North sweeps its 2 seeds (27). North wins by 6.
#[test]
fn worked_example_empty_capture_ends_game() {
    let r = "kalah(6,4)+empty_capture";
    let p = "0,0,0,0,1,0,20,0,0,0,0,0,2,25 S";
    let end = pos(r, p).play(House(5)).unwrap();
    assert_eq!(end.to_string(), "0,0,0,0,0,0,21,0,0,0,0,0,0,27 -");
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: Some(Side::North),
            score: -6
        })
    );
}

// docs/rules/kalah.md, worked example 3: 13 seeds in S1 of Kalah(6,n) sow S2..S6 (5), the store
// (1), N1..N6 (6), skip N's store, and the 13th seed lands back in the emptied S1: a one-seed house
// that was empty, so it captures with opposite N6 (2 seeds): 1 + 2 = 3 to the store (1 + 3 = 4).
#[test]
fn full_lap_lands_in_origin_and_captures() {
    let p = "13,0,0,0,0,0,0,1,1,1,1,1,1,0 S";
    assert_eq!(
        after("standard", p, &[House(1)]),
        "0,1,1,1,1,1,4,2,2,2,2,2,0,0 N"
    );
}

// 26 = 2·(2m+1) seeds from S1 (m = 6): two full laps put 2 in every slot of South's cycle
// (N's store skipped); the last seed lands in S1, which held 1 before it: no capture.
#[test]
fn two_full_laps() {
    let p = "26,0,0,0,0,0,0,0,0,0,0,0,1,0 S";
    assert_eq!(
        after("standard", p, &[House(1)]),
        "2,2,2,2,2,2,2,2,2,2,2,2,3,0 N"
    );
}

// 40 seeds from S3 (L = 13): 3 laps (39 seeds) + 1 more into S4. S4 held 3 before its last
// seed: no capture.
#[test]
fn three_laps_and_one() {
    let p = "0,0,40,0,0,0,0,0,0,0,0,0,1,0 S";
    assert_eq!(
        after("standard", p, &[House(3)]),
        "3,3,3,4,3,3,3,3,3,3,3,3,4,0 N"
    );
}

// North's sowing skips South's store: N6 with 3 seeds → N-store, S1, S2.
#[test]
fn north_skips_south_store() {
    let p = "1,0,0,0,0,0,0,1,0,0,0,0,3,0 N";
    assert_eq!(
        after("standard", p, &[House(6)]),
        "2,1,0,0,0,0,0,1,0,0,0,0,0,1 S"
    );
    // N3 with 9 seeds in Kalah(3,n): N-store, S1, S2, S3, (skip S-store), N1, N2, N3, N-store,
    // S1. L = 7, so 9 = one lap + 2; the last seed is in South's S1.
    let r = "kalah(3,4)";
    let p = "1,0,0,0,0,0,9,0 N";
    assert_eq!(after(r, p, &[House(3)]), "3,1,1,0,1,1,1,2 S");
}

// North captures: N1 with 1 seed sows N2 (empty); N2 (house 2) faces S(m+1-2) = S5.
#[test]
fn north_capture_uses_the_opposite_house() {
    let p = "1,0,0,0,7,0,0,1,0,0,0,0,0,0 N";
    // 7 + 1 = 8 seeds into North's store; North's row is then empty: the game ends and
    // South's S1 is swept into South's store.
    assert_eq!(
        after("standard", p, &[House(1)]),
        "0,0,0,0,0,0,1,0,0,0,0,0,0,8 -"
    );
    // With a seed left in N6 the game goes on, South to move.
    let p = "1,0,0,0,7,0,0,1,0,0,0,0,1,0 N";
    assert_eq!(
        after("standard", p, &[House(1)]),
        "1,0,0,0,0,0,0,0,0,0,0,0,1,8 S"
    );
}

// The last seed lands in South's store with the row then empty: the extra turn is void, the
// game ends at once and North sweeps its 2 seeds.
#[test]
fn extra_turn_that_ends_the_game() {
    let p = "0,0,0,0,0,1,10,2,0,0,0,0,0,5 S";
    let end = pos("standard", p).play(House(6)).unwrap();
    assert_eq!(end.to_string(), "0,0,0,0,0,0,11,0,0,0,0,0,0,7 -");
    assert!(end.is_over());
    // Under end_when_no_move South would move again but has no seed: the game ends too,
    // and North's seeds go to North.
    assert_eq!(
        after("kalah(6,4)+end_when_no_move", p, &[House(6)]),
        "0,0,0,0,0,0,11,0,0,0,0,0,0,7 -"
    );
}

// S1 (1 seed) → S2, empty; opposite N5 holds 3: capture 4. South's row is then empty.
#[test]
fn capture_that_ends_the_game_and_sweeps_in_each_end_rule() {
    let p = "1,0,0,0,0,0,0,0,0,0,0,3,2,0 S";
    // Standard end rule: North's 2 seeds (N6) go to North's store.
    assert_eq!(
        after("standard", p, &[House(1)]),
        "0,0,0,0,0,0,4,0,0,0,0,0,0,2 -"
    );
    // discard_remaining: the 2 seeds are removed.
    assert_eq!(
        after("kalah(6,4)+discard_remaining", p, &[House(1)]),
        "0,0,0,0,0,0,4,0,0,0,0,0,0,0 -"
    );
    // end_when_no_move: North still has a move, the game goes on.
    let r = "kalah(6,4)+end_when_no_move";
    assert_eq!(after(r, p, &[House(1)]), "0,0,0,0,0,0,4,0,0,0,0,0,2,0 N");
    // North plays 6: N-store, S1. South plays 1: S2 (opposite N5 empty, no capture). North has
    // no seed: the game ends and South's seed goes to South, the owner of the side it lies on.
    assert_eq!(
        after(r, p, &[House(1), House(6)]),
        "1,0,0,0,0,0,4,0,0,0,0,0,0,1 S"
    );
    assert_eq!(
        after(r, p, &[House(1), House(6), House(1)]),
        "0,0,0,0,0,0,5,0,0,0,0,0,0,1 -"
    );
    let rd = "kalah(6,4)+end_when_no_move+discard_remaining";
    assert_eq!(
        after(rd, p, &[House(1), House(6), House(1)]),
        "0,0,0,0,0,0,4,0,0,0,0,0,0,1 -"
    );
}

// end_when_no_move: a row may be empty while its owner is not to move.
#[test]
fn end_when_no_move_with_one_side_empty() {
    let p = "0,0,0,0,0,0,10,1,0,0,0,0,0,10 N";
    assert!(matches!(
        KalahPosition::parse(KalahRules::standard(), p),
        Err(PositionError::ShouldHaveEnded { .. })
    ));
    // N1 → N2 (empty, opposite S5 empty: no capture); South cannot move: the game ends and
    // North's seed goes to North.
    assert_eq!(
        after("kalah(6,4)+end_when_no_move", p, &[House(1)]),
        "0,0,0,0,0,0,10,0,0,0,0,0,0,11 -"
    );
}

// An own-empty-house landing with the opposite empty: standard rules do nothing; empty_capture
// moves the single seed to the store.
#[test]
fn empty_capture_without_opposite_seeds() {
    let p = "1,0,0,0,0,0,0,4,0,0,0,0,0,0 S";
    assert_eq!(
        after("standard", p, &[House(1)]),
        "0,1,0,0,0,0,0,4,0,0,0,0,0,0 N"
    );
    // Under empty_capture South's row is then empty: the game ends, North sweeps 4.
    assert_eq!(
        after("kalah(6,4)+empty_capture", p, &[House(1)]),
        "0,0,0,0,0,0,1,0,0,0,0,0,0,4 -"
    );
}

// A drawn game: S6 → store (6); South's row is empty; North sweeps 1 (6). 6–6.
#[test]
fn drawn_game() {
    let end = pos("standard", "0,0,0,0,0,1,5,0,0,0,0,0,1,5 S")
        .play(House(6))
        .unwrap();
    assert_eq!(end.to_string(), "0,0,0,0,0,0,6,0,0,0,0,0,0,6 -");
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: None,
            score: 0
        })
    );
}

// Manchester: South's first move 1 sows S2..S7 and the store; no extra turn on the first
// move; North may swap. After the swap the board and side to move stay, the first player now
// holds North, and North's move 1 (7 seeds: N2..N7, store) earns an extra turn.
#[test]
fn pie_swap_and_play_after_it() {
    let mut g = KalahGame::new(KalahRules::manchester());
    g.play(House(1)).unwrap();
    assert_eq!(
        g.position().to_string(),
        "0,8,8,8,8,8,8,1,7,7,7,7,7,7,7,0 N swap"
    );
    assert!(g.position().legal_moves().contains(&Swap));
    g.play(Swap).unwrap();
    assert_eq!(
        g.position().to_string(),
        "0,8,8,8,8,8,8,1,7,7,7,7,7,7,7,0 N"
    );
    assert_eq!(g.side_of(Player::First), Side::North);
    assert_eq!(g.player_on(Side::South), Player::Second);
    g.play(House(1)).unwrap();
    assert_eq!(
        g.position().to_string(),
        "0,8,8,8,8,8,8,1,0,8,8,8,8,8,8,1 N"
    );
    assert_eq!(
        g.position().play(Swap).unwrap_err().reason,
        IllegalReason::SwapNotOffered
    );
}

// pie_rule without no_first_move_bonus: the swap is offered after South's complete first
// turn, extra moves included. 3 (extra turn) then 1: S2, S3, S4, S5; the last seed lands in
// S5 (5 → 6): no capture, North to move with the offer.
#[test]
fn pie_offer_waits_for_the_end_of_souths_turn() {
    let mut g = KalahGame::new(rules("kalah(6,4)+pie_rule"));
    g.play(House(3)).unwrap();
    assert!(!g.position().swap_offered());
    g.play(House(1)).unwrap();
    assert_eq!(
        g.position().to_string(),
        "0,5,1,6,6,5,1,4,4,4,4,4,4,0 N swap"
    );
    // Declining: North plays a house and the offer is gone for good.
    g.play(House(1)).unwrap();
    assert!(!g.position().swap_offered());
}

// Without the option the first move 3 of Kalah(7,7) does not reach the store (7 seeds from
// S3: S4..S7, store, N1, N2); with 5 it would: S5 + 2 = S7, then the store, N1..N5: no.
// House 1 with 7 seeds ends in the store: extra turn unless no_first_move_bonus.
#[test]
fn no_first_move_bonus_only_on_the_first_move() {
    let plain = KalahPosition::start(rules("kalah(7,7)"));
    assert_eq!(
        plain.play(House(1)).unwrap().side_to_move(),
        Some(Side::South)
    );
    let nb = KalahPosition::start(rules("kalah(7,7)+no_first_move_bonus"));
    let p1 = nb.play(House(1)).unwrap();
    assert_eq!(p1.side_to_move(), Some(Side::North));
    // North's 7 seeds from N1 end in North's store: bonus applies after the first move.
    assert_eq!(p1.play(House(1)).unwrap().side_to_move(), Some(Side::North));
}

#[test]
fn perft_small_depths_by_hand() {
    // Depth 1: six non-empty houses. Depth 2: 5 of the 6 first moves pass the turn to North
    // (6 replies each); house 3 ends in the store and South has 5 non-empty houses: 5·6 + 5.
    let start = KalahPosition::start(KalahRules::standard());
    assert_eq!(perft(&start, 0), 1);
    assert_eq!(perft(&start, 1), 6);
    assert_eq!(perft(&start, 2), 35);
    assert_eq!(mancala_core::game::perft(&start, 2), 35);
    // A finished position has no continuation.
    let end = pos("standard", "0,0,0,0,0,0,24,0,0,0,0,0,0,24 -");
    assert_eq!(perft(&end, 1), 0);
    assert_eq!(perft(&end, 0), 1);
}

#[test]
fn illegal_moves_are_refused_and_the_position_kept() {
    let p = pos("standard", "0,3,0,0,0,0,0,4,0,0,0,0,0,0 S");
    let e = p.play(House(1)).unwrap_err();
    assert_eq!(e.reason, IllegalReason::EmptyHouse(1));
    assert_eq!(e.position, p);
    assert!(matches!(
        p.play(House(0)).unwrap_err().reason,
        IllegalReason::NoSuchHouse {
            house: 0,
            houses: 6
        }
    ));
    assert!(matches!(
        p.play(House(7)).unwrap_err().reason,
        IllegalReason::NoSuchHouse { house: 7, .. }
    ));
    assert_eq!(
        p.play(Swap).unwrap_err().reason,
        IllegalReason::SwapNotOffered
    );
    let end = pos("standard", "0,0,0,0,0,0,24,0,0,0,0,0,0,24 -");
    assert_eq!(
        end.play(House(1)).unwrap_err().reason,
        IllegalReason::GameOver
    );
    assert!(end.legal_moves().is_empty());
}

#[test]
fn rule_set_notation() {
    assert_eq!(rules("standard"), KalahRules::standard());
    assert_eq!(rules("kalah(6,4)"), KalahRules::standard());
    assert_eq!(KalahRules::standard().to_string(), "standard");
    assert_eq!(
        rules("kalah(7,7)+pie_rule+no_first_move_bonus"),
        KalahRules::manchester()
    );
    assert_eq!(
        rules("kalah(7,7)+no_first_move_bonus+pie_rule").to_string(),
        "manchester"
    );
    let r = rules("kalah(6,4)+empty_capture");
    assert_eq!(r.to_string(), "kalah(6,4)+empty_capture");
    let all =
        "kalah(3,5)+empty_capture+end_when_no_move+discard_remaining+pie_rule+no_first_move_bonus";
    assert_eq!(rules(all).to_string(), all);
    assert_eq!(
        rules("standard+empty_capture").to_string(),
        "kalah(6,4)+empty_capture"
    );
    assert_eq!(
        "kalah(6,4)+capture_all".parse::<KalahRules>(),
        Err(RulesError::UnknownOption("capture_all".into()))
    );
    assert_eq!(
        "kalah(8,4)".parse::<KalahRules>(),
        Err(RulesError::Houses(8))
    );
    assert_eq!(
        "kalah(0,4)".parse::<KalahRules>(),
        Err(RulesError::Houses(0))
    );
    assert_eq!(
        "kalah(6,0)".parse::<KalahRules>(),
        Err(RulesError::Seeds(0))
    );
    assert!(matches!(
        "kalah(7,19)".parse::<KalahRules>(),
        Err(RulesError::TooManySeeds { total: 266, .. })
    ));
    // 2·7·18 = 252 fits.
    assert!("kalah(7,18)".parse::<KalahRules>().is_ok());
    assert!(matches!(
        "kalah(6,4)+pie_rule+pie_rule".parse::<KalahRules>(),
        Err(RulesError::DuplicateOption("pie_rule"))
    ));
    for bad in [
        "",
        "kalah",
        "kalah(6)",
        "kalah(6,4",
        "kalah(a,4)",
        "kalah(6,-1)",
        "kaIah(6,4)",
        "kalah(6,4)+",
        "kalah(99999999999,4)",
    ] {
        assert!(
            bad.parse::<KalahRules>().is_err(),
            "{bad:?} should be refused"
        );
    }
}

/// Names in the rule-set notation are case-insensitive, as move names (`SWAP`) are: the same
/// rules as the lower-case text, which `Display` prints.
#[test]
fn rule_set_names_are_case_insensitive() {
    let lower: KalahRules = "kalah(6,4)+empty_capture+pie_rule".parse().unwrap();
    for text in [
        "KALAH(6,4)+EMPTY_CAPTURE+PIE_RULE",
        "Kalah(6,4)+Empty_Capture+pie_rule",
    ] {
        let r: KalahRules = text.parse().unwrap();
        assert_eq!(r, lower, "{text}");
        assert_eq!(r.to_string(), "kalah(6,4)+empty_capture+pie_rule");
    }
    assert_eq!(
        "Standard".parse::<KalahRules>().unwrap(),
        KalahRules::standard()
    );
    assert_eq!(
        "MANCHESTER".parse::<KalahRules>().unwrap(),
        KalahRules::manchester()
    );
    assert!(matches!(
        "kalah(6,4)+pie_rule+PIE_RULE".parse::<KalahRules>(),
        Err(RulesError::DuplicateOption("pie_rule"))
    ));
}

#[test]
fn position_notation_refusals() {
    let r = KalahRules::standard();
    let bad = |t: &str| KalahPosition::parse(r, t).unwrap_err();
    assert!(matches!(
        bad("4,4,4,4,4,4,0,4,4,4,4,4,4 S"),
        PositionError::SlotCount { got: 13, .. }
    ));
    assert!(matches!(
        bad("4,4,4,4,4,4,0,4,4,4,4,4,4,0,0 S"),
        PositionError::SlotCount { got: 15, .. }
    ));
    assert!(matches!(
        bad("4,4,4,4,4,4,0,4,4,4,4,4,x,0 S"),
        PositionError::BadCount { slot: 13, .. }
    ));
    assert!(matches!(
        bad("4,4,4,4,4,4,0,4,4,4,4,4,256,0 S"),
        PositionError::BadCount { .. }
    ));
    assert!(matches!(
        bad("4,4,4,4,4,4,0,4,4,4,4,4,-1,0 S"),
        PositionError::BadCount { .. }
    ));
    assert!(matches!(
        bad("200,4,4,4,4,4,0,4,4,4,4,4,40,0 S"),
        PositionError::TooManySeeds(280)
    ));
    assert!(matches!(
        bad("4,4,4,4,4,4,0,4,4,4,4,4,4,0 X"),
        PositionError::Syntax(_)
    ));
    assert!(matches!(
        bad("4,4,4,4,4,4,0,4,4,4,4,4,4,0"),
        PositionError::Syntax(_)
    ));
    assert!(matches!(bad(""), PositionError::Syntax(_)));
    assert!(matches!(
        bad("4,4,4,4,4,4,0,4,4,4,4,4,4,0 S swap"),
        PositionError::SwapNotPossible
    ));
    assert!(matches!(
        bad("4,4,4,4,4,4,0,4,4,4,4,4,4,0 S extra"),
        PositionError::Syntax(_)
    ));
    assert!(matches!(
        bad("0,0,0,0,0,1,0,4,4,4,4,4,4,0 -"),
        PositionError::SeedsAfterEnd
    ));
    assert!(matches!(
        bad("0,0,0,0,0,0,24,4,4,4,4,4,4,0 N"),
        PositionError::ShouldHaveEnded { .. }
    ));
    // Any seed counts that fit the board are a position, even unreachable-looking ones.
    assert!(KalahPosition::parse(r, "1,0,0,0,0,0,100,0,0,0,0,0,1,0 N").is_ok());
    let m = KalahRules::manchester();
    assert!(KalahPosition::parse(m, "0,8,8,8,8,8,8,1,7,7,7,7,7,7,7,0 N swap").is_ok());
}

#[test]
fn start_position_is_recognised_from_notation() {
    // Parsing the start setup restores "first move" (no_first_move_bonus) and the pending pie
    // offer, so it plays exactly like KalahPosition::start.
    let m = KalahRules::manchester();
    let parsed = KalahPosition::parse(m, "7,7,7,7,7,7,7,0,7,7,7,7,7,7,7,0 S").unwrap();
    assert_eq!(parsed, KalahPosition::start(m));
    assert!(parsed.is_first_move());
}

#[test]
fn for_each_child_lists_the_legal_moves_and_their_positions() {
    // Manchester after South's 1: North's seven houses hold 7 each and the swap is offered.
    let p = pos("manchester", "0,8,8,8,8,8,8,1,7,7,7,7,7,7,7,0 N swap");
    let mut seen = Vec::new();
    p.for_each_child(|mv, child| {
        assert_eq!(child, p.play(mv).unwrap());
        seen.push(mv);
    });
    assert_eq!(seen, p.legal_moves().to_vec());
    assert_eq!(seen.len(), 8);
}

// The longest position notation (`NOTATION_MAX_BYTES`, derived from the grammar and the
// 255-seed limit): 16 counts for m = 7, one of 100 and fifteen of 10 (250 seeds; a second
// count of 100 would leave too few seeds for the tens), 15 commas, ` N`, ` swap`.
#[test]
fn longest_position_notation() {
    use mancala_core::kalah::NOTATION_MAX_BYTES;
    let text = format!("100,{} N swap", vec!["10"; 15].join(","));
    let p = pos("kalah(7,4)+pie_rule", &text);
    assert_eq!(p.to_string(), text);
    assert_eq!(text.len(), NOTATION_MAX_BYTES);
    // One count of 100 more (and one fewer ten) is over 255 seeds.
    let over = format!("100,100,{} N swap", vec!["10"; 14].join(","));
    assert!(KalahPosition::parse(rules("kalah(7,4)+pie_rule"), &over).is_err());
    // Every board size stays within it, at its largest starting counts (n = 255 / 2m).
    for m in 1..=7u32 {
        let n = 255 / (2 * m);
        let r = rules(&format!("kalah({m},{n})+pie_rule"));
        let mut x = KalahPosition::start(r);
        while let Some(&mv) = x.legal_moves().first() {
            assert!(x.to_string().len() <= NOTATION_MAX_BYTES, "{x}");
            x = x.play(mv).unwrap();
        }
    }
}

/// The message of an unknown option lists every option of `docs/rules/kalah.md` ("Options"),
/// in the order of the rule-set notation (`docs/notation.md`), and a refused swap names the
/// pie rule.
#[test]
fn messages_name_the_options_of_the_rules_page() {
    let e = "kalah(6,4)+capture_all".parse::<KalahRules>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown rule option `capture_all` (known: empty_capture, end_when_no_move, \
         discard_remaining, pie_rule, no_first_move_bonus)"
    );
    assert_eq!(
        PositionError::SwapNotPossible.to_string(),
        "`swap` is only offered under pie_rule with North to move"
    );
}

// What a move captured (`Game::captured_seeds`, as `mancala play` reports it), traced by hand.
#[test]
fn captured_seeds_of_a_move() {
    // Start, house 3: S4, S5, S6 and the store; nothing captured.
    let start = KalahPosition::start(KalahRules::standard());
    let next = start.play(House(3)).unwrap();
    assert_eq!(start.captured_seeds(House(3), &next), Some(0));
    // S1 holds 1 and S2 is empty; N5, facing S2, holds 7: the seed lands in S2 and takes
    // the 7 with it (store 0 → 8).
    let p = pos("standard", "1,0,4,4,4,4,0,4,4,4,4,7,4,0 S");
    let q = p.play(House(1)).unwrap();
    assert_eq!(q.store(Side::South), 8);
    assert_eq!(p.captured_seeds(House(1), &q), Some(7));
    // A lap: S1's 13 seeds go to S2..S6, the store, N1..N6 (North's store skipped) and the
    // emptied S1; N6, facing S1, then holds 2 + 1 = 3, taken with the capturing seed: the
    // store gains 1 sown + 3 + 1 = 5.
    let p = pos("standard", "13,0,0,0,0,0,0,0,0,0,0,0,2,0 S");
    let q = p.play(House(1)).unwrap();
    assert_eq!(q.to_string(), "0,1,1,1,1,1,5,1,1,1,1,1,0,0 N");
    assert_eq!(p.captured_seeds(House(1), &q), Some(3));
    // The swap sows nothing.
    let p = KalahPosition::start(rules("kalah(6,4)+pie_rule"))
        .play(House(1))
        .unwrap();
    let q = p.play(Swap).unwrap();
    assert_eq!(p.captured_seeds(Swap, &q), None);
    // Kalah(1,2): South's 2 seeds go to its store and North's house; South's row is empty,
    // the game ends and North sweeps: a capture would not be told from the sweep.
    let p = KalahPosition::start(rules("kalah(1,2)"));
    let q = p.play(House(1)).unwrap();
    assert!(q.is_over());
    assert_eq!(p.captured_seeds(House(1), &q), None);
}
