//! `mancala-mpi solve` under a real `mpirun` (Open MPI, feature `mpi`; CI runs it): the value
//! does not depend on the number of ranks — Kalah(6,3) (+2) and Kalah(6,4) (+8 standard,
//! +10 empty capture) in both capture rules with 1, 2, 3 and 4 ranks, the published values
//! (Irving, Donkers & Uiterwijk 2000; Rawlings 2015) and the best moves of the library's
//! single-machine solver with the same database — and a rank that cannot open the database
//! stops the job with one message instead of a hang.
#![cfg(feature = "mpi")]

mod common;

use std::path::Path;

use common::*;
use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::egdb::Encoding;
use mancala_solver::{BuildOptions, Egdb, SolveOptions, Solver};

/// Builds the database of `rules` with K = `k` into `dir` with 2 ranks.
fn database(dir: &Path, rules: &str, k: u32) {
    ok(&mpirun(
        2,
        &[
            "egdb",
            "build",
            "--rules",
            rules,
            "--max-seeds",
            &k.to_string(),
            "--out",
            dir.to_str().unwrap(),
            "--threads",
            "1",
            "--quiet",
        ],
        600,
    ));
}

/// Solves the start of `rules` with 1..=4 ranks: every run exact, of value `published`, and
/// with the best moves of the single-machine solver (with the same database). The database
/// is built by `mancala-mpi` under `mpirun` (2 ranks), or with `in_process` by the library
/// (`Egdb::build` on this process's threads: no MPI start-up, no exchanges; the two are
/// byte for byte the same, `tests/mpirun_egdb.rs`).
fn any_number_of_ranks(rules: &str, published: i32, k: u32, depth: &str, in_process: bool) {
    let dir = tempfile::tempdir().unwrap();
    let r: KalahRules = rules.parse().unwrap();
    let db = if in_process {
        let db = Egdb::build(&r, k, BuildOptions::new()).unwrap();
        db.save(&dir.path().join(Egdb::file_name(&r, k, Encoding::Byte)))
            .unwrap();
        db
    } else {
        database(dir.path(), rules, k);
        Egdb::find_in(dir.path(), &r).unwrap().database
    };
    let want = Solver::new()
        .threads(2)
        .tt_bytes(64 << 20)
        .database(std::sync::Arc::new(db))
        .solve(&KalahPosition::start(r), SolveOptions::new())
        .unwrap();
    assert_eq!(want.value, published, "{rules}: the single solver");
    let best: Vec<String> = want.best_moves.iter().map(ToString::to_string).collect();
    let egdb = dir.path().to_str().unwrap();
    for np in 1..=4 {
        let o = mpirun(
            np,
            &[
                "solve",
                "--rules",
                rules,
                "--egdb",
                egdb,
                "--depth",
                depth,
                "--threads",
                "1",
                "--tt-mb",
                "32",
                "--json",
            ],
            900,
        );
        let j = json(&o);
        assert_eq!(j["exact"], true, "{rules} with {np} ranks");
        assert_eq!(j["value"], published, "{rules} with {np} ranks");
        assert_eq!(j["score"], published, "{rules} with {np} ranks");
        assert_eq!(
            j["best_moves"],
            serde_json::json!(best),
            "{rules} with {np} ranks"
        );
        assert_eq!(j["rules"], r.to_string());
        // Every rank took part (rank 0's own worker included). At depth 1 every root move
        // is a leaf that must be proven at most the value before the end; once the first
        // has been (searched alone: young brothers wait), the other five are handed out
        // together, one to each rank, idle then, and each answers (the coordinator must hear
        // the ranks even while its own thread answers fast).
        let e = stderr(&o);
        assert!(e.contains("balance: largest busy time / mean = "), "{e}");
        for rank in 0..np {
            assert!(e.contains(&format!("rank {rank}: ")), "{e}");
            // Each rank's processor time and memory reached rank 0 (the final gather).
            let part = e.split(&format!("rank {rank}: ")).nth(1).unwrap_or("");
            let part = part.split(';').next().unwrap_or("");
            assert!(
                part.contains(" s cpu, ") && !part.contains(" - s cpu"),
                "{e}"
            );
            assert!(
                part.contains(" MiB peak resident") && !part.contains(" - peak"),
                "{e}"
            );
            if depth == "1" {
                assert!(!e.contains(&format!("rank {rank}: 0 searches")), "{e}");
            }
        }
    }
}

#[test]
fn kalah_6_3_any_number_of_ranks() {
    any_number_of_ranks("kalah(6,3)", 2, 16, "3", false);
}

#[test]
fn kalah_6_3_empty_capture_any_number_of_ranks() {
    any_number_of_ranks("kalah(6,3)+empty_capture", 2, 16, "3", false);
}

