//! `mancala-mpi egdb build` under a real `mpirun` (Open MPI), several ranks on this machine
//! (feature `mpi`; CI runs it): the file is byte for byte the one `mancala egdb build`
//! writes (K = 16, both capture rules), every rank computes a share, a build stopped under 3
//! ranks resumes under 2, a damaged partial file stops every rank with one message, and a
//! rank with a bad command line stops the job instead of leaving the others waiting.
#![cfg(feature = "mpi")]

mod common;

use common::*;

#[test]
fn three_ranks_write_the_file_of_mancala_egdb_build() {
    let dir = tempfile::tempdir().unwrap();
    for rules in ["standard", "kalah(6,4)+empty_capture"] {
        let want = reference_database(&dir.path().join("ref"), rules, 16);
        let out = dir.path().join("mpi");
        let o = mpirun(
            3,
            &[
                "egdb",
                "build",
                "--rules",
                rules,
                "--max-seeds",
                "16",
                "--out",
                out.to_str().unwrap(),
                "--threads",
                "1",
                "--json",
            ],
            300,
        );
        let j = json(&o);
        let got = out.join(want.file_name().unwrap());
        assert_eq!(
            std::fs::read(&got).unwrap(),
            std::fs::read(&want).unwrap(),
            "{rules}: the file of 3 ranks differs from the one-process build's"
        );
        let per_rank = j["per_rank"].as_array().unwrap();
        assert_eq!(per_rank.len(), 3);
        let total: u64 = per_rank
            .iter()
            .map(|r| r["positions"].as_u64().unwrap())
            .sum();
        assert_eq!(total, j["entries"].as_u64().unwrap());
        for r in per_rank {
            // Each rank did a real share (a third would be 10 M positions).
            assert!(r["positions"].as_u64().unwrap() > 3_000_000, "{j}");
            assert!(r["busy_seconds"].as_f64().unwrap() > 0.0);
        }
    }
}

/// The Awari database under 3 ranks: the one-process file, with updates really exchanged.
#[test]
fn three_ranks_write_the_awari_file_of_one_process() {
    let dir = tempfile::tempdir().unwrap();
    let want = reference_awari(&dir.path().join("ref"), 12);
    let out = dir.path().join("mpi");
    let o = mpirun(
        3,
        &[
            "egdb",
            "build",
            "--rules",
            "awari",
            "--max-seeds",
            "12",
            "--out",
            out.to_str().unwrap(),
            "--threads",
            "1",
            "--json",
            "--quiet",
        ],
        300,
    );
    let j = json(&o);
    let got = out.join(want.file_name().unwrap());
    assert_eq!(
        std::fs::read(&got).unwrap(),
        std::fs::read(&want).unwrap(),
        "the Awari file of 3 ranks differs from the one-process build's"
    );
    assert_eq!(j["ranks"], 3);
    assert!(j["updates_exchanged"].as_u64().unwrap() > 0, "{j}");
}

fn args<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "egdb",
        "build",
        "--rules",
        "standard",
        "--max-seeds",
        "14",
        "--out",
        out,
        "--threads",
        "1",
        "--json",
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn stopped_under_three_ranks_resumed_under_two() {
    let dir = tempfile::tempdir().unwrap();
    let want = std::fs::read(reference_database(&dir.path().join("ref"), "standard", 14)).unwrap();
    let out = dir.path().join("out");
    let out_s = out.to_str().unwrap();
    let partial = out.join("kalah6.k14.egdb.partial");
    let j = json(&mpirun(3, &args(out_s, &["--stop-after-layer", "10"]), 120));
    assert_eq!(j["stopped_after_layer"], 10);
    let saved = std::fs::read(&partial).unwrap();

    // Damage in layer 5: every rank stops, one message, status 1, no database.
    let mut bad = saved.clone();
    bad[partial_layer_offset("kalah(6,4)", 6, 5) as usize + 7] ^= 1;
    std::fs::write(&partial, &bad).unwrap();
    let o = mpirun(3, &args(out_s, &["--resume"]), 120);
    assert_ne!(o.status.code(), Some(0));
    assert_ne!(o.status.code(), Some(124), "the job hung");
    let e = stderr(&o);
    assert_eq!(e.matches("layer 5: checksum mismatch").count(), 1, "{e}");
    assert!(!out.join("kalah6.k14.egdb").exists());

    std::fs::write(&partial, &saved).unwrap();
    let j = json(&mpirun(2, &args(out_s, &["--resume"]), 120));
    assert_eq!(j["resumed_layers"], 11);
    assert_eq!(j["per_rank"].as_array().unwrap().len(), 2);
    assert_eq!(std::fs::read(out.join("kalah6.k14.egdb")).unwrap(), want);
}

