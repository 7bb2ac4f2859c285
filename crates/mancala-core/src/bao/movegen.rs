//! Legal moves (K-6.9, K-7.1–K-7.4, K-8.1–K-8.4, decision 8) and the rule-by-rule check of
//! one move with the reason it is illegal.
//!
//! Generation order (docs/rules/bao-la-kete.md §14):
//! 1. the capturing candidates (nemo: K-7.1; mtaji: 2..=15 seeds and a capturing first lap,
//!    K-8.1, K-6.6), each played out; the illegal ones (K-6.7b, K-10.4) are dropped; with the
//!    blocker's duty (K-8.4) only those that capture the reserved pit first are kept, if any;
//! 2. if no legal capture is left, the takata candidates (nemo: K-7.2–K-7.4; mtaji: K-8.2,
//!    K-8.3a), played out, illegal ones dropped. A candidate whose first lap captures is a
//!    capturing move (K-6.5) and is never offered as a takata, even when it is illegal.

use super::capture::{facing, is_central, Board};
use super::error::IllegalReason;
use super::moves::{BaoMove, Direction, Kichwa, KuuChoice, Pit};
use super::relay::{execute, Abort, Env, Finish, Start};
use super::rules::{BaoRules, SafariRule};
use super::sow::{clear, front_empty, get, FRONT, KUU};
use crate::game::MoveList;

/// The side to move's view for move generation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    /// The board from the mover's side.
    pub board: Board,
    /// The mover is in the nemo stage (reserve > 0, K-5.1).
    pub nemo: bool,
    /// The mover's pit blocked by hizi zetu this turn (K-8.4).
    pub blocked: Option<usize>,
    /// The opponent's reserved pit the mover must capture if it can (K-8.4, decision 10).
    pub duty: Option<usize>,
    /// The rules.
    pub rules: BaoRules,
}

impl Turn {
    fn env(&self) -> Env {
        Env {
            capturing: false,
            nemo: self.nemo,
            blocked: self.blocked,
            mtaji_safari_choice: self.rules.mtaji_safari() == SafariRule::Choice,
            kuu_lap_exempt: self.rules.kuu_lap_exempt(),
            lap_cap: self.rules.lap_cap(),
        }
    }

    fn own(&self, i: usize) -> u8 {
        get(self.board.own, i)
    }

    fn opp(&self, i: usize) -> u8 {
        get(self.board.opp, i)
    }
}

/// Bits above bit 0 in every front lane: a front pit holds ≥ 2 iff one of them is set.
const FRONT_TWO_PLUS: u128 = FRONT & !super::sow::ONES;

fn front_has_two(own: u128) -> bool {
    own & FRONT_TWO_PLUS != 0
}

/// K-6.7b: a kichwa that is the only occupied front pit is sown towards the centre.
fn lone_kichwa_ok(own: u128, pit: usize, dir: Direction) -> bool {
    let front = own & FRONT;
    match pit {
        0 => front != 0xFF & front || dir == Direction::Clockwise,
        7 => front != (0xFFu128 << 56) & front || dir == Direction::Anticlockwise,
        _ => true,
    }
}

/// K-8.1 / K-6.6: whether the first lap of a mtaji move from `pit` in `dir` captures: 2..=15
/// seeds, last seed in an occupied own front pit facing an occupied pit.
pub(crate) fn first_lap_captures(t: &Turn, pit: usize, dir: Direction) -> bool {
    let n = t.own(pit) as usize;
    if !(2..=15).contains(&n) {
        return false;
    }
    let e = match dir {
        Direction::Clockwise => (pit + n) & 15,
        Direction::Anticlockwise => (pit + 16 - n) & 15,
    };
    e < 8 && t.own(e) >= 1 && t.opp(facing(e)) >= 1
}

/// Plays `start` out for every stop/safari variant it needs and calls `f` on each legal fully
/// decided move; returns `true` as soon as `f` does.
fn variants(
    t: &Turn,
    start: Start,
    base: BaoMove,
    f: &mut impl FnMut(BaoMove, &Finish) -> bool,
) -> bool {
    match execute(t.board, start, None, t.env()) {
        Ok(fin) => f(base, &fin),
        Err(Abort::KuuChoiceNeeded) => {
            for c in [KuuChoice::Stop, KuuChoice::Safari] {
                if let Ok(fin) = execute(t.board, start, Some(c), t.env()) {
                    if f(base.with_kuu(c), &fin) {
                        return true;
                    }
                }
            }
            false
        }
        Err(_) => false,
    }
}

