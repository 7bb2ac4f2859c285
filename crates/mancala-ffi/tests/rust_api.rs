//! The C API driven from Rust: arbitrary string inputs give a status (never a panic or a
//! crash), printing round-trips, and handles made, used and freed on many threads at once.
// The deprecated database calls (kept until 0.4.0) are checked to still work here.
#![allow(deprecated)]

use std::ffi::{c_char, CString};
use std::ptr;

use mancala::{MancalaKalah, MancalaRules, MancalaSide, MancalaStatus};
use mancala_solver::BuildOptions;
use proptest::prelude::*;

fn nul_terminated(bytes: &[u8]) -> Vec<u8> {
    let mut v: Vec<u8> = bytes.iter().map(|&b| if b == 0 { 1 } else { b }).collect();
    v.push(0);
    v
}

fn rules(text: &str) -> *mut MancalaRules {
    let text = CString::new(text).unwrap();
    let mut r = ptr::null_mut();
    assert_eq!(
        unsafe { mancala::rules::mancala_rules_new(text.as_ptr(), &mut r) },
        MancalaStatus::Ok
    );
    r
}

/// The last-error message of this thread.
fn last_error() -> String {
    let mut buf = [0 as c_char; 1024];
    let mut needed = 0;
    assert_eq!(
        unsafe { mancala::io::mancala_last_error(buf.as_mut_ptr(), buf.len(), &mut needed) },
        MancalaStatus::Ok
    );
    let bytes: Vec<u8> = buf[..needed - 1].iter().map(|&c| c as u8).collect();
    String::from_utf8(bytes).unwrap()
}

fn print_game(g: *const MancalaKalah) -> String {
    let mut buf = [0 as c_char; 64];
    let mut needed = 0;
    assert_eq!(
        unsafe { mancala::kalah::mancala_kalah_print(g, buf.as_mut_ptr(), buf.len(), &mut needed) },
        MancalaStatus::Ok
    );
    let bytes: Vec<u8> = buf[..needed - 1].iter().map(|&c| c as u8).collect();
    String::from_utf8(bytes).unwrap()
}

proptest! {
    // Few cases under Miri (`cargo +nightly miri test -p mancala-ffi --test rust_api`), which
    // runs each one thousands of times slower; no failure persistence (Miri isolates files).
    #![proptest_config(ProptestConfig {
        cases: if cfg!(miri) { 12 } else { 2000 },
        failure_persistence: if cfg!(miri) { None } else { ProptestConfig::default().failure_persistence },
        ..ProptestConfig::default()
    })]

    #[test]
    fn any_rules_text_gives_a_status(bytes in proptest::collection::vec(any::<u8>(), 0..40)) {
        let text = nul_terminated(&bytes);
        let mut r = ptr::null_mut();
        let status = unsafe { mancala::rules::mancala_rules_new(text.as_ptr().cast(), &mut r) };
        prop_assert!(matches!(
            status,
            MancalaStatus::Ok | MancalaStatus::BadRules | MancalaStatus::InvalidUtf8
        ));
        prop_assert_eq!(status == MancalaStatus::Ok, !r.is_null());
        prop_assert_eq!(unsafe { mancala::rules::mancala_rules_free(r) }, MancalaStatus::Ok);
    }

    #[test]
    fn rules_like_text_round_trips(
        m in 0u32..9, n in 0u32..20,
        opts in proptest::sample::subsequence(
            // Every option of the option table, and one that is not an option.
            mancala_core::kalah::KalahOption::TABLE
                .iter()
                .map(|row| row.name)
                .chain(["bogus"])
                .collect::<Vec<_>>(),
            0..4,
        )
    ) {
        let mut text = format!("kalah({m},{n})");
        for o in &opts {
            text += "+";
            text += o;
        }
        let c = CString::new(text.clone()).unwrap();
        let mut r = ptr::null_mut();
        let status = unsafe { mancala::rules::mancala_rules_new(c.as_ptr(), &mut r) };
        let valid = (1..=7).contains(&m) && n >= 1 && 2 * m * n <= 255 && !opts.contains(&"bogus");
        prop_assert_eq!(status == MancalaStatus::Ok, valid, "{}", text);
        if valid {
            let mut buf = [0 as c_char; 128];
            let mut needed = 0;
            let st = unsafe {
                mancala::rules::mancala_rules_print(r, buf.as_mut_ptr(), buf.len(), &mut needed)
            };
            prop_assert_eq!(st, MancalaStatus::Ok);
            let mut again = ptr::null_mut();
            prop_assert_eq!(
                unsafe { mancala::rules::mancala_rules_new(buf.as_ptr(), &mut again) },
                MancalaStatus::Ok
            );
            let mut buf2 = [0 as c_char; 128];
            let mut needed2 = 0;
            unsafe {
                mancala::rules::mancala_rules_print(again, buf2.as_mut_ptr(), buf2.len(), &mut needed2)
            };
            prop_assert_eq!(&buf[..needed], &buf2[..needed2]);
            unsafe { mancala::rules::mancala_rules_free(again) };
        }
        prop_assert_eq!(unsafe { mancala::rules::mancala_rules_free(r) }, MancalaStatus::Ok);
    }

    #[test]
    fn any_position_text_gives_a_status(
        bytes in proptest::collection::vec(any::<u8>(), 0..60),
        counts in proptest::collection::vec(0u16..300, 0..18),
        side in "[SN-]( swap)?",
    ) {
        let r = rules("kalah(6,4)+pie_rule");
        let numbers: Vec<String> = counts.iter().map(u16::to_string).collect();
        let shaped = format!("{} {side}", numbers.join(","));
        for text in [nul_terminated(&bytes), nul_terminated(shaped.as_bytes())] {
            let mut g = ptr::null_mut();
            let status =
                unsafe { mancala::kalah::mancala_kalah_parse(r, text.as_ptr().cast(), &mut g) };
            prop_assert!(matches!(
                status,
                MancalaStatus::Ok | MancalaStatus::BadPosition | MancalaStatus::InvalidUtf8
            ));
            if status == MancalaStatus::Ok {
                // A parsed position prints back to itself (notation is canonical for
                // canonical input) and can be played to the end through the API.
                let printed = print_game(g);
                let mut g2 = ptr::null_mut();
                let c = CString::new(printed.clone()).unwrap();
                prop_assert_eq!(
                    unsafe { mancala::kalah::mancala_kalah_parse(r, c.as_ptr(), &mut g2) },
                    MancalaStatus::Ok
                );
                prop_assert_eq!(print_game(g2), printed);
                unsafe { mancala::kalah::mancala_kalah_free(g2) };
            }
            prop_assert_eq!(unsafe { mancala::kalah::mancala_kalah_free(g) }, MancalaStatus::Ok);
        }
        unsafe { mancala::rules::mancala_rules_free(r) };
    }
}

