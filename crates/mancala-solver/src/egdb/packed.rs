//! The packed entry encoding ([`Encoding::Packed`]): every entry in the same small number of
//! bits, the index of its value among the values its layer allows.
//!
//! # The code of an entry
//!
//! The value v of a position with k seeds in the houses lies in −k..=k, and v ≡ k (mod 2)
//! unless `discard_remaining` (every seed then ends in a store, so v = 2·(mover's share) − k);
//! a finished position, which has no move, holds 0 whatever k. The *allowed values* of layer k
//! are those values together with 0, in ascending order:
//!
//! * parity rules: −k, −k+2, …, k, and 0 inserted in the middle when k is odd: k + 1 values
//!   for an even k, k + 2 for an odd one;
//! * `discard_remaining`: −k..=k, 2k + 1 values.
//!
//! An entry is the index of its value in that list, written in `w` bits, `w` the bits of the
//! longest list of the database (layer K or K − 1): 4 bits for K ≤ 14, 5 bits for K ≤ 30,
//! 6 bits for K ≤ 62 under the parity rules; `discard_remaining` takes one bit more. For the
//! parity rules this is the mover's share (v + k)/2 of Irving, Donkers & Uiterwijk (2000), but
//! for the room made for the 0 of a finished position in an odd layer. A code at or past the
//! length of its layer's list is refused when a file is opened, and so is the 0 of an odd
//! layer under the parity rules anywhere but in a finished position, as for the one-byte
//! encoding.
//!
//! # The payload
//!
//! The entries in rank order as one little-endian bit stream: entry r occupies bits
//! `r·w .. r·w + w`, bit j of the stream being bit j mod 8 of byte j / 8. The payload is
//! `⌈C(K+2m, 2m)·w / 8⌉` bytes; the unused bits of its last byte are 0 (a set one is refused,
//! [`super::EgdbError::Padding`]). In memory, [`PAD`]
//! zero bytes follow it, so that an entry is always read with one two-byte load (an entry of
//! at most 8 bits starting at bit b mod 8 ends within the next byte).
//!
//! # Why this encoding and not fewer bits
//!
//! Measured on the m = 6 standard database of K = 24 (`BENCHMARKS.md`): the values of a layer
//! have an entropy of 3.9 bits (k = 20), and of 3.5–4.3 bits inside blocks of 64–256
//! consecutive entries; 4-bit codes relative to a per-block base, with an exception table for
//! what does not fit, leave 0.3 % of the entries of layer 20, 0.65 % of layer 22 and 1 % of
//! layer 24 to the exception table, a share that grows with k. A fixed width needs no index,
//! no exception table and one memory access a lookup, and 5 bits already hold the K = 30
//! database of m = 6 in 6.4 GiB.

use std::sync::atomic::{AtomicU64, Ordering};

use mancala_core::kalah::{KalahOption, KalahOptions};
use rayon::prelude::*;

/// Zero bytes after the payload in memory (see the module docs).
pub(crate) const PAD: usize = 8;

/// The code tables of a packed database of one K and rule set.
#[derive(Clone, Debug)]
pub(crate) struct Codec {
    /// Bits per entry.
    width: u32,
    /// K.
    max_seeds: u32,
    /// Whether values have the parity of their seed count (every rule set but
    /// `discard_remaining`).
    parity: bool,
    /// The value of code c in layer k at `(k << width) | c`; codes past a layer's list hold 0
    /// (never served: opening a file refuses them).
    decode: Vec<i8>,
    /// The number of codes of layer k (the length of its list of allowed values).
    count: Vec<u32>,
    /// The code of value v in layer k at `k · 256 + (v + 128)`; `u8::MAX` for a value the
    /// layer does not allow.
    encode: Vec<u8>,
    /// For each layer, the code of 0 when 0 is allowed there only in a finished position
    /// (an odd layer under the parity rules).
    terminal_zero: Vec<Option<u32>>,
}

