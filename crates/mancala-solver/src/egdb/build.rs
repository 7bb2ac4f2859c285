//! The parallel build, layer by layer and, inside a layer, moment level by moment level
//! (algorithm and proof in the module docs of `egdb`).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};

use mancala_core::kalah::{KalahOptions, KalahRules};
use rayon::prelude::*;

use super::packed::{read_word_code, write_run, Codec, PAD};
use super::{check_size, relevant_options, Egdb, EgdbError, Encoding};
use crate::board::Flags;
use crate::mem::{prefetch, prefetch_ptr, FrozenBytes, OutOfMemory, ZeroedBuf};
use crate::progress::BuildProgress;
use crate::rank::{binom_exact, layer_start, rank_space, BINOM};

/// Not computed yet: the entry of value v is the byte v + 128 (excess-128), and no value is
/// −128 because |v| ≤ K ≤ 127. Only debug builds look at it: the order of the build makes
/// every entry a position reads final before it is read.
const UNKNOWN: u8 = 0;
/// Positions a work item covers (the last item of a level may be smaller).
const CHUNK: u64 = 1 << 12;
/// Positions prepared ahead.
const AHEAD: usize = 8;

#[inline(always)]
fn encode(v: i8) -> u8 {
    (i32::from(v) + 128) as u8
}

/// Every row (the m houses of one player) of at most K seeds, sorted by (seed sum, moment,
/// rank) and grouped by (sum, moment).
///
/// The moment of a row is Σ i·cᵢ (house i counted from 0, the house farthest from the store);
/// the moment of a position is the sum of its two rows' moments.
///
/// The rows of sum a fill the indices `[C(a+m−1, m), C(a+m, m))` of this order, the same
/// range as their own-row ranks `R` (see [`Rows::own_rank`]): the index of a row is a second
/// numbering of the same range, in which every (sum, moment) group is contiguous.
struct Rows {
    /// The rows, one house a byte (house i in byte i), in order.
    packed: Vec<u64>,
    /// For each row, `R = Σ_{i<m} C(pᵢ, i+1)`: the first m terms of the rank of a position
    /// whose own row it is (crate `board` docs), so the rank of the position (row, empty row).
    own_rank: Vec<u64>,
    /// The index of the row of own-row rank R, by R (the inverse of `own_rank`).
    index_of: Vec<u32>,
    /// The rows of group g are `start[g]..start[g + 1]`.
    start: Vec<usize>,
    /// The group of (sum a, moment 0); the group of (a, μ) is `first[a] + μ`, μ ≤ (m−1)·a.
    first: Vec<usize>,
}

