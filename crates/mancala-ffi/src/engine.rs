//! `MancalaEngine`: the anytime playing engine of `mancala_solver::engine` (iterative-deepening
//! alpha-beta with a heuristic evaluation and strength levels 1–10) for every game: the best
//! move under a time and node budget, with a cancel call that is safe from
//! another thread, and exact Kalah play from an endgame database and the exact solver.

use std::ffi::c_char;
use std::sync::Mutex;
use std::time::Duration;

use mancala_core::{with_game, AnyGame, GameRecord};
use mancala_solver::engine::{Choice, EngineError, Evaluate, Level, Limits, Players};
use mancala_solver::readable_bytes;

use crate::bao::MancalaBao;
use crate::cancel::CancelGate;
use crate::db::MancalaDb;
use crate::egdb::MancalaEgdb;
use crate::game::{GameHandle, MancalaGame};
use crate::handle::{self, Handle, Kind};
use crate::io;
use crate::kalah::{encode_move, MancalaKalah};
use crate::status::{guard, Error, MancalaStatus, Result};

/// Engine score units per seed: a Kalah score of `MANCALA_ENGINE_SEED` is one seed of store
/// difference for the player to move.
pub const MANCALA_ENGINE_SEED: i32 = 100;
/// A score above `MANCALA_ENGINE_DECISIVE` (below its negation) is a forced win (loss) of a
/// game scored by win or loss only (Bao la Kete): `MANCALA_ENGINE_WIN` minus the plies to the
/// end of the game.
pub const MANCALA_ENGINE_DECISIVE: i32 = 990_000;
/// The score of a won Bao la Kete game before the one-unit-per-ply shortening.
pub const MANCALA_ENGINE_WIN: i32 = 1_000_000;
/// A Bao la Kete move buffer of this many bytes (NUL included) is always large enough for
/// the deprecated `mancala_engine_bao_bestmove` (the longest move takes 6 with its NUL: pit,
/// direction, kichwa and kuu choice); `mancala_engine_bestmove` takes `MANCALA_MOVE_MAX`.
pub const MANCALA_BAO_MAX_MOVE_BYTES: usize = 8;

/// How to make an engine. All zero means: a 16 MiB table for each game, level 10, seed 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MancalaEngineConfig {
    /// Size of each transposition table in bytes (one a game: Kalah, Bao la Kete, Oware, Togyz
    /// Kumalak, each taken at the first search of its game); 0 = 16 MiB. At least 16 KiB is used; rounded
    /// down to a power of two of 16-byte entries.
    pub tt_bytes: u64,
    /// Strength level 1 (weakest) ..= 10 (strongest); 0 = 10. Levels 1–9 limit the search
    /// depth (1, 2, 3, 4, 5, 6, 8, 10, 14 plies); level 10 searches as deep as the budget
    /// allows. Levels 1–4 play a deliberately weaker move with probability 50, 30, 15 and 5 %.
    pub level: u32,
    /// Seed of the random choice of weaker moves (levels 1–4): the same seed and the same
    /// sequence of calls give the same moves (unless the clock cuts a search short).
    pub seed: u64,
}

/// The result of a best-move call. Scores are relative to the player to move in the position
/// searched, in engine units: Kalah in hundredths of a seed of store difference
/// (`MANCALA_ENGINE_SEED` = 100 units a seed; when `exact`, `score / 100` is the final store
/// difference, mover minus opponent, of the rest of the game with best play); Oware the same
/// of the seeds taken (captures and the cycle rule's allotment); Togyz Kumalak the same of
/// the kumalaks in the kazans; Bao la Kete, which is won or
/// lost and not scored in seeds, in the units of its heuristic (100 for a seed of material),
/// or ±(`MANCALA_ENGINE_WIN` − plies) for a forced win or loss (beyond
/// ±`MANCALA_ENGINE_DECISIVE`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MancalaEngineResult {
    /// The move to play. From `mancala_engine_bestmove` (a `MancalaGame` of any game): its
    /// index in the order of `mancala_game_legal_moves` (for `mancala_game_play_index`), the
    /// move's text written into the caller's buffer. From the deprecated
    /// `mancala_engine_kalah_bestmove`: a house number 1..=m or `MANCALA_KALAH_SWAP`; from
    /// `mancala_engine_bao_bestmove`: 0 (the move is the text).
    pub mv: u8,
    /// Whether the move is a deliberately weaker one than the search's choice (levels 1–4
    /// only); `score`, `depth` and `exact` then describe the search's own choice.
    pub weaker: bool,
    /// The search's score of its best move (see the struct documentation for units).
    pub score: i32,
    /// Depth of the last completed iteration, in plies (at least 1).
    pub depth: u32,
    /// Positions searched.
    pub nodes: u64,
    /// Whether `score` is the game-theoretic value, proven: the search reached only finished
    /// games and positions of the engine's endgame database, or (Kalah, level 10, a position
    /// with at most 30 seeds in the houses above the database's K) the exact solver solved
    /// the position within a quarter of the budget. `depth` is then the length of the
    /// solver's principal variation.
    pub exact: bool,
    /// Wall time of the search, in milliseconds (rounded down).
    pub elapsed_ms: u64,
}

