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
//! constant number of word operations, whatever n is.

/// Per-h sowing tables (index 0 of the outer arrays is unused; entries for k ≥ h are 0).
pub(crate) struct SowTables {
    /// `own_add[h][k][r]`: one seed in each own lane among the r houses after lane k.
    pub(crate) own_add: [[[u64; 16]; 8]; 9],
    /// `opp_add[h][k][r]`: one seed in each opponent lane among the r houses after lane k.
    pub(crate) opp_add: [[[u64; 16]; 8]; 9],
    /// `own_lap[h][k]`: one seed in each own lane 0..h but k.
    pub(crate) own_lap: [[u64; 8]; 9],
    /// `last[h][k][r]`: the cycle index of the last house (< h: own lane, ≥ h: opponent lane
    /// index − h).
    pub(crate) last: [[[u8; 16]; 8]; 9],
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

pub(crate) static TABLES: SowTables = build();

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
#[inline(always)]
pub(crate) const fn lanes(count: usize) -> u64 {
    ones(count) * 0xFF
}

/// `LANES[n]` = [`lanes`]`(n)`, n in 0..=8, for a mask of run-time length.
pub(crate) static LANES: [u64; 9] = {
    let mut t = [0u64; 9];
    let mut n = 0;
    while n <= 8 {
        t[n] = lanes(n);
        n += 1;
    }
    t
};

/// 0xFC in every lane: a lane of `x & FOUR_OR_MORE` is non-zero iff it holds 4 or more seeds.
pub(crate) const FOUR_OR_MORE: u64 = 0xFCFC_FCFC_FCFC_FCFC;

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables against a seed-by-seed walk of the circuit skipping the origin.
    #[test]
    fn tables_match_a_seed_by_seed_walk() {
        for h in 1..=8usize {
            for k in 0..h {
                for n in 1..=60usize {
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
                    let (q, r) = (n / (2 * h - 1), n % (2 * h - 1));
                    let own = TABLES.own_lap[h][k] * q as u64 + TABLES.own_add[h][k][r];
                    let opp = ones(h) * q as u64 + TABLES.opp_add[h][k][r];
                    for lane in 0..h {
                        let got = [(own >> (8 * lane)) as u8, (opp >> (8 * lane)) as u8];
                        assert_eq!(got[0] as u32, houses[lane], "h{h} k{k} n{n} own {lane}");
                        assert_eq!(got[1] as u32, houses[h + lane], "h{h} k{k} n{n} opp {lane}");
                    }
                    assert_eq!(TABLES.last[h][k][r] as usize, i, "h{h} k{k} n{n}");
                }
            }
        }
    }
}
