//! The compact encoding of an Oware database (entry encoding 3, [`Encoding::Compact`]): the
//! values of each level coded with canonical Huffman codes chosen by the values of two
//! neighbouring boards, in blocks of [`BLOCK`] boards that are read one at a time, so that a
//! lookup decodes at most one block and never the whole file.
//!
//! # The context of a board
//!
//! Within one level the boards come in the order of [`super::rank`]: runs of
//! `C(a + 5, 5)` boards share the opponent's row and run over every mover's row of `a`
//! seeds in colex order. Two boards of such a run are close in value when one mover's row
//! is the other with one seed moved: the previous board in rank order (usually one seed
//! moved between houses 1 and 2) and the board with one seed of house 2 moved to house 3,
//! `p₁ = A₁ + A₂` ranks earlier (when house 2 is not empty). Each board's value is coded
//! with the code of its *context*: the codes (value + n) of those two boards, "none" for the
//! second when house 2 is empty or the board lies before the start of the block, and the
//! code n (value 0) for the previous board of a block's first board. Level n has
//! `(2n + 1)·(2n + 2)` contexts, each with its own code over the `2n + 1` values −n..=n.
//!
//! # The payload
//!
//! ```text
//! u64 LE   S, the bytes of the code stream
//! tables   for each level n = 0..=N, each context c = up·(2n+1) + prev (up = 2n+1: none):
//!          the code length (0 = no code, 1..=15) of each value code 0..2n, one nibble
//!          each, low nibble first, ⌈(2n+1)/2⌉ bytes a context (an odd count's last high
//!          nibble 0)
//! index    for each group of 32 blocks: the u64 LE bit offset of its first block in the
//!          stream, then 31 u16 LE bit offsets of its blocks 1..=31 from it (0 past the last
//!          block)
//! stream   S bytes: the blocks in order, each level's boards in blocks of 128 (its last
//!          block shorter), every level starting a new block; each board's canonical code,
//!          most significant bit first; the bits after the last code 0
//! ```
//!
//! The canonical code of a context gives the values, ordered by (length, value code),
//! consecutive codes of each length. A lookup finds the block's bit offset in the index,
//! unranks the block's first mover's row, and decodes the block up to the board, about 64
//! codes on average, each one table read of 8 bits (a longer code takes a few steps more).

use super::rank::{base, level_len, row_unrank, rows};
use crate::egdb::EgdbError;
use crate::mem::FrozenBytes;

/// Boards a block holds (a level's last block may hold fewer).
pub(crate) const BLOCK: usize = 128;
/// Blocks in one group of the index.
const GROUP: usize = 32;
/// Bytes of one group of the index: the u64 offset and 31 u16 offsets.
const GROUP_BYTES: usize = 8 + 2 * (GROUP - 1);
/// The longest code, bits.
const MAX_LEN: u32 = 15;
/// Bits of the first table of a context's decoder.
const FAST: u32 = 8;
/// Bytes after the payload in memory, so that a window of 8 bytes can be read anywhere.
pub(crate) const PAD: usize = 8;

/// The walk over the mover's rows of one level, in rank order: where the board of the
/// context "house 2 to house 3" lies.
struct Walk {
    n: u32,
    /// The opponent's seeds of the current run.
    m: u32,
    /// The 5-subset `c_i = p_i + i` of the mover's row (prefix sums p).
    c: [u32; 5],
    /// Boards left in the current run, the current one included.
    left: u64,
    /// Runs left with the same m, the current one included.
    runs: u64,
}

impl Walk {
    /// The walk at index `i` of level `n` (`i` < the level's length).
    fn at(n: u32, i: u64) -> Walk {
        let mut m = 0;
        while m < n && base(n, m + 1) <= i {
            m += 1;
        }
        let a = n - m;
        let r_a = rows(a);
        let off = i - base(n, m);
        let runs_m = (base(n, m + 1) - base(n, m)) / r_a;
        let (run, r) = (off / r_a, off % r_a);
        let row = row_unrank(a, r);
        let mut c = [0; 5];
        let mut p = 0;
        for (k, ck) in c.iter_mut().enumerate() {
            p += ((row >> (8 * k)) & 0xFF) as u32;
            *ck = p + k as u32;
        }
        Walk {
            n,
            m,
            c,
            left: r_a - r,
            runs: runs_m - run,
        }
    }

