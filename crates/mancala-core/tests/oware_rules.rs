//! Hand-checked Oware rules: every worked example X1–X15 of `docs/rules/oware.md` (OW-12)
//! under its rule set, and a hand-traced case for every rule id (OW-1 … OW-9, OW-11.4). Each
//! expected position below was traced seed by seed from the rules text (the trace is in the
//! comment above it) or copied from OW-12, not read off the implementation.

use mancala_core::oware::{
    parse_moves, perft, IllegalReason, OwareMove, OwarePosition, OwareRules, PositionEnd,
    PositionError,
};
use mancala_core::{Game, HistoryEnd, Outcome, Side};

fn rules(r: &str) -> OwareRules {
    r.parse().unwrap_or_else(|e| panic!("{r}: {e}"))
}

fn pos(r: &str, p: &str) -> OwarePosition {
    OwarePosition::parse(rules(r), p).unwrap_or_else(|e| panic!("{r} {p}: {e}"))
}

fn legal(p: &OwarePosition) -> Vec<u8> {
    p.legal_moves().iter().map(|m| m.house()).collect()
}

fn play(p: &OwarePosition, house: u8) -> OwarePosition {
    p.play(OwareMove(house))
        .unwrap_or_else(|e| panic!("{house} on {p}: {e}"))
}

fn reason(p: &OwarePosition, house: u8) -> IllegalReason {
    let e = p.play(OwareMove(house)).expect_err("an illegal move");
    assert_eq!(e.position, *p, "the error carries the unchanged position");
    assert_eq!(e.mv, OwareMove(house));
    e.reason
}

/// South's and North's final counts in half seeds.
fn finals(p: &OwarePosition) -> (u32, u32) {
    (
        p.final_half_seeds(Side::South).unwrap(),
        p.final_half_seeds(Side::North).unwrap(),
    )
}

/// A tiny game record for the history rules (OW-6.2, OW-6.4): the positions so far and the
/// plies; after each move the new position, unless already over, is counted, and at the
/// rule set's `repetition`-th occurrence or `move_limit`-th ply `end_by` finishes it.
struct Record {
    seen: Vec<OwarePosition>,
    plies: u32,
}

impl Record {
    fn new(start: OwarePosition) -> Record {
        Record {
            seen: vec![start],
            plies: 0,
        }
    }

    fn position(&self) -> OwarePosition {
        *self.seen.last().unwrap()
    }

    fn occurrences(&self, p: &OwarePosition) -> usize {
        self.seen.iter().filter(|q| *q == p).count()
    }

    fn play(&mut self, house: u8) -> OwarePosition {
        let mut next = play(&self.position(), house);
        self.plies += 1;
        if !next.is_over() {
            let history = next.history_rules();
            let n = self.occurrences(&next) + 1;
            if history.repetition.is_some_and(|r| n >= usize::from(r)) {
                next = next.end_by(HistoryEnd::Repetition);
            } else if history
                .move_limit
                .is_some_and(|l| self.plies >= u32::from(l))
            {
                next = next.end_by(HistoryEnd::MoveLimit);
            }
        }
        self.seen.push(next);
        next
    }
}

/// One worked example of OW-12: rule set, position, legal moves, move, position after.
fn example(r: &str, before: &str, moves: &[u8], house: u8, after: &str) {
    let p = pos(r, before);
    assert_eq!(legal(&p), moves, "{r} {before}");
    let q = play(&p, house);
    assert_eq!(q.to_string(), after, "{r} {before} plays {house}");
    assert_eq!(q.total_seeds(), p.total_seeds(), "seeds are conserved");
}

