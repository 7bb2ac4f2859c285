//! The build's sowing kernel: the move rules on the two rows of a position as separate
//! words, without the stores and without the flip of the rows.

use crate::board::Flags;

/// The move generator of the build, on the two rows as separate words (house i of a row in
/// byte i): the rules of [`crate::board::Geometry::play`] (a test compares the two on every
/// option set) without 128-bit shifts and without the flip of the rows. The other Kalah
/// sowing kernels are the core's `KalahPosition::sow_unchecked` and the solver's
/// [`crate::board::Geometry`] (whose docs list all three and the tests between them).
pub(super) struct Sow<const M: usize> {
    /// Added to the own row, the opponent's row and the store by r < 2m+1 seeds from house h.
    pub(super) own_add: [[u64; 16]; M],
    pub(super) opp_add: [[u64; 16]; M],
    pub(super) store_add: [[u8; 16]; M],
    /// The lane of the last seed of r seeds from house h: own house, m the store, m+1+i the
    /// opponent's house i.
    pub(super) last: [[u8; 16]; M],
    pub(super) flags: Flags,
}

/// One seed in each of the m bytes of a row.
pub(super) const fn ones(m: usize) -> u64 {
    0x0101_0101_0101_0101 >> (8 * (8 - m))
}

/// The seeds of a row.
#[inline(always)]
pub(super) fn row_sum(row: u64) -> u32 {
    (row.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

impl<const M: usize> Sow<M> {
    /// The tables for these rule flags.
    pub(super) fn new(flags: Flags) -> Self {
        let l = 2 * M + 1;
        let mut s = Sow {
            own_add: [[0; 16]; M],
            opp_add: [[0; 16]; M],
            store_add: [[0; 16]; M],
            last: [[0; 16]; M],
            flags,
        };
        for h in 0..M {
            for r in 0..l {
                // r seeds into the lanes after h.
                for j in 1..=r {
                    let lane = (h + j) % l;
                    if lane < M {
                        s.own_add[h][r] += 1 << (8 * lane);
                    } else if lane == M {
                        s.store_add[h][r] += 1;
                    } else {
                        s.opp_add[h][r] += 1 << (8 * (lane - M - 1));
                    }
                }
                s.last[h][r] = ((h + r) % l) as u8;
            }
        }
        s
    }

    /// Plays house `h` (non-empty) of the position (`own`, `opp`): the child's rows
    /// (own row of its mover first), the gain, and +1 for an extra turn, −1 when the turn
    /// passes, 0 when the game ends (then `gain` includes the final sweep and both rows are
    /// returned empty).
    #[inline(always)]
    pub(super) fn play(&self, own: u64, opp: u64, h: usize) -> (u64, u64, i32, i32) {
        let s = ((own >> (8 * h)) & 0xFF) as usize;
        let l = 2 * M + 1;
        let (q, r) = if s < l { (0, s) } else { (s / l, s % l) };
        let qs = q as u64 * ones(M);
        let mut own = (own & !(0xFF << (8 * h))) + qs + self.own_add[h][r];
        let mut opp = opp + qs + self.opp_add[h][r];
        let mut gain = (q + usize::from(self.store_add[h][r])) as i32;
        let last = usize::from(self.last[h][r]);
        let extra = last == M;
        if last < M && (own >> (8 * last)) & 0xFF == 1 {
            let facing = M - 1 - last;
            let taken = (opp >> (8 * facing)) & 0xFF;
            if taken != 0 || self.flags.empty_capture {
                own &= !(0xFF << (8 * last));
                opp &= !(0xFF << (8 * facing));
                gain += taken as i32 + 1;
            }
        }
        if self.flags.game_over(extra, own == 0, opp == 0) {
            if !self.flags.discard {
                gain += row_sum(own) as i32 - row_sum(opp) as i32;
            }
            (0, 0, gain, 0)
        } else if extra {
            (own, opp, gain, 1)
        } else {
            (opp, own, gain, -1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Sow;
    use crate::board::{Flags, Geometry, Kind};

    /// The build's move generator against the solver's, on random boards of every m and
    /// option set, long sowings included.
    #[test]
    fn sowing_matches_the_solver_generator() {
        fn check<const M: usize>(flags: Flags, rng: &mut u64) {
            let g = Geometry::<M>::new(flags);
            let sow = Sow::<M>::new(flags);
            for _ in 0..2000 {
                let (mut own, mut opp) = (0u64, 0u64);
                for i in 0..M {
                    *rng = rng.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                    // Mostly small houses, sometimes more than a whole lap.
                    let big = (*rng >> 60) == 0;
                    let c = (*rng >> 33) % if big { 40 } else { 4 };
                    own |= c << (8 * i);
                    let d = (*rng >> 45) % if big { 30 } else { 4 };
                    opp |= d << (8 * i);
                }
                let b = u128::from(own) | (u128::from(opp) << (8 * (M + 1)));
                for h in 0..M {
                    if (own >> (8 * h)) & 0xFF == 0 {
                        continue;
                    }
                    let c = g.play(b, crate::board::lane_sum(b), h);
                    let (c_own, c_opp, gain, sign) = sow.play(own, opp, h);
                    assert_eq!(gain, c.gain, "{own:x} {opp:x} {h}");
                    let want = match c.kind {
                        Kind::Over => 0,
                        Kind::Extra => 1,
                        Kind::Switch => -1,
                    };
                    assert_eq!(sign, want);
                    if sign != 0 {
                        let board = u128::from(c_own) | (u128::from(c_opp) << (8 * (M + 1)));
                        assert_eq!(board, c.board);
                    }
                }
            }
        }
        let mut rng = 7u64;
        for bits in 0..8u32 {
            let flags = Flags {
                empty_capture: bits & 1 != 0,
                end_when_no_move: bits & 2 != 0,
                discard: bits & 4 != 0,
            };
            check::<1>(flags, &mut rng);
            check::<2>(flags, &mut rng);
            check::<3>(flags, &mut rng);
            check::<4>(flags, &mut rng);
            check::<5>(flags, &mut rng);
            check::<6>(flags, &mut rng);
            check::<7>(flags, &mut rng);
        }
    }
}
