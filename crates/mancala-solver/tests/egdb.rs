//! Endgame databases: entries equal search values, save/open round trips, and every damaged
//! or mismatched file is refused with a typed error.

use std::sync::Arc;

use mancala_core::kalah::{KalahOption, KalahPosition, KalahRules};
use mancala_core::Side;
use mancala_solver::{BuildOptions, Egdb, EgdbError, SolveError, SolveOptions, Solver};
use proptest::prelude::*;

/// A scratch folder of one test, in Cargo's folder for the files of integration tests; the
/// guard removes it when the test ends, passed or failed.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("egdb-test-")
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

/// A position of `rules` with these houses (South's, then North's), South to move.
fn pos(rules: KalahRules, houses: &[u8], north: bool) -> Option<KalahPosition> {
    let m = rules.houses() as usize;
    let mut slots = houses[..m].to_vec();
    slots.push(0);
    slots.extend_from_slice(&houses[m..2 * m]);
    slots.push(0);
    let side = if north { Side::North } else { Side::South };
    KalahPosition::new(rules, &slots, Some(side), false).ok()
}

/// The names of the options that change the database: those of the option table
/// (`KalahOption::TABLE`) marked `changes_database`, so that a new one is drawn too.
fn database_options() -> Vec<&'static str> {
    KalahOption::TABLE
        .iter()
        .filter(|row| row.changes_database)
        .map(|row| row.name)
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, .. ProptestConfig::default() })]

    #[test]
    fn entries_equal_search_values(
        subset in 0u32..1 << database_options().len(),
        seeds in proptest::collection::vec(0u8..3, 8),
        north in any::<bool>(),
    ) {
        let mut text = String::from("kalah(4,2)");
        for (i, name) in database_options().into_iter().enumerate() {
            if subset >> i & 1 != 0 {
                text.push('+');
                text.push_str(name);
            }
        }
        let rules: KalahRules = text.parse().unwrap();
        let db = Egdb::build(&rules, 16, BuildOptions::new()).unwrap();
        prop_assert!(db.check_entries().is_ok());
        if let Some(p) = pos(rules, &seeds, north) {
            let mut solver = Solver::new().threads(1).tt_bytes(1 << 16);
            let v = solver.solve(&p, SolveOptions::new()).unwrap().value;
            // The database holds no opening position (the start setup with South to move
            // is South's first move: `Egdb::value` documents `None` for it).
            let opening = p.is_first_move() || p.swap_offered() || p.in_opening_turn();
            let expected = if opening { None } else { Some(v) };
            prop_assert_eq!(db.value(&p), expected, "{} {}", text, p);
            // And the solver with the database agrees.
            let mut with_db = Solver::new().threads(1).tt_bytes(1 << 16).database(Arc::new(db));
            prop_assert_eq!(with_db.solve(&p, SolveOptions::new()).unwrap().value, v);
        }
    }
}

#[test]
fn six_house_database_matches_search_on_every_small_position() {
    let rules: KalahRules = "kalah(6,4)".parse().unwrap();
    let db = Egdb::build(&rules, 6, BuildOptions::new()).unwrap();
    assert_eq!(db.len(), 18_564); // C(6 + 12, 12)
    let mut solver = Solver::new().threads(1).tt_bytes(1 << 20);
    let mut checked = 0;
    // Positions with up to 4 seeds: every distribution over 12 houses.
    let mut houses = [0u8; 12];
    loop {
        if houses.iter().map(|&c| u32::from(c)).sum::<u32>() <= 4 {
            if let Some(p) = pos(rules, &houses, false) {
                assert_eq!(
                    db.value(&p),
                    Some(solver.solve(&p, SolveOptions::new()).unwrap().value),
                    "{p}"
                );
                checked += 1;
            }
        }
        // Next vector in 0..=4 per house, stopping after the last.
        let mut i = 0;
        while i < 12 && houses[i] == 4 {
            houses[i] = 0;
            i += 1;
        }
        if i == 12 {
            break;
        }
        houses[i] += 1;
        if houses.iter().map(|&c| u32::from(c)).sum::<u32>() > 4 {
            // Skip quickly over vectors with too many seeds.
            continue;
        }
    }
    assert!(checked > 1000);
}

