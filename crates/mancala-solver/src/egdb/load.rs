//! Reading a database file and checking it completely before a single entry is used:
//! [`Egdb::open`] (positioned reads in pieces, checksummed as they arrive), [`Egdb::info`]
//! (the header only), [`Egdb::from_bytes`], and the check of every entry against its seed
//! count ([`Egdb::check_entries`]).

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use mancala_core::kalah::{KalahOption, KalahOptions, KalahRules};
use rayon::prelude::*;

use super::packed::{self, Codec};
use super::{decode, header, Egdb, EgdbError, EgdbInfo, Encoding};
use crate::mem::FrozenBytes;
use crate::rank::layer_start;

impl Egdb {
    /// Reads only the header of the file at `path` (the payload checksum is not checked;
    /// [`Egdb::open`] checks it).
    ///
    /// # Errors
    /// Every header error of [`Egdb::open`].
    pub fn info(path: impl AsRef<Path>) -> Result<EgdbInfo, EgdbError> {
        let path = path.as_ref();
        let (_, len, header, _) = open_with_header(path)?;
        header.check(path, len)
    }

    /// Reads the file at `path` into memory and checks it completely (header fields, size,
    /// both CRC-32 checksums, every entry within what its seed count allows, as
    /// [`Egdb::check_entries`]).
    ///
    /// The file is read with positioned reads (`pread`), in pieces of 4 MiB on the rayon
    /// threads, straight into anonymous memory (huge pages where the system offers them); the
    /// payload checksum is computed piece by piece as it arrives. The file is never
    /// memory-mapped: a file that is truncated, overwritten or replaced while it is read gives
    /// an error ([`EgdbError::Changed`], [`EgdbError::Truncated`], [`EgdbError::Checksum`]),
    /// never a `SIGBUS`, and once this returns the file is not touched again. Memory: the
    /// entries once (C(K+2m, 2m) bytes), plus the system's page cache of the file.
    ///
    /// # Errors
    /// [`EgdbError::Io`], [`EgdbError::BadMagic`], [`EgdbError::Version`],
    /// [`EgdbError::Truncated`], [`EgdbError::TooLong`], [`EgdbError::Header`],
    /// [`EgdbError::Checksum`], [`EgdbError::Unsupported`], [`EgdbError::BadEntry`],
    /// [`EgdbError::Padding`] (packed), [`EgdbError::Changed`], [`EgdbError::OutOfMemory`]
    /// (also before anything is read, when
    /// the header asks for more memory than the machine has available).
    ///
    /// `path` is anything that names a path: a `&str`, `String`, `&Path` or `PathBuf`.
    ///
    /// ```
    /// use mancala_solver::{BuildOptions, Egdb};
    ///
    /// let rules = "kalah(3,1)".parse().unwrap();
    /// let dir = std::env::temp_dir().join(format!("egdb-open-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let file = dir.join("kalah3.k4.egdb");
    /// Egdb::build(&rules, 4, BuildOptions::new())?.save(&file)?;
    /// // A file name as text opens as a `Path` does.
    /// let db = Egdb::open(file.to_str().unwrap())?;
    /// assert_eq!(db.max_seeds(), 4);
    /// # std::fs::remove_dir_all(&dir).unwrap();
    /// # Ok::<(), mancala_solver::EgdbError>(())
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<Egdb, EgdbError> {
        Egdb::open_until(path.as_ref(), None)
    }

    /// [`Egdb::open`], given up once `cancel` is set: the flag is looked at before the file
    /// is read, between its pieces of 4 MiB, and between the layers of the entry check, so
    /// that a program that no longer needs the database (a search that went without it)
    /// stops the reading within a piece rather than at its end. Nothing is kept.
    ///
    /// # Errors
    /// Those of [`Egdb::open`], and [`EgdbError::Cancelled`] when `cancel` was set.
    pub fn open_cancellable(
        path: impl AsRef<Path>,
        cancel: &AtomicBool,
    ) -> Result<Egdb, EgdbError> {
        Egdb::open_until(path.as_ref(), Some(cancel))
    }

