//! `MancalaEgdb`: Kalah endgame databases — build, save, load (fully checked), verify, probe.

use std::ffi::c_char;
use std::path::Path;
use std::sync::Arc;

use mancala_core::kalah::KalahPosition;
use mancala_solver::egdb::{self, Database, Encoding};
use mancala_solver::{BuildOptions, Cache, CacheEvent, Egdb, EgdbError};

use crate::handle::{self, Handle, Kind};
use crate::io;
use crate::kalah::MancalaKalah;
use crate::rules::MancalaRules;
use crate::status::{guard, Error, MancalaStatus, Result};

/// An opaque endgame database: the exact value of every position of one board size (m) and
/// value-relevant rule options with at most K seeds in the houses.
///
/// The older handle of a Kalah database, beside `MancalaDb` (any game's database); its calls
/// are deprecated and removed in 0.4.0: use `MancalaDb`.
///
/// Created by `mancala_egdb_build`, `mancala_egdb_load` or `mancala_egdb_open_cached`, freed
/// by `mancala_egdb_free`.
/// Immutable: may be read from several threads at once, and shared with solvers
/// (`mancala_solver_set_database`), which keep the data alive after the handle is freed.
pub struct MancalaEgdb {
    db: Arc<Egdb>,
}

impl Handle for MancalaEgdb {
    const KIND: Kind = Kind::Egdb;
}

impl MancalaEgdb {
    pub(crate) fn shared(&self) -> Arc<Egdb> {
        Arc::clone(&self.db)
    }
}

/// A handle of a game's database (`MancalaEgdb`, `MancalaAwariDb`): the bodies their entry
/// points share are written once over it (`save_entry`, `load_entry`, `convert_entry`,
/// `encoding_entry`).
pub(crate) trait DbHandle: Handle + Sized {
    /// The database type.
    type Db: Database;
    /// The database.
    fn db(&self) -> &Arc<Self::Db>;
    /// A new handle of `db`.
    fn wrap(db: Self::Db) -> Self;
}

impl DbHandle for MancalaEgdb {
    type Db = Egdb;
    fn db(&self) -> &Arc<Egdb> {
        &self.db
    }
    fn wrap(db: Egdb) -> MancalaEgdb {
        MancalaEgdb { db: Arc::new(db) }
    }
}

/// Writes a new handle of `db` to `out` (owned by the caller).
pub(crate) fn new_handle<H: DbHandle>(out: *mut *mut H, db: H::Db) -> Result<()> {
    // SAFETY: `out` is NULL or writable by the entry point's contract.
    unsafe { handle::write_new(out, "out", H::wrap(db)) }
}

/// Refuses a build on more threads than the library starts
/// (`MANCALA_STATUS_INVALID_ARGUMENT`, naming the argument `threads`).
pub(crate) fn check_threads(threads: u32) -> Result<()> {
    if threads as usize > mancala_solver::MAX_THREADS {
        return Err(Error::new(
            MancalaStatus::InvalidArgument,
            format!(
                "threads: {threads} asked for, at most {}",
                mancala_solver::MAX_THREADS
            ),
        ));
    }
    Ok(())
}

/// The body of `mancala_egdb_save` and `mancala_awari_db_save`.
///
/// # Safety
/// `path` must be NULL or NUL-terminated.
pub(crate) unsafe fn save_entry<H: DbHandle>(db: *const H, path: *const c_char) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle.
        let db = unsafe { handle::get(db, "db") }?;
        // SAFETY: the caller's contract: `path` is NULL or a NUL-terminated string that
        // outlives the call.
        let path = unsafe { io::in_str(path, "path") }?;
        db.db()
            .save(Path::new(path))
            .map(|_report| ())
            .map_err(egdb_error)
    })
}

/// The body of `mancala_egdb_load` and `mancala_awari_db_load`: the file opened and
/// checked completely, its errors naming it.
///
/// # Safety
/// `path` must be NULL or NUL-terminated; `out` NULL or writable.
pub(crate) unsafe fn load_entry<H: DbHandle>(
    path: *const c_char,
    out: *mut *mut H,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: caller's string contract.
        let path = unsafe { io::in_str(path, "path") }?;
        let db = H::Db::open(Path::new(path)).map_err(egdb_error_in(Path::new(path)))?;
        new_handle(out, db)
    })
}