#[test]
fn save_open_round_trip_and_damaged_files_are_refused() {
    let rules: KalahRules = "kalah(5,3)+empty_capture".parse().unwrap();
    let db = Egdb::build(&rules, 10, BuildOptions::new()).unwrap();
    let scratch = scratch();
    let tmp = |name: &str| scratch.path().join(name);
    let path = tmp("k10.egdb");
    db.save(&path).unwrap();
    let back = Egdb::open(&path).unwrap();
    assert_eq!(back.payload(), db.payload());
    assert_eq!(back.max_seeds(), 10);
    let info = Egdb::info(&path).unwrap();
    assert_eq!(info.rules, "kalah(5,3)+empty_capture");
    assert_eq!(info.bits_per_entry, 8);
    assert_eq!(info.entries, db.len() as u64);
    let loaded = Egdb::load(&path).unwrap();
    assert_eq!(loaded.payload(), db.payload());

    let good = std::fs::read(&path).unwrap();
    let write = |name: &str, bytes: &[u8]| {
        let p = tmp(name);
        std::fs::write(&p, bytes).unwrap();
        p
    };
    // A flipped payload byte: checksum.
    let mut bad = good.clone();
    let last = bad.len() - 7;
    bad[last] ^= 0x40;
    assert!(matches!(
        Egdb::open(write("payload.egdb", &bad)),
        Err(EgdbError::Checksum { .. })
    ));
    // Truncated anywhere: header or payload.
    for cut in [0, 5, 20, 40, good.len() - 1] {
        let r = Egdb::open(write("cut.egdb", &good[..cut]));
        assert!(
            matches!(r, Err(EgdbError::Truncated { .. })),
            "cut at {cut}: {r:?}"
        );
    }
    // Trailing garbage, a damaged header field, a bad magic, an unknown version.
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(
        Egdb::open(write("long.egdb", &longer)),
        Err(EgdbError::TooLong { .. })
    ));
    let mut field = good.clone();
    field[13] = 11; // K
    assert!(matches!(
        Egdb::open(write("field.egdb", &field)),
        Err(EgdbError::Header(_))
    ));
    let mut magic = good.clone();
    magic[0] = b'X';
    assert!(matches!(
        Egdb::open(write("magic.egdb", &magic)),
        Err(EgdbError::BadMagic(_))
    ));
    let mut version = good.clone();
    version[8] = 9;
    assert!(matches!(
        Egdb::open(write("version.egdb", &version)),
        Err(EgdbError::Version { found: 9, .. })
    ));
    assert!(matches!(
        Egdb::open(tmp("missing.egdb")),
        Err(EgdbError::Io { .. })
    ));

    // Other rules are refused, by the file opener and by the solver.
    let standard: KalahRules = "kalah(5,3)".parse().unwrap();
    assert!(matches!(
        Egdb::open_for(&path, &standard),
        Err(EgdbError::RulesMismatch { .. })
    ));
    // Another n with the same options is served (n never changes a value).
    let other_n: KalahRules = "kalah(5,4)+empty_capture".parse().unwrap();
    assert!(Egdb::open_for(&path, &other_n).is_ok());
    let mut solver = Solver::new().threads(1).database(Arc::new(back));
    assert!(matches!(
        solver.solve(&KalahPosition::start(standard), SolveOptions::new()),
        Err(SolveError::DatabaseMismatch { .. })
    ));
}

#[test]
fn limited_solve_returns_bounds() {
    let rules: KalahRules = "kalah(6,3)".parse().unwrap();
    let mut solver = Solver::new().threads(2).node_limit(Some(20_000));
    let s = solver
        .solve(&KalahPosition::start(rules), SolveOptions::new())
        .unwrap();
    assert!(!s.exact);
    assert!(s.lower <= 2 && 2 <= s.upper, "{} ..= {}", s.lower, s.upper);
    assert!(s.best_moves.is_empty() && s.pv.is_empty());
    let flag = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let mut cancelled = Solver::new().threads(1).cancel_flag(flag);
    let s = cancelled
        .solve(&KalahPosition::start(rules), SolveOptions::new())
        .unwrap();
    assert!(!s.exact && s.lower <= 2 && 2 <= s.upper);
}