#[test]
fn a_rank_with_a_bad_command_line_stops_the_job() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out_s = out.to_str().unwrap();
    let good = args(out_s, &[]);
    let mut bad = good.clone();
    let at = bad.len() - 2;
    bad[at] = "300"; // --threads 300 on rank 2 only
    let o = mpirun_mpmd(&[(2, &good), (1, &bad)], 60);
    assert!(!o.status.success());
    assert_ne!(o.status.code(), Some(124), "the job hung");
    let e = stderr(&o);
    // Rank 2's line differs from rank 0's: that is the reason given, with both lines.
    let why = "mancala-mpi: error: rank 2: this rank was started with other arguments than rank 0";
    assert_eq!(e.matches(why).count(), 1, "{e}");
    assert!(e.contains("--threads 300 --json` against `"), "{e}");
    assert!(!out.join("kalah6.k14.egdb").exists());
}

#[test]
fn ranks_given_different_database_sizes_stop_the_job_before_any_file() {
    // Seen before the check: Open MPI's own MPI_ERR_TRUNCATE abort in a gather, exit 15,
    // no line of ours, and a partial file left that refused the next build.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out_s = out.to_str().unwrap();
    let a = args(out_s, &[]);
    let mut b = a.clone();
    b[5] = "13";
    let o = mpirun_mpmd(&[(1, &a), (1, &b)], 60);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let e = stderr(&o);
    let why = "mancala-mpi: error: rank 1: this rank was started with other arguments than rank 0";
    assert_eq!(e.matches(why).count(), 1, "{e}");
    assert!(!e.contains("MPI_ERR"), "{e}");
    assert!(
        !out.exists() || std::fs::read_dir(&out).unwrap().next().is_none(),
        "a file was left"
    );
}

#[test]
fn a_folder_at_the_database_name_is_refused_before_the_build() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir_all(out.join("kalah6.k14.egdb")).unwrap();
    let o = mpirun(2, &args(out.to_str().unwrap(), &[]), 60);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let e = stderr(&o);
    assert!(
        e.contains("kalah6.k14.egdb: it is a folder, not a file"),
        "{e}"
    );
    // Refused at the start: no layer was built and no partial file is there.
    assert!(!e.contains("layer 0/"), "{e}");
    assert!(!out.join("kalah6.k14.egdb.partial").exists());
}

/// A refusal every rank finds once it runs (K above the seeds of the rules' board) is said
/// once, by rank 0, in the words of one process, and every rank leaves with status 1.
#[test]
fn a_refusal_found_while_running_is_said_once_by_rank_0() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let o = mpirun(
        2,
        &[
            "egdb",
            "build",
            "--rules",
            "standard",
            "--max-seeds",
            "99",
            "--out",
            out.to_str().unwrap(),
        ],
        60,
    );
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let e = stderr(&o);
    let why =
        "mancala-mpi: error: K = 99 is more seeds than standard has: the largest K allowed is 35\n";
    assert!(e.starts_with(why), "{e}");
    assert_eq!(e.matches("mancala-mpi: ").count(), 1, "{e}");
    assert!(o.stdout.is_empty());
}

/// A command line clap refuses, under `mpirun -np 2`: rank 0 alone prints the error and the
/// usage, once, before anything of mpirun's (its note on the job's status); every rank
/// leaves with status 2, and nothing is on standard output.
#[test]
fn a_usage_error_is_printed_once_by_rank_0_before_mpirun_speaks() {
    for bad in [
        &["egdb", "build", "--bogus"][..],
        &["solve", "--depth", "x"][..],
        // Values out of an option's range are usage errors too (status 2).
        &["solve", "--threads", "1025"][..],
        &["solve", "--tt-mb", "0"][..],
        &[
            "egdb",
            "build",
            "--rules",
            "standard",
            "--max-seeds",
            "200",
            "--out",
            "x",
        ][..],
    ] {
        let o = mpirun(2, bad, 60);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {o:?}");
        let e = stderr(&o);
        // One line, in `mancala`'s form, once, before any line of mpirun's.
        let first = e.lines().next().unwrap_or_default();
        assert!(first.starts_with("mancala-mpi: error: "), "{bad:?}: {e}");
        assert!(first.ends_with(" --help`)"), "{bad:?}: {e}");
        assert_eq!(e.matches(first).count(), 1, "{bad:?}: {e}");
        assert!(!e.contains("Usage:"), "{bad:?}: {e}");
        if let Some(mpirun_note) = e.find("-----") {
            assert!(first.len() < mpirun_note, "{bad:?}: {e}");
        }
        assert!(!e.contains("rank 1"), "{bad:?}: {e}");
        assert!(o.stdout.is_empty(), "{bad:?}");
    }
}