    /// How many ranks back the board with one seed of the mover's house 2 moved to house 3
    /// lies, `None` when house 2 is empty.
    #[inline(always)]
    fn up(&self) -> Option<u64> {
        (self.c[1] > self.c[0] + 1).then(|| u64::from(self.c[1] - 1))
    }

    /// The next board.
    #[inline(always)]
    fn step(&mut self) {
        self.left -= 1;
        if self.left > 0 {
            // Colex successor of the 5-subset of {0..a+4}.
            let top = self.n - self.m + 5;
            let mut k = 0;
            while k < 4 && self.c[k] + 1 == self.c[k + 1] {
                k += 1;
            }
            debug_assert!(k < 4 || self.c[4] + 1 < top);
            self.c[k] += 1;
            for (j, cj) in self.c.iter_mut().enumerate().take(k) {
                *cj = j as u32;
            }
            return;
        }
        self.runs -= 1;
        if self.runs == 0 {
            if self.m == self.n {
                // Past the level's last board.
                self.left = u64::MAX;
                return;
            }
            self.m += 1;
            let a = self.n - self.m;
            self.runs = (base(self.n, self.m + 1) - base(self.n, self.m)) / rows(a);
        }
        self.left = rows(self.n - self.m);
        self.c = [0, 1, 2, 3, 4];
    }
}

/// The context of a board of level `n` (`k` = 2n + 1 value codes): `up·k + prev`.
#[inline(always)]
fn context(k: u32, prev: u8, up: Option<u8>) -> usize {
    (up.map_or(k, u32::from) * k + u32::from(prev)) as usize
}

/// Visits the boards of level `n` with `values[i]` (codes 0..2n) in order, calling
/// `visit(i, context, code)`.
fn for_each_context(n: u32, codes: &[u8], mut visit: impl FnMut(usize, usize, u8)) {
    let k = 2 * n + 1;
    let mut walk = Walk::at(n, 0);
    let mut block_start = 0;
    let mut prev = n as u8;
    for (i, &code) in codes.iter().enumerate() {
        if i % BLOCK == 0 {
            block_start = i;
            prev = n as u8;
        }
        let up = walk
            .up()
            .filter(|&o| (i as u64) >= block_start as u64 + o)
            .map(|o| codes[i - o as usize]);
        visit(i, context(k, prev, up), code);
        prev = code;
        walk.step();
    }
}

/// Length-limited Huffman code lengths (at most [`MAX_LEN`]) of the counts `counts` (0 for
/// a symbol that never occurs: no code). A single symbol gets length 1.
fn code_lengths(counts: &[u64]) -> Vec<u8> {
    let mut weights: Vec<u64> = counts.to_vec();
    loop {
        let lens = huffman(&weights);
        if lens.iter().all(|&l| u32::from(l) <= MAX_LEN) {
            return lens;
        }
        // Flatten the distribution and try again.
        weights
            .iter_mut()
            .filter(|w| **w > 0)
            .for_each(|w| *w = (*w).div_ceil(2));
    }
}

/// Huffman code lengths of `weights` (0: no code), ties broken by symbol order.
fn huffman(weights: &[u64]) -> Vec<u8> {
    let mut lens = vec![0u8; weights.len()];
    let used: Vec<usize> = (0..weights.len()).filter(|&s| weights[s] > 0).collect();
    match used.len() {
        0 => return lens,
        1 => {
            lens[used[0]] = 1;
            return lens;
        }
        _ => {}
    }
    // Nodes: leaves then internal ones; parent links give the depths.
    let mut weight: Vec<u64> = used.iter().map(|&s| weights[s]).collect();
    let mut parent = vec![usize::MAX; used.len()];
    let mut heap: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize)>> = (0..used.len())
        .map(|i| std::cmp::Reverse((weight[i], i)))
        .collect();
    while heap.len() > 1 {
        let std::cmp::Reverse((wa, a)) = heap.pop().unwrap_or_default();
        let std::cmp::Reverse((wb, b)) = heap.pop().unwrap_or_default();
        let node = weight.len();
        weight.push(wa + wb);
        parent.push(usize::MAX);
        parent[a] = node;
        parent[b] = node;
        heap.push(std::cmp::Reverse((wa + wb, node)));
    }
    for (leaf, &s) in used.iter().enumerate() {
        let mut depth = 0u32;
        let mut at = leaf;
        while parent[at] != usize::MAX {
            at = parent[at];
            depth += 1;
        }
        lens[s] = depth.min(255) as u8;
    }
    lens
}

