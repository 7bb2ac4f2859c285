//! Helpers shared by the Bao la Kete integration tests.
#![allow(dead_code)]

use mancala_core::bao::{BaoMove, BaoPosition, BaoRules, IllegalReason};
use mancala_core::Side;

/// An empty row.
pub const Z: &str = "0,0,0,0,0,0,0,0";

/// The start position in notation (from `docs/rules/bao-la-kete.md`, TC-01).
pub const START: &str =
    "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -";

/// Parses a position under the Lamu rules.
pub fn pos(s: &str) -> BaoPosition {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Parses a position under `rules`.
pub fn pos_with(rules: &str, s: &str) -> BaoPosition {
    BaoPosition::parse(rules.parse::<BaoRules>().unwrap(), s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The legal moves in notation.
pub fn moves(p: &BaoPosition) -> Vec<String> {
    p.legal_moves().iter().map(ToString::to_string).collect()
}

/// Plays a move given in notation; panics if it is illegal.
pub fn play(p: &BaoPosition, m: &str) -> BaoPosition {
    let mv: BaoMove = m.parse().unwrap();
    p.play(mv).unwrap_or_else(|e| panic!("{m}: {e}"))
}

/// Why a move given in notation is refused; panics if it is legal.
pub fn reason(p: &BaoPosition, m: &str) -> IllegalReason {
    let mv: BaoMove = m.parse().unwrap();
    let e = p.play(mv).expect_err(m);
    assert_eq!(e.position, *p);
    e.reason
}

/// A side's front row F1..F8.
pub fn front(p: &BaoPosition, side: Side) -> [u8; 8] {
    p.layout().front[side.index()]
}

/// A side's back row B1..B8.
pub fn back(p: &BaoPosition, side: Side) -> [u8; 8] {
    p.layout().back[side.index()]
}