/// An opaque playing engine for every game (Kalah with any m, n and options, Bao la Kete,
/// Oware, Togyz Kumalak), at one strength level. Its transposition tables (one a game) are kept between
/// calls, so consecutive moves of one game reuse them.
///
/// Created by `mancala_engine_new`, freed by `mancala_engine_free`. Thread safety:
/// `mancala_engine_cancel` may be called from any thread at any time while the handle lives;
/// the best-move calls on one engine are serialised by an internal lock (a second search
/// waits for the first). The engine must not be freed while another thread uses it.
pub struct MancalaEngine {
    players: Mutex<Players>,
    /// The table size the config asked for (`tt_bytes`, 0 for the default), bytes: named by
    /// the out-of-memory message ([`table_error`]).
    tt_bytes: u64,
    /// The cancel request of the best-move calls in progress (`crate::cancel`).
    cancel: CancelGate,
}

impl Handle for MancalaEngine {
    const KIND: Kind = Kind::Engine;
}

fn engine_error(e: EngineError) -> Error {
    let status = match e {
        EngineError::GameOver => MancalaStatus::IllegalMove,
        EngineError::DatabaseMismatch { .. } => MancalaStatus::DatabaseMismatch,
        EngineError::OutOfMemory(_) => MancalaStatus::OutOfMemory,
        _ => MancalaStatus::InvalidArgument,
    };
    Error::new(status, e.to_string())
}

/// [`engine_error`], with the out-of-memory message naming the table size the caller asked
/// for (`asked`, the config's `tt_bytes`; 0 for the default, [`DEFAULT_TT_BYTES`]) and,
/// when the engine rounded it (down to a power of two of 64-byte buckets, at least 16 KiB,
/// at most 2^46 bytes), the size it tried: one line, as "the transposition table does not
/// fit in memory: tt_bytes 100000000000000 bytes (93132.3 GiB) asked for, a table of
/// 70368744177664 bytes (65536.0 GiB) tried".
///
/// [`DEFAULT_TT_BYTES`]: mancala_solver::engine::DEFAULT_TT_BYTES
fn table_error(e: EngineError, asked: u64) -> Error {
    let EngineError::OutOfMemory(oom) = e else {
        return engine_error(e);
    };
    let default = mancala_solver::engine::DEFAULT_TT_BYTES as u64;
    let mut text = if asked == 0 {
        format!(
            "tt_bytes 0, the default of {default} bytes ({})",
            readable_bytes(default)
        )
    } else {
        format!(
            "tt_bytes {asked} bytes ({}) asked for",
            readable_bytes(asked)
        )
    };
    let tried = oom.bytes as u64;
    if tried != if asked == 0 { default } else { asked } {
        text += &format!(
            ", a table of {tried} bytes ({}) tried",
            readable_bytes(tried)
        );
    }
    Error::new(
        MancalaStatus::OutOfMemory,
        format!("the transposition table does not fit in memory: {text}"),
    )
}

impl MancalaEngine {
    /// Chooses a move with the player of the position's game (made at its first use). The
    /// call counts as in progress (so a cancel stops it) from before it waits for the
    /// engine's lock until it returns.
    fn choose<G: Evaluate>(
        &self,
        pos: &G,
        time_ms: u64,
        node_limit: u64,
    ) -> Result<Choice<G::Move>> {
        self.choose_by(time_ms, node_limit, |players, limits| {
            players.choose(pos, limits)
        })
    }

