//! The in-memory database: the values of every level 0..=N, one byte a board, built level by
//! level ([`super::retro`]), with the lookup of a board's value and of each move's value.

use mancala_core::oware::{GrandSlam, OwareRules};

use super::board::{
    classify_g, fixed_value, has_empty, with_grand_slam, AwariBoard, AwariMove, Child, Class, H,
    MAX_SEEDS,
};
use super::compact::{self, CompactLevels};
use super::rank::{level_len, rank_rows, RowTable};
use super::retro::{solve_level, LevelStats, LevelTimes};
use super::AwariError;
use crate::egdb::packed::{self, Codec, Probe, PAD};
use crate::egdb::{EgdbError, Encoding};
use crate::mem::FrozenBytes;

/// What the build reports after each level.
#[derive(Clone, Copy, Debug)]
pub struct LevelReport {
    /// The level's counts (wins, draws, losses for the mover, sum of values).
    pub stats: LevelStats,
    /// The level's wall times by phase, seconds.
    pub times: LevelTimes,
}

/// The exact value (OW-10.3) of every board with at most N seeds under one position-only
/// Oware rule set, in memory: the Oware databases of every rule set whose values depend on
/// the board and the side to move alone — six houses a side, `majority=off`,
/// `cycle_score=split`, no move limit — one database a grand-slam rule (`none`, `all`,
/// `forbidden`, `leave_last`, `unless_only`; [`AwariDb::grand_slam`]). The `awari` rule set
/// (`unless_only`) is the one the name recalls; `oware+majority=off+cycle_score=split` (the
/// Abapa rules without the majority end, cycles split) is `none`.
///
/// Level n holds a value for each of the `C(n+11,11) − C(n+5,11)` indexed boards (OW-11.1),
/// in the order of [`super::rank`]: the value to the mover, −n..=n, either one byte a board
/// (an `i8`; [`Encoding::Byte`], what a build gives) or packed ([`Encoding::Packed`]: the
/// code of the value in its level, 6 bits a board for N = 16..=31; module docs of
/// `awari::file`), as [`AwariDb::convert`] or the file it was opened from makes it. A board
/// that is not indexed (the mover's opponent has no empty house: no move produces it, but
/// the start position is one) is valued by one ply over its children, which are.
pub struct AwariDb {
    pub(super) grand_slam: GrandSlam,
    pub(super) max_seeds: u32,
    pub(super) store: Store,
    pub(super) stats: Vec<LevelStats>,
}

/// How an [`AwariDb`] holds its values.
pub(super) enum Store {
    /// One `i8` a board, one buffer a level.
    Bytes(Vec<FrozenBytes>),
    /// Every level in one packed bit stream, level 0 first (what the file holds).
    Packed(PackedLevels),
    /// The compact payload (what the file holds) and its decoders.
    Compact(CompactLevels),
}

/// The values of the levels 0..=N as one packed stream ([`Encoding::Packed`]).
pub(super) struct PackedLevels {
    /// The codes of every level ([`Codec::all_values`] of N).
    pub(super) codec: Codec,
    /// The payload as in the file, then [`PAD`] zero bytes.
    pub(super) data: FrozenBytes,
    /// The rank in the stream of the first board of level n, n = 0..=N + 1 (the last: the
    /// number of entries).
    pub(super) starts: Vec<u64>,
}

impl PackedLevels {
    /// The first rank of each level 0..=`max_seeds` + 1 in the stream of every level.
    pub(super) fn level_starts(max_seeds: u32) -> Vec<u64> {
        let mut starts = Vec::with_capacity(max_seeds as usize + 2);
        let mut at = 0;
        starts.push(0);
        for n in 0..=max_seeds {
            at += level_len(n).unwrap_or(0);
            starts.push(at);
        }
        starts
    }

    /// The payload bytes, without the padding.
    pub(super) fn payload(&self) -> &[u8] {
        let entries = *self.starts.last().unwrap_or(&0);
        &self.data.bytes()[..self.codec.payload_bytes(entries) as usize]
    }

