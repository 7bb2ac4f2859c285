//! Sowing tables and lane masks, computed at compile time for every h in 1..=8.
//!
//! The houses are kept **from the mover's point of view** in two `u64`s of 8-bit lanes (see
//! `position.rs`): `own` with the mover's houses 1..h in lanes 0..h−1 and `opp` with the
//! opponent's houses 1..h in lanes 0..h−1. The sowing circuit S1 … Sh, N1 … Nh (OW-1.3) seen
//! from either player is then the *cycle index* 0..2h−1: own lanes 0..h−1, then opponent
//! lanes 0..h−1 (cycle index h + lane).
//!
//! A sowing of n seeds from the mover's lane k skips the origin every time round (OW-2.3), so
//! it walks a cycle of L = 2h − 1 houses. With q = n / L and r = n % L every house but the
//! origin gets q seeds and the r houses after the origin (skipping it) one more:
//!
//! ```text
//! own' = own − n·lane(k) + q·OWN_LAP[h][k] + OWN_ADD[h][k][r]
//! opp' = opp             + q·ONES(h)      + OPP_ADD[h][k][r]
//! ```
//!
//! and the last seed lands on cycle index `LAST[h][k][r]` = (k + r) mod 2h for r ≥ 1, and on
//! the house just before the origin, (k + L) mod 2h, for r = 0 (OW-2.3: n = q·(2h − 1)). A
//! constant number of word operations, whatever n is. Both sums, the n seeds taken from the
//! origin and the last house are tabulated for every (h, k, n) in [`SOWINGS`]
//! (n up to 255, the most seeds a position holds), so that a sowing is one index and two
//! adds: no division and no branch on whether it goes round.

/// Per-h sowing tables by the remainder r (index 0 of the outer arrays is unused; entries
/// for k ≥ h are 0), from which [`SOWINGS`] is built.
struct SowTables {
    /// `own_add[h][k][r]`: one seed in each own lane among the r houses after lane k.
    own_add: [[[u64; 16]; 8]; 9],
    /// `opp_add[h][k][r]`: one seed in each opponent lane among the r houses after lane k.
    opp_add: [[[u64; 16]; 8]; 9],
    /// `own_lap[h][k]`: one seed in each own lane 0..h but k.
    own_lap: [[u64; 8]; 9],
    /// `last[h][k][r]`: the cycle index of the last house (< h: own lane, ≥ h: opponent lane
    /// index − h).
    last: [[[u8; 16]; 8]; 9],
}

const fn build() -> SowTables {
    let mut t = SowTables {
        own_add: [[[0; 16]; 8]; 9],
        opp_add: [[[0; 16]; 8]; 9],
        own_lap: [[0; 8]; 9],
        last: [[[0; 16]; 8]; 9],
    };
    let mut h = 1;
    while h <= 8 {
        let circuit = 2 * h;
        let cycle = circuit - 1;
        let mut k = 0;
        while k < h {
            t.own_lap[h][k] = ones(h) & !(1u64 << (8 * k));
            let mut own = 0u64;
            let mut opp = 0u64;
            let mut r = 0;
            while r < cycle {
                t.own_add[h][k][r] = own;
                t.opp_add[h][k][r] = opp;
                t.last[h][k][r] = ((k + if r == 0 { cycle } else { r }) % circuit) as u8;
                // The house of seed number r + 1 after the origin, for the next r (r + 1 <
                // 2h, so the walk never reaches the origin again).
                let c = (k + r + 1) % circuit;
                if c < h {
                    own |= 1u64 << (8 * c);
                } else {
                    opp |= 1u64 << (8 * (c - h));
                }
                r += 1;
            }
            k += 1;
        }
        h += 1;
    }
    t
}

/// A sowing of n seeds from the mover's lane k on a board of h houses a side, as word
/// operations on the mover-relative rows: the mover's row plus `own` and the opponent's row
/// plus `opp` (wrapping adds) are the rows after it; `last_fe` and `last_two` say where its
/// last seed fell. 32 bytes, so that an index is a shift.
#[derive(Clone, Copy)]
#[repr(C, align(32))]
pub(crate) struct Sowing {
    /// Added to the mover's row, wrapping: q·`own_lap` + the remainder's own seeds − n·lane(k)
    /// (the origin emptied).
    pub(crate) own: u64,
    /// Added to the opponent's row: q·ONES(h) + the remainder's opponent seeds.
    pub(crate) opp: u64,
    /// 0xFE in the opponent's lane of the last seed when it falls in his row, else 0.
    pub(crate) last_fe: u64,
    /// 0x02 in the same lane, or 1 when the last seed falls in the mover's row: the opponent's
    /// row after the sowing `opp'` has a capture chain (OW-3.1: the last house holds 2 or 3)
    /// iff `opp' & last_fe == last_two`, which the mover's row never gives.
    pub(crate) last_two: u64,
}

