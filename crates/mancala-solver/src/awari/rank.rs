//! The per-level index: a bijection between `0..level_len(n)` and the boards of n seeds in
//! which the player who has just moved (the mover's opponent) has an empty house (OW-11.1).
//!
//! # The order
//!
//! A board is the pair (mover's row A of a seeds, opponent's row B of m = n − a seeds). B
//! must have an empty house; A is any row. Boards are ordered by m, then by B, then by A:
//!
//! ```text
//! index = base(n, m) + zrank(B) · R(a) + rank(A)
//! R(a)       = C(a+5, 5)                 rows of a seeds
//! Z(m)       = C(m+5, 5) − C(m−1, 5)     rows of m seeds with an empty house
//! base(n, m) = Σ_{m' < m} Z(m') · R(n − m')
//! ```
//!
//! `rank(A)` is the combinatorial number system on the row: with the prefix sums
//! `p_i = A_1 + … + A_{i+1}`, `rank(A) = Σ_{i<5} C(p_i + i, i + 1)`, the colex rank of the
//! 5-subset `{p_i + i}` of `{0 … a+4}` (the same construction as the Kalah databases'
//! ranking, on one row). `zrank(B)` is the colex rank of B minus the number of rows without
//! an empty house that precede B: such a row P agrees with B on the houses above some i + 1,
//! has a smaller prefix sum at i, and is positive everywhere, which needs B's houses i+2..6
//! to be non-empty; the positive prefixes of sum p below B's `p_i` number
//! `Σ_{p < p_i} C(p − 1, i) = C(p_i − 1, i + 1)`, so
//!
//! ```text
//! zrank(B) = Σ_{i<5} C(p_i + i, i + 1)  −  Σ_{i<5, B_{i+2..6} > 0} C(p_i − 1, i + 1).
//! ```
//!
//! Summing, `Σ_m Z(m)·R(n−m) = C(n+11, 11) − C(n+5, 11)` by Vandermonde's identity (the
//! all-positive rows of m seeds are the rows of m − 6), OW-11.1's count.
//!
//! Ranking is arithmetic (a few table reads); unranking inverts each row rank greedily, and
//! sweeps use [`LevelWalk`], which steps to the next index in a few operations.

use super::board::{has_empty, row_sum, zero_lanes, AwariBoard, H, MAX_SEEDS, ONES};

/// `BIN[k][n] = C(n, k)` for n < 64, k < 13.
static BIN: [[u64; 64]; 13] = {
    let mut t = [[0u64; 64]; 13];
    let mut n = 0;
    while n < 64 {
        t[0][n] = 1;
        let mut k = 1;
        while k < 13 {
            if n > 0 {
                t[k][n] = t[k - 1][n - 1] + t[k][n - 1];
            }
            k += 1;
        }
        n += 1;
    }
    t
};

/// `C(n, k)`, 0 when `n < 0` (n < 64, k < 13).
#[inline(always)]
fn c(n: i64, k: usize) -> u64 {
    if n < 0 {
        0
    } else {
        BIN[k][n as usize]
    }
}

/// Rows of six houses holding `a` seeds: `C(a+5, 5)`.
#[inline(always)]
pub(crate) fn rows(a: u32) -> u64 {
    BIN[5][a as usize + 5]
}

/// Rows of six houses holding `m` seeds with at least one empty house: `C(m+5,5) − C(m−1,5)`.
#[cfg(test)]
fn zero_rows(m: u32) -> u64 {
    rows(m) - c(i64::from(m) - 1, 5)
}

/// `BASE[n][m] = Σ_{m' < m} Z(m') · R(n − m')`, for m ≤ n + 1 (BASE[n][n+1] is the level's
/// size).
static BASE: [[u64; 50]; 49] = {
    let mut t = [[0u64; 50]; 49];
    let mut n = 0;
    while n < 49 {
        let mut m = 0;
        while m <= n {
            let z = BIN[5][m + 5] - if m >= 1 { BIN[5][m - 1] } else { 0 };
            t[n][m + 1] = t[n][m] + z * BIN[5][n - m + 5];
            m += 1;
        }
        n += 1;
    }
    t
};

/// The number of indexed boards of n seeds (OW-11.1: `C(n+11, 11) − C(n+5, 11)`), `None`
/// above [`MAX_SEEDS`].
#[must_use]
pub fn level_len(n: u32) -> Option<u64> {
    (n <= MAX_SEEDS).then(|| BASE[n as usize][n as usize + 1])
}

