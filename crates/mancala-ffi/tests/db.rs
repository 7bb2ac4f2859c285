//! The one database family of the C API (`MancalaDb`, `mancala_db_*`) driven from Rust: Kalah
//! values checked against the exact solver (a search, independent of the retrograde build),
//! Oware values worked out by hand from the rules, files of either game opened by their
//! header and byte-identical to the library's own, the engine given a database, and the
//! error paths (NULL pointers, bad rules, games of other kinds or rules, small buffers).

use std::ffi::{c_char, CString};
use std::ptr;

use mancala::db::{
    mancala_db_average_bits, mancala_db_build, mancala_db_convert, mancala_db_describe,
    mancala_db_free, mancala_db_info, mancala_db_move_values, mancala_db_open,
    mancala_db_open_cached, mancala_db_rules_print, mancala_db_save, mancala_db_save_over,
    mancala_db_value,
};
use mancala::game::{mancala_game_free, mancala_game_parse};
use mancala::io::mancala_last_error;
use mancala::{
    MancalaDb, MancalaDbInfo, MancalaEgdbEncoding, MancalaGame, MancalaGameKind, MancalaStatus,
};
use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::egdb::Database;
use mancala_solver::{ExactValues, Solver};

fn c(text: &str) -> CString {
    CString::new(text).unwrap()
}

fn build(rules: &str, max_seeds: u32, encoding: MancalaEgdbEncoding) -> *mut MancalaDb {
    let mut db = ptr::null_mut();
    let r = c(rules);
    let st = unsafe {
        mancala_db_build(
            r.as_ptr(),
            max_seeds,
            encoding as u32,
            1,
            None,
            ptr::null_mut(),
            0,
            &mut db,
        )
    };
    assert_eq!(st, MancalaStatus::Ok, "{rules}");
    db
}

/// `mancala_db_open_cached(rules, dir, max_seeds)` with one thread and no progress: its
/// status, `*out` and `*built` (NULL and 7 when it did not write them).
fn open_cached(
    rules: &CString,
    dir: &CString,
    max_seeds: u32,
) -> (MancalaStatus, *mut MancalaDb, i32) {
    let (mut db, mut built) = (ptr::null_mut(), 7);
    let st = unsafe {
        mancala_db_open_cached(
            rules.as_ptr(),
            dir.as_ptr(),
            max_seeds,
            1,
            None,
            ptr::null_mut(),
            0,
            &mut db,
            &mut built,
        )
    };
    (st, db, built)
}

fn game(rules: &str, position: &str) -> *mut MancalaGame {
    let mut g = ptr::null_mut();
    let (r, p) = (c(rules), c(position));
    let st = unsafe { mancala_game_parse(r.as_ptr(), p.as_ptr(), &mut g) };
    assert_eq!(st, MancalaStatus::Ok, "{rules} {position}");
    g
}

fn info(db: *const MancalaDb) -> MancalaDbInfo {
    let mut i = std::mem::MaybeUninit::<MancalaDbInfo>::uninit();
    assert_eq!(
        unsafe { mancala_db_info(db, i.as_mut_ptr()) },
        MancalaStatus::Ok
    );
    unsafe { i.assume_init() }
}

fn text(
    db: *const MancalaDb,
    f: unsafe extern "C" fn(*const MancalaDb, *mut c_char, usize, *mut usize) -> MancalaStatus,
) -> String {
    let mut buf = [0 as c_char; 128];
    let mut needed = 0;
    assert_eq!(
        unsafe { f(db, buf.as_mut_ptr(), buf.len(), &mut needed) },
        MancalaStatus::Ok
    );
    let bytes: Vec<u8> = buf[..needed - 1].iter().map(|&b| b as u8).collect();
    String::from_utf8(bytes).unwrap()
}

/// The value (`None`: not held) and the move values of `g` from `db`.
fn values(db: *const MancalaDb, g: *const MancalaGame) -> (Option<i32>, Option<Vec<i32>>) {
    let (mut found, mut value) = (false, 99);
    assert_eq!(
        unsafe { mancala_db_value(db, g, &mut found, &mut value) },
        MancalaStatus::Ok
    );
    let v = found.then_some(value);
    if !found {
        assert_eq!(value, 0);
    }
    let mut buf = [77i32; 16];
    let (mut found, mut count) = (false, 99usize);
    assert_eq!(
        unsafe { mancala_db_move_values(db, g, &mut found, buf.as_mut_ptr(), 16, &mut count) },
        MancalaStatus::Ok
    );
    (v, found.then(|| buf[..count].to_vec()))
}

/// The last-error message of this thread.
fn last_error() -> String {
    let mut buf = [0 as c_char; 512];
    let mut needed = 0;
    let st = unsafe { mancala_last_error(buf.as_mut_ptr(), buf.len(), &mut needed) };
    assert_eq!(st, MancalaStatus::Ok);
    let bytes: Vec<u8> = buf[..needed - 1].iter().map(|&b| b as u8).collect();
    String::from_utf8(bytes).unwrap()
}

