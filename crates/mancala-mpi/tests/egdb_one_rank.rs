//! `mancala-mpi egdb build` as one process (no launcher; with the `mpi` feature, MPI's
//! singleton start): the file is the one `mancala egdb build` writes, and a stopped build
//! resumes, a damaged or mismatched partial file is refused. The same under a real `mpirun`
//! with several ranks: `tests/mpirun.rs` (feature `mpi`).

mod common;

use common::*;

#[test]
fn the_file_is_the_one_process_build_s() {
    let dir = tempfile::tempdir().unwrap();
    for rules in ["standard", "kalah(6,4)+empty_capture"] {
        let want = reference_database(&dir.path().join("ref"), rules, 14);
        let out = dir.path().join("mpi");
        let o = run1(
            &[
                "egdb",
                "build",
                "--rules",
                rules,
                "--max-seeds",
                "14",
                "--out",
                out.to_str().unwrap(),
                "--json",
                "--threads",
                "2",
            ],
            120,
        );
        let j = json(&o);
        let got = out.join(want.file_name().unwrap());
        assert_eq!(j["database"], got.display().to_string());
        assert_eq!(
            std::fs::read(&got).unwrap(),
            std::fs::read(&want).unwrap(),
            "{rules}: the files differ"
        );
        assert_eq!(j["per_rank"].as_array().unwrap().len(), 1);
        assert_eq!(j["per_rank"][0]["positions"], j["entries"]);
        // The size it reports is the saved file's, header included (not its entries).
        let on_disk = std::fs::metadata(&got).unwrap().len();
        assert_eq!(j["file_bytes"].as_u64(), Some(on_disk), "{rules}");
        assert!(on_disk > j["entries"].as_u64().unwrap(), "{rules}");
        // The partial file is gone once the database is saved.
        let partial = out.join(format!(
            "{}.partial",
            got.file_name().unwrap().to_str().unwrap()
        ));
        assert!(got.exists() && !partial.exists());
    }
}

/// The Awari build as one rank: the file `AwariDb::save` writes after `AwariDb::build`.
#[test]
fn an_awari_build_of_one_rank_writes_the_one_process_file() {
    let dir = tempfile::tempdir().unwrap();
    let want = reference_awari(&dir.path().join("ref"), 10);
    let out = dir.path().join("mpi");
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "awari",
            "--max-seeds",
            "10",
            "--out",
            out.to_str().unwrap(),
            "--json",
            "--quiet",
        ],
        120,
    );
    let j = json(&o);
    let got = out.join(want.file_name().unwrap());
    assert_eq!(j["database"], got.display().to_string());
    assert_eq!(std::fs::read(&got).unwrap(), std::fs::read(&want).unwrap());
    // One rank sends nothing to another.
    assert_eq!(j["updates_exchanged"], 0);
    // The database of Abapa's grand slam: the file of the one-process build of that rule.
    use mancala_core::oware::GrandSlam;
    use mancala_solver::awari::AwariDb;
    use mancala_solver::egdb::Encoding;
    let name = AwariDb::file_name_under(GrandSlam::None, 8, Encoding::Byte);
    let one = dir.path().join(&name);
    AwariDb::build_until_under(GrandSlam::None, 8, 1, |_| true)
        .unwrap()
        .save(&one)
        .unwrap();
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "oware+majority=off+cycle_score=split",
            "--max-seeds",
            "8",
            "--out",
            out.to_str().unwrap(),
            "--json",
            "--quiet",
        ],
        120,
    );
    let j = json(&o);
    assert_eq!(j["database"], out.join(&name).display().to_string());
    assert_eq!(
        std::fs::read(out.join(&name)).unwrap(),
        std::fs::read(&one).unwrap()
    );
    // Other Oware rule sets and the Kalah-only options are refused with one line and status
    // 1, as `mancala egdb build` refuses them (2 is for a command line clap refuses); an
    // Oware rule set no database serves in `mancala`'s words.
    for (extra, says) in [
        (
            vec!["--rules", "oware", "--max-seeds", "4"],
            "mancala-mpi: error: --rules oware: no database holds the values of oware, which has majority=stop, cycle_score=own_row; tip: endgame databases are for Kalah rule sets and the Oware rule sets with 6 houses a side",
        ),
        (
            vec!["--rules", "awari", "--max-seeds", "4", "--resume"],
            "runs in one go",
        ),
        (vec!["--rules", "awari", "--max-seeds", "49"], "awari has 48 seeds, so at most 48"),
    ] {
        let mut a = vec!["egdb", "build", "--out", out.to_str().unwrap()];
        a.extend(extra.iter());
        let o = run1(&a, 60);
        assert_eq!(o.status.code(), Some(1), "{a:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says) && err.lines().count() == 1, "{a:?}: {err}");
    }
}

