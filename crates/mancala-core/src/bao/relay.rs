//! The course of one move once the player's choices are made: the first lap, relay sowing
//! (K-6.2), the checks at every lap end in the order of K-6.8, captures (K-6.4), the kuu
//! (K-7.5, K-8.3), the hizi zetu stop (K-8.4), the front-row rule (K-6.7) and never-ending
//! moves (K-10.4, decision 7).
//!
//! Lap counting (K-10.4: every sowing is a lap): in the mtaji stage the first lap is the
//! sowing of the start pit. In the nemo stage the first lap is the single seed entered from
//! the reserve (K-6.6: "there the first lap is always a single seed"); in a nemo takata the
//! sowing of the lifted pit is lap 2, in a nemo capture the first sowing of captured seeds is
//! lap 2.

use super::capture::{kichwa_for, sow_from_kichwa, take, Board};
use super::moves::{Direction, Kichwa, KuuChoice};
use super::sow::{add, clear, front_empty, get, sow, KUU};

/// How a move starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// Nemo capture (K-7.1): a reserve seed into own front pit `pit`, whose facing pit is
    /// occupied. `kichwa` is the player's choice for a central pit (ignored for a kimbi).
    NemoCapture { pit: usize, kichwa: Kichwa },
    /// Nemo takata (K-7.2–K-7.4): a reserve seed into `pit`, then lift (all, or 2 when taxing a
    /// lone kuu of 7 or more) and sow in `dir`.
    NemoTakata { pit: usize, dir: Direction },
    /// Mtaji move (K-8.1, K-8.2): lift `pit` and sow in `dir`; `capturing` by its first lap.
    Mtaji {
        pit: usize,
        dir: Direction,
        capturing: bool,
    },
}

/// The fixed facts of one move that the relay loop consults.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Env {
    /// The move was classified as capturing by its first lap (K-6.5).
    pub capturing: bool,
    /// The mover is in the nemo stage.
    pub nemo: bool,
    /// The mover's pit blocked by hizi zetu this turn (K-8.4).
    pub blocked: Option<usize>,
    /// Whether a lap ending in the mover's standing kuu during a capturing move of the mtaji
    /// stage offers stop or safari (K-8.3b option); in the nemo stage it always does (K-7.5).
    pub mtaji_safari_choice: bool,
    /// Whether the first lap of a move started from the standing kuu passes the block (K-8.4).
    pub kuu_lap_exempt: bool,
    /// The lap cap (K-10.4).
    pub lap_cap: u32,
}

/// How a finite, legal-so-far move ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ending {
    /// The move ended normally.
    Finished,
    /// A capture emptied the opponent's front row (K-6.7a, K-10.1); `unsown` captured seeds go
    /// to the mover's reserve (decision 9).
    Won { unsown: u8 },
}

/// The result of a finite move that did not break K-6.7.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Finish {
    /// The board after the move (mover's view).
    pub board: Board,
    /// How it ended.
    pub ending: Ending,
    /// Whether the stop/safari choice arose and was used.
    pub kuu_choice_used: bool,
    /// The ring index of the first capture's target pit on the opponent's side, if any.
    pub first_target: Option<usize>,
}

/// Why a move could not be completed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Abort {
    /// The mover's front row was empty at the end of a lap (K-6.7b \[RES\]).
    EmptiesFront,
    /// The move repeats an in-move state or exceeds the lap cap (K-10.4).
    NeverEnding,
    /// A stop/safari choice arose and the move did not give one (K-7.5, K-8.3b).
    KuuChoiceNeeded,
}

/// Plays a move from its start on `board` with the given stop/safari choice.
pub(crate) fn execute(
    board: Board,
    start: Start,
    kuu: Option<KuuChoice>,
    env: Env,
) -> Result<Finish, Abort> {
    let mut b = board;
    match start {
        Start::NemoCapture { pit, kichwa } => {
            // Lap 1: the seed from the reserve; the pit was occupied, so now holds ≥ 2, and the
            // facing pit is occupied: capture (K-7.1, K-6.4).
            b.own = add(b.own, pit, 1);
            let target = super::capture::facing(pit);
            let s = take(&mut b, pit);
            if front_empty(b.opp) {
                return Ok(Finish {
                    board: b,
                    ending: Ending::Won { unsown: s },
                    kuu_choice_used: false,
                    first_target: Some(target),
                });
            }
            if env.lap_cap < 2 {
                return Err(Abort::NeverEnding);
            }
            let k = match pit {
                0 | 1 => Kichwa::Left,
                6 | 7 => Kichwa::Right,
                _ => kichwa,
            };
            let (own, last, dir) = sow_from_kichwa(b.own, k, u32::from(s));
            b.own = own;
            let env = Env {
                capturing: true,
                nemo: true,
                ..env
            };
            relay(b, last, dir, 2, 0, kuu, Some(target), env)
        }
        Start::NemoTakata { pit, dir } => {
            let from_kuu = pit == KUU && b.own_kuu;
            let before = get(b.own, pit);
            // K-7.3 taxation of a lone kuu of ≥ 7: lift 2; K-7.4 six-seed rule: lift all 7
            // and the kuu is destroyed. Any other pit: lift all (K-7.2).
            let n = if from_kuu && before >= 7 {
                2
            } else {
                before + 1
            };
            if from_kuu && before < 7 {
                b.own_kuu = false;
            }
            b.own = add(b.own, pit, 1) - (u128::from(n) << (8 * pit));
            if env.lap_cap < 2 {
                return Err(Abort::NeverEnding);
            }
            let (own, last) = sow(b.own, pit, u32::from(n), dir);
            b.own = own;
            let env = Env {
                capturing: false,
                nemo: true,
                ..env
            };
            relay(
                b,
                last,
                dir,
                2,
                if from_kuu { 2 } else { 0 },
                kuu,
                None,
                env,
            )
        }
        Start::Mtaji {
            pit,
            dir,
            capturing,
        } => {
            let from_kuu = pit == KUU && b.own_kuu;
            let n = get(b.own, pit);
            b.own = clear(b.own, pit);
            if from_kuu {
                // K-8.1 / K-8.3a: starting from the kuu destroys it.
                b.own_kuu = false;
            }
            let (own, last) = sow(b.own, pit, u32::from(n), dir);
            b.own = own;
            let env = Env {
                capturing,
                nemo: false,
                ..env
            };
            relay(
                b,
                last,
                dir,
                1,
                if from_kuu { 1 } else { 0 },
                kuu,
                None,
                env,
            )
        }
    }
}