/// The canonical codes of the lengths `lens`: `(code, length)` a symbol (length 0: none).
fn canonical(lens: &[u8]) -> Vec<(u32, u8)> {
    let mut codes = vec![(0, 0); lens.len()];
    let mut code = 0u32;
    for l in 1..=MAX_LEN as u8 {
        for (s, &ls) in lens.iter().enumerate() {
            if ls == l {
                codes[s] = (code, l);
                code += 1;
            }
        }
        code <<= 1;
    }
    codes
}

/// The decoder of one context's codes longer than [`FAST`] bits (its first table, on FAST
/// bits, is [`Decoder::new`]'s second result): the canonical code's limits.
#[derive(Clone)]
struct Decoder {
    /// For each length l = 0..=15: the first canonical code of length l.
    first: [u16; 16],
    /// For each length: how many codes have it.
    count: [u16; 16],
    /// For each length: the index in `symbols` of its first code.
    index: [u16; 16],
    /// The value codes ordered by (length, code).
    symbols: Box<[u8]>,
}

impl Decoder {
    /// The decoder of the code lengths `lens` and its first table (for each FAST-bit prefix:
    /// `code << 4 | length`, 0 for a longer code or none); `Err` with why when they are no
    /// prefix code (Kraft sum above 1).
    fn new(lens: &[u8]) -> Result<(Decoder, Vec<u16>), String> {
        let mut count = [0u16; 16];
        for &l in lens {
            if u32::from(l) > MAX_LEN {
                return Err(format!("a code length of {l} bits (at most {MAX_LEN})"));
            }
            count[l as usize] += 1;
        }
        count[0] = 0;
        let kraft: u64 = (1..=15).map(|l| u64::from(count[l]) << (15 - l)).sum();
        if kraft > 1 << 15 {
            return Err("code lengths that are no prefix code".into());
        }
        let mut first = [0u16; 16];
        let mut index = [0u16; 16];
        let (mut code, mut at) = (0u32, 0u16);
        for l in 1..16 {
            first[l] = code as u16;
            index[l] = at;
            code = (code + u32::from(count[l])) << 1;
            at += count[l];
        }
        let mut symbols: Vec<u8> = Vec::with_capacity(at as usize);
        for l in 1..=MAX_LEN as u8 {
            symbols.extend((0..lens.len()).filter(|&s| lens[s] == l).map(|s| s as u8));
        }
        let mut fast = vec![0u16; 1 << FAST];
        for (s, &(c, l)) in canonical(lens).iter().enumerate() {
            if l == 0 || u32::from(l) > FAST {
                continue;
            }
            let shift = FAST - u32::from(l);
            let from = (c << shift) as usize;
            for e in &mut fast[from..from + (1 << shift)] {
                *e = (s as u16) << 4 | u16::from(l);
            }
        }
        Ok((
            Decoder {
                first,
                count,
                index,
                symbols: symbols.into_boxed_slice(),
            },
            fast,
        ))
    }

    /// The value code of more than [`FAST`] bits at the top of `window` (the stream's next
    /// bits, most significant first) and its length, `None` when no code starts so.
    #[cold]
    fn decode_long(&self, window: u64) -> Option<(u8, u32)> {
        for l in 1..=MAX_LEN as usize {
            let code = (window >> (64 - l)) as u16;
            let d = code.wrapping_sub(self.first[l]);
            if code >= self.first[l] && d < self.count[l] {
                return Some((self.symbols[(self.index[l] + d) as usize], l as u32));
            }
        }
        None
    }
}

/// The 8 stream bytes from bit `bit` on, as a big-endian word shifted so that bit `bit` is
/// its top bit (at least 57 valid bits). `data` must hold 8 bytes past `bit / 8`.
#[inline(always)]
fn window(data: &[u8], bit: u64) -> u64 {
    let at = (bit / 8) as usize;
    let mut w = [0u8; 8];
    w.copy_from_slice(&data[at..at + 8]);
    u64::from_be_bytes(w) << (bit % 8)
}