/// `--encoding packed` writes the file `mancala egdb build --encoding packed` writes (Kalah,
/// whose one-process build packs the layers as it goes), named after the encoding, and so do
/// `packed` and `compact` for Awari; Kalah's compact is refused before any work, as
/// `mancala` refuses it, and a misspelt encoding is clap's refusal.
#[test]
fn an_encoding_writes_the_file_of_mancala_egdb_build_in_it() {
    use mancala_solver::egdb::Encoding;
    let dir = tempfile::tempdir().unwrap();
    let want = reference_database_in(&dir.path().join("ref"), "standard", 14, Encoding::Packed);
    let out = dir.path().join("kalah");
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "standard",
            "--max-seeds",
            "14",
            "--out",
            out.to_str().unwrap(),
            "--encoding",
            "packed",
            "--json",
            "--quiet",
        ],
        120,
    );
    let j = json(&o);
    let got = out.join("kalah6.k14.packed.egdb");
    assert_eq!(want.file_name(), got.file_name());
    assert_eq!(j["database"], got.display().to_string());
    assert_eq!(j["encoding"], "packed");
    assert_eq!(std::fs::read(&got).unwrap(), std::fs::read(&want).unwrap());
    assert_eq!(
        j["file_bytes"].as_u64(),
        Some(std::fs::metadata(&got).unwrap().len())
    );
    // Only the packed file: no one-byte file beside it, no partial file left.
    let names: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["kalah6.k14.packed.egdb"]);
    for (encoding, name) in [
        (Encoding::Packed, "awari.n10.packed.egdb"),
        (Encoding::Compact, "awari.n10.compact.egdb"),
    ] {
        let want = reference_awari_in(&dir.path().join("ref"), 10, encoding);
        let out = dir.path().join(format!("awari-{encoding}"));
        let o = run1(
            &[
                "egdb",
                "build",
                "--rules",
                "awari",
                "--max-seeds",
                "10",
                "--out",
                out.to_str().unwrap(),
                "--encoding",
                encoding.name(),
                "--json",
                "--quiet",
            ],
            120,
        );
        let j = json(&o);
        assert_eq!(j["database"], out.join(name).display().to_string());
        assert_eq!(j["encoding"], encoding.name());
        assert_eq!(
            std::fs::read(out.join(name)).unwrap(),
            std::fs::read(&want).unwrap(),
            "{encoding}"
        );
    }
    let out = dir.path().join("refused");
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "standard",
            "--max-seeds",
            "6",
            "--out",
            out.to_str().unwrap(),
            "--encoding",
            "compact",
        ],
        60,
    );
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "mancala-mpi: error: a Kalah database has no compact encoding (byte or packed; compact is for the Oware databases)\n"
    );
    assert!(!out.exists());
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "standard",
            "--max-seeds",
            "6",
            "--out",
            out.to_str().unwrap(),
            "--encoding",
            "Packed",
        ],
        60,
    );
    assert_eq!(o.status.code(), Some(2));
    // One line, in `mancala egdb build --encoding Packed`'s form.
    assert_eq!(
        stderr(&o),
        "mancala-mpi: error: invalid value 'Packed' for '--encoding <ENCODING>' [possible values: byte, packed, compact]; tip: a similar value exists: 'packed' (see `mancala-mpi egdb build --help`)\n"
    );
}

fn build_args<'a>(rules: &'a str, out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut v = vec![
        "egdb",
        "build",
        "--rules",
        rules,
        "--max-seeds",
        "13",
        "--out",
        out,
        "--json",
        "--threads",
        "1",
    ];
    v.extend_from_slice(extra);
    v
}

