//! `MancalaAwariDb`: the Awari databases (`docs/awari.md`) — build, save, load (fully
//! checked) and look up the exact value of an Oware game of the `awari` rule set.

use std::ffi::{c_char, c_void};
use std::sync::Arc;
use std::time::Instant;

use mancala_core::oware::OwarePosition;
use mancala_solver::awari::{entries_to, AwariDb, AwariError};

use crate::game::{GameHandle, MancalaGame};
use crate::handle::{self, Handle, Kind};
use crate::io;
use crate::progress::{MancalaBuildProgress, MancalaBuildProgressFn};
use crate::status::{guard, Error, MancalaStatus};

/// An opaque Awari database: the exact value (the mover's future captures minus the
/// opponent's, the final allotment included, endless play even; OW-10.3) of every Oware
/// board with at most N seeds in the houses, under the `awari` rule set. The older handle of
/// an Oware database, beside `MancalaDb` (any game's database); its calls are deprecated and
/// removed in 0.4.0: use `MancalaDb`.
///
/// Created by `mancala_awari_db_build` or `mancala_awari_db_load`, freed by
/// `mancala_awari_db_free`. Immutable: may be read from several threads at once.
pub struct MancalaAwariDb {
    db: Arc<AwariDb>,
}

impl Handle for MancalaAwariDb {
    const KIND: Kind = Kind::AwariDb;
}

impl crate::egdb::DbHandle for MancalaAwariDb {
    type Db = AwariDb;
    fn db(&self) -> &Arc<AwariDb> {
        &self.db
    }
    fn wrap(db: AwariDb) -> MancalaAwariDb {
        MancalaAwariDb { db: Arc::new(db) }
    }
}

fn awari_error(e: AwariError) -> Error {
    let status = match e {
        AwariError::TooManySeeds { .. } | AwariError::NotBuilt { .. } => {
            MancalaStatus::InvalidArgument
        }
        AwariError::IllegalMove { .. } | AwariError::Parse(_) => MancalaStatus::BadPosition,
        AwariError::Cancelled => MancalaStatus::Cancelled,
        AwariError::Threads(_) => MancalaStatus::SolveFailed,
        AwariError::OutOfMemory(_) => MancalaStatus::OutOfMemory,
    };
    Error::new(status, e.to_string())
}

/// Builds in memory the Awari database of every board with at most `max_seeds` (N, 0..=48)
/// seeds, on `threads` threads (0 = every core; at most the library's limit). N = 12 takes
/// about 2.7 MB and a second; N = 18 84 MB and about 13 s on two free cores
/// (`docs/awari.md`). `callback` (may be NULL) is called on the calling thread after each
/// level with the boards done and in all and the seconds so far; a non-zero return stops the
/// build at that point: the call then returns `MANCALA_STATUS_CANCELLED` and writes nothing.
///
/// Ownership: `user_data` is never dereferenced, only handed back. On success `*out` is a
/// new handle owned by the caller, released with `mancala_awari_db_free`.
/// Thread safety: safe from any thread; the call blocks until the build is done.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_ARGUMENT` (N above 48, too many
/// threads), `MANCALA_STATUS_SOLVE_FAILED` (threads could not start),
/// `MANCALA_STATUS_OUT_OF_MEMORY` (a level does not fit in memory),
/// `MANCALA_STATUS_CANCELLED` (the callback asked to stop), `MANCALA_STATUS_NULL_POINTER`
/// (`out` NULL) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `out` must be NULL or writable; `callback`, when not NULL, must be callable with
/// `user_data`.
#[no_mangle]
#[deprecated(
    since = "0.3.0",
    note = "use mancala_db_build with the rules \"awari\"; removed in 0.4.0"
)]
pub unsafe extern "C" fn mancala_awari_db_build(
    max_seeds: u32,
    threads: u32,
    callback: MancalaBuildProgressFn,
    user_data: *mut c_void,
    out: *mut *mut MancalaAwariDb,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        crate::egdb::check_threads(threads)?;
        let start = Instant::now();
        let total = if max_seeds <= mancala_solver::awari::MAX_SEEDS {
            entries_to(max_seeds)
        } else {
            0
        };
        let mut done = 0u64;
        let db = AwariDb::build_until(max_seeds, threads as usize, |r| {
            done += r.stats.boards;
            match callback {
                None => true,
                Some(f) => {
                    let p = MancalaBuildProgress {
                        done,
                        total,
                        seconds: start.elapsed().as_secs_f64(),
                    };
                    // SAFETY: the caller's contract: `f` may be called with `user_data`; `p`
                    // lives across the call.
                    unsafe { f(&p, user_data) == 0 }
                }
            }
        })
        .map_err(awari_error)?;
        crate::egdb::new_handle(out, db)
    })
}

