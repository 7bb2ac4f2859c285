//! The test cases TC-01, TC-03…TC-11 and TC-13…TC-17 of `docs/rules/bao-la-kete.md` §13,
//! as written there. Expected values are the hand-traced results of `docs/rules/bao-la-kete.md`.

mod common;
use common::*;

use mancala_core::bao::{BaoPosition, BaoRules, IllegalReason, Pit};
use mancala_core::{Game, Side};

/// TC-01 Initial position (K-4.2).
#[test]
fn tc01_initial_position() {
    let p = BaoPosition::start(BaoRules::LAMU);
    for side in Side::ALL {
        assert_eq!(front(&p, side), [0, 0, 0, 0, 6, 2, 2, 0]);
        assert_eq!(back(&p, side), [0; 8]);
        assert_eq!(p.reserve(side), 22);
        assert!(p.kuu_stands(side));
    }
    assert_eq!(p.side_to_move(), Some(Side::South));
    assert!(p.is_nemo());
    assert_eq!(p.total_seeds(), 64);
    // Absolute columns (K-3.7): South's kuu in column 5, North's in column 4.
    assert_eq!(Pit::KUU.column(Side::South), 5);
    assert_eq!(Pit::KUU.column(Side::North), 4);
    assert_eq!(p.to_string(), START);
}

