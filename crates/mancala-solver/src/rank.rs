//! The combinatorial ranking of the houses: the number that keys the transposition table and
//! indexes the endgame databases.
//!
//! # Ranking (combinatorial number system)
//!
//! The houses, read as the 2m parts `c_0 … c_{2m−1}` (the mover's houses 1..m, then the
//! opponent's houses 1..m), sum to k seeds. With the "bars" `p_i = c_0 + … + c_i + i`
//! (strictly increasing) the rank is `Σ_{i<2m} C(p_i, i+1)`: the colex rank of the 2m-subset
//! `{p_i}` of the naturals. Its last term `C(k+2m−1, 2m)` counts the positions with fewer than
//! k seeds, so ranks of the positions with exactly k seeds fill
//! `[C(k+2m−1, 2m), C(k+2m, 2m))` and the positions with at most K seeds fill
//! `[0, C(K+2m, 2m))` without gaps. The rank does not depend on K: one number indexes the
//! endgame database and keys the transposition table.

/// Largest `n` of the binomial table: 255 seeds plus 2·7 parts, rounded up.
pub(crate) const BINOM_N: usize = 272;
/// Largest `k` of the binomial table + 1.
pub(crate) const BINOM_K: usize = 16;

const fn binom_table() -> [[u64; BINOM_N]; BINOM_K] {
    let mut t = [[0u64; BINOM_N]; BINOM_K];
    let mut n = 0;
    while n < BINOM_N {
        t[0][n] = 1;
        let mut k = 1;
        while k < BINOM_K {
            if n > 0 {
                // Saturating: callers check that the ranks they use fit (`rank_space`).
                t[k][n] = t[k - 1][n - 1].saturating_add(t[k][n - 1]);
            }
            k += 1;
        }
        n += 1;
    }
    t
}

/// `BINOM[k][n] = C(n, k)`, saturated at `u64::MAX`.
pub(crate) static BINOM: [[u64; BINOM_N]; BINOM_K] = binom_table();

/// `C(n, k)` as a `u128` (exact for every n < 272, k < 16), for size checks.
#[must_use]
pub(crate) fn binom_exact(n: u64, k: u64) -> u128 {
    if k > n {
        return 0;
    }
    let mut r: u128 = 1;
    for i in 0..k {
        r = r * u128::from(n - i) / u128::from(i + 1);
    }
    r
}

/// The number of positions with at most `seeds` seeds in the 2m houses: `C(seeds + 2m, 2m)`,
/// `None` when it does not fit a `u64` below 2^62 (ranks must stay small enough for the tables).
#[must_use]
pub(crate) fn rank_space(m: usize, seeds: u32) -> Option<u64> {
    let c = binom_exact(u64::from(seeds) + 2 * m as u64, 2 * m as u64);
    if c < (1u128 << 62) {
        Some(c as u64)
    } else {
        None
    }
}

/// The rank of the houses of the mover-relative board `b` of m = `M` houses a row (module
/// docs; the lanes of `board.rs`: the mover's houses in lanes 0..m, the opponent's in lanes
/// m+1..=2m). Only valid when the seeds in the houses are within a checked [`rank_space`].
#[inline(always)]
pub(crate) fn rank<const M: usize>(b: u128) -> u64 {
    // Prefix sums of the bytes by one multiplication each (every prefix sum is at most
    // 255, so no byte carries into the next).
    const ONES: u64 = 0x0101_0101_0101_0101;
    let row = if M == 8 {
        u64::MAX
    } else {
        (1u64 << (8 * M)) - 1
    };
    let own = (b as u64) & row;
    let ps = own.wrapping_mul(ONES);
    let total_own = (ps >> (8 * (M - 1))) & 0xFF;
    let opp = ((b >> (8 * (M + 1))) as u64) & row;
    let ps2 = opp
        .wrapping_mul(ONES)
        .wrapping_add(total_own.wrapping_mul(ONES));
    let mut r = 0u64;
    for i in 0..M {
        let p = ((ps >> (8 * i)) & 0xFF) as usize;
        r = r.wrapping_add(BINOM[i + 1][p + i]);
    }
    for i in 0..M {
        let p = ((ps2 >> (8 * i)) & 0xFF) as usize;
        r = r.wrapping_add(BINOM[M + i + 1][p + M + i]);
    }
    r
}