#[test]
fn a_stopped_build_resumes_and_damage_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let want = std::fs::read(reference_database(&dir.path().join("ref"), "standard", 13)).unwrap();
    let out = dir.path().join("out");
    let out_s = out.to_str().unwrap();
    let partial = out.join("kalah6.k13.egdb.partial");
    let db = out.join("kalah6.k13.egdb");

    // Stopped after layer 8: the partial file holds layers 0..=8 and no database is written.
    let j = json(&run1(
        &build_args("standard", out_s, &["--stop-after-layer", "8"]),
        120,
    ));
    assert_eq!(j["stopped_after_layer"], 8);
    assert!(partial.exists() && !db.exists());
    let saved = std::fs::read(&partial).unwrap();
    assert_eq!(j["built_layers"], true);

    // Resumed with a stop the partial file already holds (layer 8 itself, or an earlier
    // one): stopped at once, nothing built, the partial file as it was, no database.
    for stop in ["8", "5"] {
        let j = json(&run1(
            &build_args("standard", out_s, &["--resume", "--stop-after-layer", stop]),
            120,
        ));
        assert_eq!(j["stopped_after_layer"], 8, "--stop-after-layer {stop}");
        assert_eq!(j["built_layers"], false, "--stop-after-layer {stop}");
        assert_eq!(std::fs::read(&partial).unwrap(), saved);
        assert!(!db.exists());
    }
    // The text names the layers held and that nothing was built.
    let mut args = build_args("standard", out_s, &["--resume", "--stop-after-layer", "2"]);
    args.retain(|a| *a != "--json");
    let o = run1(&args, 120);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("nothing built") && text.contains("layers 0..=8"),
        "{text}"
    );
    assert_eq!(std::fs::read(&partial).unwrap(), saved);

    // Without --resume the partial file is not overwritten: the command refuses.
    let o = run1(&build_args("standard", out_s, &[]), 120);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&partial).unwrap(), saved);

    // Another rule set (kalah(6,3) has the file name of kalah(6,4)'s database) is refused.
    let o = run1(&build_args("kalah(6,3)", out_s, &["--resume"]), 120);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not of kalah(6,3)"), "{}", stderr(&o));

    // A flipped byte in layer 3's entries: refused, nothing written.
    let mut bad = saved.clone();
    bad[partial_layer_offset("kalah(6,4)", 6, 3) as usize + 100] ^= 4;
    std::fs::write(&partial, &bad).unwrap();
    let o = run1(&build_args("standard", out_s, &["--resume"]), 120);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("layer 3: checksum mismatch"),
        "{}",
        stderr(&o)
    );
    assert!(!db.exists());

    // Cut inside layer 8 (a build killed while writing it): layer 8 is built again.
    std::fs::write(&partial, &saved[..saved.len() - 1000]).unwrap();
    let j = json(&run1(&build_args("standard", out_s, &["--resume"]), 120));
    assert_eq!(j["resumed_layers"], 8);
    assert_eq!(j["dropped_layer"], 8);
    assert_eq!(std::fs::read(&db).unwrap(), want);
    assert!(!partial.exists());

    // Resumed from the whole partial file: layers 0..=8 are not built again.
    std::fs::remove_file(&db).unwrap();
    std::fs::write(&partial, &saved).unwrap();
    let j = json(&run1(&build_args("standard", out_s, &["--resume"]), 120));
    assert_eq!(j["resumed_layers"], 9);
    assert_eq!(j["dropped_layer"], serde_json::Value::Null);
    let built: u64 = j["per_rank"][0]["positions"].as_u64().unwrap();
    let skipped: u64 = (0..9).map(|k| layer_len(6, k)).sum();
    assert_eq!(built + skipped, j["entries"].as_u64().unwrap());
    assert_eq!(std::fs::read(&db).unwrap(), want);

    // --resume with no partial file but the database there: refused, the database kept
    // (a build from nothing would replace it).
    let mtime = std::fs::metadata(&db).unwrap().modified().unwrap();
    let o = run1(&build_args("standard", out_s, &["--resume"]), 120);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no partial build to resume"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&db).unwrap(), want);
    assert_eq!(std::fs::metadata(&db).unwrap().modified().unwrap(), mtime);
    assert!(!partial.exists());
}