    /// [`Egdb::open`], given up once `cancel` (when there is one) is set.
    fn open_until(path: &Path, cancel: Option<&AtomicBool>) -> Result<Egdb, EgdbError> {
        let io = |source| EgdbError::Io {
            path: path.to_path_buf(),
            source,
        };
        check_cancel(cancel)?;
        let f = open_regular(path, OpenOptions::new().read(true)).map_err(io)?;
        // Miri has no positioned reads: read the whole file instead (same checks).
        #[cfg(miri)]
        return check_bytes(path, &{
            use std::io::Read;
            let mut bytes = Vec::new();
            let mut f = f;
            f.read_to_end(&mut bytes).map_err(io)?;
            bytes
        });
        #[cfg(not(miri))]
        {
            let len = f.metadata().map_err(io)?.len();
            let (info, head) = read_header(path, &f, len)?;
            check_memory(info.memory_bytes)?;
            let payload_at = head.len() as u64;
            let payload = usize::try_from(info.payload_bytes)
                .map_err(|_| crate::OutOfMemory::failed(usize::MAX))?;
            let memory = usize::try_from(info.memory_bytes)
                .map_err(|_| crate::OutOfMemory::failed(usize::MAX))?;
            // The payload, then (packed) the zero padding, which is not in the file.
            let (data, pieces) =
                read_payload(path, &f, payload_at, payload, memory, cancel, |_| {})?;
            check_payload(path, &f, len, &head, &pieces, info.payload_crc)?;
            Egdb::checked(info, data, cancel)
        }
    }

    /// Reads a database from the bytes of a whole file (what [`Egdb::save`] writes), checked
    /// exactly as [`Egdb::open`] checks a file, and copies the entries. For databases that
    /// arrive by other means than a file (embedded, downloaded, fuzzed).
    ///
    /// # Errors
    /// [`EgdbError::BadMagic`] (naming the path `<memory>`), [`EgdbError::Version`],
    /// [`EgdbError::Truncated`], [`EgdbError::Header`], [`EgdbError::Checksum`],
    /// [`EgdbError::Unsupported`], [`EgdbError::BadEntry`], [`EgdbError::Padding`],
    /// [`EgdbError::OutOfMemory`].
    pub fn from_bytes(bytes: &[u8]) -> Result<Egdb, EgdbError> {
        check_bytes(Path::new("<memory>"), bytes)
    }

    /// The same as [`Egdb::open`]: reads the file into anonymous memory (huge pages where
    /// the system offers them) and checks it completely. (It once copied a memory map of the
    /// file; `open` no longer maps, so both give the same database for the same memory.)
    ///
    /// # Errors
    /// As [`Egdb::open`].
    pub fn load(path: impl AsRef<Path>) -> Result<Egdb, EgdbError> {
        Egdb::open(path)
    }

    /// [`Egdb::open`], then refuses a database that does not serve `rules`.
    ///
    /// # Errors
    /// Those of [`Egdb::open`] and [`EgdbError::RulesMismatch`].
    pub fn open_for(path: impl AsRef<Path>, rules: &KalahRules) -> Result<Egdb, EgdbError> {
        let path = path.as_ref();
        let db = Egdb::open(path)?;
        if db.serves(rules) {
            Ok(db)
        } else {
            Err(EgdbError::RulesMismatch {
                database: db.description(),
                wanted: rules.to_string(),
            })
        }
    }

    /// Checks every entry against what its seed count allows: `|v| ≤ k`, and `v ≡ k (mod 2)`
    /// unless `discard_remaining` (search docs); a finished position may hold 0 whatever k.
    /// Returns the number of entries checked. Opening or loading a file already does this.
    ///
    /// # Errors
    /// [`EgdbError::BadEntry`] for the first bad entry; [`EgdbError::Padding`] for a packed
    /// payload whose unused last bits are not 0.
    pub fn check_entries(&self) -> Result<u64, EgdbError> {
        self.check_entries_until(None)
    }

    /// [`Egdb::check_entries`], given up ([`EgdbError::Cancelled`]) once `cancel` is set.
    fn check_entries_until(&self, cancel: Option<&AtomicBool>) -> Result<u64, EgdbError> {
        #[cfg(test)]
        tests::ENTRY_PASSES.with(|c| c.set(c.get() + 1));
        check_cancel(cancel)?;
        match &self.codec {
            None => check_entries(
                self.houses,
                self.max_seeds,
                self.options,
                self.data.bytes(),
                cancel,
            ),
            Some(codec) => {
                let m = usize::from(self.houses);
                packed::check_codes(codec, self.houses, self.options, self.data.bytes(), |k| {
                    layer_start(m, k)
                })?;
                Ok(self.entries)
            }
        }
    }