impl Codec {
    /// The codes of a database of K = `max_seeds` (at most 127) for the value-relevant
    /// `options`.
    pub(crate) fn new(max_seeds: u32, options: KalahOptions) -> Codec {
        Codec::with_lists(max_seeds, !options.has(KalahOption::DiscardRemaining))
    }

    /// The codes of a database of K = `max_seeds` (at most 127) whose layer k allows every
    /// value −k..=k (2k + 1 codes, no finished-position 0): the lists of `discard_remaining`,
    /// and those of the Awari levels (`awari::file`).
    pub(crate) fn all_values(max_seeds: u32) -> Codec {
        Codec::with_lists(max_seeds, false)
    }

    /// The codes of a database of K = `max_seeds`: with `parity`, layer k allows the values
    /// of k's parity and 0; without, every value −k..=k (module docs).
    fn with_lists(max_seeds: u32, parity: bool) -> Codec {
        let lists: Vec<Vec<i32>> = (0..=max_seeds as i32)
            .map(|k| {
                let mut l: Vec<i32> = (-k..=k)
                    .filter(|v| !parity || (v - k) % 2 == 0 || *v == 0)
                    .collect();
                l.dedup();
                l
            })
            .collect();
        let longest = lists.iter().map(Vec::len).max().unwrap_or(1);
        let width = (usize::BITS - (longest - 1).leading_zeros()).max(1);
        let mut decode = vec![0i8; (max_seeds as usize + 1) << width];
        let mut encode = vec![u8::MAX; (max_seeds as usize + 1) * 256];
        let mut count = Vec::with_capacity(lists.len());
        let mut terminal_zero = Vec::with_capacity(lists.len());
        for (k, list) in lists.iter().enumerate() {
            for (c, &v) in list.iter().enumerate() {
                decode[(k << width) | c] = v as i8;
                encode[k * 256 + (v + 128) as usize] = c as u8;
            }
            count.push(list.len() as u32);
            let odd = k % 2 == 1;
            terminal_zero.push((parity && odd).then(|| u32::from(encode[k * 256 + 128])));
        }
        Codec {
            width,
            max_seeds,
            parity,
            decode,
            count,
            encode,
            terminal_zero,
        }
    }

    /// Bits per entry.
    pub(crate) fn width(&self) -> u32 {
        self.width
    }

    /// Payload bytes of `entries` entries.
    pub(crate) fn payload_bytes(&self, entries: u64) -> u64 {
        (entries * u64::from(self.width)).div_ceil(8)
    }

    /// The code of the value `v` in layer `k` (`v` must be allowed there: a value the build
    /// computed).
    #[inline(always)]
    pub(crate) fn encode(&self, k: u32, v: i32) -> u32 {
        let c = self.encode[k as usize * 256 + (v + 128) as usize];
        debug_assert_ne!(c, u8::MAX, "value {v} in layer {k}");
        u32::from(c)
    }

    /// The value of code `c` in layer `k` (0 for a code past the layer's list).
    #[inline(always)]
    pub(crate) fn decode(&self, k: u32, c: u32) -> i32 {
        i32::from(self.decode[((k as usize) << self.width) | c as usize])
    }

    /// The decode table (see [`Probe`]).
    pub(crate) fn table(&self) -> &[i8] {
        &self.decode
    }

    /// Whether code `c` may stand in layer `k`: `Some(true)` yes, `Some(false)` no, `None`
    /// only in a finished position.
    #[inline(always)]
    fn allows(&self, k: u32, c: u32) -> Option<bool> {
        if c >= self.count[k as usize] {
            Some(false)
        } else if self.terminal_zero[k as usize] == Some(c) {
            None
        } else {
            Some(true)
        }
    }

    /// K.
    pub(crate) fn max_seeds(&self) -> u32 {
        self.max_seeds
    }
}

/// The code of entry `r` of the packed payload `bytes` (with its [`PAD`] bytes) of width `w`.
#[inline(always)]
fn code_at(bytes: &[u8], w: u32, r: u64) -> u32 {
    let bit = r * u64::from(w);
    let at = (bit >> 3) as usize;
    let two = &bytes[at..at + 2];
    let x = u32::from(two[0]) | (u32::from(two[1]) << 8);
    (x >> (bit & 7)) & ((1 << w) - 1)
}

