//! The errno rule of `mancala_last_error`, on every function of the C API: after a failure,
//! a successful call of any function (each one is called here, and the list is checked
//! against the functions the committed header declares) leaves the message as it was.
//!
//! The rule, from the header's overview: only a failed call sets the message; a successful
//! call never touches it; `mancala_last_error` itself never changes it.
// Every function of the header is called, the deprecated ones (kept until 0.4.0) included.
#![allow(deprecated)]

use std::collections::BTreeSet;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::path::Path;
use std::ptr;

use mancala::awari::*;
use mancala::bao::*;
use mancala::db::*;
use mancala::egdb::*;
use mancala::engine::*;
use mancala::game::*;
use mancala::io::mancala_last_error;
use mancala::kalah::*;
use mancala::progress::{MancalaBuildProgress, MancalaSolveProgress};
use mancala::rules::*;
use mancala::solver::*;
use mancala::status::mancala_status_name;
use mancala::{mancala_version, mancala_version_string, MancalaEgdbEncoding, MancalaStatus};

/// The last-error message of this thread.
fn last_error() -> String {
    let mut buf = [0 as c_char; 512];
    let mut needed = 0;
    let st = unsafe { mancala_last_error(buf.as_mut_ptr(), buf.len(), &mut needed) };
    assert_eq!(st, MancalaStatus::Ok);
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .unwrap()
        .to_string()
}

/// Every function the committed header declares.
fn header_functions() -> BTreeSet<String> {
    let header = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../include/mancala.h"),
    )
    .unwrap();
    header
        .split("enum MancalaStatus ")
        .skip(1)
        .filter_map(|rest| {
            let name = rest.split('(').next()?;
            (name.starts_with("mancala_") && !name.contains(char::is_whitespace))
                .then(|| name.to_string())
        })
        .collect()
}

unsafe extern "C" fn go_on_solve(_: *const MancalaSolveProgress, _: *mut c_void) -> c_int {
    0
}

unsafe extern "C" fn go_on_build(_: *const MancalaBuildProgress, _: *mut c_void) -> c_int {
    0
}

/// Checks one successful call: its status is OK and the message is still `kept`.
struct Calls {
    kept: String,
    seen: BTreeSet<String>,
}

impl Calls {
    fn ok(&mut self, name: &str, status: MancalaStatus) {
        assert_eq!(status, MancalaStatus::Ok, "{name}: {}", last_error());
        assert_eq!(last_error(), self.kept, "{name} changed the last error");
        self.seen.insert(name.to_string());
    }
}

macro_rules! ok {
    ($calls:expr, $f:ident ( $($arg:expr),* $(,)? )) => {
        $calls.ok(stringify!($f), unsafe { $f($($arg),*) })
    };
}