    /// The database of the header `info` holding `data` (the payload read from its file,
    /// followed by the padding of a packed one), once every entry is checked; given up
    /// ([`EgdbError::Cancelled`]) once `cancel` is set.
    fn checked(
        info: EgdbInfo,
        data: FrozenBytes,
        cancel: Option<&AtomicBool>,
    ) -> Result<Egdb, EgdbError> {
        let encoding = info.encoding();
        let db = Egdb {
            houses: info.houses,
            max_seeds: info.max_seeds,
            options: info.options,
            rules: info.rules,
            entries: info.entries,
            codec: (encoding == Encoding::Packed).then(|| Codec::new(info.max_seeds, info.options)),
            data,
        };
        db.check_entries_until(cancel)?;
        Ok(db)
    }
}

/// The game whose database the file at `path` holds, and the rule set its header names:
/// only the header is read and decoded (magic, format version, header checksum), so that a
/// program can open the file as the right game ([`Egdb::open`] for Kalah,
/// [`AwariDb::open`](crate::awari::AwariDb::open) for Awari), which checks everything else.
///
/// # Errors
/// [`EgdbError::Io`], [`EgdbError::BadMagic`], [`EgdbError::Version`],
/// [`EgdbError::Truncated`], [`EgdbError::Header`], [`EgdbError::Changed`].
pub fn game_of_file(path: &Path) -> Result<(mancala_core::GameKind, String), EgdbError> {
    let (_, _, header, _) = open_with_header(path)?;
    Ok((
        mancala_core::GameKind::of_rules(&header.rules),
        header.rules,
    ))
}

/// Opens the database file at `path` (a regular file: [`open_regular`]) and reads its
/// header, decoded but its fields not checked against any game ([`read_raw_header`]): the
/// open file, its length, the header and the header's bytes (the payload starts after them).
///
/// # Errors
/// [`EgdbError::Io`], [`EgdbError::BadMagic`], [`EgdbError::Version`],
/// [`EgdbError::Truncated`], [`EgdbError::Header`], [`EgdbError::Changed`].
pub(crate) fn open_with_header(
    path: &Path,
) -> Result<(File, u64, super::Header, Vec<u8>), EgdbError> {
    let io = |source| EgdbError::Io {
        path: path.to_path_buf(),
        source,
    };
    let f = open_regular(path, OpenOptions::new().read(true)).map_err(io)?;
    let len = f.metadata().map_err(io)?.len();
    let (header, head) = read_raw_header(path, &f, len)?;
    Ok((f, len, header, head))
}

/// Bytes a rayon task checks or checksums at a time.
const CHECK_PIECE: usize = 1 << 22;

/// [`EgdbError::Cancelled`] once `cancel`, the flag of a read that may be given up
/// ([`Egdb::open_cancellable`]), is set; `Ok` without a flag.
///
/// # Errors
/// As above.
pub(crate) fn check_cancel(cancel: Option<&AtomicBool>) -> Result<(), EgdbError> {
    match cancel {
        Some(flag) if flag.load(Ordering::Relaxed) => Err(EgdbError::Cancelled),
        _ => Ok(()),
    }
}

/// The CRC-32 (IEEE) of `bytes`, the same as `crc32fast::hash`, computed in pieces on the
/// rayon threads and combined.
pub(crate) fn parallel_crc32(bytes: &[u8]) -> u32 {
    // `collect` keeps the pieces in order (CRC combination is not commutative).
    let pieces: Vec<crc32fast::Hasher> = bytes
        .par_chunks(CHECK_PIECE)
        .map(|piece| {
            let mut h = crc32fast::Hasher::new();
            h.update(piece);
            h
        })
        .collect();
    combine_crc32(&pieces)
}

/// The CRC-32 of consecutive pieces, from the hashers of the pieces in order.
pub(crate) fn combine_crc32(pieces: &[crc32fast::Hasher]) -> u32 {
    let mut all = crc32fast::Hasher::new();
    for h in pieces {
        all.combine(h);
    }
    all.finalize()
}

