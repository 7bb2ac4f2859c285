//! `MancalaDb`: the database of exact values of any game behind one handle — open (the game
//! told by the file's header), build, cache, save, convert, describe, and the value of a
//! `MancalaGame`'s position and of each of its legal moves.
//!
//! Written once, generically over the game's database type
//! ([`ExactGame::Database`](mancala_solver::ExactGame::Database)): the handle holds the
//! solver's [`AnyDatabase`] trait object (the one Python's `Database` holds too) made for
//! the game a rule set or a file names, so that a game that gains a database is served here
//! without an edit. The older `mancala_egdb_*` and
//! `mancala_awari_db_*` calls are thin wrappers over the typed bodies of this module.

use std::ffi::{c_char, c_void};
use std::path::Path;
use std::sync::Arc;

use mancala_core::{with_game, AnyGame, GameRecord, Rules};
use mancala_solver::egdb::{game_of_file, Database, DatabaseInfo, Encoding};
use mancala_solver::engine::{
    any_database, database_of, move_values_in, value_in, AnyDatabase, Evaluate, LookupError,
    Players,
};
use mancala_solver::exact_values::ExactError;
use mancala_solver::{available_memory_bytes, BuildOptions, Cache, CacheEvent};

use crate::egdb::{check_folder, check_threads, egdb_error, egdb_error_in, MancalaEgdbEncoding};
use crate::game::{GameHandle, MancalaGame, MancalaGameKind};
use crate::handle::{self, Handle, Kind};
use crate::io;
use crate::progress::MancalaBuildProgressFn;
use crate::status::{guard, Error, MancalaStatus, Result};

/// An opaque database of exact values of one game: a Kalah endgame database (one board
/// size m and value-relevant rule options, every position with at most K seeds in the
/// houses) or an Oware database (the rule sets whose values it holds, every board with at
/// most N seeds). `mancala_db_info` tells which game, rules and size.
///
/// Created by `mancala_db_open`, `mancala_db_build`, `mancala_db_open_cached` or
/// `mancala_db_convert`; freed by `mancala_db_free`. Immutable: may be read from several
/// threads at once, and given to engines (`mancala_engine_set_db`) and solvers
/// (`mancala_solver_set_db`), which keep their own reference to the data after the handle
/// is freed.
pub struct MancalaDb {
    db: Arc<dyn AnyDatabase>,
    /// The rule set it was built with, as the file's header or the build names it.
    rules: String,
}

impl Handle for MancalaDb {
    const KIND: Kind = Kind::Db;
}

impl MancalaDb {
    /// A handle of the database `db` of game `G`, built with the rule set `rules`.
    pub(crate) fn of<G: Evaluate>(db: Arc<G::Database>, rules: String) -> MancalaDb {
        MancalaDb {
            db: any_database::<G>(db),
            rules,
        }
    }

    /// The database, when it is one of game `G`.
    pub(crate) fn shared<G: Evaluate>(&self) -> Option<Arc<G::Database>> {
        database_of::<G>(&*self.db)
    }
}

/// The [`Error`] of a refused lookup: another game or other rules are
/// `MANCALA_STATUS_DATABASE_MISMATCH`, a failure of the source `MANCALA_STATUS_SOLVE_FAILED`.
fn lookup_error(e: LookupError) -> Error {
    let status = match &e {
        LookupError::OtherGame { .. } | LookupError::Refused(ExactError::Rules(_)) => {
            MancalaStatus::DatabaseMismatch
        }
        LookupError::Refused(ExactError::Solve(_) | ExactError::NotExact) => {
            MancalaStatus::SolveFailed
        }
        LookupError::Refused(ExactError::NotHeld { .. } | ExactError::Opening) => {
            MancalaStatus::InvalidArgument
        }
    };
    Error::new(status, e.to_string())
}

/// The record of game `G` in `game` ([`mancala_solver::engine::record_of`]).
///
/// # Errors
/// `MANCALA_STATUS_DATABASE_MISMATCH` for a game of another kind (a database of one game
/// holds no position of another).
pub(crate) fn record_of<G: Evaluate>(game: &AnyGame) -> Result<&GameRecord<G>> {
    mancala_solver::engine::record_of::<G>(game).map_err(lookup_error)
}