/// The row of [`SOWINGS`] of lane 0 on a board of h houses a side: the rows of h' < h come
/// first, h' each.
pub(crate) const fn sowing_row(h: usize) -> usize {
    h * (h - 1) / 2
}

/// `SOWINGS[(sowing_row(h) + k) · 256 + n]`: the [`Sowing`] of n seeds (0..=255) from lane k
/// (< h) on a board of h houses a side (1..=8); 36 rows of 256, one for each (h, k). An index
/// with k up to 7 stays in the table for every h (rows 0..=35).
pub(crate) static SOWINGS: [Sowing; 36 * 256] = {
    let t = build();
    let none = Sowing {
        own: 0,
        opp: 0,
        last_fe: 0,
        last_two: 1,
    };
    let mut out = [none; 36 * 256];
    let mut h = 1;
    while h <= 8 {
        let cycle = 2 * h - 1;
        let mut k = 0;
        while k < h {
            let mut n = 1;
            while n < 256 {
                let (q, r) = ((n / cycle) as u64, n % cycle);
                let last = t.last[h][k][r] as usize;
                out[(sowing_row(h) + k) * 256 + n] = Sowing {
                    own: (q * t.own_lap[h][k] + t.own_add[h][k][r])
                        .wrapping_sub((n as u64) << (8 * k)),
                    opp: q * ones(h) + t.opp_add[h][k][r],
                    last_fe: if last < h {
                        0
                    } else {
                        0xFE << (8 * (last - h))
                    },
                    last_two: if last < h {
                        1
                    } else {
                        0x02 << (8 * (last - h))
                    },
                };
                n += 1;
            }
            k += 1;
        }
        h += 1;
    }
    out
};

/// One in each of the lanes `0..count` (count ≤ 8).
#[inline(always)]
pub(crate) const fn ones(count: usize) -> u64 {
    if count >= 8 {
        0x0101_0101_0101_0101
    } else {
        0x0101_0101_0101_0101 & ((1u64 << (8 * count)) - 1)
    }
}

/// 0xFF in each of the lanes `0..count` (count ≤ 8).
#[cfg(test)]
pub(crate) const fn lanes(count: usize) -> u64 {
    ones(count) * 0xFF
}

/// 0xFC in every lane: a lane of `x & FOUR_OR_MORE` is non-zero iff it holds 4 or more seeds.
pub(crate) const FOUR_OR_MORE: u64 = 0xFCFC_FCFC_FCFC_FCFC;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sowing of every count 1..=255 from every lane on every board size against a
    /// seed-by-seed walk of the circuit skipping the origin, on rows of 0 (the tables add,
    /// so that is enough) and on rows holding the n seeds at the origin.
    #[test]
    fn sowings_match_a_seed_by_seed_walk() {
        for h in 1..=8usize {
            for k in 0..h {
                for n in 1..=255usize {
                    let mut houses = [0u32; 16];
                    let mut i = k;
                    for _ in 0..n {
                        loop {
                            i = (i + 1) % (2 * h);
                            if i != k {
                                break;
                            }
                        }
                        houses[i] += 1;
                    }
                    let s = SOWINGS[(sowing_row(h) + k) * 256 + n];
                    let own = ((n as u64) << (8 * k)).wrapping_add(s.own);
                    let opp = s.opp;
                    for lane in 0..8 {
                        let got = [(own >> (8 * lane)) as u8, (opp >> (8 * lane)) as u8];
                        let want = if lane < h {
                            [houses[lane], houses[h + lane]]
                        } else {
                            [0, 0]
                        };
                        // Every count of a sowing of at most 255 seeds fits a lane.
                        assert_eq!(got[0] as u32, want[0], "h{h} k{k} n{n} own {lane}");
                        assert_eq!(got[1] as u32, want[1], "h{h} k{k} n{n} opp {lane}");
                    }
                    let (fe, two) = if i < h {
                        (0, 1)
                    } else {
                        (0xFE << (8 * (i - h)), 0x02 << (8 * (i - h)))
                    };
                    assert_eq!((s.last_fe, s.last_two), (fe, two), "h{h} k{k} n{n}");
                }
            }
        }
    }
}