/// The memory, bytes, of a build of the levels 0..=`max_seeds` one byte a board: the values
/// (one byte a board of every level, [`entries_to`](super::entries_to)) and the work space
/// of the top level (about four bytes a board of it).
pub(crate) fn byte_build_memory(max_seeds: u32) -> u64 {
    super::entries_to(max_seeds) + 4 * level_len(max_seeds).unwrap_or(0)
}

/// The first index of the boards whose opponent's row holds `m` seeds, in level `n`.
#[inline(always)]
pub(crate) fn base(n: u32, m: u32) -> u64 {
    BASE[n as usize][m as usize]
}

/// The colex rank of a row among the rows of its seeds.
#[inline(always)]
pub(crate) fn row_rank(row: u64) -> u64 {
    let ps = row.wrapping_mul(ONES);
    let mut r = 0;
    for i in 0..5 {
        let p = ((ps >> (8 * i)) & 0xFF) as usize;
        r += BIN[i + 1][p + i];
    }
    r
}

/// The rank of a row with an empty house among the rows of its seeds with an empty house.
#[inline(always)]
pub(crate) fn zero_row_rank(row: u64) -> u64 {
    let ps = row.wrapping_mul(ONES);
    // Houses 2..=5 (0-based) that are empty: the terms i ≥ (highest such house) − 1 remain.
    let z = zero_lanes(row) & 0x0000_8080_8080_0000;
    let from = if z == 0 {
        0
    } else {
        (63 - z.leading_zeros() as usize) / 8 - 1
    };
    let mut r = 0;
    for i in 0..5 {
        let p = ((ps >> (8 * i)) & 0xFF) as usize;
        r += BIN[i + 1][p + i];
        if i >= from && p > 0 {
            r -= BIN[i + 1][p - 1];
        }
    }
    r
}

/// The index of the board (`mover`, `opp`) of `n` seeds in its level; `opp` must have an
/// empty house.
#[inline(always)]
pub(crate) fn rank_rows(n: u32, mover: u64, opp: u64) -> u64 {
    let m = row_sum(opp);
    debug_assert!(has_empty(opp) && row_sum(mover) + m == n);
    base(n, m) + zero_row_rank(opp) * rows(n - m) + row_rank(mover)
}

/// The index of a board in its level (the level is its seed count), `None` when the board
/// is not indexed (its opponent's row has no empty house, OW-11.1).
#[must_use]
pub fn rank(board: &AwariBoard) -> Option<u64> {
    let (own, opp) = board.rows();
    has_empty(opp).then(|| rank_rows(board.seeds(), own, opp))
}

/// The row of `a` seeds of colex rank `r` (< `rows(a)`).
pub(crate) fn row_unrank(a: u32, mut r: u64) -> u64 {
    // Greedy: the largest c_i = p_i + i with C(c_i, i+1) ≤ r, from i = 4 down.
    let mut p = [0u32; 5];
    let mut hi = a as usize + 4;
    for i in (0..5).rev() {
        let mut ci = hi;
        while BIN[i + 1][ci] > r {
            ci -= 1;
        }
        r -= BIN[i + 1][ci];
        p[i] = (ci - i) as u32;
        hi = ci.saturating_sub(1);
    }
    let mut row = 0u64;
    let mut prev = 0;
    for (i, &pi) in p.iter().enumerate() {
        row |= u64::from(pi - prev) << (8 * i);
        prev = pi;
    }
    row | (u64::from(a - prev) << 40)
}

/// Compositions of `s` seeds into `k` houses, with at least one empty house when `need`.
fn count(k: u32, s: u32, need: bool) -> u64 {
    let all = c(i64::from(s + k) - 1, k as usize - 1);
    if !need {
        return all;
    }
    // Positive compositions: C(s−1, k−1) for s ≥ 1.
    all - if s == 0 {
        0
    } else {
        c(i64::from(s) - 1, k as usize - 1)
    }
}

/// The row of `m` seeds with an empty house of rank `r` (< `zero_rows(m)`).
pub(crate) fn zero_row_unrank(m: u32, mut r: u64) -> u64 {
    // Colex order: by p_4 = m − B_6 ascending, then by the first five houses in their own
    // colex order, recursively (house 6 down to house 1).
    let mut row = 0u64;
    let mut left = m;
    let mut need = true;
    for k in (2..=H as u32).rev() {
        // The top house of the first k houses holds left − p, p = the seeds below it.
        let mut p = 0;
        loop {
            let top = left - p;
            let n = count(k - 1, p, need && top != 0);
            if r < n {
                row |= u64::from(top) << (8 * (k - 1));
                need = need && top != 0;
                left = p;
                break;
            }
            r -= n;
            p += 1;
        }
    }
    debug_assert!(r == 0 && !(need && left != 0));
    row | u64::from(left)
}