#[test]
fn x1_to_x6_sowing_and_capture() {
    // X1 opening.
    example(
        "oware",
        "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S",
        &[1, 2, 3, 4, 5, 6],
        3,
        "4,4,0,5,5,5,0,5,4,4,4,4,4,0 N",
    );
    // X2 12 seeds: the lap skips the origin, the last seed makes 2 in N1.
    example(
        "oware",
        "0,0,0,0,0,12,18,0,0,0,0,0,0,18 S",
        &[6],
        6,
        "1,1,1,1,1,0,20,0,1,1,1,1,1,18 N",
    );
    // X3 16 seeds: second lap, five houses captured.
    example(
        "oware",
        "0,0,0,0,0,16,10,0,1,0,1,0,5,15 S",
        &[6],
        6,
        "1,1,1,1,1,0,22,0,0,0,0,0,6,15 N",
    );
    // X4 the chain stops at a house of 4.
    example(
        "oware",
        "0,0,0,0,3,1,18,3,1,2,1,0,0,19 S",
        &[5, 6],
        5,
        "0,0,0,0,0,2,20,4,0,2,1,0,0,19 N",
    );
    // X5 the chain stops at the mover's own row.
    example(
        "oware",
        "1,2,0,0,0,4,18,0,0,0,0,3,1,19 N",
        &[5, 6],
        5,
        "0,0,0,0,0,4,18,0,0,0,0,0,2,24 S",
    );
    // X6 last seed in the own row: no capture.
    example(
        "oware",
        "0,0,0,2,0,1,20,1,2,2,0,0,0,20 S",
        &[4, 6],
        4,
        "0,0,0,0,1,2,20,1,2,2,0,0,0,20 N",
    );
}

#[test]
fn x7_grand_slam_under_each_option() {
    let p = "0,0,0,0,1,2,18,1,2,0,0,0,0,24 S";
    // X7 oware: nothing captured.
    example("oware", p, &[5, 6], 6, "0,0,0,0,1,0,18,2,3,0,0,0,0,24 N");
    // X7a grand_slam=all: North has no seed, no move; final 24–24.
    example(
        "oware+grand_slam=all",
        p,
        &[5, 6],
        6,
        "0,0,0,0,0,0,24,0,0,0,0,0,0,24 -",
    );
    let end = play(&pos("oware+grand_slam=all", p), 6);
    assert_eq!(finals(&end), (48, 48));
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: None,
            score: 0
        })
    );
    // X7b grand_slam=forbidden: house 6 is not legal.
    let q = pos("oware+grand_slam=forbidden", p);
    assert_eq!(legal(&q), [5]);
    assert_eq!(reason(&q, 6), IllegalReason::GrandSlam(6));
    // X7c grand_slam=leave_last: N2 taken, N1 stays.
    example(
        "oware+grand_slam=leave_last",
        p,
        &[5, 6],
        6,
        "0,0,0,0,1,0,21,2,0,0,0,0,0,24 N",
    );
    // X7d awari: another move exists, house 6 is not legal.
    let q = pos("awari", p);
    assert_eq!(legal(&q), [5]);
    assert_eq!(reason(&q, 6), IllegalReason::Eradicates(6));
}

#[test]
fn x8_to_x11_feeding_and_no_move() {
    // X8 awari: the grand slam is the only move; final 25–23.
    example(
        "awari",
        "0,0,0,0,0,2,20,1,2,0,0,0,0,23 S",
        &[6],
        6,
        "0,0,0,0,0,0,25,0,0,0,0,0,0,23 -",
    );
    // X8a oware: no capture, then North cannot feed; final 20–28.
    example(
        "oware",
        "0,0,0,0,0,2,20,1,2,0,0,0,0,23 S",
        &[6],
        6,
        "0,0,0,0,0,0,20,0,0,0,0,0,0,28 -",
    );
    let end = play(&pos("oware", "0,0,0,0,0,2,20,1,2,0,0,0,0,23 S"), 6);
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: Some(Side::North),
            score: -8
        })
    );
    // X9 must feed.
    example(
        "oware",
        "1,0,4,0,0,1,20,0,0,0,0,0,0,22 S",
        &[3, 6],
        6,
        "1,0,4,0,0,0,20,1,0,0,0,0,0,22 N",
    );
    let q = pos("oware", "1,0,4,0,0,1,20,0,0,0,0,0,0,22 S");
    assert_eq!(reason(&q, 1), IllegalReason::MustFeed(1));
    // X10 the side to move cannot feed: refused by the parser.
    assert_eq!(
        OwarePosition::parse(rules("oware"), "1,1,0,0,0,0,24,0,0,0,0,0,0,22 S"),
        Err(PositionError::AlreadyOver {
            side: Side::South,
            end: PositionEnd::NoLegalMove
        })
    );
    // X10a the move after which South cannot feed; final 26–22.
    example(
        "oware",
        "0,1,0,0,0,0,24,0,0,0,0,0,1,22 N",
        &[6],
        6,
        "0,0,0,0,0,0,26,0,0,0,0,0,0,22 -",
    );
    // X11 awari: no move feeds, so every move is legal; final 20–28.
    example(
        "awari",
        "0,0,0,0,0,0,20,1,1,0,0,0,0,26 N",
        &[1, 2],
        1,
        "0,0,0,0,0,0,20,0,0,0,0,0,0,28 -",
    );
}

