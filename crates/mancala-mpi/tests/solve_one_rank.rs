//! `mancala-mpi solve` as one process: the value and best moves of the library's
//! single-machine `Solver` (an independent search of the whole game, not the tree), on small
//! games of several rule sets, the pie rule's swap included; a journal is used again and a
//! damaged one refused. Under a real `mpirun` with several ranks: `tests/mpirun_solve.rs`.

mod common;

use common::*;
use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_solver::{SolveOptions, Solver};

fn solve_args<'a>(rules: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "solve",
        "--rules",
        rules,
        "--threads",
        "1",
        "--tt-mb",
        "16",
        "--json",
        "--quiet",
    ];
    v.extend_from_slice(extra);
    v
}

/// Replays `pv` from `pos`: every move legal, the game over at the end with the final margin
/// of the player to move at `pos` equal to `score` (after a swap the swapper holds South).
fn check_pv(pos: &KalahPosition, pv: &[String], score: i64) {
    let mut side = pos.side_to_move().unwrap();
    let mut p = *pos;
    for m in pv {
        let mv: KalahMove = m.parse().unwrap();
        if mv == KalahMove::Swap {
            // The swapper takes South; the other player North.
            side = if p.side_to_move() == Some(side) {
                mancala_core::Side::South
            } else {
                mancala_core::Side::North
            };
        }
        p = p.play(mv).unwrap();
    }
    assert!(p.is_over(), "the variation {pv:?} does not end the game");
    let d = i64::from(p.store_difference());
    let margin = if side == mancala_core::Side::South {
        d
    } else {
        -d
    };
    assert_eq!(margin, score, "{pv:?}");
}

#[test]
fn values_and_best_moves_are_the_single_solver_s() {
    for (rules, position) in [
        ("kalah(4,3)", None),
        ("kalah(4,3)+empty_capture", None),
        ("kalah(5,2)+end_when_no_move", None),
        ("kalah(3,3)+pie_rule", Some("0,4,4,1,3,3,3,0 N swap")),
        ("kalah(4,2)+pie_rule", None),
    ] {
        let r: KalahRules = rules.parse().unwrap();
        let pos = match position {
            Some(p) => KalahPosition::parse(r, p).unwrap(),
            None => KalahPosition::start(r),
        };
        let want = Solver::new()
            .threads(1)
            .solve(&pos, SolveOptions::new())
            .unwrap();
        for depth in ["0", "2", "4"] {
            let mut extra = vec!["--depth", depth];
            if let Some(p) = position {
                extra.extend_from_slice(&["--position", p]);
            }
            let j = json(&run1(&solve_args(rules, &extra), 120));
            assert_eq!(j["value"], want.value, "{rules} depth {depth}");
            assert_eq!(j["score"], want.score, "{rules} depth {depth}");
            assert_eq!(j["exact"], true);
            let best: Vec<String> = want.best_moves.iter().map(ToString::to_string).collect();
            assert_eq!(
                j["best_moves"],
                serde_json::json!(best),
                "{rules} depth {depth}"
            );
            let pv: Vec<String> = serde_json::from_value(j["pv"].clone()).unwrap();
            check_pv(&pos, &pv, want.score.into());
            match want.swap {
                None => assert_eq!(j["swap"], serde_json::Value::Null),
                Some(c) => {
                    assert_eq!(j["swap"]["swap_value"], c.swap_value);
                    assert_eq!(j["swap"]["swap_is_better"], c.swap_is_better);
                }
            }
        }
    }
}