/// The body of `mancala_egdb_value` and `mancala_awari_db_value`: the out-pointers
/// checked, both handles looked up, `look` asked for the value of the game's position
/// (`None`: the database does not hold it), then `*found` and `*value` (0 when not found)
/// written.
///
/// # Safety
/// `found` and `value` must be NULL or writable; by the caller's contract no other thread
/// mutates or frees `game` during the call.
pub(crate) unsafe fn value_entry<H: DbHandle, Gm: Handle>(
    db: *const H,
    game: *const Gm,
    found: *mut bool,
    value: *mut i32,
    look: impl FnOnce(&H::Db, &Gm) -> Result<Option<i32>>,
) -> MancalaStatus {
    guard(|| {
        let out = (io::out_ptr(found, "found")?, io::out_ptr(value, "value")?);
        // SAFETY: registry-checked handles; by the caller's contract no other thread
        // mutates or frees `game` during the call.
        let (db, game) = unsafe { (handle::get(db, "db")?, handle::get(game, "game")?) };
        let v = look(db.db(), game)?;
        // SAFETY: both out-pointers were checked non-NULL above (`io::out_ptr`) and are
        // writable by the caller's contract.
        unsafe {
            out.0.write(v.is_some());
            out.1.write(v.unwrap_or(0));
        }
        Ok(())
    })
}

/// The body of `mancala_egdb_convert` and `mancala_awari_db_convert`.
///
/// # Safety
/// `out` must be NULL or writable.
pub(crate) unsafe fn convert_entry<H: DbHandle>(
    db: *const H,
    encoding: u32,
    out: *mut *mut H,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handle.
        let db = unsafe { handle::get(db, "db") }?;
        let encoding = MancalaEgdbEncoding::from_c(encoding, "encoding")?;
        let converted = db.db().convert(encoding).map_err(egdb_error)?;
        new_handle(out, converted)
    })
}

/// The body of `mancala_egdb_encoding` and `mancala_awari_db_encoding`: checks the three
/// out-pointers, then writes the encoding, the bits an entry and the memory bytes.
///
/// # Safety
/// The out-pointers must be NULL or writable.
pub(crate) unsafe fn encoding_entry<H: DbHandle>(
    db: *const H,
    encoding: *mut u32,
    bits_per_entry: *mut u32,
    memory_bytes: *mut u64,
) -> MancalaStatus {
    guard(|| {
        // The out-pointers first (a NULL one is refused before the handle is looked at).
        let out = (
            io::out_ptr(encoding, "encoding")?,
            io::out_ptr(bits_per_entry, "bits_per_entry")?,
            io::out_ptr(memory_bytes, "memory_bytes")?,
        );
        // SAFETY: registry-checked handle.
        let db = unsafe { handle::get(db, "db") }?.db();
        // SAFETY: every out-pointer written here was checked non-NULL above
        // (`io::out_ptr`) and is writable by the caller's contract.
        unsafe {
            out.0.write(MancalaEgdbEncoding::to_c(db.encoding()));
            out.1.write(db.bits_per_entry());
            out.2.write(db.bytes() as u64);
        }
        Ok(())
    })
}

/// The [`Error`] of `e`: its status, and its message. An input/output error about a path
/// below something that is not a folder (a file, a FIFO, a socket or a device, which the
/// system reports only as "Not a directory" or "File exists") names it, in the words of
/// [`egdb::file_in_the_way`]: `<path>: <file> is a file, not a folder`, or `… is a FIFO,
/// socket or device, not a folder`.
pub(crate) fn egdb_error(e: EgdbError) -> Error {
    if let EgdbError::Io { path, .. } = &e {
        // `path` is the file (or folder) the system refused: what stands in the way is
        // above it, never `path` itself (a file that cannot be read is no file in the way).
        if let Some(f) = path.parent().and_then(egdb::file_in_the_way) {
            let above = egdb::FileInTheWay { itself: false, ..f };
            return Error::new(
                MancalaStatus::IoError,
                format!("{}: {above}", mancala_core::ShortenedPath(path)),
            );
        }
    }
    Error::new(egdb_status(&e), e.to_string())
}