/// The value of `pos` from `db` for the player to move ([`value_in`]): `None` when the game
/// is over or the database does not hold the position.
///
/// # Errors
/// `MANCALA_STATUS_DATABASE_MISMATCH` for a position of rules whose values `db` does not
/// hold (the message names the rules that differ).
pub(crate) fn value_of<G: Evaluate>(db: &G::Database, pos: &G) -> Result<Option<i32>> {
    value_in::<G>(db, pos).map_err(lookup_error)
}

/// The value of each legal move of `pos` from `db`, in the order of `Game::legal_moves`
/// (the order of `mancala_game_legal_moves`, [`move_values_in`]): `None` as for
/// [`value_of`].
///
/// # Errors
/// As [`value_of`].
pub(crate) fn move_values_of<G: Evaluate>(db: &G::Database, pos: &G) -> Result<Option<Vec<i32>>> {
    move_values_in::<G>(db, pos).map_err(lookup_error)
}

/// The game of `rules` as a type: `f` called with its start record (whose position gives
/// the game's typed rules), written once for every game.
macro_rules! with_rules {
    ($rules:expr, $g:ident => $body:expr) => {
        with_game!(&AnyGame::new($rules), $g => $body)
    };
}

/// The rules of `text`, or `MANCALA_STATUS_BAD_RULES`.
fn parse_rules(text: &str) -> Result<Rules> {
    text.parse::<Rules>()
        .map_err(|e| Error::new(MancalaStatus::BadRules, e.to_string()))
}

/// Opens the file at `path` as a database of game `G` (the record only names the game).
fn open_as<G: Evaluate>(_: &GameRecord<G>, path: &Path) -> Result<MancalaDb> {
    let info = G::Database::info(path).map_err(egdb_error_in(path))?;
    let db = G::Database::open(path).map_err(egdb_error_in(path))?;
    Ok(MancalaDb::of::<G>(Arc::new(db), info.rules().to_string()))
}

/// The database of the game of `path`, told by the file's header, read and checked
/// completely.
pub(crate) fn open_path(path: &Path) -> Result<MancalaDb> {
    let (kind, _) = game_of_file(path).map_err(egdb_error_in(path))?;
    with_rules!(Rules::default_of(kind), g => open_as(g, path))
}

/// What a build is asked: K, the encoding, the threads and the progress reports.
pub(crate) struct BuildAsk {
    /// K (N).
    pub(crate) max_seeds: u32,
    /// The entry encoding.
    pub(crate) encoding: Encoding,
    /// Threads (0 = every core).
    pub(crate) threads: u32,
    /// The C progress callback (may be NULL) and its user data.
    pub(crate) callback: MancalaBuildProgressFn,
    /// Handed back to the callback.
    pub(crate) user_data: *mut c_void,
    /// Milliseconds between reports.
    pub(crate) interval_ms: u32,
}

/// Builds the database of game `G` under `rules` as `ask` says.
pub(crate) fn build_typed<G: Evaluate>(rules: &G::Rules, ask: &BuildAsk) -> Result<G::Database> {
    check_threads(ask.threads)?;
    let callback = ask.callback;
    let user_data = ask.user_data;
    G::Database::build(
        rules,
        ask.max_seeds,
        BuildOptions::new()
            .encoding(ask.encoding)
            .threads(ask.threads as usize)
            .progress(
                crate::progress::interval(ask.interval_ms),
                &mut |p| match callback {
                    Some(f) => crate::progress::call_build(f, user_data, p),
                    None => std::ops::ControlFlow::Continue(()),
                },
            ),
    )
    .map_err(egdb_error)
}

fn build_as<G: Evaluate>(g: &GameRecord<G>, ask: &BuildAsk) -> Result<MancalaDb> {
    let rules = g.position().rules();
    let db = build_typed::<G>(&rules, ask)?;
    Ok(MancalaDb::of::<G>(Arc::new(db), rules.to_string()))
}

/// What `mancala_db_open_cached` did to have its database.
struct CachedDb {
    db: MancalaDb,
    /// 0 read from the cache, 1 built and saved, 2 built and not saved.
    state: i32,
}