#[test]
fn a_journal_is_used_again_and_damage_refused() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("j");
    let jp = journal.to_str().unwrap();
    let args = solve_args("kalah(4,3)", &["--depth", "3", "--journal", jp]);
    let first = run1(&args, 120);
    let j1 = json(&first);
    // Every search is in the journal: the second run searches nothing and says so.
    let mut args2 = args.clone();
    args2.retain(|a| *a != "--quiet");
    let second = run1(&args2, 120);
    let j2 = json(&second);
    assert_eq!(j1["value"], j2["value"]);
    assert_eq!(j1["best_moves"], j2["best_moves"]);
    assert_eq!(j2["nodes"], 0);
    assert!(
        stderr(&second).contains(" 0 searches, "),
        "{}",
        stderr(&second)
    );
    // A journal cut after half its searches (as a kill leaves it): the rest is searched
    // again, the bounds read back are used, and the result is the same.
    let text = std::fs::read_to_string(&journal).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 3, "{text}");
    let keep = 1 + (lines.len() - 1) / 2;
    std::fs::write(&journal, lines[..keep].join("\n") + "\n").unwrap();
    let third = run1(&args2, 120);
    let j3 = json(&third);
    assert_eq!(j1["value"], j3["value"]);
    assert_eq!(j1["best_moves"], j3["best_moves"]);
    let e = stderr(&third);
    assert!(
        e.contains(&format!(" {} from the journal", keep - 1)),
        "{e}"
    );
    let nodes = |j: &serde_json::Value| j["nodes"].as_u64().unwrap();
    assert!(0 < nodes(&j3) && nodes(&j3) < nodes(&j1), "{j1} then {j3}");
    // A changed bound is refused, never used.
    let text = std::fs::read_to_string(&journal).unwrap();
    let line = text.lines().nth(1).unwrap();
    let fields: Vec<&str> = line.split('\t').collect();
    let changed = format!(
        "{}\t{}\t{}\t{}",
        fields[0],
        fields[1],
        fields[2].parse::<i32>().unwrap() + 2,
        fields[3..].join("\t")
    );
    std::fs::write(&journal, text.replacen(line, &changed, 1)).unwrap();
    let o = run1(&args, 120);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("line 2: checksum mismatch"),
        "{}",
        stderr(&o)
    );
    // Another root position: refused.
    std::fs::write(&journal, &text).unwrap();
    let o = run1(
        &solve_args(
            "kalah(4,3)",
            &["--journal", jp, "--position", "3,3,0,4,1,3,4,3,3,3 N"],
        ),
        60,
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("a journal of kalah(4,3)"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_missing_database_is_one_line() {
    let o = run1(
        &solve_args("kalah(4,3)", &["--egdb", "/nonexistent/egdb"]),
        60,
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with("mancala-mpi: error: --egdb: ") && e.lines().count() == 1,
        "{e}"
    );
}

/// At depth 0 the tree is the root alone: one leaf, solved in full by one search, and no
/// first guess (MTD(f) runs only above leaves). One rank of one thread: every count of one
/// is in the singular.
#[test]
fn a_count_of_one_is_in_the_singular() {
    let mut args = solve_args("kalah(4,3)", &["--depth", "0"]);
    args.retain(|a| *a != "--quiet");
    let o = run1(&args, 120);
    let j = json(&o);
    assert_eq!(j["exact"], true);
    let e = stderr(&o);
    assert!(
        e.contains(
            "mancala-mpi: 1 rank × 1 thread, tree of depth 0: 1 leaf, 1 of them searched; \
             1 search, 0 from the journal; first guess 0 nodes; rank 0: 1 search, "
        ),
        "{e}"
    );
}

/// A journal that is a FIFO, a socket or `/dev/null` is refused at once, in one line naming
/// it, and left as it is. The FIFO's open would wait forever for a writer: `run1`'s time
/// limit turns such a hang into a failure (status 124) rather than a test that never ends.
#[cfg(unix)]
#[test]
fn a_journal_that_is_no_regular_file_is_refused_without_waiting() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let sock = dir.path().join("sock");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    for journal in [
        fifo.as_path(),
        sock.as_path(),
        std::path::Path::new("/dev/null"),
    ] {
        let j = journal.to_str().unwrap();
        let o = run1(&solve_args("kalah(4,3)", &["--journal", j]), 20);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{j}: {err}");
        assert_eq!(
            err,
            format!("mancala-mpi: error: --journal: {j}: not a regular file\n")
        );
    }
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());
}