/// Refuses the folder argument `dir` of a cache when it, or a folder above it, is not a
/// folder ([`egdb::file_in_the_way`]), before anything is built.
///
/// # Errors
/// `MANCALA_STATUS_IO_ERROR`, `<dir>: it is a file, not a folder` (`a FIFO, socket or
/// device` for one that is not a regular file; `<dir>: <above> is …` for one above it).
pub(crate) fn check_folder(dir: &str) -> Result<()> {
    match egdb::file_in_the_way(Path::new(dir)) {
        Some(f) => Err(Error::new(
            MancalaStatus::IoError,
            format!("{}: {f}", mancala_core::ShortenedPath(Path::new(dir))),
        )),
        None => Ok(()),
    }
}

/// The [`Error`] of `e`, an error about the database file `path`: its message names the file
/// ([`EgdbError::about`]).
pub(crate) fn egdb_error_in(path: &Path) -> impl Fn(EgdbError) -> Error + '_ {
    move |e| match e {
        EgdbError::Io { .. } => egdb_error(e),
        e => Error::new(egdb_status(&e), e.about(path).to_string()),
    }
}

/// The status of `e`.
fn egdb_status(e: &EgdbError) -> MancalaStatus {
    match e {
        EgdbError::Io { .. } | EgdbError::Changed(_) | EgdbError::NotFound { .. } => {
            MancalaStatus::IoError
        }
        // A save that keeps another file: a status of its own, not a full disk's.
        EgdbError::Occupied { .. } => MancalaStatus::FileExists,
        EgdbError::BadMagic(_)
        | EgdbError::Version { .. }
        | EgdbError::Truncated { .. }
        | EgdbError::TooLong { .. }
        | EgdbError::Header(_)
        | EgdbError::Checksum { .. }
        | EgdbError::BadEntry { .. }
        | EgdbError::Padding { .. }
        | EgdbError::BadBlock { .. } => MancalaStatus::CorruptFile,
        // A database of another game (an Awari file where a Kalah one is wanted).
        EgdbError::RulesMismatch { .. } | EgdbError::Unserved(_) | EgdbError::WrongGame { .. } => {
            MancalaStatus::DatabaseMismatch
        }
        EgdbError::Unsupported { .. }
        | EgdbError::MoreSeedsThanTheGame { .. }
        | EgdbError::NoDatabase { .. }
        | EgdbError::NoSuchEncoding { .. } => MancalaStatus::InvalidArgument,
        EgdbError::OutOfMemory(_) => MancalaStatus::OutOfMemory,
        EgdbError::Cancelled => MancalaStatus::Cancelled,
        EgdbError::Threads(_) => MancalaStatus::SolveFailed,
    }
}

/// How the entries of a database are stored, in memory and in its file (the entry-encoding
/// byte of the file's header; `docs/egdb.md`). The values are the same in either encoding.
/// Functions take and give it as a `uint32_t` (so that any number a caller passes is
/// checked, never undefined behaviour): one of these values.
///
/// New encodings may be added in later versions; existing values never change.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MancalaEgdbEncoding {
    /// One byte an entry, the value + 128: the fastest lookups, C(K+2m, 2m) bytes (m = 6,
    /// K = 20: 215 MiB). What the deprecated `mancala_egdb_build` builds.
    Byte = 1,
    /// The value's index among the values its seed count allows, in ⌈log2(K + 2)⌉ bits an
    /// entry (5 for K = 15..30; one more under `discard_remaining`) packed into a bit stream:
    /// m = 6, K = 20 takes 135 MiB, K = 30 6.4 GiB. Built layer by layer (the finished layers
    /// packed, the one under construction one byte an entry).
    Packed = 2,
    /// Oware databases only: the values in blocks of 128 boards, each value coded with a
    /// canonical Huffman code chosen by the values of two neighbouring boards, with an index
    /// of the blocks: about 3.3 bits a board at N = 20..=24, a lookup decoding one block
    /// (`docs/awari.md`). A Kalah database refuses it (`MANCALA_STATUS_INVALID_ARGUMENT`).
    Compact = 3,
}

