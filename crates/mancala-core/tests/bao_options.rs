//! Hand-traced tests of the rules options `first_mtaji_takata_from_kuu` (K-8.3a, D5,
//! decision 3) and `block_duration` (K-8.4, A8): for each, a position where the option changes
//! the legal moves or the result, traced seed by seed from the rules text (traces in the
//! comments), and the notation of the option and of positions with a longer block.

mod common;
use common::*;

use mancala_core::bao::{BaoPosition, BaoRules, IllegalReason, PositionError};
use mancala_core::Side;

/// TC-11's position (mtaji stage, South to move): South `F=[0,3,0,0,6,0,0,0]`, kuu standing;
/// North `f1=1` (faces F8), `b1=54`, kuu destroyed. No capture exists: F2 (3) CW ends on F5,
/// facing f4 = 0; F2 ACW and F5 either way end in the back row.
const TC11: &str = "0,3,0,0,6,0,0,0/0,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0/54,0,0,0,0,0,0,0 0,0 S S -";

/// K-8.3a on (Lamu): only the kuu may start the takata (TC-11). Off (the Zanzibar column of
/// TC-11, S2): F2 and F5, each in both directions, are legal.
/// * F2 CW: F3, F4, F5 → the last seed falls in the standing kuu (6 → 7); a takata lap that
///   ends in the kuu ends the move (K-7.5 reading, K-6.8 step 3): `F=[0,0,1,1,7,0,0,0]`, the
///   kuu still stands.
/// * F2 ACW: F1, B1, B2 → B2 was empty, stop: `F=[1,0,0,0,6,0,0,0]`, `B1=B2=1`.
/// * F5 CW as in TC-11: F6, F7, F8, B8, B7, B6 → stop, the kuu is destroyed.
#[test]
fn k8_3a_first_mtaji_takata_from_kuu_off_frees_the_other_pits() {
    let lamu = pos(TC11);
    assert_eq!(moves(&lamu), ["F5>", "F5<"]);
    assert_eq!(reason(&lamu, "F2>"), IllegalReason::KuuFirst);

    let off = pos_with("bao-la-kete+first_mtaji_takata_from_kuu=off", TC11);
    assert_eq!(moves(&off), ["F2>", "F2<", "F5>", "F5<"]);
    let q = play(&off, "F2>");
    assert_eq!(front(&q, Side::South), [0, 0, 1, 1, 7, 0, 0, 0]);
    assert_eq!(back(&q, Side::South), [0; 8]);
    assert!(q.kuu_stands(Side::South));
    assert_eq!(q.to_move(), Side::North);
    let q = play(&off, "F2<");
    assert_eq!(front(&q, Side::South), [1, 0, 0, 0, 6, 0, 0, 0]);
    assert_eq!(back(&q, Side::South), [1, 1, 0, 0, 0, 0, 0, 0]);
    assert!(q.kuu_stands(Side::South));
    let q = play(&off, "F5>");
    assert_eq!(front(&q, Side::South), [0, 3, 0, 0, 0, 1, 1, 1]);
    assert_eq!(back(&q, Side::South), [0, 0, 0, 0, 0, 1, 1, 1]);
    assert!(!q.kuu_stands(Side::South));
}

/// The option does not touch mandatory capture (K-6.9): TC-16 (F2 CW captures f5) has the
/// single legal move F2> either way.
#[test]
fn k8_3a_off_keeps_mandatory_capture() {
    let tc16 = "0,2,0,1,6,0,0,0/0,0,0,0,0,0,0,0/1,0,0,0,2,0,0,0/52,0,0,0,0,0,0,0 0,0 S S -";
    assert_eq!(moves(&pos(tc16)), ["F2>"]);
    let off = pos_with("bao-la-kete+first_mtaji_takata_from_kuu=off", tc16);
    assert_eq!(moves(&off), ["F2>"]);
}

/// The hizi zetu scenario of `bao_rules.rs`: South F3 = 2, F6 = 2; North f1 = 2, f4 = 2,
/// b1 = 56; mtaji, South to move.
const HIZI: &str = "0,0,2,0,0,2,0,0/0,0,0,0,0,0,0,0/2,0,0,2,0,0,0,0/56,0,0,0,0,0,0,0 0,0 - S -";