/// Fills `buf` from the bytes of `f` at `offset` (a positioned read: no shared file
/// position, so pieces can be read on several threads at once). `UnexpectedEof` when the
/// file ends first.
pub(crate) fn read_exact_at(f: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::os::unix::fs::FileExt::read_exact_at(f, buf, offset)
    }
    #[cfg(windows)]
    {
        let mut done = 0;
        while done < buf.len() {
            match std::os::windows::fs::FileExt::seek_read(
                f,
                &mut buf[done..],
                offset + done as u64,
            ) {
                Ok(0) => return Err(std::io::ErrorKind::UnexpectedEof.into()),
                Ok(n) => done += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }
}

/// Reads and checks the header of the open database file `f` of `len` bytes: the header and
/// its bytes (the payload starts right after them).
fn read_header(path: &Path, f: &File, len: u64) -> Result<(EgdbInfo, Vec<u8>), EgdbError> {
    let (header, head) = read_raw_header(path, f, len)?;
    Ok((header.check(path, len)?, head))
}

/// Reads the header of the open database file `f` of `len` bytes named `path`, decoded
/// ([`Header::decode`](super::Header): magic, format version, header checksum) but its
/// fields not checked against any game, and its bytes (the payload starts right after them).
pub(crate) fn read_raw_header(
    path: &Path,
    f: &File,
    len: u64,
) -> Result<(super::Header, Vec<u8>), EgdbError> {
    let mut head = vec![0u8; (header::MAX_LEN as u64).min(len) as usize];
    read_exact_at(f, &mut head, 0).map_err(|e| {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            EgdbError::Changed(path.to_path_buf())
        } else {
            EgdbError::Io {
                path: path.to_path_buf(),
                source: e,
            }
        }
    })?;
    let (header, payload_at) = super::Header::decode(path, &head, len)?;
    head.truncate(payload_at);
    Ok((header, head))
}

/// Refuses, before anything is read, a database whose entries take `bytes` bytes of memory
/// when this machine has less available ([`crate::available_memory`]; nothing is
/// checked where that cannot be read): a file whose header asks for more than the machine
/// holds (a large database on a small machine, or a damaged or crafted header with a
/// matching length) is an error at once, not gigabytes read and then an allocation failure
/// or the system's out-of-memory killer.
///
/// # Errors
/// [`EgdbError::OutOfMemory`] with `bytes` and the memory available (its message names
/// both).
pub(crate) fn check_memory(bytes: u64) -> Result<(), EgdbError> {
    match crate::available_memory() {
        Some(avail) if bytes > avail.bytes => Err(EgdbError::OutOfMemory(
            crate::OutOfMemory::refused(usize::try_from(bytes).unwrap_or(usize::MAX), avail),
        )),
        _ => Ok(()),
    }
}

/// Reads `in_file` bytes of the open file `f` named `path` from the offset `at` into new
/// memory of `memory` bytes (the rest zero), in pieces of 4 MiB on the rayon threads with
/// positioned reads, and returns it with the CRC-32 hasher of each piece as read (in order;
/// [`combine_crc32`] gives the checksum of them all). `transform` then rewrites each piece
/// in place (after it was hashed). A file that ends first is [`EgdbError::Changed`]. Each
/// piece first looks at `cancel` ([`check_cancel`]).
///
/// # Errors
/// [`EgdbError::Io`], [`EgdbError::Changed`], [`EgdbError::OutOfMemory`],
/// [`EgdbError::Cancelled`].
pub(crate) fn read_payload(
    path: &Path,
    f: &File,
    at: u64,
    in_file: usize,
    memory: usize,
    cancel: Option<&AtomicBool>,
    transform: impl Fn(&mut [u8]) + Sync,
) -> Result<(FrozenBytes, Vec<crc32fast::Hasher>), EgdbError> {
    FrozenBytes::filled_in_pieces(memory, CHECK_PIECE, |offset, piece| {
        check_cancel(cancel)?;
        let n = in_file.saturating_sub(offset).min(piece.len());
        let piece = &mut piece[..n];
        read_exact_at(f, piece, at + offset as u64).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                EgdbError::Changed(path.to_path_buf())
            } else {
                EgdbError::Io {
                    path: path.to_path_buf(),
                    source: e,
                }
            }
        })?;
        let mut h = crc32fast::Hasher::new();
        h.update(piece);
        transform(piece);
        Ok::<_, EgdbError>(h)
    })
}