/// Open MPI gives its ranks a pseudo-terminal for standard output, so clap's help came in
/// colour even into a file; under a launcher it is plain, unless CLICOLOR_FORCE asks for
/// colour. Rank 0 alone prints it.
#[test]
fn the_help_under_mpirun_has_no_colour_unless_asked() {
    for args in [&["--help"][..], &["egdb", "build", "--help"][..]] {
        let help = ok(&mpirun(2, args, 60));
        assert!(!help.contains('\x1b'), "{args:?}: {help:?}");
        assert_eq!(help.matches("Usage: mancala-mpi").count(), 1, "{help}");
        let coloured = ok(&mpirun_env(2, &[("CLICOLOR_FORCE", "1")], args, 60));
        assert!(coloured.contains('\x1b'), "{args:?}: {coloured:?}");
    }
}

/// `--encoding packed` under 2 ranks: the file of `mancala egdb build --encoding packed`;
/// compact for Awari likewise.
#[test]
fn two_ranks_write_the_packed_and_compact_files_of_mancala_egdb_build() {
    use mancala_solver::egdb::Encoding;
    let dir = tempfile::tempdir().unwrap();
    let want = reference_database_in(&dir.path().join("ref"), "standard", 14, Encoding::Packed);
    let out = dir.path().join("kalah");
    let mut a = args(out.to_str().unwrap(), &["--encoding", "packed"]);
    a.push("--quiet");
    let j = json(&mpirun(2, &a, 120));
    assert_eq!(j["encoding"], "packed");
    assert_eq!(j["per_rank"].as_array().unwrap().len(), 2);
    assert_eq!(
        std::fs::read(out.join("kalah6.k14.packed.egdb")).unwrap(),
        std::fs::read(&want).unwrap()
    );
    let want = reference_awari_in(&dir.path().join("ref"), 10, Encoding::Compact);
    let out = dir.path().join("awari");
    let o = mpirun(
        2,
        &[
            "egdb",
            "build",
            "--rules",
            "awari",
            "--max-seeds",
            "10",
            "--out",
            out.to_str().unwrap(),
            "--threads",
            "1",
            "--encoding",
            "compact",
            "--json",
            "--quiet",
        ],
        120,
    );
    let j = json(&o);
    assert_eq!(j["encoding"], "compact");
    assert_eq!(
        std::fs::read(out.join("awari.n10.compact.egdb")).unwrap(),
        std::fs::read(&want).unwrap()
    );
}

/// A check only rank 0 makes (the file at the database's name) refuses the job in the words
/// of one process, under `mpirun -np 2` as `mancala` says it: no `rank 0: ` before it.
#[test]
fn rank_0_s_own_refusal_is_the_job_s_without_a_rank() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("occ");
    std::fs::create_dir(&out).unwrap();
    let file = out.join("kalah4.k6.egdb");
    std::fs::write(&file, b"junk\n").unwrap();
    let args = [
        "egdb",
        "build",
        "--rules",
        "kalah(4,1)",
        "--max-seeds",
        "6",
        "--out",
        out.to_str().unwrap(),
    ];
    let o = mpirun(2, &args, 60);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    let e = stderr(&o);
    let why = format!(
        "mancala-mpi: error: {} already exists and cannot be told to hold that database (not a mancala endgame database (bad magic)): not written over with kalah(4,·), K = 6, byte encoding; --force writes over it\n",
        file.display()
    );
    assert!(e.starts_with(&why), "{e}");
    assert!(!e.contains("rank 0"), "{e}");
    assert_eq!(std::fs::read(&file).unwrap(), b"junk\n");
}