/// K-8.4 with `block_duration=2`. South's takata F6< (F5, F4 → stop) reserves North's f4 as
/// with the default (trace in `bao_rules.rs`, k8_4_hizi_zetu_trigger_and_block); now one more
/// of North's turns is blocked after this one: `f4:1`. North F1> (f2, f3 → stop). South's
/// turn: the pit is still reserved (`f4:1`) and South must capture it: only F3> (F4, F5 → F5
/// faces f4). F3>: F4 = 2, F5 = 2 → take f4 (2), central CW → F1, F2 → stop. f4 is empty: the
/// reservation has served and ends, although a blocked turn was still to come.
#[test]
fn k8_4_longer_block_ends_when_the_pit_is_captured() {
    let rules = "bao-la-kete+block_duration=2";
    let p = pos_with(rules, HIZI);
    let q = play(&p, "F6<");
    assert_eq!(
        q.to_string(),
        format!("0,0,2,1,1,0,0,0/{Z}/2,0,0,2,0,0,0,0/56,0,0,0,0,0,0,0 0,0 - N f4:1")
    );
    assert_eq!(q.block_turns_left(), 1);
    assert_eq!(moves(&q), ["F1>", "F1<"]);
    assert_eq!(reason(&q, "F4>"), IllegalReason::BlockedPit);
    let r = play(&q, "F1>");
    assert!(r.to_string().ends_with(" S f4:1"), "{r}");
    assert_eq!(moves(&r), ["F3>"]);
    let s = play(&r, "F3>");
    assert_eq!(front(&s, Side::South), [1, 1, 0, 2, 2, 0, 0, 0]);
    assert_eq!(s.reserved(), None);
    assert_eq!(s.block_turns_left(), 0);
}

/// South to move, North's f4 reserved with one more blocked turn of North to come:
/// South `F=[2,0,2,1,1,0,0,0]`; North `f=[2,0,0,2,0,1,0,0]`, `b1=53`; mtaji.
const SECOND: &str =
    "2,0,2,1,1,0,0,0/0,0,0,0,0,0,0,0/2,0,0,2,0,1,0,0/53,0,0,0,0,0,0,0 0,0 - S f4:1";

/// K-8.4, A8 and A7c: under `block_duration=2` the block lasts two of North's turns.
/// South's captures: F1> (F2, F3 → F3 = 3 faces f6 = 1) and F3> (F4, F5 → F5 = 2 faces the
/// reserved f4 = 2); F1<, F3< end on empty pits, F4 and F5 are singletons.
/// * With the duty (default), only F3> is legal (the pit is reserved on each of South's turns
///   while the block runs).
/// * With `must_capture_reserved=off`, both are. F1>: take f6 (1), F3 central, CW → F1 (was
///   emptied, now 1) → stop: South `F=[1,1,3,1,1,0,0,0]`. f4 still holds 2, so North's next
///   turn is blocked again (`f4`, none to come after it). North: f1 (2) CW: f2, f3 → stop;
///   ACW: b1, b2 → stop; b1 (53) is in the back row and f1 has 2, so the back row is not
///   allowed (K-8.2); f4 is blocked. North's moves: F1>, F1<. Under `block_duration=1` the
///   reservation would have cleared after North's first blocked turn and f4 would be free:
///   F4> (f5, f6 → f6 was emptied by South's capture → stop) and F4< (f3, f2 → stop) too.
/// * After North's second blocked turn, without the duty, the reservation ends.
#[test]
fn k8_4_longer_block_holds_on_the_second_turn() {
    let duty = pos_with("bao-la-kete+block_duration=2", SECOND);
    assert_eq!(moves(&duty), ["F3>"]);
    assert_eq!(
        reason(&duty, "F1>"),
        IllegalReason::ReservedPitMustBeCaptured
    );

    let free = pos_with(
        "bao-la-kete+block_duration=2+must_capture_reserved=off",
        SECOND,
    );
    assert_eq!(moves(&free), ["F1>", "F3>"]);
    let q = play(&free, "F1>");
    assert_eq!(
        q.to_string(),
        format!("1,1,3,1,1,0,0,0/{Z}/2,0,0,2,0,0,0,0/53,0,0,0,0,0,0,0 0,0 - N f4")
    );
    assert_eq!(moves(&q), ["F1>", "F1<"]);
    assert_eq!(reason(&q, "F4>"), IllegalReason::BlockedPit);
    let r = play(&q, "F1>");
    assert_eq!(r.reserved(), None);

    // The same board under the default one-turn block: the reservation is gone.
    let one = pos_with(
        "bao-la-kete+must_capture_reserved=off",
        &format!("1,1,3,1,1,0,0,0/{Z}/2,0,0,2,0,0,0,0/53,0,0,0,0,0,0,0 0,0 - N -"),
    );
    assert_eq!(moves(&one), ["F1>", "F1<", "F4>", "F4<"]);
}