impl MancalaEgdbEncoding {
    /// The library's encoding of the C value `code`, or `MANCALA_STATUS_INVALID_ARGUMENT`
    /// naming the argument `arg`.
    pub(crate) fn from_c(code: u32, arg: &str) -> Result<Encoding> {
        match code {
            c if c == MancalaEgdbEncoding::Byte as u32 => Ok(Encoding::Byte),
            c if c == MancalaEgdbEncoding::Packed as u32 => Ok(Encoding::Packed),
            c if c == MancalaEgdbEncoding::Compact as u32 => Ok(Encoding::Compact),
            c => Err(Error::new(
                MancalaStatus::InvalidArgument,
                format!(
                    "{arg}: {c} is not a MancalaEgdbEncoding (1 = MANCALA_EGDB_ENCODING_BYTE, 2 = MANCALA_EGDB_ENCODING_PACKED, 3 = MANCALA_EGDB_ENCODING_COMPACT)"
                ),
            )),
        }
    }

    /// The C value of the library's `encoding`.
    pub(crate) fn to_c(encoding: Encoding) -> u32 {
        match encoding {
            Encoding::Byte => MancalaEgdbEncoding::Byte as u32,
            Encoding::Packed => MancalaEgdbEncoding::Packed as u32,
            Encoding::Compact => MancalaEgdbEncoding::Compact as u32,
        }
    }
}

/// Builds in memory the database of `rules` (its m and value-relevant options) for every
/// position with at most `max_seeds` (K) seeds in the houses, on `threads` threads (0 = every
/// core). It has C(K+2m, 2m) one-byte entries: Kalah(6,·) with K = 12 takes 2.7 MB and a few
/// seconds; each extra seed multiplies that by about (K+12)/K. (`mancala_egdb_build_encoded`
/// builds the packed encoding, 5 bits an entry for K = 15..30.)
///
/// Ownership: `rules` is only read. On success `*out` is a new handle owned by the caller,
/// released with `mancala_egdb_free`.
/// Thread safety: safe from any thread; the call blocks until the build is done.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_ARGUMENT` (K > 127, over 2^36
/// entries, K above the game's 2·m·n seeds, or Bao la Kete rules),
/// `MANCALA_STATUS_SOLVE_FAILED` (threads could not start),
/// `MANCALA_STATUS_OUT_OF_MEMORY` (the entries do not fit in memory),
/// `MANCALA_STATUS_NULL_POINTER` (`rules` or `out` NULL), `MANCALA_STATUS_INVALID_HANDLE` or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_build; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_egdb_build(
    rules: *const MancalaRules,
    max_seeds: u32,
    threads: u32,
    out: *mut *mut MancalaEgdb,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handle.
        let rules = unsafe { handle::get(rules, "rules") }?.kalah()?;
        let mut pool = rayon::ThreadPoolBuilder::new();
        check_threads(threads)?;
        if threads > 0 {
            pool = pool.num_threads(threads as usize);
        }
        let pool = pool.build().map_err(|e| {
            Error::new(
                MancalaStatus::SolveFailed,
                format!("cannot start the build threads: {e}"),
            )
        })?;
        let db = pool
            .install(|| Egdb::build(&rules, max_seeds, BuildOptions::new()))
            .map_err(egdb_error)?;
        new_handle(out, db)
    })
}

/// `mancala_egdb_build` with progress reports: `callback(&progress, user_data)` is called on
/// the calling thread (never on a build thread) every `interval_ms` milliseconds (0 or less
/// than 10: every 10 ms) while the build runs, never after it ended, with the entries done
/// and in all and the seconds so far. A non-zero return stops the build within one work item
/// per thread: the call then returns `MANCALA_STATUS_CANCELLED` and writes nothing. With
/// `callback` NULL this is `mancala_egdb_build`. The entries are the same either way.
///
/// Ownership: `rules` is only read; `user_data` is never dereferenced, only handed back. On
/// success `*out` is a new handle owned by the caller, released with `mancala_egdb_free`.
/// The callback must not unwind into the library.
/// Thread safety: safe from any thread; the call blocks until the build ends.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_CANCELLED` (the callback returned non-zero),
/// `MANCALA_STATUS_INVALID_ARGUMENT` (K > 127, over 2^36 entries, K above the game's 2·m·n
/// seeds, or Bao la Kete rules),
/// `MANCALA_STATUS_SOLVE_FAILED` (threads could not start), `MANCALA_STATUS_OUT_OF_MEMORY`
/// (the entries do not fit in memory), `MANCALA_STATUS_NULL_POINTER` (`rules` or `out`
/// NULL), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `out` must be NULL or writable; `callback` NULL or a function of that type.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_build; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_egdb_build_progress(
    rules: *const MancalaRules,
    max_seeds: u32,
    threads: u32,
    callback: crate::progress::MancalaBuildProgressFn,
    user_data: *mut std::ffi::c_void,
    interval_ms: u32,
    out: *mut *mut MancalaEgdb,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe {
        build_in(
            rules,
            max_seeds,
            None,
            threads,
            callback,
            user_data,
            interval_ms,
            out,
        )
    }
}