#[test]
fn x12_x13_majority() {
    // X12 oware: the seeds left count for nobody; final 26–13.
    let p = "0,0,0,0,0,1,24,1,1,3,5,0,0,13 S";
    example("oware", p, &[6], 6, "0,0,0,0,0,0,26,0,1,3,5,0,0,13 -");
    assert_eq!(finals(&play(&pos("oware", p), 6)), (52, 26));
    // X12a oware-openspiel: each row to its owner; final 26–22.
    example(
        "oware-openspiel",
        p,
        &[6],
        6,
        "0,0,0,0,0,0,26,0,0,0,0,0,0,22 -",
    );
    assert_eq!(finals(&play(&pos("oware-openspiel", p), 6)), (52, 44));
    // X13 24–24 by a capture (grand_slam=all).
    let p = "0,0,0,0,0,1,22,1,0,0,0,0,0,24 S";
    example(
        "oware+grand_slam=all",
        p,
        &[6],
        6,
        "0,0,0,0,0,0,24,0,0,0,0,0,0,24 -",
    );
    // X13a oware: nothing captured, North cannot feed; final 22–26.
    example("oware", p, &[6], 6, "0,0,0,0,0,0,22,0,0,0,0,0,0,26 -");
}

#[test]
fn x14_repetition_oware_openspiel_and_oware() {
    let start = "1,0,0,0,0,0,23,1,0,0,0,0,0,23 S";
    let moves = parse_moves("1 1 2 2 3 3 4 4 5 5 6 6").unwrap();
    // X14 oware-openspiel: the first repetition ends the game, own rows: 24–24.
    let mut game = Record::new(pos("oware-openspiel", start));
    for (i, mv) in moves.iter().enumerate() {
        let p = game.play(mv.house());
        assert_eq!(p.is_over(), i == moves.len() - 1, "ply {}", i + 1);
    }
    assert_eq!(
        game.position().to_string(),
        "0,0,0,0,0,0,24,0,0,0,0,0,0,24 -"
    );
    assert_eq!(finals(&game.position()), (48, 48));
    // X14a oware: the start position has occurred twice; the game goes on.
    let mut game = Record::new(pos("oware", start));
    for mv in &moves {
        game.play(mv.house());
    }
    assert_eq!(game.position().to_string(), start);
    assert_eq!(game.occurrences(&game.position()), 2);
}

#[test]
fn x15_awari_cycle_split() {
    let start = "0,1,0,0,1,0,22,0,0,0,0,1,0,23 S";
    let moves = parse_moves("2 5 5 6 6 1 1 2 3 3 4 4 2 5 5 6 6 1 3 2 1 3 4 4").unwrap();
    let mut game = Record::new(pos("awari", start));
    for (i, mv) in moves.iter().enumerate() {
        let p = game.play(mv.house());
        assert_eq!(p.is_over(), i == moves.len() - 1, "ply {}", i + 1);
    }
    let end = game.position();
    // The 3 seeds stay and are split: 22 + 1½ against 23 + 1½.
    assert_eq!(end.to_string(), "0,1,0,0,1,0,22,0,0,0,0,1,0,23 -");
    assert_eq!(finals(&end), (47, 49));
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: Some(Side::North),
            score: -1
        })
    );
}

// OW-1.1, OW-1.2: s seeds in each of the 2h houses, empty stores, South to move, T = 2hs.
#[test]
fn ow1_start_positions() {
    let p = OwarePosition::start(OwareRules::default());
    assert_eq!(p.to_string(), "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S");
    assert_eq!(p.total_seeds(), 48);
    assert_eq!(p.side_to_move(), Some(Side::South));
    let p = OwarePosition::start(rules("oware(8,15)"));
    assert_eq!(
        p.to_string(),
        format!("{},0,{},0 S", ["15"; 8].join(","), ["15"; 8].join(","))
    );
    assert_eq!(p.total_seeds(), 240);
    let p = OwarePosition::start(rules("oware-openspiel(1,4)"));
    assert_eq!(p.to_string(), "4,0,4,0 S");
}