    /// The value of board `index` of level `n` (both in range).
    #[inline(always)]
    fn value(&self, n: u32, index: u64) -> i32 {
        Probe::packed(self.data.bytes(), &self.codec).value(self.starts[n as usize] + index, n)
    }
}

impl std::fmt::Debug for AwariDb {
    /// `AwariDb(levels 0..=N, B bytes)`: the values are not printed.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "AwariDb({}, levels 0..={}, {} bytes)",
            self.rules(),
            self.max_seeds,
            self.bytes()
        )
    }
}

impl AwariDb {
    /// Builds every level 0..=`max_seeds` of the `awari` database (`grand_slam=unless_only`;
    /// [`AwariDb::build_until_under`] for the other rules) on a pool of `threads` threads
    /// (0 = one a core).
    /// Errors: [`AwariError::TooManySeeds`] above [`MAX_SEEDS`], [`AwariError::Threads`]
    /// when the pool cannot start or more than [`crate::MAX_THREADS`] are asked for,
    /// [`AwariError::OutOfMemory`] when the build would need more than the memory available
    /// (checked before any work: the values, a byte a board, and about four bytes a board of
    /// the top level) or when a level's memory cannot be had.
    pub fn build(max_seeds: u32, threads: usize) -> Result<AwariDb, AwariError> {
        AwariDb::build_with(max_seeds, threads, |_| {})
    }

    /// [`AwariDb::build`], calling `report` after each level (from the calling thread).
    pub fn build_with(
        max_seeds: u32,
        threads: usize,
        mut report: impl FnMut(&LevelReport),
    ) -> Result<AwariDb, AwariError> {
        AwariDb::build_until(max_seeds, threads, |r| {
            report(r);
            true
        })
    }

    /// [`AwariDb::build_with`] that the caller may stop: `report` is called after each level
    /// (from the calling thread) and the build goes on while it returns `true`; `false` stops
    /// it with [`AwariError::Cancelled`] (a level of N seeds takes a fraction of the whole
    /// build: the top level about a third). Other errors as [`AwariDb::build`].
    pub fn build_until(
        max_seeds: u32,
        threads: usize,
        report: impl FnMut(&LevelReport) -> bool,
    ) -> Result<AwariDb, AwariError> {
        AwariDb::build_until_under(GrandSlam::UnlessOnly, max_seeds, threads, report)
    }

    /// [`AwariDb::build_until`] for the rule set of the grand-slam rule `grand_slam`
    /// ([`AwariDb::rules_of`]: six houses a side, `majority=off`, `cycle_score=split`): every
    /// level 0..=`max_seeds` on a pool of `threads` threads (0 = one a core), `report` called
    /// after each level (from the calling thread), the build going on while it returns
    /// `true`. Errors: [`AwariError::TooManySeeds`] above [`MAX_SEEDS`],
    /// [`AwariError::Threads`], [`AwariError::OutOfMemory`], [`AwariError::Cancelled`].
    pub fn build_until_under(
        grand_slam: GrandSlam,
        max_seeds: u32,
        threads: usize,
        mut report: impl FnMut(&LevelReport) -> bool,
    ) -> Result<AwariDb, AwariError> {
        let pool = build_pool(max_seeds, threads, false)?;
        let mut levels: Vec<FrozenBytes> = Vec::with_capacity(max_seeds as usize + 1);
        let mut stats = Vec::with_capacity(max_seeds as usize + 1);
        let table = RowTable::new(max_seeds);
        for n in 0..=max_seeds {
            let lower: Vec<&[u8]> = levels.iter().map(FrozenBytes::bytes).collect();
            let (values, s, times) = with_grand_slam!(grand_slam, G => {
                pool.install(|| solve_level::<G>(n, &lower, &table))
            })?;
            drop(lower);
            if !report(&LevelReport { stats: s, times }) {
                return Err(AwariError::Cancelled);
            }
            levels.push(values);
            stats.push(s);
        }
        Ok(AwariDb {
            grand_slam,
            max_seeds,
            store: Store::Bytes(levels),
            stats,
        })
    }