/// A journal at a symbolic link that leads nowhere, around a loop or to a file in a folder
/// that is not there, is refused in one line naming it and saying what it is (the system
/// said "Too many levels of symbolic links" or "No such file or directory"), and left as it
/// is.
#[cfg(unix)]
#[test]
fn a_journal_at_a_link_that_leads_nowhere_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let looped = dir.path().join("loop");
    std::os::unix::fs::symlink("loop", &looped).unwrap();
    let dangling = dir.path().join("dangling");
    std::os::unix::fs::symlink(dir.path().join("missing/journal"), &dangling).unwrap();
    for link in [&looped, &dangling] {
        let j = link.to_str().unwrap();
        let o = run1(&solve_args("kalah(2,1)", &["--journal", j]), 60);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{j}: {err}");
        assert_eq!(
            err,
            format!("mancala-mpi: error: --journal: {j}: it is a symbolic link that leads nowhere (a loop, or a missing target)\n")
        );
        assert!(std::fs::symlink_metadata(link).unwrap().is_symlink());
    }
    assert!(!dir.path().join("missing").exists());
}

/// A launcher's variable that is not a whole number is passed over with a one-line warning
/// naming it, never silently: the next one counts (here `PMI_SIZE=3`: more ranks than a
/// build without MPI runs), and with none left the command runs as one process.
#[cfg(not(feature = "mpi"))]
#[test]
fn a_launcher_variable_that_is_no_number_is_a_warning() {
    let launchers = [
        "OMPI_COMM_WORLD_RANK",
        "OMPI_COMM_WORLD_SIZE",
        "PMIX_RANK",
        "PMI_RANK",
        "PMI_SIZE",
        "SLURM_PROCID",
        "SLURM_NTASKS",
    ];
    let run = |env: &[(&str, &str)]| {
        let mut c = std::process::Command::new("timeout");
        c.args(["-k", "5", "60"])
            .arg(bin())
            .args(solve_args("kalah(2,1)", &[]));
        for v in launchers {
            c.env_remove(v);
        }
        c.envs(env.iter().copied()).output().unwrap()
    };
    let warning = "mancala-mpi: warning: OMPI_COMM_WORLD_SIZE=\"four\" is not a positive whole number (the launcher's count of ranks): ignored\n";
    let o = run(&[("OMPI_COMM_WORLD_SIZE", "four")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stderr(&o), warning);
    let o = run(&[("OMPI_COMM_WORLD_SIZE", "four"), ("PMI_SIZE", "3")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.starts_with(warning), "{err}");
    assert!(
        err.contains("\nmancala-mpi: error: this mancala-mpi was built without MPI"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 2, "{err}");
    // A rank past the count (no process would be rank 0) is passed over with a warning, and
    // the process still says why it stops; rank 1 of two leaves it to rank 0.
    let o = run(&[("PMI_RANK", "5"), ("PMI_SIZE", "2")]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.starts_with("mancala-mpi: warning: PMI_RANK=\"5\" is not below the count of ranks (PMI_SIZE=2), as a rank must be: ignored\n"), "{err}");
    assert!(
        err.contains("\nmancala-mpi: error: this mancala-mpi was built without MPI"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 2, "{err}");
    // A count of 0 or +2 is no count: the process runs as one, after a warning.
    for bad in ["0", "+2"] {
        let o = run(&[("OMPI_COMM_WORLD_SIZE", bad)]);
        assert!(o.status.success(), "{bad}: {}", stderr(&o));
        assert_eq!(
            stderr(&o),
            format!("mancala-mpi: warning: OMPI_COMM_WORLD_SIZE={bad:?} is not a positive whole number (the launcher's count of ranks): ignored\n")
        );
    }
    let o = run(&[("PMI_RANK", "1"), ("PMI_SIZE", "2")]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "");
}

/// Bytes of a size as `readable_bytes` writes it: `3 MiB`, `1.2 GiB`, `512 KiB`, `100 B`.
fn size_bytes(text: &str) -> f64 {
    let (n, unit) = text.trim().split_once(' ').unwrap();
    let n: f64 = n.parse().unwrap();
    let scale = match unit {
        "B" => 1.0,
        "KiB" => 1024.0,
        "MiB" => 1024.0 * 1024.0,
        "GiB" => 1024.0 * 1024.0 * 1024.0,
        "TiB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        u => panic!("unit {u}"),
    };
    n * scale
}

/// Without `--tt-mb` each rank's table is sized to the positions solved, as `mancala solve`
/// sizes it (4 MiB for Kalah(4,3), 24 seeds: `Solver::sized_table_bytes`), not 256 MiB: the
/// process's peak resident memory, which the summary reports, stays far below 256 MiB (a
/// table of 256 MiB is all touched by the solve: 260 MiB).
#[test]
fn the_table_is_sized_to_the_position_without_tt_mb() {
    assert_eq!(Solver::sized_table_bytes(24, 0, 256 << 20), 4 << 20);
    let out = run1(
        &["solve", "--rules", "kalah(4,3)", "--threads", "1", "--json"],
        120,
    );
    let j = json(&out);
    assert_eq!(j["value"], 6, "{j}");
    let err = stderr(&out);
    let peak = err
        .split("s cpu, ")
        .nth(1)
        .and_then(|t| t.split(" peak resident").next())
        .unwrap_or_else(|| panic!("no peak resident memory in {err}"));
    if peak != "-" {
        assert!(size_bytes(peak) < 128.0 * 1024.0 * 1024.0, "{peak}: {err}");
    }
}

/// A damaged database given to `--egdb` is refused in the words of `mancala solve`: a file
/// named with its reason, a folder with the `mancala egdb build` command that builds one
/// and the file passed over.
#[test]
fn a_damaged_database_is_named_with_mancala_s_hint() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good");
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "kalah(4,1)",
            "--max-seeds",
            "3",
            "--out",
            good.to_str().unwrap(),
            "--quiet",
        ],
        60,
    );
    assert!(o.status.success(), "{o:?}");
    let bytes = std::fs::read(good.join("kalah4.k3.egdb")).unwrap();
    let bad = dir.path().join("bad");
    std::fs::create_dir(&bad).unwrap();
    let file = bad.join("kalah4.k3.egdb");
    std::fs::write(&file, &bytes[..bytes.len() - 11]).unwrap();
    let why = format!(
        "database file truncated: {} bytes expected, {} found",
        bytes.len(),
        bytes.len() - 11
    );
    let o = run1(
        &solve_args("kalah(4,1)", &["--egdb", file.to_str().unwrap()]),
        60,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        format!("mancala-mpi: error: --egdb: {}: {why}\n", file.display())
    );
    let o = run1(
        &solve_args("kalah(4,1)", &["--egdb", bad.to_str().unwrap()]),
        60,
    );
    assert_eq!(o.status.code(), Some(1));
    let b = bad.display();
    assert_eq!(
        stderr(&o),
        format!(
            "mancala-mpi: error: --egdb: no endgame database for kalah(4,1) in {b} (`mancala egdb build --rules \"kalah(4,1)\" --max-seeds K --out {b}` builds one, K the most seeds in the houses); skipped {}: {why}\n",
            file.display()
        )
    );
}

/// `--help`, `--version`, `help solve` and a solve's answer that cannot be written to
/// standard output (a full disk: /dev/full) are refused in one line naming the OS error,
/// with status 1, as `mancala` refuses them (not status 0 and nothing said, nor a panic).
#[test]
fn help_and_answers_that_cannot_be_written_are_refused() {
    if !std::path::Path::new("/dev/full").exists() {
        eprintln!("skipped: no /dev/full on this system");
        return;
    }
    let lines: [&[&str]; 5] = [
        &["--help"],
        &["solve", "--help"],
        &["--version"],
        &["help", "solve"],
        &["solve", "--rules", "kalah(3,2)", "--quiet"],
    ];
    for args in lines {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = std::process::Command::new(common::bin())
            .args(args)
            .stdout(full)
            .output()
            .unwrap();
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert_eq!(
            stderr(&o).trim_end(),
            "mancala-mpi: error: writing standard output: No space left on device (os error 28)",
            "{args:?}"
        );
    }
}
