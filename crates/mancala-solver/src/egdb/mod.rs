//! Endgame databases: the exact value of every position with at most K seeds in the houses.
//!
//! # Contents and encoding
//!
//! One entry per distribution of at most K seeds over the 2m houses, seen from the side to
//! move (the mover's houses 1..m, then the opponent's houses 1..m), at index = the rank of the
//! combinatorial number system (crate docs; `C(K+2m, 2m)` entries, layer k at
//! `[C(k+2m−1, 2m), C(k+2m, 2m))`). Positions with no move (a finished game) hold 0.
//!
//! Two entry encodings ([`Encoding`]), the same values:
//!
//! * **one byte an entry** ([`Encoding::Byte`]): the value itself, seeds, as one excess-128
//!   byte (`v + 128`, −K..=K, so K ≤ 127; the byte 0 marks "not computed yet" during the
//!   build). A lookup is one byte load. 225 792 840 entries, 215 MiB, for K = 20 and m = 6;
//!   10.3 GiB for K = 30.
//! * **packed** ([`Encoding::Packed`]): the index of the value among the values its layer
//!   allows (−k, −k+2, …, k, and the 0 of a finished position; −k..=k under
//!   `discard_remaining`), in the same number of bits for every entry, as a little-endian
//!   bit stream: 5 bits for K = 15..=30 (parity rules), so 135 MiB for K = 20 and 6.4 GiB
//!   for K = 30 (m = 6). For the parity rules the index is the mover's share of the seeds
//!   left, (v + k)/2, the 4–5 bits of Irving, Donkers & Uiterwijk (2000), with room for the
//!   0 of a finished position; `discard_remaining`, where the value is not a function of one
//!   share, takes 2k + 1 codes. A lookup reads two bytes, shifts, masks and takes the value
//!   from a table of (layer, code) in L1 cache. The details, and why not fewer bits, are in
//!   the docs of the private module `egdb/packed.rs`.
//!
//! # Build (layer by layer, moment level by moment level, in parallel)
//!
//! Layer k (the positions with exactly k seeds in the houses) depends on the layers below it
//! (a move that banks a seed or captures leaves fewer seeds in the houses) and on layer k
//! itself only through *in-layer* moves, which keep every seed in the houses: a move of s
//! seeds from house h (0-based, house m−1 next to the store) that sows neither the store nor
//! beyond it, so h + s ≤ m − 1, that captures nothing and that does not end the game; the turn
//! then passes. (Reaching the store puts a seed in it; a capture, including the
//! `empty_capture` one, moves seeds to the store; an extra turn needs the last seed in the
//! store; a move that ends the game, under any of `end_when_no_move` and `discard_remaining`,
//! has no entry to read. A last seed in an empty own house facing an empty house without
//! `empty_capture` captures nothing and is in-layer.)
//!
//! The *moment* of a position is φ = Σ_{i<m} i·(own_i + opp_i), house i of each row counted
//! from the house farthest from its owner's store. An in-layer move takes s seeds from house h
//! (−h·s) and puts one in each of the houses h+1..h+s (+h·s + s(s+1)/2): the mover's row gains
//! s(s+1)/2 > 0 and the other row is unchanged; the rows are then exchanged, which keeps φ.
//! So every in-layer child has a strictly larger moment than its parent, and the build fills
//! each layer from the moment level (m−1)·k down to 0: when a level is computed, every entry
//! its positions read (the layers below, the higher levels of this layer) is final. The
//! positions of one level do not depend on each other, so a level is cut into work items of a
//! few thousand positions that rayon threads fill in any order, with a barrier between levels;
//! no entry is computed twice and none is read before it is written (debug builds check both).
//!
//! A level is enumerated as blocks of pairs (own row, opponent's row): the rows (m-part
//! compositions of at most K seeds) are precomputed, sorted by (seeds, moment, rank) and
//! grouped by (seeds, moment); a block is the product of a group of own rows of a seeds and
//! moment μ and the group of opponent's rows of k − a seeds and moment L − μ. The rank splits
//! as R(own row) + T(a, opponent's row) (the first m and the last m terms of the colex sum),
//! so the positions with one opponent's row and a seeds in the own row fill one window of
//! C(a+m−1, m−1) ranks. During the build the entries live in *slot* order: inside every such
//! window the own rows are in the sorted order (by moment) instead of rank order, which makes
//! a group of own rows, and the children one move of one own row reaches from a group of
//! opponent's rows, contiguous. A block is walked in tiles of a few own rows, opponent's rows
//! outer and own rows inner; the children's entries are requested a few positions ahead
//! (software pipelining). Only the layer under construction is in slot order: when it is
//! complete, each of its windows is permuted into rank order, and the children in the layers
//! below are read by their rank (no slower, measured: the in-layer children are the ones
//! whose reads the slot order makes contiguous).
//!
//! In the one-byte encoding the whole database is one buffer, C(K+2m, 2m) bytes, and a
//! layer is permuted in place. In the packed encoding only the layer under construction takes
//! one byte an entry, in a buffer of its own; once complete it is packed, window by window
//! in rank order, into the bit stream that holds the finished layers, and freed. The build
//! then needs the packed stream plus one byte a position of the largest layer, K:
//! [`Egdb::build_memory`] (m = 6, K = 30: 6.9 GB + 4.1 GB = 11.0 GB at the peak and 6.9 GB
//! once built, where one byte an entry takes 11.1 GB throughout).
//!
//! # File format (little-endian)
//!
//! ```text
//! offset  size  field
//!      0     8  magic "MNCLEGDB"
//!      8     4  format version (1)
//!     12     1  m, houses a row
//!     13     1  K, the largest seed count in the houses
//!     14     1  value-relevant option bits (empty_capture, end_when_no_move, discard_remaining;
//!               bit numbers of `KalahOptions::bits`)
//!     15     1  entry encoding: 1 = one byte, the value for the side to move + 128;
//!               2 = packed (`Encoding::Packed`)
//!     16     8  number of entries, C(K+2m, 2m)
//!     24     4  CRC-32 of the payload
//!     28     4  n, length of the rule-set string
//!     32     n  the rule set the database was built with (`kalah(6,4)+empty_capture`)
//!   32+n     4  CRC-32 of bytes 0..32+n
//!   36+n     …  payload, in rank order: one byte per entry (encoding 1), or the packed
//!               bit stream, ⌈entries · w / 8⌉ bytes for w bits an entry (encoding 2:
//!               entry r at bits r·w .. r·w + w, bit j in bit j mod 8 of byte j / 8)
//! ```
//!
//! Files of encoding 1 are those this library always wrote; the format version stays 1, and
//! an older library refuses a packed file with "unknown entry encoding 2". `mancala egdb
//! convert` ([`Egdb::convert`]) turns either encoding into the other.
//!
//! Opening a file checks every field, the size, both checksums and every entry against the
//! values its seed count allows (so that a file with right checksums but impossible values,
//! written by a faulty or hostile writer, is refused too); anything off is a typed
//! [`EgdbError`]. A database serves exactly the rules whose m and value-relevant options it
//! was built for: the starting seeds n never change the value of a position, and `pie_rule`
//! and `no_first_move_bonus` only concern the opening, which is never looked up. Any other
//! difference is refused ([`EgdbError::RulesMismatch`], `SolveError::DatabaseMismatch`).
//!
//! The Awari databases ([`crate::awari`]) are files of the same format, with the rule set
//! `awari` in the header; opening one as a Kalah database, or a Kalah one as Awari, is
//! [`EgdbError::WrongGame`] ([`game_of_file`] tells which game a file is for).