/// A time limit too large for the clock is no limit: `Duration::MAX` panicked with
/// "overflow when adding duration to instant". Kalah(6,1) is a first-player win by 2
/// (Irving, Donkers & Uiterwijk, "Solving Kalah", 2000).
#[test]
fn a_time_limit_beyond_the_clock_is_no_limit() {
    let rules: KalahRules = "kalah(6,1)".parse().unwrap();
    let start = KalahPosition::start(rules);
    let mut solver = Solver::new()
        .threads(1)
        .time_limit(Some(std::time::Duration::MAX));
    let s = solver.solve(&start, SolveOptions::new()).unwrap();
    assert!(s.exact && s.value == 2, "{s:?}");
    let a = solver.analyse(&start, SolveOptions::new()).unwrap();
    assert_eq!(a.moves.iter().map(|m| m.value).max(), Some(2));
    let w = solver
        .solve_within(&start, 0, 5, SolveOptions::new())
        .unwrap();
    assert!(w.settled && (w.lower, w.upper) == (2, 2), "{w:?}");
}

/// The limits hold when the search splits its work over threads: without a database the
/// parallel search splits at almost every node, so each brother's searcher sees only a few
/// hundred nodes, and every one of them must still count its nodes and look at the limits
/// (a fault once let `--max-seconds` and `--max-nodes` run to the end at two threads).
#[test]
fn limits_hold_at_two_threads_when_every_node_splits() {
    let rules: KalahRules = "standard".parse().unwrap();
    let start = KalahPosition::start(rules);
    for margin in [1, 8] {
        let mut solver = Solver::new()
            .threads(2)
            .split_margin(margin)
            .tt_bytes(1 << 20)
            .node_limit(Some(200_000));
        let s = solver.solve(&start, SolveOptions::new()).unwrap();
        // The full solve takes hundreds of millions of nodes (BENCHMARKS.md).
        assert!(!s.exact, "margin {margin}: the node limit was not honoured");
        assert!(s.lower <= 8 && 8 <= s.upper, "{} ..= {}", s.lower, s.upper);
        assert!(s.nodes < 1_000_000, "margin {margin}: {} nodes", s.nodes);
        let flag = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let mut timed = Solver::new()
            .threads(2)
            .split_margin(margin)
            .tt_bytes(1 << 20)
            .time_limit(Some(std::time::Duration::from_millis(50)))
            .cancel_flag(Arc::clone(&flag));
        let s = timed.solve(&start, SolveOptions::new()).unwrap();
        assert!(!s.exact, "margin {margin}: the time limit was not honoured");
        flag.store(true, std::sync::atomic::Ordering::Relaxed);
        let s = timed.solve(&start, SolveOptions::new()).unwrap();
        assert!(
            !s.exact,
            "margin {margin}: the cancel flag was not honoured"
        );
    }
}

/// What is not a regular file is refused before it is opened: a FIFO would block `open` (no
/// writer ever comes), a directory would give the system's bare "Is a directory" and is named
/// as a folder.
#[test]
#[cfg(unix)]
#[cfg_attr(miri, ignore = "runs mkfifo")]
fn fifos_and_directories_are_refused_without_blocking() {
    let scratch = scratch();
    let dir = scratch.path().join("not-regular");
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("kalah6.k6.egdb");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for (path, why) in [
        (fifo.as_path(), "not a regular file"),
        (dir.as_path(), "it is a folder, not a file"),
    ] {
        for result in [
            Egdb::info(path).map(|_| ()),
            Egdb::open(path).map(|_| ()),
            Egdb::load(path).map(|_| ()),
        ] {
            match result {
                Err(EgdbError::Io { source, .. }) => {
                    assert_eq!(source.kind(), std::io::ErrorKind::InvalidInput);
                    assert_eq!(source.to_string(), why);
                }
                other => panic!("{}: {other:?}", path.display()),
            }
        }
    }
}

/// An absurd thread count is refused before any thread starts (rayon would start threads until
/// the system refused: 2,738 for a request of 2^40 from Python, the machine unusable), by the
/// solver and by the database build alike.
#[test]
fn an_absurd_thread_count_is_refused_before_any_thread_starts() {
    let rules: mancala_core::kalah::KalahRules = "kalah(3,2)".parse().unwrap();
    let pos = mancala_core::kalah::KalahPosition::start(rules);
    let too_many = mancala_solver::MAX_THREADS + 1;
    let err = mancala_solver::Solver::new()
        .threads(too_many)
        .solve(&pos, SolveOptions::new())
        .unwrap_err();
    assert!(
        matches!(err, mancala_solver::SolveError::Threads(_)),
        "{err}"
    );
    assert!(err.to_string().contains("at most 1024"), "{err}");
    let ok = mancala_solver::Solver::new()
        .threads(2)
        .solve(&pos, SolveOptions::new());
    assert!(ok.is_ok());
    let err = mancala_solver::Egdb::build(
        &rules,
        4,
        BuildOptions::new()
            .threads(1 << 40)
            .progress(std::time::Duration::from_secs(1), &mut |_| {
                std::ops::ControlFlow::Continue(())
            }),
    )
    .unwrap_err();
    assert!(
        matches!(err, mancala_solver::EgdbError::Threads(_)),
        "{err}"
    );
}