    /// [`MancalaEngine::choose`] in the current position of `game`, searched with its
    /// history (Oware's repetitions, OW-6.2, and move limit, OW-6.4).
    fn choose_game<G: Evaluate>(
        &self,
        game: &GameRecord<G>,
        time_ms: u64,
        node_limit: u64,
    ) -> Result<Choice<G::Move>> {
        self.choose_by(time_ms, node_limit, |players, limits| {
            players.choose_game(game, limits)
        })
    }

    /// The body of the choices: the call in progress, the lock, the budget, then `search`.
    fn choose_by<M>(
        &self,
        time_ms: u64,
        node_limit: u64,
        search: impl FnOnce(&mut Players, Limits) -> std::result::Result<Choice<M>, EngineError>,
    ) -> Result<Choice<M>> {
        let _call = self.cancel.enter();
        let mut players = self.players.lock().unwrap_or_else(|e| e.into_inner());
        if players.level().max_depth().is_none() && time_ms == 0 && node_limit == 0 {
            return Err(Error::new(
                MancalaStatus::InvalidArgument,
                "level 10 needs a budget: give time_ms or node_limit (or both) above 0",
            ));
        }
        let mut limits = Limits::default().with_cancel(self.cancel.flag());
        if time_ms > 0 {
            limits = limits.with_time(Duration::from_millis(time_ms));
        }
        if node_limit > 0 {
            limits = limits.with_nodes(node_limit);
        }
        search(&mut players, limits).map_err(|e| table_error(e, self.tt_bytes))
    }
}

fn result_of<M>(choice: &Choice<M>, mv: u8) -> MancalaEngineResult {
    let s = &choice.search;
    MancalaEngineResult {
        mv,
        weaker: choice.weaker,
        score: s.score,
        depth: s.depth,
        nodes: s.nodes,
        exact: s.exact,
        elapsed_ms: u64::try_from(s.elapsed.as_millis()).unwrap_or(u64::MAX),
    }
}

/// Makes an engine.
///
/// Ownership: `config` is only read. On success `*out` is a new handle owned by the caller,
/// released with `mancala_engine_free`. The table memory is taken at the first search of
/// each game.
/// Thread safety: safe from any thread.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`config` or `out` NULL),
/// `MANCALA_STATUS_INVALID_ARGUMENT` (`level` above 10, or `tt_bytes` does not fit the
/// address space) or `MANCALA_STATUS_PANIC`. The table's memory is taken at the first
/// search, which returns `MANCALA_STATUS_OUT_OF_MEMORY` when `tt_bytes` cannot be had (the
/// last error names the `tt_bytes` asked for and, when it was rounded, the size tried).
///
/// # Safety
/// `config` must be NULL or point to a `MancalaEngineConfig`; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_engine_new(
    config: *const MancalaEngineConfig,
    out: *mut *mut MancalaEngine,
) -> MancalaStatus {
    guard(|| {
        let out = io::out_ptr(out, "out")?;
        if config.is_null() {
            return Err(Error::null("config"));
        }
        // SAFETY: non-NULL, points to a config by contract.
        let config = unsafe { *config };
        let level = if config.level == 0 { 10 } else { config.level };
        let level = Level::new(level).map_err(engine_error)?;
        let tt_bytes = if config.tt_bytes == 0 {
            mancala_solver::engine::DEFAULT_TT_BYTES
        } else {
            io::table_bytes(config.tt_bytes)?
        };
        let handle = handle::into_handle(MancalaEngine {
            players: Mutex::new(Players::new(level, config.seed, tt_bytes)),
            tt_bytes: config.tt_bytes,
            cancel: CancelGate::new(),
        });
        // SAFETY: checked non-NULL; writable by contract.
        unsafe { out.write(handle) };
        Ok(())
    })
}