mod build;
pub mod cache;
pub mod choose;
mod database;
mod encoding;
mod error;
mod find;
mod header;
mod load;
pub(crate) mod packed;
mod save;

pub use crate::mem::{available_memory, available_memory_bytes};
pub use build::{BuildOptions, Level, LevelBuild};
pub use cache::{Cache, CacheEvent, Cached, IgnoredCacheDir, Source, CACHE_DIR_VARIABLE};
pub use choose::{
    build_fits, choose, fits_in_memory, Bound, Build, ChooseError, ChooseEvent, Chosen,
    NotEnoughMemory, Want,
};
pub(crate) use database::forward_to_inherent;
pub use database::{
    file_in_the_way, is_broken_link, occupant, probe_folder, Database, DatabaseInfo, FileInTheWay,
    NoDatabase, NoInfo, Occupant, BROKEN_LINK,
};
pub(crate) use encoding::BITS_PER_ENTRY;
pub use encoding::{decode, Encoding, UnknownEncoding};
pub use error::{About, EgdbError, RulesMismatch};
pub use find::{database_files, find_in, lookup_error, scan_folder, shell_word, FolderScan, Found};
pub use header::{EgdbInfo, Header, FORMAT_VERSION};
pub use save::{unwritable_folder_error, SaveReport};

