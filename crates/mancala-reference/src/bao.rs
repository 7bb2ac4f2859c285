//! A plain, seed-by-seed reference of the course of one Bao move on `[u8; 16]` arrays (no
//! packed lanes, no masks, a `HashSet` of in-move states instead of Brent's algorithm), to
//! check the packed implementation against (`docs/architecture.md`, "Testing against independent
//! implementations"). It plays a move that is known to be legal; legality itself is checked
//! elsewhere.

use std::collections::HashSet;

use mancala_core::bao::{
    BaoLayout, BaoMove, BaoPosition, Direction, Kichwa, KuuChoice, SafariRule,
};

/// What the reference says about a move.
#[derive(Debug, PartialEq, Eq)]
pub enum RefResult {
    /// The board after the move: (own ring, opponent ring, own kuu, opponent kuu, seeds won
    /// unsown or `None` when the game goes on).
    Done([u8; 16], [u8; 16], bool, bool, Option<u8>),
    /// The mover's front row was empty at a lap end.
    EmptiesFront,
    /// Repeated state or lap cap.
    NeverEnding,
}

fn ring(l: &BaoLayout, s: usize) -> [u8; 16] {
    let mut r = [0u8; 16];
    for k in 0..8 {
        r[k] = l.front[s][k];
        r[15 - k] = l.back[s][k];
    }
    r
}

fn step(i: usize, d: i32) -> usize {
    ((i as i32 + d).rem_euclid(16)) as usize
}

fn sow(own: &mut [u8; 16], from: usize, n: u8, d: i32) -> usize {
    let mut i = from;
    for _ in 0..n {
        i = step(i, d);
        own[i] += 1;
    }
    i
}

