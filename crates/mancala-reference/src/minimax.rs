//! An independent brute-force evaluator on the core's Kalah positions, for the solver's
//! tests.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use mancala_core::kalah::{KalahMove, KalahPosition};
use mancala_core::Side;

/// The current margin (own store minus the other's) of whoever owns `side`.
fn margin_of(pos: &KalahPosition, side: Side) -> i32 {
    i32::from(pos.store(side)) - i32::from(pos.store(side.opponent()))
}

/// Plain exhaustive minimax on the core's positions. A move's worth is the *final margin*
/// (own store minus the opponent's at the end) of the player making it, with the player's
/// side tracked through a pie-rule swap; the value of a position is the best final margin
/// minus the mover's current margin. Positions outside the opening are memoised on the
/// houses and the side to move (the rules never look at the stores there).
pub struct Brute {
    memo: HashMap<u128, i32, BuildHasherDefault<MulHasher>>,
}

/// A multiplicative hasher for the u128 keys (the default SipHash is slow for millions).
#[derive(Default)]
pub struct MulHasher(u64);

impl Hasher for MulHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01B3);
        }
    }
    fn write_u128(&mut self, x: u128) {
        let h = (x as u64 ^ ((x >> 64) as u64).rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

fn special(pos: &KalahPosition) -> bool {
    pos.swap_offered() || pos.is_first_move() || pos.in_opening_turn()
}

impl Default for Brute {
    fn default() -> Brute {
        Brute::new()
    }
}

impl Brute {
    /// An evaluator with nothing memoised yet.
    pub fn new() -> Brute {
        Brute {
            memo: HashMap::default(),
        }
    }

    /// The value of `pos` for the player to move: final margin with perfect play minus
    /// their current margin (0 for a finished game).
    pub fn value(&mut self, pos: &KalahPosition) -> i32 {
        let Some(side) = pos.side_to_move() else {
            return 0;
        };
        if !special(pos) {
            if let Some(&v) = self.memo.get(&pos.key()) {
                return v;
            }
        }
        let best = pos
            .legal_moves()
            .into_iter()
            .map(|mv| self.move_final_margin(pos, mv, side))
            .max()
            .expect("a position in play has a move")
            - margin_of(pos, side);
        if !special(pos) {
            self.memo.insert(pos.key(), best);
        }
        best
    }

    /// Final margin of the player to move at `pos` (on `side`) after playing `mv`.
    pub fn move_final_margin(&mut self, pos: &KalahPosition, mv: KalahMove, side: Side) -> i32 {
        debug_assert!(pos.check(mv).is_ok());
        let child = pos.play_unchecked(mv);
        // The side the player owns after the move: a swap hands them the other side.
        let my_side = if mv == KalahMove::Swap {
            side.opponent()
        } else {
            side
        };
        match child.side_to_move() {
            None => margin_of(&child, my_side),
            Some(next) => {
                // Whoever moves next owns the side to move.
                let f_next = margin_of(&child, next) + self.value(&child);
                if next == my_side {
                    f_next
                } else {
                    -f_next
                }
            }
        }
    }

    /// Value of each legal move, for the player to move.
    pub fn move_values(&mut self, pos: &KalahPosition) -> Vec<(KalahMove, i32)> {
        let side = pos.side_to_move().expect("game on");
        pos.legal_moves()
            .into_iter()
            .map(|mv| {
                (
                    mv,
                    self.move_final_margin(pos, mv, side) - margin_of(pos, side),
                )
            })
            .collect()
    }

    /// The same value as [`Brute::value`], by a plain fail-soft alpha-beta with a memo of
    /// proven bounds (no move ordering, no other pruning): the whole games of the largest
    /// boards (Kalah(7,1)) are too big for the plain minimax in a CI-sized test.
    pub fn value_ab(&mut self, pos: &KalahPosition) -> i32 {
        let mut bounds = HashMap::default();
        ab(pos, -1000, 1000, &mut bounds)
    }
}

type BoundsMemo = HashMap<u128, (i32, i32), BuildHasherDefault<MulHasher>>;

fn ab(pos: &KalahPosition, alpha: i32, beta: i32, memo: &mut BoundsMemo) -> i32 {
    let Some(side) = pos.side_to_move() else {
        return 0;
    };
    let key = pos.key();
    let cache = !special(pos);
    if cache {
        if let Some(&(lo, hi)) = memo.get(&key) {
            if lo >= beta {
                return lo;
            }
            if hi <= alpha {
                return hi;
            }
            if lo == hi {
                return lo;
            }
        }
    }
    let mp = margin_of(pos, side);
    let mut best = i32::MIN;
    let mut a = alpha;
    for mv in pos.legal_moves() {
        let child = pos.play_unchecked(mv);
        let my_side = if mv == KalahMove::Swap {
            side.opponent()
        } else {
            side
        };
        let v = match child.side_to_move() {
            None => margin_of(&child, my_side) - mp,
            Some(next) => {
                let mn = margin_of(&child, next);
                if next == my_side {
                    mn + ab(&child, a + mp - mn, beta + mp - mn, memo) - mp
                } else {
                    -mn - ab(&child, -beta - mp - mn, -a - mp - mn, memo) - mp
                }
            }
        };
        if v > best {
            best = v;
            if v >= beta {
                break;
            }
            a = a.max(v);
        }
    }
    if cache {
        let e = memo.entry(key).or_insert((-1000, 1000));
        if best >= beta {
            e.0 = e.0.max(best);
        } else if best <= alpha {
            e.1 = e.1.min(best);
        } else {
            *e = (best, best);
        }
    }
    best
}