fn cached_as<G: Evaluate>(g: &GameRecord<G>, dir: &Path, ask: &BuildAsk) -> Result<CachedDb> {
    let rules = g.position().rules();
    let k = match ask.max_seeds {
        0 => G::Database::default_max_seeds(&rules, available_memory_bytes()).ok_or_else(|| {
            Error::new(
                MancalaStatus::OutOfMemory,
                format!("no database of {rules} to build in this machine's memory"),
            )
        })?,
        k => k,
    };
    check_threads(ask.threads)?;
    let (callback, user_data) = (ask.callback, ask.user_data);
    let cached = Cache::new(dir)
        .read_or_build::<G::Database>(
            &rules,
            k,
            ask.threads as usize,
            crate::progress::interval(ask.interval_ms),
            &mut |ev| match (ev, callback) {
                (CacheEvent::Progress(p), Some(f)) => crate::progress::call_build(f, user_data, p),
                _ => std::ops::ControlFlow::Continue(()),
            },
        )
        .map_err(egdb_error)?;
    let state = match (cached.built, &cached.save_error) {
        (false, _) => 0,
        (true, None) => 1,
        (true, Some(_)) => 2,
    };
    let text = if cached.built {
        rules.to_string()
    } else {
        G::Database::info(&cached.path)
            .map(|i| i.rules().to_string())
            .unwrap_or_else(|_| rules.to_string())
    };
    Ok(CachedDb {
        db: MancalaDb::of::<G>(Arc::new(cached.database), text),
        state,
    })
}

/// The C value of an encoding.
pub(crate) fn encoding_code(encoding: Encoding) -> u32 {
    MancalaEgdbEncoding::to_c(encoding)
}

/// What `mancala_db_info` gives of a database.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MancalaDbInfo {
    /// The game whose values it holds.
    pub game: MancalaGameKind,
    /// K (Kalah) or N (Oware): it holds every position with at most this many seeds in the
    /// houses.
    pub max_seeds: u32,
    /// How its entries are held in memory and written by `mancala_db_save`: a
    /// `MancalaEgdbEncoding` value.
    pub encoding: u32,
    /// Bits an entry takes: 8, or the packed width; 8 for a compact database, whose codes
    /// have no fixed width (`mancala_db_average_bits` gives what they take).
    pub bits_per_entry: u32,
    /// Its entries (positions, or Oware boards).
    pub entries: u64,
    /// Memory its entries take, bytes (one byte an entry; packed, the bit stream,
    /// ⌈entries · bits / 8⌉ bytes, and 8 bytes of padding; compact, its payload, 8 bytes of
    /// padding and the decoders of its code tables).
    pub memory_bytes: u64,
}

/// Opens the database file at `path`, of any game: the game and the rule set are read from
/// the file's header (`docs/egdb.md`, `docs/awari.md`), then the file is read into memory
/// and checked completely (magic, version, header, size, checksums, every entry): a damaged
/// file is refused, never half-used. Either encoding is read, and a packed file stays packed
/// in memory.
///
/// Ownership: `path` is only read. On success `*out` is a new handle owned by the caller,
/// released with `mancala_db_free`.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_IO_ERROR` (the file cannot be read; the
/// message names it), `MANCALA_STATUS_CORRUPT_FILE` (not a database, unknown format version,
/// truncated, bad header, checksum or entry), `MANCALA_STATUS_INVALID_ARGUMENT` (a file of a
/// game that has no databases), `MANCALA_STATUS_OUT_OF_MEMORY`, `MANCALA_STATUS_INVALID_UTF8`
/// (`path`), `MANCALA_STATUS_NULL_POINTER` (`path` or `out` NULL) or `MANCALA_STATUS_PANIC`.
/// Nothing is written to `*out` on failure.
///
/// # Safety
/// `path` must be NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_db_open(
    path: *const c_char,
    out: *mut *mut MancalaDb,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: the caller's string contract.
        let path = unsafe { io::in_str(path, "path") }?;
        let db = open_path(Path::new(path))?;
        // SAFETY: the caller's contract on `out`.
        unsafe { handle::write_new(out, "out", db) }
    })
}