/// A fresh scratch folder for one test, in Cargo's folder for the files of integration
/// tests; the guard removes it when the test ends, passed or failed.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("ffi-rust-api-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

/// Four threads make, play, read and free their own games while sharing one rule set;
/// handles of one thread stay valid while the others free theirs. (No double free here: a
/// freed address may be handed to another thread's new handle at once.)
#[test]
fn handles_on_many_threads() {
    let r = rules("standard") as usize;
    let threads: Vec<_> = (0..4)
        .map(|t| {
            std::thread::spawn(move || {
                let r = r as *const MancalaRules;
                for i in 0..if cfg!(miri) { 20 } else { 300 } {
                    let mut g = ptr::null_mut();
                    assert_eq!(
                        unsafe { mancala::kalah::mancala_kalah_new(r, &mut g) },
                        MancalaStatus::Ok
                    );
                    let mv = 1 + ((t + i) % 6) as u8;
                    assert_eq!(
                        unsafe { mancala::kalah::mancala_kalah_play(g, mv) },
                        MancalaStatus::Ok
                    );
                    let mut side = MancalaSide::None;
                    assert_eq!(
                        unsafe { mancala::kalah::mancala_kalah_side_to_move(g, &mut side) },
                        MancalaStatus::Ok
                    );
                    // House 3 is the only opening move that ends in the store.
                    let expected = if mv == 3 {
                        MancalaSide::South
                    } else {
                        MancalaSide::North
                    };
                    assert_eq!(side, expected);
                    assert_eq!(
                        unsafe { mancala::kalah::mancala_kalah_free(g) },
                        MancalaStatus::Ok
                    );
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    assert_eq!(
        unsafe { mancala::rules::mancala_rules_free(r as *mut MancalaRules) },
        MancalaStatus::Ok
    );
}

/// A table far beyond this machine's memory (32 TiB: 2^40 buckets, the largest size a table
/// takes) is refused with `MANCALA_STATUS_OUT_OF_MEMORY`, never an abort; the handles stay
/// usable. (Assumes less than 32 TiB of memory and swap, where the kernel refuses the map.)
#[test]
#[cfg_attr(miri, ignore = "allocation failure paths of a 32 TiB request")]
fn tables_beyond_memory_give_out_of_memory() {
    use mancala::engine::{MancalaEngineConfig, MancalaEngineResult};
    use mancala::solver::{MancalaSolution, MancalaSolverConfig};
    // Kalah(6,4): enough keys (about 2^40.3) for the solver's table to take all 32 TiB.
    let r = rules("standard");
    let mut game = ptr::null_mut();
    assert_eq!(
        unsafe { mancala::kalah::mancala_kalah_new(r, &mut game) },
        MancalaStatus::Ok
    );
    let huge = 1u64 << 45;

    let mut engine = ptr::null_mut();
    let config = MancalaEngineConfig {
        tt_bytes: huge,
        level: 10,
        seed: 1,
    };
    assert_eq!(
        unsafe { mancala::engine::mancala_engine_new(&config, &mut engine) },
        MancalaStatus::Ok
    );
    let mut out = MancalaEngineResult::default();
    for _ in 0..2 {
        assert_eq!(
            unsafe {
                mancala::engine::mancala_engine_kalah_bestmove(engine, game, 50, 0, &mut out)
            },
            MancalaStatus::OutOfMemory
        );
        // 2^45 bytes is a power of two of buckets: the table tried is the size asked for.
        assert_eq!(
            last_error(),
            "the transposition table does not fit in memory: tt_bytes 35184372088832 bytes \
             (32.0 TiB) asked for"
        );
    }
    assert_eq!(
        out,
        MancalaEngineResult::default(),
        "nothing written on failure"
    );
    assert_eq!(
        unsafe { mancala::engine::mancala_engine_free(engine) },
        MancalaStatus::Ok
    );

    let mut solver = ptr::null_mut();
    let config = MancalaSolverConfig {
        threads: 1,
        tt_bytes: huge,
        ..MancalaSolverConfig::default()
    };
    assert_eq!(
        unsafe { mancala::solver::mancala_solver_new(&config, &mut solver) },
        MancalaStatus::Ok
    );
    let mut solution = MancalaSolution::default();
    assert_eq!(
        unsafe { mancala::solver::mancala_solver_solve(solver, game, &mut solution) },
        MancalaStatus::OutOfMemory
    );
    assert_eq!(
        unsafe { mancala::solver::mancala_solver_free(solver) },
        MancalaStatus::Ok
    );
    assert_eq!(
        unsafe { mancala::kalah::mancala_kalah_free(game) },
        MancalaStatus::Ok
    );
    assert_eq!(
        unsafe { mancala::rules::mancala_rules_free(r) },
        MancalaStatus::Ok
    );
}

/// The solver's `tt_bytes` is capped by what the position can use (the header's text of
/// `MancalaSolverConfig.tt_bytes`): `UINT64_MAX` and 2^50 are accepted and solve Kalah(4,3)
/// from the start (a table of one bucket a key, 2^24 buckets: 512 MiB, mostly untouched) to
/// the value a solver with a 1 MiB table finds; the engine's `tt_bytes`, not capped by the
/// position, gives `MANCALA_STATUS_OUT_OF_MEMORY` for the same value.
#[test]
#[cfg_attr(miri, ignore = "a 512 MiB table")]
fn a_huge_solver_table_is_capped_by_the_position() {
    use mancala::engine::{MancalaEngineConfig, MancalaEngineResult};
    use mancala::solver::{MancalaSolution, MancalaSolverConfig};
    let r = rules("kalah(4,3)");
    let mut game = ptr::null_mut();
    assert_eq!(
        unsafe { mancala::kalah::mancala_kalah_new(r, &mut game) },
        MancalaStatus::Ok
    );
    let core_rules: mancala_core::kalah::KalahRules = "kalah(4,3)".parse().unwrap();
    let expected = mancala_solver::Solver::new()
        .threads(1)
        .tt_bytes(1 << 20)
        .solve(
            &mancala_core::kalah::KalahPosition::start(core_rules),
            mancala_solver::SolveOptions::new(),
        )
        .unwrap()
        .value;
    for huge in [u64::MAX, 1u64 << 50] {
        let mut solver = ptr::null_mut();
        let config = MancalaSolverConfig {
            threads: 1,
            tt_bytes: huge,
            ..MancalaSolverConfig::default()
        };
        assert_eq!(
            unsafe { mancala::solver::mancala_solver_new(&config, &mut solver) },
            MancalaStatus::Ok
        );
        let mut solution = MancalaSolution::default();
        assert_eq!(
            unsafe { mancala::solver::mancala_solver_solve(solver, game, &mut solution) },
            MancalaStatus::Ok,
            "tt_bytes {huge}"
        );
        assert!(solution.exact);
        assert_eq!(solution.value, expected, "tt_bytes {huge}");
        assert_eq!(
            unsafe { mancala::solver::mancala_solver_free(solver) },
            MancalaStatus::Ok
        );

        let mut engine = ptr::null_mut();
        let config = MancalaEngineConfig {
            tt_bytes: huge,
            level: 10,
            seed: 1,
        };
        assert_eq!(
            unsafe { mancala::engine::mancala_engine_new(&config, &mut engine) },
            MancalaStatus::Ok
        );
        let mut out = MancalaEngineResult::default();
        assert_eq!(
            unsafe {
                mancala::engine::mancala_engine_kalah_bestmove(engine, game, 50, 0, &mut out)
            },
            MancalaStatus::OutOfMemory,
            "engine tt_bytes {huge}"
        );
        // The message names the size asked for, then the one tried: rounded down to a power
        // of two and capped at 2^40 buckets of 64 bytes (the header's text of `tt_bytes`).
        assert_eq!(
            last_error(),
            format!(
                "the transposition table does not fit in memory: tt_bytes {huge} bytes ({} TiB) \
                 asked for, a table of {} bytes (64.0 TiB) tried",
                // 2^64 − 1 bytes is 2^24 TiB; 2^50 bytes 2^10 TiB; 2^46 bytes 64 TiB.
                if huge == u64::MAX {
                    "16777216.0"
                } else {
                    "1024.0"
                },
                1u64 << 46
            )
        );
        assert_eq!(
            unsafe { mancala::engine::mancala_engine_free(engine) },
            MancalaStatus::Ok
        );
    }
    assert_eq!(
        unsafe { mancala::kalah::mancala_kalah_free(game) },
        MancalaStatus::Ok
    );
    assert_eq!(
        unsafe { mancala::rules::mancala_rules_free(r) },
        MancalaStatus::Ok
    );
}

/// `mancala_egdb_load` and `mancala_egdb_verify` on a file that another thread keeps cutting
/// to 100 bytes and writing back in place: every call returns a status (OK, IO_ERROR or
/// CORRUPT_FILE), and a database loaded is whole. With a memory map of the file, a call
/// that touched a page past the cut died of SIGBUS and took the calling program with it.
#[test]
#[cfg_attr(miri, ignore = "threads rewriting a file")]
fn loading_a_file_that_changes_returns_a_status_not_a_signal() {
    use std::io::{Seek, SeekFrom, Write};
    use std::sync::atomic::{AtomicBool, Ordering};

    let scratch = scratch();
    let dir = scratch.path().join("changing");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("kalah4.k16.egdb");
    let r: mancala_core::kalah::KalahRules = "kalah(4,3)".parse().unwrap();
    let built = mancala_solver::Egdb::build(&r, 16, BuildOptions::new()).unwrap();
    built.save(&path).unwrap();
    let good = std::fs::read(&path).unwrap();
    let c_path = CString::new(path.to_str().unwrap()).unwrap();
    let stop = AtomicBool::new(false);
    let mut refused = 0;
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            while !stop.load(Ordering::Relaxed) {
                f.set_len(100).unwrap();
                std::thread::sleep(std::time::Duration::from_micros(200));
                f.seek(SeekFrom::Start(0)).unwrap();
                f.write_all(&good).unwrap();
                std::thread::sleep(std::time::Duration::from_micros(300));
            }
        });
        // Stops the writer however this loop ends (a failed assertion included).
        struct Stop<'a>(&'a AtomicBool);
        impl Drop for Stop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let _stop = Stop(&stop);
        for i in 0..200 {
            let status = if i % 2 == 0 {
                let mut db = ptr::null_mut();
                let st = unsafe { mancala::egdb::mancala_egdb_load(c_path.as_ptr(), &mut db) };
                if st == MancalaStatus::Ok {
                    let (mut m, mut k, mut n) = (0u8, 0u32, 0u64);
                    let info =
                        unsafe { mancala::egdb::mancala_egdb_info(db, &mut m, &mut k, &mut n) };
                    assert_eq!(info, MancalaStatus::Ok);
                    assert_eq!((m, k, n), (4, 16, built.len() as u64));
                    assert_eq!(
                        unsafe { mancala::egdb::mancala_egdb_free(db) },
                        MancalaStatus::Ok
                    );
                }
                st
            } else {
                let mut n = 0u64;
                unsafe { mancala::egdb::mancala_egdb_verify(c_path.as_ptr(), &mut n) }
            };
            match status {
                MancalaStatus::Ok => {}
                MancalaStatus::IoError | MancalaStatus::CorruptFile => refused += 1,
                other => panic!("unexpected status {other:?}"),
            }
        }
    });
    assert!(refused > 0, "no call met the damaged file");
}