/// Checks, once the payload of the open file `f` named `path` (of `len` bytes, its header
/// `head`) is read in `pieces`, that the file did not change meanwhile
/// ([`check_unchanged`]) and that the payload's CRC-32 is `stored` (the header's): the one
/// check of every game's file after its payload is read.
///
/// # Errors
/// [`EgdbError::Io`], [`EgdbError::Changed`], [`EgdbError::Checksum`].
pub(crate) fn check_payload(
    path: &Path,
    f: &File,
    len: u64,
    head: &[u8],
    pieces: &[crc32fast::Hasher],
    stored: u32,
) -> Result<(), EgdbError> {
    check_unchanged(path, f, len, head)?;
    let computed = combine_crc32(pieces);
    if computed != stored {
        return Err(EgdbError::Checksum { stored, computed });
    }
    Ok(())
}

/// The length check of a file header: a file of `file_len` bytes where the header calls for
/// `expected` is [`EgdbError::Truncated`] when shorter, [`EgdbError::TooLong`] when longer.
///
/// # Errors
/// As above.
pub(crate) fn check_length(file_len: u64, expected: u64) -> Result<(), EgdbError> {
    if file_len < expected {
        return Err(EgdbError::Truncated {
            expected,
            found: file_len,
            at_least: false,
        });
    }
    if file_len > expected {
        return Err(EgdbError::TooLong {
            expected,
            found: file_len,
        });
    }
    Ok(())
}

/// Checks that the open file `f` named `path` still has `len` bytes and starts with the
/// header bytes `head`, as when the reading began: a file rewritten in place meanwhile is
/// refused ([`EgdbError::Changed`]) if its checksum did not already catch it.
///
/// # Errors
/// [`EgdbError::Io`], [`EgdbError::Changed`].
pub(crate) fn check_unchanged(
    path: &Path,
    f: &File,
    len: u64,
    head: &[u8],
) -> Result<(), EgdbError> {
    let changed = || EgdbError::Changed(path.to_path_buf());
    let now = f
        .metadata()
        .map_err(|source| EgdbError::Io {
            path: path.to_path_buf(),
            source,
        })?
        .len();
    if now != len {
        return Err(changed());
    }
    let mut again = vec![0u8; head.len()];
    read_exact_at(f, &mut again, 0).map_err(|_| changed())?;
    if again != head {
        return Err(changed());
    }
    Ok(())
}

/// [`Egdb::check_entries`] on the entries `data` of a database of m = `houses`, K =
/// `max_seeds` (`data` must have C(K+2m, 2m) entries), looking at `cancel` before each layer.
fn check_entries(
    houses: u8,
    max_seeds: u32,
    options: KalahOptions,
    data: &[u8],
    cancel: Option<&AtomicBool>,
) -> Result<u64, EgdbError> {
    let m = houses as usize;
    let parity = !options.has(KalahOption::DiscardRemaining);
    for k in 0..=max_seeds {
        check_cancel(cancel)?;
        let start = layer_start(m, k) as usize;
        let end = layer_start(m, k + 1) as usize;
        let allowed = Allowed::new(k, parity);
        let layer = &data[start..end];
        // Pieces of a layer on the rayon threads (a K = 26 layer holds up to 10^9 entries);
        // the first bad entry of the first piece that has one.
        let bad = layer
            .par_chunks(CHECK_PIECE)
            .enumerate()
            .find_map_first(|(p, piece)| {
                let at = p * CHECK_PIECE;
                // 0 is also allowed in a finished position.
                first_bad(piece, allowed, |i| {
                    is_terminal_rank(m, options, k, (at + i) as u64)
                })
                .map(|i| at + i)
            });
        if let Some(i) = bad {
            return Err(EgdbError::BadEntry {
                rank: (start + i) as u64,
                seeds: k,
                value: decode(layer[i]),
            });
        }
    }
    Ok(data.len() as u64)
}

/// The entry bytes a layer of k seeds allows (besides 0 in a finished position): values
/// `v = byte − 128` with `|v| ≤ k` and, when `parity`, `v ≡ k (mod 2)`. Tested with a few
/// integer operations, so that a block of entries is checked by vector instructions.
#[derive(Clone, Copy)]
struct Allowed {
    /// The smallest byte allowed, `128 − min(k, 128)`.
    low: u8,
    /// The bytes allowed from `low` on, less one.
    span: u8,
    /// 1 when the parity is checked, else 0.
    parity_mask: u8,
    /// The parity of the bytes allowed (that of `128 + k`, that is of k).
    parity: u8,
}