/// Where the parts of a compact payload of the levels 0..=N lie.
#[derive(Clone, Debug)]
struct Layout {
    /// Byte offset of each level's tables, n = 0..=N + 1 (the last: the index's offset).
    tables: Vec<usize>,
    /// The first global block of each level, n = 0..=N + 1 (the last: the number of blocks).
    blocks: Vec<u64>,
    /// Byte offset of the index.
    index: usize,
    /// Byte offset of the stream.
    stream: usize,
}

/// Bytes of the tables of one context of level n.
fn context_bytes(n: u32) -> usize {
    (2 * n as usize + 1).div_ceil(2)
}

/// Contexts of level n.
fn contexts(n: u32) -> usize {
    let k = 2 * n as usize + 1;
    k * (k + 1)
}

impl Layout {
    fn new(max_seeds: u32) -> Layout {
        let mut tables = vec![8];
        let mut blocks = vec![0];
        for n in 0..=max_seeds {
            let t = tables[n as usize] + contexts(n) * context_bytes(n);
            tables.push(t);
            let b = blocks[n as usize] + level_len(n).unwrap_or(0).div_ceil(BLOCK as u64);
            blocks.push(b);
        }
        let index = tables[tables.len() - 1];
        let groups = (blocks[blocks.len() - 1] as usize).div_ceil(GROUP);
        Layout {
            tables,
            blocks,
            index,
            stream: index + groups * GROUP_BYTES,
        }
    }

    /// The payload's bytes for a stream of `stream` bytes.
    fn payload_bytes(&self, stream: u64) -> u64 {
        (self.stream as u64).saturating_add(stream)
    }
}

/// The most bytes of memory the decoders of the code tables of the levels 0..=`max_seeds`
/// take, every code of every context used (about 1.6 MB at N = 24, 12 MB for the levels
/// 0..=24 together): a bound before the tables are known ([`held_bytes`] gives what they
/// take).
pub(crate) fn decoder_bytes(max_seeds: u32) -> u64 {
    (0..=max_seeds)
        .map(|n| (contexts(n) * (DECODER_BYTES + 2 * n as usize + 1)) as u64)
        .sum()
}

/// Bytes one context's decoder takes besides its symbols: its first table of 2^[`FAST`]
/// `u16` entries and the 96 bytes of its limits ([`Decoder`]'s `first`, `count`, `index`).
const DECODER_BYTES: usize = (1 << FAST) * 2 + 96;

/// The bytes of the code tables of a compact payload of the levels 0..=`max_seeds`, counted
/// from its start (the stream's length, then the tables): what [`held_bytes`] reads.
pub(crate) fn tables_end(max_seeds: u32) -> usize {
    Layout::new(max_seeds).index
}

/// The bytes of memory a compact database of the levels 0..=`max_seeds` takes once opened
/// ([`CompactLevels::bytes`]): the payload of `payload` bytes and its [`PAD`] bytes of
/// padding, and the decoders of its code tables, one a context of every level (its first
/// table and limits, [`DECODER_BYTES`], and a byte for each value code its table gives a
/// length). `head` is the payload's first bytes, at least [`tables_end`] of them (fewer: the
/// tables missing count no symbol).
pub(crate) fn held_bytes(max_seeds: u32, payload: u64, head: &[u8]) -> u64 {
    let layout = Layout::new(max_seeds);
    let mut bytes = payload + PAD as u64;
    for n in 0..=max_seeds {
        let k = 2 * n as usize + 1;
        let at = layout.tables[n as usize];
        for ctx in 0..contexts(n) {
            let from = at + ctx * context_bytes(n);
            let symbols = head.get(from..from + context_bytes(n)).map_or(0, |t| {
                (0..k)
                    .filter(|&s| (t[s / 2] >> (4 * (s % 2))) & 15 != 0)
                    .count()
            });
            bytes += (DECODER_BYTES + symbols) as u64;
        }
    }
    bytes
}

/// The compact values of the levels 0..=N in memory: the payload as in the file (then
/// [`PAD`] zero bytes) and the decoders of its tables.
pub(crate) struct CompactLevels {
    data: FrozenBytes,
    layout: Layout,
    /// The decoders of level n's contexts.
    decoders: Vec<Vec<Decoder>>,
    /// The first tables of level n's decoders, one after the other (context c's at
    /// `c << FAST`): one read a code.
    fast: Vec<Box<[u16]>>,
    /// The bytes of memory the values take ([`CompactLevels::bytes`]), counted once when
    /// the levels are made.
    bytes: usize,
}