use mancala_core::kalah::{KalahOption, KalahOptions, KalahPosition, KalahRules};

/// The refusal of a K above the seeds of a game, as the commands say it (`mancala egdb
/// build`, `mancala-mpi egdb build`): `--max-seeds 99: awari has 48 seeds, so at most 48`.
/// `family` names the databases' game (`Database::family`), `total_seeds` its seeds and
/// `largest` the largest K allowed (the fields of [`EgdbError::MoreSeedsThanTheGame`]).
#[must_use]
pub fn more_seeds_than_the_game(
    family: &str,
    max_seeds: u32,
    total_seeds: u32,
    largest: u32,
) -> String {
    format!("--max-seeds {max_seeds}: {family} has {total_seeds} seeds, so at most {largest}")
}

/// The refusal of a rule set of a game without databases or an exact solver (`game`, e.g.
/// Bao la Kete), as the commands say it after `--rules TEXT: `: `WHAT for Kalah and the
/// Awari rule sets only (GAME has no exact solver or database here)`, `what` naming what
/// refuses it (`endgame databases are`, `solve and analyse are`).
#[must_use]
pub fn not_served(what: &str, game: mancala_core::GameKind) -> String {
    format!(
        "{what} for Kalah and the Awari rule sets only ({} has no exact solver or database here)",
        game.name()
    )
}

use crate::board::{is_special, relative};
use crate::mem::FrozenBytes;
use crate::rank::{layer_start, rank_dyn, rank_space};
pub(crate) use load::{
    check_cancel, check_length, check_memory, check_payload, is_terminal_rank, open_with_header,
    parallel_crc32, read_exact_at, read_payload,
};
pub use load::{game_of_file, open_regular};
pub(crate) use packed::Probe;
use packed::{Codec, PAD};
pub(crate) use save::split_path;
pub(crate) use save::{saved_words, write_file, Keep};

/// Why [`Egdb::lookup`] found no entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Miss {
    /// The game is over.
    Over,
    /// Other rules than the database's: the rules that differ.
    Rules(RulesMismatch),
    /// More seeds in the houses (this many) than K.
    Seeds(u32),
    /// An opening state (first move, pie rule).
    Opening,
}

/// Largest K: values must fit a signed byte.
pub const MAX_DB_SEEDS: u32 = 127;
/// Largest database this library builds or opens, entries (64 GiB).
pub const MAX_ENTRIES: u64 = 1 << 36;

/// An endgame database in memory (built or read from a file): see the module docs. The
/// entries always live in memory of this process (anonymous, huge pages where the system
/// offers them), never in a map of the file, so nothing done to the file after it was read
/// can change a value or stop the process.
pub struct Egdb {
    houses: u8,
    max_seeds: u32,
    options: KalahOptions,
    rules: String,
    /// C(K+2m, 2m).
    entries: u64,
    /// The codes of a packed database; `None` for one byte an entry.
    codec: Option<Codec>,
    /// The one-byte entries, or the packed payload followed by [`PAD`] zero bytes.
    data: FrozenBytes,
}

impl std::fmt::Debug for Egdb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Egdb({})", self.description())
    }
}

/// Whether a database of m = `houses` and value-relevant `options` serves `rules`.
fn serves(houses: u8, options: KalahOptions, rules: &KalahRules) -> bool {
    rules.houses() == houses && rules.options().database_relevant() == options
}

/// What a database of m = `houses` and value-relevant `options` serves, in the rule-set
/// notation with the seeds a house left open: `kalah(6,·)+empty_capture`.
pub(crate) fn family(houses: u8, options: KalahOptions) -> String {
    let mut s = format!("kalah({houses},·)");
    for o in options.iter() {
        s.push('+');
        s.push_str(o.name());
    }
    s
}