// OW-1.3: North's houses count from North's left, and the circuit runs N1 … N6, S1 ….
// After X1, North's house 6 (4 seeds) sows S1, S2, S3, S4: 5, 5, 1, 6; the last house S4
// holds 6, no capture.
#[test]
fn ow1_3_north_sows_into_south_from_s1() {
    let p = play(&OwarePosition::start(OwareRules::default()), 3);
    let q = play(&p, 6);
    assert_eq!(q.to_string(), "5,5,1,6,5,5,0,5,4,4,4,4,0,0 S");
    assert_eq!(q.house(Side::North, 6), Some(0));
    assert_eq!(q.house(Side::South, 4), Some(6));
    assert_eq!(q.house(Side::South, 7), None);
    assert_eq!(q.store(Side::South), 0);
}

// OW-2.3, OW-3.4: 12 seeds from S1 sow S2 … S6 (5), N1 … N6 (6), skip S1, and the 12th seed
// lands in S2: the last house is the mover's own, nothing is captured although every North
// house now holds 2.
#[test]
fn ow2_3_a_lap_of_12_from_house_1() {
    example(
        "oware",
        "12,0,0,0,0,0,10,1,1,1,1,1,1,20 S",
        &[1],
        1,
        "0,2,1,1,1,1,10,2,2,2,2,2,2,20 N",
    );
}

// OW-2.3, OW-3.2, OW-3.3: 23 seeds from S6 = two laps of the 11 other houses plus one: every
// house but S6 gets 2, N1 one more. N1 (0 + 3 = 3) is captured; the chain cannot go below
// the opponent's house 1, so N2 … N6 (2 each, after the last house) stay. Not a grand slam.
#[test]
fn ow2_3_a_lap_of_23_seeds() {
    example(
        "oware",
        "0,0,0,0,0,23,5,0,0,0,0,0,0,20 S",
        &[6],
        6,
        "2,2,2,2,2,0,8,0,2,2,2,2,2,20 N",
    );
}

// OW-2.3: 22 = 2·11 seeds from S1: every other house gets 2 and the last seed falls just
// before the origin, in N6. N2 … N6 hold 2 and are captured (10 seeds); the chain is broken
// by N1, which holds 2 + 2 = 4 (OW-3.2).
#[test]
fn ow2_3_a_multiple_of_the_cycle_and_a_chain_broken_by_a_4() {
    example(
        "oware",
        "22,0,0,0,0,0,4,2,0,0,0,0,0,20 S",
        &[1],
        1,
        "0,2,2,2,2,2,14,4,0,0,0,0,0,20 N",
    );
}

// OW-3.2: S6's 3 seeds go to N1, N2, N3: 1, 2, 3. N3 and N2 are captured (5); N1 holds 1 and
// breaks the chain. North's row is then 1, 0, 0, 5 and South's is empty, so North must feed
// (OW-5.1): only house 4 (5 seeds ≥ 6 − 4 + 1) does.
#[test]
fn ow3_2_a_chain_broken_by_a_1() {
    example(
        "oware",
        "0,0,0,0,0,3,10,0,1,2,5,0,0,10 S",
        &[6],
        6,
        "0,0,0,0,0,0,15,1,0,0,5,0,0,10 N",
    );
    let q = play(&pos("oware", "0,0,0,0,0,3,10,0,1,2,5,0,0,10 S"), 6);
    assert_eq!(legal(&q), [4]);
    assert_eq!(reason(&q, 1), IllegalReason::MustFeed(1));
}

// OW-3.5: a capture passes the turn (X2: South captured, North to move).
#[test]
fn ow3_5_no_extra_move_after_a_capture() {
    let q = play(&pos("oware", "0,0,0,0,0,12,18,0,0,0,0,0,0,18 S"), 6);
    assert_eq!(q.side_to_move(), Some(Side::North));
}