/// The build of `mancala_egdb_build_progress` (`encoding` `None`: one byte an entry) and of
/// `mancala_egdb_build_encoded` (`Some` C encoding value, checked here): the same checks,
/// statuses and progress calls for both.
///
/// # Safety
/// As `mancala_egdb_build_encoded`.
#[allow(clippy::too_many_arguments)]
unsafe fn build_in(
    rules: *const MancalaRules,
    max_seeds: u32,
    encoding: Option<u32>,
    threads: u32,
    callback: crate::progress::MancalaBuildProgressFn,
    user_data: *mut std::ffi::c_void,
    interval_ms: u32,
    out: *mut *mut MancalaEgdb,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        let encoding = match encoding {
            None => Encoding::Byte,
            Some(code) => MancalaEgdbEncoding::from_c(code, "encoding")?,
        };
        // SAFETY: registry-checked handle.
        let rules = unsafe { handle::get(rules, "rules") }?.kalah()?;
        let db = Egdb::build(
            &rules,
            max_seeds,
            BuildOptions::new()
                .encoding(encoding)
                .threads(threads as usize)
                .progress(
                    crate::progress::interval(interval_ms),
                    &mut |p| match callback {
                        Some(f) => crate::progress::call_build(f, user_data, p),
                        None => std::ops::ControlFlow::Continue(()),
                    },
                ),
        )
        .map_err(egdb_error)?;
        new_handle(out, db)
    })
}

/// `mancala_egdb_build_progress` in the entry encoding `encoding`, a `MancalaEgdbEncoding`
/// value: `MANCALA_EGDB_ENCODING_BYTE` builds what `mancala_egdb_build_progress` builds;
/// `MANCALA_EGDB_ENCODING_PACKED` the same values in ⌈log2(K + 2)⌉ bits an entry (5 for
/// K = 15..30), built layer by layer, so that the build needs the packed entries plus one
/// byte for every position of the largest layer (m = 6, K = 30: 6.9 GB + 4.1 GB) instead of
/// one byte an entry (11.1 GB). `mancala_egdb_save` writes either into its file, and
/// `mancala_egdb_load` reads either. `callback`, `user_data` and `interval_ms` as in
/// `mancala_egdb_build_progress` (`callback` may be NULL).
///
/// Ownership: `rules` is only read; `user_data` is never dereferenced, only handed back. On
/// success `*out` is a new handle owned by the caller, released with `mancala_egdb_free`.
/// The callback must not unwind into the library.
/// Thread safety: safe from any thread; the call blocks until the build ends.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_CANCELLED` (the callback returned non-zero),
/// `MANCALA_STATUS_INVALID_ARGUMENT` (`encoding` not a `MancalaEgdbEncoding` value, K > 127,
/// over 2^36 entries, K above the game's 2·m·n seeds, or Bao la Kete rules), `MANCALA_STATUS_SOLVE_FAILED` (the threads
/// could not start, or more than 1024 were asked for, as in `mancala_egdb_build_progress`),
/// `MANCALA_STATUS_OUT_OF_MEMORY` (the entries do not fit in memory),
/// `MANCALA_STATUS_NULL_POINTER` (`rules` or `out` NULL), `MANCALA_STATUS_INVALID_HANDLE` or
/// `MANCALA_STATUS_PANIC`. Nothing is written to `*out` on failure.
///
/// # Safety
/// `out` must be NULL or writable; `callback` NULL or a function of that type.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_build; removed in 0.4.0")]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mancala_egdb_build_encoded(
    rules: *const MancalaRules,
    max_seeds: u32,
    encoding: u32,
    threads: u32,
    callback: crate::progress::MancalaBuildProgressFn,
    user_data: *mut std::ffi::c_void,
    interval_ms: u32,
    out: *mut *mut MancalaEgdb,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe {
        build_in(
            rules,
            max_seeds,
            Some(encoding),
            threads,
            callback,
            user_data,
            interval_ms,
            out,
        )
    }
}