/// The board of level `n` at index `r`, `None` when `n` > [`MAX_SEEDS`] or
/// `r ≥ level_len(n)`.
#[must_use]
pub fn unrank(n: u32, r: u64) -> Option<AwariBoard> {
    let w = LevelWalk::at(n, r)?;
    Some(AwariBoard::from_rows(w.mover, w.opp))
}

/// A walk through a level in index order: the board at the current index as two rows, and
/// [`LevelWalk::advance`] to the next one (a few operations: the next row in colex order).
#[derive(Clone, Debug)]
pub struct LevelWalk {
    n: u32,
    m: u32,
    /// The current index.
    index: u64,
    /// The mover's row (six lanes).
    pub(crate) mover: u64,
    /// The opponent's row (six lanes, an empty house).
    pub(crate) opp: u64,
}

/// The next row after `row` in colex order among the rows of its seeds, `None` after the
/// last ((a, 0, 0, 0, 0, 0)).
#[inline(always)]
pub(crate) fn next_row(row: u64) -> Option<u64> {
    // The smallest j with house j+1 non-empty: house j gets p_j + 1, houses below it 0,
    // house j+1 one seed less.
    let nz = !zero_lanes(row) & HIGH_1_5;
    if nz == 0 {
        return None;
    }
    let j1 = (nz.trailing_zeros() / 8) as usize;
    let j = j1 - 1;
    let below = (1u64 << (8 * j + 8)) - 1;
    let pj = row_sum(row & below) as u64;
    Some((row & !below) + ((pj + 1) << (8 * j)) - (1u64 << (8 * j1)))
}

/// Every row of at most `max` seeds, by seeds and in colex order: the mover's row of index
/// `ar` among the rows of `a` seeds is one table read (scans jump to any index of a block of
/// one opponent's row without stepping through the boards before it).
pub(crate) struct RowTable {
    /// Rows of `a` seeds are `rows[start[a]..start[a + 1]]`.
    start: Vec<usize>,
    rows: Vec<u64>,
}

impl RowTable {
    /// The rows of at most `max` seeds: `C(max + 6, 6)` words (15.6 MB for 30 seeds).
    pub(crate) fn new(max: u32) -> RowTable {
        let mut start = vec![0];
        let mut table = Vec::new();
        for a in 0..=max {
            let mut row = first_row(a);
            loop {
                table.push(row);
                match next_row(row) {
                    Some(r) => row = r,
                    None => break,
                }
            }
            start.push(table.len());
        }
        RowTable { start, rows: table }
    }

    /// The row of `a` seeds of colex rank `ar`.
    #[inline(always)]
    pub(crate) fn get(&self, a: u32, ar: u64) -> u64 {
        self.rows[self.start[a as usize] + ar as usize]
    }
}

/// The boards of one opponent's row in a level: indices `start..end`, the mover's row of
/// index i being the row of rank `i − start` among the rows of `a` seeds.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Block {
    pub(crate) start: u64,
    pub(crate) end: u64,
    pub(crate) a: u32,
    pub(crate) opp: u64,
}

impl Block {
    /// The block after this one in level `n` (which must not be the last).
    #[inline]
    pub(crate) fn next(self, n: u32) -> Block {
        let m = n - self.a;
        let mut opp = self.opp;
        let (a, opp) = loop {
            match next_row(opp) {
                Some(o) if has_empty(o) => break (self.a, o),
                Some(o) => opp = o,
                None => break (self.a - 1, first_zero_row(m + 1)),
            }
        };
        let ra = rows(a);
        Block {
            start: self.end,
            end: self.end + ra,
            a,
            opp,
        }
    }

    /// The block of index `r` of level `n` (`r` < the level's size).
    pub(crate) fn of(n: u32, r: u64) -> Block {
        let mut m = 0;
        while base(n, m + 1) <= r {
            m += 1;
        }
        let a = n - m;
        let ra = rows(a);
        let zr = (r - base(n, m)) / ra;
        let start = base(n, m) + zr * ra;
        Block {
            start,
            end: start + ra,
            a,
            opp: zero_row_unrank(m, zr),
        }
    }
}

/// Bit 7 of lanes 1..=5.
const HIGH_1_5: u64 = 0x0000_8080_8080_8000;