/// [`Egdb::file_name`] of a database of m = `houses`, value-relevant `options` and K =
/// `max_seeds` in `encoding`.
pub(crate) fn file_name(
    houses: u8,
    options: KalahOptions,
    max_seeds: u32,
    encoding: Encoding,
) -> String {
    let mut s = format!("kalah{houses}");
    for o in options.iter() {
        s.push('+');
        s.push_str(o.name());
    }
    match encoding {
        Encoding::Byte => format!("{s}.k{max_seeds}.egdb"),
        Encoding::Packed => format!("{s}.k{max_seeds}.packed.egdb"),
        Encoding::Compact => format!("{s}.k{max_seeds}.compact.egdb"),
    }
}

/// Ok when a database of m = `houses` and value-relevant `options` (described as
/// `description`) serves `rules`; else the refusal naming the rules that differ: the houses
/// a row, and each value-relevant option that one has and the other not.
fn check_serves(
    houses: u8,
    options: KalahOptions,
    description: impl FnOnce() -> String,
    rules: &KalahRules,
) -> Result<(), RulesMismatch> {
    if serves(houses, options, rules) {
        return Ok(());
    }
    let mut differences = Vec::new();
    if rules.houses() != houses {
        differences.push(format!("{} houses a row", rules.houses()));
    }
    let asked = rules.options().database_relevant();
    for o in KalahOption::ALL {
        match (asked.has(o), options.has(o)) {
            (true, false) => differences.push(format!("+{}", o.name())),
            (false, true) => differences.push(format!("no {}", o.name())),
            _ => {}
        }
    }
    Err(RulesMismatch {
        database: format!("the endgame database {}", description()),
        holds: family(houses, options),
        rules: rules.to_string(),
        differences,
    })
}

/// [`check_size`] for a build for `rules`: K must also be at most the seeds of the game
/// (2·m·n), or [`EgdbError::MoreSeedsThanTheGame`] (after the K ≤ 127 check, so that a K no
/// database can have gets that message).
fn check_build(rules: &KalahRules, max_seeds: u32) -> Result<u64, EgdbError> {
    if max_seeds <= MAX_DB_SEEDS && max_seeds > rules.total_seeds() {
        return Err(EgdbError::MoreSeedsThanTheGame {
            rules: rules.to_string(),
            max_seeds,
            total_seeds: rules.total_seeds(),
            largest: rules.total_seeds().min(largest_max_seeds(rules.houses())),
        });
    }
    check_size(rules.houses(), max_seeds)
}

/// The largest K this library builds a database of for m = `m` houses a row: at most 127
/// (values in a signed byte) and at most 2^36 entries (`MAX_ENTRIES`); 0 when even K = 0 is
/// out of range.
pub(crate) fn largest_max_seeds(m: u8) -> u32 {
    (0..=MAX_DB_SEEDS)
        .take_while(|&k| rank_space(m as usize, k).is_some_and(|n| n <= MAX_ENTRIES))
        .last()
        .unwrap_or(0)
}

fn check_size(m: u8, max_seeds: u32) -> Result<u64, EgdbError> {
    if max_seeds > MAX_DB_SEEDS {
        return Err(EgdbError::Unsupported {
            houses: m,
            max_seeds,
            why: "K must be at most 127 (values are stored in a signed byte)",
        });
    }
    match rank_space(m as usize, max_seeds) {
        Some(n) if n <= MAX_ENTRIES => Ok(n),
        _ => Err(EgdbError::Unsupported {
            houses: m,
            max_seeds,
            why: "more than 2^36 entries",
        }),
    }
}

impl Egdb {
    /// m, houses a row.
    #[must_use]
    pub fn houses(&self) -> u8 {
        self.houses
    }

    /// K: positions with at most this many seeds in the houses have an entry.
    #[must_use]
    pub fn max_seeds(&self) -> u32 {
        self.max_seeds
    }

    /// The value-relevant options the database was built for.
    #[must_use]
    pub fn options(&self) -> KalahOptions {
        self.options
    }