/// Frees an engine. NULL is a no-op (`MANCALA_STATUS_OK`).
///
/// Ownership: the handle is invalid after this call.
/// Thread safety: no other thread may be using `engine` (not even to cancel).
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_INVALID_HANDLE` (already freed or not an
/// engine; nothing is freed) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `engine` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
pub unsafe extern "C" fn mancala_engine_free(engine: *mut MancalaEngine) -> MancalaStatus {
    // SAFETY: the caller's contract: no other thread uses `engine` (`free_entry` checks the rest).
    unsafe { handle::free_entry(engine, "engine") }
}

/// Asks every best-move call in progress on `engine` (on other threads) to stop soon (within
/// about a thousand positions); each then returns `MANCALA_STATUS_OK` with the best move of
/// its last completed iteration (at least depth 1, so always a legal move).
///
/// A call is in progress from the moment `mancala_engine_bestmove` (or the deprecated
/// `mancala_engine_kalah_bestmove`, `mancala_engine_bao_bestmove`) is entered until it returns, including while it still waits
/// for the engine's lock (behind another search) or sets its search up: a cancel made then
/// always stops it. The request is cleared when the last call in progress returns, so a
/// cancel made while no call is in progress has no effect, neither now nor on a later call.
///
/// Thread safety: safe from any thread, concurrently with a search on the same handle; the
/// handle must not be freed meanwhile. Does not wait for a search (it takes only a short
/// internal lock that no search holds while it runs).
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE`
/// or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `engine` must be NULL or a pointer value.
#[no_mangle]
pub unsafe extern "C" fn mancala_engine_cancel(engine: *const MancalaEngine) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle; only the call count and the flag are touched.
        let engine = unsafe { handle::get(engine, "engine") }?;
        engine.cancel.request();
        Ok(())
    })
}

/// Gives the engine an endgame database for its Kalah searches (NULL: none): positions the
/// database holds are valued exactly during the search, and the exact root solve of level 10
/// (see `MancalaEngineResult.exact`) uses it too. The engine keeps its own reference to the
/// data, so `db` may be freed afterwards. Bao la Kete searches are not affected. The engine
/// serves every Kalah rule set, so a database of other rules (another m, other
/// value-relevant options) than a searched position is refused by that search:
/// `mancala_engine_kalah_bestmove` then returns `MANCALA_STATUS_DATABASE_MISMATCH`.
///
/// Ownership: `db` is only read (NULL allowed).
/// Thread safety: waits for a search running on this engine to finish.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`engine` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` (`engine` or a non-NULL `db` not a live handle of its
/// type) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `engine` and `db` must be NULL or pointer values.
#[no_mangle]
#[deprecated(since = "0.3.0", note = "use mancala_engine_set_db; removed in 0.4.0")]
pub unsafe extern "C" fn mancala_engine_set_database(
    engine: *mut MancalaEngine,
    db: *const MancalaEgdb,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handles (the engine is shared: it has its own lock).
        let engine = unsafe { handle::get(engine.cast_const(), "engine") }?;
        let db = if db.is_null() {
            None
        } else {
            // SAFETY: registry-checked handle.
            Some(unsafe { handle::get(db, "db") }?.shared())
        };
        let mut players = engine.players.lock().unwrap_or_else(|e| e.into_inner());
        players.set_database(db);
        Ok(())
    })
}

/// Gives the engine a database of exact values (`MancalaDb`) for the searches of its game,
/// or with `db` NULL removes the database of every game. Positions the database holds are
/// valued exactly during the search (Kalah: the exact root solve of level 10 uses it too;
/// Oware: where the game's history cannot change the value, `docs/awari.md`). The engine
/// keeps one database a game: a database replaces the one of its game and leaves the other
/// games' as they are. It keeps its own reference to the data, so `db` may be freed
/// afterwards. The engine serves every rule set of a game, so a database of other rules than
/// a searched position (another m or other value-relevant Kalah options, an Oware rule set
/// whose values it does not hold) is refused by that search: `mancala_engine_bestmove` then
/// returns `MANCALA_STATUS_DATABASE_MISMATCH`.
///
/// Ownership: `db` is only read (NULL allowed).
/// Thread safety: waits for a search running on this engine to finish.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`engine` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` (`engine` or a non-NULL `db` not a live handle of its
/// type) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `engine` and `db` must be NULL or pointer values.
#[no_mangle]
pub unsafe extern "C" fn mancala_engine_set_db(
    engine: *mut MancalaEngine,
    db: *const MancalaDb,
) -> MancalaStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe { give_database(engine, db, crate::db::give_to, Players::clear_databases) }
}