/// The first row of `a` seeds in colex order: every seed in house 6.
#[inline(always)]
pub(crate) fn first_row(a: u32) -> u64 {
    u64::from(a) << 40
}

/// The first row of `m` seeds with an empty house.
#[inline(always)]
fn first_zero_row(m: u32) -> u64 {
    first_row(m) // (0, 0, 0, 0, 0, m) has an empty house
}

impl LevelWalk {
    /// The walk at index `r` of level `n`, `None` when `n` > [`MAX_SEEDS`] or `r` is past
    /// the level.
    #[must_use]
    pub fn at(n: u32, r: u64) -> Option<LevelWalk> {
        if r >= level_len(n)? {
            return None;
        }
        let mut m = 0;
        while base(n, m + 1) <= r {
            m += 1;
        }
        let q = r - base(n, m);
        let ra = rows(n - m);
        Some(LevelWalk {
            n,
            m,
            index: r,
            mover: row_unrank(n - m, q % ra),
            opp: zero_row_unrank(m, q / ra),
        })
    }

    /// The current index.
    #[must_use]
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The board at the current index.
    #[must_use]
    pub fn board(&self) -> AwariBoard {
        AwariBoard::from_rows(self.mover, self.opp)
    }

    /// Steps to the next index; `false` (and the walk unchanged) at the level's last board.
    #[inline]
    pub fn advance(&mut self) -> bool {
        if let Some(next) = next_row(self.mover) {
            self.mover = next;
        } else {
            let mut opp = self.opp;
            loop {
                match next_row(opp) {
                    Some(o) if has_empty(o) => {
                        self.opp = o;
                        break;
                    }
                    Some(o) => opp = o,
                    None => {
                        if self.m == self.n {
                            return false;
                        }
                        self.m += 1;
                        self.opp = first_zero_row(self.m);
                        break;
                    }
                }
            }
            self.mover = first_row(self.n - self.m);
        }
        self.index += 1;
        true
    }
}

/// The house counts of a row, for test messages.
#[cfg(test)]
fn row_houses(row: u64) -> [u32; H] {
    std::array::from_fn(|i| super::board::lane(row, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn exact_binom(n: u64, k: u64) -> u128 {
        if k > n {
            return 0;
        }
        (0..k).fold(1u128, |r, i| r * u128::from(n - i) / u128::from(i + 1))
    }

    /// OW-11.1: the level sizes are C(n+11,11) − C(n+5,11), and Romein and Bal's total.
    #[test]
    fn level_sizes_match_formula_and_total() {
        let mut total: u128 = 1;
        for n in 0..=MAX_SEEDS {
            let f = exact_binom(u64::from(n) + 11, 11) - exact_binom(u64::from(n) + 5, 11);
            assert_eq!(u128::from(level_len(n).unwrap()), f, "level {n}");
            if n != 47 {
                total += f;
            }
        }
        assert_eq!(total, 889_063_398_406);
        assert_eq!(level_len(49), None);
    }

    #[test]
    fn row_rank_and_unrank_are_inverse() {
        for a in 0..=20 {
            let mut row = first_row(a);
            let mut r = 0;
            loop {
                assert_eq!(row_sum(row), a);
                assert_eq!(row_rank(row), r);
                assert_eq!(row_unrank(a, r), row);
                r += 1;
                match next_row(row) {
                    Some(x) => row = x,
                    None => break,
                }
            }
            assert_eq!(r, rows(a));
        }
    }

    #[test]
    fn zero_row_rank_counts_rows_with_an_empty_house() {
        for m in 0..=24 {
            let mut row = first_row(m);
            let mut zr = 0;
            loop {
                if has_empty(row) {
                    assert_eq!(zero_row_rank(row), zr, "row {:?}", row_houses(row));
                    assert_eq!(zero_row_unrank(m, zr), row);
                    zr += 1;
                }
                match next_row(row) {
                    Some(x) => row = x,
                    None => break,
                }
            }
            assert_eq!(zr, zero_rows(m));
        }
    }

    #[test]
    fn blocks_step_and_match_the_walk() {
        for n in 0..=14 {
            let len = level_len(n).unwrap();
            let table = RowTable::new(n);
            let mut b = Block::of(n, 0);
            let mut w = LevelWalk::at(n, 0).unwrap();
            for i in 0..len {
                if i == b.end {
                    b = b.next(n);
                    assert_eq!(b.start, Block::of(n, i).start);
                }
                assert_eq!((table.get(b.a, i - b.start), b.opp), (w.mover, w.opp));
                w.advance();
            }
            assert_eq!(b.end, len);
        }
    }
}