// OW-4.1, OW-4.2: a grand slam that reaches the far edge of the row. S6's 6 seeds go to N1 …
// N6, which held 1,2,1,2,1,2 and now hold 2,3,2,3,2,3: the last house N6 starts a chain down
// to N1, every North house — a grand slam (15 seeds).
#[test]
fn ow4_grand_slam_over_the_whole_row() {
    let p = "0,0,0,0,1,6,16,1,2,1,2,1,2,16 S";
    // none: nothing captured.
    example("oware", p, &[5, 6], 6, "0,0,0,0,1,0,16,2,3,2,3,2,3,16 N");
    // all: 15 captured, 31 of 48 is a majority (stop): S5's seed counts for nobody.
    example(
        "oware+grand_slam=all",
        p,
        &[5, 6],
        6,
        "0,0,0,0,1,0,31,0,0,0,0,0,0,16 -",
    );
    assert_eq!(finals(&play(&pos("oware+grand_slam=all", p), 6)), (62, 32));
    // leave_last: N2 … N6 taken (13), N1 keeps its 2; 29 is a majority.
    example(
        "oware+grand_slam=leave_last",
        p,
        &[5, 6],
        6,
        "0,0,0,0,1,0,29,2,0,0,0,0,0,16 -",
    );
    // forbidden and unless_only: S5 (one seed into S6) keeps North's seeds, so 6 is illegal.
    assert_eq!(legal(&pos("oware+grand_slam=forbidden", p)), [5]);
    assert_eq!(legal(&pos("awari", p)), [5]);
    // With N6 holding 3 before, it holds 4 after: the chain is empty (OW-3.4), no grand slam.
    example(
        "oware",
        "0,0,0,0,1,6,16,1,2,1,2,1,3,15 S",
        &[5, 6],
        6,
        "0,0,0,0,1,0,16,2,3,2,3,2,4,15 N",
    );
    // With 5 seeds in S6 the sowing stops at N5 and N6 keeps its 1 seed: the chain N5 … N1
    // (2+3+2+3+2 = 12) is not a grand slam and is captured under every option.
    for r in [
        "oware",
        "oware+grand_slam=forbidden",
        "oware+grand_slam=leave_last",
        "awari",
    ] {
        let p = pos(r, "0,0,0,0,1,5,4,1,2,1,2,1,1,18 S");
        assert_eq!(legal(&p), [5, 6], "{r}");
        assert_eq!(
            play(&p, 6).to_string(),
            "0,0,0,0,1,0,16,0,0,0,0,0,1,18 N",
            "{r}"
        );
    }
}

// OW-4.2 on one house (h = 1): S1's 2 seeds all go to N1 (0 → 2): a grand slam.
#[test]
fn ow4_grand_slam_with_one_house() {
    let p = "2,0,0,1 S";
    example("oware(1,2)", p, &[1], 1, "0,0,2,1 N");
    // all: captured, 2 of 3: majority (stop), nothing left.
    example("oware(1,2)+grand_slam=all", p, &[1], 1, "0,2,0,1 -");
    // leave_last: the chain is N1 alone, which stays: nothing captured.
    example("oware(1,2)+grand_slam=leave_last", p, &[1], 1, "0,0,2,1 N");
    // forbidden: North's row is empty and the one feeding move is a grand slam, illegal
    // too (OW-5.2): no legal move, so such a position is already over.
    assert_eq!(
        OwarePosition::parse(rules("oware(1,2)+grand_slam=forbidden"), p),
        Err(PositionError::AlreadyOver {
            side: Side::South,
            end: PositionEnd::NoLegalMove
        })
    );
}

// OW-5.1: North's row empty; from S1 (1 seed) and S2 (2 seeds) the seeds stay in South's
// row; S5 (2 seeds ≥ 6 − 5 + 1) reaches N1: the one feeding move.
#[test]
fn ow5_1_must_feed_with_one_feeding_move() {
    let p = pos("oware", "1,2,0,0,2,0,20,0,0,0,0,0,0,23 S");
    assert_eq!(legal(&p), [5]);
    assert_eq!(reason(&p, 1), IllegalReason::MustFeed(1));
    assert_eq!(reason(&p, 2), IllegalReason::MustFeed(2));
    assert_eq!(reason(&p, 3), IllegalReason::EmptyHouse(3));
    assert_eq!(
        reason(&p, 7),
        IllegalReason::NoSuchHouse {
            house: 7,
            houses: 6
        }
    );
    assert_eq!(
        reason(&p, 0),
        IllegalReason::NoSuchHouse {
            house: 0,
            houses: 6
        }
    );
    assert_eq!(play(&p, 5).to_string(), "1,2,0,0,0,1,20,1,0,0,0,0,0,23 N");
}