/// About 2.5 minutes of processor time on this 2-core machine (two 20-seed databases,
/// eight solves of 18–38 M nodes; BENCHMARKS.md, "Beyond one machine").
#[test]
fn kalah_6_4_any_number_of_ranks() {
    any_number_of_ranks("standard", 8, 20, "1", true);
    any_number_of_ranks("kalah(6,4)+empty_capture", 10, 20, "1", true);
}

#[test]
fn a_rank_without_the_database_stops_the_job() {
    let dir = tempfile::tempdir().unwrap();
    database(dir.path(), "kalah(4,3)", 8);
    let good = [
        "solve",
        "--rules",
        "kalah(4,3)",
        "--egdb",
        "",
        "--threads",
        "1",
        "--tt-mb",
        "8",
    ];
    // The same command line on every rank (they must agree), the database found on the
    // first two ranks' machine only: rank 2 starts in a folder without it.
    let mut good = good;
    good[4] = "db";
    let here = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink(dir.path(), here.path().join("db")).unwrap();
    let nowhere = tempfile::tempdir().unwrap();
    let o = mpirun_mpmd_in(
        &[
            (2, Some(here.path()), &good),
            (1, Some(nowhere.path()), &good),
        ],
        120,
    );
    assert_eq!(
        o.status.code().map(|c| c == 0 || c == 124),
        Some(false),
        "{o:?}"
    );
    let e = stderr(&o);
    // Rank 0 says it once, naming the rank that failed.
    assert_eq!(
        e.matches("mancala-mpi: error: rank 2: --egdb: ").count(),
        1,
        "{e}"
    );
    assert_eq!(e.matches("mancala-mpi: ").count(), 1, "{e}");
    assert!(o.stdout.is_empty());
}

/// A refusal every rank finds while running (here the database folder missing on every
/// rank) is said once, by rank 0, in the words of one process, and every rank leaves with
/// status 1.
#[test]
fn a_database_missing_on_every_rank_is_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("nowhere");
    let o = mpirun(
        2,
        &[
            "solve",
            "--rules",
            "kalah(4,3)",
            "--egdb",
            missing.to_str().unwrap(),
            "--threads",
            "1",
            "--tt-mb",
            "8",
        ],
        120,
    );
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let e = stderr(&o);
    let first = e.lines().next().unwrap_or_default();
    assert!(first.starts_with("mancala-mpi: error: --egdb: "), "{e}");
    assert!(
        first.ends_with("No such file or directory (os error 2)"),
        "{e}"
    );
    assert_eq!(e.matches("mancala-mpi: ").count(), 1, "{e}");
    assert!(o.stdout.is_empty());
}

#[test]
fn ranks_given_different_positions_stop_the_job() {
    // An MPMD launch whose second program solves another position: the ranks would answer
    // different problems (seen: other best moves, exit 0). Every rank must get rank 0's line.
    let dir = tempfile::tempdir().unwrap();
    database(dir.path(), "kalah(4,3)", 8);
    let egdb = dir.path().to_str().unwrap();
    let start = [
        "solve",
        "--rules",
        "kalah(4,3)",
        "--egdb",
        egdb,
        "--threads",
        "1",
        "--tt-mb",
        "8",
    ];
    let mut other = start.to_vec();
    other.extend_from_slice(&["--position", "4,3,3,3,0,3,3,3,3,0 N"]);
    let o = mpirun_mpmd(&[(1, &start), (1, &other)], 120);
    assert_eq!(
        o.status.code().map(|c| c == 0 || c == 124),
        Some(false),
        "{o:?}"
    );
    let e = stderr(&o);
    assert_eq!(
        e.matches(
            "mancala-mpi: error: rank 1: this rank was started with other arguments than rank 0"
        )
        .count(),
        1,
        "{e}"
    );
    assert!(e.contains("--position 4,3,3,3,0,3,3,3,3,0 N"), "{e}");
    assert_eq!(e.matches("mancala-mpi: ").count(), 1, "{e}");
    assert!(o.stdout.is_empty());
}

#[test]
fn a_bad_argument_on_another_rank_than_0_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let egdb = dir.path().to_str().unwrap();
    let good = ["solve", "--rules", "kalah(4,3)", "--egdb", egdb];
    let mut bad = good.to_vec();
    bad.push("--bogus");
    let o = mpirun_mpmd(&[(1, &good), (1, &bad)], 120);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let e = stderr(&o);
    assert_eq!(
        e.matches("mancala-mpi: error: rank 1: unexpected argument '--bogus' found (see `mancala-mpi solve --help`)\n")
            .count(),
        1,
        "{e}"
    );
    assert!(o.stdout.is_empty());
}