/// Every legal capturing move (before the duty filter), in generation order.
pub(crate) fn captures(t: &Turn, f: &mut impl FnMut(BaoMove, &Finish) -> bool) -> bool {
    if t.nemo {
        for pit in 0..8 {
            if Some(pit) == t.blocked || t.own(pit) == 0 || t.opp(facing(pit)) == 0 {
                continue;
            }
            let p = Pit::ALL[pit];
            let win = front_empty(clear(t.board.opp, facing(pit)));
            if !win && is_central(pit) {
                for k in [Kichwa::Left, Kichwa::Right] {
                    let start = Start::NemoCapture { pit, kichwa: k };
                    if variants(t, start, BaoMove::place(p).with_kichwa(k), f) {
                        return true;
                    }
                }
            } else {
                let start = Start::NemoCapture {
                    pit,
                    kichwa: Kichwa::Left,
                };
                if variants(t, start, BaoMove::place(p), f) {
                    return true;
                }
            }
        }
    } else {
        for p in Pit::ALL {
            let pit = p.index();
            if Some(pit) == t.blocked {
                continue;
            }
            for dir in Direction::ALL {
                if first_lap_captures(t, pit, dir) && lone_kichwa_ok(t.board.own, pit, dir) {
                    let start = Start::Mtaji {
                        pit,
                        dir,
                        capturing: true,
                    };
                    if variants(t, start, BaoMove::sow(p, dir), f) {
                        return true;
                    }
                }
            }
        }
    }
    false
}

/// K-7.2: whether a nemo takata may put its seed into `pit`.
fn nemo_takata_pit(t: &Turn, pit: usize) -> Result<(), IllegalReason> {
    if pit >= 8 {
        return Err(IllegalReason::NemoBackRow);
    }
    if t.own(pit) == 0 {
        return Err(IllegalReason::NemoEmptyPit);
    }
    if t.board.own_kuu {
        if pit == KUU && clear(t.board.own, KUU) & FRONT != 0 {
            return Err(IllegalReason::NemoKuuNotAlone);
        }
    } else if t.own(pit) == 1 && front_has_two(t.board.own) {
        return Err(IllegalReason::NemoSingleton);
    }
    Ok(())
}

/// K-8.2 / K-8.3a: whether a mtaji takata may start from `pit`. With
/// `first_mtaji_takata_from_kuu=off` a standing kuu is an ordinary front pit here (it holds
/// ≥ 6, so the back row is never allowed while it stands).
fn mtaji_takata_pit(t: &Turn, pit: usize) -> Result<(), IllegalReason> {
    if t.own(pit) < 2 {
        return Err(IllegalReason::TooFewSeeds);
    }
    if t.board.own_kuu && pit != KUU && t.rules.first_mtaji_takata_from_kuu() {
        return Err(IllegalReason::KuuFirst);
    }
    if pit >= 8 && front_has_two(t.board.own) {
        return Err(IllegalReason::FrontRowFirst);
    }
    Ok(())
}

/// Every legal takata move, in generation order (valid only when no legal capture exists).
fn takatas(t: &Turn, f: &mut impl FnMut(BaoMove, &Finish) -> bool) -> bool {
    for p in Pit::ALL {
        let pit = p.index();
        if Some(pit) == t.blocked {
            continue;
        }
        if t.nemo {
            if pit >= 8 || t.own(pit) == 0 || t.opp(facing(pit)) > 0 {
                continue;
            }
            if nemo_takata_pit(t, pit).is_err() {
                continue;
            }
        } else if mtaji_takata_pit(t, pit).is_err() {
            continue;
        }
        for dir in Direction::ALL {
            if !lone_kichwa_ok(t.board.own, pit, dir) {
                continue;
            }
            let start = if t.nemo {
                Start::NemoTakata { pit, dir }
            } else {
                if first_lap_captures(t, pit, dir) {
                    continue;
                }
                Start::Mtaji {
                    pit,
                    dir,
                    capturing: false,
                }
            };
            if variants(t, start, BaoMove::sow(p, dir), f) {
                return true;
            }
        }
    }
    false
}

/// Whether the mover has a legal capturing move (decision 8).
pub(crate) fn has_legal_capture(t: &Turn) -> bool {
    captures(t, &mut |_, _| true)
}

/// Whether the mover has a legal capturing move whose first capture takes the opponent's
/// front pit `h` (ring index).
fn has_legal_capture_of(t: &Turn, h: usize) -> bool {
    captures(t, &mut |_, fin| fin.first_target == Some(h))
}

/// The opponent's front pits (bit = ring index) that the mover's legal capturing moves take
/// first; stops early once two are found.
pub(crate) fn capture_targets(t: &Turn) -> u8 {
    let mut mask = 0u8;
    captures(t, &mut |_, fin| {
        if let Some(h) = fin.first_target {
            mask |= 1 << h;
        }
        mask.count_ones() >= 2
    });
    mask
}

/// Whether the mover has any legal move (K-10.2).
pub(crate) fn has_legal_move(t: &Turn) -> bool {
    captures(t, &mut |_, _| true) || takatas(t, &mut |_, _| true)
}