// OW-5.3: under unless_only a non-feeding move leaves the empty row empty (eradicating).
// (OW-5.2 under forbidden with an empty opponent row: `ow4_grand_slam_with_one_house`.)
#[test]
fn ow5_3_eradicating_moves() {
    // unless_only: S1 (1 seed → S2) eradicates; S5 (2 → S6, N1) does not.
    let p = pos("awari", "1,0,0,0,2,0,20,0,0,0,0,0,0,25 S");
    assert_eq!(legal(&p), [5]);
    assert_eq!(reason(&p, 1), IllegalReason::Eradicates(1));
}

// OW-5.4: a side to move with no seed has no legal move: such a position is already over.
#[test]
fn ow5_4_an_empty_row_has_no_move() {
    assert_eq!(
        OwarePosition::parse(rules("awari"), "0,0,0,0,0,0,20,1,1,1,1,1,1,22 S"),
        Err(PositionError::AlreadyOver {
            side: Side::South,
            end: PositionEnd::NoLegalMove
        })
    );
}

// OW-6.1: South captures N3 and N2 (5 seeds) and has 25 of 48.
#[test]
fn ow6_1_the_end_by_25_seeds() {
    let p = "0,0,0,0,0,3,20,0,1,2,5,0,0,17 S";
    // stop: 1 + 5 seeds left count for nobody; 25–17.
    example("oware", p, &[6], 6, "0,0,0,0,0,0,25,1,0,0,5,0,0,17 -");
    let end = play(&pos("oware", p), 6);
    assert_eq!(finals(&end), (50, 34));
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: Some(Side::South),
            score: 8
        })
    );
    // collect: North adds his 6; 25–23.
    example(
        "oware-openspiel",
        p,
        &[6],
        6,
        "0,0,0,0,0,0,25,0,0,0,0,0,0,23 -",
    );
    // off (awari): play goes on; South's row is empty, N1 (1 seed to N2) would leave it
    // empty (eradicating), N4 (5 seeds to N5, N6, S1, S2, S3) feeds.
    let q = play(&pos("awari", p), 6);
    assert_eq!(q.to_string(), "0,0,0,0,0,0,25,1,0,0,5,0,0,17 N");
    assert_eq!(legal(&q), [4]);
}

// OW-6.1, 24–24 with an odd total (49): S6 → N1 makes 2, captured (N2 keeps 1: no grand
// slam); 24 and 24 both equal ⌊49/2⌋: over, the last seed counts for nobody.
#[test]
fn ow6_1_a_24_24_split_with_an_odd_total() {
    let p = "0,0,0,0,0,1,22,1,1,0,0,0,0,24 S";
    example("oware", p, &[6], 6, "0,0,0,0,0,0,24,0,1,0,0,0,0,24 -");
    let end = play(&pos("oware", p), 6);
    assert_eq!(finals(&end), (48, 48));
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: None,
            score: 0
        })
    );
    // A side letter with the majority reached is refused (OW-9.2), unless majority=off.
    assert_eq!(
        OwarePosition::parse(rules("oware"), "0,0,0,0,0,0,24,0,1,0,0,0,0,24 N"),
        Err(PositionError::AlreadyOver {
            side: Side::North,
            end: PositionEnd::Majority
        })
    );
    assert!(OwarePosition::parse(rules("awari"), "0,0,0,1,0,0,24,0,1,0,0,0,0,24 N").is_ok());
}

// OW-6.2 with own_row against split on the same finished cycle, through end_by.
#[test]
fn ow6_2_repetition_allotments() {
    let p = pos("oware", "0,1,0,0,1,0,22,0,0,0,0,1,0,23 N");
    assert_eq!(
        p.end_by(HistoryEnd::Repetition).to_string(),
        "0,0,0,0,0,0,24,0,0,0,0,0,0,24 -"
    );
    let q = pos("oware+cycle_score=split", "0,1,0,0,1,0,22,0,0,0,0,1,0,23 N");
    let end = q.end_by(HistoryEnd::Repetition);
    assert_eq!(end.to_string(), "0,1,0,0,1,0,22,0,0,0,0,1,0,23 -");
    assert_eq!(finals(&end), (47, 49));
    // The move limit always allots by rows (OW-6.4); a finished position stays as it is.
    assert_eq!(
        q.end_by(HistoryEnd::MoveLimit).to_string(),
        "0,0,0,0,0,0,24,0,0,0,0,0,0,24 -"
    );
    assert_eq!(end.end_by(HistoryEnd::MoveLimit), end);
    assert_eq!(p.history_rules().repetition, Some(3));
    assert_eq!(p.history_rules().move_limit, None);
    let o = pos("oware-openspiel", "0,1,0,0,1,0,22,0,0,0,0,1,0,23 N").history_rules();
    assert_eq!((o.repetition, o.move_limit), (Some(2), Some(1000)));
}