/// [`code_at`] with one eight-byte load (the [`PAD`] bytes keep it in bounds), for reading
/// entries in sequence.
#[inline(always)]
fn code_at_wide(bytes: &[u8], w: u32, r: u64) -> u32 {
    let bit = r * u64::from(w);
    let at = (bit >> 3) as usize;
    let mut eight = [0u8; 8];
    eight.copy_from_slice(&bytes[at..at + 8]);
    ((u64::from_le_bytes(eight) >> (bit & 7)) as u32) & ((1 << w) - 1)
}

/// The database lookup of the search: the value of an entry from its rank and the seeds of
/// its position, for either encoding. `Copy`, a few words.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Probe<'a> {
    /// The entries (one-byte) or the payload with its padding (packed).
    bytes: &'a [u8],
    /// The decode table of a packed database ([`Codec`]); empty for one byte an entry.
    table: &'a [i8],
    /// Bits per entry of a packed database; 0 for one byte an entry.
    width: u32,
}

impl<'a> Probe<'a> {
    /// The lookup of the one-byte entries `bytes`.
    pub(crate) fn bytes(bytes: &'a [u8]) -> Probe<'a> {
        Probe {
            bytes,
            table: &[],
            width: 0,
        }
    }

    /// The lookup of a packed payload (with its padding) and its codec.
    pub(crate) fn packed(bytes: &'a [u8], codec: &'a Codec) -> Probe<'a> {
        Probe {
            bytes,
            table: codec.table(),
            width: codec.width(),
        }
    }

    /// No database: every lookup is out of bounds (the search never makes one).
    pub(crate) const NONE: Probe<'static> = Probe {
        bytes: &[],
        table: &[],
        width: 0,
    };

    /// Whether there is no entry at all ([`Probe::NONE`]).
    pub(crate) fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The value (seeds, for the side to move) of the entry of rank `rank`, whose position
    /// has `seeds` seeds in its houses. Panics when `rank` or `seeds` are past the database
    /// (the search only asks for positions of at most K seeds).
    #[inline(always)]
    pub(crate) fn value(&self, rank: u64, seeds: u32) -> i32 {
        if self.width == 0 {
            super::decode(self.bytes[rank as usize])
        } else {
            let c = code_at(self.bytes, self.width, rank);
            i32::from(self.table[((seeds as usize) << self.width) | c as usize])
        }
    }

    /// Hints the cache that the entry of rank `rank` will be read soon.
    #[inline(always)]
    pub(crate) fn prefetch(&self, rank: u64) {
        let at = if self.width == 0 {
            rank
        } else {
            (rank * u64::from(self.width)) >> 3
        };
        if let Some(b) = self.bytes.get(at as usize) {
            crate::mem::prefetch(b);
        }
    }
}

/// Writes the codes `codes` of the entries `first..` into the packed bit stream held in
/// `words` (little-endian words: the value of word i is stored as `to_le`), which is zero
/// there. The words wholly inside the run are stored; the first and the last word, which may
/// hold entries of other runs written by other threads at the same time, are OR-ed in.
pub(crate) fn write_run(
    words: &[AtomicU64],
    width: u32,
    first: u64,
    codes: impl Iterator<Item = u32>,
) {
    let start = first * u64::from(width);
    let first_word = (start >> 6) as usize;
    let mut i = first_word;
    let mut fill = (start & 63) as u32;
    let mut acc = 0u64;
    let flush = |i: usize, acc: u64, edge: bool| {
        if edge {
            words[i].fetch_or(acc.to_le(), Ordering::Relaxed);
        } else {
            words[i].store(acc.to_le(), Ordering::Relaxed);
        }
    };
    for c in codes {
        let c = u64::from(c);
        acc |= c << fill;
        fill += width;
        if fill >= 64 {
            flush(i, acc, i == first_word);
            i += 1;
            fill -= 64;
            acc = if fill == 0 { 0 } else { c >> (width - fill) };
        }
    }
    if fill > 0 {
        flush(i, acc, true);
    }
}

