//! Where the build keeps the entries ([`Target`]): one byte an entry with the whole database
//! in one buffer ([`Bytes`]), or the packed stream of the finished layers with the layer
//! under construction in a buffer of its own ([`Packed`]); and how a finished layer leaves
//! the build's slot order for rank order.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use rayon::prelude::*;

use super::rows::{opp_rank, sum_start, Rows};
use super::sow::row_sum;
use super::UNKNOWN;
use crate::egdb::packed::{read_word_code, write_run, Codec};
use crate::mem::{prefetch, prefetch_ptr, OutOfMemory, ZeroedBuf};

/// Where the build keeps the entries: the finished layers in rank order with their final
/// values, and the layer under construction.
pub(super) trait Target: Sync {
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
pub(super) enum Layer<'a> {
    Borrowed(&'a [AtomicU8]),
    Owned(ZeroedBuf<AtomicU8>),
}

impl Layer<'_> {
    pub(super) fn as_slice(&self) -> &[AtomicU8] {
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
pub(super) struct Bytes<'a, const RANKED: bool> {
    pub(super) data: &'a [AtomicU8],
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
pub(super) struct Packed<'a> {
    pub(super) words: &'a [AtomicU64],
    pub(super) codec: &'a Codec,
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

/// Puts layer `k` of `data` (the whole database, one byte an entry) from slot order (see
/// [`Builder`]) into rank order, in place: in every window of the positions with opponent's
/// row `y` (b seeds) and a = k − b seeds in the own row, the entry of the own row of index i
/// moves from slot `i + T(a, y)` to rank `R_i + T(a, y)`.
pub(super) fn layer_to_rank_order<const M: usize>(rows: &Rows, k: u32, data: &[AtomicU8]) {
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
pub(super) fn pack_layer<const M: usize>(
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
