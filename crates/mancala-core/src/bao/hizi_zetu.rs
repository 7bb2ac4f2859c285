//! Hizi zetu (takasia), K-8.4 with the Lamu points of decision 5: after a mtaji takata of P,
//! which pit of the opponent Q (if any) is reserved.
//!
//! Trigger, in the position after P's move (Q to move):
//! * Q has no legal capturing move (decision 8: legal captures only); and
//! * P's legal capturing moves, as if it were P's turn (no block, no duty), all take their
//!   first capture from one and the same front pit `h` of Q (distinct target pits counted).
//!
//! `h` is not reserved when it is Q's standing kuu, Q's only occupied front pit, Q's only
//! front pit holding more than one seed, or (option `singleton_exempt`, A7b) a singleton.
//!
//! Reading taken: the trigger is evaluated on the position after the move with neither side
//! blocked or bound by a duty (the old reserved pit has run its course once P has moved; with
//! a longer block, `block_duration` > 1, a new block replaces the running one, A8).
//! [`exempt`] is also read again on a later blocked turn of a longer block (see
//! `BaoRules::block_duration`).

use super::movegen::{capture_targets, has_legal_capture};
use super::position::BaoPosition;
use super::sow::{clear, get, FRONT, KUU};

/// The front pit (ring index 0..=7) of the side to move in `next` that P's takata reserves,
/// or `None`. `next` is the position after P's mtaji takata, Q to move, no reserved pit.
pub(crate) fn trigger(next: &BaoPosition) -> Option<usize> {
    let q = next.to_move();
    let p = q.opponent();
    let tq = next.turn_for(q, true);
    if has_legal_capture(&tq) {
        return None;
    }
    let tp = next.turn_for(p, true);
    let targets = capture_targets(&tp);
    if targets.count_ones() != 1 {
        return None;
    }
    let h = targets.trailing_zeros() as usize;
    if exempt(
        tq.board.own,
        h,
        tq.board.own_kuu,
        next.rules().singleton_exempt(),
    ) {
        None
    } else {
        Some(h)
    }
}

/// Whether Q's front pit `h` (ring index 0..=7) cannot be reserved, given Q's pits `qpits`
/// and whether Q's kuu stands (K-8.4 exceptions): an empty pit (nothing to capture), Q's
/// standing kuu, Q's only occupied front pit, Q's only front pit holding more than one seed,
/// or (option `singleton_exempt`, A7b) a singleton. Also used to validate positions.
pub(crate) fn exempt(qpits: u128, h: usize, kuu_stands: bool, singleton_exempt: bool) -> bool {
    let count = get(qpits, h);
    count == 0
        || (h == KUU && kuu_stands)
        || clear(qpits & FRONT, h) == 0
        || (count > 1 && (0..8).all(|i| i == h || get(qpits, i) <= 1))
        || (singleton_exempt && count == 1)
}