/// Calls one of the text functions of the API (`game`, buffer, length, needed) with a
/// buffer of `len` bytes: the status, `*needed`, and the text written (on success).
fn text_of<G>(
    f: unsafe extern "C" fn(*const G, *mut c_char, usize, *mut usize) -> MancalaStatus,
    g: *const G,
    len: usize,
) -> (MancalaStatus, usize, Option<String>) {
    let mut buf = vec![0x55 as c_char; len];
    let mut needed = 0;
    let st = unsafe {
        f(
            g,
            if len == 0 {
                ptr::null_mut()
            } else {
                buf.as_mut_ptr()
            },
            len,
            &mut needed,
        )
    };
    let text = (st == MancalaStatus::Ok).then(|| {
        assert_eq!(buf[needed - 1], 0, "NUL-terminated");
        let bytes: Vec<u8> = buf[..needed - 1].iter().map(|&c| c as u8).collect();
        String::from_utf8(bytes).unwrap()
    });
    (st, needed, text)
}

/// The board drawings through the C API: the buffer protocol of the other text functions
/// (size asked with a NULL buffer of length 0, `BUFFER_TOO_SMALL` one byte short), the
/// layout of `mancala show` (North's houses from N6 down to N1 on top), and the largest
/// boards and notations within `MANCALA_DRAWING_MAX` and `MANCALA_NOTATION_MAX`.
#[test]
fn boards_are_drawn_into_caller_buffers() {
    use mancala::bao::{mancala_bao_draw, mancala_bao_free, mancala_bao_parse, mancala_bao_print};
    use mancala::kalah::{mancala_kalah_draw, mancala_kalah_free, mancala_kalah_parse};
    use mancala::{MANCALA_DRAWING_MAX, MANCALA_NOTATION_MAX};

    let parse_kalah = |r: *mut MancalaRules, text: &str| {
        let c = CString::new(text).unwrap();
        let mut g = ptr::null_mut();
        assert_eq!(
            unsafe { mancala_kalah_parse(r, c.as_ptr(), &mut g) },
            MancalaStatus::Ok
        );
        g
    };
    let standard = rules("standard");
    let g = parse_kalah(standard, "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S");
    let (st, needed, _) = text_of(mancala_kalah_draw, g, 0);
    assert_eq!(st, MancalaStatus::BufferTooSmall);
    let (st, again, _) = text_of(mancala_kalah_draw, g, needed - 1);
    assert_eq!((st, again), (MancalaStatus::BufferTooSmall, needed));
    let (st, written, text) = text_of(mancala_kalah_draw, g, needed);
    assert_eq!((st, written), (MancalaStatus::Ok, needed));
    let text = text.unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "        N6  N5  N4  N3  N2  N1");
    assert_eq!(lines[4], "        S1  S2  S3  S4  S5  S6");
    assert_eq!(lines[5], "South to move");
    assert_eq!(text.len() + 1, needed);
    unsafe { mancala_kalah_free(g) };
    unsafe { mancala::rules::mancala_rules_free(standard) };

    // Kalah(7,·): the widest board; the longest notation of all Kalah boards.
    let r7 = rules("kalah(7,4)+pie_rule");
    let longest = format!("100,{} N swap", vec!["10"; 15].join(","));
    for text in [longest.as_str(), "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,255 -"] {
        let g = parse_kalah(r7, text);
        let (st, needed, _) = text_of(mancala_kalah_draw, g, MANCALA_DRAWING_MAX);
        assert_eq!(st, MancalaStatus::Ok);
        assert!(needed < 400, "{needed}");
        let (st, needed, _) = text_of(mancala::kalah::mancala_kalah_print, g, MANCALA_NOTATION_MAX);
        assert_eq!(st, MancalaStatus::Ok);
        assert!(needed <= MANCALA_NOTATION_MAX);
        unsafe { mancala_kalah_free(g) };
    }
    unsafe { mancala::rules::mancala_rules_free(r7) };

    // Bao la Kete: the longest notation (83 bytes and the NUL fill MANCALA_NOTATION_MAX) and
    // the longest status line (a reserved pit with 7 blocked turns to come).
    let bao = rules("bao-la-kete+block_duration=8");
    let text =
        "0,0,0,0,10,10,1,1/10,0,0,0,0,0,0,0/0,0,0,0,10,10,1,1/10,0,0,0,0,0,0,0 0,0 SN S f2:7";
    let c = CString::new(text).unwrap();
    let mut g = ptr::null_mut();
    assert_eq!(
        unsafe { mancala_bao_parse(bao, c.as_ptr(), &mut g) },
        MancalaStatus::Ok
    );
    let (st, needed, printed) = text_of(mancala_bao_print, g, MANCALA_NOTATION_MAX);
    assert_eq!((st, needed), (MancalaStatus::Ok, MANCALA_NOTATION_MAX));
    assert_eq!(printed.as_deref(), Some(text));
    let (st, needed, drawing) = text_of(mancala_bao_draw, g, MANCALA_DRAWING_MAX);
    assert_eq!(st, MancalaStatus::Ok);
    assert!(needed < 400, "{needed}");
    let drawing = drawing.unwrap();
    assert_eq!(drawing.lines().count(), 9);
    assert!(drawing
        .ends_with("(pit 2 of North reserved by hizi zetu; 7 more blocked turns after this one)"));
    assert_eq!(drawing.matches('*').count(), 2, "both kuus stand");
    unsafe { mancala_bao_free(g) };
    unsafe { mancala::rules::mancala_rules_free(bao) };
}