    /// The rule set the database was built with.
    #[must_use]
    pub fn built_with(&self) -> &str {
        &self.rules
    }

    /// Number of entries, C(K+2m, 2m).
    #[must_use]
    pub fn len(&self) -> usize {
        self.entries as usize
    }

    /// Whether there is no entry (never: K = 0 has one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The entry encoding.
    #[must_use]
    pub fn encoding(&self) -> Encoding {
        if self.codec.is_some() {
            Encoding::Packed
        } else {
            Encoding::Byte
        }
    }

    /// Bits an entry takes (8, or the packed width).
    #[must_use]
    pub fn bits_per_entry(&self) -> u32 {
        self.codec.as_ref().map_or(BITS_PER_ENTRY, Codec::width)
    }

    /// Memory the entries take, bytes: one byte each, or the packed payload and its 8 bytes
    /// of padding.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.data.bytes().len()
    }

    /// The payload as the file holds it, in rank order: the excess-128 bytes of
    /// [`Encoding::Byte`] (see [`decode`]), or the packed bit stream of
    /// [`Encoding::Packed`] (module docs). Two databases of the same rules, K and encoding
    /// hold the same payload.
    #[must_use]
    pub fn payload(&self) -> &[u8] {
        let b = self.data.bytes();
        match &self.codec {
            None => b,
            Some(c) => &b[..c.payload_bytes(self.entries) as usize],
        }
    }

    /// The bytes of the file's payload, exactly: [`Egdb::payload`]'s length (C(K+2m, 2m)
    /// one byte an entry, or ⌈entries · width / 8⌉ packed), the header not counted.
    #[must_use]
    pub fn payload_bytes(&self) -> u64 {
        self.payload().len() as u64
    }

    /// The bytes of the file [`Egdb::save`] writes, exactly: its header (module docs, "File
    /// format": 36 bytes and the rule set's text) and its payload
    /// ([`Egdb::payload_bytes`]); what `std::fs::metadata` gives of the saved file.
    #[must_use]
    pub fn file_bytes(&self) -> u64 {
        self.header(0).encoded_len() as u64 + self.payload_bytes()
    }

    /// The value (seeds, for the side to move) of the entry of rank `rank` (the
    /// combinatorial rank of its position, crate docs), in either encoding; `None` for a
    /// rank past the last entry. A finished position holds 0.
    #[must_use]
    pub fn value_at(&self, rank: u64) -> Option<i32> {
        if rank >= self.entries {
            return None;
        }
        let m = usize::from(self.houses);
        // The layer of the rank: the last k whose first rank is at most `rank`.
        let k = (0..=self.max_seeds)
            .take_while(|&k| layer_start(m, k) <= rank)
            .last()
            .unwrap_or(0);
        Some(self.probe().value(rank, k))
    }

    /// The lookup of the search ([`Probe`]).
    pub(crate) fn probe(&self) -> Probe<'_> {
        match &self.codec {
            None => Probe::bytes(self.data.bytes()),
            Some(c) => Probe::packed(self.data.bytes(), c),
        }
    }

    /// The same database in the entry encoding `encoding` (every value the same; a copy
    /// when the encoding is already that one). Memory: the payloads of both encodings at
    /// once.
    ///
    /// # Errors
    /// [`EgdbError::OutOfMemory`]; [`EgdbError::NoSuchEncoding`] for
    /// [`Encoding::Compact`], which only the Oware databases have.
    pub fn convert(&self, encoding: Encoding) -> Result<Egdb, EgdbError> {
        if encoding == Encoding::Compact {
            return Err(build::no_compact());
        }
        let m = usize::from(self.houses);
        let starts = |k: u32| layer_start(m, k);
        let data = match (&self.codec, encoding) {
            (None, Encoding::Byte | Encoding::Compact) | (Some(_), Encoding::Packed) => {
                FrozenBytes::copy_of(self.data.bytes())?
            }
            (None, Encoding::Packed) => {
                let codec = Codec::new(self.max_seeds, self.options);
                let len = codec.payload_bytes(self.entries) as usize + PAD;
                let words = crate::mem::ZeroedBuf::<std::sync::atomic::AtomicU64>::new(
                    len.div_ceil(8) + 1,
                )?;
                packed::pack_bytes(&codec, self.data.bytes(), words.as_slice(), starts);
                words.freeze_bytes(len)
            }
            (Some(codec), Encoding::Byte | Encoding::Compact) => {
                // One piece: the unpacking itself is parallel.
                let (data, _) =
                    FrozenBytes::filled_in_pieces(self.entries as usize, usize::MAX, |_, out| {
                        packed::unpack_bytes(codec, self.data.bytes(), out, starts);
                        Ok::<(), EgdbError>(())
                    })?;
                data
            }
        };
        Ok(Egdb {
            houses: self.houses,
            max_seeds: self.max_seeds,
            options: self.options,
            rules: self.rules.clone(),
            entries: self.entries,
            codec: (encoding == Encoding::Packed).then(|| Codec::new(self.max_seeds, self.options)),
            data,
        })
    }

    /// What the database serves, for messages: `kalah(6,·)+empty_capture, K = 20`.
    #[must_use]
    pub fn description(&self) -> String {
        format!(
            "{}, K = {}",
            family(self.houses, self.options),
            self.max_seeds
        )
    }

    /// Whether the database gives the values of positions played under `rules` (same m, same
    /// value-relevant options; module docs).
    #[must_use]
    pub fn serves(&self, rules: &KalahRules) -> bool {
        serves(self.houses, self.options, rules)
    }

    /// The value of `pos` for the side to move (seeds), when the database holds it: `None` for
    /// other rules, more than K seeds in the houses, a finished game or an opening position
    /// (first move, pie-rule states).
    #[must_use]
    pub fn value(&self, pos: &KalahPosition) -> Option<i32> {
        self.lookup(pos).ok()
    }

    /// The entry of `pos` (seeds, for the side to move), or why there is none: the one
    /// lookup of [`Egdb::value`] and of the database as a source of exact values.
    #[inline]
    pub(crate) fn lookup(&self, pos: &KalahPosition) -> Result<i32, Miss> {
        let side = pos.side_to_move().ok_or(Miss::Over)?;
        let seeds = pos.seeds_in_houses();
        if seeds > self.max_seeds {
            return Err(Miss::Seeds(seeds));
        }
        check_serves(
            self.houses,
            self.options,
            || self.description(),
            &pos.rules(),
        )
        .map_err(Miss::Rules)?;
        if is_special(pos) {
            return Err(Miss::Opening);
        }
        let (b, k) = relative(pos, side);
        let r = rank_dyn(self.houses as usize, b);
        Ok(self.probe().value(r, k))
    }

    /// The conventional file name of the database of `rules` and K = `max_seeds` in
    /// `encoding`: `kalah6+empty_capture.k20.egdb` for [`Encoding::Byte`],
    /// `kalah6+empty_capture.k20.packed.egdb` for [`Encoding::Packed`] (so that both can
    /// share a folder; the files are read by their headers, never by their names).
    #[must_use]
    pub fn file_name(rules: &KalahRules, max_seeds: u32, encoding: Encoding) -> String {
        file_name(
            rules.houses(),
            rules.options().database_relevant(),
            max_seeds,
            encoding,
        )
    }
}