impl CompactLevels {
    /// The payload bytes, without the padding.
    pub(crate) fn payload(&self) -> &[u8] {
        let b = self.data.bytes();
        &b[..b.len() - PAD]
    }

    /// The payload and its padding, as held.
    pub(crate) fn data_with_pad(&self) -> &[u8] {
        self.data.bytes()
    }

    /// The bytes of memory the values take: the payload, its padding and the decoders
    /// ([`held_bytes`], which [`AwariDb::info`](super::AwariDb::info) gives before the file
    /// is opened), counted from the code tables once, when the levels were made
    /// ([`CompactLevels::new`]).
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    /// The bit offset in the stream of global block `b`.
    #[inline(always)]
    fn block_bit(&self, b: u64) -> u64 {
        let bytes = self.data.bytes();
        let g = self.layout.index + (b as usize / GROUP) * GROUP_BYTES;
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[g..g + 8]);
        let start = u64::from_le_bytes(w);
        match b as usize % GROUP {
            0 => start,
            j => {
                let at = g + 8 + 2 * (j - 1);
                start.saturating_add(u64::from(u16::from_le_bytes([bytes[at], bytes[at + 1]])))
            }
        }
    }

    /// The value of board `index` of level `n` (both in range): decodes its block up to it.
    #[inline]
    pub(crate) fn value(&self, n: u32, index: u64) -> i32 {
        let block = index / BLOCK as u64;
        let start = block * BLOCK as u64;
        let mut bit = self.block_bit(self.layout.blocks[n as usize] + block);
        let stream = &self.data.bytes()[self.layout.stream..];
        let decoders = &self.decoders[n as usize];
        let fast = &self.fast[n as usize];
        let k = 2 * n + 1;
        let mut codes = [0u8; BLOCK];
        let mut walk = Walk::at(n, start);
        let mut prev = n as u8;
        let last = (index - start) as usize;
        for j in 0..=last {
            let up = walk
                .up()
                .filter(|&o| j as u64 >= o)
                .map(|o| codes[j - o as usize]);
            let ctx = context(k, prev, up);
            let w = window(stream, bit);
            let e = fast[ctx << FAST | (w >> (64 - FAST)) as usize];
            let (code, len) = if e != 0 {
                ((e >> 4) as u8, u32::from(e & 15))
            } else {
                // Opening checked that every code of the stream decodes.
                decoders[ctx].decode_long(w).unwrap_or((n as u8, 1))
            };
            bit += u64::from(len);
            codes[j] = code;
            prev = code;
            walk.step();
        }
        i32::from(prev) - n as i32
    }

    /// Every value code of level `n` (0..2n, value + n), written to `out` (the level's
    /// length), its codes starting at bit `start`, checking that each block starts where the
    /// index says and that every code decodes; returns the bit after the level's last code.
    fn decode_level(&self, n: u32, start: u64, out: &mut [u8]) -> Result<u64, EgdbError> {
        let stream = &self.data.bytes()[self.layout.stream..];
        let stream_bits = (stream.len() - PAD) as u64 * 8;
        let decoders = &self.decoders[n as usize];
        let fast = &self.fast[n as usize];
        let k = 2 * n + 1;
        let first_block = self.layout.blocks[n as usize];
        let mut walk = Walk::at(n, 0);
        let mut bit = start;
        let mut prev = n as u8;
        let mut block_start = 0;
        for i in 0..out.len() {
            if i % BLOCK == 0 {
                let b = first_block + (i / BLOCK) as u64;
                let at = self.block_bit(b);
                if at != bit {
                    return Err(bad_block(
                        b,
                        format!("the index puts it at bit {at}, its codes at {bit}"),
                    ));
                }
                block_start = i;
                prev = n as u8;
            }
            let up = walk
                .up()
                .filter(|&o| (i as u64) >= block_start as u64 + o)
                .map(|o| out[i - o as usize]);
            let ctx = context(k, prev, up);
            let w = window(stream, bit);
            let e = fast[ctx << FAST | (w >> (64 - FAST)) as usize];
            let (code, len) = if e != 0 {
                Some(((e >> 4) as u8, u32::from(e & 15)))
            } else {
                decoders[ctx].decode_long(w)
            }
            .filter(|&(c, _)| u32::from(c) < k)
            .ok_or_else(|| {
                bad_block(
                    first_block + (i / BLOCK) as u64,
                    format!("no code at bit {bit} for board {i} of level {n}"),
                )
            })?;
            bit += u64::from(len);
            if bit > stream_bits {
                return Err(bad_block(
                    first_block + (i / BLOCK) as u64,
                    format!("codes past the stream's end ({stream_bits} bits)"),
                ));
            }
            out[i] = code;
            prev = code;
            walk.step();
        }
        Ok(bit)
    }
}