/// `mancala_egdb_open_cached`: the first call builds and saves (`*built` 1), the second
/// reads the file (`*built` 0), a damaged file is rebuilt (1 again, the same bytes), a folder
/// with a file in its way is `MANCALA_STATUS_IO_ERROR`, and the callback can cancel.
#[test]
#[cfg_attr(miri, ignore = "builds and files")]
fn open_cached_builds_once_and_rebuilds_a_damaged_file() {
    use mancala::egdb::{mancala_egdb_free, mancala_egdb_info, mancala_egdb_open_cached};
    use mancala::progress::MancalaBuildProgress;

    unsafe extern "C" fn stop(_: *const MancalaBuildProgress, _: *mut std::ffi::c_void) -> i32 {
        1
    }
    let scratch = scratch();
    let dir = scratch.path().join("cache");
    let c_dir = CString::new(dir.to_str().unwrap()).unwrap();
    let r = rules("kalah(4,2)");
    let open = |k: u32| {
        let (mut db, mut built) = (ptr::null_mut(), -1);
        let st = unsafe {
            mancala_egdb_open_cached(
                r,
                c_dir.as_ptr(),
                k,
                1,
                None,
                ptr::null_mut(),
                0,
                &mut db,
                &mut built,
            )
        };
        (st, db, built)
    };
    let entries = |db: *mut mancala::egdb::MancalaEgdb| {
        let (mut m, mut k, mut n) = (0u8, 0u32, 0u64);
        assert_eq!(
            unsafe { mancala_egdb_info(db, &mut m, &mut k, &mut n) },
            MancalaStatus::Ok
        );
        assert_eq!(unsafe { mancala_egdb_free(db) }, MancalaStatus::Ok);
        (m, k, n)
    };
    // K chosen by the library: the 2mn = 16 seeds of Kalah(4,2), C(24, 8) entries.
    let (st, db, built) = open(0);
    assert_eq!((st, built), (MancalaStatus::Ok, 1));
    assert_eq!(entries(db), (4, 16, 735_471));
    let file = dir.join("kalah4.k16.egdb");
    let good = std::fs::read(&file).unwrap();
    let (st, db, built) = open(16);
    assert_eq!((st, built), (MancalaStatus::Ok, 0));
    assert_eq!(entries(db), (4, 16, 735_471));
    let mut bad = good.clone();
    bad[500] ^= 0xFF;
    std::fs::write(&file, &bad).unwrap();
    let (st, db, built) = open(16);
    assert_eq!((st, built), (MancalaStatus::Ok, 1));
    entries(db);
    assert_eq!(std::fs::read(&file).unwrap(), good);
    // A cancelled build writes nothing (K = 30: C(38, 8) = 48.9 M entries, seconds of work,
    // stopped at the first report; Kalah(4,4), same m and options: the 32 seeds of the game
    // allow K = 30).
    let r32 = rules("kalah(4,4)");
    let mut db = ptr::null_mut();
    let st = unsafe {
        mancala_egdb_open_cached(
            r32,
            c_dir.as_ptr(),
            30,
            1,
            Some(stop),
            ptr::null_mut(),
            0,
            &mut db,
            ptr::null_mut(),
        )
    };
    assert_eq!(st, MancalaStatus::Cancelled);
    assert!(db.is_null());
    assert!(!dir.join("kalah4.k30.egdb").exists());
    assert_eq!(
        unsafe { mancala::rules::mancala_rules_free(r32) },
        MancalaStatus::Ok
    );
    // A file where the folder should be.
    let blocked = dir.join("kalah4.k16.egdb").join("sub");
    let c_blocked = CString::new(blocked.to_str().unwrap()).unwrap();
    let mut db = ptr::null_mut();
    let st = unsafe {
        mancala_egdb_open_cached(
            r,
            c_blocked.as_ptr(),
            8,
            1,
            None,
            ptr::null_mut(),
            0,
            &mut db,
            ptr::null_mut(),
        )
    };
    assert_eq!(st, MancalaStatus::IoError);
    assert!(db.is_null());
    let file = dir.join("kalah4.k16.egdb");
    assert_eq!(
        last_error(),
        format!(
            "{}: {} is a file, not a folder",
            blocked.display(),
            file.display()
        )
    );
    // The file itself named as the folder, and a save into a folder that is a file.
    let c_file = CString::new(file.to_str().unwrap()).unwrap();
    let st = unsafe {
        mancala_egdb_open_cached(
            r,
            c_file.as_ptr(),
            8,
            1,
            None,
            ptr::null_mut(),
            0,
            &mut db,
            ptr::null_mut(),
        )
    };
    assert_eq!(st, MancalaStatus::IoError);
    assert_eq!(
        last_error(),
        format!("{}: it is a file, not a folder", file.display())
    );
    let (st, db, _) = open(16);
    assert_eq!(st, MancalaStatus::Ok);
    let inside = CString::new(file.join("x.egdb").to_str().unwrap()).unwrap();
    assert_eq!(
        unsafe { mancala::egdb::mancala_egdb_save(db, inside.as_ptr()) },
        MancalaStatus::IoError
    );
    assert!(
        last_error().ends_with(&format!("{} is a file, not a folder", file.display())),
        "{}",
        last_error()
    );
    assert_eq!(unsafe { mancala_egdb_free(db) }, MancalaStatus::Ok);
    assert_eq!(
        unsafe { mancala::rules::mancala_rules_free(r) },
        MancalaStatus::Ok
    );
}