/// The rank of the first position with `k` seeds in the 2m houses of m = `m`:
/// `C(k+2m−1, 2m)`, the positions with fewer seeds (0 for k = 0).
pub(crate) fn layer_start(m: usize, k: u32) -> u64 {
    if k == 0 {
        0
    } else {
        binom_exact(u64::from(k) + 2 * m as u64 - 1, 2 * m as u64) as u64
    }
}

/// The rank of a mover-relative board of `m` houses a row (the generic-free form of
/// [`rank`]).
pub(crate) fn rank_dyn(m: usize, b: u128) -> u64 {
    let mut r = 0u64;
    let mut p = 0usize;
    for i in 0..2 * m {
        let lane = if i < m { i } else { i + 1 };
        p += ((b >> (8 * lane)) & 0xFF) as usize;
        r = r.wrapping_add(BINOM[i + 1][p + i]);
    }
    r
}

/// Unranks: the 2m parts of the composition of exactly `k` seeds whose rank within its layer
/// is `r` (0-based, `r < C(k+2m−1, 2m−1)`).
pub(crate) fn unrank_layer(m: usize, k: u32, mut r: u64, parts: &mut [u8]) {
    let d = 2 * m;
    // Bars p_0 < … < p_{d−2} in 0..k+d−1, colex rank Σ C(p_i, i+1).
    let mut bars = [0usize; 16];
    let mut hi = k as usize + d - 1;
    for i in (0..d - 1).rev() {
        // Largest p < hi with C(p, i+1) <= r.
        let mut p = hi - 1;
        while BINOM[i + 1][p] > r {
            p -= 1;
        }
        bars[i] = p;
        r -= BINOM[i + 1][p];
        hi = p;
    }
    let mut prev: isize = -1;
    for i in 0..d - 1 {
        parts[i] = (bars[i] as isize - prev - 1) as u8;
        prev = bars[i] as isize;
    }
    parts[d - 1] = (k as isize + d as isize - 2 - prev) as u8;
}

/// The next composition of the same sum in colex rank order (rank + 1); `false` after the last.
#[cfg(test)]
pub(crate) fn next_parts(parts: &mut [u8]) -> bool {
    let d = parts.len();
    let mut j = 1;
    while j < d && parts[j] == 0 {
        j += 1;
    }
    if j == d {
        return false;
    }
    let t = parts[0];
    parts[0] = 0;
    parts[j - 1] = t + 1;
    parts[j] -= 1;
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;

    #[test]
    fn ranks_are_dense_and_successor_matches() {
        // m = 2: 4 parts; every composition of k ≤ 6 seeds gets a distinct rank in order.
        let mut expected = 0u64;
        for k in 0..=6u32 {
            let count = binom_exact(u64::from(k) + 3, 3) as u64;
            let mut parts = [0u8; 4];
            unrank_layer(2, k, 0, &mut parts);
            for i in 0..count {
                let mut p2 = [0u8; 4];
                unrank_layer(2, k, i, &mut p2);
                assert_eq!(parts, p2);
                assert_eq!(parts.iter().map(|&c| u32::from(c)).sum::<u32>(), k);
                assert_eq!(rank::<2>(Geometry::<2>::from_parts(&parts)), expected);
                expected += 1;
                let more = next_parts(&mut parts);
                assert_eq!(more, i + 1 < count);
            }
        }
        assert_eq!(expected, binom_exact(6 + 4, 4) as u64);
    }

    #[test]
    fn rank_space_limits() {
        assert_eq!(rank_space(6, 20), Some(225_792_840));
        assert!(rank_space(7, 98).is_some());
        assert!(rank_space(7, 255).is_none());
    }
}