impl Allowed {
    fn new(k: u32, parity: bool) -> Allowed {
        let low = 128 - k.min(128);
        let high = (128 + k).min(255);
        Allowed {
            low: low as u8,
            span: (high - low) as u8,
            parity_mask: u8::from(parity),
            parity: (k & 1) as u8 & u8::from(parity),
        }
    }

    #[inline(always)]
    fn holds(self, e: u8) -> bool {
        (e.wrapping_sub(self.low) <= self.span) & ((e & self.parity_mask) == self.parity)
    }
}

/// The index of the first entry of `piece` that `allowed` refuses and that is not a 0 at a
/// finished position (`terminal(i)` for the entry at index i), if any. Each block of 64
/// entries is first counted without branches; only a block with a refused entry (in an odd
/// layer, the 0s of its finished positions) is looked at one entry at a time.
fn first_bad(piece: &[u8], allowed: Allowed, terminal: impl Fn(usize) -> bool) -> Option<usize> {
    const ZERO: u8 = 128;
    for (b, block) in piece.chunks(64).enumerate() {
        let refused = block
            .iter()
            .fold(0u8, |n, &e| n + u8::from(!allowed.holds(e)));
        if refused == 0 {
            continue;
        }
        for (i, &e) in block.iter().enumerate() {
            let at = b * 64 + i;
            if !(allowed.holds(e) || (e == ZERO && terminal(at))) {
                return Some(at);
            }
        }
    }
    None
}

/// Whether the position of rank `r` within layer k has no move (a finished game).
pub(crate) fn is_terminal_rank(m: usize, options: KalahOptions, k: u32, r: u64) -> bool {
    let mut parts = [0u8; 16];
    crate::rank::unrank_layer(m, k, r, &mut parts[..2 * m]);
    let own: u32 = parts[..m].iter().map(|&c| u32::from(c)).sum();
    let opp: u32 = parts[m..2 * m].iter().map(|&c| u32::from(c)).sum();
    if options.has(KalahOption::EndWhenNoMove) {
        own == 0
    } else {
        own == 0 || opp == 0
    }
}

/// [`Egdb::from_bytes`], naming `path` in errors: the header, the payload checksum, then
/// every entry against its seed count ([`Egdb::check_entries`]).
fn check_bytes(path: &Path, bytes: &[u8]) -> Result<Egdb, EgdbError> {
    let (info, payload_at) = header::read(path, bytes, bytes.len() as u64)?;
    let payload = &bytes[payload_at..];
    let computed = parallel_crc32(payload);
    if computed != info.payload_crc {
        return Err(EgdbError::Checksum {
            stored: info.payload_crc,
            computed,
        });
    }
    let memory =
        usize::try_from(info.memory_bytes).map_err(|_| crate::OutOfMemory::failed(usize::MAX))?;
    // A copy of the payload followed by the padding (zero) of a packed one.
    let (data, _) = FrozenBytes::filled_in_pieces(memory, CHECK_PIECE, |offset, piece| {
        let in_file = payload.len().saturating_sub(offset).min(piece.len());
        piece[..in_file].copy_from_slice(&payload[offset..offset + in_file]);
        Ok::<(), EgdbError>(())
    })?;
    // A file whose checksums are right can still have been written wrong (or crafted): a
    // value no position of its seed count can have is refused rather than served.
    Egdb::checked(info, data, None)
}

/// `path` without its trailing separators (`dang/` is `dang`; `/` stays `/`), so that the
/// entry itself is looked at: with a trailing separator the system follows a symbolic link
/// (`lstat("dang/")` is `stat("dang")`) and calls the path of a file "Not a directory". The
/// path's components rejoined (`a/./b` is `a/b`), which name the same entry.
pub(crate) fn entry_itself(path: &Path) -> PathBuf {
    path.components().collect()
}