/// TC-03 16 seeds: takata that wraps round (K-6.1, I4 V01).
#[test]
fn tc03_sixteen_seeds_wrap_round() {
    let p = pos(&format!(
        "1,0,0,16,0,0,0,0/{Z}/0,0,0,0,0,0,0,1/46,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F4>", "F4<"]);
    for m in ["F4>", "F4<"] {
        let q = play(&p, m);
        assert_eq!(p.captured_seeds(m.parse().unwrap(), &q), Some(0));
        assert_eq!(front(&q, Side::South), [2, 1, 1, 1, 1, 1, 1, 1]);
        assert_eq!(back(&q, Side::South), [1; 8]);
        assert_eq!(front(&q, Side::North), [0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(back(&q, Side::North), [46, 0, 0, 0, 0, 0, 0, 0]);
    }
}

/// TC-04 17 seeds: a capturable first lap is ignored (K-6.5, K-6.6).
#[test]
fn tc04_seventeen_seeds_first_lap_not_a_capture() {
    let p = pos(&format!(
        "0,0,0,17,0,0,0,0/{Z}/0,0,0,1,0,0,0,0/46,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F4>", "F4<"]);
    let q = play(&p, "F4>");
    assert_eq!(front(&q, Side::South), [0, 2, 0, 2, 1, 2, 0, 2]);
    assert_eq!(back(&q, Side::South), [2, 0, 2, 0, 2, 0, 2, 0]);
    assert_eq!(front(&q, Side::North), [0, 0, 0, 1, 0, 0, 0, 0]);
    let q = play(&p, "F4<");
    assert_eq!(front(&q, Side::South), [0, 2, 1, 2, 0, 2, 0, 2]);
    assert_eq!(back(&q, Side::South), [2, 0, 2, 0, 2, 0, 2, 0]);
    assert_eq!(front(&q, Side::North), [0, 0, 0, 1, 0, 0, 0, 0]);
}

/// TC-05 A kimbi capture reverses direction (K-6.4, I4 V04).
#[test]
fn tc05_kimbi_capture_reverses_direction() {
    let p = pos(&format!(
        "0,1,0,2,0,0,0,1/{Z}/1,0,0,0,0,0,1,0/58,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F4<"]);
    assert_eq!(reason(&p, "F4>"), IllegalReason::CaptureRequired);
    assert_eq!(reason(&p, "F2>"), IllegalReason::TooFewSeeds);
    let q = play(&p, "F4<");
    assert_eq!(front(&q, Side::South), [1, 2, 1, 0, 0, 0, 0, 1]);
    assert_eq!(front(&q, Side::North), [1, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(q.side_to_move(), Some(Side::North));
}

/// TC-06 Nemo capture reaching your own kuu: stop or safari (K-7.5, K-6.4, I4 V03).
#[test]
fn tc06_nemo_capture_stop_or_safari() {
    let p = pos(&format!(
        "0,0,2,0,6,0,0,0/{Z}/1,0,0,0,0,5,0,0/48,0,0,0,0,0,0,0 1,1 S S -"
    ));
    assert_eq!(moves(&p), ["F3L.", "F3L+", "F3R"]);
    let stop = play(&p, "F3L.");
    assert_eq!(front(&stop, Side::South), [1, 1, 4, 1, 7, 0, 0, 0]);
    assert_eq!(back(&stop, Side::South), [0; 8]);
    assert!(stop.kuu_stands(Side::South));
    let safari = play(&p, "F3L+");
    assert_eq!(front(&safari, Side::South), [1, 1, 4, 1, 0, 1, 1, 1]);
    assert_eq!(back(&safari, Side::South), [0, 0, 0, 0, 1, 1, 1, 1]);
    assert!(!safari.kuu_stands(Side::South));
    let right = play(&p, "F3R");
    assert_eq!(front(&right, Side::South), [0, 0, 3, 1, 7, 1, 1, 1]);
    assert!(right.kuu_stands(Side::South));
    for q in [stop, safari, right] {
        assert_eq!(front(&q, Side::North)[5], 0, "f6 was captured");
        assert_eq!(q.reserve(Side::South), 0);
    }
    assert_eq!(reason(&p, "F3L"), IllegalReason::KuuChoiceRequired);
    assert_eq!(reason(&p, "F3R+"), IllegalReason::KuuChoiceNotOffered);
    assert_eq!(reason(&p, "F3"), IllegalReason::KichwaRequired);
    assert_eq!(reason(&p, "F3>L."), IllegalReason::DirectionNotOffered);
}

/// TC-07 Lamu six-seed rule (K-7.4).
#[test]
fn tc07_six_seed_rule() {
    let p = pos(&format!(
        "0,0,0,0,6,0,0,0/{Z}/0,0,0,0,0,0,0,1/55,0,0,0,0,0,0,0 1,1 S S -"
    ));
    assert_eq!(moves(&p), ["F5>", "F5<"]);
    let acw = play(&p, "F5<");
    assert_eq!(front(&acw, Side::South), [1, 1, 1, 1, 0, 0, 0, 0]);
    assert_eq!(back(&acw, Side::South), [1, 1, 1, 0, 0, 0, 0, 0]);
    assert!(!acw.kuu_stands(Side::South));
    let cw = play(&p, "F5>");
    assert_eq!(front(&cw, Side::South), [0, 0, 0, 0, 0, 1, 1, 1]);
    assert_eq!(back(&cw, Side::South), [0, 0, 0, 0, 1, 1, 1, 1]);
    assert!(!cw.kuu_stands(Side::South));
}

/// TC-08 Lamu taxation with 7 seeds (K-7.3).
#[test]
fn tc08_taxation_of_a_lone_kuu() {
    let p = pos(&format!(
        "0,0,0,0,7,0,0,0/{Z}/0,0,0,0,0,0,0,1/54,0,0,0,0,0,0,0 1,1 S S -"
    ));
    assert_eq!(moves(&p), ["F5>", "F5<"]);
    let acw = play(&p, "F5<");
    assert_eq!(front(&acw, Side::South), [0, 0, 1, 1, 6, 0, 0, 0]);
    assert!(acw.kuu_stands(Side::South));
    let cw = play(&p, "F5>");
    assert_eq!(front(&cw, Side::South), [0, 0, 0, 0, 6, 1, 1, 0]);
    assert!(cw.kuu_stands(Side::South));
}

/// TC-09 Where a nemo takata seed may go (K-7.2).
#[test]
fn tc09_nemo_takata_pits() {
    // (a) kuu stands F5=6, F2=1, F7=2: {F2, F7}, both directions; F5 is not allowed.
    let a = pos(&format!(
        "0,1,0,0,6,0,2,0/{Z}/1,0,0,0,0,0,0,0/52,0,0,0,0,0,0,0 1,1 S S -"
    ));
    assert_eq!(moves(&a), ["F2>", "F2<", "F7>", "F7<"]);
    assert_eq!(reason(&a, "F5>"), IllegalReason::NemoKuuNotAlone);
    // (b) kuu destroyed, F2=1, F7=2: {F7} only.
    let b = pos(&format!(
        "0,1,0,0,0,0,2,0/{Z}/1,0,0,0,0,0,0,0/58,0,0,0,0,0,0,0 1,1 - S -"
    ));
    assert_eq!(moves(&b), ["F7>", "F7<"]);
    assert_eq!(reason(&b, "F2>"), IllegalReason::NemoSingleton);
    // (c) kuu destroyed, F2=1, F7=1: {F2, F7}.
    let c = pos(&format!(
        "0,1,0,0,0,0,1,0/{Z}/1,0,0,0,0,0,0,0/59,0,0,0,0,0,0,0 1,1 - S -"
    ));
    assert_eq!(moves(&c), ["F2>", "F2<", "F7>", "F7<"]);
    // (d) kuu stands with 9 and no other front pit: taxation from F5, either direction.
    let d = pos(&format!(
        "0,0,0,0,9,0,0,0/{Z}/1,0,0,0,0,0,0,0/52,0,0,0,0,0,0,0 1,1 S S -"
    ));
    assert_eq!(moves(&d), ["F5>", "F5<"]);
    assert_eq!(
        front(&play(&d, "F5<"), Side::South),
        [0, 0, 1, 1, 8, 0, 0, 0]
    );
    assert_eq!(
        front(&play(&d, "F5>"), Side::South),
        [0, 0, 0, 0, 8, 1, 1, 0]
    );
    assert_eq!(reason(&d, "B3>"), IllegalReason::NemoBackRow);
    assert_eq!(reason(&d, "F3>"), IllegalReason::NemoEmptyPit);
}

/// TC-10 A nemo takata lap ending in the kuu stops (K-7.5).
#[test]
fn tc10_nemo_takata_lap_ending_in_kuu_stops() {
    let p = pos(&format!(
        "0,0,1,0,6,0,0,0/{Z}/1,0,0,0,0,0,0,0/54,0,0,0,0,0,0,0 1,1 S S -"
    ));
    assert_eq!(moves(&p), ["F3>", "F3<"]);
    let cw = play(&p, "F3>");
    assert_eq!(front(&cw, Side::South), [0, 0, 0, 1, 7, 0, 0, 0]);
    assert!(cw.kuu_stands(Side::South));
    assert_eq!(
        front(&play(&p, "F3<"), Side::South),
        [1, 1, 0, 0, 6, 0, 0, 0]
    );
}

/// TC-11 Lamu: the first mtaji takata must start from the kuu (K-8.3a).
#[test]
fn tc11_first_mtaji_takata_from_the_kuu() {
    let p = pos(&format!(
        "0,3,0,0,6,0,0,0/{Z}/1,0,0,0,0,0,0,0/54,0,0,0,0,0,0,0 0,0 S S -"
    ));
    assert_eq!(moves(&p), ["F5>", "F5<"]);
    assert_eq!(reason(&p, "F2>"), IllegalReason::KuuFirst);
    let cw = play(&p, "F5>");
    assert_eq!(front(&cw, Side::South), [0, 3, 0, 0, 0, 1, 1, 1]);
    assert_eq!(back(&cw, Side::South), [0, 0, 0, 0, 0, 1, 1, 1]);
    assert!(!cw.kuu_stands(Side::South));
    let acw = play(&p, "F5<");
    assert_eq!(front(&acw, Side::South), [1, 4, 1, 1, 0, 0, 0, 0]);
    assert_eq!(back(&acw, Side::South), [1, 1, 0, 0, 0, 0, 0, 0]);
    assert!(!acw.kuu_stands(Side::South));
}

/// TC-13 A lone kichwa must go towards the centre (K-6.7b).
#[test]
fn tc13_lone_kichwa_towards_the_centre() {
    let p = pos("3,0,0,0,0,0,0,0/0,0,5,0,0,0,0,0/1,0,0,0,0,0,0,0/55,0,0,0,0,0,0,0 0,0 - S -");
    assert_eq!(moves(&p), ["F1>"]);
    assert_eq!(
        front(&play(&p, "F1>"), Side::South),
        [0, 1, 1, 1, 0, 0, 0, 0]
    );
    assert_eq!(reason(&p, "F1<"), IllegalReason::LoneKichwa);
    assert_eq!(reason(&p, "B3>"), IllegalReason::FrontRowFirst);
}

/// TC-14 A capture that empties the front row wins at once (K-6.7a, K-10.1, decision 9).
#[test]
fn tc14_capture_emptying_the_front_row_wins() {
    let p = pos("0,0,0,1,0,0,0,0/5,0,0,0,0,0,0,0/0,0,0,0,3,0,0,0/53,0,0,0,0,0,0,0 1,1 - S -");
    assert_eq!(moves(&p), ["F4"]);
    assert_eq!(reason(&p, "F4L"), IllegalReason::KichwaNotOffered);
    let q = play(&p, "F4");
    assert_eq!(front(&q, Side::North), [0; 8]);
    assert_eq!(front(&q, Side::South), [0, 0, 0, 2, 0, 0, 0, 0]);
    assert_eq!(q.reserve(Side::South), 3, "the unsown captured seeds");
    assert_eq!(p.captured_seeds("F4".parse().unwrap(), &q), Some(3));
    assert_eq!(q.total_seeds(), 64);
    assert_eq!(q.to_move(), Side::North);
    assert_eq!(q.side_to_move(), None);
    assert_eq!(q.outcome().and_then(|o| o.winner), Some(Side::South));
    assert!(q.legal_moves().is_empty());
    assert_eq!(reason(&q, "F1>"), IllegalReason::GameOver);
}

/// TC-15 No legal move in the mtaji stage (K-10.2).
#[test]
fn tc15_no_legal_move_loses() {
    let p = pos("1,0,1,0,1,0,1,0/1,1,1,1,0,0,0,0/1,0,0,0,0,0,0,0/55,0,0,0,0,0,0,0 0,0 - S -");
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.side_to_move(), None);
    assert_eq!(p.outcome().and_then(|o| o.winner), Some(Side::North));
    assert_eq!(reason(&p, "F1>"), IllegalReason::GameOver);
}

/// TC-16 Mandatory capture outranks the kuu-first-takata rule (K-6.9, K-8.3a).
#[test]
fn tc16_capture_outranks_kuu_first() {
    let p = pos(&format!(
        "0,2,0,1,6,0,0,0/{Z}/1,0,0,0,2,0,0,0/52,0,0,0,0,0,0,0 0,0 S S -"
    ));
    assert_eq!(moves(&p), ["F2>"]);
    assert_eq!(reason(&p, "F5>"), IllegalReason::CaptureRequired);
    let q = play(&p, "F2>");
    assert_eq!(front(&q, Side::South), [1, 1, 1, 2, 6, 0, 0, 0]);
    assert!(q.kuu_stands(Side::South));
    assert_eq!(front(&q, Side::North)[4], 0);
}

/// TC-17 A central capture keeps the direction (K-6.4).
#[test]
fn tc17_central_capture_keeps_direction() {
    let p = pos(&format!(
        "0,0,0,2,0,1,0,0/{Z}/1,0,4,0,0,0,0,0/56,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F4>"]);
    assert_eq!(reason(&p, "F4<"), IllegalReason::CaptureRequired);
    let q = play(&p, "F4>");
    assert_eq!(front(&q, Side::South), [1, 1, 1, 1, 1, 2, 0, 0]);
    assert_eq!(front(&q, Side::North), [1, 0, 0, 0, 0, 0, 0, 0]);
    // What the move captured (`Game::captured_seeds`): f3's 4.
    assert_eq!(p.captured_seeds("F4>".parse().unwrap(), &q), Some(4));
}