/// Checks the length of the compact payload of the levels 0..=`max_seeds` held in `data`
/// (then [`PAD`] bytes) against the stream length it begins with; `at` bytes precede the
/// payload in its file.
///
/// # Errors
/// [`EgdbError::Truncated`], [`EgdbError::TooLong`] (with the file's bytes: the payload's
/// and `at`).
pub(crate) fn check_length(max_seeds: u32, data: &[u8], at: u64) -> Result<(), EgdbError> {
    let payload = data.len().saturating_sub(PAD) as u64;
    let first = data.get(..8).and_then(|b| <[u8; 8]>::try_from(b).ok());
    check_stream_length(max_seeds, first, payload, at)
}

/// [`check_length`] from the payload's first 8 bytes (`None` when it has fewer) and its
/// length `payload` (bytes, the padding excluded), so that the length of a file is checked
/// from its first bytes without reading the rest (`egdb info`).
///
/// # Errors
/// As [`check_length`].
pub(crate) fn check_stream_length(
    max_seeds: u32,
    first: Option<[u8; 8]>,
    payload: u64,
    at: u64,
) -> Result<(), EgdbError> {
    let layout = Layout::new(max_seeds);
    let Some(s) = first.filter(|_| payload >= 8) else {
        // The stream's length is cut off: the payload takes at least its tables and index.
        return Err(EgdbError::Truncated {
            expected: at + layout.stream as u64,
            found: at + payload,
            at_least: true,
        });
    };
    let expected = layout
        .payload_bytes(u64::from_le_bytes(s))
        .max(layout.stream as u64);
    let (expected, found) = (at.saturating_add(expected), at + payload);
    match found.cmp(&expected) {
        std::cmp::Ordering::Less => Err(EgdbError::Truncated {
            expected,
            found,
            at_least: false,
        }),
        std::cmp::Ordering::Greater => Err(EgdbError::TooLong { expected, found }),
        std::cmp::Ordering::Equal => Ok(()),
    }
}

/// The error of block `block` of a compact stream.
fn bad_block(block: u64, why: String) -> EgdbError {
    EgdbError::BadBlock { block, why }
}

/// Encodes the levels `levels` (level n: the values, one `i8` a board, in rank order) as a
/// compact payload, then [`PAD`] zero bytes.
///
/// # Errors
/// [`EgdbError::OutOfMemory`].
pub(crate) fn encode<'a>(
    max_seeds: u32,
    level: impl Fn(u32) -> &'a [u8],
) -> Result<CompactLevels, EgdbError> {
    let layout = Layout::new(max_seeds);
    let mut head = vec![0u8; layout.stream];
    let mut stream: Vec<u8> = Vec::new();
    let mut block_bits: Vec<u64> = Vec::new();
    let mut acc = 0u64;
    let mut nbits = 0u32;
    let mut total_bits = 0u64;
    for n in 0..=max_seeds {
        let k = 2 * n + 1;
        let codes: Vec<u8> = level(n)
            .iter()
            .map(|&b| (i32::from(b as i8) + n as i32) as u8)
            .collect();
        let mut counts = vec![0u64; contexts(n) * k as usize];
        for_each_context(n, &codes, |_, ctx, code| {
            counts[ctx * k as usize + code as usize] += 1;
        });
        let mut table = Vec::with_capacity(contexts(n));
        let at = layout.tables[n as usize];
        for ctx in 0..contexts(n) {
            let lens = code_lengths(&counts[ctx * k as usize..(ctx + 1) * k as usize]);
            let bytes = &mut head[at + ctx * context_bytes(n)..][..context_bytes(n)];
            for (s, &l) in lens.iter().enumerate() {
                bytes[s / 2] |= l << (4 * (s % 2));
            }
            table.push(canonical(&lens));
        }
        for_each_context(n, &codes, |i, ctx, code| {
            if i % BLOCK == 0 {
                block_bits.push(total_bits);
            }
            let (c, l) = table[ctx][code as usize];
            acc = acc << l | u64::from(c);
            nbits += u32::from(l);
            total_bits += u64::from(l);
            while nbits >= 8 {
                nbits -= 8;
                stream.push((acc >> nbits) as u8);
            }
        });
    }
    if nbits > 0 {
        stream.push((acc << (8 - nbits)) as u8);
    }
    head[..8].copy_from_slice(&(stream.len() as u64).to_le_bytes());
    for (g, group) in block_bits.chunks(GROUP).enumerate() {
        let at = layout.index + g * GROUP_BYTES;
        head[at..at + 8].copy_from_slice(&group[0].to_le_bytes());
        for (j, &b) in group.iter().enumerate().skip(1) {
            let rel = (b - group[0]) as u16;
            head[at + 8 + 2 * (j - 1)..][..2].copy_from_slice(&rel.to_le_bytes());
        }
    }
    let total = head.len() + stream.len() + PAD;
    let (data, _) = FrozenBytes::filled_in_pieces(total, usize::MAX, |_, out| {
        out[..head.len()].copy_from_slice(&head);
        out[head.len()..head.len() + stream.len()].copy_from_slice(&stream);
        Ok::<(), EgdbError>(())
    })?;
    CompactLevels::new(max_seeds, data)
}

