//! One hand-traced test (at least) per rule id of sections 6–10 of
//! `docs/rules/bao-la-kete.md`. Each test names its K-id; the expected boards were traced
//! by hand seed by seed (the traces are in the comments), not copied from the program.
//! Rules also covered by a TC test say so.

mod common;
use common::*;

use mancala_core::bao::{BaoPosition, IllegalReason};
use mancala_core::Side;

/// K-6.1: a lap starts in the pit after the start pit and turns from F8 into B8.
/// F7 (3) clockwise: F8, B8, B7 → B7 was empty, stop. Anticlockwise: F6, F5, F4 → stop.
/// (TC-03 covers wrapping round into the emptied start pit.)
#[test]
fn k6_1_lap_turns_into_the_back_row() {
    let p = pos(&format!(
        "0,1,0,0,0,0,3,0/{Z}/1,0,0,0,0,0,0,0/59,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F7>", "F7<"]);
    let q = play(&p, "F7>");
    assert_eq!(front(&q, Side::South), [0, 1, 0, 0, 0, 0, 0, 1]);
    assert_eq!(back(&q, Side::South), [0, 0, 0, 0, 0, 0, 1, 1]);
    let q = play(&p, "F7<");
    assert_eq!(front(&q, Side::South), [0, 1, 0, 1, 1, 1, 0, 0]);
}

/// K-6.2 relay, K-6.3 (no capture when the facing pit is empty) and K-6.5 (a takata stays a
/// takata): F1 (2) clockwise: F2, F3 → F3 = 2 but f6 is empty, so the move is a takata;
/// relay F3 (2): F4, F5 → F5 = 2 faces f4 = 3, yet nothing is captured; relay F5 (2): F6,
/// F7 → stop.
#[test]
fn k6_2_k6_3_k6_5_relay_without_capture_after_a_takata_first_lap() {
    let p = pos(&format!(
        "2,0,1,0,1,0,0,0/{Z}/1,0,0,3,0,0,0,0/56,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F1>", "F1<"]);
    let q = play(&p, "F1>");
    assert_eq!(front(&q, Side::South), [0, 1, 0, 1, 0, 1, 1, 0]);
    assert_eq!(front(&q, Side::North), [1, 0, 0, 3, 0, 0, 0, 0]);
    // F1 anticlockwise: B1, B2 → stop (the front row keeps F3 and F5).
    let q = play(&p, "F1<");
    assert_eq!(front(&q, Side::South), [0, 0, 1, 0, 1, 0, 0, 0]);
    assert_eq!(back(&q, Side::South), [1, 1, 0, 0, 0, 0, 0, 0]);
}