/// The code of entry `r` of a packed stream being built (`words` as in [`write_run`], with
/// one word after the last entry's).
#[inline(always)]
pub(crate) fn read_word_code(words: &[AtomicU64], width: u32, r: u64) -> u32 {
    let bit = r * u64::from(width);
    let i = (bit >> 6) as usize;
    let off = (bit & 63) as u32;
    let mut x = u64::from_le(words[i].load(Ordering::Relaxed)) >> off;
    // The next word only when the entry runs into it (5 times in 64 for 5 bits): loading it
    // always would touch the next cache line, unasked for, once in eight words.
    if off + width > 64 {
        x |= u64::from_le(words[i + 1].load(Ordering::Relaxed)) << (64 - off);
    }
    (x as u32) & ((1 << width) - 1)
}

/// Entries in a group: 64 entries of w bits fill exactly w words, so that a group whose first
/// entry is a multiple of 64 starts on a word boundary and its codes can be taken out with
/// shifts known at compile time ([`unpack_group`]).
const GROUP: u64 = 64;

/// The codes of the entries `64·g .. 64·g + 64` of the packed `payload` of width `W` (its
/// `8·W` bytes from byte `8·W·g` and one more, which the [`PAD`] bytes guarantee), one byte
/// each, into `out`. A code of at most 8 bits lies within two bytes: each is one two-byte
/// load, a shift and a mask, without a branch.
#[inline(always)]
fn unpack_group<const W: usize>(payload: &[u8], g: u64, out: &mut [u8; 64]) {
    let src = &payload[g as usize * 8 * W..][..8 * W + 1];
    for (i, o) in out.iter_mut().enumerate() {
        let bit = i * W;
        let two = u16::from_le_bytes([src[bit / 8], src[bit / 8 + 1]]);
        *o = ((two >> (bit % 8)) & ((1 << W) - 1)) as u8;
    }
}

/// Calls `f(first, codes)` for the entries `from..to` of the packed `payload` of width `w`
/// (with its [`PAD`] bytes), in order, `codes` holding the codes of the entries `first..`
/// (at most 64 at a time): whole groups of 64 ([`unpack_group`]) where the range covers
/// them, one entry at a time at its ends. Stops at the first `Some` that `f` returns.
fn scan_codes<R>(
    payload: &[u8],
    w: u32,
    from: u64,
    to: u64,
    mut f: impl FnMut(u64, &[u8]) -> Option<R>,
) -> Option<R> {
    fn groups<const W: usize, R>(
        payload: &[u8],
        (g0, g1): (u64, u64),
        f: &mut impl FnMut(u64, &[u8]) -> Option<R>,
    ) -> Option<R> {
        let mut codes = [0u8; 64];
        (g0..g1).find_map(|g| {
            unpack_group::<W>(payload, g, &mut codes);
            f(g * GROUP, &codes)
        })
    }
    let one = |r: u64| [code_at_wide(payload, w, r) as u8];
    // Entries before the first whole group, the whole groups, the entries after them.
    let g0 = from.div_ceil(GROUP);
    let g1 = (to / GROUP).max(g0);
    let head = from..(g0 * GROUP).min(to);
    if let Some(x) = head.clone().find_map(|r| f(r, &one(r))) {
        return Some(x);
    }
    if g0 < g1 {
        let x = match w {
            1 => groups::<1, R>(payload, (g0, g1), &mut f),
            2 => groups::<2, R>(payload, (g0, g1), &mut f),
            3 => groups::<3, R>(payload, (g0, g1), &mut f),
            4 => groups::<4, R>(payload, (g0, g1), &mut f),
            5 => groups::<5, R>(payload, (g0, g1), &mut f),
            6 => groups::<6, R>(payload, (g0, g1), &mut f),
            7 => groups::<7, R>(payload, (g0, g1), &mut f),
            _ => groups::<8, R>(payload, (g0, g1), &mut f),
        };
        if x.is_some() {
            return x;
        }
    }
    (head.end.max(g1 * GROUP)..to).find_map(|r| f(r, &one(r)))
}

