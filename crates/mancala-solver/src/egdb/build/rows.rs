//! The positions of a moment level, enumerated as blocks of (own row, opponent's row) pairs:
//! every row of at most K seeds grouped by (seeds, moment) ([`Rows`]), the blocks of one
//! level ([`level_blocks`]) and the walk over them in build order ([`Walk`]), with the rank
//! and the build's *slot* of each position (module docs of `egdb`, "Build").

use crate::rank::BINOM;

/// Every row (the m houses of one player) of at most K seeds, sorted by (seed sum, moment,
/// rank) and grouped by (sum, moment).
///
/// The moment of a row is Σ i·cᵢ (house i counted from 0, the house farthest from the store);
/// the moment of a position is the sum of its two rows' moments.
///
/// The rows of sum a fill the indices `[C(a+m−1, m), C(a+m, m))` of this order, the same
/// range as their own-row ranks `R` (see [`Rows::own_rank`]): the index of a row is a second
/// numbering of the same range, in which every (sum, moment) group is contiguous.
pub(super) struct Rows {
    /// The rows, one house a byte (house i in byte i), in order.
    pub(super) packed: Vec<u64>,
    /// For each row, `R = Σ_{i<m} C(pᵢ, i+1)`: the first m terms of the rank of a position
    /// whose own row it is (crate `board` docs), so the rank of the position (row, empty row).
    pub(super) own_rank: Vec<u64>,
    /// The index of the row of own-row rank R, by R (the inverse of `own_rank`).
    pub(super) index_of: Vec<u32>,
    /// The rows of group g are `start[g]..start[g + 1]`.
    pub(super) start: Vec<usize>,
    /// The group of (sum a, moment 0); the group of (a, μ) is `first[a] + μ`, μ ≤ (m−1)·a.
    pub(super) first: Vec<usize>,
}

impl Rows {
    /// The rows of `m` houses with at most `max_seeds` seeds.
    pub(super) fn new(m: usize, max_seeds: u32) -> Rows {
        let k = max_seeds as usize;
        let mut first = Vec::with_capacity(k + 2);
        let mut groups = 0;
        for a in 0..=k + 1 {
            first.push(groups);
            groups += (m - 1) * a + 1;
        }
        let mut row = [0u8; 8];
        let mut all = Vec::new();
        collect_rows(&mut row[..m], 0, k, &mut all);
        // (group, R, packed row) of every row.
        let mut keyed: Vec<(usize, u64, u64)> = all
            .iter()
            .map(|r| {
                let (mut a, mut mu, mut p, mut rank, mut packed) = (0, 0, 0, 0u64, 0u64);
                for (h, &c) in r[..m].iter().enumerate() {
                    let c = usize::from(c);
                    a += c;
                    mu += h * c;
                    p += c;
                    rank += BINOM[h + 1][p + h];
                    packed |= (c as u64) << (8 * h);
                }
                (first[a] + mu, rank, packed)
            })
            .collect();
        keyed.sort_unstable();
        let mut start = vec![0usize; first[k + 1] + 1];
        for &(g, _, _) in &keyed {
            start[g + 1] += 1;
        }
        for g in 1..start.len() {
            start[g] += start[g - 1];
        }
        let mut index_of = vec![0u32; keyed.len()];
        for (i, &(_, rank, _)) in keyed.iter().enumerate() {
            index_of[rank as usize] = i as u32;
        }
        Rows {
            packed: keyed.iter().map(|x| x.2).collect(),
            own_rank: keyed.iter().map(|x| x.1).collect(),
            index_of,
            start,
            first,
        }
    }

    /// The rows of sum `a` and moment `mu`.
    #[inline]
    pub(super) fn group(&self, a: u32, mu: u32) -> (usize, usize) {
        let g = self.first[a as usize] + mu as usize;
        (self.start[g], self.start[g + 1])
    }
}

/// Appends to `out` every row `row[..i]` followed by the parts of `row[i..]` with at most
/// `left` seeds.
pub(super) fn collect_rows(row: &mut [u8], i: usize, left: usize, out: &mut Vec<[u8; 8]>) {
    if i == row.len() {
        let mut r = [0u8; 8];
        r[..row.len()].copy_from_slice(row);
        out.push(r);
        return;
    }
    for c in 0..=left {
        row[i] = c as u8;
        collect_rows(row, i + 1, left - c, out);
    }
    row[i] = 0;
}

/// The last m terms of the rank of a position whose own row holds `a` seeds and whose
/// opponent's row is `opp` (packed, house i in byte i): `Σ_{i<m} C(a + q_i + m + i, m+i+1)`
/// with `q_i` the prefix sums of `opp`.
#[inline(always)]
pub(super) fn opp_rank<const M: usize>(a: u32, opp: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let ps = opp.wrapping_mul(ONES);
    let mut r = 0u64;
    for i in 0..M {
        let p = ((ps >> (8 * i)) & 0xFF) as usize + a as usize;
        r = r.wrapping_add(BINOM[M + i + 1][p + M + i]);
    }
    r
}

/// Own rows a tile covers: the positions of a block are walked tile by tile, each tile as
/// its opponent's rows outer and its own rows inner.
pub(super) const TILE: usize = 32;