/// While a build has the partial file open (it holds the file's `flock`, taken here as a
/// running build takes it), a `--resume` build is refused with one clean line, as a plain
/// build is, and the file is left as it was; once the lock is gone (the build ended, however
/// it ended) `--resume` goes on.
#[cfg(unix)]
#[test]
fn a_partial_file_in_use_is_refused_with_or_without_resume() {
    use std::os::unix::io::AsRawFd;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out_s = out.to_str().unwrap();
    let partial = out.join("kalah6.k13.egdb.partial");
    json(&run1(
        &build_args("standard", out_s, &["--stop-after-layer", "4"]),
        120,
    ));
    let saved = std::fs::read(&partial).unwrap();
    let held = std::fs::File::open(&partial).unwrap();
    // SAFETY: `flock` on a descriptor `held` owns.
    #[allow(unsafe_code)]
    let r = unsafe { libc::flock(held.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
    assert_eq!(r, 0);
    for extra in [&["--resume"][..], &[]] {
        let o = run1(&build_args("standard", out_s, extra), 120);
        assert_eq!(o.status.code(), Some(1), "{extra:?}");
        let err = stderr(&o);
        assert!(
            err.contains("another build that is still running is using this partial file"),
            "{extra:?}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{extra:?}: {err}");
        assert_eq!(std::fs::read(&partial).unwrap(), saved, "{extra:?}");
    }
    drop(held);
    let j = json(&run1(&build_args("standard", out_s, &["--resume"]), 120));
    assert_eq!(j["resumed_layers"], 5);
    assert!(!partial.exists());
}

/// A partial file cut inside its header (a build killed as it started) is started over by
/// `--resume`, and the database is the one a build from nothing writes.
#[test]
fn a_partial_file_cut_inside_its_header_starts_over() {
    let dir = tempfile::tempdir().unwrap();
    let want = std::fs::read(reference_database(&dir.path().join("ref"), "standard", 13)).unwrap();
    let out = dir.path().join("out");
    let out_s = out.to_str().unwrap();
    let partial = out.join("kalah6.k13.egdb.partial");
    json(&run1(
        &build_args("standard", out_s, &["--stop-after-layer", "0"]),
        120,
    ));
    let saved = std::fs::read(&partial).unwrap();
    std::fs::write(&partial, &saved[..20]).unwrap();
    let j = json(&run1(&build_args("standard", out_s, &["--resume"]), 120));
    assert_eq!(j["resumed_layers"], 0);
    assert_eq!(std::fs::read(out.join("kalah6.k13.egdb")).unwrap(), want);
    assert!(!partial.exists());
}

#[test]
fn bad_command_lines_get_one_line() {
    // A misspelt Oware option: the rule set's own error (it was "names an Oware rule set,
    // not a Kalah one").
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "awari+grand_slam=nonee",
            "--max-seeds",
            "3",
            "--out",
            "x",
        ],
        30,
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("bad value `nonee` for rule option `grand_slam`") && e.lines().count() == 1,
        "{e}"
    );
    // The solve reads Kalah rules only: a misspelt Oware option still gets Oware's reason.
    let o = run1(&["solve", "--rules", "awari+grand_slam=nonee"], 30);
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.contains("bad value `nonee` for rule option `grand_slam`") && e.lines().count() == 1,
        "{e}"
    );
    // A table larger than any machine's memory (1 TiB): refused before the solve, as
    // `mancala solve` refuses it.
    let o = run1(
        &["solve", "--rules", "kalah(4,3)", "--tt-mb", "1048576"],
        30,
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with(
            "mancala-mpi: error: --tt-mb 1048576: 1099511627776 bytes (1.0 TiB), more than the "
        ) && e.trim_end().ends_with("of memory available")
            && e.lines().count() == 1,
        "{e}"
    );
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "kalah(6,4",
            "--max-seeds",
            "3",
            "--out",
            "x",
        ],
        30,
    );
    assert_eq!(o.status.code(), Some(1));
    let e = stderr(&o);
    assert!(
        e.starts_with("mancala-mpi: error: --rules") && e.lines().count() == 1,
        "{e}"
    );
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "bao-la-kete",
            "--max-seeds",
            "3",
            "--out",
            "x",
        ],
        30,
    );
    assert_eq!(o.status.code(), Some(1));
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "standard",
            "--max-seeds",
            "200",
            "--out",
            "x",
        ],
        30,
    );
    // A value outside the option's range is a usage error (status 2), in the words of
    // `mancala egdb build --max-seeds 200`.
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        "mancala-mpi: error: invalid value '200' for '--max-seeds <MAX_SEEDS>': 200 is out of range (0 to 127) (see `mancala-mpi egdb build --help`)\n"
    );
    // The thread limit is the library's, as for `mancala` and the C and Python calls.
    let most = mancala_solver::MAX_THREADS;
    let over = (most + 1).to_string();
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "standard",
            "--max-seeds",
            "2",
            "--out",
            "x",
            "--threads",
            &over,
        ],
        30,
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!(
            "mancala-mpi: error: invalid value '{over}' for '--threads <THREADS>': {over} is out of range (0 to {most}) (see `mancala-mpi egdb build --help`)\n"
        )
    );
    // So are the solve's range-checked options, as `mancala solve` refuses them (status 2).
    for (option, value, range) in [
        ("--threads", over.as_str(), "0 to 1024"),
        ("--threads", "-1", "0 to 1024"),
        ("--tt-mb", "0", "1 to 1048576"),
        ("--tt-mb", "1048577", "1 to 1048576"),
        ("--depth", "13", "0 to 12"),
    ] {
        let arg = format!("{option}={value}");
        let o = run1(&["solve", "--rules", "kalah(4,3)", &arg], 30);
        assert_eq!(o.status.code(), Some(2), "{arg}");
        let e = stderr(&o);
        let name = option
            .trim_start_matches('-')
            .replace('-', "_")
            .to_uppercase();
        assert_eq!(
            e,
            format!(
                "mancala-mpi: error: invalid value '{value}' for '{option} <{name}>': {value} is out of range ({range}) (see `mancala-mpi solve --help`)\n"
            ),
            "{arg}"
        );
        assert!(o.stdout.is_empty(), "{arg}");
    }
}