/// Gives the engine a database (`MancalaDb`) whose values serve as the **evaluation** of the
/// positions of its game that it holds, in place of the engine's heuristic, never taken as
/// exact; or with `db` NULL removes the evaluation database of every game. Meant for the
/// database of a neighbouring rule set whose values the engine cannot take as exact: for
/// Oware Abapa (`oware`, `oware+repetition=2`), which no database holds exactly, the Oware
/// database of `grand_slam=none` (built for `oware+majority=off+cycle_score=split`;
/// `docs/oware-databases.md`, "Abapa"), whose values differ from Abapa's only where the
/// majority end or a cycle comes into play. Under the database's own rule set use
/// `mancala_engine_set_db`, which values its positions exactly (and comes first where both
/// are given). The engine keeps one evaluation database a game, beside the database of
/// `mancala_engine_set_db`; it keeps its own reference to the data, so `db` may be freed
/// afterwards. The engine serves every rule set of a game, so a database whose values are
/// no estimates of a searched position's rule set (for an Oware database: a board of
/// another size than six houses a side, or another grand-slam rule than the database's,
/// e.g. the Awari database under Abapa) is refused by that search: `mancala_engine_bestmove`
/// then returns `MANCALA_STATUS_DATABASE_MISMATCH` (its message names the database, "as the
/// evaluation").
///
/// Ownership: `db` is only read (NULL allowed).
/// Thread safety: waits for a search running on this engine to finish.
///
/// Returns `MANCALA_STATUS_OK`, `MANCALA_STATUS_NULL_POINTER` (`engine` NULL),
/// `MANCALA_STATUS_INVALID_HANDLE` (`engine` or a non-NULL `db` not a live handle of its
/// type) or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `engine` and `db` must be NULL or pointer values.
#[no_mangle]
pub unsafe extern "C" fn mancala_engine_set_estimates(
    engine: *mut MancalaEngine,
    db: *const MancalaDb,
) -> MancalaStatus {
    // SAFETY: the caller's contract, passed on.
    unsafe {
        give_database(
            engine,
            db,
            crate::db::give_estimates_to,
            Players::clear_estimates,
        )
    }
}

/// The body of `mancala_engine_set_db` and `mancala_engine_set_estimates`: `give` hands the
/// database `db` to the engine's players, or `clear` removes every one of its kind when `db`
/// is NULL. Returns the status as they document it.
///
/// # Safety
/// `engine` and `db` must be NULL or pointer values.
unsafe fn give_database(
    engine: *mut MancalaEngine,
    db: *const MancalaDb,
    give: fn(&MancalaDb, &mut Players),
    clear: fn(&mut Players),
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handles (the engine is shared: it has its own lock).
        let engine = unsafe { handle::get(engine.cast_const(), "engine") }?;
        let db = if db.is_null() {
            None
        } else {
            // SAFETY: registry-checked handle, only read.
            Some(unsafe { handle::get(db, "db") }?)
        };
        let mut players = engine.players.lock().unwrap_or_else(|e| e.into_inner());
        match db {
            Some(db) => give(db, &mut players),
            None => clear(&mut players),
        }
        Ok(())
    })
}