#[test]
#[cfg_attr(miri, ignore = "builds and files")]
fn no_successful_call_changes_the_last_error() {
    // Removed when the test ends, passed or failed.
    let scratch = tempfile::Builder::new()
        .prefix("mancala-ffi-last-error-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap();
    let dir = scratch.path();
    let c_dir = CString::new(dir.to_str().unwrap()).unwrap();
    let c_file = CString::new(dir.join("kalah2.k4.egdb").to_str().unwrap()).unwrap();

    // The failure whose message every later call must keep: the one of the review's report.
    let standard = CString::new("standard").unwrap();
    let mut r = ptr::null_mut();
    assert_eq!(
        unsafe { mancala_rules_new(standard.as_ptr(), &mut r) },
        MancalaStatus::Ok
    );
    let mut g = ptr::null_mut();
    assert_eq!(unsafe { mancala_kalah_new(r, &mut g) }, MancalaStatus::Ok);
    assert_eq!(
        unsafe { mancala_kalah_play(g, 9) },
        MancalaStatus::IllegalMove
    );
    let kept = last_error();
    assert_eq!(
        kept,
        "illegal move 9: house 9 does not exist: houses are numbered 1..=6"
    );
    let mut c = Calls {
        kept,
        seen: BTreeSet::new(),
    };

    // Diagnostics.
    let (mut major, mut minor, mut patch) = (0, 0, 0);
    ok!(c, mancala_version(&mut major, &mut minor, &mut patch));
    let mut s = ptr::null();
    ok!(c, mancala_version_string(&mut s));
    ok!(
        c,
        mancala_status_name(MancalaStatus::IllegalMove as c_int, &mut s)
    );
    let mut text = [0 as c_char; 1024];
    let mut needed = 0;
    ok!(
        c,
        mancala_last_error(text.as_mut_ptr(), text.len(), &mut needed)
    );

    // Rule sets.
    let small = CString::new("kalah(2,1)").unwrap();
    let mut r2 = ptr::null_mut();
    ok!(c, mancala_rules_new(small.as_ptr(), &mut r2));
    ok!(
        c,
        mancala_rules_print(r2, text.as_mut_ptr(), text.len(), &mut needed)
    );
    let (mut houses, mut seeds) = (0u8, 0u8);
    ok!(c, mancala_rules_size(r2, &mut houses, &mut seeds));
    let mut game = MancalaGameKind::Bao;
    ok!(c, mancala_rules_game(r2, &mut game));

    // Kalah games.
    let position = CString::new("4,4,4,4,4,4,0,4,4,4,4,4,4,0 S").unwrap();
    let mut g2 = ptr::null_mut();
    ok!(c, mancala_kalah_parse(r, position.as_ptr(), &mut g2));
    let mut g3 = ptr::null_mut();
    ok!(c, mancala_kalah_clone(g2, &mut g3));
    ok!(
        c,
        mancala_kalah_print(g2, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(
        c,
        mancala_kalah_draw(g2, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(c, mancala_kalah_play(g2, 3));
    ok!(c, mancala_kalah_undo(g2));
    ok!(c, mancala_kalah_play(g2, 3));
    ok!(
        c,
        mancala_kalah_record_print(g2, text.as_mut_ptr(), text.len(), &mut needed)
    );
    let mut slots = [0u8; 16];
    let mut count = 0;
    ok!(
        c,
        mancala_kalah_board(g2, slots.as_mut_ptr(), slots.len(), &mut count)
    );
    ok!(
        c,
        mancala_kalah_legal_moves(g2, slots.as_mut_ptr(), slots.len(), &mut count)
    );
    let mut side = MancalaSide::None;
    ok!(c, mancala_kalah_side_to_move(g2, &mut side));
    let mut flag = false;
    let mut flag2 = false;
    ok!(c, mancala_kalah_extra_turn(g2, 4, &mut flag));
    ok!(c, mancala_kalah_swap_state(g2, &mut flag, &mut flag2));
    let mut outcome = MancalaOutcome::Draw;
    let mut score = 0;
    ok!(c, mancala_kalah_outcome(g2, &mut outcome, &mut score));
    let mut nodes = 0u64;
    ok!(c, mancala_kalah_perft(g2, 2, &mut nodes));
    let mut small_game = ptr::null_mut();
    ok!(c, mancala_kalah_new(r2, &mut small_game));

    // Bao la Kete games.
    let bao_text = CString::new("bao-la-kete").unwrap();
    let mut br = ptr::null_mut();
    ok!(c, mancala_rules_new(bao_text.as_ptr(), &mut br));
    let mut b = ptr::null_mut();
    ok!(c, mancala_bao_new(br, &mut b));
    let bao_start = CString::new(
        "0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 22,22 SN S -",
    )
    .unwrap();
    let mut b2 = ptr::null_mut();
    ok!(c, mancala_bao_parse(br, bao_start.as_ptr(), &mut b2));
    let mut b3 = ptr::null_mut();
    ok!(c, mancala_bao_clone(b2, &mut b3));
    ok!(
        c,
        mancala_bao_print(b2, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(
        c,
        mancala_bao_draw(b2, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(
        c,
        mancala_bao_legal_moves(b2, text.as_mut_ptr(), text.len(), &mut needed, &mut count)
    );
    let f6 = CString::new("F6>").unwrap();
    ok!(c, mancala_bao_play(b2, f6.as_ptr()));
    ok!(c, mancala_bao_undo(b2));
    ok!(c, mancala_bao_play(b2, f6.as_ptr()));
    ok!(
        c,
        mancala_bao_record_print(b2, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(c, mancala_bao_side_to_move(b2, &mut side));
    ok!(c, mancala_bao_outcome(b2, &mut outcome, &mut score));
    ok!(c, mancala_bao_perft(b2, 1, &mut nodes));

    // Games of any kind (`MancalaGame`).
    let standard = CString::new("standard").unwrap();
    let mut gg = ptr::null_mut();
    ok!(c, mancala_game_new(standard.as_ptr(), &mut gg));
    let start_text = CString::new("4,4,4,4,4,4,0,4,4,4,4,4,4,0 S").unwrap();
    let mut gg2 = ptr::null_mut();
    ok!(
        c,
        mancala_game_parse(standard.as_ptr(), start_text.as_ptr(), &mut gg2)
    );
    let mut gg3 = ptr::null_mut();
    ok!(c, mancala_game_from_rules(br, ptr::null(), &mut gg3));
    let mut gg4 = ptr::null_mut();
    ok!(c, mancala_game_clone(gg3, &mut gg4));
    let mut kind = MancalaGameKind::Kalah;
    ok!(c, mancala_game_kind(gg3, &mut kind));
    ok!(
        c,
        mancala_game_print(gg, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(
        c,
        mancala_game_draw(gg, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(
        c,
        mancala_game_rules_print(gg, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(
        c,
        mancala_game_legal_moves(gg, text.as_mut_ptr(), text.len(), &mut needed, &mut count)
    );
    let three = CString::new("3").unwrap();
    ok!(c, mancala_game_play(gg, three.as_ptr()));
    ok!(c, mancala_game_undo(gg));
    ok!(
        c,
        mancala_game_play_index(gg, 2, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(
        c,
        mancala_game_record_print(gg, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(c, mancala_game_side_to_move(gg, &mut side));
    ok!(c, mancala_game_outcome(gg, &mut outcome, &mut score));
    ok!(c, mancala_game_perft(gg, 2, &mut nodes));

    // Endgame databases of Kalah(2,·), K = 4.
    let mut db = ptr::null_mut();
    ok!(c, mancala_egdb_build(r2, 4, 1, &mut db));
    let mut db2 = ptr::null_mut();
    ok!(
        c,
        mancala_egdb_build_progress(r2, 4, 1, Some(go_on_build), ptr::null_mut(), 10, &mut db2)
    );
    ok!(c, mancala_egdb_save(db, c_file.as_ptr()));
    let mut db3 = ptr::null_mut();
    ok!(c, mancala_egdb_load(c_file.as_ptr(), &mut db3));
    let mut entries = 0u64;
    ok!(c, mancala_egdb_verify(c_file.as_ptr(), &mut entries));
    let mut db4 = ptr::null_mut();
    let mut built = -1;
    ok!(
        c,
        mancala_egdb_open_cached(
            r2,
            c_dir.as_ptr(),
            4,
            1,
            None,
            ptr::null_mut(),
            0,
            &mut db4,
            &mut built
        )
    );
    let (mut m, mut k) = (0u8, 0u32);
    ok!(c, mancala_egdb_info(db, &mut m, &mut k, &mut entries));
    ok!(
        c,
        mancala_egdb_describe(db, text.as_mut_ptr(), text.len(), &mut needed)
    );
    let mut value = 0;
    ok!(c, mancala_egdb_value(db, small_game, &mut flag, &mut value));
    let mut db5 = ptr::null_mut();
    ok!(
        c,
        mancala_egdb_build_encoded(
            r2,
            4,
            MancalaEgdbEncoding::Packed as u32,
            1,
            Some(go_on_build),
            ptr::null_mut(),
            10,
            &mut db5
        )
    );
    let mut db6 = ptr::null_mut();
    ok!(c, mancala_egdb_convert(db5, 1, &mut db6));
    let (mut encoding, mut bits, mut bytes) = (0u32, 0u32, 0u64);
    ok!(
        c,
        mancala_egdb_encoding(db5, &mut encoding, &mut bits, &mut bytes)
    );

    // The solver.
    let config = MancalaSolverConfig {
        threads: 1,
        tt_bytes: 1 << 20,
        ..MancalaSolverConfig::default()
    };
    let mut solver = ptr::null_mut();
    ok!(c, mancala_solver_new(&config, &mut solver));
    ok!(c, mancala_solver_set_limits(solver, 0, 0));
    ok!(c, mancala_solver_set_database(solver, db));
    ok!(
        c,
        mancala_solver_set_progress(solver, Some(go_on_solve), ptr::null_mut(), 10)
    );
    let mut solution = MancalaSolution::default();
    ok!(c, mancala_solver_solve(solver, small_game, &mut solution));
    let mut values = [MancalaMoveValue::default(); 8];
    ok!(
        c,
        mancala_solver_analyse(
            solver,
            small_game,
            values.as_mut_ptr(),
            values.len(),
            &mut count
        )
    );
    // The same solves on a `MancalaGame`, and its Kalah-only calls.
    let mut small_any = ptr::null_mut();
    ok!(c, mancala_game_new(small.as_ptr(), &mut small_any));
    ok!(
        c,
        mancala_solver_solve_game(solver, small_any, &mut solution)
    );
    ok!(
        c,
        mancala_solver_analyse_game(
            solver,
            small_any,
            values.as_mut_ptr(),
            values.len(),
            &mut count
        )
    );
    let mut counts = [0u32; 20];
    ok!(
        c,
        mancala_game_board(small_any, counts.as_mut_ptr(), counts.len(), &mut count)
    );
    ok!(c, mancala_game_extra_turn(small_any, &mut flag));
    ok!(c, mancala_game_swap_state(small_any, &mut flag, &mut flag2));
    ok!(c, mancala_game_free(small_any));
    ok!(c, mancala_solver_clear_table(solver));
    ok!(c, mancala_solver_cancel(solver));

    // The playing engine.
    let config = MancalaEngineConfig {
        tt_bytes: 1 << 16,
        ..MancalaEngineConfig::default()
    };
    let mut engine = ptr::null_mut();
    ok!(c, mancala_engine_new(&config, &mut engine));
    ok!(c, mancala_engine_set_database(engine, db));
    let mut result = MancalaEngineResult::default();
    ok!(
        c,
        mancala_engine_kalah_bestmove(engine, small_game, 0, 1000, &mut result)
    );
    ok!(
        c,
        mancala_engine_bao_bestmove(
            engine,
            b,
            0,
            1000,
            text.as_mut_ptr(),
            text.len(),
            &mut needed,
            &mut result
        )
    );
    ok!(
        c,
        mancala_engine_bestmove(
            engine,
            gg3,
            0,
            1000,
            text.as_mut_ptr(),
            text.len(),
            &mut needed,
            &mut result
        )
    );
    ok!(c, mancala_engine_cancel(engine));

    // Freeing everything, and NULL.
    ok!(c, mancala_engine_free(engine));
    ok!(c, mancala_solver_free(solver));
    for d in [db, db2, db3, db4, db5, db6] {
        ok!(c, mancala_egdb_free(d));
    }
    for x in [b, b2, b3] {
        ok!(c, mancala_bao_free(x));
    }
    for x in [g, g2, g3, small_game] {
        ok!(c, mancala_kalah_free(x));
    }
    for x in [gg, gg2, gg3, gg4] {
        ok!(c, mancala_game_free(x));
    }
    for x in [r, r2, br] {
        ok!(c, mancala_rules_free(x));
    }
    // The Awari database (a small one), on an Oware game of the rule set awari.
    let awari_file = CString::new(dir.join("awari.n4.egdb").to_str().unwrap()).unwrap();
    let awari_text = CString::new("awari").unwrap();
    let awari_position = CString::new("0,0,0,0,0,1,23,1,0,0,0,0,0,23 S").unwrap();
    let mut ag = ptr::null_mut();
    ok!(
        c,
        mancala_game_parse(awari_text.as_ptr(), awari_position.as_ptr(), &mut ag)
    );
    let mut adb = ptr::null_mut();
    ok!(
        c,
        mancala_awari_db_build(4, 1, Some(go_on_build), ptr::null_mut(), &mut adb)
    );
    ok!(c, mancala_awari_db_save(adb, awari_file.as_ptr()));
    let mut adb2 = ptr::null_mut();
    ok!(c, mancala_awari_db_load(awari_file.as_ptr(), &mut adb2));
    let (mut an, mut aboards) = (0u32, 0u64);
    ok!(c, mancala_awari_db_info(adb2, &mut an, &mut aboards));
    let (mut afound, mut avalue, mut alegal) = (false, 0i32, 0u8);
    let mut avalues = [0i32; 6];
    ok!(
        c,
        mancala_awari_db_value(adb2, ag, &mut afound, &mut avalue)
    );
    ok!(
        c,
        mancala_awari_db_move_values(adb2, ag, &mut afound, &mut alegal, avalues.as_mut_ptr())
    );
    // Packed (encoding 2): 2·4 + 1 = 9 values at level 4, 4 bits a board; saved, loaded
    // (it stays packed) and asked the same board: OW-11.3's grand slam, worth +2.
    let mut adb3 = ptr::null_mut();
    ok!(c, mancala_awari_db_convert(adb, 2, &mut adb3));
    let packed_file = CString::new(dir.join("awari.n4.packed.egdb").to_str().unwrap()).unwrap();
    ok!(c, mancala_awari_db_save(adb3, packed_file.as_ptr()));
    let mut adb4 = ptr::null_mut();
    ok!(c, mancala_awari_db_load(packed_file.as_ptr(), &mut adb4));
    let (mut aenc, mut abits, mut amem) = (0u32, 0u32, 0u64);
    ok!(
        c,
        mancala_awari_db_encoding(adb4, &mut aenc, &mut abits, &mut amem)
    );
    // Levels 0..=4: 1 + 12 + 78 + 364 + 1365 = 1820 boards (OW-11.2), ⌈1820 · 4 / 8⌉ = 910
    // bytes and 8 of padding.
    assert_eq!((aenc, abits, amem), (2, 4, 918));
    let (mut pn, mut pboards) = (0u32, 0u64);
    assert_eq!(
        unsafe { mancala_awari_db_info(adb4, &mut pn, &mut pboards) },
        MancalaStatus::Ok
    );
    assert_eq!((pn, pboards, aboards), (4, 1820, 1820));
    let (mut pfound, mut pvalue) = (false, 0i32);
    assert_eq!(
        unsafe { mancala_awari_db_value(adb4, ag, &mut pfound, &mut pvalue) },
        MancalaStatus::Ok
    );
    assert_eq!((pfound, pvalue, avalue), (true, 2, 2));
    ok!(c, mancala_awari_db_free(adb3));
    ok!(c, mancala_awari_db_free(adb4));
    ok!(c, mancala_awari_db_free(adb));
    ok!(c, mancala_awari_db_free(adb2));
    ok!(c, mancala_awari_db_free(ptr::null_mut()));
    ok!(c, mancala_game_free(ag));
    ok!(c, mancala_game_free(ptr::null_mut()));
    ok!(c, mancala_kalah_free(ptr::null_mut()));
    ok!(c, mancala_bao_free(ptr::null_mut()));
    ok!(c, mancala_rules_free(ptr::null_mut()));
    ok!(c, mancala_egdb_free(ptr::null_mut()));
    ok!(c, mancala_solver_free(ptr::null_mut()));
    ok!(c, mancala_engine_free(ptr::null_mut()));

    // The one database family, on the same Oware game and a Kalah one.
    let db_file = CString::new(dir.join("db.awari.n4.egdb").to_str().unwrap()).unwrap();
    let mut ag = ptr::null_mut();
    assert_eq!(
        unsafe { mancala_game_parse(awari_text.as_ptr(), awari_position.as_ptr(), &mut ag) },
        MancalaStatus::Ok
    );
    let mut d1 = ptr::null_mut();
    ok!(
        c,
        mancala_db_build(
            awari_text.as_ptr(),
            4,
            1,
            1,
            Some(go_on_build),
            ptr::null_mut(),
            10,
            &mut d1
        )
    );
    ok!(c, mancala_db_save(d1, db_file.as_ptr()));
    ok!(c, mancala_db_save_over(d1, db_file.as_ptr(), true));
    let mut d2 = ptr::null_mut();
    ok!(c, mancala_db_open(db_file.as_ptr(), &mut d2));
    let mut info = std::mem::MaybeUninit::<mancala::MancalaDbInfo>::uninit();
    ok!(c, mancala_db_info(d2, info.as_mut_ptr()));
    ok!(
        c,
        mancala_db_rules_print(d2, text.as_mut_ptr(), text.len(), &mut needed)
    );
    ok!(
        c,
        mancala_db_describe(d2, text.as_mut_ptr(), text.len(), &mut needed)
    );
    let (mut dfound, mut dvalue) = (false, 0);
    ok!(c, mancala_db_value(d2, ag, &mut dfound, &mut dvalue));
    assert!(dfound && dvalue == 2);
    let mut dvalues = [0i32; 8];
    let mut dcount = 0;
    ok!(
        c,
        mancala_db_move_values(d2, ag, &mut dfound, dvalues.as_mut_ptr(), 8, &mut dcount)
    );
    let mut d3 = ptr::null_mut();
    ok!(c, mancala_db_convert(d2, 2, &mut d3));
    let (mut denc, mut dbits, mut dmem) = (0u32, 0u32, 0u64);
    ok!(c, mancala_db_encoding(d3, &mut denc, &mut dbits, &mut dmem));
    let mut davg = 0.0f64;
    ok!(c, mancala_db_average_bits(d3, &mut davg));
    let mut d4 = ptr::null_mut();
    let mut dbuilt = -1;
    ok!(
        c,
        mancala_db_open_cached(
            small.as_ptr(),
            c_dir.as_ptr(),
            4,
            1,
            None,
            ptr::null_mut(),
            0,
            &mut d4,
            &mut dbuilt
        )
    );
    let mut engine = ptr::null_mut();
    ok!(
        c,
        mancala_engine_new(&MancalaEngineConfig::default(), &mut engine)
    );
    ok!(c, mancala_engine_set_db(engine, d2));
    ok!(c, mancala_engine_set_db(engine, ptr::null()));
    ok!(c, mancala_engine_set_estimates(engine, d2));
    ok!(c, mancala_engine_set_estimates(engine, ptr::null()));
    let mut solver = ptr::null_mut();
    ok!(
        c,
        mancala_solver_new(&MancalaSolverConfig::default(), &mut solver)
    );
    ok!(c, mancala_solver_set_db(solver, d4));
    ok!(c, mancala_solver_free(solver));
    ok!(c, mancala_engine_free(engine));
    for d in [d1, d2, d3, d4, ptr::null_mut()] {
        ok!(c, mancala_db_free(d));
    }
    ok!(c, mancala_game_free(ag));

    // Every function of the header was called successfully above.
    let declared = header_functions();
    assert_eq!(declared.len(), 115, "{declared:?}");
    let missing: Vec<&String> = declared.difference(&c.seen).collect();
    assert!(missing.is_empty(), "not checked: {missing:?}");

    // A failure replaces the message.
    assert_eq!(
        unsafe { mancala_kalah_free(g) },
        MancalaStatus::InvalidHandle
    );
    assert!(
        last_error().contains("not a live MancalaKalah handle"),
        "{}",
        last_error()
    );
}