/// Checks every code of the packed `payload` (with its padding) of a database of m =
/// `houses`: each within its layer's list, and the 0 of an odd layer under the parity rules
/// only in a finished position. `layer_start(k)` is the rank of layer k's first entry. The
/// first bad entry in rank order is reported.
pub(crate) fn check_codes(
    codec: &Codec,
    houses: u8,
    options: KalahOptions,
    payload: &[u8],
    layer_start: impl Fn(u32) -> u64 + Sync,
) -> Result<(), super::EgdbError> {
    let m = usize::from(houses);
    check_codes_with(codec, payload, layer_start, |k, r| {
        super::is_terminal_rank(m, options, k, r)
    })
}

/// [`check_codes`] for any database: `is_terminal(k, r)` says whether the entry of rank `r`
/// within layer k is a finished position (asked only for the 0 of an odd layer under the
/// parity rules; never for a codec of [`Codec::all_values`]). The unused bits of the
/// payload's last byte, after the last entry, must be 0 ([`super::EgdbError::Padding`]):
/// a database has one payload.
pub(crate) fn check_codes_with(
    codec: &Codec,
    payload: &[u8],
    layer_start: impl Fn(u32) -> u64 + Sync,
    is_terminal: impl Fn(u32, u64) -> bool + Sync,
) -> Result<(), super::EgdbError> {
    let w = codec.width();
    let end = layer_start(codec.max_seeds() + 1) * u64::from(w);
    if !end.is_multiple_of(8) {
        let last = payload.get((end / 8) as usize).copied().unwrap_or(0);
        let unused = last >> (end % 8);
        if unused != 0 {
            return Err(super::EgdbError::Padding {
                bits: 8 - (end % 8) as u32,
                found: unused,
            });
        }
    }
    for k in 0..=codec.max_seeds() {
        let (s, e) = (layer_start(k), layer_start(k + 1));
        let pieces = (e - s).div_ceil(PIECE);
        // Codes from `limit` on are past the list; `zero` (if any) needs a finished position.
        let limit = codec.count[k as usize];
        let zero = codec.terminal_zero[k as usize].unwrap_or(u32::MAX);
        let bad = (0..pieces).into_par_iter().find_map_first(|p| {
            let from = s + p * PIECE;
            let to = (from + PIECE).min(e);
            scan_codes(payload, w, from, to, |first, codes| {
                // Most groups hold neither a code past the list nor the 0: one pass that
                // the compiler turns into vector compares, then the entries one by one.
                let suspect = codes.iter().fold(false, |b, &c| {
                    b | (u32::from(c) >= limit) | (u32::from(c) == zero)
                });
                if !suspect {
                    return None;
                }
                codes.iter().enumerate().find_map(|(i, &c)| {
                    let c = u32::from(c);
                    let r = first + i as u64;
                    let ok = match codec.allows(k, c) {
                        Some(ok) => ok,
                        None => is_terminal(k, r - s),
                    };
                    (!ok).then_some((r, c))
                })
            })
        });
        if let Some((rank, c)) = bad {
            return Err(super::EgdbError::BadEntry {
                rank,
                seeds: k,
                value: if c < codec.count[k as usize] {
                    codec.decode(k, c)
                } else {
                    // A code past the list: reported as the value it would stand for if the
                    // list went on in its steps (2, or 1 under `discard_remaining`), which
                    // is past k.
                    let step = if codec.parity { 2 } else { 1 };
                    -(k as i32) + step * c as i32
                },
            });
        }
    }
    Ok(())
}

/// Entries a rayon task checks or converts at a time (a multiple of 64, so that a piece of
/// a packed stream of any width starts on a word boundary when its first entry does).
pub(crate) const PIECE: u64 = 1 << 20;