/// Chooses a move for the side to move in the current position of the Kalah `game`, at the
/// engine's level, within `time_ms` milliseconds of wall time and `node_limit` positions
/// (0 = no such limit; at level 10 at least one of them must be above 0). Whatever runs out
/// first stops the search, which returns the best move of its last completed iteration; the
/// first iteration always completes, so even a 1 ms budget gives a legal move (the time may
/// then be exceeded slightly). The search also stops once its result is exact. At level 10
/// a position with at most 30 seeds in the houses above the database's K (0 without one) is
/// first given to the exact solver for a quarter of the budget; when it proves the value,
/// its best move is returned with `exact` set.
///
/// Ownership: `game` is only read; `*out` is a plain struct owned by the caller.
/// Thread safety: `game` is only read; the call holds the engine's lock until it returns
/// (`mancala_engine_cancel` from another thread, made any time after this call is entered,
/// stops it early; a cancel made before it is entered does not).
///
/// Returns:
/// - `MANCALA_STATUS_OK`: `*out` written; `out->mv` is legal in the position (play it with
///   `mancala_kalah_play`).
/// - `MANCALA_STATUS_ILLEGAL_MOVE`: the game is over; there is no move to choose.
/// - `MANCALA_STATUS_INVALID_ARGUMENT`: level 10 with `time_ms` and `node_limit` both 0.
/// - `MANCALA_STATUS_DATABASE_MISMATCH`: the engine's database (`mancala_engine_set_database`)
///   is for other rules than the game's.
/// - `MANCALA_STATUS_OUT_OF_MEMORY`: the engine's table (`tt_bytes`) does not fit in memory;
///   nothing was searched (a new engine with a smaller table may work).
/// - `MANCALA_STATUS_NULL_POINTER` (`engine`, `game` or `out` NULL),
///   `MANCALA_STATUS_INVALID_HANDLE` (`engine` or `game` not a live handle of its type, e.g.
///   a `MancalaBao` passed as `game`), `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `engine` and `game` must be NULL or pointer values; `out` NULL or writable.
#[no_mangle]
#[deprecated(
    since = "0.3.0",
    note = "use mancala_engine_bestmove with a MancalaGame; removed in 0.4.0"
)]
pub unsafe extern "C" fn mancala_engine_kalah_bestmove(
    engine: *mut MancalaEngine,
    game: *const MancalaKalah,
    time_ms: u64,
    node_limit: u64,
    out: *mut MancalaEngineResult,
) -> MancalaStatus {
    guard(|| {
        let out = io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handles (the engine is shared: it has its own lock).
        let engine = unsafe { handle::get(engine.cast_const(), "engine") }?;
        // SAFETY: registry-checked handle; by the caller's contract no other thread mutates or
        // frees `game` during the call.
        let game = unsafe { handle::get(game, "game") }?;
        let pos = *game.position()?;
        let choice = engine.choose(&pos, time_ms, node_limit)?;
        let result = result_of(&choice, encode_move(choice.mv));
        // SAFETY: checked non-NULL; writable by contract.
        unsafe { out.write(result) };
        Ok(())
    })
}

/// Chooses a move for the side to move in the current position of the Bao la Kete `game`,
/// with the budget and level as `mancala_engine_kalah_bestmove`. The move is written into
/// `move_buf` as a NUL-terminated string in the notation of `mancala_bao_legal_moves`
/// (`"F6>"`, …), ready for `mancala_bao_play`; `out->mv` is 0.
///
/// Ownership: `game` is only read; `move_buf` and `*out` belong to the caller.
/// Thread safety: as `mancala_engine_kalah_bestmove`.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: the move and `*out` written; `*needed` = bytes of the move, NUL
///   included.
/// - `MANCALA_STATUS_BUFFER_TOO_SMALL`: `buf_len` < `MANCALA_BAO_MAX_MOVE_BYTES` (8);
///   `*needed` = `MANCALA_BAO_MAX_MOVE_BYTES`; checked before searching, nothing else written
///   (`move_buf` may be NULL when `buf_len` is 0).
/// - `MANCALA_STATUS_ILLEGAL_MOVE`: the game is over; there is no move to choose.
/// - `MANCALA_STATUS_INVALID_ARGUMENT`: level 10 with `time_ms` and `node_limit` both 0.
/// - `MANCALA_STATUS_NULL_POINTER` (`engine`, `game`, `needed` or `out` NULL, or `move_buf`
///   NULL with `buf_len` > 0), `MANCALA_STATUS_INVALID_HANDLE` (`engine` or `game` not a
///   live handle of its type, e.g. a `MancalaKalah` passed as `game`),
///   `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `engine` and `game` must be NULL or pointer values; `move_buf` NULL or `buf_len` writable
/// bytes; `needed` and `out` NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
#[deprecated(
    since = "0.3.0",
    note = "use mancala_engine_bestmove with a MancalaGame; removed in 0.4.0"
)]
pub unsafe extern "C" fn mancala_engine_bao_bestmove(
    engine: *mut MancalaEngine,
    game: *const MancalaBao,
    time_ms: u64,
    node_limit: u64,
    move_buf: *mut c_char,
    buf_len: usize,
    needed: *mut usize,
    out: *mut MancalaEngineResult,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe {
        bestmove_body(
            engine,
            game,
            time_ms,
            node_limit,
            (move_buf, buf_len, needed),
            MANCALA_BAO_MAX_MOVE_BYTES,
            out,
            |_, _| 0,
        )
    }
}