    /// [`AwariDb::build_with`] as part `ex.part()` of a build shared by `ex.parts()`
    /// processes (`mancala-mpi egdb build --rules awari`; method and proof in
    /// [`super::shard`]): every part gets every level, the same bytes as
    /// [`AwariDb::build`]'s. `threads` (0 = one a core) run this part's forward passes; its
    /// threshold phase runs on the calling thread. `report` gets this part's times (the
    /// `rescans` field counts the exchange rounds). Errors as [`AwariDb::build`] (the memory
    /// checked before any work is that of the values, which every part holds: the top
    /// level's work space is split between the parts); every part must call it with the
    /// same `max_seeds`.
    pub fn build_shared(
        max_seeds: u32,
        threads: usize,
        ex: &mut dyn super::shard::Exchange,
        report: impl FnMut(&LevelReport),
    ) -> Result<AwariDb, AwariError> {
        AwariDb::build_shared_under(GrandSlam::UnlessOnly, max_seeds, threads, ex, report)
    }

    /// [`AwariDb::build_shared`] for the rule set of the grand-slam rule `grand_slam`
    /// ([`AwariDb::rules_of`]). Errors as [`AwariDb::build_shared`].
    pub fn build_shared_under(
        grand_slam: GrandSlam,
        max_seeds: u32,
        threads: usize,
        ex: &mut dyn super::shard::Exchange,
        mut report: impl FnMut(&LevelReport),
    ) -> Result<AwariDb, AwariError> {
        let pool = build_pool(max_seeds, threads, true)?;
        let mut levels: Vec<FrozenBytes> = Vec::with_capacity(max_seeds as usize + 1);
        let mut stats = Vec::with_capacity(max_seeds as usize + 1);
        for n in 0..=max_seeds {
            let lower: Vec<&[u8]> = levels.iter().map(FrozenBytes::bytes).collect();
            let (values, times) = with_grand_slam!(grand_slam, G => {
                super::shard::solve_level_shared::<G>(n, &lower, &pool, &mut *ex)
            });
            drop(lower);
            let s = super::shard::level_stats(n, &values);
            report(&LevelReport { stats: s, times });
            levels.push(FrozenBytes::copy_of(&values)?);
            stats.push(s);
        }
        Ok(AwariDb {
            grand_slam,
            max_seeds,
            store: Store::Bytes(levels),
            stats,
        })
    }

    /// The grand-slam rule of the rule set whose values the database holds (OW-4.2):
    /// [`GrandSlam::UnlessOnly`] for the `awari` database.
    #[must_use]
    pub fn grand_slam(&self) -> GrandSlam {
        self.grand_slam
    }

    /// The rule set whose values the database holds, as its file names it
    /// ([`AwariDb::rules_of`] of [`AwariDb::grand_slam`]).
    #[must_use]
    pub fn rules(&self) -> OwareRules {
        AwariDb::rules_of(self.grand_slam)
    }

    /// The rule set of the database of the grand-slam rule `grand_slam`: `awari` (six houses
    /// a side, four seeds a house, `majority=off`, `repetition=3`, `cycle_score=split`, no
    /// move limit) with that grand-slam rule — `awari` itself for `unless_only`,
    /// `awari+grand_slam=none` (the same rules as `oware+majority=off+cycle_score=split`) for
    /// `none`. The database serves every rule set that differs from it only in the seeds a
    /// house and the repetition rule ([`super::check_rules_for`]).
    #[must_use]
    pub fn rules_of(grand_slam: GrandSlam) -> OwareRules {
        OwareRules::AWARI.with_grand_slam(grand_slam)
    }

    /// The largest level held, seeds.
    #[must_use]
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// The counts of level `n`, `None` past [`AwariDb::max_seeds`].
    #[must_use]
    pub fn level_stats(&self, n: u32) -> Option<&LevelStats> {
        self.stats.get(n as usize)
    }

    /// The bytes of memory the values take: one a board ([`Encoding::Byte`]), the packed
    /// payload and its 8 bytes of padding ([`Encoding::Packed`]), or the compact payload,
    /// its 8 bytes of padding and the decoders of its code tables ([`Encoding::Compact`]).
    #[must_use]
    pub fn bytes(&self) -> usize {
        match &self.store {
            Store::Bytes(levels) => levels.iter().map(|l| l.bytes().len()).sum(),
            Store::Packed(p) => p.data.bytes().len(),
            Store::Compact(c) => c.bytes(),
        }
    }