/// The packed stream (`words`, zero, with one word to spare) of the one-byte `entries` of a
/// database of K = `codec.max_seeds()`; `layer_start(k)` as in [`check_codes`].
pub(crate) fn pack_bytes(
    codec: &Codec,
    entries: &[u8],
    words: &[AtomicU64],
    layer_start: impl Fn(u32) -> u64 + Sync,
) {
    for k in 0..=codec.max_seeds() {
        let (s, e) = (layer_start(k), layer_start(k + 1));
        pack_layer(
            codec,
            k,
            &entries[s as usize..e as usize],
            super::decode,
            words,
            s,
        );
    }
}

/// Writes the codes of the entry bytes `layer` of layer k, whose first entry has the rank
/// `first` in the stream, into the packed stream `words` (as in [`write_run`]; zero there),
/// in pieces on the rayon threads; `value` gives the value of an entry byte (every value
/// must be allowed in layer k: a value a build computed or a check passed).
pub(crate) fn pack_layer(
    codec: &Codec,
    k: u32,
    layer: &[u8],
    value: impl Fn(u8) -> i32 + Sync,
    words: &[AtomicU64],
    first: u64,
) {
    layer
        .par_chunks(PIECE as usize)
        .enumerate()
        .for_each(|(p, piece)| {
            let codes = piece.iter().map(|&b| codec.encode(k, value(b)));
            write_run(words, codec.width(), first + p as u64 * PIECE, codes);
        });
}

/// The one-byte entries of the packed `payload` (with its padding), written into `out`.
pub(crate) fn unpack_bytes(
    codec: &Codec,
    payload: &[u8],
    out: &mut [u8],
    layer_start: impl Fn(u32) -> u64 + Sync,
) {
    let mut rest = out;
    let mut done = 0u64;
    for k in 0..=codec.max_seeds() {
        let (s, e) = (layer_start(k), layer_start(k + 1));
        debug_assert_eq!(s, done);
        let (layer, tail) = rest.split_at_mut((e - s) as usize);
        rest = tail;
        done = e;
        unpack_layer(codec, k, payload, s, layer, |v| (v + 128) as u8);
    }
}

/// The entry bytes of layer k of the packed `payload` (with its padding), its first entry
/// at rank `first` of the stream, written into `out` (one byte an entry of the layer) in
/// pieces on the rayon threads; `byte` gives the entry byte of a value.
pub(crate) fn unpack_layer(
    codec: &Codec,
    k: u32,
    payload: &[u8],
    first: u64,
    out: &mut [u8],
    byte: impl Fn(i32) -> u8 + Sync,
) {
    let w = codec.width();
    out.par_chunks_mut(PIECE as usize)
        .enumerate()
        .for_each(|(p, chunk)| {
            let from = first + p as u64 * PIECE;
            let to = from + chunk.len() as u64;
            scan_codes(payload, w, from, to, |at, codes| {
                let at = (at - from) as usize;
                for (b, &c) in chunk[at..at + codes.len()].iter_mut().zip(codes) {
                    *b = byte(codec.decode(k, u32::from(c)));
                }
                None::<()>
            });
        });
}