/// A fresh scratch folder for one test, in Cargo's folder for the files of integration
/// tests; the guard removes it when the test ends, passed or failed.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("ffi-db-{name}-"))
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

/// Kalah(3,3) positions with at most 8 seeds in the houses, from a fixed pseudo-random
/// sequence: their values and their moves' values from a database of K = 8 are those the
/// exact solver finds by search.
#[test]
fn kalah_values_are_the_exact_solvers() {
    let db = build("kalah(3,3)", 8, MancalaEgdbEncoding::Packed);
    let i = info(db);
    assert_eq!(i.game, MancalaGameKind::Kalah);
    assert_eq!((i.max_seeds, i.encoding), (8, 2));
    // C(8 + 6, 6) positions.
    assert_eq!(i.entries, 3003);
    assert_eq!(text(db, mancala_db_rules_print), "kalah(3,3)");
    assert_eq!(text(db, mancala_db_describe), "kalah(3,·), K = 8");

    let rules = KalahRules::standard().with_size(3, 3).unwrap();
    let solver = Solver::new().threads(1);
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: u32| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % u64::from(n)) as u32
    };
    let mut checked = 0;
    while checked < 40 {
        let houses: Vec<u32> = (0..6).map(|_| next(3)).collect();
        let in_houses: u32 = houses.iter().sum();
        if in_houses > 8 || houses[..3].iter().all(|&h| h == 0) {
            continue;
        }
        let south_store = next(18 - in_houses + 1);
        let north_store = 18 - in_houses - south_store;
        let position = format!(
            "{},{},{},{south_store},{},{},{},{north_store} S",
            houses[0], houses[1], houses[2], houses[3], houses[4], houses[5]
        );
        // A row may not be empty with the game still going on.
        let Ok(pos) = KalahPosition::parse(rules, &position) else {
            continue;
        };
        let g = game("kalah(3,3)", &position);
        let (value, moves) = values(db, g);
        assert_eq!(value, Some(solver.value_of(&pos).unwrap()), "{position}");
        let expected: Vec<i32> = solver
            .move_values_of(&pos)
            .unwrap()
            .into_iter()
            .map(|(_, v)| v)
            .collect();
        assert_eq!(moves, Some(expected), "{position}");
        unsafe { mancala_game_free(g) };
        checked += 1;
    }
    // More seeds than K: not held.
    let g = game("kalah(3,3)", "3,3,3,0,0,0,1,8 S");
    assert_eq!(values(db, g), (None, None));
    unsafe { mancala_game_free(g) };
    // Another n is served; another m is not.
    let g = game("kalah(3,4)", "1,0,0,11,0,0,1,11 S");
    assert!(values(db, g).0.is_some());
    unsafe { mancala_game_free(g) };
    let g = game("kalah(4,3)", "1,0,0,0,11,0,0,0,1,11 S");
    let (mut found, mut value) = (false, 5);
    assert_eq!(
        unsafe { mancala_db_value(db, g, &mut found, &mut value) },
        MancalaStatus::DatabaseMismatch
    );
    assert_eq!((found, value), (false, 5));
    unsafe { mancala_game_free(g) };
    unsafe { mancala_db_free(db) };
}