    /// How the values are held: [`Encoding::Byte`] (built, or opened from a one-byte file),
    /// [`Encoding::Packed`] or [`Encoding::Compact`] (converted, or opened from a file in it).
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        match &self.store {
            Store::Bytes(_) => Encoding::Byte,
            Store::Packed(_) => Encoding::Packed,
            Store::Compact(_) => Encoding::Compact,
        }
    }

    /// Bits a board takes in the file and in memory: 8 one byte a board, or the packed width
    /// ⌈log₂(2N + 1)⌉ (module docs of `awari::file`: 6 for N = 16..=31, 7 for N = 32..=48);
    /// for [`Encoding::Compact`], whose codes have no fixed width, the most it can take
    /// on average, 8 ([`AwariDb::average_bits`] gives what it takes).
    #[must_use]
    pub fn bits_per_entry(&self) -> u32 {
        match &self.store {
            Store::Bytes(_) | Store::Compact(_) => 8,
            Store::Packed(p) => p.codec.width(),
        }
    }

    /// The bits a board takes in the file's payload, on average: the payload's bits over
    /// the boards (8 one byte a board; about 3.2 compact at N = 20..=24).
    #[must_use]
    pub fn payload_bits_per_board(&self) -> f64 {
        self.payload_bytes() as f64 * 8.0 / super::entries_to(self.max_seeds) as f64
    }

    /// The bytes of the file's payload, exactly: the entries as [`AwariDb::save`] writes
    /// them, the header not counted (one byte a board, the packed words without their
    /// padding, or the compact stream's length, tables, index and stream).
    #[must_use]
    pub fn payload_bytes(&self) -> u64 {
        let bytes = match &self.store {
            Store::Bytes(levels) => levels.iter().map(|l| l.bytes().len()).sum(),
            Store::Packed(p) => p.payload().len(),
            Store::Compact(c) => c.payload().len(),
        };
        bytes as u64
    }

    /// The value of the board of index `index` in level `n`, `None` when there is none.
    #[must_use]
    pub fn value_at(&self, n: u32, index: u64) -> Option<i32> {
        if n > self.max_seeds || index >= level_len(n)? {
            return None;
        }
        Some(self.level_value(n, index))
    }

    /// The value of board `index` of level `n` (both in range), in either encoding: one
    /// memory access.
    #[inline(always)]
    fn level_value(&self, n: u32, index: u64) -> i32 {
        match &self.store {
            Store::Bytes(levels) => i32::from(levels[n as usize].bytes()[index as usize] as i8),
            Store::Packed(p) => p.value(n, index),
            Store::Compact(c) => c.value(n, index),
        }
    }

    /// The value of an indexed board given as rows (seeds ≤ max, not checked).
    #[inline]
    fn indexed(&self, n: u32, mover: u64, opp: u64) -> i32 {
        self.level_value(n, rank_rows(n, mover, opp))
    }

    /// The same database with its values held in `encoding` (every value the same; a copy
    /// when it is already in it): [`Encoding::Packed`] takes ⌈E·w/8⌉ + 8 bytes for E boards of
    /// w bits ([`AwariDb::bits_per_entry`]) instead of E; [`Encoding::Compact`] about 3.2
    /// bits a board at N = 20..=24 ([`AwariDb::payload_bits_per_board`]; to and from it the
    /// values pass through one byte a board, the packed ones too). Both are in memory at
    /// once while converting. [`AwariDb::save`] then writes the file in that encoding.
    ///
    /// # Errors
    /// [`EgdbError::OutOfMemory`].
    pub fn convert(&self, encoding: Encoding) -> Result<AwariDb, EgdbError> {
        let store = match (&self.store, encoding) {
            (Store::Compact(c), Encoding::Compact) => Store::Compact(CompactLevels::new(
                self.max_seeds,
                FrozenBytes::copy_of(c.data_with_pad())?,
            )?),
            (Store::Bytes(levels), Encoding::Compact) => {
                Store::Compact(compact::encode(self.max_seeds, |n| {
                    levels[n as usize].bytes()
                })?)
            }
            (Store::Packed(_), Encoding::Compact) => {
                return self.convert(Encoding::Byte)?.convert(Encoding::Compact)
            }
            (Store::Compact(_), Encoding::Packed) => {
                return self.convert(Encoding::Byte)?.convert(Encoding::Packed)
            }
            (Store::Compact(c), Encoding::Byte) => {
                let mut levels = Vec::with_capacity(self.max_seeds as usize + 1);
                c.decode_all(|_, values| {
                    levels.push(FrozenBytes::copy_of(values)?);
                    Ok(())
                })?;
                Store::Bytes(levels)
            }
            (Store::Bytes(levels), Encoding::Byte) => Store::Bytes(
                levels
                    .iter()
                    .map(|l| FrozenBytes::copy_of(l.bytes()))
                    .collect::<Result<_, _>>()?,
            ),
            (Store::Packed(p), Encoding::Packed) => Store::Packed(PackedLevels {
                codec: p.codec.clone(),
                data: FrozenBytes::copy_of(p.data.bytes())?,
                starts: p.starts.clone(),
            }),
            (Store::Bytes(levels), Encoding::Packed) => {
                let codec = Codec::all_values(self.max_seeds);
                let starts = PackedLevels::level_starts(self.max_seeds);
                let entries = starts[starts.len() - 1];
                let len = usize::try_from(codec.payload_bytes(entries))
                    .map_err(|_| crate::OutOfMemory::failed(usize::MAX))?
                    + PAD;
                let words = crate::mem::ZeroedBuf::<std::sync::atomic::AtomicU64>::new(
                    len.div_ceil(8) + 1,
                )?;
                for (n, level) in levels.iter().enumerate() {
                    let value = |b: u8| i32::from(b as i8);
                    packed::pack_layer(
                        &codec,
                        n as u32,
                        level.bytes(),
                        value,
                        words.as_slice(),
                        starts[n],
                    );
                }
                Store::Packed(PackedLevels {
                    codec,
                    data: words.freeze_bytes(len),
                    starts,
                })
            }
            (Store::Packed(p), Encoding::Byte) => {
                let mut levels = Vec::with_capacity(self.max_seeds as usize + 1);
                for n in 0..=self.max_seeds {
                    let len = (p.starts[n as usize + 1] - p.starts[n as usize]) as usize;
                    // One piece: the unpacking itself is parallel.
                    let (level, _) = FrozenBytes::filled_in_pieces(len, usize::MAX, |_, out| {
                        let byte = |v: i32| v as i8 as u8;
                        packed::unpack_layer(
                            &p.codec,
                            n,
                            p.data.bytes(),
                            p.starts[n as usize],
                            out,
                            byte,
                        );
                        Ok::<(), EgdbError>(())
                    })?;
                    levels.push(level);
                }
                Store::Bytes(levels)
            }
        };
        Ok(AwariDb {
            grand_slam: self.grand_slam,
            max_seeds: self.max_seeds,
            store,
            stats: self.stats.clone(),
        })
    }

    /// The value of `board` to its mover ([`AwariDb::board_value`]).
    ///
    /// # Errors
    /// As [`AwariDb::board_value`].
    #[deprecated(
        since = "0.3.0",
        note = "use `board_value`, or `ExactValues::value_of` with an `OwarePosition`; removed in 0.4.0"
    )]
    pub fn value(&self, board: &AwariBoard) -> Result<i32, AwariError> {
        self.board_value(board)
    }

    /// Every legal move of `board` with its value ([`AwariDb::board_move_values`]).
    ///
    /// # Errors
    /// As [`AwariDb::board_move_values`].
    #[deprecated(
        since = "0.3.0",
        note = "use `board_move_values`, or `ExactValues::move_values_of` with an `OwarePosition`; removed in 0.4.0"
    )]
    pub fn move_values(&self, board: &AwariBoard) -> Result<Vec<(AwariMove, i32)>, AwariError> {
        self.board_move_values(board)
    }

    /// The value of `board` to its mover (OW-10.3): future captures of the mover minus the
    /// opponent's, the final allotment included, endless play 0; −n..=n for n seeds. (An
    /// Oware position goes through [`ExactValues::value_of`](crate::exact_values::ExactValues),
    /// which takes it mover first and checks its rules.)
    ///
    /// # Errors
    /// [`AwariError::NotBuilt`] when the board has more seeds than the database holds.
    pub fn board_value(&self, board: &AwariBoard) -> Result<i32, AwariError> {
        let n = self.check(board)?;
        let (own, opp) = board.rows();
        if has_empty(opp) {
            return Ok(self.indexed(n, own, opp));
        }
        // Not indexed: one ply (every child is indexed).
        let mut ch = [Child {
            mover: 0,
            opp: 0,
            captured: 0,
        }; H];
        let class = with_grand_slam!(self.grand_slam, G => classify_g::<G>(own, opp, &mut ch));
        Ok(match class {
            Class::Moves(mask) => (0..H)
                .filter(|&i| mask & (1 << i) != 0)
                .map(|i| {
                    let c = ch[i];
                    c.captured as i32 - self.indexed(n - c.captured, c.mover, c.opp)
                })
                .max()
                .expect("a legal move"),
            class => fixed_value(class, n, own, opp).unwrap_or(0),
        })
    }

    /// Every legal move of `board` under the database's rules (OW-5; [`AwariBoard::moves_under`]
    /// of [`AwariDb::grand_slam`]) with its value to the mover: the seeds it captures minus the
    /// value of the board it leaves to the opponent. The board's value is the largest of them
    /// (when there is none: −n for a mover without seeds, his row minus the opponent's for a
    /// mover without a legal move, OW-6.3).
    ///
    /// # Errors
    /// [`AwariError::NotBuilt`] when the board has more seeds than the database holds.
    pub fn board_move_values(
        &self,
        board: &AwariBoard,
    ) -> Result<Vec<(AwariMove, i32)>, AwariError> {
        self.check(board)?;
        Ok(board
            .moves_under(self.grand_slam)
            .into_iter()
            .map(|m| {
                let (own, opp) = m.child.rows();
                let v = m.captured as i32 - self.indexed(m.child.seeds(), own, opp);
                (m, v)
            })
            .collect())
    }

    fn check(&self, board: &AwariBoard) -> Result<u32, AwariError> {
        let n = board.seeds();
        if n > self.max_seeds {
            return Err(AwariError::NotBuilt {
                seeds: n,
                max: self.max_seeds,
            });
        }
        Ok(n)
    }
}