/// Builds in memory the database of the rule set `rules` (rule-set notation of
/// `docs/notation.md`: `"kalah(6,4)"`, `"awari"`, `"oware+majority=off+cycle_score=split"`;
/// the text chooses the game and, for Oware, the database of its grand-slam rule,
/// `docs/oware-databases.md`) for every
/// position with at most `max_seeds` seeds in the houses (K; Oware: N, 0..=48), in the entry
/// encoding `encoding` (a `MancalaEgdbEncoding` value), on `threads` threads (0 = every
/// core). A Kalah database serves every n and the options that do not change values
/// (`docs/egdb.md`): Kalah(6,·) with K = 12 takes 2.7 MB and a few seconds, each extra seed
/// multiplying that by about (K + 12)/K. An Oware database serves the rule sets whose values
/// it holds (`docs/awari.md`, `docs/oware-databases.md`: one database for each grand-slam
/// rule): N = 12 takes 2.7 MB and a second, N = 18 84 MB.
///
/// `callback` (may be NULL) is called on the calling thread (never on a build thread) about
/// every `interval_ms` milliseconds (0 or less than 10: every 10 ms) while the build runs,
/// with the entries done and in all and the seconds so far; a non-zero return stops the
/// build: the call then returns `MANCALA_STATUS_CANCELLED` and writes nothing. The entries
/// are the same with or without it.
///
/// Ownership: `rules` is only read; `user_data` is never dereferenced, only handed back. On
/// success `*out` is a new handle owned by the caller, released with `mancala_db_free`. The
/// callback must not unwind into the library.
/// Thread safety: safe from any thread; the call blocks until the build ends.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_BAD_RULES` (`rules` malformed),
/// `MANCALA_STATUS_DATABASE_MISMATCH` (no database holds the values of these rules, e.g.
/// the Oware rule set `oware`), `MANCALA_STATUS_INVALID_ARGUMENT` (`encoding` not a
/// `MancalaEgdbEncoding` value, more threads than the library starts, K out of the format's
/// range or above the game's seeds, or a game that has no databases: Bao la Kete, Togyz
/// Kumalak), `MANCALA_STATUS_CANCELLED` (the callback returned non-zero),
/// `MANCALA_STATUS_SOLVE_FAILED` (threads could not start), `MANCALA_STATUS_OUT_OF_MEMORY`
/// (the entries do not fit in memory), `MANCALA_STATUS_INVALID_UTF8` (`rules`),
/// `MANCALA_STATUS_NULL_POINTER` (`rules` or `out` NULL) or `MANCALA_STATUS_PANIC`. Nothing
/// is written to `*out` on failure.
///
/// # Safety
/// `rules` must be NULL or NUL-terminated; `out` NULL or writable; `callback` NULL or a
/// function of that type, callable with `user_data`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mancala_db_build(
    rules: *const c_char,
    max_seeds: u32,
    encoding: u32,
    threads: u32,
    callback: MancalaBuildProgressFn,
    user_data: *mut c_void,
    interval_ms: u32,
    out: *mut *mut MancalaDb,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: the caller's string contract.
        let rules = parse_rules(unsafe { io::in_str(rules, "rules") }?)?;
        let ask = BuildAsk {
            max_seeds,
            encoding: MancalaEgdbEncoding::from_c(encoding, "encoding")?,
            threads,
            callback,
            user_data,
            interval_ms,
        };
        let db = with_rules!(rules, g => build_as(g, &ask))?;
        // SAFETY: the caller's contract on `out`.
        unsafe { handle::write_new(out, "out", db) }
    })
}