impl CompactLevels {
    /// The compact levels of the payload `data` (then [`PAD`] bytes) of the levels
    /// 0..=`max_seeds`: its length and tables checked, its decoders built (the stream is
    /// checked by [`CompactLevels::decode_all`]).
    ///
    /// # Errors
    /// [`EgdbError::Truncated`], [`EgdbError::TooLong`] (the payload's length against the
    /// stream length it holds), [`EgdbError::BadBlock`] (a table that is no prefix code).
    pub(crate) fn new(max_seeds: u32, data: FrozenBytes) -> Result<CompactLevels, EgdbError> {
        check_length(max_seeds, data.bytes(), 0)?;
        let layout = Layout::new(max_seeds);
        let bytes = data.bytes();
        let mut decoders = Vec::with_capacity(max_seeds as usize + 1);
        let mut fast = Vec::with_capacity(max_seeds as usize + 1);
        for n in 0..=max_seeds {
            let k = 2 * n as usize + 1;
            let at = layout.tables[n as usize];
            let mut level = Vec::with_capacity(contexts(n));
            let mut first = Vec::with_capacity(contexts(n) << FAST);
            for ctx in 0..contexts(n) {
                let t = &bytes[at + ctx * context_bytes(n)..][..context_bytes(n)];
                if k % 2 == 1 && t[k / 2] >> 4 != 0 {
                    return Err(bad_block(
                        layout.blocks[n as usize],
                        format!("level {n}'s table {ctx} has a nibble past its last value"),
                    ));
                }
                let lens: Vec<u8> = (0..k).map(|s| (t[s / 2] >> (4 * (s % 2))) & 15).collect();
                let (d, f) = Decoder::new(&lens).map_err(|why| {
                    bad_block(
                        layout.blocks[n as usize],
                        format!("level {n}'s table {ctx}: {why}"),
                    )
                })?;
                level.push(d);
                first.extend_from_slice(&f);
            }
            decoders.push(level);
            fast.push(first.into_boxed_slice());
        }
        // The memory is the decoders' of these tables: counted now, once.
        let payload = &bytes[..bytes.len() - PAD];
        let held = held_bytes(max_seeds, payload.len() as u64, payload);
        let held = usize::try_from(held).map_err(|_| crate::OutOfMemory::failed(usize::MAX))?;
        Ok(CompactLevels {
            data,
            layout,
            decoders,
            fast,
            bytes: held,
        })
    }