/// `mancala_egdb_build_encoded`, `mancala_egdb_encoding` and `mancala_egdb_convert`: a packed
/// build holds the one-byte build's values in fewer bits, saves to the file the other
/// encoding's conversion saves, loads and verifies as packed; a bad encoding, a NULL or a
/// dead handle is a status with nothing written.
#[test]
fn databases_are_built_and_converted_in_either_encoding() {
    use mancala::egdb::{
        mancala_egdb_build, mancala_egdb_build_encoded, mancala_egdb_convert,
        mancala_egdb_encoding, mancala_egdb_free, mancala_egdb_load, mancala_egdb_save,
        mancala_egdb_value, mancala_egdb_verify, MancalaEgdb,
    };
    use mancala::kalah::{mancala_kalah_free, mancala_kalah_parse};
    use mancala::MancalaEgdbEncoding;

    let r = rules("kalah(4,3)");
    // K = 15, m = 4: C(23, 8) entries; the longest list of values a layer allows is that of
    // layer 15, its 16 shares and the 0 of a finished position: 17 codes, 5 bits.
    const K: u32 = 15;
    let entries = (1..=8u64).fold(1u64, |c, i| c * (u64::from(K) + i) / i);
    let packed_bytes = (entries * 5).div_ceil(8) + 8;
    let build = |encoding: u32| {
        let mut db = ptr::null_mut();
        let st = unsafe {
            mancala_egdb_build_encoded(r, K, encoding, 2, None, ptr::null_mut(), 0, &mut db)
        };
        (st, db)
    };
    let held = |db: *const MancalaEgdb| {
        let (mut e, mut bits, mut bytes) = (0u32, 0u32, 0u64);
        assert_eq!(
            unsafe { mancala_egdb_encoding(db, &mut e, &mut bits, &mut bytes) },
            MancalaStatus::Ok
        );
        (e, bits, bytes)
    };
    let (st, packed) = build(MancalaEgdbEncoding::Packed as u32);
    assert_eq!(st, MancalaStatus::Ok);
    let (st, byte) = build(MancalaEgdbEncoding::Byte as u32);
    assert_eq!(st, MancalaStatus::Ok);
    let mut plain = ptr::null_mut();
    assert_eq!(
        unsafe { mancala_egdb_build(r, K, 1, &mut plain) },
        MancalaStatus::Ok
    );
    assert_eq!(held(packed), (2, 5, packed_bytes));
    assert_eq!(held(byte), (1, 8, entries));
    assert_eq!(held(plain), (1, 8, entries));
    // Conversions both ways; saved, each is the other build's file byte for byte.
    let convert = |db: *const MancalaEgdb, encoding: u32| {
        let mut out = ptr::null_mut();
        let st = unsafe { mancala_egdb_convert(db, encoding, &mut out) };
        (st, out)
    };
    let (st, to_byte) = convert(packed, 1);
    assert_eq!((st, held(to_byte)), (MancalaStatus::Ok, (1, 8, entries)));
    let (st, to_packed) = convert(plain, 2);
    assert_eq!(
        (st, held(to_packed)),
        (MancalaStatus::Ok, (2, 5, packed_bytes))
    );
    let scratch = scratch();
    let dir = scratch.path().join("encoded");
    std::fs::create_dir_all(&dir).unwrap();
    let save = |db: *const MancalaEgdb, name: &str| {
        let path = dir.join(name);
        let c = CString::new(path.to_str().unwrap()).unwrap();
        assert_eq!(
            unsafe { mancala_egdb_save(db, c.as_ptr()) },
            MancalaStatus::Ok
        );
        (std::fs::read(&path).unwrap(), c)
    };
    let (packed_file, c_packed) = save(packed, "p.egdb");
    assert_eq!(save(to_packed, "p2.egdb").0, packed_file);
    assert_eq!(save(to_byte, "b2.egdb").0, save(plain, "b.egdb").0);
    assert_eq!(save(byte, "b3.egdb").0, save(plain, "b.egdb").0);
    // The file: 36 bytes of header, the rule text, the bit stream without its padding.
    assert_eq!(
        packed_file.len() as u64,
        36 + "kalah(4,3)".len() as u64 + packed_bytes - 8
    );
    // Loaded back it is packed, verify checks its entries, and it gives the same values.
    let mut loaded = ptr::null_mut();
    assert_eq!(
        unsafe { mancala_egdb_load(c_packed.as_ptr(), &mut loaded) },
        MancalaStatus::Ok
    );
    assert_eq!(held(loaded), (2, 5, packed_bytes));
    let mut n = 0u64;
    assert_eq!(
        unsafe { mancala_egdb_verify(c_packed.as_ptr(), &mut n) },
        MancalaStatus::Ok
    );
    assert_eq!(n, entries);
    for text in [
        "1,0,2,0,10,0,1,0,3,7 S",
        "0,0,0,4,8,1,1,2,0,8 N",
        "2,2,2,2,3,2,2,1,0,8 S",
        "3,2,2,1,5,2,2,2,1,4 S",
    ] {
        let c = CString::new(text).unwrap();
        let mut g = ptr::null_mut();
        assert_eq!(
            unsafe { mancala_kalah_parse(r, c.as_ptr(), &mut g) },
            MancalaStatus::Ok,
            "{text}: {}",
            last_error()
        );
        let value = |db: *const MancalaEgdb| {
            let (mut found, mut v) = (false, 0);
            assert_eq!(
                unsafe { mancala_egdb_value(db, g, &mut found, &mut v) },
                MancalaStatus::Ok
            );
            (found, v)
        };
        let want = value(plain);
        assert!(want.0, "{text}");
        for db in [packed, byte, to_byte, to_packed, loaded] {
            assert_eq!(value(db), want, "{text}");
        }
        assert_eq!(unsafe { mancala_kalah_free(g) }, MancalaStatus::Ok);
    }
    // Refused: an encoding that is none, NULL pointers, a freed handle; nothing written.
    for bad in [0u32, 4, u32::MAX] {
        let (st, db) = build(bad);
        assert_eq!(st, MancalaStatus::InvalidArgument, "{bad}");
        assert!(db.is_null());
        assert!(
            last_error().contains("is not a MancalaEgdbEncoding"),
            "{}",
            last_error()
        );
        let (st, db) = convert(packed, bad);
        assert_eq!(st, MancalaStatus::InvalidArgument, "{bad}");
        assert!(db.is_null());
    }
    // The compact encoding (3) is the Oware databases' only.
    let (st, db) = build(3);
    assert_eq!(st, MancalaStatus::InvalidArgument);
    assert!(db.is_null());
    assert!(
        last_error().contains("no compact encoding"),
        "{}",
        last_error()
    );
    let (st, db) = convert(packed, 3);
    assert_eq!(st, MancalaStatus::InvalidArgument);
    assert!(db.is_null());
    let st = unsafe {
        mancala_egdb_build_encoded(r, K, 2, 1, None, ptr::null_mut(), 0, ptr::null_mut())
    };
    assert_eq!(st, MancalaStatus::NullPointer);
    let st = unsafe { mancala_egdb_convert(packed, 1, ptr::null_mut()) };
    assert_eq!(st, MancalaStatus::NullPointer);
    let (mut e, mut bits, mut bytes) = (7u32, 7u32, 7u64);
    for st in [
        unsafe { mancala_egdb_encoding(packed, ptr::null_mut(), &mut bits, &mut bytes) },
        unsafe { mancala_egdb_encoding(packed, &mut e, ptr::null_mut(), &mut bytes) },
        unsafe { mancala_egdb_encoding(packed, &mut e, &mut bits, ptr::null_mut()) },
    ] {
        assert_eq!(st, MancalaStatus::NullPointer);
    }
    assert_eq!((e, bits, bytes), (7, 7, 7));
    for db in [packed, byte, plain, to_byte, to_packed, loaded] {
        assert_eq!(unsafe { mancala_egdb_free(db) }, MancalaStatus::Ok);
    }
    let st = unsafe { mancala_egdb_encoding(packed, &mut e, &mut bits, &mut bytes) };
    assert_eq!(st, MancalaStatus::InvalidHandle);
    assert_eq!((e, bits, bytes), (7, 7, 7));
    let (st, db) = convert(packed, 1);
    assert_eq!((st, db.is_null()), (MancalaStatus::InvalidHandle, true));
}