/// The database of the rule set `rules` (as `mancala_db_build`) with K = `max_seeds` from the
/// cache folder `dir`: read and checked completely when its file (`kalah6.k20.egdb`,
/// `awari.n18.egdb`, `awari+grand_slam=none.n18.egdb`-style names: each rule family its own)
/// is there and good, else built (one byte an entry, on
/// `threads` threads, with `callback` as in `mancala_db_build`) and saved there the way
/// `mancala_db_save` saves. A cached file that is damaged, truncated, of another format
/// version or of other rules is rebuilt, never used. `max_seeds` 0 chooses K from the rules
/// and the memory available. Nothing is written anywhere else: the library has no cache
/// unless a program calls this.
///
/// `*built` (when `built` is not NULL) is 0 when the database was read from the cache, 1 when
/// it was built and saved, 2 when it was built but could not be saved (a full disk, or a
/// folder, a FIFO, a socket or a device at the cached file's name, which the save refuses
/// and leaves as it is: the database is good, the next call builds it again). A symbolic
/// link at the cached file's name is followed when the file is read; one that leads nowhere
/// (a loop, a missing target) is passed over, and the save replaces the link with the file.
///
/// Ownership: `rules` and `dir` are only read; `user_data` is never dereferenced, only handed
/// back. On success `*out` is a new handle owned by the caller, released with
/// `mancala_db_free`. The callback must not unwind into the library.
/// Thread safety: safe from any thread; two calls (threads or processes) filling the same
/// folder at once both succeed and leave one whole file.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_IO_ERROR` (nothing was built: the folder
/// cannot be created or written; `dir`, or a folder above it, is not a folder, the message
/// saying what it is: `<dir>: it is a file, not a folder`, `… a FIFO, socket or device, not
/// a folder`, `… a symbolic link that leads nowhere (a loop, or a missing target), not a
/// folder`, or `<dir>: <above> is …` for one above it, a symbolic link to a folder being a
/// folder; or `dir` is empty, which names no folder: `"."` is the current one),
/// `MANCALA_STATUS_BAD_RULES`,
/// `MANCALA_STATUS_DATABASE_MISMATCH`, `MANCALA_STATUS_INVALID_ARGUMENT`,
/// `MANCALA_STATUS_CANCELLED`, `MANCALA_STATUS_SOLVE_FAILED` (as `mancala_db_build`),
/// `MANCALA_STATUS_OUT_OF_MEMORY` (the entries do not fit in memory, or `max_seeds` is 0 and
/// no database fits), `MANCALA_STATUS_INVALID_UTF8` (`rules` or `dir`),
/// `MANCALA_STATUS_NULL_POINTER` (`rules`, `dir` or `out` NULL) or `MANCALA_STATUS_PANIC`.
/// Nothing is written to `*out` on failure.
///
/// # Safety
/// `rules` and `dir` must be NULL or NUL-terminated; `out` NULL or writable; `built` NULL or
/// writable; `callback` NULL or a function of that type, callable with `user_data`.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mancala_db_open_cached(
    rules: *const c_char,
    dir: *const c_char,
    max_seeds: u32,
    threads: u32,
    callback: MancalaBuildProgressFn,
    user_data: *mut c_void,
    interval_ms: u32,
    out: *mut *mut MancalaDb,
    built: *mut i32,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: the caller's string contract.
        let rules = parse_rules(unsafe { io::in_str(rules, "rules") }?)?;
        // SAFETY: the caller's string contract.
        let dir = unsafe { io::in_str(dir, "dir") }?;
        check_folder(dir)?;
        let ask = BuildAsk {
            max_seeds,
            encoding: Encoding::Byte,
            threads,
            callback,
            user_data,
            interval_ms,
        };
        let cached = with_rules!(rules, g => cached_as(g, Path::new(dir), &ask))?;
        if !built.is_null() {
            // SAFETY: checked non-NULL; writable by the caller's contract.
            unsafe { built.write(cached.state) };
        }
        // SAFETY: the caller's contract on `out`.
        unsafe { handle::write_new(out, "out", cached.db) }
    })
}

/// Saves a database to the file `path` in its encoding (`mancala_db_convert` first for the
/// other), with a header naming its game, rules and K and checksums of header and entries,
/// crash-safely: a new temporary file in the same folder, flushed to disk and renamed over
/// `path` in one step, so `path` holds the old file or the whole new one. Only where that
/// destroys nothing else: nothing at `path`, or a file whose header says it holds this same
/// database (the same game, rule family, K and encoding: a save again, or a repair of
/// damaged entries). A file that holds another database, or no database, is left as it is
/// and refused, as `mancala egdb build` refuses it without `--force`;
/// `mancala_db_save_over` with `overwrite` true writes over it. A symbolic link at `path` is
/// not followed: the link itself is replaced by the new file, its target left as it is,
/// whatever it points to. The new file is published at a path where nothing is with a hard
/// link, which fails when a file appeared there meanwhile: of two saves started at once to
/// a path where nothing is yet, the later one is refused (`MANCALA_STATUS_FILE_EXISTS`) when
/// the earlier one wrote another database, and succeeds when it wrote the same one.
///
/// Ownership: `db` and `path` are only read. Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_FILE_EXISTS` (a file at `path` holds another
/// database or no database, the message naming the file, what it holds and what was to be
/// written: `<path>: already exists and holds another database (awari, levels 0..=12, byte
/// encoding): not written over with awari, levels 0..=14, byte encoding; …`),
/// `MANCALA_STATUS_IO_ERROR` (the file could not be written),
/// `MANCALA_STATUS_INVALID_UTF8` (`path`), `MANCALA_STATUS_NULL_POINTER` (`db` or `path`
/// NULL), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `path` must be NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn mancala_db_save(
    db: *const MancalaDb,
    path: *const c_char,
) -> MancalaStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe { mancala_db_save_over(db, path, false) }
}