/// Every legal move once, fully decided.
pub(crate) fn legal_moves(t: &Turn) -> MoveList<BaoMove> {
    let mut caps: MoveList<(BaoMove, Option<usize>)> = MoveList::new();
    captures(t, &mut |mv, fin| {
        caps.push((mv, fin.first_target));
        false
    });
    if !caps.is_empty() {
        let h = t.duty.filter(|&h| caps.iter().any(|c| c.1 == Some(h)));
        return caps
            .iter()
            .filter(|c| h.is_none() || c.1 == h)
            .map(|c| c.0)
            .collect();
    }
    let mut out = MoveList::new();
    takatas(t, &mut |mv, _| {
        out.push(mv);
        false
    });
    out
}

/// Whether a legal `mv` is a mtaji takata (after which hizi zetu may trigger, K-8.4).
pub(crate) fn is_mtaji_takata(t: &Turn, mv: BaoMove) -> bool {
    match (t.nemo, mv.direction) {
        (false, Some(dir)) => !first_lap_captures(t, mv.pit.index(), dir),
        _ => false,
    }
}

fn run(t: &Turn, start: Start, kuu: Option<KuuChoice>) -> Result<Finish, IllegalReason> {
    let fin = execute(t.board, start, kuu, t.env()).map_err(|a| match a {
        Abort::EmptiesFront => IllegalReason::EmptiesFrontRow,
        Abort::NeverEnding => IllegalReason::NeverEnding,
        Abort::KuuChoiceNeeded => IllegalReason::KuuChoiceRequired,
    })?;
    if kuu.is_some() && !fin.kuu_choice_used {
        return Err(IllegalReason::KuuChoiceNotOffered);
    }
    Ok(fin)
}

fn duty(t: &Turn, fin: &Finish) -> Result<(), IllegalReason> {
    match t.duty {
        Some(h) if fin.first_target != Some(h) && has_legal_capture_of(t, h) => {
            Err(IllegalReason::ReservedPitMustBeCaptured)
        }
        _ => Ok(()),
    }
}

/// Checks `mv` rule by rule and plays it out; the first broken rule is the error.
/// `check(t, mv).is_ok()` exactly when `mv` is in `legal_moves(t)` (tested exhaustively).
pub(crate) fn check(t: &Turn, mv: BaoMove) -> Result<Finish, IllegalReason> {
    let p = mv.pit.index();
    if Some(p) == t.blocked {
        return Err(IllegalReason::BlockedPit);
    }
    if t.nemo {
        if p >= 8 {
            return Err(IllegalReason::NemoBackRow);
        }
        if t.own(p) == 0 {
            return Err(IllegalReason::NemoEmptyPit);
        }
        if t.opp(facing(p)) > 0 {
            // K-7.1: a capture.
            if mv.direction.is_some() {
                return Err(IllegalReason::DirectionNotOffered);
            }
            let win = front_empty(clear(t.board.opp, facing(p)));
            let kichwa = if !win && is_central(p) {
                mv.kichwa.ok_or(IllegalReason::KichwaRequired)?
            } else if mv.kichwa.is_some() {
                return Err(IllegalReason::KichwaNotOffered);
            } else {
                Kichwa::Left
            };
            let fin = run(t, Start::NemoCapture { pit: p, kichwa }, mv.kuu)?;
            duty(t, &fin)?;
            return Ok(fin);
        }
        if has_legal_capture(t) {
            return Err(IllegalReason::CaptureRequired);
        }
        let dir = mv.direction.ok_or(IllegalReason::DirectionRequired)?;
        if mv.kichwa.is_some() {
            return Err(IllegalReason::KichwaNotOffered);
        }
        if mv.kuu.is_some() {
            return Err(IllegalReason::KuuChoiceNotOffered);
        }
        nemo_takata_pit(t, p)?;
        if !lone_kichwa_ok(t.board.own, p, dir) {
            return Err(IllegalReason::LoneKichwa);
        }
        return run(t, Start::NemoTakata { pit: p, dir }, None);
    }
    let dir = mv.direction.ok_or(IllegalReason::DirectionRequired)?;
    if t.own(p) < 2 {
        return Err(IllegalReason::TooFewSeeds);
    }
    if mv.kichwa.is_some() {
        return Err(IllegalReason::KichwaNotOffered);
    }
    if !lone_kichwa_ok(t.board.own, p, dir) {
        return Err(IllegalReason::LoneKichwa);
    }
    if first_lap_captures(t, p, dir) {
        let start = Start::Mtaji {
            pit: p,
            dir,
            capturing: true,
        };
        let fin = run(t, start, mv.kuu)?;
        duty(t, &fin)?;
        return Ok(fin);
    }
    if has_legal_capture(t) {
        return Err(IllegalReason::CaptureRequired);
    }
    if mv.kuu.is_some() {
        return Err(IllegalReason::KuuChoiceNotOffered);
    }
    mtaji_takata_pit(t, p)?;
    run(
        t,
        Start::Mtaji {
            pit: p,
            dir,
            capturing: false,
        },
        None,
    )
}