#[test]
fn a_file_at_the_database_name_that_holds_another_is_kept_unless_forced() {
    // As `mancala egdb build`: a file at the name the build writes is written over only when
    // its header says it is that database, or with --force.
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let o = out.to_str().unwrap();
    for (rules, seeds, name, what) in [
        (
            "standard",
            "5",
            "kalah6.k5.egdb",
            "kalah(6,·), K = 5, byte encoding",
        ),
        (
            "awari",
            "4",
            "awari.n4.egdb",
            "awari, levels 0..=4, byte encoding",
        ),
    ] {
        let args = [
            "egdb",
            "build",
            "--rules",
            rules,
            "--max-seeds",
            seeds,
            "--out",
            o,
            "--threads",
            "1",
        ];
        let target = out.join(name);
        std::fs::write(&target, b"my notes\n").unwrap();
        let r = run1(&args, 60);
        assert!(!r.status.success(), "{rules}: a build over notes succeeded");
        let err = String::from_utf8_lossy(&r.stderr);
        // In the words of `mancala egdb build`, naming the database it was to write.
        assert!(
            err.contains(name)
                && err.ends_with(&format!(
                    " already exists and cannot be told to hold that database (not a mancala endgame database (bad magic)): not written over with {what}; --force writes over it\n"
                )),
            "{rules}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{rules}: {err}");
        assert_eq!(std::fs::read(&target).unwrap(), b"my notes\n", "{rules}");
        // Forced, the database is written; built again, the same database is replaced.
        let mut forced = args.to_vec();
        forced.push("--force");
        ok(&run1(&forced, 60));
        let first = std::fs::read(&target).unwrap();
        assert_ne!(first, b"my notes\n");
        ok(&run1(&args, 60));
        assert_eq!(std::fs::read(&target).unwrap(), first, "{rules}");
    }
    // Another database under the name: the Kalah file of K = 5 renamed to K = 6's name.
    let other = out.join("kalah6.k6.egdb");
    std::fs::copy(out.join("kalah6.k5.egdb"), &other).unwrap();
    let r = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "standard",
            "--max-seeds",
            "6",
            "--out",
            o,
        ],
        60,
    );
    assert!(!r.status.success());
    let err = String::from_utf8_lossy(&r.stderr);
    assert!(
        err.contains("kalah6.k6.egdb already exists and holds another database (kalah(6,·), K = 5, byte encoding): not written over with kalah(6,·), K = 6, byte encoding; --force writes over it"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&other).unwrap(),
        std::fs::read(out.join("kalah6.k5.egdb")).unwrap()
    );
}