/// K above the seeds of the game (2·m·n: 24 for Kalah(4,3)) is refused by every build call
/// with `INVALID_ARGUMENT`, nothing written to `out`, and a one-line message naming the
/// largest K allowed.
#[test]
fn k_above_the_seeds_of_the_game_is_refused() {
    use mancala::egdb::{
        mancala_egdb_build, mancala_egdb_build_encoded, mancala_egdb_build_progress,
        mancala_egdb_open_cached,
    };
    let r = rules("kalah(4,3)");
    let scratch = scratch();
    let dir = scratch.path().join("k-above");
    let dir_c = std::ffi::CString::new(dir.to_str().unwrap()).unwrap();
    for k in [25u32, 40] {
        let mut out = ptr::null_mut();
        let mut built = 7i32;
        let statuses = [
            unsafe { mancala_egdb_build(r, k, 1, &mut out) },
            unsafe { mancala_egdb_build_progress(r, k, 1, None, ptr::null_mut(), 0, &mut out) },
            unsafe { mancala_egdb_build_encoded(r, k, 2, 1, None, ptr::null_mut(), 0, &mut out) },
            unsafe {
                mancala_egdb_open_cached(
                    r,
                    dir_c.as_ptr(),
                    k,
                    1,
                    None,
                    ptr::null_mut(),
                    0,
                    &mut out,
                    &mut built,
                )
            },
        ];
        for (i, st) in statuses.into_iter().enumerate() {
            assert_eq!(st, MancalaStatus::InvalidArgument, "K = {k}, call {i}");
        }
        assert!(out.is_null(), "K = {k}");
        let message = last_error();
        assert_eq!(
            message,
            format!("K = {k} is more seeds than kalah(4,3) has: the largest K allowed is 24")
        );
        assert!(!dir.exists() || std::fs::read_dir(&dir).unwrap().next().is_none());
    }
    assert_eq!(
        unsafe { mancala::rules::mancala_rules_free(r) },
        MancalaStatus::Ok
    );
}
