//! The worked examples (X1–X19), parser cases (R1–R9, A5) and perft figures of
//! `docs/rules/togyz-kumalak.md` (TK-12, TK-11.1), each one a test: every position, legal
//! move list and result below is the rules page's, traced there by hand and by an independent
//! implementation.

use mancala_core::togyz::{
    perft, PositionEnd, PositionError, TogyzMove, TogyzPosition, TogyzRules,
};
use mancala_core::{HistoryEnd, Side};

fn rules(text: &str) -> TogyzRules {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn pos(r: &str, text: &str) -> TogyzPosition {
    TogyzPosition::parse(rules(r), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// One worked example: the legal moves of `before`, then `moves` played in turn give `after`.
fn example(id: &str, r: &str, before: &str, legal: &[u8], moves: &[u8], after: &str) {
    let p = pos(r, before);
    assert_eq!(p.to_string(), before, "{id}: prints back");
    let got: Vec<u8> = p.legal_moves().iter().map(|m| m.house()).collect();
    assert_eq!(got, legal, "{id}: legal moves");
    let end = moves.iter().fold(p, |p, &m| {
        p.play(TogyzMove(m)).unwrap_or_else(|e| panic!("{id}: {e}"))
    });
    assert_eq!(end.to_string(), after, "{id}");
    // The position after reads back as itself (TK-9).
    assert_eq!(pos(r, after), end, "{id}: the result reads back");
}

const START: &str = "9,9,9,9,9,9,9,9,9,0,9,9,9,9,9,9,9,9,9,0 -,- S";
const ALL: &[u8] = &[1, 2, 3, 4, 5, 6, 7, 8, 9];

#[test]
fn x1_opening_capture() {
    example(
        "X1",
        "togyz-kumalak",
        START,
        ALL,
        &[9],
        "9,9,9,9,9,9,9,9,1,10,10,10,10,10,10,10,10,0,9,0 -,- N",
    );
}

#[test]
fn x2_x3_one_kumalak() {
    example(
        "X2",
        "togyz-kumalak",
        "0,0,1,4,0,0,2,0,0,70,3,0,5,0,1,2,0,0,4,70 -,- S",
        &[3, 4, 7],
        &[3],
        "0,0,0,5,0,0,2,0,0,70,3,0,5,0,1,2,0,0,4,70 -,- N",
    );
    example(
        "X3",
        "togyz-kumalak",
        "0,0,0,0,0,0,3,0,1,75,1,2,0,0,4,0,0,0,1,75 -,- S",
        &[7, 9],
        &[9],
        "0,0,0,0,0,0,3,0,0,77,0,2,0,0,4,0,0,0,1,75 -,- N",
    );
}

#[test]
fn x4_x5_tuzdyks_made() {
    example(
        "X4",
        "togyz-kumalak",
        "0,0,0,0,0,0,3,0,1,75,2,1,0,0,4,0,0,0,0,76 -,- S",
        &[7, 9],
        &[9],
        "0,0,0,0,0,0,3,0,0,78,0,1,0,0,4,0,0,0,0,76 1,- N",
    );
    example(
        "X5",
        "togyz-kumalak",
        "5,4,6,3,2,8,7,1,6,40,6,3,5,2,7,1,4,9,3,40 -,- S",
        ALL,
        &[6],
        "5,4,6,3,2,1,8,2,7,43,7,4,6,0,7,1,4,9,3,40 4,- N",
    );
}

#[test]
fn x6_x7_x8_tuzdyks_refused() {
    let before = "5,4,6,3,2,13,7,1,6,40,6,3,5,2,7,1,4,9,2,36 -,- S";
    example(
        "X6",
        "togyz-kumalak",
        before,
        ALL,
        &[6],
        "5,4,6,3,2,1,8,2,7,40,7,4,6,3,8,2,5,10,3,36 -,- N",
    );
    example(
        "X6a",
        "togyz-ludii",
        before,
        ALL,
        &[6],
        "5,4,6,3,2,1,8,2,7,43,7,4,6,3,8,2,5,10,0,36 9,- N",
    );
    example(
        "X7",
        "togyz-kumalak",
        "5,4,6,3,2,8,7,1,6,43,6,0,5,2,7,1,4,9,3,40 2,- S",
        ALL,
        &[6],
        "5,4,6,3,2,1,8,2,7,44,7,0,6,3,7,1,4,9,3,40 2,- N",
    );
    example(
        "X8",
        "togyz-kumalak",
        "5,4,6,0,2,8,7,1,6,40,6,3,5,2,7,1,4,9,3,43 -,4 S",
        &[1, 2, 3, 5, 6, 7, 8, 9],
        &[6],
        "5,4,6,0,2,1,8,2,7,40,7,4,6,3,7,1,4,9,3,43 -,4 N",
    );
}

#[test]
fn x9_x10_x11_sowing_into_tuzdyks() {
    example(
        "X9",
        "togyz-kumalak",
        "1,0,0,0,12,2,0,3,1,60,2,5,0,4,1,6,0,2,3,60 3,7 S",
        &[1, 5, 6, 8, 9],
        &[5],
        "1,0,0,0,1,3,0,4,2,61,3,6,0,5,2,7,1,2,3,61 3,7 N",
    );
    example(
        "X10",
        "togyz-kumalak",
        "1,0,0,0,12,2,0,5,1,60,2,5,0,4,1,6,0,2,3,58 3,7 S",
        &[1, 5, 6, 8, 9],
        &[8],
        "1,0,0,0,12,2,0,1,2,61,3,6,0,4,1,6,0,2,3,58 3,7 N",
    );
    example(
        "X11",
        "togyz-kumalak",
        "0,0,0,0,0,1,0,4,2,70,3,0,4,1,0,2,0,0,5,70 -,7 S",
        &[6, 8, 9],
        &[6],
        "0,0,0,0,0,0,0,4,2,70,3,0,4,1,0,2,0,0,5,71 -,7 N",
    );
}

#[test]
fn x12_x13_laps_and_own_row() {
    example(
        "X12",
        "togyz-kumalak",
        "1,2,0,3,0,4,0,1,20,50,0,5,3,6,1,2,7,4,3,50 -,- S",
        &[1, 2, 4, 6, 8, 9],
        &[9],
        "2,3,1,4,1,5,1,2,2,52,0,6,4,7,2,3,8,5,4,50 -,- N",
    );
    example(
        "X13",
        "togyz-kumalak",
        "3,0,0,5,0,0,0,1,0,70,4,2,0,1,0,3,1,0,3,69 -,- S",
        &[1, 4, 8],
        &[4],
        "3,0,0,1,1,1,1,2,0,70,4,2,0,1,0,3,1,0,3,69 -,- N",
    );
}

#[test]
fn x14_majority() {
    let before = "2,0,0,0,0,0,1,3,0,78,3,3,0,2,0,1,0,0,0,69 -,- S";
    example(
        "X14",
        "togyz-kumalak",
        before,
        &[1, 7, 8],
        &[8],
        "2,0,0,0,0,0,1,1,1,82,0,3,0,2,0,1,0,0,0,69 -,- -",
    );
    let end = pos("togyz-kumalak", before).play(TogyzMove(8)).unwrap();
    assert_eq!(
        end.outcome().map(|o| (o.winner, o.score)),
        Some((Some(Side::South), 13))
    );
    example(
        "X14a",
        "togyz-ludii",
        before,
        &[1, 7, 8],
        &[8],
        "2,0,0,0,0,0,1,1,1,82,0,3,0,2,0,1,0,0,0,69 -,- N",
    );
    example(
        "X14b",
        "togyz-kumalak",
        "0,0,2,0,0,0,0,0,1,81,3,1,0,0,0,0,0,2,0,72 3,- N",
        &[1, 2, 8],
        &[1],
        "0,0,2,0,0,0,0,0,1,82,1,2,0,0,0,0,0,2,0,72 3,- -",
    );
}

#[test]
fn x15_x16_x17_empty_rows() {
    example(
        "X15",
        "togyz-kumalak",
        "0,0,0,0,0,0,0,0,1,79,1,0,0,0,0,0,0,0,0,81 -,- S",
        &[9],
        &[9],
        "0,0,0,0,0,0,0,0,0,81,0,0,0,0,0,0,0,0,0,81 -,- -",
    );
    let draw = pos(
        "togyz-kumalak",
        "0,0,0,0,0,0,0,0,0,81,0,0,0,0,0,0,0,0,0,81 -,- -",
    );
    assert_eq!(draw.outcome().map(|o| (o.winner, o.score)), Some((None, 0)));
    example(
        "X16",
        "togyz-kumalak",
        "10,0,0,14,0,0,0,0,1,60,1,0,0,0,0,0,0,0,0,76 -,- S",
        &[1, 4, 9],
        &[9],
        "0,0,0,0,0,0,0,0,0,86,0,0,0,0,0,0,0,0,0,76 -,- -",
    );
    let before = "0,0,0,0,0,0,0,0,1,78,0,0,0,0,5,0,0,0,0,78 -,- S";
    example(
        "X17",
        "togyz-kumalak",
        before,
        &[9],
        &[9],
        "0,0,0,0,0,0,0,0,0,78,1,0,0,0,5,0,0,0,0,78 -,- N",
    );
    // "Both of North's moves then leave South to move with nothing: 78–84."
    let after = pos("togyz-kumalak", before).play(TogyzMove(9)).unwrap();
    for mv in after.legal_moves() {
        let end = after.play(mv).unwrap();
        assert_eq!(
            (end.kazan(Side::South), end.kazan(Side::North)),
            (78, 84),
            "N{mv}"
        );
        assert!(end.is_over());
    }
    example(
        "X17a",
        "togyz-ludii",
        before,
        &[9],
        &[9],
        "0,0,0,0,0,0,0,0,0,78,0,0,0,0,0,0,0,0,0,84 -,- -",
    );
}

#[test]
fn x18_bestemshe_has_no_tuzdyk() {
    example(
        "X18",
        "bestemshe",
        "1,0,2,3,4,10,2,1,2,0,1,24 -,- S",
        &[1, 3, 4, 5],
        &[4],
        "1,0,2,1,5,10,3,1,2,0,1,24 -,- N",
    );
}

/// X19: after `move_limit` plies each player adds his row to his kazan (TK-6.4); the limit
/// is a history rule, applied through `end_by`.
#[test]
fn x19_move_limit() {
    let r = rules("togyz-kumalak+move_limit=2");
    assert_eq!(r.move_limit(), Some(2));
    let start = TogyzPosition::start(r);
    assert_eq!(start.history_rules().move_limit, Some(2));
    let two = start
        .play(TogyzMove(1))
        .unwrap()
        .play(TogyzMove(1))
        .unwrap();
    assert!(!two.is_over(), "the position alone does not end the game");
    assert_eq!(
        two.end_by(HistoryEnd::MoveLimit).to_string(),
        "0,0,0,0,0,0,0,0,0,81,0,0,0,0,0,0,0,0,0,81 -,- -"
    );
}

/// TK-6.6: the 18 moves lead back to the same position under `togyz-kumalak`; under
/// `togyz-ludii` the line ends at its 17th ply with 80–82.
#[test]
fn endless_play_cycles() {
    let start = "1,0,0,0,0,0,0,0,0,80,1,0,0,0,0,0,0,0,0,80 -,- S";
    let line = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9];
    let p = pos("togyz-kumalak", start);
    let back = line.iter().fold(p, |p, &m| p.play(TogyzMove(m)).unwrap());
    assert_eq!(back, p);
    let mut q = pos("togyz-ludii", start);
    for (ply, &m) in line.iter().enumerate() {
        q = q.play(TogyzMove(m)).unwrap();
        assert_eq!(q.is_over(), ply == 16, "ply {}", ply + 1);
        if q.is_over() {
            break;
        }
    }
    assert_eq!((q.kazan(Side::South), q.kazan(Side::North)), (80, 82));
}

#[test]
fn parser_cases() {
    let refused = |id: &str, r: &str, text: &str| {
        TogyzPosition::parse(rules(r), text)
            .err()
            .unwrap_or_else(|| panic!("{id}: {text} was accepted"))
    };
    assert_eq!(
        refused(
            "R1",
            "togyz-kumalak",
            "0,0,0,0,0,0,0,0,0,81,1,0,0,0,0,0,0,0,0,80 -,- S"
        ),
        PositionError::AlreadyOver {
            side: Side::South,
            end: PositionEnd::EmptyRow
        }
    );
    assert_eq!(
        refused(
            "R2",
            "togyz-kumalak",
            "2,0,0,0,0,0,1,1,1,82,0,3,0,2,0,1,0,0,0,69 -,- N"
        ),
        PositionError::AlreadyOver {
            side: Side::North,
            end: PositionEnd::Majority
        }
    );
    pos(
        "togyz-kumalak",
        "2,0,0,0,0,0,1,1,1,82,0,3,0,2,0,1,0,0,0,69 -,- -",
    );
    // Without the majority rule a majority ends nothing: the kumalaks in houses say the game
    // is not over (TK-9.3), and with North to move it goes on.
    for rules in ["togyz-ludii", "togyz-kumalak+majority=off"] {
        assert_eq!(
            refused(
                "R2",
                rules,
                "2,0,0,0,0,0,1,1,1,82,0,3,0,2,0,1,0,0,0,69 -,- -"
            ),
            PositionError::KumalaksAfterEnd
        );
        pos(rules, "2,0,0,0,0,0,1,1,1,82,0,3,0,2,0,1,0,0,0,69 -,- N");
    }
    let r3 = "9,9,9,9,9,9,9,9,9,3,9,9,9,9,9,9,9,9,0,0 9,- S";
    assert_eq!(
        refused("R3", "togyz-kumalak", r3),
        PositionError::TuzdykOnLast(Side::South)
    );
    pos("togyz-ludii", r3);
    assert_eq!(
        refused(
            "R4",
            "togyz-kumalak",
            "9,9,0,9,9,9,9,9,9,3,9,9,0,9,9,9,9,9,9,0 3,3 S"
        ),
        PositionError::TuzdykSameNumber(3)
    );
    assert_eq!(
        refused(
            "R5",
            "togyz-kumalak",
            "9,9,9,9,9,9,9,9,9,0,9,9,3,9,9,9,9,9,9,0 3,- S"
        ),
        PositionError::TuzdykNotEmpty {
            owner: Side::South,
            side: Side::North,
            house: 3
        }
    );
    assert_eq!(
        refused("R6", "bestemshe", "5,5,5,5,5,0,5,5,0,5,5,5 3,- S"),
        PositionError::TuzdykOff(Side::South)
    );
    assert_eq!(
        refused(
            "R7",
            "togyz-kumalak",
            "0,0,0,0,0,0,0,0,1,78,0,0,0,0,5,0,0,0,0,78 -,- -"
        ),
        PositionError::KumalaksAfterEnd
    );
    let r8 = "0,0,0,0,0,0,0,0,0,78,1,0,0,0,5,0,0,0,0,78 -,- N";
    assert_eq!(
        refused("R8", "togyz-ludii", r8),
        PositionError::AlreadyOver {
            side: Side::North,
            end: PositionEnd::EmptyRowAfterMove
        }
    );
    pos("togyz-kumalak", r8);
    assert_eq!(
        refused(
            "R9",
            "togyz-kumalak",
            "9,9,9,9,9,9,9,9,9,0,9,9,9,9,9,9,9,9,0 -,- S"
        ),
        PositionError::CountNumber {
            houses: 9,
            expected: 20,
            got: 19
        }
    );
    let a5 = pos(
        "togyz-kumalak",
        " 9,9,9,9,9,9,9,9,9,0,9,9,9,9,9,9,9,9,9,0   -,-  s ",
    );
    assert_eq!(a5.to_string(), START);
    assert_eq!(a5, TogyzPosition::start(TogyzRules::default()));
    // A `-` with every house empty is always accepted (TK-9.3).
    pos(
        "togyz-ludii",
        "0,0,0,0,0,0,0,0,0,80,0,0,0,0,0,0,0,0,0,82 -,- -",
    );
}

#[test]
fn malformed_positions_name_the_bad_part() {
    let r = TogyzRules::default();
    for (text, want) in [
        ("", "malformed position ``"),
        ("9,9 -,- S extra", "malformed position"),
        (&START.replace(" S", " X"), "malformed position"),
        (&START.replace("-,-", "-"), "malformed position"),
        (
            &START.replace("-,-", "10,-"),
            "South's tuzdyk `10` is not `-` or a house 1..=9",
        ),
        (
            &START.replace("-,-", "-,0"),
            "North's tuzdyk `0` is not `-` or a house 1..=9",
        ),
        (
            &START.replacen("9,9", "256,9", 1),
            "count 1: `256` is not a kumalak count 0..=255",
        ),
        (&START.replacen("9,9", "0009,9", 1), "count 1: `0009`"),
        (
            &START.replacen("9,9", "255,9", 1),
            "the position holds 408 kumalaks; at most 255",
        ),
    ] {
        let err = TogyzPosition::parse(r, text).unwrap_err().to_string();
        assert!(err.contains(want), "{text}: {err}");
    }
}

/// TK-11.1: perft from the start of each named rule set.
#[test]
fn perft_from_the_start() {
    let kumalak = TogyzPosition::start(TogyzRules::default());
    let want = [9, 73, 613, 5199, 43184, 360035];
    for (depth, &n) in (1..).zip(&want) {
        assert_eq!(perft(&kumalak, depth), n, "togyz-kumalak depth {depth}");
    }
    let bestemshe = TogyzPosition::start(rules("bestemshe"));
    for (depth, &n) in (1..).zip(&[5u64, 21, 91, 407, 1761, 7782, 34285]) {
        assert_eq!(perft(&bestemshe, depth), n, "bestemshe depth {depth}");
    }
    // togyz-ludii and tuzdyk=off agree to depth 4 and part at depth 5 (43135, 43449).
    for (r, five) in [("togyz-ludii", 43135), ("togyz-kumalak+tuzdyk=off", 43449)] {
        let p = TogyzPosition::start(rules(r));
        assert_eq!(perft(&p, 4), 5199, "{r}");
        assert_eq!(perft(&p, 5), five, "{r}");
    }
}