/// Opens the file at `path` with `options` only if it is a regular file (a symbolic link is
/// followed, so a link to `/dev/null` is refused as `/dev/null` is): a FIFO would block the
/// open (a read waits for a writer, a write for a reader; a signal such as Ctrl-C does not
/// end the wait), a device could stream without end, a socket cannot be opened at all, and
/// a folder gives an unhelpful system error. Nothing at `path` is no refusal: the open then
/// creates the file or fails as `options` say. The test is made twice: on the path, before
/// anything is opened, and on the open file (`fstat`), since something else may be put at
/// `path` in between; the open itself is non-blocking (`O_NONBLOCK`, cleared again once the
/// file is known to be regular, on which it has no effect), so even then it cannot hang. The
/// one test of every file the library and `mancala-mpi` read or append to in place (a
/// database's file, the partial file of a distributed build, a solve's journal); a save,
/// which replaces its file, refuses it as [`Occupant::NotRegular`](super::Occupant::NotRegular).
///
/// A symbolic link that leads nowhere (a loop, or a missing target) is refused before
/// anything is opened, even when `options` would create the file (at the link's missing
/// target, elsewhere), and named as such ([`super::BROKEN_LINK`]) rather than by the
/// system's `No such file or directory` or `Too many levels of symbolic links`; so is one
/// in place of a folder above the file, or a file there ([`super::file_in_the_way`]).
///
/// # Errors
/// The open's own error (`No such file or directory`, `Permission denied`, …), or one of kind
/// [`std::io::ErrorKind::InvalidInput`] saying `it is a folder, not a file` or `not a regular
/// file` (a FIFO, a socket or a device), or for a path ending in `/` (which names a folder)
/// `it is a folder, not a file`, `it is a symbolic link that leads nowhere …` or `a file's
/// name cannot end with '/' (that names a folder)`, whatever the options (where nothing is,
/// and `options` would not create the file, the open's `No such file or directory`); for a
/// symbolic link that leads nowhere ([`super::is_broken_link`]) at `path`, an error of the
/// system's kind saying `it is a symbolic link that leads nowhere (a loop, or a missing
/// target)`; for one, or a file, in
/// place of a folder above it, one saying `<that path> is a symbolic link that leads
/// nowhere (a loop, or a missing target), not a folder` (or `is a file, not a folder`).
pub fn open_regular(path: &Path, options: &OpenOptions) -> std::io::Result<File> {
    let refuse = |meta: &std::fs::Metadata| {
        let why = if meta.is_dir() {
            "it is a folder, not a file"
        } else {
            "not a regular file"
        };
        std::io::Error::new(std::io::ErrorKind::InvalidInput, why)
    };
    // A name ending in a separator names a folder: the system would say "Is a directory"
    // of a new file (created by an append) or "Not a directory" of a file or FIFO there.
    if path.as_os_str().as_encoded_bytes().ends_with(b"/") {
        let entry = entry_itself(path);
        let cannot_end = "a file's name cannot end with '/' (that names a folder)";
        let why = match std::fs::metadata(&entry) {
            Ok(meta) if meta.is_dir() => "it is a folder, not a file".to_string(),
            _ if super::is_broken_link(&entry) => format!("it is {}", super::BROKEN_LINK),
            // Nothing there: the open says `No such file or directory` when it would only
            // read, and `Is a directory` when it would create (named in words here).
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return match options.open(path) {
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(e),
                    _ => Err(std::io::Error::new(
                        std::io::ErrorKind::InvalidInput,
                        cannot_end,
                    )),
                };
            }
            _ => cannot_end.to_string(),
        };
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidInput, why));
    }
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => return Err(refuse(&meta)),
        Ok(_) => {}
        // Refused before the open, which would follow a link to a missing target and create
        // the file there.
        Err(e) if super::is_broken_link(path) => {
            return Err(std::io::Error::new(
                e.kind(),
                format!("it is {}", super::BROKEN_LINK),
            ))
        }
        // Something that is not a folder above it (a link that leads nowhere, a file) is
        // named, rather than as "Too many levels of symbolic links" or "Not a directory".
        Err(e) => {
            if let Some(mut above) = path.parent().and_then(super::file_in_the_way) {
                above.itself = false;
                return Err(std::io::Error::new(e.kind(), above.to_string()));
            }
            // Missing, or cannot be looked at: the open says why (or creates the file).
        }
    }
    let mut options = options.clone();
    #[cfg(all(unix, not(miri)))]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path).map_err(|e| {
        // Made a link that leads nowhere since it was looked at.
        if super::is_broken_link(path) {
            std::io::Error::new(e.kind(), format!("it is {}", super::BROKEN_LINK))
        } else {
            e
        }
    })?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(refuse(&meta));
    }
    #[cfg(all(unix, not(miri)))]
    {
        use std::os::unix::io::AsRawFd;
        let fd = file.as_raw_fd();
        // SAFETY: `fcntl` on the descriptor `file` owns, with integer arguments only.
        let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
        // SAFETY: as above.
        if flags < 0 || unsafe { libc::fcntl(fd, libc::F_SETFL, flags & !libc::O_NONBLOCK) } < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::egdb::BuildOptions;

    thread_local! {
        /// Passes over a database's entries ([`Egdb::check_entries`]) started on this thread.
        pub(super) static ENTRY_PASSES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    /// The arithmetic test of an entry byte against its definition, for every byte, every
    /// seed count a layer can have and both parity rules: `|v| ≤ k` and, when the parity
    /// holds, `v ≡ k (mod 2)`, with `v = byte − 128`.
    #[test]
    fn allowed_bytes_follow_the_definition() {
        for k in 0..=255u32 {
            for parity in [false, true] {
                let allowed = Allowed::new(k, parity);
                for e in 0..=255u8 {
                    let v = decode(e);
                    let want = v.abs() <= k as i32 && !(parity && (v - k as i32) % 2 != 0);
                    assert_eq!(allowed.holds(e), want, "k {k}, parity {parity}, byte {e}");
                }
            }
        }
    }

    /// `first_bad` finds the first refused entry in any block, lets a 0 through only where
    /// `terminal` says the position is finished, and finds nothing in a clean piece.
    #[test]
    fn first_bad_finds_the_first_refused_entry() {
        let allowed = Allowed::new(3, true); // bytes 125, 127, 129, 131
        let mut piece = vec![127u8; 300];
        assert_eq!(first_bad(&piece, allowed, |_| false), None);
        piece[70] = 128; // a 0: allowed only at a finished position
        piece[200] = 133; // +5: never
        assert_eq!(first_bad(&piece, allowed, |_| false), Some(70));
        assert_eq!(first_bad(&piece, allowed, |i| i == 70), Some(200));
        piece[200] = 131;
        assert_eq!(first_bad(&piece, allowed, |i| i == 70), None);
        piece[299] = 0;
        assert_eq!(first_bad(&piece, allowed, |i| i == 70), Some(299));
    }

    /// Opening a file (what `mancala egdb verify` and `mancala_egdb_verify` do, once) reads
    /// it and passes over its entries exactly once, in either encoding; the entries a pass
    /// checks are C(K+2m, 2m).
    #[test]
    fn opening_checks_the_entries_once() {
        let rules: KalahRules = "kalah(2,2)".parse().unwrap();
        // A scratch folder of its own, removed when the test ends, passed or failed.
        let dir = tempfile::tempdir().unwrap();
        for encoding in Encoding::ALL {
            let db = Egdb::build(&rules, 5, BuildOptions::new().encoding(encoding)).unwrap();
            let path = dir.path().join(format!("{encoding}.egdb"));
            db.save(&path).unwrap();
            let before = ENTRY_PASSES.with(std::cell::Cell::get);
            let opened = Egdb::open(&path).unwrap();
            let passes = ENTRY_PASSES.with(std::cell::Cell::get) - before;
            std::fs::remove_file(&path).unwrap();
            assert_eq!(passes, 1, "{encoding}");
            // C(5 + 4, 4) = 126 positions of at most 5 seeds in 4 houses.
            assert_eq!(opened.len(), 126);
            assert_eq!(opened.encoding(), encoding);
        }
    }

    #[test]
    #[cfg_attr(miri, ignore = "12 MB of bytes: too slow under Miri")]
    fn piecewise_checksum_equals_the_one_pass_checksum() {
        // Sizes below, at and across the piece boundaries: the combined pieces must give
        // crc32fast's one-pass CRC of the same bytes.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let bytes: Vec<u8> = (0..3 * CHECK_PIECE + 17)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u8
            })
            .collect();
        for len in [
            0,
            1,
            CHECK_PIECE - 1,
            CHECK_PIECE,
            CHECK_PIECE + 1,
            bytes.len(),
        ] {
            assert_eq!(
                parallel_crc32(&bytes[..len]),
                crc32fast::hash(&bytes[..len]),
                "{len} bytes"
            );
        }
    }
}