/// Plays `mv` (assumed legal) seed by seed.
pub fn play(p: &BaoPosition, mv: BaoMove) -> RefResult {
    let l = p.layout();
    let me = l.to_move.index();
    let mut own = ring(&l, me);
    let mut opp = ring(&l, 1 - me);
    let mut own_kuu = l.kuu[me];
    let mut opp_kuu = l.kuu[1 - me];
    let rules = p.rules();
    let nemo = l.reserve[me] > 0;
    let blocked = match l.reserved {
        Some((owner, k)) if owner == l.to_move => {
            let h = usize::from(k) - 1;
            // A later blocked turn of a longer block (K-8.4, A8): a pit that has become
            // exempt (empty, the only occupied front pit, the only one holding more than
            // one seed, a singleton under `singleton_exempt`) is not blocked.
            let later = l.block_turns_left + 1 < rules.block_duration();
            let f = &own[..8];
            let c = f[h];
            let exempt = c == 0
                || (0..8).all(|i| i == h || f[i] == 0)
                || (c > 1 && (0..8).all(|i| i == h || f[i] <= 1))
                || (rules.singleton_exempt() && c == 1);
            if later && exempt {
                None
            } else {
                Some(h)
            }
        }
        _ => None,
    };
    let cap = rules.lap_cap();
    let choice = nemo || rules.mtaji_safari() == SafariRule::Choice;
    let pit = mv.pit.index();
    let dir_of = |d: Direction| if d == Direction::Clockwise { 1 } else { -1 };
    let mut d: i32;
    let mut e: usize;
    let mut laps: u32;
    let capturing: bool;
    let mut exempt_lap = 0;
    let from_kuu = pit == 4 && own_kuu;
    if nemo && opp[7 - pit] > 0 {
        capturing = true;
        own[pit] += 1;
        let s = opp[7 - pit];
        opp[7 - pit] = 0;
        if 7 - pit == 4 {
            opp_kuu = false;
        }
        if opp[..8].iter().all(|&x| x == 0) {
            return RefResult::Done(own, opp, own_kuu, opp_kuu, Some(s));
        }
        let k = match pit {
            0 | 1 => Kichwa::Left,
            6 | 7 => Kichwa::Right,
            _ => mv.kichwa.expect("central nemo capture has a kichwa"),
        };
        if cap < 2 {
            return RefResult::NeverEnding;
        }
        (e, d) = if k == Kichwa::Left {
            (sow(&mut own, 15, s, 1), 1)
        } else {
            (sow(&mut own, 8, s, -1), -1)
        };
        laps = 2;
    } else if nemo {
        capturing = false;
        d = dir_of(mv.direction.expect("direction"));
        let before = own[pit];
        own[pit] += 1;
        let n = if from_kuu && before >= 7 {
            2
        } else {
            before + 1
        };
        if from_kuu && before < 7 {
            own_kuu = false;
        }
        own[pit] -= n;
        if cap < 2 {
            return RefResult::NeverEnding;
        }
        e = sow(&mut own, pit, n, d);
        laps = 2;
        if from_kuu {
            exempt_lap = 2;
        }
    } else {
        d = dir_of(mv.direction.expect("direction"));
        let n = own[pit];
        own[pit] = 0;
        if from_kuu {
            own_kuu = false;
            exempt_lap = 1;
        }
        let before = own;
        e = sow(&mut own, pit, n, d);
        capturing = (2..=15).contains(&n) && e < 8 && before[e] > 0 && opp[7 - e] > 0;
        laps = 1;
    }
    let mut seen = HashSet::new();
    let mut kuu_choice = mv.kuu;
    loop {
        if own[..8].iter().all(|&x| x == 0) {
            return RefResult::EmptiesFront;
        }
        if laps > 2 && !seen.insert((own, opp, e, d, own_kuu, opp_kuu)) {
            return RefResult::NeverEnding;
        }
        let c = own[e];
        if c == 1 {
            return RefResult::Done(own, opp, own_kuu, opp_kuu, None);
        }
        if capturing && e < 8 && opp[7 - e] > 0 {
            let s = opp[7 - e];
            opp[7 - e] = 0;
            if 7 - e == 4 {
                opp_kuu = false;
            }
            if opp[..8].iter().all(|&x| x == 0) {
                return RefResult::Done(own, opp, own_kuu, opp_kuu, Some(s));
            }
            if laps >= cap {
                return RefResult::NeverEnding;
            }
            let left = match e {
                0 | 1 => true,
                6 | 7 => false,
                _ => d == 1,
            };
            (e, d) = if left {
                (sow(&mut own, 15, s, 1), 1)
            } else {
                (sow(&mut own, 8, s, -1), -1)
            };
            laps += 1;
            continue;
        }
        if e == 4 && own_kuu {
            if !capturing {
                return RefResult::Done(own, opp, own_kuu, opp_kuu, None);
            }
            if choice {
                match kuu_choice.take() {
                    Some(KuuChoice::Stop) => {
                        return RefResult::Done(own, opp, own_kuu, opp_kuu, None)
                    }
                    Some(KuuChoice::Safari) => {}
                    None => panic!("a legal move gives the kuu choice"),
                }
            }
            own_kuu = false;
        } else if Some(e) == blocked && !(rules.kuu_lap_exempt() && laps == exempt_lap) {
            return RefResult::Done(own, opp, own_kuu, opp_kuu, None);
        }
        if laps >= cap {
            return RefResult::NeverEnding;
        }
        own[e] = 0;
        e = sow(&mut own, e, c, d);
        laps += 1;
    }
}

/// Checks the packed `p.play(mv)` against the reference; `mv` must be legal.
pub fn agrees(p: &BaoPosition, mv: BaoMove) -> Result<(), String> {
    let q = p.play(mv).map_err(|e| e.to_string())?;
    let me = p.to_move().index();
    let l = q.layout();
    let got = (ring(&l, me), ring(&l, 1 - me), l.kuu[me], l.kuu[1 - me]);
    match play(p, mv) {
        RefResult::Done(own, opp, ok, opk, won) => {
            let mut reserve = p.layout().reserve;
            if reserve[me] > 0 {
                reserve[me] -= 1;
            }
            if let Some(s) = won {
                reserve[me] += s;
            }
            if got != (own, opp, ok, opk) || l.reserve != reserve {
                return Err(format!(
                    "{p} {mv}: packed {q}, reference {own:?} {opp:?} {ok} {opk} {reserve:?}"
                ));
            }
            if l.to_move == p.to_move() {
                return Err(format!("{p} {mv}: the turn did not pass"));
            }
            Ok(())
        }
        other => Err(format!(
            "{p} {mv}: listed as legal, reference says {other:?}"
        )),
    }
}