/// `--force` is suggested only where it would work: in a folder that cannot take a file, a
/// file at the database's name is not what is refused, the folder is (only where the system
/// refuses the write: root writes into a read-only folder, and there `--force` would work).
#[cfg(unix)]
#[test]
fn a_folder_that_cannot_be_written_is_refused_as_such() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("read-only");
    std::fs::create_dir_all(&out).unwrap();
    let o = out.to_str().unwrap();
    for name in ["kalah6.k5.egdb", "awari.n4.egdb"] {
        std::fs::write(out.join(name), b"my notes\n").unwrap();
    }
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o555)).unwrap();
    let writable = std::fs::write(out.join("probe"), b"").is_ok();
    for (rules, seeds) in [("standard", "5"), ("awari", "4")] {
        let args = [
            "egdb",
            "build",
            "--rules",
            rules,
            "--max-seeds",
            seeds,
            "--out",
            o,
            "--threads",
            "1",
        ];
        let r = run1(&args, 60);
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(!r.status.success(), "{rules}: {err}");
        if writable {
            assert!(err.contains("--force"), "{rules}: {err}");
        } else {
            assert!(
                err.contains(&format!("--out {o}: Permission denied")) && !err.contains("--force"),
                "{rules}: {err}"
            );
        }
    }
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// The database's file name in `--out` held by a socket (a device or a FIFO alike): the
/// build is refused before it starts, `--force` or not, and the socket is left as it was;
/// the save's rename replaced it with the database.
#[cfg(unix)]
#[test]
fn a_target_that_is_no_regular_file_is_refused_even_forced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let sock = out.join("kalah6.k13.egdb");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let out_s = out.to_str().unwrap();
    for extra in [&[][..], &["--force"]] {
        let o = run1(&build_args("standard", out_s, extra), 120);
        assert_eq!(o.status.code(), Some(1), "{extra:?}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "{}: not a regular file, which a save does not replace",
                sock.display()
            )),
            "{extra:?}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{extra:?}: {err}");
        assert!(!out.join("kalah6.k13.egdb.partial").exists(), "{extra:?}");
    }
    assert!(std::fs::symlink_metadata(&sock)
        .unwrap()
        .file_type()
        .is_socket());
}

/// `--out` naming a file, or a socket (a FIFO or a device alike), rather than a folder, or a
/// folder below a file: the build is refused at once, naming what is there ("File exists"
/// before, for a socket; "Not a directory" for the folder below a file), as `mancala`
/// names it.
#[cfg(unix)]
#[test]
fn an_out_that_is_no_folder_is_named_for_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("file");
    std::fs::write(&file, b"x").unwrap();
    let sock = dir.path().join("sock");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    for (out, what) in [(&file, "a file"), (&sock, "a FIFO, socket or device")] {
        let o = run1(&build_args("standard", out.to_str().unwrap(), &[]), 120);
        assert_eq!(o.status.code(), Some(1), "{what}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "--out {}: it is {what}, not a folder",
                out.display()
            )),
            "{what}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "{what}: {err}");
    }
    let below = file.join("sub");
    let o = run1(&build_args("standard", below.to_str().unwrap(), &[]), 120);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o).trim_end(),
        format!(
            "mancala-mpi: error: --out {}: {} is a file, not a folder",
            below.display(),
            file.display()
        )
    );
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}

/// The line after each layer counts its positions in words: layer k of m = 6 holds the
/// ways to put k seeds in 12 houses, C(k + 11, k): one position (all houses empty) at k = 0,
/// singular, and 12 at k = 1.
#[test]
fn the_layer_lines_count_one_position_in_the_singular() {
    let dir = tempfile::tempdir().unwrap();
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "standard",
            "--max-seeds",
            "1",
            "--out",
            dir.path().to_str().unwrap(),
            "--threads",
            "1",
        ],
        60,
    );
    ok(&o);
    let e = stderr(&o);
    let layer = |k: u32| {
        e.lines()
            .find(|l| l.starts_with(&format!("mancala-mpi: layer {k}/1 done in ")))
            .unwrap_or_else(|| panic!("no line of layer {k}: {e}"))
            .to_string()
    };
    assert!(layer(0).contains(" s, 1 position; busy seconds"), "{e}");
    assert!(layer(1).contains(" s, 12 positions; busy seconds"), "{e}");
}