/// Loads the Awari database file at `path` (the checked format of `docs/awari.md`, one byte
/// a board or packed; a packed file stays packed in memory) into memory, checking it
/// completely first (magic, version, header fields and checksum, size, payload checksum,
/// every value within −n..=n of its level): a damaged file is refused, never half-used.
///
/// Ownership: `path` is only read. On success `*out` is a new handle owned by the caller,
/// released with `mancala_awari_db_free`.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_IO_ERROR` (cannot read the file),
/// `MANCALA_STATUS_CORRUPT_FILE` (not a database, unknown version, truncated, bad header,
/// checksum or value), `MANCALA_STATUS_DATABASE_MISMATCH` (a database of another game or
/// rule set: a Kalah file), `MANCALA_STATUS_OUT_OF_MEMORY`, `MANCALA_STATUS_INVALID_UTF8` (`path`),
/// `MANCALA_STATUS_NULL_POINTER` (`path` or `out` NULL) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `path` must be NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_open; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_awari_db_load(
    path: *const c_char,
    out: *mut *mut MancalaAwariDb,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe { crate::egdb::load_entry(path, out) }
}

/// Saves an Awari database to the file `path` (`docs/awari.md`) in its encoding
/// (`mancala_awari_db_encoding`; `mancala_awari_db_convert` first for the other one),
/// as `mancala_db_save` saves: crash-safely (a new temporary file in the same folder,
/// flushed to disk and published at `path` in one step), and only over nothing or over a
/// file that holds this same database: a file holding another database, or no database, is
/// left as it is (`MANCALA_STATUS_FILE_EXISTS`).
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
pub unsafe extern "C" fn mancala_awari_db_save(
    db: *const MancalaAwariDb,
    path: *const c_char,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe { crate::egdb::save_entry(db, path) }
}

/// Frees an Awari database handle. NULL is a no-op (`MANCALA_STATUS_OK`).
///
/// Thread safety: no other thread may be using `db`.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_HANDLE` (not a live handle: freed
/// already, or another kind) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `db` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_free; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_awari_db_free(db: *mut MancalaAwariDb) -> MancalaStatus {
    // SAFETY: the caller's contract: no other thread uses `db`.
    unsafe { handle::free_entry(db, "db") }
}

/// The same Awari database as `db` with its values held in the encoding `encoding` (a
/// `MancalaEgdbEncoding` value: `MANCALA_EGDB_ENCODING_BYTE`, one byte a board, or
/// `MANCALA_EGDB_ENCODING_PACKED`, the value's index among −n..=n of its level n in
/// ⌈log2(2N + 1)⌉ bits a board, 6 for N = 16..31; `docs/awari.md`), every value the same: a
/// new handle, which `mancala_awari_db_save` writes as a file of that encoding (a copy when
/// `db` is already in it). Both encodings are in memory at once while converting. A
/// database loaded from a packed file is packed already.
///
/// Ownership: `db` is only read. On success `*out` is a new handle owned by the caller,
/// released with `mancala_awari_db_free`; `db` stays the caller's.
/// Thread safety: `db` is only read; safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_ARGUMENT` (`encoding` not a
/// `MancalaEgdbEncoding` value), `MANCALA_STATUS_OUT_OF_MEMORY` (no memory for the new
/// values), `MANCALA_STATUS_NULL_POINTER` (`db` or `out` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`. Nothing is written to `*out`
/// on failure.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_convert; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_awari_db_convert(
    db: *const MancalaAwariDb,
    encoding: u32,
    out: *mut *mut MancalaAwariDb,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe { crate::egdb::convert_entry(db, encoding, out) }
}

/// How an Awari database holds its values: `*encoding` its `MancalaEgdbEncoding` value,
/// `*bits_per_entry` the bits a board takes (8, or the packed width ⌈log2(2N + 1)⌉),
/// `*memory_bytes` the memory its values take, bytes (one a board; packed, the bit stream,
/// ⌈boards · bits / 8⌉ bytes, and 8 bytes of padding).
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
pub unsafe extern "C" fn mancala_awari_db_encoding(
    db: *const MancalaAwariDb,
    encoding: *mut u32,
    bits_per_entry: *mut u32,
    memory_bytes: *mut u64,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe { crate::egdb::encoding_entry(db, encoding, bits_per_entry, memory_bytes) }
}