// OW-6.4: after two plies (X1, then North's 6 as in OW-1.3 above) the limit of 2 ends the
// game; South's row holds 5+5+1+6+5+5 = 27, North's 5+4+4+4+4 = 21.
#[test]
fn ow6_4_move_limit() {
    let mut game = Record::new(OwarePosition::start(rules("oware+move_limit=2")));
    assert!(!game.play(3).is_over());
    let end = game.play(6);
    assert_eq!(end.to_string(), "0,0,0,0,0,0,27,0,0,0,0,0,0,21 -");
    assert_eq!(
        end.outcome(),
        Some(Outcome {
            winner: Some(Side::South),
            score: 6
        })
    );
}

// OW-6.6, OW-9.4: a game set up finished has no moves and its result from the position.
#[test]
fn ow6_6_a_finished_position() {
    let p = pos("oware", "0,0,0,0,0,0,30,0,0,0,0,0,0,18 -");
    assert!(p.is_over() && p.legal_moves().is_empty());
    assert_eq!(reason(&p, 1), IllegalReason::GameOver);
    assert_eq!(
        p.outcome(),
        Some(Outcome {
            winner: Some(Side::South),
            score: 12
        })
    );
    assert_eq!(p.side_to_move(), None);
    assert_eq!(perft(&p, 1), 0);
    assert_eq!(perft(&p, 0), 1);
}

// OW-11.4: perft from the start of the three named rule sets.
#[test]
fn ow11_4_perft_from_the_start() {
    for r in ["oware", "awari", "oware-openspiel"] {
        let start = OwarePosition::start(rules(r));
        let counts: Vec<u64> = (1..=5).map(|d| perft(&start, d)).collect();
        assert_eq!(counts, [6, 36, 190, 1014, 5219], "{r}");
    }
}

/// OW-6.3 at the start: under `awari(1,1)+grand_slam=forbidden` South's one move (1 seed
/// into North's single house, making 2: the whole row) is a forbidden grand slam (OW-4.2), so
/// South has no legal move and the game is over before it starts, each player taking his
/// row: 1–1, a draw; the parser refuses the same position with a side letter (OW-9.2).
#[test]
fn a_start_without_a_legal_move_is_over() {
    let rules: OwareRules = "awari(1,1)+grand_slam=forbidden".parse().unwrap();
    let start = OwarePosition::start(rules);
    assert!(start.is_over());
    assert!(start.legal_moves().is_empty());
    assert_eq!(start.to_string(), "0,1,0,1 -");
    assert!(OwarePosition::parse(rules, "1,0,1,0 S").is_err());
}

/// What a move captured (`Game::captured_seeds`, as `mancala play` reports it).
#[test]
fn captured_seeds_of_a_move() {
    // X3 (OW-12): the second lap ends in N5; N5 … N1 hold 2, 3, 2, 3, 2: all 12 captured.
    let p = pos("oware", "0,0,0,0,0,16,10,0,1,0,1,0,5,15 S");
    assert_eq!(p.captured_seeds(OwareMove(6), &play(&p, 6)), Some(12));
    // X6: the last seed in the mover's own row captures nothing.
    let p = pos("oware", "0,0,0,2,0,1,20,1,2,2,0,0,0,20 S");
    assert_eq!(p.captured_seeds(OwareMove(4), &play(&p, 4)), Some(0));
    // S6's one seed makes N1 three (OW-3.1): captured.
    let p = pos("oware", "0,0,0,0,0,1,10,2,4,4,4,4,4,15 S");
    assert_eq!(p.captured_seeds(OwareMove(6), &play(&p, 6)), Some(3));
    // The same capture taking South from 22 to 25 of 45 seeds: more than half (OW-6.1), the
    // game ends, and the capture is not told from the end's allotment.
    let p = pos("oware", "0,0,0,0,0,1,22,2,4,4,4,4,4,0 S");
    let q = play(&p, 6);
    assert!(q.is_over());
    assert_eq!(p.captured_seeds(OwareMove(6), &q), None);
}