/// The same database as `db` in the entry encoding `encoding` (a `MancalaEgdbEncoding`
/// value), every value the same: a new handle, which `mancala_egdb_save` writes as a file of
/// that encoding (a copy when `db` is already in it). Both encodings are in memory at once
/// while converting.
///
/// Ownership: `db` is only read. On success `*out` is a new handle owned by the caller,
/// released with `mancala_egdb_free`; `db` stays the caller's.
/// Thread safety: `db` is only read; safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_ARGUMENT` (`encoding` not a
/// `MancalaEgdbEncoding` value), `MANCALA_STATUS_OUT_OF_MEMORY` (no memory for the new
/// entries), `MANCALA_STATUS_NULL_POINTER` (`db` or `out` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`. Nothing is written to `*out`
/// on failure.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_convert; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_egdb_convert(
    db: *const MancalaEgdb,
    encoding: u32,
    out: *mut *mut MancalaEgdb,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe { convert_entry(db, encoding, out) }
}

/// How a database holds its entries: `*encoding` its `MancalaEgdbEncoding` value,
/// `*bits_per_entry` the bits an entry takes (8, or the packed width), `*memory_bytes` the
/// memory its entries take, bytes (C(K+2m, 2m) one byte an entry; packed, the bit stream,
/// ⌈entries · bits / 8⌉ bytes, and 8 bytes of padding).
///
/// Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing
/// written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// The out-pointers must be NULL or writable.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_encoding; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_egdb_encoding(
    db: *const MancalaEgdb,
    encoding: *mut u32,
    bits_per_entry: *mut u32,
    memory_bytes: *mut u64,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe { encoding_entry(db, encoding, bits_per_entry, memory_bytes) }
}

/// The database of `rules` (its m and value-relevant options) with K = `max_seeds` from the
/// folder `dir`, a cache the game chose: read and checked completely when its file
/// (`kalah6.k20.egdb`-style name) is there and good, else built (on `threads` threads, 0 =
/// every core, with `callback` as in `mancala_egdb_build_progress`) and saved there the way
/// `mancala_egdb_save` saves. A cached file that is damaged, truncated, of another format
/// version or of other rules is rebuilt, never used. `max_seeds` 0 chooses K from m, the
/// game's 2mn seeds and the memory available (m = 6: 20, 215 MiB, about 8 s to build on two
/// cores; see `mancala_solver::egdb::cache`). Nothing is written anywhere else: the library
/// has no cache unless a game calls this.
///
/// `*built` (when `built` is not NULL) is 0 when the database was read from the cache, 1 when
/// it was built and saved, 2 when it was built but could not be saved (a full disk: the
/// database is good, the next call builds it again).
///
/// Ownership: `rules` and `dir` are only read; `user_data` is never dereferenced, only handed
/// back. On success `*out` is a new handle owned by the caller, released with
/// `mancala_egdb_free`. The callback must not unwind into the library.
/// Thread safety: safe from any thread; two calls (threads or processes) filling the same
/// folder at once both succeed and leave one whole file.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_IO_ERROR` (the folder cannot be created or
/// written: nothing was built), `MANCALA_STATUS_CANCELLED` (the callback returned non-zero),
/// `MANCALA_STATUS_INVALID_ARGUMENT` (K > 127, over 2^36 entries, K above the game's 2·m·n
/// seeds, or Bao la Kete rules),
/// `MANCALA_STATUS_SOLVE_FAILED` (threads could not start), `MANCALA_STATUS_OUT_OF_MEMORY`
/// (the entries do not fit in memory), `MANCALA_STATUS_INVALID_UTF8` (`dir`),
/// `MANCALA_STATUS_NULL_POINTER` (`rules`, `dir` or `out` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `dir` must be NULL or NUL-terminated; `out` NULL or writable; `built` NULL or writable;
/// `callback` NULL or a function of that type.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_open_cached; removed in 0.4.0")]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mancala_egdb_open_cached(
    rules: *const MancalaRules,
    dir: *const c_char,
    max_seeds: u32,
    threads: u32,
    callback: crate::progress::MancalaBuildProgressFn,
    user_data: *mut std::ffi::c_void,
    interval_ms: u32,
    out: *mut *mut MancalaEgdb,
    built: *mut i32,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handle; caller's string contract.
        let rules = unsafe { handle::get(rules, "rules") }?.kalah()?;
        // SAFETY: the caller's contract: `dir` is NULL or a NUL-terminated string that
        // outlives the call.
        let dir = unsafe { io::in_str(dir, "dir") }?;
        check_folder(dir)?;
        let k = match max_seeds {
            0 => Egdb::default_max_seeds(&rules, mancala_solver::available_memory_bytes())
                .ok_or_else(|| {
                    Error::new(
                        MancalaStatus::OutOfMemory,
                        "not enough memory for any endgame database".to_string(),
                    )
                })?,
            k => k,
        };
        let cached = Cache::new(dir)
            .read_or_build::<Egdb>(
                &rules,
                k,
                threads as usize,
                crate::progress::interval(interval_ms),
                &mut |ev| match (ev, callback) {
                    (CacheEvent::Progress(p), Some(f)) => {
                        crate::progress::call_build(f, user_data, p)
                    }
                    _ => std::ops::ControlFlow::Continue(()),
                },
            )
            .map_err(egdb_error)?;
        let state = match (cached.built, &cached.save_error) {
            (false, _) => 0,
            (true, None) => 1,
            (true, Some(_)) => 2,
        };
        if !built.is_null() {
            // SAFETY: checked non-NULL; writable by the caller's contract.
            unsafe { built.write(state) };
        }
        new_handle(out, cached.database)
    })
}