/// A block of one level: every position whose own row is one of `rows.packed[own]` (sum
/// `a`) and whose opponent's row is one of `rows.packed[opp]`.
pub(super) struct Block {
    pub(super) own: (usize, usize),
    pub(super) opp: (usize, usize),
    pub(super) a: u32,
    /// Positions in this block and the blocks before it in the level.
    pub(super) end: u64,
}

/// The positions of a run of blocks, in build order: in a block, tiles of [`TILE`] own rows;
/// in a tile, the opponent's rows outer and the own rows inner.
pub(super) struct Walk<'a, const M: usize> {
    pub(super) rows: &'a Rows,
    pub(super) blocks: &'a [Block],
    /// The current block, the own rows of the current tile, the own row and the opponent's
    /// row.
    pub(super) b: usize,
    pub(super) tile: (usize, usize),
    pub(super) own: usize,
    pub(super) opp: usize,
    /// The opponent's row of the current positions and its rank terms.
    pub(super) opp_row: u64,
    pub(super) opp_rank: u64,
}

impl<'a, const M: usize> Walk<'a, M> {
    /// The walk from the position `at` (0-based) of the level made of `blocks`.
    pub(super) fn new(rows: &'a Rows, blocks: &'a [Block], at: u64) -> Self {
        let b = blocks.partition_point(|x| x.end <= at);
        let blk = &blocks[b];
        let n_own = blk.own.1 - blk.own.0;
        let n_opp = blk.opp.1 - blk.opp.0;
        let before = blk.end - (n_own * n_opp) as u64;
        let off = (at - before) as usize;
        // Every tile but the last is full.
        let t = off / (TILE * n_opp);
        let tile_from = blk.own.0 + t * TILE;
        let tile = (tile_from, (tile_from + TILE).min(blk.own.1));
        let in_tile = off - t * TILE * n_opp;
        let width = tile.1 - tile.0;
        let mut w = Walk {
            rows,
            blocks,
            b,
            tile,
            own: tile.0 + in_tile % width,
            opp: blk.opp.0 + in_tile / width,
            opp_row: 0,
            opp_rank: 0,
        };
        w.load_opp();
        w
    }

    #[inline(always)]
    pub(super) fn load_opp(&mut self) {
        self.opp_row = self.rows.packed[self.opp];
        self.opp_rank = opp_rank::<M>(self.blocks[self.b].a, self.opp_row);
    }

    /// The current position (own row, opponent's row) and its slot, then steps to the next
    /// one (which must exist unless this was the last call).
    #[inline(always)]
    pub(super) fn next(&mut self) -> (u64, u64, u64) {
        let own = self.own;
        let out = (
            self.rows.packed[own],
            self.opp_row,
            own as u64 + self.opp_rank,
        );
        self.own += 1;
        if self.own < self.tile.1 {
            return out;
        }
        self.own = self.tile.0;
        let blk = &self.blocks[self.b];
        self.opp += 1;
        if self.opp == blk.opp.1 {
            self.opp = blk.opp.0;
            self.tile = (self.tile.1, (self.tile.1 + TILE).min(blk.own.1));
            self.own = self.tile.0;
            if self.tile.0 == blk.own.1 {
                self.b += 1;
                if self.b == self.blocks.len() {
                    return out;
                }
                let nb = &self.blocks[self.b];
                self.tile = (nb.own.0, (nb.own.0 + TILE).min(nb.own.1));
                self.own = nb.own.0;
                self.opp = nb.opp.0;
            }
        }
        self.load_opp();
        out
    }
}

/// The own-row terms R of the rank of the position (`own`, `opp`) and its whole rank.
#[inline(always)]
pub(super) fn own_and_rank<const M: usize>(own: u64, opp: u64) -> (usize, u64) {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let ps = own.wrapping_mul(ONES);
    let mut r = 0usize;
    for i in 0..M {
        let p = ((ps >> (8 * i)) & 0xFF) as usize;
        r += BINOM[i + 1][p + i] as usize;
    }
    let t = opp_rank::<M>(((ps >> (8 * (M - 1))) & 0xFF) as u32, opp);
    (r, t)
}

/// The blocks of level `level` (moment) of layer `k` (seeds in the houses).
pub(super) fn level_blocks<const M: usize>(
    rows: &Rows,
    k: u32,
    level: u32,
    blocks: &mut Vec<Block>,
) {
    blocks.clear();
    let w = M as u32 - 1;
    let mut end = 0u64;
    for a in 0..=k {
        let b = k - a;
        let lo = level.saturating_sub(w * b);
        let hi = (w * a).min(level);
        for mu in lo..=hi {
            let own = rows.group(a, mu);
            let opp = rows.group(b, level - mu);
            let n = ((own.1 - own.0) * (opp.1 - opp.0)) as u64;
            if n != 0 {
                end += n;
                blocks.push(Block { own, opp, a, end });
            }
        }
    }
}

/// The rows of sum `a` are `sum_start(a)..sum_start(a + 1)` in [`Rows`] order (and their
/// own-row ranks R fill the same range).
pub(super) fn sum_start(rows: &Rows, a: u32) -> usize {
    rows.start[rows.first[a as usize]]
}