/// The body of the best-move calls that write the move as text: `buf` (the caller's move
/// buffer, its length and the `needed` out-pointer) is checked to hold `max_bytes` first,
/// before a possibly long search; then the engine plays the game's position, the move's text
/// goes to the buffer and `code(position, move)` to the result's `mv`.
///
/// # Safety
/// `engine` and `game` must be NULL or pointer values; the buffer NULL or `len` writable
/// bytes; `needed` and `out` NULL or writable.
#[allow(clippy::too_many_arguments)]
unsafe fn bestmove_body<H: GameHandle>(
    engine: *mut MancalaEngine,
    game: *const H,
    time_ms: u64,
    node_limit: u64,
    (move_buf, buf_len, needed): (*mut c_char, usize, *mut usize),
    max_bytes: usize,
    out: *mut MancalaEngineResult,
    code: impl Fn(&AnyGame, &str) -> u8,
) -> MancalaStatus {
    guard(|| {
        let out = io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handles (the engine is shared: it has its own lock).
        let engine = unsafe { handle::get(engine.cast_const(), "engine") }?;
        // SAFETY: registry-checked handle; by the caller's contract no other thread mutates or
        // frees `game` during the call.
        let game = unsafe { handle::get(game, "game") }?.game();
        let needed_ptr = io::out_ptr(needed, "needed")?;
        if move_buf.is_null() && buf_len > 0 {
            return Err(Error::null("move_buf"));
        }
        if buf_len < max_bytes {
            // The buffer is checked first, before a possibly long search.
            // SAFETY: checked non-NULL; writable by contract.
            unsafe { needed_ptr.write(max_bytes) };
            return Err(Error::new(
                MancalaStatus::BufferTooSmall,
                format!(
                    "move buffer of {} is too small: {} needed",
                    mancala_core::words::count(buf_len, "byte", "bytes"),
                    mancala_core::words::count(max_bytes, "byte", "bytes")
                ),
            ));
        }
        let (text, result) = with_game!(game, g => {
            let choice = engine.choose_game(g, time_ms, node_limit)?;
            (choice.mv.to_string(), result_of(&choice, 0))
        });
        let result = MancalaEngineResult {
            mv: code(game, &text),
            ..result
        };
        // SAFETY: the caller's buffer contract (at least `max_bytes` bytes).
        unsafe { io::write_str(&text, move_buf, buf_len, needed, "move_buf") }?;
        // SAFETY: checked non-NULL; writable by contract.
        unsafe { out.write(result) };
        Ok(())
    })
}

/// A move buffer of this many bytes (NUL included) always holds a move of any game for
/// `mancala_engine_bestmove` (the longest, a Bao la Kete move, takes 6 with its NUL).
pub const MANCALA_MOVE_MAX: usize = 8;