/// Oware boards worked out by hand from the rules (`docs/rules/oware.md`).
#[test]
fn oware_values_are_those_of_the_rules() {
    let db = build("awari", 8, MancalaEgdbEncoding::Byte);
    let i = info(db);
    assert_eq!(i.game, MancalaGameKind::Oware);
    assert_eq!((i.max_seeds, i.encoding, i.bits_per_entry), (8, 1, 8));
    // Sum over n = 0..8 of C(n+11,11) - C(n+5,11) (OW-11.1).
    assert_eq!((i.entries, i.memory_bytes), (125_879, 125_879));
    assert_eq!(text(db, mancala_db_rules_print), "awari");
    // OW-11.3's example: South's only seed in S6 sows N1 (1 -> 2), captured; North's row is
    // then empty and nothing is left: +2 for South, S6 the only legal move.
    let g = game("awari", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S");
    assert_eq!(values(db, g), (Some(2), Some(vec![2])));
    // The same values from the compact encoding.
    let mut compact = ptr::null_mut();
    assert_eq!(
        unsafe { mancala_db_convert(db, 3, &mut compact) },
        MancalaStatus::Ok
    );
    assert_eq!(values(compact, g), (Some(2), Some(vec![2])));
    // Its codes have no fixed width: the bits an entry takes are those of the saved file's
    // payload (the file less its 41-byte header) over the 125,879 boards, as `mancala egdb
    // info` prints them; the one-byte database's are 8.
    let scratch = scratch("compact-bits");
    let file = scratch.path().join("awari.n8.compact.egdb");
    let path = c(file.to_str().unwrap());
    assert_eq!(
        unsafe { mancala_db_save(compact, path.as_ptr()) },
        MancalaStatus::Ok
    );
    let payload_bits = (std::fs::metadata(&file).unwrap().len() - 41) * 8;
    let mut bits = 0.0f64;
    assert_eq!(
        unsafe { mancala_db_average_bits(compact, &mut bits) },
        MancalaStatus::Ok
    );
    assert_eq!(bits, payload_bits as f64 / 125_879.0);
    assert!(bits < 8.0, "{bits}");
    assert_eq!(
        unsafe { mancala_db_average_bits(db, &mut bits) },
        MancalaStatus::Ok
    );
    assert_eq!(bits, 8.0);
    assert_eq!(
        unsafe { mancala_db_average_bits(db, ptr::null_mut()) },
        MancalaStatus::NullPointer
    );
    unsafe { mancala_db_free(compact) };
    unsafe { mancala_game_free(g) };
    // Nine seeds in the houses: not held.
    let g = game("awari", "2,2,2,0,0,0,19,1,1,1,0,0,0,20 S");
    assert_eq!(values(db, g), (None, None));
    unsafe { mancala_game_free(g) };
    // The rule set `oware` (grand slams capture nothing... other values): refused, naming it.
    let g = game("oware", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S");
    let (mut found, mut value) = (false, 5);
    assert_eq!(
        unsafe { mancala_db_value(db, g, &mut found, &mut value) },
        MancalaStatus::DatabaseMismatch
    );
    unsafe { mancala_game_free(g) };
    // A Kalah game: refused.
    let g = game("kalah(3,3)", "1,0,0,8,0,0,1,8 S");
    assert_eq!(
        unsafe { mancala_db_value(db, g, &mut found, &mut value) },
        MancalaStatus::DatabaseMismatch
    );
    assert_eq!((found, value), (false, 5));
    unsafe { mancala_game_free(g) };
    unsafe { mancala_db_free(db) };
}

/// Every Oware rule set with a database is built through the family, and the database of a
/// rule set gives the values of that rule set: OW-11.3's two-seed board (South's only seed in
/// S6, North's in N1, 23 in each store), worked out by hand from `docs/rules/oware.md`. S6
/// sows N1 (1 -> 2) and leaves North no seed: a grand slam.
/// * `awari` (`unless_only`: every move is one) and `grand_slam=all`: it captures the 2,
///   nothing is left: +2.
/// * `grand_slam=none` (what `oware+majority=off+cycle_score=split` names) and `leave_last`
///   (the chain is North's house 1 alone, which is left): nothing is captured; North's 2
///   seeds in N1 cannot reach South, so North has no move and keeps his row: -2.
///
/// (Under `grand_slam=forbidden` South has no legal move there: the game is over, and the
/// notation gives no side to move.)
///
/// The Awari database refuses a game of another grand-slam rule, naming the rule.
#[test]
fn every_oware_rule_set_builds_its_own_database() {
    let board = "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S";
    let cases = [
        ("awari", "awari", 2),
        ("awari+grand_slam=all", "awari+grand_slam=all", 2),
        ("awari+grand_slam=none", "awari+grand_slam=none", -2),
        (
            "oware+majority=off+cycle_score=split",
            "awari+grand_slam=none",
            -2,
        ),
        (
            "awari+grand_slam=leave_last",
            "awari+grand_slam=leave_last",
            -2,
        ),
    ];
    let awari = build("awari", 2, MancalaEgdbEncoding::Byte);
    for (rules, database, value) in cases {
        let db = build(rules, 2, MancalaEgdbEncoding::Byte);
        let i = info(db);
        assert_eq!(
            (i.game, i.max_seeds),
            (MancalaGameKind::Oware, 2),
            "{rules}"
        );
        assert_eq!(
            text(db, mancala_db_describe),
            format!("{database}, levels 0..=2"),
            "{rules}"
        );
        let g = game(rules, board);
        // The only move, S6, is worth the position's value.
        assert_eq!(values(db, g), (Some(value), Some(vec![value])), "{rules}");
        // The Awari database holds the values of `awari` only.
        let (mut found, mut value) = (false, 5);
        let st = unsafe { mancala_db_value(awari, g, &mut found, &mut value) };
        if database == "awari" {
            assert_eq!((st, found, value), (MancalaStatus::Ok, true, 2));
        } else {
            assert_eq!(st, MancalaStatus::DatabaseMismatch, "{rules}");
            assert_eq!((found, value), (false, 5));
            let message = last_error();
            assert!(message.contains("grand_slam="), "{rules}: {message}");
        }
        unsafe { mancala_game_free(g) };
        unsafe { mancala_db_free(db) };
    }
    unsafe { mancala_db_free(awari) };
    // The cache keeps each rule set's database in its own file, and reads it back.
    let scratch = scratch("oware-cache");
    let dir = scratch.path().to_path_buf();
    let (r, d) = (
        c("oware+majority=off+cycle_score=split"),
        c(dir.to_str().unwrap()),
    );
    for expected in [1, 0] {
        let (st, db, built) = open_cached(&r, &d, 2);
        assert_eq!((st, built), (MancalaStatus::Ok, expected));
        assert_eq!(
            text(db, mancala_db_describe),
            "awari+grand_slam=none, levels 0..=2"
        );
        unsafe { mancala_db_free(db) };
    }
    assert!(dir.join("awari+grand_slam=none.n2.egdb").is_file());
    assert!(!dir.join("awari.n2.egdb").exists());
    // No database holds oware's values: the cache says so as the command does, and writes
    // nothing.
    let (st, db, built) = open_cached(&c("oware"), &d, 2);
    assert_eq!(
        (st, db, built),
        (MancalaStatus::DatabaseMismatch, ptr::null_mut(), 7)
    );
    assert_eq!(
        last_error(),
        "no database holds the values of oware, which has majority=stop, cycle_score=own_row"
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    std::fs::remove_dir_all(&dir).unwrap();
    // The rule set that forbids grand slams has its own database too.
    let db = build("awari+grand_slam=forbidden", 2, MancalaEgdbEncoding::Byte);
    assert_eq!(
        text(db, mancala_db_describe),
        "awari+grand_slam=forbidden, levels 0..=2"
    );
    unsafe { mancala_db_free(db) };
}

/// `mancala_db_open_cached` with the empty string as its folder is refused with
/// `MANCALA_STATUS_IO_ERROR` and writes nothing: it built the database and saved it in the
/// process's current folder.
#[test]
fn open_cached_refuses_the_empty_folder() {
    let name = std::path::Path::new("kalah2.k3.egdb");
    assert!(!name.exists());
    let (r, d) = (c("kalah(2,1)"), c(""));
    let (st, db, built) = open_cached(&r, &d, 3);
    assert_eq!(st, MancalaStatus::IoError);
    assert!(db.is_null() && built == 7);
    let message = last_error();
    assert!(
        message.ends_with("it names no folder (`.` is the current one)"),
        "{message}"
    );
    assert!(!name.exists());
}

/// A FIFO where a folder should be is named for what it is, never as "a file": as the cache
/// folder of `mancala_db_open_cached` (itself, or one above it), and above the file of
/// `mancala_db_save` and `mancala_db_open`. Each is `MANCALA_STATUS_IO_ERROR`, nothing is
/// written to `*out`, and the FIFO stays a FIFO with nothing built.
#[test]
#[cfg(unix)]
fn a_fifo_in_the_way_of_a_folder_is_named_as_such() {
    use std::os::unix::fs::FileTypeExt;
    let scratch = scratch("fifo-in-the-way");
    let dir = scratch.path().to_path_buf();
    let fifo = dir.join("fifo");
    let _ = std::fs::remove_file(&fifo);
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let f = fifo.to_str().unwrap();
    let below = format!("{f}/cache");
    let r = c("kalah(2,1)");
    for (folder, why) in [
        (
            f.to_string(),
            "it is a FIFO, socket or device, not a folder".to_string(),
        ),
        (
            below.clone(),
            format!("{f} is a FIFO, socket or device, not a folder"),
        ),
    ] {
        let d = c(&folder);
        let (st, db, built) = open_cached(&r, &d, 3);
        assert_eq!(st, MancalaStatus::IoError, "{folder}");
        assert!(db.is_null() && built == 7);
        assert_eq!(last_error(), format!("{folder}: {why}"));
    }
    let file = format!("{f}/kalah2.k3.egdb");
    let db = build("kalah(2,1)", 3, MancalaEgdbEncoding::Byte);
    let path = c(&file);
    assert_eq!(
        unsafe { mancala_db_save(db, path.as_ptr()) },
        MancalaStatus::IoError
    );
    let why = format!("{file}: {f} is a FIFO, socket or device, not a folder");
    assert_eq!(last_error(), why);
    unsafe { mancala_db_free(db) };
    let mut out = ptr::null_mut();
    assert_eq!(
        unsafe { mancala_db_open(path.as_ptr(), &mut out) },
        MancalaStatus::IoError
    );
    assert!(out.is_null());
    assert_eq!(last_error(), why);
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

/// A file saved through the family is the library's own file byte for byte, in either
/// encoding; `mancala_db_open` reads the game from the header.
#[test]
fn files_of_either_game_are_the_librarys_and_open_by_their_header() {
    let scratch = scratch("files");
    let dir = scratch.path().to_path_buf();
    for (rules, k) in [("kalah(3,3)", 7u32), ("awari", 6)] {
        let db = build(rules, k, MancalaEgdbEncoding::Byte);
        let path = dir.join(format!("{rules}.egdb"));
        let p = c(path.to_str().unwrap());
        assert_eq!(
            unsafe { mancala_db_save(db, p.as_ptr()) },
            MancalaStatus::Ok
        );
        // The same database built and saved by the library directly.
        let own = dir.join(format!("{rules}.own.egdb"));
        let parsed: mancala_core::Rules = rules.parse().unwrap();
        match parsed {
            mancala_core::Rules::Kalah(r) => {
                mancala_solver::Egdb::build(&r, k, mancala_solver::BuildOptions::new())
                    .unwrap()
                    .save(&own)
                    .unwrap();
            }
            mancala_core::Rules::Oware(r) => {
                <mancala_solver::awari::AwariDb as Database>::build(
                    &r,
                    k,
                    mancala_solver::BuildOptions::new(),
                )
                .unwrap()
                .save(&own)
                .unwrap();
            }
            _ => unreachable!(),
        }
        assert_eq!(std::fs::read(&path).unwrap(), std::fs::read(&own).unwrap());
        // Opened back: the same game, rules and size.
        let mut opened = ptr::null_mut();
        assert_eq!(
            unsafe { mancala_db_open(p.as_ptr(), &mut opened) },
            MancalaStatus::Ok
        );
        assert_eq!(info(opened), info(db));
        assert_eq!(text(opened, mancala_db_rules_print), rules);
        // Packed and back: the same file.
        let mut packed = ptr::null_mut();
        assert_eq!(
            unsafe { mancala_db_convert(opened, 2, &mut packed) },
            MancalaStatus::Ok
        );
        assert_eq!(info(packed).encoding, 2);
        let mut byte = ptr::null_mut();
        assert_eq!(
            unsafe { mancala_db_convert(packed, 1, &mut byte) },
            MancalaStatus::Ok
        );
        // A file of its own for each rule set: a save keeps another database.
        let back_path = dir.join(format!("{rules}.back.egdb"));
        let back = c(back_path.to_str().unwrap());
        assert_eq!(
            unsafe { mancala_db_save(byte, back.as_ptr()) },
            MancalaStatus::Ok
        );
        assert_eq!(
            std::fs::read(&back_path).unwrap(),
            std::fs::read(&own).unwrap()
        );
        // Compact (the Oware databases only) and back: the same file; a Kalah database
        // refuses it.
        let mut compact = ptr::null_mut();
        let status = unsafe { mancala_db_convert(opened, 3, &mut compact) };
        if rules == "awari" {
            assert_eq!(status, MancalaStatus::Ok);
            assert_eq!(info(compact).encoding, 3);
            let mut again = ptr::null_mut();
            assert_eq!(
                unsafe { mancala_db_convert(compact, 1, &mut again) },
                MancalaStatus::Ok
            );
            assert_eq!(
                unsafe { mancala_db_save(again, back.as_ptr()) },
                MancalaStatus::Ok
            );
            assert_eq!(
                std::fs::read(&back_path).unwrap(),
                std::fs::read(&own).unwrap()
            );
            for h in [compact, again] {
                assert_eq!(unsafe { mancala_db_free(h) }, MancalaStatus::Ok);
            }
        } else {
            assert_eq!(status, MancalaStatus::InvalidArgument);
            assert!(compact.is_null());
        }
        for h in [db, opened, packed, byte] {
            assert_eq!(unsafe { mancala_db_free(h) }, MancalaStatus::Ok);
        }
    }
}

#[test]
fn refusals_are_statuses_and_write_nothing() {
    let sentinel = 0x10 as *mut MancalaDb;
    let mut out = sentinel;
    let build_of = |rules: &str, k: u32, encoding: u32, out: &mut *mut MancalaDb| {
        let r = c(rules);
        unsafe { mancala_db_build(r.as_ptr(), k, encoding, 1, None, ptr::null_mut(), 0, out) }
    };
    assert_eq!(
        build_of("kalah(9,9)", 2, 1, &mut out),
        MancalaStatus::BadRules
    );
    assert_eq!(
        build_of("kalah(3,3)", 2, 3, &mut out),
        MancalaStatus::InvalidArgument
    );
    assert_eq!(
        build_of("bao-la-kete", 2, 1, &mut out),
        MancalaStatus::InvalidArgument
    );
    assert_eq!(
        build_of("togyz-kumalak", 2, 1, &mut out),
        MancalaStatus::InvalidArgument
    );
    assert_eq!(
        build_of("oware", 2, 1, &mut out),
        MancalaStatus::DatabaseMismatch
    );
    // No database holds oware's values (its majority end and cycles to the own rows): said
    // so, as the command says it, never as if a database of other rules stood in the way.
    assert_eq!(
        last_error(),
        "no database holds the values of oware, which has majority=stop, cycle_score=own_row"
    );
    assert_eq!(
        build_of("awari", 49, 1, &mut out),
        MancalaStatus::InvalidArgument
    );
    // In the Awari databases' terms (docs/awari.md): N, the most seeds in the houses.
    assert_eq!(
        last_error(),
        "N = 49 is more seeds than awari has: the largest N allowed is 48"
    );
    assert_eq!(out, sentinel);
    assert_eq!(
        unsafe { mancala_db_build(ptr::null(), 2, 1, 1, None, ptr::null_mut(), 0, &mut out) },
        MancalaStatus::NullPointer
    );
    let missing = c("/nonexistent/folder/x.egdb");
    assert_eq!(
        unsafe { mancala_db_open(missing.as_ptr(), &mut out) },
        MancalaStatus::IoError
    );
    assert_eq!(out, sentinel);
    // A file that is not a database.
    let scratch = scratch("refusals");
    let dir = scratch.path().to_path_buf();
    let junk = dir.join("junk.egdb");
    std::fs::write(&junk, b"not a database at all, not even its header").unwrap();
    let junk_c = c(junk.to_str().unwrap());
    assert_eq!(
        unsafe { mancala_db_open(junk_c.as_ptr(), &mut out) },
        MancalaStatus::CorruptFile
    );
    assert_eq!(out, sentinel);
    std::fs::remove_dir_all(&dir).unwrap();

    // A buffer too small for the move values: the count needed, nothing else.
    let db = build("awari", 4, MancalaEgdbEncoding::Byte);
    let g = game("awari", "1,1,0,0,0,0,23,1,0,0,0,0,0,22 S");
    let (mut found, mut count) = (false, 0usize);
    let mut one = [5i32; 1];
    assert_eq!(
        unsafe { mancala_db_move_values(db, g, &mut found, one.as_mut_ptr(), 1, &mut count) },
        MancalaStatus::BufferTooSmall
    );
    assert_eq!((found, count, one), (false, 2, [5]));
    assert_eq!(
        unsafe { mancala_db_move_values(db, g, &mut found, ptr::null_mut(), 0, &mut count) },
        MancalaStatus::BufferTooSmall
    );
    assert_eq!(
        unsafe { mancala_db_move_values(db, g, ptr::null_mut(), one.as_mut_ptr(), 1, &mut count) },
        MancalaStatus::NullPointer
    );
    // A NULL buffer with a length is named as the header names it.
    assert_eq!(
        unsafe { mancala_db_move_values(db, g, &mut found, ptr::null_mut(), 2, &mut count) },
        MancalaStatus::NullPointer
    );
    assert_eq!(last_error(), "argument `values` is NULL");
    // The buffer is checked whether or not the database holds the position: the start of
    // Awari (48 seeds, above N = 4) has six legal moves, one a house of four seeds; a
    // buffer of one is too small, six is enough (and then nothing is found, no value).
    let start = game("awari", "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S");
    let mut found = true;
    assert_eq!(
        unsafe { mancala_db_move_values(db, start, &mut found, one.as_mut_ptr(), 1, &mut count) },
        MancalaStatus::BufferTooSmall
    );
    assert_eq!((found, count, one), (true, 6, [5]));
    let mut six = [5i32; 6];
    assert_eq!(
        unsafe { mancala_db_move_values(db, start, &mut found, six.as_mut_ptr(), 6, &mut count) },
        MancalaStatus::Ok
    );
    assert_eq!((found, count, six), (false, 0, [5; 6]));
    unsafe { mancala_game_free(start) };
    let mut value = 0;
    assert_eq!(
        unsafe { mancala_db_value(db, ptr::null(), &mut found, &mut value) },
        MancalaStatus::NullPointer
    );
    // A game handle passed as a database, a freed database.
    assert_eq!(
        unsafe { mancala_db_value(g.cast(), g, &mut found, &mut value) },
        MancalaStatus::InvalidHandle
    );
    assert_eq!(unsafe { mancala_db_free(db) }, MancalaStatus::Ok);
    assert_eq!(
        unsafe { mancala_db_value(db, g, &mut found, &mut value) },
        MancalaStatus::InvalidHandle
    );
    assert_eq!(
        unsafe { mancala_db_free(ptr::null_mut()) },
        MancalaStatus::Ok
    );
    unsafe { mancala_game_free(g) };
}

/// The engine given an Oware database plays the board of OW-11.3 exactly: its only move,
/// worth the two seeds it captures.
#[test]
fn an_engine_given_a_database_plays_exactly() {
    use mancala::engine::{
        mancala_engine_bestmove, mancala_engine_free, mancala_engine_new, mancala_engine_set_db,
    };
    use mancala::{MancalaEngineConfig, MancalaEngineResult};
    let db = build("awari", 8, MancalaEgdbEncoding::Byte);
    let kalah = build("kalah(3,3)", 4, MancalaEgdbEncoding::Byte);
    let mut engine = ptr::null_mut();
    let config = MancalaEngineConfig {
        tt_bytes: 1 << 16,
        level: 10,
        seed: 0,
    };
    assert_eq!(
        unsafe { mancala_engine_new(&config, &mut engine) },
        MancalaStatus::Ok
    );
    assert_eq!(
        unsafe { mancala_engine_set_db(engine, db) },
        MancalaStatus::Ok
    );
    // A database of another game leaves this one's in place.
    assert_eq!(
        unsafe { mancala_engine_set_db(engine, kalah) },
        MancalaStatus::Ok
    );
    // The engine keeps its own reference.
    assert_eq!(unsafe { mancala_db_free(db) }, MancalaStatus::Ok);
    let g = game("awari", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S");
    let mut buf = [0 as c_char; 8];
    let mut needed = 0;
    let mut result = MancalaEngineResult::default();
    assert_eq!(
        unsafe {
            mancala_engine_bestmove(
                engine,
                g,
                0,
                10_000,
                buf.as_mut_ptr(),
                8,
                &mut needed,
                &mut result,
            )
        },
        MancalaStatus::Ok
    );
    assert_eq!(&buf[..needed], &[b'6' as c_char, 0]);
    assert!(result.exact);
    assert_eq!(result.score, 2 * mancala::engine::MANCALA_ENGINE_SEED);
    // The Kalah database does not serve Kalah(4,·): that search is refused.
    let k4 = game("kalah(4,3)", "1,0,0,0,11,0,0,0,1,11 S");
    assert_eq!(
        unsafe {
            mancala_engine_bestmove(
                engine,
                k4,
                0,
                1000,
                buf.as_mut_ptr(),
                8,
                &mut needed,
                &mut result,
            )
        },
        MancalaStatus::DatabaseMismatch
    );
    // NULL removes every database: the search is allowed again.
    assert_eq!(
        unsafe { mancala_engine_set_db(engine, ptr::null()) },
        MancalaStatus::Ok
    );
    assert_eq!(
        unsafe {
            mancala_engine_bestmove(
                engine,
                k4,
                0,
                1000,
                buf.as_mut_ptr(),
                8,
                &mut needed,
                &mut result,
            )
        },
        MancalaStatus::Ok
    );
    for g in [g, k4] {
        unsafe { mancala_game_free(g) };
    }
    unsafe { mancala_db_free(kalah) };
    unsafe { mancala_engine_free(engine) };
}

/// What `mancala_db_open_cached` does for each occupant its header text names. At the
/// folder's name: a broken symbolic link is `MANCALA_STATUS_IO_ERROR` naming it (nothing is
/// built); a link to a folder is a folder. At the cached file's name: a FIFO or a folder is
/// built for the call but not kept (`*built` 2) and left as it is; a symbolic link that
/// leads nowhere is passed over and replaced with the file (`*built` 1).
#[test]
#[cfg(unix)]
fn every_occupant_of_the_cache_is_as_the_header_says() {
    use std::os::unix::fs::FileTypeExt;
    let scratch = scratch("cache-occupants");
    let dir = scratch.path().to_path_buf();
    let r = c("kalah(2,1)");
    // The folder: a link to nothing, then a link to a folder.
    let nowhere = dir.join("nowhere");
    std::os::unix::fs::symlink(dir.join("missing"), &nowhere).unwrap();
    let n = nowhere.to_str().unwrap();
    let (st, db, built) = open_cached(&r, &c(n), 3);
    assert_eq!(st, MancalaStatus::IoError);
    assert!(db.is_null() && built == 7);
    assert_eq!(
        last_error(),
        format!("{n}: it is a symbolic link that leads nowhere (a loop, or a missing target), not a folder")
    );
    assert!(!dir.join("missing").exists());
    let real = dir.join("real");
    std::fs::create_dir(&real).unwrap();
    let to_folder = dir.join("to-folder");
    std::os::unix::fs::symlink(&real, &to_folder).unwrap();
    let (st, db, built) = open_cached(&r, &c(to_folder.to_str().unwrap()), 3);
    assert_eq!((st, built), (MancalaStatus::Ok, 1));
    unsafe { mancala_db_free(db) };
    assert!(real.join("kalah2.k3.egdb").is_file());
    // The cached file's name: a FIFO, a folder, a link that leads nowhere.
    for what in ["fifo", "folder", "broken link"] {
        let cache = dir.join(what.replace(' ', "-"));
        std::fs::create_dir(&cache).unwrap();
        let file = cache.join("kalah2.k3.egdb");
        match what {
            "fifo" => {
                let made = std::process::Command::new("mkfifo").arg(&file).status();
                assert!(made.is_ok_and(|s| s.success()), "mkfifo");
            }
            "folder" => std::fs::create_dir(&file).unwrap(),
            _ => std::os::unix::fs::symlink("kalah2.k3.egdb", &file).unwrap(),
        }
        let (st, db, built) = open_cached(&r, &c(cache.to_str().unwrap()), 3);
        assert_eq!(st, MancalaStatus::Ok, "{what}");
        assert!(!db.is_null(), "{what}");
        unsafe { mancala_db_free(db) };
        let t = std::fs::symlink_metadata(&file).unwrap().file_type();
        match what {
            "fifo" => assert!(built == 2 && t.is_fifo(), "{what}: {built}"),
            "folder" => assert!(built == 2 && t.is_dir(), "{what}: {built}"),
            _ => assert!(built == 1 && t.is_file(), "{what}: {built}"),
        }
    }
}

/// A build that cannot fit in this machine's memory is refused before any work, with
/// `MANCALA_STATUS_OUT_OF_MEMORY`, as `mancala egdb build` refuses it: the Awari database of
/// 48 seeds holds C(60, 12) ≈ 1.4 · 10^12 boards, a byte each, far more than any machine
/// running these tests has. Without the check the build started (its memory growing level by
/// level): the progress callback, called after each level, would have been called (and
/// stopped it, `MANCALA_STATUS_CANCELLED`).
#[test]
#[cfg(target_os = "linux")]
fn a_build_that_cannot_fit_is_refused_before_any_work() {
    unsafe extern "C" fn stop(
        _: *const mancala::MancalaBuildProgress,
        called: *mut std::ffi::c_void,
    ) -> std::ffi::c_int {
        // SAFETY: `called` is the test's `bool`, alive across the build.
        unsafe { *called.cast::<bool>() = true };
        1
    }
    for encoding in [MancalaEgdbEncoding::Byte, MancalaEgdbEncoding::Packed] {
        let mut called = false;
        let sentinel = std::ptr::dangling_mut::<MancalaDb>();
        let mut out = sentinel;
        let r = c("awari");
        let st = unsafe {
            mancala_db_build(
                r.as_ptr(),
                48,
                encoding as u32,
                1,
                Some(stop),
                (&raw mut called).cast(),
                0,
                &mut out,
            )
        };
        assert_eq!(
            st,
            MancalaStatus::OutOfMemory,
            "{encoding:?}: {}",
            last_error()
        );
        assert!(!called, "{encoding:?}: the build started");
        assert_eq!(out, sentinel);
        assert!(
            last_error().contains("does not fit in memory"),
            "{}",
            last_error()
        );
    }
}

/// `mancala_db_save` writes over nothing but the same database: a file holding another
/// database (another N) or no database is refused with `MANCALA_STATUS_IO_ERROR`, naming the
/// file and what it holds, and left byte for byte; `mancala_db_save_over` with `overwrite`
/// writes over it.
#[test]
fn a_save_keeps_another_database_unless_told_to_overwrite() {
    let dir = scratch("save-over");
    let path = dir.path().join("awari.n3.egdb");
    let p = c(path.to_str().unwrap());
    let (two, three) = (
        build("awari", 2, MancalaEgdbEncoding::Byte),
        build("awari", 3, MancalaEgdbEncoding::Byte),
    );
    assert_eq!(
        unsafe { mancala_db_save(three, p.as_ptr()) },
        MancalaStatus::Ok
    );
    let bytes = std::fs::read(&path).unwrap();
    // The same database again is saved.
    assert_eq!(
        unsafe { mancala_db_save(three, p.as_ptr()) },
        MancalaStatus::Ok
    );
    // Another N is refused, by either function without `overwrite`.
    for st in [unsafe { mancala_db_save(two, p.as_ptr()) }, unsafe {
        mancala_db_save_over(two, p.as_ptr(), false)
    }] {
        assert_eq!(st, MancalaStatus::FileExists);
        let message = last_error();
        assert!(
            message.ends_with(
                "awari.n3.egdb: already exists and holds another database (awari, levels 0..=3, byte encoding): not written over with awari, levels 0..=2, byte encoding; a save told to overwrite writes over it"
            ),
            "{message}"
        );
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
    }
    // Told to overwrite, it writes the N = 2 database there.
    assert_eq!(
        unsafe { mancala_db_save_over(two, p.as_ptr(), true) },
        MancalaStatus::Ok
    );
    let mut back = ptr::null_mut();
    assert_eq!(
        unsafe { mancala_db_open(p.as_ptr(), &mut back) },
        MancalaStatus::Ok
    );
    assert_eq!(info(back).max_seeds, 2);
    unsafe {
        mancala_db_free(back);
        mancala_db_free(two);
        mancala_db_free(three);
    }
}