/// The checks every build makes before its first level, and its pool of `threads` threads
/// (0 = one a core). Errors: [`AwariError::TooManySeeds`] above [`MAX_SEEDS`],
/// [`AwariError::Threads`] above [`crate::MAX_THREADS`] or when the pool cannot start,
/// [`AwariError::OutOfMemory`] when the build's memory (the values, and for a build in one
/// process the top level's work space; a `shared` build's work space is split between its
/// processes) is more than the memory available.
fn build_pool(
    max_seeds: u32,
    threads: usize,
    shared: bool,
) -> Result<crate::pool::Pool, AwariError> {
    if max_seeds > MAX_SEEDS {
        return Err(AwariError::TooManySeeds {
            seeds: max_seeds,
            max: MAX_SEEDS,
        });
    }
    if threads > crate::MAX_THREADS {
        return Err(AwariError::Threads(format!(
            "{threads} threads asked for, at most {}",
            crate::MAX_THREADS
        )));
    }
    // A build that cannot fit is refused before any work (it would grow level by level
    // until the machine ran out), as `mancala egdb build` refuses it.
    let needs = if shared {
        super::entries_to(max_seeds)
    } else {
        super::rank::byte_build_memory(max_seeds)
    };
    crate::egdb::choose::build_fits_memory(needs)?;
    crate::pool::Pool::new(threads, "mancala-awari").map_err(|e| AwariError::Threads(e.to_string()))
}