/// Saves a database to the file `path` as `mancala_db_save` does, and, when `overwrite` is
/// true, over whatever regular file is at `path` (another database, or a file that is no
/// database): the caller means to replace it, as `mancala egdb build --force` does. With
/// `overwrite` false it is `mancala_db_save`. A folder, a device, a FIFO or a socket at `path`
/// is refused either way (`MANCALA_STATUS_IO_ERROR`), never replaced; a symbolic link at
/// `path` is replaced by the file either way, whatever it points to (its target is left as
/// it is).
///
/// Ownership: `db` and `path` are only read. Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_FILE_EXISTS` (with `overwrite` false, a file
/// at `path` holds another database or no database, the message naming the file and what it
/// holds), `MANCALA_STATUS_IO_ERROR` (the file could not be written),
/// `MANCALA_STATUS_INVALID_UTF8` (`path`), `MANCALA_STATUS_NULL_POINTER` (`db` or `path`
/// NULL), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `path` must be NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn mancala_db_save_over(
    db: *const MancalaDb,
    path: *const c_char,
    overwrite: bool,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle.
        let db = unsafe { handle::get(db, "db") }?;
        // SAFETY: the caller's string contract.
        let path = unsafe { io::in_str(path, "path") }?;
        db.db
            .save_checked(Path::new(path), overwrite)
            .map_err(egdb_error)
    })
}

/// Frees a database handle. NULL is a no-op (`MANCALA_STATUS_OK`). Engines and solvers it was
/// given to keep their own reference to the data.
///
/// Thread safety: no other thread may be using `db`.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_HANDLE` (not a live `MancalaDb`:
/// freed already, or another kind; nothing is freed) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `db` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
pub unsafe extern "C" fn mancala_db_free(db: *mut MancalaDb) -> MancalaStatus {
    // SAFETY: the caller's contract: no other thread uses `db`.
    unsafe { handle::free_entry(db, "db") }
}

/// Tells what a database holds and how: its game, K, encoding, bits an entry, entries and
/// the memory they take (`MancalaDbInfo`). `mancala_db_rules_print` gives its rule set.
///
/// Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`db` or `info` NULL; nothing
/// written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `info` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_db_info(
    db: *const MancalaDb,
    info: *mut MancalaDbInfo,
) -> MancalaStatus {
    guard(|| {
        let info = io::out_ptr(info, "info")?;
        // SAFETY: registry-checked handle.
        let db = &unsafe { handle::get(db, "db") }?.db;
        let value = MancalaDbInfo {
            game: db.kind().into(),
            max_seeds: db.max_seeds(),
            encoding: encoding_code(db.encoding()),
            bits_per_entry: db.bits_per_entry(),
            entries: db.entries(),
            memory_bytes: db.memory_bytes(),
        };
        // SAFETY: checked non-NULL; writable by the caller's contract.
        unsafe { info.write(value) };
        Ok(())
    })
}

/// Prints the rule set a database was built with, in the rule-set notation (`"kalah(6,4)"`,
/// `"awari"`: the text of its file's header), into `buf` as a NUL-terminated string. A Kalah
/// database also serves every other n and the options that do not change values;
/// `mancala_db_value` says whether it serves a game.
///
/// Ownership: `buf` belongs to the caller. Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK` (`*needed` = bytes written, NUL included),
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (`*needed` = size needed; `buf` untouched; `buf` may be
/// NULL when `len` is 0), `MANCALA_STATUS_NULL_POINTER` (`db` or `needed` NULL, or `buf` NULL
/// with `len` > 0), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_db_rules_print(
    db: *const MancalaDb,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: the caller's buffer contract; `db` is only read.
    unsafe { handle::print_entry(db, "db", buf, len, needed, |db| db.rules.clone()) }
}

/// Describes what a database serves, for messages (`"kalah(6,·)+empty_capture, K = 20"`,
/// `"awari, levels 0..=18"`), into `buf` as a NUL-terminated string.
///
/// Ownership: `buf` belongs to the caller. Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK` (`*needed` = bytes written, NUL included),
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (`*needed` = size needed; `buf` untouched; `buf` may be
/// NULL when `len` is 0), `MANCALA_STATUS_NULL_POINTER` (`db` or `needed` NULL, or `buf` NULL
/// with `len` > 0), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_db_describe(
    db: *const MancalaDb,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: the caller's buffer contract; `db` is only read.
    unsafe { handle::print_entry(db, "db", buf, len, needed, |db| db.db.describe()) }
}