/// K above the seeds of the game (2·m·n for Kalah(m,n)) asks for positions that cannot occur:
/// every way of building refuses it before any memory is taken, with the largest K allowed
/// in one line; K equal to the game's seeds builds.
#[test]
fn k_above_the_seeds_of_the_game_is_refused() {
    let check = |e: EgdbError, rules: &str, k: u32, total: u32| {
        let text = e.to_string();
        match e {
            EgdbError::MoreSeedsThanTheGame {
                rules: r,
                max_seeds,
                total_seeds,
                largest,
            } => assert_eq!(
                (r.as_str(), max_seeds, total_seeds, largest),
                (rules, k, total, total)
            ),
            other => panic!("{rules} K = {k}: {other:?}"),
        }
        assert!(
            text.contains(&format!("the largest K allowed is {total}")),
            "{text}"
        );
        assert_eq!(text.lines().count(), 1, "{text}");
    };
    // Kalah(4,3): 2·4·3 = 24 seeds.
    let rules: KalahRules = "kalah(4,3)".parse().unwrap();
    assert!(Egdb::build_memory(&rules, 24, mancala_solver::egdb::Encoding::Byte).is_ok());
    for k in [25, 40, 127] {
        let e = Egdb::build(&rules, k, BuildOptions::new()).unwrap_err();
        check(e, "kalah(4,3)", k, 24);
        let e = Egdb::build_memory(&rules, k, mancala_solver::egdb::Encoding::Packed).unwrap_err();
        check(e, "kalah(4,3)", k, 24);
        let e = mancala_solver::egdb::LevelBuild::new(&rules, k).unwrap_err();
        check(e, "kalah(4,3)", k, 24);
    }
    // Kalah(1,1)+empty_capture: 2 seeds; K = 2 builds, K = 3 is refused, by the cache too
    // (nothing written in its folder).
    let small: KalahRules = "kalah(1,1)+empty_capture".parse().unwrap();
    assert_eq!(
        Egdb::build(&small, 2, BuildOptions::new()).unwrap().len(),
        6
    );
    let e = Egdb::build(&small, 3, BuildOptions::new()).unwrap_err();
    check(e, "kalah(1,1)+empty_capture", 3, 2);
    let scratch = scratch();
    let dir = scratch.path().join("k-above-the-game");
    let cache = mancala_solver::Cache::new(&dir);
    let e = cache
        .read_or_build::<Egdb>(&small, 3, 1, std::time::Duration::from_secs(1), &mut |_| {
            std::ops::ControlFlow::Continue(())
        })
        .unwrap_err();
    check(e, "kalah(1,1)+empty_capture", 3, 2);
    assert!(!dir.exists() || std::fs::read_dir(&dir).unwrap().next().is_none());
    // Kalah(6,4) has 48 seeds, but a database of m = 6 holds at most K = 35
    // (C(47, 12) ≤ 2^36 < C(48, 12)): the K named is the one that builds.
    let standard: KalahRules = "standard".parse().unwrap();
    let e = Egdb::build_memory(&standard, 49, mancala_solver::egdb::Encoding::Byte).unwrap_err();
    assert!(
        e.to_string().ends_with("the largest K allowed is 35"),
        "{e}"
    );
}

/// The start setup with South to move is South's first move, which the database does not
/// hold (`Egdb::value`'s documentation); the same houses with North to move are held.
#[test]
fn the_start_setup_is_an_opening_position_and_not_held() {
    let rules: KalahRules = "kalah(4,2)".parse().unwrap();
    let db = Egdb::build(&rules, 16, BuildOptions::new()).unwrap();
    let start = pos(rules, &[2; 8], false).unwrap();
    assert!(start.is_first_move());
    assert_eq!(db.value(&start), None);
    let north = pos(rules, &[2; 8], true).unwrap();
    let mut solver = Solver::new().threads(1).tt_bytes(1 << 16);
    let v = solver.solve(&north, SolveOptions::new()).unwrap().value;
    assert_eq!(db.value(&north), Some(v));
}