impl Database for Egdb {
    type Rules = KalahRules;
    type Info = EgdbInfo;
    const GAME: mancala_core::GameKind = mancala_core::GameKind::Kalah;
    const KIND: &'static str = "endgame database";
    const A_KIND: &'static str = "an endgame database";
    const ENTRY: &'static str = "position";

    database::forward_to_inherent!(Egdb);

    fn build(
        rules: &KalahRules,
        max_seeds: u32,
        options: BuildOptions<'_>,
    ) -> Result<Egdb, EgdbError> {
        Egdb::build(rules, max_seeds, options)
    }

    fn entry_count(&self) -> u64 {
        self.entries
    }

    fn check_encoding(encoding: Encoding) -> Result<(), EgdbError> {
        match encoding {
            Encoding::Byte | Encoding::Packed => Ok(()),
            Encoding::Compact => Err(build::no_compact()),
        }
    }

    fn info_serves(info: &EgdbInfo, rules: &KalahRules) -> Result<(), RulesMismatch> {
        check_serves(info.houses, info.options, || info.describe(), rules)
    }

    fn serves_rules(&self, rules: &KalahRules) -> Result<(), RulesMismatch> {
        check_serves(self.houses, self.options, || self.description(), rules)
    }

    fn file_name(rules: &KalahRules, max_seeds: u32, encoding: Encoding) -> String {
        Egdb::file_name(rules, max_seeds, encoding)
    }