/// K-6.4 chain captures. F2 (2) clockwise: F3, F4 → F4 = 2 faces f5 = 3: capture 3; F4 is
/// central and the move goes clockwise, so sow from F1: F1, F2, F3 → F3 = 2 faces f6 = 1:
/// capture 1; from F1 again: F1 = 2 faces f8 = 0 → relay F1: F2, F3 → F3 = 3 faces the
/// emptied f6 → relay F3: F4, F5, F6 → F6 was empty, stop.
#[test]
fn k6_4_chain_capture() {
    let p = pos(&format!(
        "0,2,0,1,0,0,0,0/{Z}/1,0,0,0,3,1,0,0/56,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F2>"]);
    let q = play(&p, "F2>");
    assert_eq!(front(&q, Side::South), [0, 2, 0, 3, 1, 1, 0, 0]);
    assert_eq!(front(&q, Side::North), [1, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(q.total_seeds(), 64);
}

/// K-6.6: 15 seeds may still capture. F1 (15) anticlockwise: B1..B8, F8, F7, …, F2 → F2 = 2
/// faces f7 = 1: capture; F2 is in the left kimbi, so sow from F1 clockwise: F1 was emptied
/// → stop. F1 clockwise ends in B1: no capture. (TC-03/TC-04 cover 16 and 17 seeds.)
#[test]
fn k6_6_fifteen_seeds_may_capture() {
    let p = pos(&format!(
        "15,1,0,0,0,0,0,0/{Z}/1,0,0,0,0,0,1,0/46,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F1<"]);
    let q = play(&p, "F1<");
    assert_eq!(front(&q, Side::South), [1, 2, 1, 1, 1, 1, 1, 1]);
    assert_eq!(back(&q, Side::South), [1; 8]);
    assert_eq!(front(&q, Side::North), [1, 0, 0, 0, 0, 0, 0, 0]);
}

/// K-6.7a / K-10.1: a capture in the middle of a mtaji move that empties the opponent's
/// front row wins at once. As the chain of `k6_4`, but North's front row is only f5 = 3 and
/// f6 = 1: the second capture takes North's last front seed; the captured seed is never
/// sown and goes to South's reserve (decision 9). The move keeps its direction: `F2>`.
#[test]
fn k6_7a_win_in_the_middle_of_a_move() {
    let p = pos(&format!(
        "0,2,0,1,0,0,0,0/{Z}/0,0,0,0,3,1,0,0/57,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F2>"]);
    let q = play(&p, "F2>");
    assert_eq!(front(&q, Side::South), [1, 1, 2, 2, 0, 0, 0, 0]);
    assert_eq!(front(&q, Side::North), [0; 8]);
    assert_eq!(q.reserve(Side::South), 1);
    assert_eq!(q.total_seeds(), 64);
    assert_eq!(q.to_move(), Side::North);
    assert_eq!(q.reserved(), None);
    assert_eq!(q.outcome().and_then(|o| o.winner), Some(Side::South));
}

/// K-6.7b / decision 6: a lone kichwa goes towards the centre however many seeds it holds.
/// F1 (20) anticlockwise would sow through the whole ring; it is still refused. (TC-13
/// covers the short case. A lap can only end with the front row empty when it starts from a
/// lone kichwa sown outwards, so this rule is what refuses such moves.)
#[test]
fn k6_7b_lone_kichwa_with_many_seeds() {
    let p = pos(&format!(
        "20,0,0,0,0,0,0,0/{Z}/1,0,0,0,0,0,0,0/43,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F1>"]);
    assert_eq!(reason(&p, "F1<"), IllegalReason::LoneKichwa);
}

/// K-6.8 order: a capturing lap that ends in the mover's own standing kuu whose facing pit
/// is occupied captures (step 2 before step 3). Nemo: F3 (2 + 1) faces f6 = 5; left kichwa:
/// F1, F2, F3, F4, F5 → kuu = 7 faces f4 = 1: capture 1, no stop/safari; F5 is central and
/// the move goes clockwise: F1 = 2 → faces f8 = 0, relay F1: F2, F3 → F3 = 5, faces the
/// emptied f6 → relay F3: F4, F5, F6, F7, F8 → F8 was empty, stop.
#[test]
fn k6_8_capture_comes_before_the_kuu() {
    let p = pos(&format!(
        "0,0,2,0,6,0,0,0/{Z}/1,0,0,1,0,5,0,0/47,0,0,0,0,0,0,0 1,1 S S -"
    ));
    let q = play(&p, "F3L");
    assert_eq!(front(&q, Side::South), [0, 2, 0, 2, 8, 1, 1, 1]);
    assert_eq!(front(&q, Side::North), [1, 0, 0, 0, 0, 0, 0, 0]);
    assert!(q.kuu_stands(Side::South));
    assert_eq!(reason(&p, "F3L."), IllegalReason::KuuChoiceNotOffered);
}

/// K-6.9 and decision 8: mandatory capture counts legal captures only. In TC-17's position
/// the only capture, F4>, needs two laps; with a lap cap of 1 it is a never-ending move, so
/// it is illegal and South plays the takata F4< (F3, F2 → stop) as if no capture existed.
/// F4> is a capturing move by its first lap (K-6.5) and is not offered as a takata.
#[test]
fn k6_9_mandatory_capture_counts_legal_moves_only() {
    let text = format!("0,0,0,2,0,1,0,0/{Z}/1,0,4,0,0,0,0,0/56,0,0,0,0,0,0,0 0,0 - S -");
    assert_eq!(moves(&pos(&text)), ["F4>"]);
    let p = pos_with("bao-la-kete+lap_cap=1", &text);
    assert_eq!(moves(&p), ["F4<"]);
    assert_eq!(reason(&p, "F4>"), IllegalReason::NeverEnding);
    assert_eq!(
        front(&play(&p, "F4<"), Side::South),
        [0, 1, 1, 0, 0, 1, 0, 0]
    );
}

/// K-7.1: a nemo capture may put the seed into the mover's own kuu (I4 V02). F5 = 6 faces
/// f4 = 2. Left: F5 = 7, take 2, F1, F2 → stop. Right: F8, F7 → F7 = 3 faces f2 = 0 → relay
/// F7: F6, F5, F4 → stop. The kuu stands.
#[test]
fn k7_1_capture_into_the_own_kuu() {
    let p = pos(&format!(
        "0,0,0,0,6,2,2,0/{Z}/1,0,0,2,0,0,0,0/7,0,0,0,0,0,0,0 22,22 S S -"
    ));
    assert_eq!(moves(&p), ["F5L", "F5R"]);
    let l = play(&p, "F5L");
    assert_eq!(front(&l, Side::South), [1, 1, 0, 0, 7, 2, 2, 0]);
    assert!(l.kuu_stands(Side::South));
    let r = play(&p, "F5R");
    assert_eq!(front(&r, Side::South), [0, 0, 0, 1, 8, 3, 0, 1]);
    assert_eq!(front(&r, Side::North), [1, 0, 0, 0, 0, 0, 0, 0]);
    assert_eq!(r.reserve(Side::South), 21);
}

/// K-7.6: a lap that passes through the kuu drops a seed there and goes on. F4 (2 + 1)
/// clockwise: F5 (kuu, 7), F6, F7 → stop.
#[test]
fn k7_6_passing_through_the_kuu() {
    let p = pos(&format!(
        "0,0,0,2,6,0,0,0/{Z}/1,0,0,0,0,0,0,0/53,0,0,0,0,0,0,0 1,1 S S -"
    ));
    assert_eq!(moves(&p), ["F4>", "F4<"]);
    assert_eq!(
        front(&play(&p, "F4>"), Side::South),
        [0, 0, 0, 0, 7, 1, 1, 0]
    );
    assert_eq!(
        front(&play(&p, "F4<"), Side::South),
        [1, 1, 1, 0, 6, 0, 0, 0]
    );
}

/// K-8.1: a capture may start in the back row. B1 (3) clockwise: F1, F2, F3 → F3 = 2 faces
/// f6 = 2: capture; central, clockwise → F1, F2 → F2 = 2 faces f7 = 0 → relay F2: F3, F4 →
/// stop.
#[test]
fn k8_1_capture_from_the_back_row() {
    let p = pos("0,0,1,0,0,0,0,0/3,0,0,0,0,0,0,0/1,0,0,0,0,2,0,0/57,0,0,0,0,0,0,0 0,0 - S -");
    assert_eq!(moves(&p), ["B1>"]);
    let q = play(&p, "B1>");
    assert_eq!(front(&q, Side::South), [2, 0, 3, 1, 0, 0, 0, 0]);
    assert_eq!(back(&q, Side::South), [0; 8]);
    assert_eq!(front(&q, Side::North), [1, 0, 0, 0, 0, 0, 0, 0]);
}

/// K-8.2: a mtaji takata starts from a front pit with ≥ 2 seeds; the back row only when no
/// front pit has two; singletons never start a move.
#[test]
fn k8_2_takata_start_pits() {
    // F2 = 2, B4 = 3: only F2 (F3, F4 → stop; F1, B1 → stop).
    let p = pos("0,2,0,0,0,0,0,0/0,0,0,3,0,0,0,0/1,0,0,0,0,0,0,0/58,0,0,0,0,0,0,0 0,0 - S -");
    assert_eq!(moves(&p), ["F2>", "F2<"]);
    assert_eq!(reason(&p, "B4>"), IllegalReason::FrontRowFirst);
    // F2 = 1, F6 = 1, B4 = 3: the back row: B4 clockwise is B3, B2, B1.
    let p = pos("0,1,0,0,0,1,0,0/0,0,0,3,0,0,0,0/1,0,0,0,0,0,0,0/58,0,0,0,0,0,0,0 0,0 - S -");
    assert_eq!(moves(&p), ["B4>", "B4<"]);
    assert_eq!(reason(&p, "F2>"), IllegalReason::TooFewSeeds);
    assert_eq!(
        back(&play(&p, "B4>"), Side::South),
        [1, 1, 1, 0, 0, 0, 0, 0]
    );
    assert_eq!(
        back(&play(&p, "B4<"), Side::South),
        [0, 0, 0, 0, 1, 1, 1, 0]
    );
    assert_eq!(reason(&p, "B4"), IllegalReason::DirectionRequired);
}

/// K-8.3b: a mtaji capturing lap ending in the standing kuu with the facing pit empty goes
/// on safari (forced by default). F2 (2) clockwise: F3, F4 → F4 = 2 faces f5 = 5: capture 5;
/// from F1: F1, F2, F3, F4, F5 → kuu = 7, f4 empty → safari: F6, F7, F8, B8, B7, B6, B5 →
/// stop; the kuu is destroyed. Under `safari=choice` the player may stop instead.
#[test]
fn k8_3b_mtaji_safari() {
    let text = format!("0,2,0,1,6,0,0,0/{Z}/1,0,0,0,5,0,0,0/49,0,0,0,0,0,0,0 0,0 S S -");
    let p = pos(&text);
    assert_eq!(moves(&p), ["F2>"]);
    assert_eq!(reason(&p, "F2>+"), IllegalReason::KuuChoiceNotOffered);
    let q = play(&p, "F2>");
    assert_eq!(front(&q, Side::South), [1, 1, 2, 3, 0, 1, 1, 1]);
    assert_eq!(back(&q, Side::South), [0, 0, 0, 0, 1, 1, 1, 1]);
    assert!(!q.kuu_stands(Side::South));
    let c = pos_with("bao-la-kete+safari=choice", &text);
    assert_eq!(moves(&c), ["F2>.", "F2>+"]);
    assert_eq!(reason(&c, "F2>"), IllegalReason::KuuChoiceRequired);
    let stop = play(&c, "F2>.");
    assert_eq!(front(&stop, Side::South), [1, 1, 2, 3, 7, 0, 0, 0]);
    assert!(stop.kuu_stands(Side::South));
    let safari = play(&c, "F2>+");
    assert_eq!(front(&safari, Side::South), [1, 1, 2, 3, 0, 1, 1, 1]);
}

/// The hizi zetu scenario: South F3 = 2, F6 = 2; North f1 = 2, f4 = 2, b1 = 56; mtaji.
const HIZI: &str = "0,0,2,0,0,2,0,0/0,0,0,0,0,0,0,0/2,0,0,2,0,0,0,0/56,0,0,0,0,0,0,0 0,0 - S -";

/// K-8.4 trigger. South has no capture (F3: F4, F5 or F2, F1 end empty; F6: F7, F8 or F5,
/// F4 likewise) and plays the takata F6< (F5, F4 → stop): F = 0,0,2,1,1,0,0,0. Now North
/// has no capture (f1: f2, f3 or b1, b2; f4: f5, f6 or f3, f2 all end empty), and South's
/// only capture would be F3> (F4, F5 → F5 = 2 faces f4): a single target, f4, which is not
/// North's kuu, not its only occupied front pit and not its only pit with two or more. So
/// f4 is reserved.
#[test]
fn k8_4_hizi_zetu_trigger_and_block() {
    let p = pos(HIZI);
    assert_eq!(moves(&p), ["F3>", "F3<", "F6>", "F6<"]);
    let q = play(&p, "F6<");
    assert_eq!(front(&q, Side::South), [0, 0, 2, 1, 1, 0, 0, 0]);
    assert_eq!(
        q.to_string(),
        format!("0,0,2,1,1,0,0,0/{Z}/2,0,0,2,0,0,0,0/56,0,0,0,0,0,0,0 0,0 - N f4")
    );
    // North may not start from f4 this turn; front pits come before the back row.
    assert_eq!(moves(&q), ["F1>", "F1<"]);
    assert_eq!(reason(&q, "F4>"), IllegalReason::BlockedPit);
    // After North's turn the pit is South's to capture (decision 10); F3> takes it
    // anyway. North F1> : f2, f3 → stop.
    let r = play(&q, "F1>");
    assert_eq!(
        r.reserved().map(|(s, p)| (s, p.to_string())),
        Some((Side::North, "F4".into()))
    );
    assert!(r.to_string().ends_with(" S f4"));
    assert_eq!(moves(&r), ["F3>"]);
    // F3> : F4, F5 → F5 = 2 takes f4 (2); central, clockwise → F1, F2 → stop. Cleared.
    let s = play(&r, "F3>");
    assert_eq!(front(&s, Side::South), [1, 1, 0, 2, 2, 0, 0, 0]);
    assert_eq!(s.reserved(), None);
}

/// K-8.4 exceptions: no block when the target is the opponent's only front pit with more
/// than one seed (North f1 = 1 instead of 2); a singleton target is blocked unless
/// `singleton_exempt=on` (North f4 = 1); no block on the only occupied front pit (f1 = 0).
#[test]
fn k8_4_hizi_zetu_exceptions() {
    let only_two = format!("0,0,2,0,0,2,0,0/{Z}/1,0,0,2,0,0,0,0/57,0,0,0,0,0,0,0 0,0 - S -");
    assert_eq!(play(&pos(&only_two), "F6<").reserved(), None);
    let singleton = format!("0,0,2,0,0,2,0,0/{Z}/2,0,0,1,0,0,0,0/57,0,0,0,0,0,0,0 0,0 - S -");
    let q = play(&pos(&singleton), "F6<");
    assert_eq!(
        q.reserved().map(|(s, p)| (s, p.to_string())),
        Some((Side::North, "F4".into()))
    );
    let q = play(
        &pos_with("bao-la-kete+singleton_exempt=on", &singleton),
        "F6<",
    );
    assert_eq!(q.reserved(), None);
    let lone = format!("0,0,2,0,0,2,0,0/{Z}/0,0,0,2,0,0,0,0/58,0,0,0,0,0,0,0 0,0 - S -");
    assert_eq!(play(&pos(&lone), "F6<").reserved(), None);
}

/// K-8.4 exception: Q's standing kuu is never reserved. South F2 = 2, F6 = 2; North f1 = 2,
/// f5 = 6. South plays F6< (F5, F4 → stop); now South's only capture would be F2> (F3, F4 →
/// F4 = 2 faces f5), and North has none (f1: f2, f3 or b1, b2; f5: six seeds either way end
/// in the back row). With North's kuu standing nothing is reserved; with the same seeds and
/// the kuu destroyed, f5 is reserved.
#[test]
fn k8_4_the_kuu_is_never_reserved() {
    let text = format!("0,2,0,0,0,2,0,0/{Z}/2,0,0,0,6,0,0,0/52,0,0,0,0,0,0,0 0,0 N S -");
    let q = play(&pos(&text), "F6<");
    assert_eq!(front(&q, Side::South), [0, 2, 0, 1, 1, 0, 0, 0]);
    assert_eq!(q.reserved(), None);
    let q = play(&pos(&text.replace(" N S -", " - S -")), "F6<");
    assert_eq!(
        q.reserved().map(|(s, p)| (s, p.to_string())),
        Some((Side::North, "F5".into()))
    );
}

/// K-8.4 effect: a lap that ends in the blocked pit ends the move (the seeds stay); a lap
/// that passes through it sows normally. South to move with its own F4 reserved:
/// F2 (2) clockwise: F3, F4 → F4 = 2 is blocked → stop (without the block: relay F4: F5, F6).
#[test]
fn k8_4_blocked_pit_ends_a_lap() {
    let blocked = format!("0,2,0,1,0,0,0,0/{Z}/1,0,0,0,0,0,0,0/60,0,0,0,0,0,0,0 0,0 - S F4");
    let p = pos(&blocked);
    assert_eq!(moves(&p), ["F2>", "F2<"]);
    assert_eq!(
        front(&play(&p, "F2>"), Side::South),
        [0, 0, 1, 2, 0, 0, 0, 0]
    );
    let free = pos(&blocked.replace(" F4", " -"));
    assert_eq!(
        front(&play(&free, "F2>"), Side::South),
        [0, 0, 1, 0, 1, 1, 0, 0]
    );
    // Passing through: F2 (3) clockwise: F3, F4 (blocked, +1), F5 → stop.
    let p = pos(&format!(
        "0,3,0,1,0,0,0,0/{Z}/1,0,0,0,0,0,0,0/59,0,0,0,0,0,0,0 0,0 - S F4"
    ));
    assert_eq!(
        front(&play(&p, "F2>"), Side::South),
        [0, 0, 1, 2, 1, 0, 0, 0]
    );
}

/// K-8.4 [LAMU] exemption: the first lap of a move started from the blocked player's kuu
/// is not stopped by the block. F5 (13, kuu) clockwise: F6, F7, F8, B8…B1, F1, F2 → F2 = 2
/// (reserved) → relay: F3, F4 → stop. With `kuu_lap_exempt=off` the move ends in F2.
#[test]
fn k8_4_first_lap_from_the_kuu_is_exempt() {
    let text = format!("0,1,0,0,13,0,0,0/{Z}/1,0,0,0,0,0,0,0/49,0,0,0,0,0,0,0 0,0 S S F2");
    let p = pos(&text);
    assert_eq!(moves(&p), ["F5>", "F5<"]);
    let q = play(&p, "F5>");
    assert_eq!(front(&q, Side::South), [1, 0, 1, 1, 0, 1, 1, 1]);
    assert_eq!(back(&q, Side::South), [1; 8]);
    let p = pos_with("bao-la-kete+kuu_lap_exempt=off", &text);
    let q = play(&p, "F5>");
    assert_eq!(front(&q, Side::South), [1, 2, 0, 0, 0, 1, 1, 1]);
}

/// K-8.4 [LAMU] duty: the blocker must capture the reserved pit when a legal capture of it
/// exists, even when other pits are capturable. South: F1> takes f6 (F2, F3 → F3 faces f6);
/// F3> takes the reserved f4 (F4, F5 → F5 faces f4). Only F3> is legal; with
/// `must_capture_reserved=off` both are.
#[test]
fn k8_4_blocker_must_capture_the_reserved_pit() {
    let text = format!("2,0,2,1,1,0,0,0/{Z}/1,0,0,2,0,1,0,0/54,0,0,0,0,0,0,0 0,0 - S f4");
    let p = pos(&text);
    assert_eq!(moves(&p), ["F3>"]);
    assert_eq!(reason(&p, "F1>"), IllegalReason::ReservedPitMustBeCaptured);
    // F3> : F4 = 2, F5 = 2 → take f4 (2) → F1, F2 → F2 was empty, stop.
    assert_eq!(
        front(&play(&p, "F3>"), Side::South),
        [3, 1, 0, 2, 2, 0, 0, 0]
    );
    // With `must_capture_reserved=off` the pit cleared after North's blocked turn.
    let off = pos_with(
        "bao-la-kete+must_capture_reserved=off",
        &text.replace(" S f4", " S -"),
    );
    assert_eq!(moves(&off), ["F1>", "F3>"]);
    // F1> : F2, F3 → F3 = 3 takes f6 (1) → F1 → stop.
    assert_eq!(
        front(&play(&off, "F1>"), Side::South),
        [1, 1, 3, 1, 1, 0, 0, 0]
    );
}

/// K-9: capturing the opponent's kuu destroys it; passing through one's own kuu changes
/// nothing. Nemo: F4 (1 + 1) faces North's kuu f5 = 6. Left: take 6, F1, F2, F3, F4, F5
/// (kuu 7), F6 → F6 = 3 faces f3 = 0 → relay F6: F7, F8, B8 → stop. Right: F8, F7, F6, F5,
/// F4, F3 → stop.
#[test]
fn k9_capturing_the_opponents_kuu_destroys_it() {
    let p = pos(&format!(
        "0,0,0,1,6,2,2,0/{Z}/0,0,0,0,6,2,2,0/{Z} 21,22 SN S -"
    ));
    assert_eq!(moves(&p), ["F4L", "F4R"]);
    let l = play(&p, "F4L");
    assert_eq!(front(&l, Side::South), [1, 1, 1, 3, 7, 0, 3, 1]);
    assert_eq!(back(&l, Side::South), [0, 0, 0, 0, 0, 0, 0, 1]);
    assert!(!l.kuu_stands(Side::North));
    assert!(l.kuu_stands(Side::South));
    assert_eq!(front(&l, Side::North), [0, 0, 0, 0, 0, 2, 2, 0]);
    let r = play(&p, "F4R");
    assert_eq!(front(&r, Side::South), [0, 0, 1, 3, 7, 3, 3, 1]);
    assert!(!r.kuu_stands(Side::North));
}

/// K-10.2 and K-10.3: a side with no legal move loses; there are no draws. (TC-15.)
#[test]
fn k10_2_no_move_loses() {
    let p = pos("0,0,0,0,0,0,0,1/1,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/61,0,0,0,0,0,0,0 0,0 - N -");
    // North to move: f1 = 1, b1 = 61: b1 sows 61 seeds; it has moves, so the game goes on.
    assert!(p.side_to_move().is_some());
    let p = pos("1,0,0,0,0,0,0,1/1,1,0,0,0,0,0,0/1,0,0,0,0,0,0,0/59,0,0,0,0,0,0,0 0,0 - S -");
    assert_eq!(
        p.outcome().map(|o| (o.winner, o.score)),
        Some((Some(Side::North), -1))
    );
}

/// K-10.4 / decision 7: a never-ending move is illegal. South F = 1,2,1,0,1,2,2,1,
/// B = 0,1,2,3,2,1,0,2 (kuus destroyed; North's only front seed faces the empty F4, so no
/// capture): F7 anticlockwise relays for ever (the in-move state after lap 1 recurs at lap
/// 93, found and checked with an independent 20-line simulation). The other takata moves
/// end after 1, 1, 2, 1 and 7 laps. Detection is exact: the move is refused even with the
/// largest lap cap.
#[test]
fn k10_4_never_ending_move() {
    let text = "1,2,1,0,1,2,2,1/0,1,2,3,2,1,0,2/0,0,0,0,1,0,0,0/42,0,0,0,0,0,0,0 0,0 - S -";
    let p = pos(text);
    assert_eq!(moves(&p), ["F2>", "F2<", "F6>", "F6<", "F7>"]);
    assert_eq!(reason(&p, "F7<"), IllegalReason::NeverEnding);
    let p = pos_with("bao-la-kete+lap_cap=4294967295", text);
    assert_eq!(reason(&p, "F7<"), IllegalReason::NeverEnding);
}

/// K-10.4: the lap cap. Both moves of TC-04 end in their 9th lap (F5, F7, B8, B6, B4, B2,
/// F1, F3, F5): finite under a cap of 9, never-ending under a cap of 8 — then South has no
/// legal move and loses.
#[test]
fn k10_4_lap_cap_boundary() {
    let text = format!("0,0,0,17,0,0,0,0/{Z}/0,0,0,1,0,0,0,0/46,0,0,0,0,0,0,0 0,0 - S -");
    assert_eq!(
        moves(&pos_with("bao-la-kete+lap_cap=9", &text)),
        ["F4>", "F4<"]
    );
    let p = pos_with("bao-la-kete+lap_cap=8", &text);
    assert!(p.legal_moves().is_empty());
    assert_eq!(p.outcome().and_then(|o| o.winner), Some(Side::North));
    assert_eq!(reason(&p, "F4>"), IllegalReason::GameOver);
}

/// Position validation (K-4.1, K-9, K-10.1): refused setups.
#[test]
fn invalid_positions_are_refused() {
    for bad in [
        // 63 seeds.
        format!("0,0,0,0,6,2,2,0/{Z}/0,0,0,0,6,2,2,0/{Z} 22,21 SN S -"),
        // A standing kuu with 5 seeds.
        format!("0,0,0,0,5,2,2,1/{Z}/0,0,0,0,6,2,2,0/{Z} 22,22 SN S -"),
        // The side not to move has an empty front row.
        format!("0,0,0,0,6,2,2,0/{Z}/{Z}/0,0,0,0,6,2,2,0 22,22 SN S -"),
        // A count above 64, a missing field, a bad reserved pit.
        format!("0,0,0,0,65,2,2,0/{Z}/0,0,0,0,6,2,2,0/{Z} 22,22 SN S -"),
        format!("0,0,0,0,6,2,2,0/{Z}/0,0,0,0,6,2,2,0/{Z} 22,22 SN S"),
        format!("0,0,0,0,6,2,2,0/{Z}/0,0,0,0,6,2,2,0/{Z} 22,22 SN S B4"),
    ] {
        assert!(bad.parse::<BaoPosition>().is_err(), "{bad}");
    }
}

/// K-8.4 (exceptions) and decision 10: a reserved pit that hizi zetu can never reserve is
/// refused. The owner's standing kuu is never reserved, neither as a block nor as the
/// blocker's duty that follows it (a kuu never stands again). A block is read with the
/// blocked side to move, in the position the trigger saw (the blocker's takata does not
/// touch the blocked side's pits), so the blocked pit is occupied (the blocker can capture
/// it), is not the only occupied front pit, not the only front pit with more than one seed,
/// and not a singleton under `singleton_exempt=on`.
#[test]
fn impossible_reserved_pits_are_refused() {
    let bad = [
        // South's standing kuu blocked: South would have no legal move at all.
        format!("0,2,0,0,6,0,0,0/{Z}/1,0,0,0,0,0,0,0/55,0,0,0,0,0,0,0 0,0 S S F5"),
        // North's standing kuu as South's duty.
        format!("0,2,0,1,0,0,0,0/{Z}/1,0,0,0,6,0,0,0/54,0,0,0,0,0,0,0 0,0 N S f5"),
        // An empty blocked pit.
        format!("0,2,0,0,0,0,1,0/{Z}/1,0,0,0,0,0,0,0/60,0,0,0,0,0,0,0 0,0 - S F4"),
        // The only occupied front pit.
        format!("0,0,0,3,0,0,0,0/{Z}/1,0,0,0,0,0,0,0/60,0,0,0,0,0,0,0 0,0 - S F4"),
        // The only front pit with more than one seed.
        format!("0,1,0,3,0,0,0,0/{Z}/1,0,0,0,0,0,0,0/59,0,0,0,0,0,0,0 0,0 - S F4"),
    ];
    for text in &bad {
        assert!(text.parse::<BaoPosition>().is_err(), "{text}");
    }
    // A singleton is blocked only without the singleton exemption (A7b).
    let singleton = format!("0,2,0,1,0,0,0,0/{Z}/1,0,0,0,0,0,0,0/60,0,0,0,0,0,0,0 0,0 - S F4");
    assert!(singleton.parse::<BaoPosition>().is_ok());
    let rules = "bao-la-kete+singleton_exempt=on".parse().unwrap();
    assert!(BaoPosition::parse(rules, &singleton).is_err());
    // The duty may fall on an emptied pit or one of several (the blocked turn changed it).
    let duty = format!("0,2,0,1,0,0,0,0/{Z}/0,0,0,1,0,0,0,0/60,0,0,0,0,0,0,0 0,0 - S f4");
    assert!(duty.parse::<BaoPosition>().is_ok());
}

/// K-6.4 (review): a kimbi capture reverses the direction and a later capture keeps the new
/// one. Mtaji, F4 (2) anticlockwise: F3, F2 → F2 = 2 faces f7 = 1: take 1; left kimbi → F1
/// clockwise: F1 = 2 faces f8 = 2: take 2; left kimbi → F1, F2 → F2 = 3 faces the emptied
/// f7 → relay F2 (3) clockwise: F3, F4, F5 → F5 was empty, stop. F4 clockwise ends on the
/// empty F6, so F4< is the only move.
#[test]
fn k6_4_kimbi_reversal_then_chain() {
    let p = pos(&format!(
        "1,1,0,2,0,0,0,0/{Z}/1,0,0,0,0,0,1,2/56,0,0,0,0,0,0,0 0,0 - S -"
    ));
    assert_eq!(moves(&p), ["F4<"]);
    let q = play(&p, "F4<");
    assert_eq!(front(&q, Side::South), [3, 0, 2, 1, 1, 0, 0, 0]);
    assert_eq!(front(&q, Side::North), [1, 0, 0, 0, 0, 0, 0, 0]);
}

/// K-6.4 / K-6.8 (review): the kichwa chosen for the first central nemo capture sets the
/// direction that a later central capture keeps. F3 (1 + 1) faces f6 = 4; right kichwa: F8,
/// F7, F6, F5 → kuu = 7 faces f4 = 3: capture (before the kuu rules); F5 is central and the
/// move goes anticlockwise → F8, F7, F6 → F6 = 2 faces f3 = 0 → relay F6: F5 (8), F4 → stop.
/// Left kichwa: F1, F2, F3 (3), F4 → stop. The kuu's own capture F5 goes right: F8, F7, F6
/// → stop; left it ends on F3 = 2 facing f6 = 4, a second capture kept clockwise from F1:
/// F1, F2, F3, F4 → stop; a capture ended the lap in the kuu, so no stop/safari.
#[test]
fn k6_4_nemo_kichwa_direction_is_kept() {
    let p = pos(&format!(
        "0,0,1,0,6,0,0,0/{Z}/1,0,0,3,0,4,0,0/47,0,0,0,0,0,0,0 1,1 S S -"
    ));
    assert_eq!(moves(&p), ["F3L", "F3R", "F5L", "F5R"]);
    assert_eq!(
        front(&play(&p, "F3R"), Side::South),
        [0, 0, 2, 1, 8, 0, 2, 2]
    );
    assert_eq!(
        front(&play(&p, "F3L"), Side::South),
        [1, 1, 3, 1, 6, 0, 0, 0]
    );
    assert_eq!(
        front(&play(&p, "F5R"), Side::South),
        [0, 0, 1, 0, 7, 1, 1, 1]
    );
    assert_eq!(
        front(&play(&p, "F5L"), Side::South),
        [2, 2, 3, 1, 7, 0, 0, 0]
    );
}

/// K-7.1 / K-7.5 (review): a nemo capture into the own kuu whose captured seeds end in the
/// kuu again (its facing pit now emptied) offers stop or safari. F5 (6 + 1) takes f4 = 5;
/// left: F1..F5 → kuu = 8. Stop: the kuu stands. Safari: F6, F7, F8, B8, B7, B6, B5, B4 →
/// stop; the kuu is destroyed. Right: F8, F7, F6, F5, F4 → stop.
#[test]
fn k7_5_capture_into_the_kuu_then_back_to_it() {
    let p = pos(&format!(
        "0,0,0,0,6,0,0,0/{Z}/1,0,0,5,0,0,0,0/50,0,0,0,0,0,0,0 1,1 S S -"
    ));
    assert_eq!(moves(&p), ["F5L.", "F5L+", "F5R"]);
    let stop = play(&p, "F5L.");
    assert_eq!(front(&stop, Side::South), [1, 1, 1, 1, 8, 0, 0, 0]);
    assert!(stop.kuu_stands(Side::South));
    let safari = play(&p, "F5L+");
    assert_eq!(front(&safari, Side::South), [1, 1, 1, 1, 0, 1, 1, 1]);
    assert_eq!(back(&safari, Side::South), [0, 0, 0, 1, 1, 1, 1, 1]);
    assert!(!safari.kuu_stands(Side::South));
    assert_eq!(
        front(&play(&p, "F5R"), Side::South),
        [0, 0, 0, 1, 8, 1, 1, 1]
    );
}

/// K-8.3a / K-6.6 (review): with setup 32,0,0,0 the game starts in the mtaji stage and the
/// first takata lifts the whole kuu (32 ≥ 16: no capture). F5> : two rounds, every pit 2,
/// the last seed in F5 (2, no longer a kuu) → relay F5: F6, F7 (3) → F7: F8, B8, B7 (3) →
/// B7: B6, B5, B4 (3) → B4: B3, B2, B1 (3) → B1: F1, F2, F3 (3) → F3: F4, F5 (1), F6 (4) →
/// F6: F7 (1), F8 (4), B8 (4), B7 (1) → stop.
#[test]
fn k8_3a_thirty_two_seed_kuu() {
    let rules = "bao-la-kete+setup=32,0,0,0".parse().unwrap();
    let p = BaoPosition::start(rules);
    assert_eq!(moves(&p), ["F5>", "F5<"]);
    let q = p.play("F5>".parse().unwrap()).unwrap();
    assert_eq!(front(&q, Side::South), [3, 3, 0, 3, 1, 0, 1, 4]);
    assert_eq!(back(&q, Side::South), [0, 3, 3, 0, 3, 3, 1, 4]);
    assert!(!q.kuu_stands(Side::South));
}

/// K-8.4 and decision 10 (review): a reserved pit exists only after a mtaji takata of the
/// blocker, whose reserve is therefore empty (and stays so until the pit clears), and the
/// blocker's duty exists only with `must_capture_reserved=on` (otherwise the pit clears
/// after the blocked turn).
#[test]
fn reserved_pits_need_a_mtaji_blocker_and_the_duty_option() {
    // North blocked South's F4 but still has a seed in reserve.
    let block = format!("0,2,0,1,0,0,0,0/{Z}/1,0,0,0,0,0,0,0/59,0,0,0,0,0,0,0 0,1 - S F4");
    assert!(block.parse::<BaoPosition>().is_err());
    assert!(block
        .replace("59,", "60,")
        .replace(" 0,1 ", " 0,0 ")
        .parse::<BaoPosition>()
        .is_ok());
    // South's duty on North's f4 while South still has a seed in reserve.
    let duty = format!("0,2,0,1,0,0,0,0/{Z}/0,0,0,1,0,0,0,0/59,0,0,0,0,0,0,0 1,0 - S f4");
    assert!(duty.parse::<BaoPosition>().is_err());
    // A duty under must_capture_reserved=off.
    let duty = format!("0,2,0,1,0,0,0,0/{Z}/0,0,0,1,0,0,0,0/60,0,0,0,0,0,0,0 0,0 - S f4");
    assert!(duty.parse::<BaoPosition>().is_ok());
    let off = "bao-la-kete+must_capture_reserved=off".parse().unwrap();
    assert!(BaoPosition::parse(off, &duty).is_err());
}