/// Saves a database to the file `path`, with a header naming its rules and K and CRC-32
/// checksums, as `mancala_db_save` saves: crash-safely (a new temporary file in the folder of
/// `path`, `.<name>.<pid>.<random>.tmp`, created exclusively, flushed to disk and published
/// at `path` in one step; on any error it is removed), and only over nothing or over a file
/// that holds this same database: a file holding another database, or no database, is left
/// as it is (`MANCALA_STATUS_FILE_EXISTS`). A symlink at `path` is replaced, never written
/// through. Temporary files of earlier saves of the same name whose process is gone (killed
/// while saving) are removed first.
///
/// Ownership: `db` and `path` are only read. Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_FILE_EXISTS` (a file at `path` holds another
/// database or no database), `MANCALA_STATUS_IO_ERROR` (the file could not be written),
/// `MANCALA_STATUS_INVALID_UTF8` (`path`), `MANCALA_STATUS_NULL_POINTER` (`db` or `path`
/// NULL), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `path` must be NULL or NUL-terminated.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_save; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_egdb_save(
    db: *const MancalaEgdb,
    path: *const c_char,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe { save_entry(db, path) }
}

/// Loads the database file at `path` into memory, checking it completely first (magic,
/// format version, header fields, size, both checksums, every entry within the values its
/// seed count allows): a damaged file is refused, never half-used. The file is read (never
/// memory-mapped) into memory of the process and not touched again: a file truncated,
/// overwritten or replaced while it is loaded gives `MANCALA_STATUS_IO_ERROR` or
/// `MANCALA_STATUS_CORRUPT_FILE`, never a signal that would stop the calling program.
///
/// Ownership: `path` is only read. On success `*out` is a new handle owned by the caller,
/// released with `mancala_egdb_free`.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_IO_ERROR` (cannot read the file, or it
/// changed while it was read), `MANCALA_STATUS_CORRUPT_FILE` (not a database, unknown
/// version, truncated, bad header, checksum or entry), `MANCALA_STATUS_INVALID_ARGUMENT` (a
/// database too large for this library), `MANCALA_STATUS_DATABASE_MISMATCH` (a database of
/// another game: an Awari file), `MANCALA_STATUS_OUT_OF_MEMORY` (no memory for the
/// entries), `MANCALA_STATUS_INVALID_UTF8` (`path`), `MANCALA_STATUS_NULL_POINTER` (`path`
/// or `out` NULL) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `path` must be NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_open; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_egdb_load(
    path: *const c_char,
    out: *mut *mut MancalaEgdb,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe { load_entry(path, out) }
}