/// The Awari build of one process counts in words too: its summary names the one rank in the
/// singular, and the 13 boards of levels 0..=1 (the empty board, and one seed in any of 12
/// houses); no count of one is printed in the plural.
#[test]
fn the_awari_lines_count_one_rank_in_the_singular() {
    let dir = tempfile::tempdir().unwrap();
    let o = run1(
        &[
            "egdb",
            "build",
            "--rules",
            "awari",
            "--max-seeds",
            "1",
            "--out",
            dir.path().to_str().unwrap(),
            "--threads",
            "1",
        ],
        60,
    );
    let out = ok(&o);
    let e = stderr(&o);
    assert!(out.contains(": 13 boards by 1 rank in "), "{out}");
    for plural in ["1 ranks", "1 exchange rounds", "1 updates", "1 boards"] {
        assert!(
            !out.contains(plural) && !e.contains(plural),
            "{plural}: {out}{e}"
        );
    }
}

/// A FIFO or a socket at the partial file's name, or a symbolic link to `/dev/null`: the
/// build is refused at once, with or without `--resume`, in one line naming the file (the
/// link as a link), and nothing there is touched. The FIFO's open would wait forever for a writer (and the probe of
/// whether another build uses the file opened it): `run1`'s time limit turns such a hang
/// into a failure (status 124) rather than a test that never ends.
#[cfg(unix)]
#[test]
fn a_partial_file_that_is_no_regular_file_is_refused_without_waiting() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    std::fs::create_dir(&out).unwrap();
    let partial = out.join("kalah6.k13.egdb.partial");
    let out_s = out.to_str().unwrap();
    let mut listeners = Vec::new();
    for what in ["fifo", "socket", "link to /dev/null"] {
        let _ = std::fs::remove_file(&partial);
        match what {
            "fifo" => {
                let made = std::process::Command::new("mkfifo").arg(&partial).status();
                assert!(made.is_ok_and(|s| s.success()), "mkfifo");
            }
            "socket" => listeners.push(std::os::unix::net::UnixListener::bind(&partial).unwrap()),
            _ => std::os::unix::fs::symlink("/dev/null", &partial).unwrap(),
        }
        for extra in [&[][..], &["--resume"]] {
            let o = run1(&build_args("standard", out_s, extra), 20);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{what} {extra:?}: {err}");
            let why = if what.starts_with("link") {
                link(std::path::Path::new("/dev/null"), false)
            } else {
                "not a regular file".to_string()
            };
            assert_eq!(
                err,
                format!("mancala-mpi: error: {}: {why}\n", partial.display()),
                "{what} {extra:?}"
            );
        }
        let t = std::fs::symlink_metadata(&partial).unwrap().file_type();
        let kept = match what {
            "fifo" => t.is_fifo(),
            "socket" => t.is_socket(),
            _ => t.is_symlink(),
        };
        assert!(kept, "{what}: changed to {t:?}");
        assert!(!out.join("kalah6.k13.egdb").exists(), "{what}");
    }
}

/// Why a symbolic link to `target` at the partial file's name is refused: what to do is to
/// remove the link, and to move the target in its place only when it is a regular file (a
/// partial file kept elsewhere), never a device or a FIFO.
#[cfg(unix)]
fn link(target: &std::path::Path, regular: bool) -> String {
    let own = "the partial file must be a file of its own (a finished build removes it by name, which would leave the file the link leads to)";
    let to = target.display();
    if regular {
        format!("it is a symbolic link to {to}; {own}: remove the link to start the build, or move that file here in place of the link to resume it")
    } else {
        format!("it is a symbolic link to {to}, which is not a regular file; {own}: remove the link to start the build")
    }
}