/// A8 reading: on a later blocked turn the K-8.4 exceptions are read again. North's f4 is
/// reserved for one more turn (`f4`, second turn of a two-turn block), but f1 holds only 1:
/// f4 is now North's only front pit with more than one seed, so it is not blocked this turn.
/// North has no capture (f4 CW ends on f6, ACW on f2, both empty before the drop; b1 holds
/// 54 ≥ 16, K-6.6), so takata from the front row (K-8.2): f4 (2) CW f5, f6 → stop; ACW f3,
/// f2 → stop. On the first blocked turn the same reservation is impossible (K-8.4 exception).
#[test]
fn k8_4_exceptions_are_read_again_on_a_later_blocked_turn() {
    let text = format!("1,1,3,1,1,0,0,0/{Z}/1,0,0,2,0,0,0,0/54,0,0,0,0,0,0,0 0,0 - N f4");
    let p = pos_with("bao-la-kete+block_duration=2", &text);
    assert_eq!(moves(&p), ["F4>", "F4<"]);
    assert_eq!(
        BaoPosition::parse(
            "bao-la-kete+block_duration=2".parse().unwrap(),
            &text.replace(" f4", " f4:1")
        ),
        Err(PositionError::ImpossibleReservedPit {
            owner: Side::North,
            pit: 4
        })
    );
}

/// Notation: `:n` after the reserved pit round-trips under a long enough block, is refused
/// where the rules do not allow it, and `:0` is never written nor read. The default
/// notation is unchanged.
#[test]
fn longer_block_notation_round_trips() {
    let two: BaoRules = "bao-la-kete+block_duration=2".parse().unwrap();
    let text = format!("0,0,2,1,1,0,0,0/{Z}/2,0,0,2,0,0,0,0/56,0,0,0,0,0,0,0 0,0 - N f4:1");
    let p = BaoPosition::parse(two, &text).unwrap();
    assert_eq!(p.to_string(), text);
    assert_eq!(p.layout().block_turns_left, 1);
    assert_eq!(BaoPosition::new(two, &p.layout()), Ok(p));
    assert_eq!(
        BaoPosition::parse(BaoRules::LAMU, &text),
        Err(PositionError::BlockTurnsLeft(1))
    );
    for bad in [" f4:0", " f4:8", " f4:", " f4:x", " -:1"] {
        assert!(
            matches!(
                BaoPosition::parse(two, &text.replace(" f4:1", bad)),
                Err(PositionError::Syntax(_))
            ),
            "{bad}"
        );
    }
    let plain = text.replace(" f4:1", " f4");
    assert_eq!(pos(&plain).to_string(), plain);
    assert_eq!(BaoPosition::parse(two, &plain).unwrap().to_string(), plain);
}

/// The game's and the options' names are case-insensitive, as in the Kalah notation; the
/// values keep the spelling of the option table (`first=S`).
#[test]
fn rule_set_names_are_case_insensitive() {
    let lower: BaoRules = "bao-la-kete+block_duration=2+first=N".parse().unwrap();
    let upper: BaoRules = "BAO-LA-KETE+Block_Duration=2+FIRST=N".parse().unwrap();
    assert_eq!(upper, lower);
    assert_eq!(upper.to_string(), lower.to_string());
    assert!("bao-la-kete+first=N+FIRST=S".parse::<BaoRules>().is_err());
}

/// The message of an unknown option lists every option of the notation (module docs of
/// `bao::rules`, `docs/notation.md`), in printing order; a malformed head names the game.
#[test]
fn messages_name_every_option() {
    let e = "bao-la-kete+colour=red".parse::<BaoRules>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "unknown rule option `colour` (known: first, setup, safari, lap_cap, kuu_lap_exempt, \
         singleton_exempt, must_capture_reserved, first_mtaji_takata_from_kuu, block_duration)"
    );
    let e = "bao".parse::<BaoRules>().unwrap_err();
    assert_eq!(
        e.to_string(),
        "malformed rule set `bao`: expected `bao-la-kete[+name=value…]`"
    );
    let e = "bao-la-kete+LAP_CAP=5+lap_cap=6"
        .parse::<BaoRules>()
        .unwrap_err();
    assert_eq!(e.to_string(), "rule option `lap_cap` given twice");
}