/// Verifies the database file at `path`, of either entry encoding: everything
/// `mancala_egdb_load` checks (magic, version, header, size, both checksums, every entry
/// against the values its seed count allows), reading the file and checking each entry once.
/// `*entries` = entries checked, C(K+2m, 2m).
///
/// Ownership: `path` is only read. Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_IO_ERROR`, `MANCALA_STATUS_CORRUPT_FILE`
/// (including an entry out of range), `MANCALA_STATUS_INVALID_ARGUMENT`,
/// `MANCALA_STATUS_INVALID_UTF8`, `MANCALA_STATUS_NULL_POINTER` (`path` or `entries` NULL) or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `path` must be NULL or NUL-terminated; `entries` NULL or writable.
#[no_mangle]
#[deprecated(
    since = "0.3.0",
    note = "use mancala_db_open and mancala_db_info; removed in 0.4.0"
)]
pub unsafe extern "C" fn mancala_egdb_verify(
    path: *const c_char,
    entries: *mut u64,
) -> MancalaStatus {
    guard(|| {
        let entries = io::out_ptr(entries, "entries")?;
        // SAFETY: caller's string contract.
        let path = unsafe { io::in_str(path, "path") }?;
        // Opening checks every entry once (it refuses a file with a bad one).
        let db = Egdb::open(Path::new(path)).map_err(egdb_error_in(Path::new(path)))?;
        // SAFETY: checked non-NULL.
        unsafe { entries.write(db.len() as u64) };
        Ok(())
    })
}

/// Frees a database handle. NULL is a no-op (`MANCALA_STATUS_OK`). Solvers it was attached
/// to keep their own reference.
///
/// Thread safety: no other thread may be using `db`.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `db` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_free; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_egdb_free(db: *mut MancalaEgdb) -> MancalaStatus {
    // SAFETY: the caller's contract: no other thread uses `db` (`free_entry` checks the rest).
    unsafe { handle::free_entry(db, "db") }
}

/// Gives the size of a database: houses per row m, K (the most seeds in the houses of a
/// position it holds) and its number of entries.
///
/// Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing
/// written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// The out-pointers must be NULL or writable.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_info; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_egdb_info(
    db: *const MancalaEgdb,
    houses: *mut u8,
    max_seeds: *mut u32,
    entries: *mut u64,
) -> MancalaStatus {
    guard(|| {
        let houses = io::out_ptr(houses, "houses")?;
        let max_seeds = io::out_ptr(max_seeds, "max_seeds")?;
        let entries = io::out_ptr(entries, "entries")?;
        // SAFETY: registry-checked handle; out-pointers checked non-NULL.
        let db = unsafe { handle::get(db, "db") }?;
        // SAFETY: every out-pointer written here was checked non-NULL above (`io::out_ptr`) and is
        // writable by the caller's contract.
        unsafe {
            houses.write(db.db.houses());
            max_seeds.write(db.db.max_seeds());
            entries.write(db.db.len() as u64);
        }
        Ok(())
    })
}

/// Describes what a database serves (`"kalah(6,·)+empty_capture, K = 20"`) into `buf` as a
/// NUL-terminated string.
///
/// Ownership: `buf` belongs to the caller. Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK` (`*needed` = bytes written, NUL included),
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (`*needed` = size needed; `buf` may be NULL when `len`
/// is 0), `MANCALA_STATUS_NULL_POINTER` (`db` or `needed` NULL, or `buf` NULL with `len` > 0),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_describe; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_egdb_describe(
    db: *const MancalaEgdb,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: the caller's buffer contract; `db` is only read.
    unsafe { handle::print_entry(db, "db", buf, len, needed, |db| db.db.description()) }
}

/// Looks up the current position of `game`: `*found` tells whether the database holds it
/// (same m and value-relevant options, at most K seeds in the houses, not finished, not an
/// opening or pie-rule state); when found, `*value` is its exact value for the side to move
/// (seeds, as `MancalaSolution::value`), else `*value` is 0.
///
/// Thread safety: `db` and `game` are only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing
/// written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `found` and `value` must be NULL or writable.
#[no_mangle]
#[deprecated(
    since = "0.3.0",
    note = "use mancala_db_value with a MancalaGame; removed in 0.4.0"
)]
pub unsafe extern "C" fn mancala_egdb_value(
    db: *const MancalaEgdb,
    game: *const MancalaKalah,
    found: *mut bool,
    value: *mut i32,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe {
        value_entry(db, game, found, value, |db, game| {
            // The one lookup of `mancala_db_value`; this older call reports a position of
            // other rules as not found.
            match crate::db::value_of::<KalahPosition>(db, game.position()?) {
                Err(e) if e.status == MancalaStatus::DatabaseMismatch => Ok(None),
                v => v,
            }
        })
    }
}