/// A symbolic link at the partial file's name is refused, with or without `--resume`, in one
/// line naming it and what it is: one that leads nowhere (a loop, a missing target: the
/// system said only "File exists"), and one to a partial file of this very build (a resume
/// through it would leave that file behind once the link is removed). The link, and the file
/// it leads to, are left as they are, and nothing is built.
#[cfg(unix)]
#[test]
fn a_link_at_the_partial_file_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let out_s = out.to_str().unwrap();
    let partial = out.join("kalah6.k13.egdb.partial");
    // A real partial file of this build, holding layers 0..=2, elsewhere.
    let elsewhere = dir.path().join("elsewhere");
    let o = run1(
        &build_args(
            "standard",
            elsewhere.to_str().unwrap(),
            &["--stop-after-layer", "2"],
        ),
        120,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let real = elsewhere.join("kalah6.k13.egdb.partial");
    let bytes = std::fs::read(&real).unwrap();
    std::fs::create_dir(&out).unwrap();
    let nowhere = "it is a symbolic link that leads nowhere (a loop, or a missing target), where the partial file goes; delete it to start the build".to_string();
    let fifo = dir.path().join("fifo");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for (what, target, why) in [
        (
            "loop",
            std::path::Path::new("kalah6.k13.egdb.partial"),
            nowhere.clone(),
        ),
        (
            "dangling",
            std::path::Path::new("/nonexistent/partial"),
            nowhere.clone(),
        ),
        (
            "dangling, creatable",
            &dir.path().join("nothing-yet"),
            nowhere.clone(),
        ),
        ("a partial file", &real, link(&real, true)),
        // A relative link is named by the path it leads to from here (the link's folder
        // joined to what it holds), which a user can copy from any folder.
        (
            "a partial file, relative",
            std::path::Path::new("../elsewhere/kalah6.k13.egdb.partial"),
            link(&out.join("../elsewhere/kalah6.k13.egdb.partial"), true),
        ),
        ("a FIFO", &fifo, link(&fifo, false)),
    ] {
        let _ = std::fs::remove_file(&partial);
        std::os::unix::fs::symlink(target, &partial).unwrap();
        for extra in [&[][..], &["--resume"]] {
            let o = run1(&build_args("standard", out_s, extra), 60);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(1), "{what} {extra:?}: {err}");
            assert_eq!(
                err,
                format!("mancala-mpi: error: {}: {why}\n", partial.display()),
                "{what} {extra:?}"
            );
        }
        assert!(
            std::fs::symlink_metadata(&partial).unwrap().is_symlink(),
            "{what}"
        );
        assert_eq!(std::fs::read_link(&partial).unwrap(), target, "{what}");
        assert!(!out.join("kalah6.k13.egdb").exists(), "{what}");
    }
    assert!(!dir.path().join("nothing-yet").exists());
    assert_eq!(std::fs::read(&real).unwrap(), bytes);
}

/// A symbolic link to a folder at the database's name is replaced by the new file, as one to
/// a file or to nothing is (the link itself is looked at, not the folder it leads to, which
/// is left as it was).
#[cfg(unix)]
#[test]
fn a_link_to_a_folder_at_the_database_name_is_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let (out, folder) = (dir.path().join("out"), dir.path().join("folder"));
    std::fs::create_dir(&out).unwrap();
    std::fs::create_dir(&folder).unwrap();
    let db = out.join("kalah4.k8.egdb");
    std::os::unix::fs::symlink(&folder, &db).unwrap();
    let args = [
        "egdb",
        "build",
        "--rules",
        "kalah(4,3)",
        "--max-seeds",
        "8",
        "--out",
        out.to_str().unwrap(),
        "--force",
        "--quiet",
    ];
    let o = run1(&args, 60);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&db).unwrap().is_file());
    assert_eq!(std::fs::read_dir(&folder).unwrap().count(), 0);
}

/// Refusals in the words of `mancala egdb build` (its texts written out here): `error:`
/// after the command's name, Awari's seeds, a game without databases, and a layer outside
/// the range of `--stop-after-layer` refused as the other options' ranges are (status 2).
#[test]
fn refusals_are_in_mancala_s_words() {
    let cases: [(&[&str], &str); 3] = [
        (
            &["--rules", "awari", "--max-seeds", "99"],
            "mancala-mpi: error: --max-seeds 99: awari has 48 seeds, so at most 48\n",
        ),
        (
            &["--rules", "bao-la-kete", "--max-seeds", "3"],
            "mancala-mpi: error: --rules bao-la-kete: endgame databases are for Kalah and the Awari rule sets only (Bao la Kete has no exact solver or database here)\n",
        ),
        (
            &["--rules", "standard", "--max-seeds", "99"],
            "mancala-mpi: error: K = 99 is more seeds than standard has: the largest K allowed is 35\n",
        ),
    ];
    for (given, want) in cases {
        let mut args = vec!["egdb", "build", "--out", "never-made"];
        args.extend_from_slice(given);
        let o = run1(&args, 30);
        assert_eq!(o.status.code(), Some(1), "{given:?}: {o:?}");
        assert_eq!(String::from_utf8_lossy(&o.stderr), want, "{given:?}");
    }
    let o = run1(
        &build_args("standard", "never-made", &["--stop-after-layer", "-1"]),
        30,
    );
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(
        e.contains(
            "invalid value '-1' for '--stop-after-layer <N>': -1 is out of range (0 to 127)"
        ),
        "{e}"
    );
}