    /// Decodes every level, checking the index and the stream: `visit(n, values)` gets the
    /// values of level n as `i8`s (one byte a board, rank order).
    ///
    /// # Errors
    /// [`EgdbError::BadBlock`] (an index entry that is not where its block's codes start, a
    /// bit sequence that is no code, codes past the stream, unused index entries not 0),
    /// [`EgdbError::Padding`] (bits after the last code not 0), [`EgdbError::OutOfMemory`],
    /// and the errors of `visit`.
    pub(crate) fn decode_all(
        &self,
        mut visit: impl FnMut(u32, &[u8]) -> Result<(), EgdbError>,
    ) -> Result<(), EgdbError> {
        let max_seeds = self.decoders.len() as u32 - 1;
        let mut end = 0;
        let mut buf: Vec<u8> = Vec::new();
        for n in 0..=max_seeds {
            let len = level_len(n).unwrap_or(0) as usize;
            buf.clear();
            buf.try_reserve_exact(len)
                .map_err(|_| crate::OutOfMemory::failed_now(len))?;
            buf.resize(len, 0);
            end = self.decode_level(n, end, &mut buf)?;
            buf.iter_mut()
                .for_each(|c| *c = (i32::from(*c) - n as i32) as i8 as u8);
            visit(n, &buf)?;
        }
        let blocks = *self.layout.blocks.last().unwrap_or(&0) as usize;
        let bytes = self.data.bytes();
        for b in (blocks..blocks.div_ceil(GROUP) * GROUP).filter(|b| b % GROUP != 0) {
            let at = self.layout.index + (b / GROUP) * GROUP_BYTES + 8 + 2 * (b % GROUP - 1);
            if (bytes[at] | bytes[at + 1]) != 0 {
                return Err(bad_block(
                    b as u64,
                    "an index entry past the last block is not 0".into(),
                ));
            }
        }
        let stream_len = bytes.len() - PAD - self.layout.stream;
        if end.div_ceil(8) != stream_len as u64 {
            return Err(bad_block(
                blocks as u64,
                format!("the codes end at bit {end}, the stream holds {stream_len} bytes"),
            ));
        }
        let unused = (stream_len as u64 * 8 - end) as u32;
        if unused > 0 {
            let last = bytes[bytes.len() - PAD - 1];
            let found = last & ((1u8 << unused) - 1);
            if found != 0 {
                return Err(EgdbError::Padding {
                    bits: unused,
                    found,
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::awari::rank::rank;
    use crate::awari::AwariBoard;

    /// The walk agrees with the ranking: at every index of small levels, the board of the
    /// context "a seed of house 2 moved to house 3" ranks `up()` earlier.
    #[test]
    fn walk_finds_the_house_2_to_3_neighbour() {
        for n in 0..=7u32 {
            let len = level_len(n).unwrap();
            let mut walk = Walk::at(n, 0);
            for i in 0..len {
                let board = crate::awari::rank::unrank(n, i).unwrap();
                let (own, opp) = board.rows();
                let h2 = (own >> 8) & 0xFF;
                match walk.up() {
                    Some(o) => {
                        assert!(h2 > 0, "n {n} i {i}");
                        let moved = own - (1 << 8) + (1 << 16);
                        let b = AwariBoard::from_rows(moved, opp);
                        assert_eq!(rank(&b), Some(i - o), "n {n} i {i}");
                    }
                    None => assert_eq!(h2, 0, "n {n} i {i}"),
                }
                // A walk started anywhere agrees with the one from the start.
                if i % 37 == 5 {
                    let w = Walk::at(n, i);
                    assert_eq!(
                        (w.c, w.m, w.left, w.runs),
                        (walk.c, walk.m, walk.left, walk.runs)
                    );
                }
                walk.step();
            }
        }
    }

    /// Huffman lengths: the textbook example (Cormen et al., 16.3: a 45, b 13, c 12, d 16,
    /// e 9, f 5 gives 1, 3, 3, 3, 4, 4), and a limit held on a geometric distribution.
    #[test]
    fn huffman_lengths() {
        assert_eq!(
            code_lengths(&[45, 13, 12, 16, 9, 5]),
            vec![1, 3, 3, 3, 4, 4]
        );
        let geometric: Vec<u64> = (0..40).map(|i| 1u64 << (40 - i)).collect();
        let lens = code_lengths(&geometric);
        assert!(lens.iter().all(|&l| (1..=15).contains(&l)));
        let kraft: f64 = lens.iter().map(|&l| 0.5f64.powi(i32::from(l))).sum();
        assert!(kraft <= 1.0);
        assert_eq!(code_lengths(&[0, 7, 0]), vec![0, 1, 0]);
    }
}
