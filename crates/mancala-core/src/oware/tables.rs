//! Sowing tables and lane masks, computed at compile time for every h in 1..=8.
//!
//! The houses are kept **from the mover's point of view** in one `u128` of 8-bit lanes (see
//! `position.rs`): the mover's houses 1..h in lanes 0..h−1, the opponent's houses 1..h in
//! lanes h..2h−1. The sowing circuit S1 … Sh, N1 … Nh (OW-1.3) seen from either player is
//! then lanes 0, 1, …, 2h−1, 0, … — the same for both sides.
//!
//! A sowing of n seeds from the mover's lane k skips the origin every time round (OW-2.3), so
//! it walks a cycle of L = 2h − 1 lanes. With q = n / L and r = n % L every lane but the
//! origin gets q seeds and the r lanes after the origin (skipping it) one more:
//!
//! ```text
//! houses' = houses − n·lane(k) + q·LAP[h][k] + ADD[h][k][r]
//! ```
//!
//! and the last seed lands in lane `LAST[h][k][r]` = (k + r) mod 2h for r ≥ 1, and in the
//! lane just before the origin, (k + L) mod 2h, for r = 0 (OW-2.3: n = q·(2h − 1)). A
//! constant number of word operations, whatever n is.

/// Per-h sowing tables (index 0 of the outer arrays is unused; entries for k ≥ h are 0).
pub(crate) struct SowTables {
    /// `add[h][k][r]`: one seed in each of the r lanes after lane k, skipping k (r < 2h − 1).
    pub(crate) add: [[[u128; 16]; 8]; 9],
    /// `lap[h][k]`: one seed in each of the 2h lanes but k.
    pub(crate) lap: [[u128; 8]; 9],
    /// `last[h][k][r]`: the lane of the last seed.
    pub(crate) last: [[[u8; 16]; 8]; 9],
}

const fn build() -> SowTables {
    let mut t = SowTables {
        add: [[[0; 16]; 8]; 9],
        lap: [[0; 8]; 9],
        last: [[[0; 16]; 8]; 9],
    };
    let mut h = 1;
    while h <= 8 {
        let lanes = 2 * h;
        let cycle = lanes - 1;
        let mut k = 0;
        while k < h {
            t.lap[h][k] = ones(lanes) & !(1u128 << (8 * k));
            let mut add = 0u128;
            let mut r = 0;
            while r < cycle {
                t.add[h][k][r] = add;
                t.last[h][k][r] = ((k + if r == 0 { cycle } else { r }) % lanes) as u8;
                // The lane of seed number r + 1 after the origin, for the next r (r + 1 <
                // 2h, so the walk never reaches the origin again).
                add |= 1u128 << (8 * ((k + r + 1) % lanes));
                r += 1;
            }
            k += 1;
        }
        h += 1;
    }
    t
}

pub(crate) static TABLES: SowTables = build();

/// One in each of the lanes `0..count` (count ≤ 16).
#[inline(always)]
pub(crate) const fn ones(count: usize) -> u128 {
    const ALL: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
    if count >= 16 {
        ALL
    } else {
        ALL & ((1u128 << (8 * count)) - 1)
    }
}

/// 0xFF in each of the lanes `0..count` (count ≤ 16).
#[inline(always)]
pub(crate) const fn lanes(count: usize) -> u128 {
    ones(count) * 0xFF
}

/// 0xFF in the opponent's lanes h..2h−1.
#[inline(always)]
pub(crate) const fn opp_lanes(h: usize) -> u128 {
    lanes(2 * h) & !lanes(h)
}

/// 0xFC in every lane: a lane of `x & FOUR_OR_MORE` is non-zero iff it holds 4 or more seeds.
pub(crate) const FOUR_OR_MORE: u128 = 0xFCFC_FCFC_FCFC_FCFC_FCFC_FCFC_FCFC_FCFC;

#[cfg(test)]
mod tests {
    use super::*;

    /// The tables against a seed-by-seed walk of the circuit skipping the origin.
    #[test]
    fn tables_match_a_seed_by_seed_walk() {
        for h in 1..=8usize {
            for k in 0..h {
                for n in 1..=60usize {
                    let mut lanes_ = [0u32; 16];
                    let mut i = k;
                    for _ in 0..n {
                        loop {
                            i = (i + 1) % (2 * h);
                            if i != k {
                                break;
                            }
                        }
                        lanes_[i] += 1;
                    }
                    let (q, r) = (n / (2 * h - 1), n % (2 * h - 1));
                    let word = TABLES.lap[h][k] * q as u128 + TABLES.add[h][k][r];
                    for (lane, &want) in lanes_.iter().enumerate() {
                        assert_eq!((word >> (8 * lane)) as u8 as u32, want, "h{h} k{k} n{n}");
                    }
                    assert_eq!(TABLES.last[h][k][r] as usize, i, "h{h} k{k} n{n}");
                }
            }
        }
    }
}