impl Rows {
    /// The rows of `m` houses with at most `max_seeds` seeds.
    fn new(m: usize, max_seeds: u32) -> Rows {
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
    fn group(&self, a: u32, mu: u32) -> (usize, usize) {
        let g = self.first[a as usize] + mu as usize;
        (self.start[g], self.start[g + 1])
    }
}

/// Appends to `out` every row `row[..i]` followed by the parts of `row[i..]` with at most
/// `left` seeds.
fn collect_rows(row: &mut [u8], i: usize, left: usize, out: &mut Vec<[u8; 8]>) {
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
fn opp_rank<const M: usize>(a: u32, opp: u64) -> u64 {
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
const TILE: usize = 32;

/// A block of one level: every position whose own row is one of `rows.packed[own]` (sum
/// `a`) and whose opponent's row is one of `rows.packed[opp]`.
struct Block {
    own: (usize, usize),
    opp: (usize, usize),
    a: u32,
    /// Positions in this block and the blocks before it in the level.
    end: u64,
}

/// The positions of a run of blocks, in build order: in a block, tiles of [`TILE`] own rows;
/// in a tile, the opponent's rows outer and the own rows inner.
struct Walk<'a, const M: usize> {
    rows: &'a Rows,
    blocks: &'a [Block],
    /// The current block, the own rows of the current tile, the own row and the opponent's
    /// row.
    b: usize,
    tile: (usize, usize),
    own: usize,
    opp: usize,
    /// The opponent's row of the current positions and its rank terms.
    opp_row: u64,
    opp_rank: u64,
}

impl<'a, const M: usize> Walk<'a, M> {
    /// The walk from the position `at` (0-based) of the level made of `blocks`.
    fn new(rows: &'a Rows, blocks: &'a [Block], at: u64) -> Self {
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
    fn load_opp(&mut self) {
        self.opp_row = self.rows.packed[self.opp];
        self.opp_rank = opp_rank::<M>(self.blocks[self.b].a, self.opp_row);
    }

    /// The current position (own row, opponent's row) and its slot, then steps to the next
    /// one (which must exist unless this was the last call).
    #[inline(always)]
    fn next(&mut self) -> (u64, u64, u64) {
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

/// The move generator of the build, on the two rows as separate words (house i of a row in
/// byte i): the rules of [`crate::board::Geometry::play`] (a test compares the two on every
/// option set) without 128-bit shifts and without the flip of the rows. The other Kalah
/// sowing kernels are the core's `KalahPosition::sow_unchecked` and the solver's
/// [`crate::board::Geometry`] (whose docs list all three and the tests between them).
struct Sow<const M: usize> {
    /// Added to the own row, the opponent's row and the store by r < 2m+1 seeds from house h.
    own_add: [[u64; 16]; M],
    opp_add: [[u64; 16]; M],
    store_add: [[u8; 16]; M],
    /// The lane of the last seed of r seeds from house h: own house, m the store, m+1+i the
    /// opponent's house i.
    last: [[u8; 16]; M],
    flags: Flags,
}

/// One seed in each of the m bytes of a row.
const fn ones(m: usize) -> u64 {
    0x0101_0101_0101_0101 >> (8 * (8 - m))
}

/// The seeds of a row.
#[inline(always)]
fn row_sum(row: u64) -> u32 {
    (row.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
}

impl<const M: usize> Sow<M> {
    /// The tables for these rule flags.
    fn new(flags: Flags) -> Self {
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
    fn play(&self, own: u64, opp: u64, h: usize) -> (u64, u64, i32, i32) {
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

/// The own-row terms R of the rank of the position (`own`, `opp`) and its whole rank.
#[inline(always)]
fn own_and_rank<const M: usize>(own: u64, opp: u64) -> (usize, u64) {
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

/// Where the build keeps the entries: the finished layers in rank order with their final
/// values, and the layer under construction.
trait Target: Sync {
    /// Whether the layer under construction lives apart from the finished ones: its
    /// entries are then indexed from its first slot (`slot − start`), else by the slot
    /// itself (the whole database's buffer).
    const APART: bool;
    /// Whether the finished layers are in rank order (else in slot order, as the layer
    /// under construction: then a child below the layer is read at its slot).
    const RANKED: bool;
    /// The memory of layer `k` (ranks `start..end`) while it is computed, in slot order
    /// (entry `slot − start`), zeroed.
    fn layer(&self, k: u32, start: u64, end: u64) -> Result<Layer<'_>, OutOfMemory>;
    /// The value of an in-layer child: the entry `index` of the layer being computed
    /// (`layer`, indexed from its first slot when [`Target::APART`], else by the slot).
    fn value_in(&self, layer: &[AtomicU8], index: u64) -> i32;
    /// The value of the finished entry of rank `rank`, whose position has `seeds` seeds in
    /// its houses (a layer below the one being computed).
    fn value_below(&self, rank: u64, seeds: u32) -> i32;
    /// Hints the cache, as [`Target::value_below`] will be asked.
    fn prefetch_below(&self, rank: u64);
    /// Hints the cache, as [`Target::value_in`] (`in_layer`) or [`Target::value_below`] will
    /// be asked, without a branch.
    fn prefetch_either(&self, layer: &[AtomicU8], in_layer: bool, index: u64, rank: u64);
    /// Layer `k` is complete in `layer` (slot order): it becomes a finished layer.
    fn finish_layer<const M: usize>(&self, rows: &Rows, k: u32, start: u64, layer: Layer<'_>);
}

/// The memory of the layer under construction: part of the whole database's bytes, or a
/// buffer of its own.
enum Layer<'a> {
    Borrowed(&'a [AtomicU8]),
    Owned(ZeroedBuf<AtomicU8>),
}

impl Layer<'_> {
    fn as_slice(&self) -> &[AtomicU8] {
        match self {
            Layer::Borrowed(s) => s,
            Layer::Owned(b) => b.as_slice(),
        }
    }
}

/// One byte an entry (excess-128), the whole database in one buffer: layer k is built in
/// place in slot order. With `RANKED` ([`Egdb::build`](super::Egdb::build)) a layer is then put
/// in rank order in place ([`layer_to_rank_order`]) and the children below the layer are read
/// by rank; without it ([`LevelBuild`], whose checkpoints hold the layers in slot order) every
/// layer stays in slot order, the children are read by slot, and the whole buffer is put in
/// rank order at the end.
struct Bytes<'a, const RANKED: bool> {
    data: &'a [AtomicU8],
}

impl<const RANKED: bool> Target for Bytes<'_, RANKED> {
    const APART: bool = false;
    const RANKED: bool = RANKED;

    fn layer(&self, _k: u32, start: u64, end: u64) -> Result<Layer<'_>, OutOfMemory> {
        Ok(Layer::Borrowed(&self.data[start as usize..end as usize]))
    }

    // Slots of this layer and ranks of the finished ones index the same buffer.
    #[inline(always)]
    fn value_in(&self, _layer: &[AtomicU8], index: u64) -> i32 {
        self.value_below(index, 0)
    }

    #[inline(always)]
    fn value_below(&self, rank: u64, _seeds: u32) -> i32 {
        let v = self.data[rank as usize].load(Ordering::Relaxed);
        debug_assert_ne!(v, UNKNOWN, "entry {rank} read before it was computed");
        i32::from(v) - 128
    }

    #[inline(always)]
    fn prefetch_below(&self, rank: u64) {
        prefetch(&self.data[rank as usize]);
    }

    #[inline(always)]
    fn prefetch_either(&self, _layer: &[AtomicU8], in_layer: bool, index: u64, rank: u64) {
        self.prefetch_below(if in_layer { index } else { rank });
    }

    fn finish_layer<const M: usize>(&self, rows: &Rows, k: u32, _start: u64, layer: Layer<'_>) {
        if RANKED {
            layer_to_rank_order::<M>(rows, k, self.data);
        }
        drop(layer);
    }
}

/// The packed encoding: the finished layers as a packed bit stream (rank order, final
/// codes), the layer under construction one byte an entry in a buffer of its own, packed
/// into the stream when it is complete ([`pack_layer`]).
struct Packed<'a> {
    words: &'a [AtomicU64],
    codec: &'a Codec,
}

impl Target for Packed<'_> {
    const APART: bool = true;
    const RANKED: bool = true;

    fn layer(&self, _k: u32, start: u64, end: u64) -> Result<Layer<'_>, OutOfMemory> {
        Ok(Layer::Owned(ZeroedBuf::new((end - start) as usize)?))
    }

    #[inline(always)]
    fn value_in(&self, layer: &[AtomicU8], index: u64) -> i32 {
        let v = layer[index as usize].load(Ordering::Relaxed);
        debug_assert_ne!(v, UNKNOWN, "slot {index} read before it was computed");
        i32::from(v) - 128
    }

    #[inline(always)]
    fn value_below(&self, rank: u64, seeds: u32) -> i32 {
        let c = read_word_code(self.words, self.codec.width(), rank);
        self.codec.decode(seeds, c)
    }

    #[inline(always)]
    fn prefetch_below(&self, rank: u64) {
        let bit = rank * u64::from(self.codec.width());
        prefetch(&self.words[(bit >> 6) as usize]);
    }

    #[inline(always)]
    fn prefetch_either(&self, layer: &[AtomicU8], in_layer: bool, index: u64, rank: u64) {
        let word = (rank * u64::from(self.codec.width())) >> 6;
        let a = layer.as_ptr().wrapping_add(index as usize).cast::<u8>();
        let b = self.words.as_ptr().wrapping_add(word as usize).cast::<u8>();
        prefetch_ptr(if in_layer { a } else { b });
    }

    fn finish_layer<const M: usize>(&self, rows: &Rows, k: u32, start: u64, layer: Layer<'_>) {
        pack_layer::<M>(rows, k, start, layer.as_slice(), self.words, self.codec);
    }
}

/// The entries during the build, in *slot* order: the rank order with, inside every window
/// of the positions that share the opponent's row and the own row's seed count, the own rows
/// in [`Rows`] order instead of rank order. The slot of a position is `index(own row) +
/// T(a, opponent's row)` where its rank is `R(own row) + T(a, opponent's row)`. In that order
/// the positions of one (sum, moment) group of own rows with one opponent's row are
/// contiguous, and so are the children reached by one in-layer move of one own row from a
/// group of opponent's rows: the build reads and writes whole cache lines. Only the layer
/// under construction is in slot order (its entry `slot − start`); when it is complete, the
/// [`Target`] puts it in rank order, and the children in the layers below are read by rank.
struct Builder<'a, const M: usize, T: Target> {
    sow: &'a Sow<M>,
    rows: &'a Rows,
    target: &'a T,
    /// The layer under construction, in slot order from its first entry.
    layer: &'a [AtomicU8],
    /// Its seed count and the rank of its first position.
    k: u32,
    start: u64,
}

/// A position prepared ahead of its evaluation: its slot and, for every move, what the
/// child's value is made of, with the child's entry already requested from memory (software
/// pipelining hides the memory latency). The children are sorted by where their entries
/// are, so that evaluating them takes no decision per child.
#[derive(Clone, Copy)]
struct Pre {
    slot: u64,
    /// Whether the position has a move (else it is a finished game, value 0).
    moves: bool,
    /// The best gain of the moves that end the game (`i32::MIN` when none does).
    over: i32,
    n_in: u8,
    n_below: u8,
    /// The in-layer children (no seed stored, the turn passes: value −v) when
    /// [`Target::APART`]: their slots less the layer's start.
    kids_in: [u64; 7],
    /// The children in lower layers: (rank, gain, +1 for an extra turn or −1 when the turn
    /// passes, seeds in the houses); when not [`Target::APART`], the in-layer children too,
    /// at their slots.
    kids_below: [(u64, i32, i32, u32); 7],
}

const EMPTY_PRE: Pre = Pre {
    slot: 0,
    moves: false,
    over: i32::MIN,
    n_in: 0,
    n_below: 0,
    kids_in: [0; 7],
    kids_below: [(0, 0, 0, 0); 7],
};

impl<const M: usize, T: Target> Builder<'_, M, T> {
    /// Prepares the position (`own`, `opp`) of slot `slot` into `pre`, in place.
    #[inline(always)]
    fn prepare(&self, own: u64, opp: u64, slot: u64, pre: &mut Pre) {
        pre.slot = slot;
        pre.n_in = 0;
        pre.n_below = 0;
        pre.over = i32::MIN;
        pre.moves = !self.sow.flags.finished(own == 0, opp == 0);
        if !pre.moves {
            return;
        }
        // Bit h set for every non-empty house h.
        let mut x = own;
        x |= x >> 4;
        x |= x >> 2;
        x |= x >> 1;
        x &= 0x0101_0101_0101_0101;
        let mut mask = (x.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
        while mask != 0 {
            let h = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let (c_own, c_opp, gain, sign) = self.sow.play(own, opp, h);
            // A child that keeps every seed in the houses (no seed stored, the game goes
            // on) is in this layer, at its slot; one that stores `gain` seeds has k − gain,
            // at its rank. Which one is chosen without a branch: the choice is as good as
            // random, and a mispredicted branch costs more than computing both.
            let over = sign == 0;
            let in_layer = !over && gain == 0;
            debug_assert!(!in_layer || sign == -1, "an in-layer move passes the turn");
            pre.over = pre.over.max(if over { gain } else { i32::MIN });
            let (r, t) = own_and_rank::<M>(c_own, c_opp);
            let slot = u64::from(self.rows.index_of[r]) + t;
            let rank = r as u64 + t;
            if T::APART {
                let index = slot.wrapping_sub(self.start);
                self.target
                    .prefetch_either(self.layer, in_layer, index, rank);
                let seeds = self.k.wrapping_sub(gain as u32);
                pre.kids_in[pre.n_in as usize] = index;
                pre.kids_below[pre.n_below as usize] = (rank, gain, sign, seeds);
                pre.n_in += u8::from(in_layer);
                pre.n_below += u8::from(!over && !in_layer);
            } else {
                // One buffer: an in-layer child is read like the others, at its slot, and so
                // is a child below the layer when the finished layers are in slot order.
                let index = if in_layer || !T::RANKED { slot } else { rank };
                self.target.prefetch_below(index);
                pre.kids_below[pre.n_below as usize] = (index, gain, sign, 0);
                pre.n_below += u8::from(!over);
            }
        }
    }

    /// The value of a prepared position (0 for a finished game, which has no move), from
    /// its children's final entries.
    #[inline(always)]
    fn finish(&self, pre: &Pre) -> i8 {
        if !pre.moves {
            return 0;
        }
        let mut best = pre.over;
        for &index in &pre.kids_in[..pre.n_in as usize] {
            best = best.max(-self.target.value_in(self.layer, index));
        }
        for &(rank, gain, sign, seeds) in &pre.kids_below[..pre.n_below as usize] {
            best = best.max(gain + sign * self.target.value_below(rank, seeds));
        }
        best as i8
    }

    /// Computes the positions `from..to` of the level made of `blocks`.
    fn run_chunk(&self, blocks: &[Block], from: u64, to: u64) {
        let mut walk = Walk::<M>::new(self.rows, blocks, from);
        // Software pipeline: position i is evaluated while the entries of positions
        // i+1..i+AHEAD are on their way from memory.
        let mut ring = [EMPTY_PRE; AHEAD];
        let count = (to - from) as usize;
        for pre in ring.iter_mut().take(count) {
            let (own, opp, slot) = walk.next();
            self.prepare(own, opp, slot, pre);
        }
        for i in 0..count {
            let at = i % AHEAD;
            let v = self.finish(&ring[at]);
            let entry = &self.layer[(ring[at].slot - self.start) as usize];
            debug_assert_eq!(entry.load(Ordering::Relaxed), UNKNOWN);
            entry.store(encode(v), Ordering::Relaxed);
            if i + AHEAD < count {
                let (own, opp, slot) = walk.next();
                self.prepare(own, opp, slot, &mut ring[at]);
            }
        }
    }
}

/// The blocks of level `level` (moment) of layer `k` (seeds in the houses).
fn level_blocks<const M: usize>(rows: &Rows, k: u32, level: u32, blocks: &mut Vec<Block>) {
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
fn sum_start(rows: &Rows, a: u32) -> usize {
    rows.start[rows.first[a as usize]]
}

/// Puts layer `k` of `data` (the whole database, one byte an entry) from slot order (see
/// [`Builder`]) into rank order, in place: in every window of the positions with opponent's
/// row `y` (b seeds) and a = k − b seeds in the own row, the entry of the own row of index i
/// moves from slot `i + T(a, y)` to rank `R_i + T(a, y)`.
fn layer_to_rank_order<const M: usize>(rows: &Rows, k: u32, data: &[AtomicU8]) {
    (0..sum_start(rows, k + 1))
        .into_par_iter()
        .with_min_len(64)
        .for_each_init(Vec::new, |tmp: &mut Vec<u8>, y| {
            let opp = rows.packed[y];
            let a = k - row_sum(opp);
            let t = opp_rank::<M>(a, opp) as usize;
            let (lo, hi) = (sum_start(rows, a), sum_start(rows, a + 1));
            tmp.clear();
            tmp.extend(
                data[t + lo..t + hi]
                    .iter()
                    .map(|x| x.load(Ordering::Relaxed)),
            );
            for (i, &v) in tmp.iter().enumerate() {
                data[t + rows.own_rank[lo + i] as usize].store(v, Ordering::Relaxed);
            }
        });
}

/// Packs layer `k` (ranks from `start`), one byte an entry in slot order in `layer`, into the
/// packed stream `words` in rank order: the window of opponent's row `y` and a own seeds
/// fills ranks `T(a, y) + R` for the own-row ranks R of sum a, the entry of rank `T + R`
/// coming from slot `T + index(R)`.
fn pack_layer<const M: usize>(
    rows: &Rows,
    k: u32,
    start: u64,
    layer: &[AtomicU8],
    words: &[AtomicU64],
    codec: &Codec,
) {
    (0..sum_start(rows, k + 1))
        .into_par_iter()
        .with_min_len(64)
        .for_each(|y| {
            let opp = rows.packed[y];
            let a = k - row_sum(opp);
            let t = opp_rank::<M>(a, opp);
            let (lo, hi) = (sum_start(rows, a), sum_start(rows, a + 1));
            let codes = (lo..hi).map(|r| {
                let slot = t + u64::from(rows.index_of[r]);
                let e = layer[(slot - start) as usize].load(Ordering::Relaxed);
                debug_assert_ne!(e, UNKNOWN);
                codec.encode(k, i32::from(e) - 128)
            });
            write_run(words, codec.width(), t + lo as u64, codes);
        });
}

/// Builds every layer into `target`; `false` when cancelled.
fn run<const M: usize, T: Target>(
    flags: Flags,
    max_seeds: u32,
    target: &T,
    chunk: u64,
    progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    cancel: Option<&AtomicBool>,
) -> Result<bool, OutOfMemory> {
    let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
    let rows = Rows::new(M, max_seeds);
    let sow = Sow::<M>::new(flags);
    let total = layer_start(M, max_seeds + 1);
    let done = AtomicU64::new(0);
    let mut blocks = Vec::new();
    for k in 0..=max_seeds {
        let (start, end) = (layer_start(M, k), layer_start(M, k + 1));
        let layer = target.layer(k, start, end)?;
        let builder = Builder::<M, T> {
            sow: &sow,
            rows: &rows,
            target,
            layer: layer.as_slice(),
            k,
            start,
        };
        let mut in_layer = 0;
        // Every in-layer child has a larger moment than its parent (module docs): the levels
        // from the top down.
        for level in (0..=(M as u32 - 1) * k).rev() {
            level_blocks::<M>(&rows, k, level, &mut blocks);
            let len = blocks.last().map_or(0, |b| b.end);
            in_layer += len;
            let blocks = &blocks[..];
            if cancelled() {
                return Ok(false);
            }
            let run_chunk = |c: u64| {
                if cancelled() {
                    return;
                }
                let from = c * chunk;
                let to = (from + chunk).min(len);
                builder.run_chunk(blocks, from, to);
                let n = done.fetch_add(to - from, Ordering::Relaxed) + (to - from);
                if let Some(p) = progress {
                    p(n, total);
                }
            };
            let chunks = len.div_ceil(chunk);
            if chunks == 1 {
                run_chunk(0);
            } else {
                (0..chunks).into_par_iter().for_each(run_chunk);
            }
        }
        debug_assert_eq!(in_layer, end - start);
        if cancelled() {
            // A chunk of the last level may have been skipped.
            return Ok(false);
        }
        debug_assert!(layer
            .as_slice()
            .iter()
            .all(|x| x.load(Ordering::Relaxed) != UNKNOWN));
        target.finish_layer::<M>(&rows, k, start, layer);
    }
    Ok(true)
}

/// Builds the payload of the database of m houses, the given value-relevant options and K =
/// `max_seeds` (`total` = C(K+2m, 2m) entries) in `encoding`: the one-byte entries in rank
/// order, or the packed payload followed by its [`PAD`] zero bytes. `None` when `cancel` was
/// set before the build ended (checked before every work item).
///
/// Memory: one byte an entry for [`Encoding::Byte`]; for [`Encoding::Packed`], the packed
/// payload plus one byte an entry of the largest layer, [`build_memory`].
pub(super) fn build(
    m: usize,
    options: KalahOptions,
    max_seeds: u32,
    total: u64,
    encoding: Encoding,
    progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    cancel: Option<&AtomicBool>,
) -> Result<Option<FrozenBytes>, OutOfMemory> {
    build_in_chunks(
        m, options, max_seeds, total, encoding, CHUNK, progress, cancel,
    )
}

/// Peak memory of [`build`], bytes: the payload, and for [`Encoding::Packed`] the layer
/// under construction at one byte an entry (the largest, layer K) and the padding.
pub(super) fn build_memory(
    m: usize,
    options: KalahOptions,
    max_seeds: u32,
    total: u64,
) -> [u64; 2] {
    let codec = Codec::new(max_seeds, options);
    let top = total
        - if max_seeds == 0 {
            0
        } else {
            binom_exact(u64::from(max_seeds) + 2 * m as u64 - 1, 2 * m as u64) as u64
        };
    [total, packed_words(&codec, total) * 8 + top]
}

/// Words of the packed stream of `total` entries: the payload rounded up to a word, and
/// one word more (read past the last entry, and the [`PAD`] bytes).
fn packed_words(codec: &Codec, total: u64) -> u64 {
    codec.payload_bytes(total).div_ceil(8) + 2
}

/// [`build`] with work items of `chunk` positions.
#[allow(clippy::too_many_arguments)]
fn build_in_chunks(
    m: usize,
    options: KalahOptions,
    max_seeds: u32,
    total: u64,
    encoding: Encoding,
    chunk: u64,
    progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    cancel: Option<&AtomicBool>,
) -> Result<Option<FrozenBytes>, OutOfMemory> {
    let flags = Flags::from(options);
    macro_rules! each_m {
        ($target:expr) => {{
            let t = $target;
            match m {
                1 => run::<1, _>(flags, max_seeds, t, chunk, progress, cancel),
                2 => run::<2, _>(flags, max_seeds, t, chunk, progress, cancel),
                3 => run::<3, _>(flags, max_seeds, t, chunk, progress, cancel),
                4 => run::<4, _>(flags, max_seeds, t, chunk, progress, cancel),
                5 => run::<5, _>(flags, max_seeds, t, chunk, progress, cancel),
                6 => run::<6, _>(flags, max_seeds, t, chunk, progress, cancel),
                _ => run::<7, _>(flags, max_seeds, t, chunk, progress, cancel),
            }
        }};
    }
    match encoding {
        Encoding::Byte => {
            let buf = ZeroedBuf::<AtomicU8>::new(total as usize)?;
            let done = each_m!(&Bytes::<true> {
                data: buf.as_slice()
            })?;
            Ok(done.then(|| buf.freeze()))
        }
        Encoding::Packed => {
            let codec = Codec::new(max_seeds, options);
            let words = ZeroedBuf::<AtomicU64>::new(packed_words(&codec, total) as usize)?;
            let done = each_m!(&Packed {
                words: words.as_slice(),
                codec: &codec,
            })?;
            let len = codec.payload_bytes(total) as usize + PAD;
            Ok(done.then(|| words.freeze_bytes(len)))
        }
    }
}

/// One moment level of one layer of a [`LevelBuild`]: the positions with `k` seeds in the
/// houses and moment `moment` (module docs of [`crate::egdb`]), in the build's walk order.
/// Its positions are numbered `0..len()` in that order; they are grouped by the seeds in the
/// mover's row, increasing ([`Level::by_own_seeds`]).
pub struct Level {
    k: u32,
    moment: u32,
    blocks: Vec<Block>,
}

impl Level {
    /// The layer: seeds in the houses of every position of the level.
    #[must_use]
    pub fn layer(&self) -> u32 {
        self.k
    }

    /// The moment φ of every position of the level (module docs of [`crate::egdb`]).
    #[must_use]
    pub fn moment(&self) -> u32 {
        self.moment
    }

    /// Positions in the level.
    #[must_use]
    pub fn len(&self) -> u64 {
        self.blocks.last().map_or(0, |b| b.end)
    }

    /// Whether the level has no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The level as consecutive runs of positions of one seed count in the mover's row:
    /// `(seeds in the mover's row, positions)`, in walk order, the seed counts increasing, no
    /// run empty. The runs add up to [`Level::len`]. A distributed build uses them to cost a
    /// share of the level (a position's work grows with the moves it has, so with its
    /// mover's seeds).
    #[must_use]
    pub fn by_own_seeds(&self) -> Vec<(u32, u64)> {
        let mut runs: Vec<(u32, u64)> = Vec::new();
        let mut before = 0;
        for b in &self.blocks {
            let n = b.end - before;
            before = b.end;
            match runs.last_mut() {
                Some((a, count)) if *a == b.a => *count += n,
                _ => runs.push((b.a, n)),
            }
        }
        runs
    }
}

/// A database build driven from outside, one moment level at a time, for a caller that
/// shares each level between processes (the `mancala-mpi` command): every process holds all
/// the entries, computes its share of a level ([`LevelBuild::compute`]), sends its share's
/// values to the others ([`LevelBuild::export`]) and takes theirs in
/// ([`LevelBuild::import`]) before the next level. The order of the levels is the one of
/// [`Egdb::build`](super::Egdb::build): layers k = 0, 1, …, K, and in each layer the moments
/// from (m − 1)·k down to 0 ([`LevelBuild::levels`]); an in-layer move always reaches a
/// higher moment, so a level reads only the layers below and the higher levels of its own
/// layer (module docs of [`crate::egdb`]). Finished layers can be saved and loaded back
/// ([`LevelBuild::layer_entries`], [`LevelBuild::load_layer`]) to resume a build.
/// [`LevelBuild::finish`] gives the same [`Egdb`](super::Egdb), byte for byte, as
/// [`Egdb::build`](super::Egdb::build) of the same rules and K.
///
/// Nothing checks that the caller keeps the order: computing a level before the levels it
/// reads gives wrong entries (debug builds assert), never undefined behaviour.
pub struct LevelBuild {
    rules: KalahRules,
    max_seeds: u32,
    flags: Flags,
    rows: Rows,
    buf: ZeroedBuf<AtomicU8>,
}

impl std::fmt::Debug for LevelBuild {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LevelBuild({}, K = {})", self.rules, self.max_seeds)
    }
}

/// Calls `$f::<M>(args)` with the const `M` = the build's m (1..=7).
macro_rules! with_m {
    ($m:expr, $f:ident, $($arg:expr),*) => {
        match $m {
            1 => $f::<1>($($arg),*),
            2 => $f::<2>($($arg),*),
            3 => $f::<3>($($arg),*),
            4 => $f::<4>($($arg),*),
            5 => $f::<5>($($arg),*),
            6 => $f::<6>($($arg),*),
            _ => $f::<7>($($arg),*),
        }
    };
}

impl LevelBuild {
    /// An empty build (every entry unknown) of the database of `rules` (its m and
    /// value-relevant options) and K = `max_seeds`: C(K+2m, 2m) bytes of memory.
    ///
    /// # Errors
    /// [`EgdbError::Unsupported`] when K > 127 or the database would exceed
    /// [`MAX_ENTRIES`](super::MAX_ENTRIES) entries, [`EgdbError::OutOfMemory`] when its
    /// entries do not fit in memory.
    pub fn new(rules: &KalahRules, max_seeds: u32) -> Result<LevelBuild, EgdbError> {
        let m = rules.houses();
        let total = super::check_size(m, max_seeds)?;
        let options = super::relevant_options(rules.options());
        let buf = ZeroedBuf::<AtomicU8>::new(total as usize)?;
        Ok(LevelBuild {
            rules: *rules,
            max_seeds,
            flags: Flags::from(options),
            rows: Rows::new(m as usize, max_seeds),
            buf,
        })
    }

    /// K: the largest layer.
    #[must_use]
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// Entries of the whole database, C(K+2m, 2m).
    #[must_use]
    pub fn total(&self) -> u64 {
        self.buf.as_slice().len() as u64
    }

    fn m(&self) -> usize {
        self.rules.houses() as usize
    }

    /// The levels of layer `k` (0..=K) in the order they must be computed: moments
    /// (m − 1)·k down to 0. Empty levels are left out.
    #[must_use]
    pub fn levels(&self, k: u32) -> Vec<Level> {
        let top = (self.m() as u32 - 1) * k;
        (0..=top)
            .rev()
            .map(|moment| {
                let mut blocks = Vec::new();
                with_m!(self.m(), level_blocks, &self.rows, k, moment, &mut blocks);
                Level { k, moment, blocks }
            })
            .filter(|l| !l.is_empty())
            .collect()
    }

    /// The entries of layer `k` occupy `range` of [`LevelBuild::layer_entries`]'s order: the
    /// ranks of the positions with k seeds in the houses, `[C(k+2m−1, 2m), C(k+2m, 2m))`.
    #[must_use]
    pub fn layer_range(&self, k: u32) -> std::ops::Range<u64> {
        layer_start(self.m(), k)..layer_start(self.m(), k + 1)
    }

    /// Computes the positions `from..to` of `level` (walk order) on the current rayon pool,
    /// in work items of a few thousand positions. Every layer below `level`'s and every
    /// earlier level of its layer must be complete (computed or imported) in this build.
    ///
    /// # Panics
    /// When `from > to` or `to > level.len()` (a caller's bug, not bad input).
    pub fn compute(&self, level: &Level, from: u64, to: u64) {
        assert!(
            from <= to && to <= level.len(),
            "positions out of the level"
        );
        fn go<const M: usize>(b: &LevelBuild, level: &Level, from: u64, to: u64) {
            let sow = Sow::<M>::new(b.flags);
            let data = b.buf.as_slice();
            // Every layer in slot order in one buffer: the layer under construction is its
            // part `start..end`, and a child anywhere is read at its slot.
            let range = b.layer_range(level.k);
            let builder = Builder::<M, Bytes<'_, false>> {
                sow: &sow,
                rows: &b.rows,
                target: &Bytes { data },
                layer: &data[range.start as usize..range.end as usize],
                k: level.k,
                start: range.start,
            };
            let chunks = (to - from).div_ceil(CHUNK);
            let run = |c: u64| {
                let lo = from + c * CHUNK;
                builder.run_chunk(&level.blocks, lo, (lo + CHUNK).min(to));
            };
            if chunks <= 1 {
                (0..chunks).for_each(run);
            } else {
                (0..chunks).into_par_iter().for_each(run);
            }
        }
        with_m!(self.m(), go, self, level, from, to);
    }

    /// Appends to `out` the entries of the positions `from..to` of `level`, in walk order
    /// (one excess-128 byte each, see [`decode`](super::decode)).
    ///
    /// # Panics
    /// As [`LevelBuild::compute`].
    pub fn export(&self, level: &Level, from: u64, to: u64, out: &mut Vec<u8>) {
        assert!(
            from <= to && to <= level.len(),
            "positions out of the level"
        );
        fn go<const M: usize>(
            b: &LevelBuild,
            level: &Level,
            from: u64,
            to: u64,
            out: &mut Vec<u8>,
        ) {
            if from == to {
                return;
            }
            let data = b.buf.as_slice();
            let mut walk = Walk::<M>::new(&b.rows, &level.blocks, from);
            out.extend((from..to).map(|_| data[walk.next().2 as usize].load(Ordering::Relaxed)));
        }
        with_m!(self.m(), go, self, level, from, to, out);
    }

    /// Stores `entries`, the values of the positions `from..from + entries.len()` of `level`
    /// in walk order, as [`LevelBuild::export`] gave them (from another process).
    ///
    /// # Panics
    /// When the positions are not all in the level.
    pub fn import(&self, level: &Level, from: u64, entries: &[u8]) {
        let to = from + entries.len() as u64;
        assert!(to <= level.len(), "positions out of the level");
        fn go<const M: usize>(b: &LevelBuild, level: &Level, from: u64, entries: &[u8]) {
            if entries.is_empty() {
                return;
            }
            let data = b.buf.as_slice();
            let mut walk = Walk::<M>::new(&b.rows, &level.blocks, from);
            for &e in entries {
                data[walk.next().2 as usize].store(e, Ordering::Relaxed);
            }
        }
        with_m!(self.m(), go, self, level, from, entries);
    }

    /// The entries of layer `k` as they are held during the build (the ranks of
    /// [`LevelBuild::layer_range`], permuted inside each window of positions sharing the
    /// opponent's row and the mover's seed count: the module docs of [`crate::egdb`] call it
    /// slot order), for a checkpoint that [`LevelBuild::load_layer`] reads back.
    #[must_use]
    pub fn layer_entries(&self, k: u32) -> Vec<u8> {
        let r = self.layer_range(k);
        self.buf.as_slice()[r.start as usize..r.end as usize]
            .iter()
            .map(|x| x.load(Ordering::Relaxed))
            .collect()
    }

    /// Stores layer `k` from a checkpoint ([`LevelBuild::layer_entries`] of a build of the
    /// same rules and K).
    ///
    /// # Errors
    /// [`EgdbError::Header`] when `entries` has not the layer's length, and
    /// [`EgdbError::BadEntry`] (with the entry's index in the build's order) when an entry is
    /// outside −k..=k: such a checkpoint is not used.
    pub fn load_layer(&self, k: u32, entries: &[u8]) -> Result<(), EgdbError> {
        let r = self.layer_range(k);
        if entries.len() as u64 != r.end - r.start {
            return Err(EgdbError::Header(format!(
                "layer {k} holds {} entries, not {}",
                entries.len(),
                r.end - r.start
            )));
        }
        if let Some(i) = entries
            .iter()
            .position(|&e| e == UNKNOWN || super::decode(e).unsigned_abs() > k)
        {
            return Err(EgdbError::BadEntry {
                rank: r.start + i as u64,
                seeds: k,
                value: super::decode(entries[i]),
            });
        }
        let data = &self.buf.as_slice()[r.start as usize..r.end as usize];
        for (x, &e) in data.iter().zip(entries) {
            x.store(e, Ordering::Relaxed);
        }
        Ok(())
    }

    /// The database, once every level of every layer is complete: the entries put back in
    /// rank order (on the current rayon pool), the same bytes as
    /// [`Egdb::build`](super::Egdb::build)'s.
    #[must_use]
    pub fn finish(self) -> super::Egdb {
        let data = self.buf.as_slice();
        debug_assert!(data.iter().all(|x| x.load(Ordering::Relaxed) != UNKNOWN));
        fn to_rank_order<const M: usize>(rows: &Rows, max_seeds: u32, data: &[AtomicU8]) {
            for k in 0..=max_seeds {
                layer_to_rank_order::<M>(rows, k, data);
            }
        }
        with_m!(self.m(), to_rank_order, &self.rows, self.max_seeds, data);
        super::Egdb::built(
            &self.rules,
            self.max_seeds,
            Encoding::Byte,
            self.buf.freeze(),
        )
    }
}

impl Egdb {
    /// Builds the database of `rules` (its m and value-relevant options) for every position
    /// with at most `max_seeds` seeds in the houses, on the current rayon pool. `progress`, if
    /// given, is called from the worker threads with (entries done, entries in all) as the
    /// build goes.
    ///
    /// # Errors
    /// [`EgdbError::Unsupported`] when K > 127 or the database would exceed [`MAX_ENTRIES`](super::MAX_ENTRIES),
    /// [`EgdbError::OutOfMemory`] when its entries do not fit in memory.
    pub fn build(
        rules: &KalahRules,
        max_seeds: u32,
        progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    ) -> Result<Egdb, EgdbError> {
        Egdb::build_as(rules, max_seeds, Encoding::Byte, progress)
    }

    /// [`Egdb::build`] in the entry encoding `encoding`. The values are the same in either
    /// encoding. [`Encoding::Packed`] is built layer by layer: the finished layers are kept
    /// packed, and only the layer under construction takes one byte an entry, so that the
    /// build needs [`Egdb::build_memory`] bytes, not one byte a position.
    ///
    /// # Errors
    /// As [`Egdb::build`].
    pub fn build_as(
        rules: &KalahRules,
        max_seeds: u32,
        encoding: Encoding,
        progress: Option<&(dyn Fn(u64, u64) + Sync)>,
    ) -> Result<Egdb, EgdbError> {
        let m = rules.houses();
        let total = check_size(m, max_seeds)?;
        let options = relevant_options(rules.options());
        let data = build(
            m as usize, options, max_seeds, total, encoding, progress, None,
        )?
        .ok_or(EgdbError::Cancelled)?;
        Ok(Egdb::built(rules, max_seeds, encoding, data))
    }

    /// The memory, bytes, that building the database of `rules` and K = `max_seeds` in
    /// `encoding` takes at its peak (the entries; besides them the build holds tables of a
    /// few MiB): C(K+2m, 2m) for [`Encoding::Byte`]; for [`Encoding::Packed`] the packed
    /// payload plus one byte for every position of layer K (the largest), C(K+2m−1, 2m−1).
    /// For m = 6, K = 30: 11.1 GB one byte an entry; 6.9 GB + 4.1 GB packed.
    ///
    /// # Errors
    /// [`EgdbError::Unsupported`] as [`Egdb::build`].
    pub fn build_memory(
        rules: &KalahRules,
        max_seeds: u32,
        encoding: Encoding,
    ) -> Result<u64, EgdbError> {
        let m = rules.houses();
        let total = check_size(m, max_seeds)?;
        let options = relevant_options(rules.options());
        let [byte, packed] = build_memory(m as usize, options, max_seeds, total);
        Ok(match encoding {
            Encoding::Byte => byte,
            Encoding::Packed => packed,
        })
    }

    /// [`Egdb::build`] on a pool of `threads` build threads (0 = every core), with progress
    /// reports: `progress` is called on the calling thread every `interval` (at least
    /// [`MIN_INTERVAL`](crate::progress::MIN_INTERVAL)) while the build runs, with the entries
    /// done and in all and the seconds so far ([`BuildProgress`]); never once the build has
    /// ended. Returning [`ControlFlow::Break`] stops the build within one work item per thread.
    /// The entries are the same as [`Egdb::build`]'s.
    ///
    /// # Errors
    /// As [`Egdb::build`]; [`EgdbError::Cancelled`] after a [`ControlFlow::Break`];
    /// [`EgdbError::Threads`] when the pool or the helper thread cannot start, or for more
    /// than [`crate::MAX_THREADS`] threads.
    pub fn build_watched(
        rules: &KalahRules,
        max_seeds: u32,
        threads: usize,
        interval: std::time::Duration,
        progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    ) -> Result<Egdb, EgdbError> {
        Egdb::build_watched_as(
            rules,
            max_seeds,
            Encoding::Byte,
            threads,
            interval,
            progress,
        )
    }

    /// [`Egdb::build_watched`] in the entry encoding `encoding` (see [`Egdb::build_as`]).
    ///
    /// # Errors
    /// As [`Egdb::build_watched`].
    pub fn build_watched_as(
        rules: &KalahRules,
        max_seeds: u32,
        encoding: Encoding,
        threads: usize,
        interval: std::time::Duration,
        progress: &mut dyn FnMut(&BuildProgress) -> ControlFlow<()>,
    ) -> Result<Egdb, EgdbError> {
        let m = rules.houses();
        let total = check_size(m, max_seeds)?;
        let options = relevant_options(rules.options());
        if threads > crate::mem::MAX_THREADS {
            return Err(EgdbError::Threads(format!(
                "{threads} threads asked for, at most {}",
                crate::mem::MAX_THREADS
            )));
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| EgdbError::Threads(e.to_string()))?;
        let t0 = std::time::Instant::now();
        let done = AtomicU64::new(0);
        let cancel = AtomicBool::new(false);
        let count = |n: u64, _: u64| {
            done.fetch_max(n, Ordering::Relaxed);
        };
        let data = crate::progress::watch(
            interval,
            || {
                pool.install(|| {
                    build(
                        m as usize,
                        options,
                        max_seeds,
                        total,
                        encoding,
                        Some(&count),
                        Some(&cancel),
                    )
                })
            },
            || {
                progress(&BuildProgress {
                    done: done.load(Ordering::Relaxed),
                    total,
                    seconds: t0.elapsed().as_secs_f64(),
                })
            },
            || cancel.store(true, Ordering::Relaxed),
        )
        .map_err(|e| EgdbError::Threads(e.to_string()))??
        .ok_or(EgdbError::Cancelled)?;
        Ok(Egdb::built(rules, max_seeds, encoding, data))
    }

    /// The database of `rules` and K = `max_seeds` holding the freshly built `data` in
    /// `encoding`.
    fn built(rules: &KalahRules, max_seeds: u32, encoding: Encoding, data: FrozenBytes) -> Egdb {
        let options = relevant_options(rules.options());
        Egdb {
            houses: rules.houses(),
            max_seeds,
            options,
            rules: rules.to_string(),
            entries: rank_space(rules.houses() as usize, max_seeds).unwrap_or(0),
            codec: (encoding == Encoding::Packed).then(|| Codec::new(max_seeds, options)),
            data,
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use mancala_core::kalah::{KalahOption, KalahOptions};

    use super::super::packed::{Codec, Probe, PAD};
    use super::super::Encoding;
    use crate::board::{Flags, Geometry, Kind};
    use crate::rank::binom_exact;

    /// A plain memoised minimax written from the rules (docs/rules/kalah.md), sharing nothing with
    /// the builder but the rank formula of the file format, recomputed here independently.
    struct Reference {
        m: usize,
        empty_capture: bool,
        end_when_no_move: bool,
        discard: bool,
        memo: HashMap<Vec<u8>, i32>,
    }

    impl Reference {
        /// The value for the mover of `houses` (the mover's houses, then the opponent's, each
        /// row from the house farthest from its owner's store).
        fn value(&mut self, houses: &[u8]) -> i32 {
            if let Some(&v) = self.memo.get(houses) {
                return v;
            }
            let m = self.m;
            let own: u32 = houses[..m].iter().map(|&c| u32::from(c)).sum();
            let opp: u32 = houses[m..].iter().map(|&c| u32::from(c)).sum();
            let finished = if self.end_when_no_move {
                own == 0
            } else {
                own == 0 || opp == 0
            };
            let mut best = 0;
            if !finished {
                best = i32::MIN;
                for h in 0..m {
                    if houses[h] != 0 {
                        let v = self.move_value(houses, h);
                        best = best.max(v);
                    }
                }
            }
            self.memo.insert(houses.to_vec(), best);
            best
        }

        /// The value for the mover of sowing house `h`.
        fn move_value(&mut self, houses: &[u8], h: usize) -> i32 {
            let m = self.m;
            // The mover's sowing cycle: own houses 0..m, own store m, the opponent's houses
            // m+1..=2m (the opponent's store is skipped).
            let mut pits: Vec<u32> = houses[..m].iter().map(|&c| u32::from(c)).collect();
            pits.push(0);
            pits.extend(houses[m..].iter().map(|&c| u32::from(c)));
            let mut at = h;
            let seeds = std::mem::take(&mut pits[h]);
            for _ in 0..seeds {
                at = (at + 1) % (2 * m + 1);
                pits[at] += 1;
            }
            let again = at == m;
            if at < m && pits[at] == 1 {
                let facing = 2 * m - at;
                if pits[facing] != 0 || self.empty_capture {
                    pits[m] += pits[facing] + 1;
                    pits[at] = 0;
                    pits[facing] = 0;
                }
            }
            let mut gain = pits[m] as i32;
            let own: u32 = pits[..m].iter().sum();
            let opp: u32 = pits[m + 1..].iter().sum();
            let next_has_no_move = if again { own == 0 } else { opp == 0 };
            let over = if self.end_when_no_move {
                next_has_no_move
            } else {
                own == 0 || opp == 0
            };
            if over {
                if !self.discard {
                    gain += own as i32 - opp as i32;
                }
                return gain;
            }
            let own_row: Vec<u8> = pits[..m].iter().map(|&c| c as u8).collect();
            let opp_row: Vec<u8> = pits[m + 1..].iter().map(|&c| c as u8).collect();
            if again {
                gain + self.value(&[own_row, opp_row].concat())
            } else {
                gain - self.value(&[opp_row, own_row].concat())
            }
        }
    }

    /// Σ C(p_i, i+1) with p_i = c_0 + … + c_i + i.
    fn rank(houses: &[u8]) -> u64 {
        let mut p = 0u64;
        let mut r = 0u64;
        for (i, &c) in houses.iter().enumerate() {
            p += u64::from(c);
            r += binom_exact(p + i as u64, i as u64 + 1) as u64;
        }
        r
    }

    /// Calls `f` on every distribution of at most `left` seeds over `houses[i..]`.
    fn each(houses: &mut [u8], i: usize, left: u32, f: &mut dyn FnMut(&[u8])) {
        if i == houses.len() {
            f(houses);
            return;
        }
        for c in 0..=left {
            houses[i] = c as u8;
            each(houses, i + 1, left - c, f);
        }
        houses[i] = 0;
    }

    /// The build's move generator against the solver's, on random boards of every m and
    /// option set, long sowings included.
    #[test]
    fn sowing_matches_the_solver_generator() {
        fn check<const M: usize>(flags: Flags, rng: &mut u64) {
            let g = Geometry::<M>::new(flags);
            let sow = super::Sow::<M>::new(flags);
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
                    let c = g.play(b, h);
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

    #[test]
    fn every_entry_equals_a_plain_minimax() {
        let sizes: &[(usize, u32)] = if cfg!(miri) {
            &[(1, 3), (2, 2)]
        } else {
            &[(1, 40), (2, 14), (3, 10), (4, 8), (5, 7), (6, 7), (7, 6)]
        };
        for &(m, k) in sizes {
            for bits in 0..8u32 {
                let mut list = Vec::new();
                if bits & 1 != 0 {
                    list.push(KalahOption::EmptyCapture);
                }
                if bits & 2 != 0 {
                    list.push(KalahOption::EndWhenNoMove);
                }
                if bits & 4 != 0 {
                    list.push(KalahOption::DiscardRemaining);
                }
                let total = binom_exact(u64::from(k) + 2 * m as u64, 2 * m as u64) as u64;
                let options = KalahOptions::of(&list);
                let data = super::build(m, options, k, total, Encoding::Byte, None, None)
                    .unwrap()
                    .unwrap();
                let data = data.bytes();
                assert_eq!(data.len() as u64, total);
                // Work items of a few positions: many items a level, run in parallel.
                let small =
                    super::build_in_chunks(m, options, k, total, Encoding::Byte, 5, None, None)
                        .unwrap()
                        .unwrap();
                assert_eq!(small.bytes(), data);
                // The packed build, layer by layer, in both work item sizes.
                let codec = Codec::new(k, options);
                let packed = super::build(m, options, k, total, Encoding::Packed, None, None)
                    .unwrap()
                    .unwrap();
                let packed = packed.bytes();
                assert_eq!(packed.len() as u64, codec.payload_bytes(total) + PAD as u64);
                let small =
                    super::build_in_chunks(m, options, k, total, Encoding::Packed, 5, None, None)
                        .unwrap()
                        .unwrap();
                assert_eq!(small.bytes(), packed);
                let probe = Probe::packed(packed, &codec);
                let mut reference = Reference {
                    m,
                    empty_capture: bits & 1 != 0,
                    end_when_no_move: bits & 2 != 0,
                    discard: bits & 4 != 0,
                    memo: HashMap::new(),
                };
                let mut seen = 0u64;
                let mut houses = vec![0u8; 2 * m];
                each(&mut houses, 0, k, &mut |h| {
                    let want = reference.value(h);
                    let r = rank(h);
                    let got = i32::from(data[r as usize]) - 128;
                    assert_eq!(got, want, "m = {m}, K = {k}, options {list:?}, {h:?}");
                    let seeds = h.iter().map(|&c| u32::from(c)).sum();
                    assert_eq!(probe.value(r, seeds), want, "packed, {h:?}");
                    seen += 1;
                });
                assert_eq!(seen, total);
            }
        }
    }

    /// A build shared between two [`super::LevelBuild`]s (each level cut in three, the middle
    /// third computed by the other and exchanged), with one of them replaced halfway by a
    /// third one resumed from layer checkpoints, gives the entries of the one-piece build
    /// (which `every_entry_equals_a_plain_minimax` checks against a plain minimax).
    #[test]
    fn a_build_shared_by_levels_equals_the_whole_build() {
        let sizes: &[(usize, u32)] = if cfg!(miri) {
            &[(2, 3)]
        } else {
            &[(1, 12), (3, 8), (6, 6)]
        };
        for &(m, k) in sizes {
            for bits in [0u32, 1, 6] {
                let mut text = format!("kalah({m},3)");
                for (bit, name) in [
                    (1, "empty_capture"),
                    (2, "end_when_no_move"),
                    (4, "discard_remaining"),
                ] {
                    if bits & bit != 0 {
                        text.push('+');
                        text.push_str(name);
                    }
                }
                let rules: mancala_core::kalah::KalahRules = text.parse().unwrap();
                let whole = crate::egdb::Egdb::build(&rules, k, None).unwrap();
                let a = super::LevelBuild::new(&rules, k).unwrap();
                let mut b = super::LevelBuild::new(&rules, k).unwrap();
                assert_eq!(a.total(), whole.len() as u64);
                let mut exported = Vec::new();
                for layer in 0..=k {
                    if layer == k / 2 {
                        // B is lost; C takes its place from A's checkpoints of the layers so far.
                        let c = super::LevelBuild::new(&rules, k).unwrap();
                        for j in 0..layer {
                            c.load_layer(j, &a.layer_entries(j)).unwrap();
                        }
                        b = c;
                    }
                    for level in a.levels(layer) {
                        let n = level.len();
                        assert_eq!(level.by_own_seeds().iter().map(|r| r.1).sum::<u64>(), n);
                        let (x, y) = (n / 3, 2 * n / 3);
                        a.compute(&level, y, n);
                        a.compute(&level, 0, x);
                        b.compute(&level, x, y);
                        exported.clear();
                        b.export(&level, x, y, &mut exported);
                        a.import(&level, x, &exported);
                        for (from, to) in [(0, x), (y, n)] {
                            exported.clear();
                            a.export(&level, from, to, &mut exported);
                            b.import(&level, from, &exported);
                        }
                    }
                }
                let a_layers: Vec<Vec<u8>> = (0..=k).map(|j| a.layer_entries(j)).collect();
                let (a, b) = (a.finish(), b.finish());
                assert_eq!(a.payload(), whole.payload(), "{text} K = {k}");
                assert_eq!(b.payload(), whole.payload(), "{text} K = {k}");
                // A checkpoint with an impossible value is refused.
                let c = super::LevelBuild::new(&rules, k).unwrap();
                let mut bad = a_layers[1].clone();
                bad[0] = 128 + 3;
                assert!(c.load_layer(1, &bad).is_err());
                assert!(c.load_layer(1, &a_layers[2]).is_err());
            }
        }
    }
}