/// The engine's best move in a game of any kind (`MancalaGame`) within the budget: at most
/// `time_ms` milliseconds (0 = no time limit) and `node_limit` positions (0 = no node limit);
/// levels 1–9 also stop at their depth limit, level 10 needs a budget. The move is written as
/// text in the game's move notation into `move_buf` (NUL-terminated), ready for
/// `mancala_game_play`; `out->mv` is its index in the order of `mancala_game_legal_moves`
/// (for `mancala_game_play_index`). The search sees the game's history: under Oware's rule
/// sets a move that repeats a position for the repetition count (OW-6.2) or reaches the move
/// limit (OW-6.4) is valued as the end of the game it is. The engine keeps one player (and
/// table) a game. A cancel
/// from another thread (`mancala_engine_cancel`) ends the search early with the best move of
/// the last completed iteration.
///
/// Ownership: `engine` and `game` are only read (the engine's tables change under its own
/// lock); `move_buf`, `needed` and `out` belong to the caller.
/// Thread safety: several threads may call this on one engine (the calls are serialised);
/// `game` must not be changed or freed by another thread during the call.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: `move_buf`, `*needed` (bytes written, NUL included) and `*out`
///   written.
/// - `MANCALA_STATUS_BUFFER_TOO_SMALL`: `buf_len` < `MANCALA_MOVE_MAX`; `*needed` =
///   `MANCALA_MOVE_MAX`; checked before searching, nothing else written (`move_buf` may be
///   NULL when `buf_len` is 0).
/// - `MANCALA_STATUS_ILLEGAL_MOVE`: the game is over; there is no move to choose.
/// - `MANCALA_STATUS_INVALID_ARGUMENT`: level 10 with `time_ms` and `node_limit` both 0.
/// - `MANCALA_STATUS_DATABASE_MISMATCH`: the engine's database of the game
///   (`mancala_engine_set_db`, `mancala_engine_set_database`) is for other rules than the
///   game's, or its evaluation database (`mancala_engine_set_estimates`) holds no estimates
///   of them.
/// - `MANCALA_STATUS_OUT_OF_MEMORY`: the engine's table (`tt_bytes`) does not fit in memory.
/// - `MANCALA_STATUS_NULL_POINTER` (`engine`, `game`, `needed` or `out` NULL, or `move_buf`
///   NULL with `buf_len` > 0), `MANCALA_STATUS_INVALID_HANDLE`, `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `engine` and `game` must be NULL or pointer values; `move_buf` NULL or `buf_len` writable
/// bytes; `needed` and `out` NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn mancala_engine_bestmove(
    engine: *mut MancalaEngine,
    game: *const MancalaGame,
    time_ms: u64,
    node_limit: u64,
    move_buf: *mut c_char,
    buf_len: usize,
    needed: *mut usize,
    out: *mut MancalaEngineResult,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe {
        bestmove_body(
            engine,
            game,
            time_ms,
            node_limit,
            (move_buf, buf_len, needed),
            MANCALA_MOVE_MAX,
            out,
            |g, text| {
                let index = g.legal_moves_text().iter().position(|m| m == text);
                index.and_then(|i| u8::try_from(i).ok()).unwrap_or(0)
            },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn engine(level: u32) -> MancalaEngine {
        MancalaEngine {
            players: Mutex::new(Players::new(Level::new(level).unwrap(), 0, 1 << 20)),
            tt_bytes: 1 << 20,
            cancel: CancelGate::new(),
        }
    }

    /// The race of a cancel made right after a search was launched on another thread, before
    /// that search took the engine's lock: the cancel must stop it. The lock is held here
    /// while the search thread waits for it, so the cancel certainly comes first.
    #[test]
    #[cfg_attr(miri, ignore = "a search of thousands of nodes")]
    fn a_cancel_before_the_search_takes_the_lock_stops_it() {
        use mancala_core::kalah::{KalahPosition, KalahRules};
        let e = engine(10);
        let pos = KalahPosition::start(KalahRules::standard().with_size(6, 6).unwrap());
        std::thread::scope(|s| {
            let held = e.players.lock().unwrap();
            // Ten minutes and two million positions: a lost cancel shows as a deep search
            // (the node budget ends it within seconds), not as a hang.
            let search = s.spawn(|| e.choose(&pos, 600_000, 2_000_000));
            while e.cancel.in_progress() == 0 {
                std::thread::yield_now();
            }
            e.cancel.request();
            drop(held);
            let choice = search.join().unwrap().unwrap();
            // Stopped after the first iteration, which always completes.
            assert_eq!(choice.search.depth, 1);
            assert!(!choice.search.exact);
            assert!(pos.legal_moves().contains(&choice.mv));
        });
        // The request ended with the call: the next search runs its whole node budget.
        assert!(!e.cancel.requested());
        let choice = e.choose(&pos, 0, 20_000).unwrap();
        assert!(choice.search.nodes >= 20_000, "{:?}", choice.search);
    }

    /// A cancel while no call is in progress is forgotten.
    #[test]
    #[cfg_attr(miri, ignore = "a search of thousands of nodes")]
    fn a_cancel_while_idle_has_no_effect() {
        use mancala_core::kalah::{KalahPosition, KalahRules};
        let e = engine(10);
        let pos = KalahPosition::start(KalahRules::standard().with_size(6, 6).unwrap());
        e.cancel.request();
        assert!(!e.cancel.requested());
        let choice = e.choose(&pos, 0, 20_000).unwrap();
        assert!(choice.search.nodes >= 20_000, "{:?}", choice.search);
        assert!(choice.search.depth > 1);
    }

    #[test]
    fn header_constants_match_the_engine() {
        assert_eq!(MANCALA_ENGINE_SEED, mancala_solver::engine::SEED);
        assert_eq!(MANCALA_ENGINE_WIN, mancala_solver::engine::WIN);
        assert_eq!(MANCALA_ENGINE_DECISIVE, mancala_solver::engine::DECISIVE);
    }
}