/// The number of entries of each code (index = code, `1 << w` of them) among the entries
/// `from..to` of the packed `payload` (with its padding), counted in pieces on the rayon
/// threads.
pub(crate) fn count_codes(codec: &Codec, payload: &[u8], from: u64, to: u64) -> Vec<u64> {
    let w = codec.width();
    let pieces = (to - from).div_ceil(PIECE);
    (0..pieces)
        .into_par_iter()
        .map(|p| {
            let a = from + p * PIECE;
            let b = (a + PIECE).min(to);
            let mut n = vec![0u64; 1 << w];
            scan_codes(payload, w, a, b, |_, codes| {
                codes.iter().for_each(|&c| n[usize::from(c)] += 1);
                None::<()>
            });
            n
        })
        .reduce(
            || vec![0u64; 1 << w],
            |mut a, b| {
                a.iter_mut().zip(&b).for_each(|(x, y)| *x += y);
                a
            },
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options(discard: bool) -> KalahOptions {
        if discard {
            KalahOptions::of(&[KalahOption::DiscardRemaining])
        } else {
            KalahOptions::of(&[])
        }
    }

    #[test]
    fn widths_follow_the_longest_list() {
        // (K, parity width, discard width): parity lists hold k + 1 (even k) or k + 2 (odd
        // k) values, discard lists 2k + 1.
        for (k, parity, discard) in [
            (0, 1, 1),
            (1, 2, 2),
            (2, 2, 3),
            (7, 4, 4),
            (13, 4, 5),
            (14, 4, 5),
            (15, 5, 5),
            (20, 5, 6),
            (30, 5, 6),
            (31, 6, 6),
            (62, 6, 7),
            (63, 7, 7),
            (127, 8, 8),
        ] {
            assert_eq!(Codec::new(k, options(false)).width(), parity, "K = {k}");
            assert_eq!(Codec::new(k, options(true)).width(), discard, "K = {k}");
        }
    }

    #[test]
    fn codes_round_trip_and_keep_the_order_of_values() {
        for discard in [false, true] {
            let c = Codec::new(12, options(discard));
            for k in 0..=12u32 {
                let ki = k as i32;
                let mut last = None;
                for v in -ki..=ki {
                    let allowed = discard || (v - ki) % 2 == 0 || v == 0;
                    if !allowed {
                        continue;
                    }
                    let code = c.encode(k, v);
                    assert_eq!(c.decode(k, code), v);
                    assert!(last.is_none_or(|l| code == l + 1), "codes are consecutive");
                    last = Some(code);
                }
                assert_eq!(last.unwrap() + 1, c.count[k as usize]);
            }
        }
    }

    #[test]
    fn runs_written_in_any_order_read_back() {
        for width in 1..=8u32 {
            let n = 1000u64;
            let words: Vec<AtomicU64> = (0..(n * u64::from(width)).div_ceil(64) + 2)
                .map(|_| AtomicU64::new(0))
                .collect();
            let code = |r: u64| ((r * 2_654_435_761) >> 7) as u32 & ((1 << width) - 1);
            // Runs of awkward lengths, written back to front.
            let mut cuts = vec![0u64, 1, 2, 63, 64, 65, 130, 500, 501, 999, 1000];
            cuts.dedup();
            for pair in cuts.windows(2).rev() {
                write_run(&words, width, pair[0], (pair[0]..pair[1]).map(code));
            }
            let bytes: Vec<u8> = words
                .iter()
                .flat_map(|w| u64::from_le(w.load(Ordering::Relaxed)).to_le_bytes())
                .collect();
            for r in 0..n {
                assert_eq!(read_word_code(&words, width, r), code(r), "w {width} r {r}");
                assert_eq!(code_at(&bytes, width, r), code(r), "w {width} r {r}");
                assert_eq!(code_at_wide(&bytes, width, r), code(r), "w {width} r {r}");
            }
            // Whole groups and single entries, over ranges that start and end on and off
            // the group boundaries, give every code once, in order.
            let mut padded = bytes.clone();
            padded.extend([0u8; PAD]);
            for (from, to) in [
                (0, n),
                (1, 63),
                (0, 64),
                (63, 129),
                (64, 128),
                (5, 5),
                (700, n),
            ] {
                let mut seen = Vec::new();
                let stop = scan_codes(&padded, width, from, to, |first, codes| {
                    assert_eq!(first, from + seen.len() as u64);
                    seen.extend(codes.iter().map(|&c| u32::from(c)));
                    None::<()>
                });
                assert!(stop.is_none());
                let want: Vec<u32> = (from..to).map(code).collect();
                assert_eq!(seen, want, "w {width}, {from}..{to}");
            }
            // Nothing past the last entry.
            let end = n * u64::from(width);
            for bit in end..(bytes.len() as u64 * 8) {
                assert_eq!((bytes[(bit / 8) as usize] >> (bit % 8)) & 1, 0);
            }
        }
    }
}