/// Looks up the current position of `game`: `*found` tells whether the database holds it
/// (the game not over, at most K seeds in the houses, not a Kalah opening or pie-rule
/// state); when found, `*value` is its exact value for the side to move, in seeds: what
/// that player can still gain minus what the opponent can, with best play (Kalah: into the
/// stores, the final sweep included; Oware: captures and the final allotment). The final
/// margin is the seeds already stored (captured) difference plus it. Else `*value` is 0. The
/// game's history is not looked at.
///
/// Thread safety: `db` and `game` are only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_DATABASE_MISMATCH` (`game` is of another game
/// than the database, or of rules whose values it does not hold: another m or other
/// value-relevant Kalah options, an Oware rule set the values do not carry over to; the
/// message names the rules that differ), `MANCALA_STATUS_NULL_POINTER` (any pointer NULL;
/// nothing written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `found` and `value` must be NULL or writable; no other thread may change `game` during
/// the call.
#[no_mangle]
pub unsafe extern "C" fn mancala_db_value(
    db: *const MancalaDb,
    game: *const MancalaGame,
    found: *mut bool,
    value: *mut i32,
) -> MancalaStatus {
    guard(|| {
        let out = (io::out_ptr(found, "found")?, io::out_ptr(value, "value")?);
        // SAFETY: registry-checked handles; the caller's contract on `game`.
        let (db, game) = unsafe { (handle::get(db, "db")?, handle::get(game, "game")?) };
        let v = db.db.value(game.game()).map_err(lookup_error)?;
        // SAFETY: both checked non-NULL; writable by the caller's contract.
        unsafe {
            out.0.write(v.is_some());
            out.1.write(v.unwrap_or(0));
        }
        Ok(())
    })
}

/// The exact value of each legal move of the current position of `game` (held as for
/// `mancala_db_value`): `values[i]` is the value of the i-th move of
/// `mancala_game_legal_moves` (the index `mancala_game_play_index` takes) for the player who
/// makes it, in seeds: what the move stores or captures plus what the position it leaves is
/// worth to that player. The position's value is the largest. `*count` is the number of
/// legal moves; when the database does not hold the position, `*found` is false and
/// `*count` 0 (the buffer is checked all the same: `len` below the number of legal moves is
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` whether or not the position is held).
///
/// Ownership: `values` belongs to the caller. Thread safety: `db` and `game` are only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_BUFFER_TOO_SMALL` (`len` below the number of
/// legal moves: `*count` = the number needed, nothing else written; `values` may be NULL
/// when `len` is 0; the count of `mancala_game_legal_moves` is always enough),
/// `MANCALA_STATUS_DATABASE_MISMATCH` (as `mancala_db_value`), `MANCALA_STATUS_NULL_POINTER`
/// (`db`, `game`, `found` or `count` NULL, or `values` NULL with `len` > 0),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `values` must be NULL or point to `len` writable `int32_t`; `found` and `count` NULL or
/// writable; no other thread may change `game` during the call.
#[no_mangle]
pub unsafe extern "C" fn mancala_db_move_values(
    db: *const MancalaDb,
    game: *const MancalaGame,
    found: *mut bool,
    values: *mut i32,
    len: usize,
    count: *mut usize,
) -> MancalaStatus {
    guard(|| {
        let found = io::out_ptr(found, "found")?;
        io::out_ptr(count, "count")?;
        // SAFETY: registry-checked handles; the caller's contract on `game`.
        let (db, game) = unsafe { (handle::get(db, "db")?, handle::get(game, "game")?) };
        let v = db.db.move_values(game.game()).map_err(lookup_error)?;
        let moves = game.game().legal_move_count();
        // The buffer is checked whether or not the position is held: a position not held is
        // written as no value, but a buffer shorter than its legal moves is refused all the
        // same (`BUFFER_TOO_SMALL`, `*count` = the legal moves), as for a position held.
        let too_short;
        let items: &[i32] = match &v {
            Some(v) => v,
            None if len < moves => {
                too_short = vec![0; moves];
                &too_short
            }
            None => &[],
        };
        // SAFETY: the caller's buffer contract on `values`, `len` and `count`.
        unsafe { io::write_slice(items, values, len, count, "values", ("value", "values")) }?;
        // SAFETY: checked non-NULL; writable by the caller's contract.
        unsafe { found.write(v.is_some()) };
        Ok(())
    })
}

/// The same database as `db` in the entry encoding `encoding` (a `MancalaEgdbEncoding`
/// value), every value the same: a new handle, which `mancala_db_save` writes as a file of
/// that encoding (a copy when `db` is already in it). Both encodings are in memory at once
/// while converting.
///
/// Ownership: `db` is only read. On success `*out` is a new handle owned by the caller,
/// released with `mancala_db_free`; `db` stays the caller's.
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
pub unsafe extern "C" fn mancala_db_convert(
    db: *const MancalaDb,
    encoding: u32,
    out: *mut *mut MancalaDb,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handle.
        let db = unsafe { handle::get(db, "db") }?;
        let encoding = MancalaEgdbEncoding::from_c(encoding, "encoding")?;
        let converted = MancalaDb {
            db: db.db.convert(encoding).map_err(egdb_error)?,
            rules: db.rules.clone(),
        };
        // SAFETY: the caller's contract on `out`.
        unsafe { handle::write_new(out, "out", converted) }
    })
}