/// The state that decides the rest of a move (K-10.4): board, last pit, direction and kuu
/// flags. (Seeds in hand are the last pit's count; the capture flag and the choices are fixed
/// for the move.)
#[derive(Clone, Copy, PartialEq, Eq)]
struct InMove {
    own: u128,
    opp: u128,
    e: u8,
    dir: Direction,
    own_kuu: bool,
    opp_kuu: bool,
}

/// The relay loop from the end of lap number `laps`, whose last pit is `e`.
///
/// `exempt_lap` is the number of the lap that a hizi zetu block lets through (the first
/// sowing of a move started from the standing kuu), 0 for none.
#[allow(clippy::too_many_arguments)]
fn relay(
    mut b: Board,
    mut e: usize,
    mut dir: Direction,
    mut laps: u32,
    exempt_lap: u32,
    kuu: Option<KuuChoice>,
    mut first_target: Option<usize>,
    env: Env,
) -> Result<Finish, Abort> {
    let mut kuu_choice_used = false;
    // Brent's cycle detection on the in-move state, from lap 3 on (the first laps may depend
    // on the lap number through the block exemption).
    let mut saved: Option<InMove> = None;
    let mut power: u32 = 1;
    let mut lam: u32 = 0;
    let finish = |b: Board, used: bool, ft: Option<usize>| Finish {
        board: b,
        ending: Ending::Finished,
        kuu_choice_used: used,
        first_target: ft,
    };
    loop {
        // K-6.7b [RES]: the mover's front row must not be empty at the end of any lap.
        if front_empty(b.own) {
            return Err(Abort::EmptiesFront);
        }
        if laps > 2 {
            let st = InMove {
                own: b.own,
                opp: b.opp,
                e: e as u8,
                dir,
                own_kuu: b.own_kuu,
                opp_kuu: b.opp_kuu,
            };
            if saved == Some(st) {
                return Err(Abort::NeverEnding);
            }
            lam += 1;
            if saved.is_none() || lam >= power {
                saved = Some(st);
                power = power.saturating_mul(2);
                lam = 0;
            }
        }
        let c = get(b.own, e);
        // K-6.8.1 / K-6.2: the last seed fell into an empty pit.
        if c == 1 {
            return Ok(finish(b, kuu_choice_used, first_target));
        }
        let n: u8;
        if env.capturing && e < 8 && get(b.opp, 7 - e) > 0 {
            // K-6.8.2: capture (K-6.3, K-6.4).
            if first_target.is_none() {
                first_target = Some(7 - e);
            }
            let s = take(&mut b, e);
            if front_empty(b.opp) {
                return Ok(Finish {
                    board: b,
                    ending: Ending::Won { unsown: s },
                    kuu_choice_used,
                    first_target,
                });
            }
            if laps >= env.lap_cap {
                return Err(Abort::NeverEnding);
            }
            let (own, last, d) = sow_from_kichwa(b.own, kichwa_for(e, dir), u32::from(s));
            b.own = own;
            e = last;
            dir = d;
            laps += 1;
            continue;
        } else if e == KUU && b.own_kuu {
            // K-6.8.3: the mover's standing kuu.
            if !env.capturing {
                // K-7.5: a takata lap ending in the kuu ends the move. (K-8.3c: cannot
                // happen in the mtaji stage of Lamu, where the first takata empties the kuu;
                // with `first_mtaji_takata_from_kuu=off` it can, and the same K-7.5 reading
                // applies, see `BaoRules::first_mtaji_takata_from_kuu`.)
                return Ok(finish(b, kuu_choice_used, first_target));
            }
            if env.nemo || env.mtaji_safari_choice {
                match kuu {
                    None => return Err(Abort::KuuChoiceNeeded),
                    Some(KuuChoice::Stop) => return Ok(finish(b, true, first_target)),
                    Some(KuuChoice::Safari) => kuu_choice_used = true,
                }
            }
            // Safari (K-7.5, K-8.3b): lift the kuu and sow on; the kuu is destroyed.
            b.own_kuu = false;
            n = c;
        } else if Some(e) == env.blocked && !(env.kuu_lap_exempt && laps == exempt_lap) {
            // K-6.8.4 / K-8.4: a lap ending in the blocked pit ends the move.
            return Ok(finish(b, kuu_choice_used, first_target));
        } else {
            // K-6.8.5: relay (K-6.2). (The kuu case above catches a standing kuu.)
            n = c;
        }
        if laps >= env.lap_cap {
            return Err(Abort::NeverEnding);
        }
        b.own = clear(b.own, e);
        let (own, last) = sow(b.own, e, u32::from(n), dir);
        b.own = own;
        e = last;
        laps += 1;
    }
}