/// Gives N, the most seeds on a board the database holds, and its number of boards (in
/// either encoding; `mancala_awari_db_encoding` gives the memory they take).
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
pub unsafe extern "C" fn mancala_awari_db_info(
    db: *const MancalaAwariDb,
    max_seeds: *mut u32,
    boards: *mut u64,
) -> MancalaStatus {
    guard(|| {
        let max_seeds = io::out_ptr(max_seeds, "max_seeds")?;
        let boards = io::out_ptr(boards, "boards")?;
        // SAFETY: registry-checked handle.
        let n = unsafe { handle::get(db, "db") }?.db.max_seeds();
        // SAFETY: both checked non-NULL, writable by the caller's contract.
        unsafe { (max_seeds.write(n), boards.write(entries_to(n))) };
        Ok(())
    })
}

/// Looks up the current position of `game`, an Oware game of the rule set `awari` (or one of
/// its variants in the repetition count: the values carry over, `docs/awari.md`): `*found`
/// tells whether the database holds it (game not over, at most N seeds in the houses); when
/// found, `*value` is its exact value for the side to move, in seeds: the mover's future
/// captures minus the opponent's, the final allotment included, −n..=n for n seeds (the
/// final margin is the captured difference plus it); else `*value` is 0. The history of the
/// game is not looked at (the value is that of the position after a capture or at set-up).
///
/// Thread safety: `db` and `game` are only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_DATABASE_MISMATCH` (`game` is not Oware, or
/// of a rule set the values do not carry over to: `oware`, `oware-openspiel`),
/// `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing written),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `found` and `value` must be NULL or writable.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_value; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_awari_db_value(
    db: *const MancalaAwariDb,
    game: *const MancalaGame,
    found: *mut bool,
    value: *mut i32,
) -> MancalaStatus {
    // SAFETY: the caller's contract is this function's.
    unsafe {
        crate::egdb::value_entry(db, game, found, value, |db, game| {
            let p = crate::db::record_of::<OwarePosition>(game.game())?.position();
            crate::db::value_of::<OwarePosition>(db, p)
        })
    }
}

/// The value of each legal move of the current position of `game` (as
/// `mancala_awari_db_value`): `values[i]` for the mover's house i + 1 (i = 0..5) is the seeds
/// the move captures minus the value of the board it leaves to the opponent, and bit i of
/// `*legal` is set when house i + 1 is a legal move (OW-5.3); `values[i]` is 0 for the
/// others. The position's value is the largest of them. `*found` is false (and `*legal` 0,
/// `values` all 0) when the database does not hold the position.
///
/// Thread safety: `db` and `game` are only read.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_DATABASE_MISMATCH` (`game` is not Oware, or
/// of a rule set the values do not carry over to: `oware`, `oware-openspiel`),
/// `MANCALA_STATUS_NULL_POINTER` (any pointer NULL; nothing written),
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `found`, `legal` must be NULL or writable; `values` NULL or 6 writable `int32_t`.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_db_move_values; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_awari_db_move_values(
    db: *const MancalaAwariDb,
    game: *const MancalaGame,
    found: *mut bool,
    legal: *mut u8,
    values: *mut i32,
) -> MancalaStatus {
    guard(|| {
        let (found, legal, values) = (
            io::out_ptr(found, "found")?,
            io::out_ptr(legal, "legal")?,
            io::out_ptr(values, "values")?,
        );
        // SAFETY: registry-checked handles; by the caller's contract no other thread mutates
        // `game` during the call.
        let (db, game) = unsafe { (handle::get(db, "db")?, handle::get(game, "game")?) };
        let mut mask = 0u8;
        let mut out = [0i32; 6];
        // The values of `mancala_db_move_values`, in legal-move order, put at their houses.
        let p = crate::db::record_of::<OwarePosition>(game.game())?.position();
        let values_of = crate::db::move_values_of::<OwarePosition>(&db.db, p)?;
        if let Some(v) = &values_of {
            for (m, v) in p.legal_moves().into_iter().zip(v) {
                let i = usize::from(m.0 - 1);
                mask |= 1 << i;
                out[i] = *v;
            }
        }
        // SAFETY: checked non-NULL; `values` has 6 writable entries by the caller's contract.
        unsafe {
            found.write(values_of.is_some());
            legal.write(mask);
            std::ptr::copy_nonoverlapping(out.as_ptr(), values, 6);
        }
        Ok(())
    })
}