/// How a database holds its entries: `*encoding` its `MancalaEgdbEncoding` value,
/// `*bits_per_entry` the bits an entry takes (8, or the packed width; 8 for a compact one,
/// whose codes have no fixed width: `mancala_db_average_bits` gives what they take),
/// `*memory_bytes` the memory its entries take, bytes (the same figures as
/// `mancala_db_info`).
///
/// Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing
/// written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// The out-pointers must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_db_encoding(
    db: *const MancalaDb,
    encoding: *mut u32,
    bits_per_entry: *mut u32,
    memory_bytes: *mut u64,
) -> MancalaStatus {
    guard(|| {
        let out = (
            io::out_ptr(encoding, "encoding")?,
            io::out_ptr(bits_per_entry, "bits_per_entry")?,
            io::out_ptr(memory_bytes, "memory_bytes")?,
        );
        // SAFETY: registry-checked handle.
        let db = &unsafe { handle::get(db, "db") }?.db;
        // SAFETY: every out-pointer was checked non-NULL above and is writable by the
        // caller's contract.
        unsafe {
            out.0.write(encoding_code(db.encoding()));
            out.1.write(db.bits_per_entry());
            out.2.write(db.memory_bytes());
        }
        Ok(())
    })
}

/// Bits an entry of a database takes: `*bits` the fixed width of a one-byte or packed
/// database (8, or the packed width: `bits_per_entry` of `mancala_db_info`), or for a
/// compact one (`MANCALA_EGDB_ENCODING_COMPACT`), whose codes have no fixed width and whose
/// `bits_per_entry` is 8, the bits of its payload over its entries (about 3.3 for an Oware
/// database of N = 20..=24; its file's header not counted): the figure `mancala egdb info`
/// prints.
///
/// Thread safety: `db` is only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`db` or `bits` NULL; nothing
/// written), `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `bits` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_db_average_bits(
    db: *const MancalaDb,
    bits: *mut f64,
) -> MancalaStatus {
    guard(|| {
        let bits = io::out_ptr(bits, "bits")?;
        // SAFETY: registry-checked handle.
        let db = &unsafe { handle::get(db, "db") }?.db;
        // SAFETY: checked non-NULL; writable by the caller's contract.
        unsafe { bits.write(db.average_bits()) };
        Ok(())
    })
}

/// Gives the database's handle to the engine's players (the player of its game).
pub(crate) fn give_to(db: &MancalaDb, players: &mut Players) {
    db.db.give_to(players);
}

/// Gives the database of `db` to the player of its game in `players` as its evaluation
/// ([`Players::set_estimates_of`]).
pub(crate) fn give_estimates_to(db: &MancalaDb, players: &mut Players) {
    db.db.give_estimates_to(players);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_database_refuses_a_game_of_another_kind() {
        let db = MancalaDb::of::<mancala_core::kalah::KalahPosition>(
            Arc::new(
                mancala_solver::Egdb::build(
                    &mancala_core::kalah::KalahRules::standard()
                        .with_size(2, 1)
                        .unwrap(),
                    2,
                    BuildOptions::new(),
                )
                .unwrap(),
            ),
            "kalah(2,1)".into(),
        );
        let oware = AnyGame::new("awari".parse().unwrap());
        let e = lookup_error(db.db.value(&oware).unwrap_err());
        assert_eq!(e.status, MancalaStatus::DatabaseMismatch);
        assert_eq!(
            e.message,
            "a database of Kalah holds Kalah positions, not those of an Oware game"
        );
    }
}