    fn own_file_name(&self) -> String {
        file_name(self.houses, self.options, self.max_seeds, self.encoding())
    }

    fn entries(rules: &KalahRules, max_seeds: u32) -> Result<u64, EgdbError> {
        check_build(rules, max_seeds)
    }

    fn build_memory(
        rules: &KalahRules,
        max_seeds: u32,
        encoding: Encoding,
    ) -> Result<u64, EgdbError> {
        Egdb::build_memory(rules, max_seeds, encoding)
    }

    fn default_max_seeds(rules: &KalahRules, available: Option<u64>) -> Option<u32> {
        cache::default_kalah_max_seeds(rules, available)
    }

    fn describe(&self) -> String {
        self.description()
    }

    fn family(rules: &KalahRules) -> String {
        family(rules.houses(), rules.options().database_relevant())
    }

    fn extent(max_seeds: u32) -> String {
        format!("K = {max_seeds}")
    }
}

#[cfg(test)]
mod tests {
    /// The largest K a database holds for m = 6: C(K + 12, 12) entries at most 2^36 =
    /// 68,719,476,736, and C(47, 12) = 52,251,400,851 but C(48, 12) = 69,668,534,468 (so 35);
    /// for m = 1, K is capped by the signed byte's 127.
    #[test]
    fn the_largest_k_is_named_when_k_is_too_large() {
        assert_eq!(super::largest_max_seeds(6), 35);
        assert_eq!(super::largest_max_seeds(1), 127);
        let e = super::check_size(6, 36).unwrap_err();
        assert_eq!(
            e.to_string(),
            "a database of m = 6, K = 36 is not supported: more than 2^36 entries (the largest K for m = 6 is 35)"
        );
        assert!(super::check_size(6, 35).is_ok());
    }

    use super::*;
    use mancala_core::Side;

    /// Small enough for Miri (run with `-Zmiri-disable-isolation` for the file): build, save,
    /// then every way of reading, and two values traced by hand.
    #[test]
    fn build_save_read_back_and_probe() {
        let rules: KalahRules = "kalah(2,1)".parse().unwrap();
        let db = Egdb::build(&rules, 3, BuildOptions::new()).unwrap();
        assert_eq!(db.len(), 35); // C(3 + 4, 4)
        assert_eq!(db.check_entries().unwrap(), 35);
        // A scratch folder of its own, removed when the test ends, passed or failed.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("kalah2.k3.egdb");
        db.save(&path).unwrap();
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(bytes.len(), 36 + "kalah(2,1)".len() + 35);
        let opened = Egdb::open(&path).unwrap();
        let loaded = Egdb::load(&path).unwrap();
        let memory = Egdb::from_bytes(&bytes).unwrap();
        std::fs::remove_file(&path).unwrap();
        for other in [&opened, &loaded, &memory] {
            assert_eq!(other.payload(), db.payload());
            assert_eq!(other.built_with(), "kalah(2,1)");
        }
        // S1 = 1, N2 = 1, South to move: South's only move ends in its empty S2 (no capture
        // opposite an empty house), North sows N2 into its store and its row is empty: the
        // game ends, South's seed goes to South's store. +1 − 1 = 0.
        let p = KalahPosition::new(rules, &[1, 0, 0, 0, 1, 0], Some(Side::South), false).unwrap();
        // S2 = 2, N1 = 1: South sows its store and N1, its row is empty: North banks 2.
        // +1 − 2 = −1.
        let q = KalahPosition::new(rules, &[0, 2, 0, 1, 0, 0], Some(Side::South), false).unwrap();
        for d in [&db, &opened, &loaded, &memory] {
            assert_eq!(d.value(&p), Some(0));
            assert_eq!(d.value(&q), Some(-1));
        }
    }
}
