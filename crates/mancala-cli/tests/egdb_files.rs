//! `mancala egdb` and `--egdb` under attack: files that change while they are
//! read, planted symlinks, builds killed or interrupted in their save, a disk that refuses
//! the write, two builds into one folder, renamed and damaged files in a folder, and long
//! bad input.

mod common;

use std::path::Path;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use common::{mancala, mancala_command, scratch, text};

fn build_args(out: &Path, k: u32) -> Vec<String> {
    [
        "egdb",
        "build",
        "--rules",
        "kalah(4,3)",
        "--max-seeds",
        &k.to_string(),
        "--out",
        out.to_str().unwrap(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

fn build(out: &Path, k: u32) -> Output {
    let args = build_args(out, k);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    mancala(&args)
}

/// The names in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// `egdb verify F` and `solve --egdb F`, run again and again while a thread cuts the file
/// and writes it back in place: each run ends with status 0 or 1 and a message, never killed
/// by a signal (with a memory map of the file, SIGBUS killed it).
#[test]
fn verify_and_solve_on_a_changing_file_fail_cleanly() {
    let dir = scratch("egdb-files", "changing");
    assert!(build(&dir, 16).status.success());
    let path = dir.join("kalah4.k16.egdb");
    let good = std::fs::read(&path).unwrap();
    let stop = AtomicBool::new(false);
    let (mut ok, mut refused) = (0, 0);
    std::thread::scope(|s| {
        s.spawn(|| {
            use std::io::{Seek, SeekFrom, Write};
            let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
            while !stop.load(Ordering::Relaxed) {
                f.set_len(100).unwrap();
                std::thread::sleep(Duration::from_micros(500));
                f.seek(SeekFrom::Start(0)).unwrap();
                f.write_all(&good).unwrap();
                std::thread::sleep(Duration::from_micros(500));
            }
        });
        // Stops the writer however this loop ends (a failed assertion included), so that
        // the scope can end.
        struct Stop<'a>(&'a AtomicBool);
        impl Drop for Stop<'_> {
            fn drop(&mut self) {
                self.0.store(true, Ordering::Relaxed);
            }
        }
        let _stop = Stop(&stop);
        let p = path.to_str().unwrap();
        for i in 0..40 {
            let out = if i % 2 == 0 {
                mancala(&["egdb", "verify", p])
            } else {
                mancala(&[
                    "solve",
                    "--rules",
                    "kalah(4,1)",
                    "--tt-mb",
                    "1",
                    "--egdb",
                    p,
                ])
            };
            match out.status.code() {
                Some(0) => ok += 1,
                Some(1) => {
                    let err = text(&out.stderr);
                    assert!(
                        err.starts_with("mancala: error: ") && err.contains(p),
                        "{err}"
                    );
                    refused += 1;
                }
                other => panic!("{other:?} (killed by a signal?): {}", text(&out.stderr)),
            }
        }
    });
    assert!(
        refused > 0,
        "{ok} runs succeeded, none met the damaged file"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `egdb build` into a folder where someone planted symlinks to the user's file at the
/// database's name and at the fixed `.tmp` name builds once used: the user's file is left
/// byte for byte as it was, and the database is a regular file.
#[test]
#[cfg(unix)]
fn a_build_never_writes_through_a_planted_symlink() {
    let dir = scratch("egdb-files", "symlink");
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let victim = dir.join("important.txt");
    std::fs::write(&victim, b"precious\n").unwrap();
    for name in ["kalah4.k8.egdb", "kalah4.k8.egdb.tmp"] {
        std::os::unix::fs::symlink(&victim, out.join(name)).unwrap();
    }
    let r = build(&out, 8);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(std::fs::read(&victim).unwrap(), b"precious\n");
    let db = out.join("kalah4.k8.egdb");
    assert!(std::fs::symlink_metadata(&db)
        .unwrap()
        .file_type()
        .is_file());
    let v = mancala(&["egdb", "verify", db.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v.stderr));
    assert_eq!(listing(&out), ["kalah4.k8.egdb", "kalah4.k8.egdb.tmp"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--force` is suggested only where it would work: a conversion to an encoding the game's
/// databases do not have (a Kalah database to compact) is refused for that, whatever stands
/// at its output; a folder that cannot take a file is refused as such (only where the
/// system refuses the write: root writes into a read-only folder, and there `--force`
/// would work), by `egdb build` of both games and `egdb convert`.
#[test]
fn force_is_suggested_only_where_it_would_work() {
    let dir = scratch("egdb-files", "force-hint");
    let k6 = dir.join("kalah4.k6.egdb");
    assert!(build(&dir, 6).status.success());
    let k = k6.to_str().unwrap();
    // The compact name beside it, and a file of notes, both in the way.
    let compact = dir.join("kalah4.k6.compact.egdb");
    std::fs::copy(&k6, &compact).unwrap();
    let notes = dir.join("notes.egdb");
    std::fs::write(&notes, b"my notes\n").unwrap();
    let n = notes.to_str().unwrap();
    for more in [&[][..], &["--out", n][..], &["--out", n, "--force"][..]] {
        let mut args = vec!["egdb", "convert", k, "--encoding", "compact"];
        args.extend_from_slice(more);
        let r = mancala(&args);
        let err = text(&r.stderr);
        assert!(!r.status.success(), "{more:?}");
        assert!(
            err.contains("a Kalah database has no compact encoding") && !err.contains("--force"),
            "{more:?}: {err}"
        );
    }
    assert_eq!(std::fs::read(&notes).unwrap(), b"my notes\n");
    assert_eq!(
        std::fs::read(&compact).unwrap(),
        std::fs::read(&k6).unwrap()
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = dir.join("read-only");
        std::fs::create_dir(&ro).unwrap();
        let in_ro = ro.join("notes.egdb");
        std::fs::write(&in_ro, b"my notes\n").unwrap();
        std::fs::copy(&k6, ro.join("kalah4.k6.egdb")).unwrap();
        // In the way of the conversion beside the file, too.
        std::fs::write(ro.join("kalah4.k6.packed.egdb"), b"my notes\n").unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        let writable = std::fs::write(ro.join("probe"), b"").is_ok();
        let target = in_ro.to_str().unwrap();
        let source = ro.join("kalah4.k6.egdb");
        let runs: [Vec<&str>; 4] = [
            vec![
                "egdb",
                "build",
                "--rules",
                "kalah(4,3)",
                "--max-seeds",
                "5",
                "--out",
                target,
            ],
            vec![
                "egdb",
                "build",
                "--rules",
                "awari",
                "--max-seeds",
                "4",
                "--out",
                target,
            ],
            vec![
                "egdb",
                "convert",
                k,
                "--encoding",
                "packed",
                "--out",
                target,
            ],
            vec![
                "egdb",
                "convert",
                source.to_str().unwrap(),
                "--encoding",
                "packed",
            ],
        ];
        for args in &runs {
            let r = mancala(args);
            let err = text(&r.stderr);
            assert!(!r.status.success(), "{args:?}: {err}");
            assert_eq!(err.trim_end().lines().count(), 1, "{err}");
            if writable {
                // Root: the folder takes the file, the one in the way is what is refused.
                assert!(err.contains("--force"), "{args:?}: {err}");
            } else {
                assert!(
                    err.contains(&format!("{}", ro.display())) && !err.contains("--force"),
                    "{args:?}: {err}"
                );
                assert!(err.contains("Permission denied"), "{args:?}: {err}");
                assert!(!err.contains(".mancala-write-check"), "{args:?}: {err}");
            }
        }
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(std::fs::read(&in_ro).unwrap(), b"my notes\n");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--out` naming a file that holds another database (another K, rule family, game or
/// encoding) or no database: `egdb build` and `egdb convert` refuse it in one line naming the
/// file, what it holds and `--force`, and leave it as it was; a file of the same database is
/// replaced (a rebuild), and `--force` writes over another.
#[test]
fn an_output_holding_something_else_is_refused_unless_forced() {
    let dir = scratch("egdb-files", "overwrite");
    let k6 = dir.join("mine.egdb");
    let k6s = k6.to_str().unwrap();
    assert!(build(&k6, 6).status.success());
    let before = std::fs::read(&k6).unwrap();
    let refused = |r: &Output, file: &str, holds: &str| {
        let err = text(&r.stderr);
        assert!(!r.status.success(), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.contains(file) && err.contains(holds) && err.contains("--force"),
            "{err}"
        );
    };
    // Another K, another rule family, another game, another encoding.
    refused(
        &build(&k6, 8),
        "mine.egdb",
        "kalah(4,·), K = 6, byte encoding",
    );
    for (rules, n, more) in [
        ("kalah(4,3)+empty_capture", "6", None),
        ("awari", "4", None),
        ("kalah(4,3)", "6", Some("packed")),
    ] {
        let mut args = vec![
            "egdb",
            "build",
            "--rules",
            rules,
            "--max-seeds",
            n,
            "--out",
            k6s,
        ];
        if let Some(e) = more {
            args.extend(["--encoding", e]);
        }
        refused(&mancala(&args), "mine.egdb", "holds another database");
    }
    assert_eq!(std::fs::read(&k6).unwrap(), before);
    // A file that is no database; and `egdb convert --out` onto either.
    let notes = dir.join("notes.egdb");
    std::fs::write(&notes, b"my notes\n").unwrap();
    refused(
        &build(&notes, 6),
        "notes.egdb",
        "cannot be told to hold that database",
    );
    let other = dir.join("other.egdb");
    assert!(build(&other, 4).status.success());
    let o = other.to_str().unwrap();
    for target in [&notes, &k6] {
        let t = target.to_str().unwrap();
        let r = mancala(&["egdb", "convert", o, "--encoding", "packed", "--out", t]);
        refused(&r, t.rsplit('/').next().unwrap(), "--force");
    }
    assert_eq!(std::fs::read(&notes).unwrap(), b"my notes\n");
    assert_eq!(std::fs::read(&k6).unwrap(), before);
    // The same database again: replaced, the same bytes.
    let r = build(&k6, 6);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert_eq!(std::fs::read(&k6).unwrap(), before);
    // --force: K = 8 over it, C(8 + 8, 8) = 12870 entries; and the notes written over.
    let mut args = build_args(&k6, 8);
    args.push("--force".into());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let r = mancala(&args);
    assert!(r.status.success(), "{}", text(&r.stderr));
    let info = mancala(&["egdb", "info", k6s]);
    assert!(
        text(&info.stdout).contains("entries         12870"),
        "{}",
        text(&info.stdout)
    );
    let n = notes.to_str().unwrap();
    let r = mancala(&[
        "egdb",
        "convert",
        o,
        "--encoding",
        "packed",
        "--out",
        n,
        "--force",
    ]);
    assert!(r.status.success(), "{}", text(&r.stderr));
    assert!(mancala(&["egdb", "verify", n]).status.success());
    // --force without --out is refused by the parser (nothing it could apply to).
    let r = mancala(&[
        "egdb",
        "build",
        "--rules",
        "kalah(4,3)",
        "--cache",
        "--force",
    ]);
    assert!(!r.status.success(), "{}", text(&r.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Whether `name` is a temporary file of a save of `kalah4.k<k>.egdb`.
fn is_temporary(name: &str, k: u32) -> bool {
    name.starts_with(&format!(".kalah4.k{k}.egdb.")) && name.ends_with(".tmp")
}

/// Starts `egdb build` of K = 24 (10.5 MB) into `out` and sends it `signal` as soon as its
/// temporary file appears. Tries again (up to 6 times) when the save was over before the
/// signal arrived. Returns the build's output.
#[cfg(unix)]
fn signal_in_the_save(out: &Path, signal: &str) -> Output {
    const K: u32 = 24;
    for _ in 0..6 {
        let _ = std::fs::remove_dir_all(out);
        std::fs::create_dir_all(out).unwrap();
        let child = mancala_command()
            .args(build_args(out, K))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let pid = child.id().to_string();
        let start = Instant::now();
        let mut sent = false;
        while start.elapsed() < Duration::from_secs(120) {
            let seen = listing(out).iter().any(|n| is_temporary(n, K));
            if seen {
                let killed = Command::new("kill")
                    .args([&format!("-{signal}"), pid.as_str()])
                    .status()
                    .unwrap();
                sent = killed.success();
                break;
            }
            if out.join(format!("kalah4.k{K}.egdb")).exists() {
                break;
            }
            std::thread::yield_now();
        }
        let output = child.wait_with_output().unwrap();
        if sent && !output.status.success() {
            return output;
        }
    }
    panic!("the signal never arrived during a save in 6 builds");
}

/// Whether the repository's `.gitignore` ignores a file named `name` at the top of the work
/// tree (outside the ignored `egdb/` and `target/`), by `git check-ignore` (git is there: this is a clone; a missing git fails the test
/// unless MANCALA_SKIP_MISSING_TOOLS is set, README "Two commands").
fn assert_git_ignores(name: &str) {
    if !common::require_tool("git", "git") {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new("git")
        .arg("-C")
        .arg(&root)
        .args(["check-ignore", "--no-index", "-q", "--"])
        .arg(name)
        .output()
        .expect("git runs");
    assert_eq!(
        out.status.code(),
        Some(0),
        ".gitignore does not ignore the temporary file {name} ({})",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A build killed (SIGKILL) in its save leaves its temporary file; the next build into the
/// folder removes it, says so, and succeeds.
#[test]
#[cfg(unix)]
fn the_next_build_removes_what_a_killed_save_left() {
    let dir = scratch("egdb-files", "killed");
    // Under load the signal may land just after the save's rename (then nothing is left):
    // kill another build then.
    let left = (0..6)
        .find_map(|_| {
            let out = signal_in_the_save(&dir, "KILL");
            assert_eq!(out.status.code(), None, "killed by the signal");
            let left: Vec<String> = listing(&dir)
                .into_iter()
                .filter(|n| is_temporary(n, 24))
                .collect();
            assert!(left.len() <= 1, "{:?}", listing(&dir));
            (left.len() == 1).then_some(left)
        })
        .expect("no build was killed before its rename in 6 tries");
    assert_git_ignores(&left[0]);
    let next = build(&dir, 24);
    let err = text(&next.stderr);
    assert!(next.status.success(), "{err}");
    assert!(
        err.contains(&left[0]) && err.contains("left by an earlier save that was killed"),
        "{err}"
    );
    assert_eq!(listing(&dir), ["kalah4.k24.egdb"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Ctrl-C (SIGINT) or SIGTERM during the save: the build removes its temporary file and
/// exits with 128 + the signal number.
#[test]
#[cfg(unix)]
fn an_interrupted_save_removes_its_temporary_file() {
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let dir = scratch("egdb-files", &format!("interrupted-{signal}"));
        let out = signal_in_the_save(&dir, signal);
        assert_eq!(out.status.code(), Some(code), "{}", text(&out.stderr));
        assert!(text(&out.stderr).contains("interrupted"));
        let left: Vec<String> = listing(&dir)
            .into_iter()
            .filter(|n| is_temporary(n, 24))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// Ctrl-C (SIGINT) or SIGTERM during a build whose `--out` folders it created: they are
/// removed again, as a failed build removes them, and the folder above them, which was
/// there, stays. The signal is sent once the folder exists (the build is then under way: a
/// K = 24 build of Kalah(4,·) takes far longer than the folder's creation); a build that
/// ends before it arrives is tried again.
#[test]
#[cfg(unix)]
fn an_interrupted_build_removes_the_folders_it_created() {
    for (signal, code) in [("INT", 130), ("TERM", 143)] {
        let dir = scratch("egdb-files", &format!("interrupted-folders-{signal}"));
        let top = dir.join("newdir2");
        let out = top.join("a");
        let mut out_arg = out.to_str().unwrap().to_owned();
        out_arg.push('/');
        let mut interrupted = None;
        for _ in 0..6 {
            let _ = std::fs::remove_dir_all(&top);
            let mut child = mancala_command()
                .args(build_args(Path::new(&out_arg), 24))
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap();
            let pid = child.id().to_string();
            while !out.exists() {
                let ended = child.try_wait().unwrap();
                assert!(ended.is_none(), "the build ended before making {out:?}");
                std::thread::yield_now();
            }
            let sent = Command::new("kill")
                .args([&format!("-{signal}"), pid.as_str()])
                .status()
                .unwrap()
                .success();
            let output = child.wait_with_output().unwrap();
            if sent && !output.status.success() {
                interrupted = Some(output);
                break;
            }
        }
        let output = interrupted.expect("no build was interrupted in 6 tries");
        assert_eq!(output.status.code(), Some(code), "{}", text(&output.stderr));
        assert!(!top.exists(), "{:?}", listing(&top));
        assert!(dir.is_dir());
    }
}

/// A save that the system refuses part way (a file size limit, `ulimit -f`, standing in for
/// a full disk: both fail the write) reports the error in one line naming the output file
/// (the temporary file only as the one removed) and leaves no temporary file, for Kalah and
/// for Awari. The limit's signal, SIGXFSZ, is left at its default
/// action (a process killed without a word): the command itself ignores it, so that the
/// write fails with EFBIG instead.
#[test]
#[cfg(unix)]
fn a_refused_write_leaves_no_temporary_file() {
    use std::os::unix::process::CommandExt;
    let dir = scratch("egdb-files", "refused");
    let d = dir.to_str().unwrap();
    // 100 blocks of 512 or 1024 bytes, well under the 735,517 bytes of the Kalah file and
    // the C(20, 8) = 125,970 boards, a byte each, of Awari's level 8.
    for (file, args) in [
        ("kalah4.k16.egdb", build_args(&dir, 16)),
        (
            "awari.n8.egdb",
            [
                "egdb",
                "build",
                "--rules",
                "awari",
                "--max-seeds",
                "8",
                "--out",
                d,
            ]
            .iter()
            .map(|s| s.to_string())
            .collect(),
        ),
    ] {
        let mut cmd = mancala_command();
        cmd.args(&args);
        // SAFETY: `setrlimit` and `signal` are async-signal-safe; the closure allocates
        // nothing and touches no lock.
        unsafe {
            cmd.pre_exec(|| {
                let limit = libc::rlimit {
                    rlim_cur: 100 * 512,
                    rlim_max: 100 * 512,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                libc::signal(libc::SIGXFSZ, libc::SIG_DFL);
                Ok(())
            });
        }
        let out = cmd.output().unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
        let last = err.lines().last().unwrap_or("");
        assert!(
            last.starts_with("mancala: error: ") && last.contains("File too large"),
            "{args:?}: {err}"
        );
        assert_eq!(err.matches("File too large").count(), 1, "{args:?}: {err}");
        let named = format!(
            "mancala: error: {}: File too large",
            dir.join(file).display()
        );
        assert!(last.starts_with(&named), "{args:?}: {err}");
        assert!(
            last.contains(&format!("; its temporary file .{file}."))
                && last.ends_with(" was removed"),
            "{args:?}: {err}"
        );
        assert!(listing(&dir).is_empty(), "{args:?}: {:?}", listing(&dir));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two builds of the same database into one folder at once both succeed, and the file is
/// whole.
#[test]
fn two_builds_into_one_folder_both_succeed() {
    let dir = scratch("egdb-files", "two");
    let spawn = || mancala_command().args(build_args(&dir, 16)).output();
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(spawn);
        let b = s.spawn(spawn);
        (a.join().unwrap().unwrap(), b.join().unwrap().unwrap())
    });
    assert!(a.status.success(), "{}", text(&a.stderr));
    assert!(b.status.success(), "{}", text(&b.stderr));
    assert_eq!(listing(&dir), ["kalah4.k16.egdb"]);
    let f = dir.join("kalah4.k16.egdb");
    let v = mancala(&["egdb", "verify", f.to_str().unwrap()]);
    assert!(v.status.success(), "{}", text(&v.stderr));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A folder search goes by the headers: a K = 6 file renamed `kalah4.k99.egdb` is a K = 6
/// database, so the K = 8 file is chosen; a damaged file and a file for other rules are
/// named with their reasons by `--verbose` and by `egdb info DIR`.
#[test]
fn a_folder_search_trusts_headers_not_names() {
    let dir = scratch("egdb-files", "folder");
    assert!(build(&dir, 6).status.success());
    assert!(build(&dir, 8).status.success());
    std::fs::rename(dir.join("kalah4.k6.egdb"), dir.join("kalah4.k99.egdb")).unwrap();
    std::fs::write(dir.join("kalah4.k50.egdb"), b"MNCLEGDB but nothing more").unwrap();
    let other = mancala(&[
        "egdb",
        "build",
        "--rules",
        "kalah(4,3)+empty_capture",
        "--max-seeds",
        "4",
        "--out",
        dir.to_str().unwrap(),
    ]);
    assert!(other.status.success());
    let d = dir.to_str().unwrap();
    let out = mancala(&[
        "solve",
        "--rules",
        "kalah(4,1)",
        "--tt-mb",
        "1",
        "--egdb",
        d,
        "--verbose",
    ]);
    let err = text(&out.stderr);
    assert!(out.status.success(), "{err}");
    let k8 = dir.join("kalah4.k8.egdb");
    assert!(
        text(&out.stdout).contains(&format!("database    {}", k8.display())),
        "{}",
        text(&out.stdout)
    );
    assert!(err.contains(&format!("using {}", k8.display())), "{err}");
    let damaged = dir.join("kalah4.k50.egdb");
    assert!(
        err.contains(&format!(
            "skipped {}: database file truncated",
            damaged.display()
        )),
        "{err}"
    );
    let capture = dir.join("kalah4+empty_capture.k4.egdb");
    assert!(
        err.contains(&format!("skipped {}: built for", capture.display())),
        "{err}"
    );
    let info = mancala(&["egdb", "info", d]);
    let listed = text(&info.stdout);
    assert!(info.status.success());
    assert_eq!(listed.lines().count(), 4, "{listed}");
    assert!(
        listed.contains(&format!(
            "{}: kalah(4,·), K = 6,",
            dir.join("kalah4.k99.egdb").display()
        )),
        "{listed}"
    );
    assert!(
        listed.contains(&format!(
            "{}: unusable: database file truncated",
            damaged.display()
        )),
        "{listed}"
    );
    // With only the damaged file and the other rules' file, the error names both reasons.
    std::fs::remove_file(&k8).unwrap();
    std::fs::remove_file(dir.join("kalah4.k99.egdb")).unwrap();
    let out = mancala(&["solve", "--rules", "kalah(4,1)", "--egdb", d]);
    let err = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("no endgame database")
            && err.contains("truncated")
            && err.contains("built for"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A file whose header reads but whose payload is damaged (one byte changed) is listed as
/// unusable by `egdb info DIR`, with the checksum reason `solve --verbose` gives when it
/// passes it over: what `info` calls usable is what the solver uses (reading only the
/// headers, `info` once listed such a file as a good K = 8 database).
#[test]
fn info_of_a_folder_names_a_damaged_payload_as_solve_does() {
    let dir = scratch("egdb-files", "damaged-payload");
    assert!(build(&dir, 8).status.success());
    let file = dir.join("kalah4.k8.egdb");
    let mut bytes = std::fs::read(&file).unwrap();
    let at = bytes.len() - 100;
    bytes[at] ^= 0x5a;
    std::fs::write(&file, &bytes).unwrap();
    let d = dir.to_str().unwrap();
    let info = mancala(&["egdb", "info", d]);
    let listed = text(&info.stdout);
    // The only file is unusable: listed with its reason, and the folder refused.
    assert_eq!(info.status.code(), Some(1), "{}", text(&info.stderr));
    assert_eq!(
        text(&info.stderr).trim_end(),
        format!("mancala: error: {d}: no usable database (1 file, every one unusable)")
    );
    assert!(
        listed.starts_with(&format!("{}: unusable: ", file.display()))
            && listed.contains("checksum"),
        "{listed}"
    );
    let out = mancala(&["solve", "--rules", "kalah(4,1)", "--egdb", d, "--verbose"]);
    let err = text(&out.stderr);
    assert!(!out.status.success());
    let reason = listed
        .trim_end()
        .split(": unusable: ")
        .nth(1)
        .unwrap()
        .to_string();
    assert!(
        err.contains(&reason),
        "{err}\nnot the reason of info: {reason}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A folder given where a file is read or written is named as a folder, not with the
/// system's "Is a directory (os error 21)".
#[test]
fn a_folder_where_a_file_should_be_is_named() {
    let dir = scratch("egdb-files", "folder-not-file");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let want = format!("{d}: it is a folder, not a file");
    for args in [vec!["egdb", "verify", d], vec!["bench", "--file", d]] {
        let out = mancala(&args);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "{args:?}");
        assert!(err.contains(&want), "{args:?}: {err}");
        assert!(!err.contains("os error"), "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--out NAME.egdb/` names a folder, as every path ending in `/` does: a new one is made
/// and the database written into it; a file or a link that leads nowhere there is named as
/// such (the build took the name for a file and got "Not a directory" from the system).
#[test]
#[cfg(unix)]
fn an_out_ending_in_a_slash_is_a_folder_whatever_its_name() {
    let dir = scratch("egdb-files", "out-slash");
    std::fs::create_dir_all(&dir).unwrap();
    let new = dir.join("new.egdb");
    let out = build(Path::new(&format!("{}/", new.display())), 4);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(listing(&new), ["kalah4.k4.egdb"]);
    std::fs::write(dir.join("file.egdb"), b"x").unwrap();
    std::os::unix::fs::symlink(dir.join("missing"), dir.join("dang.egdb")).unwrap();
    for (name, what) in [
        ("file.egdb", "a file"),
        (
            "dang.egdb",
            "a symbolic link that leads nowhere (a loop, or a missing target)",
        ),
    ] {
        let path = dir.join(name);
        let out = build(Path::new(&format!("{}/", path.display())), 4);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{name}: {err}");
        assert!(
            err.contains(&format!("is {what}, not a folder")),
            "{name}: {err}"
        );
        assert!(!err.contains("os error"), "{name}: {err}");
    }
    assert!(!dir.join("missing").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--egdb` naming a FIFO or a link to `/dev/zero` says it is not a regular file (not "Not
/// a directory"), without blocking.
#[test]
#[cfg(unix)]
fn egdb_on_a_fifo_or_a_device_says_so() {
    let dir = scratch("egdb-files", "fifo");
    let fifo = dir.join("db.egdb");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let zero = dir.join("zero.egdb");
    std::os::unix::fs::symlink("/dev/zero", &zero).unwrap();
    for p in [&fifo, &zero] {
        let out = mancala(&[
            "solve",
            "--rules",
            "kalah(4,1)",
            "--egdb",
            p.to_str().unwrap(),
        ]);
        let err = text(&out.stderr);
        assert!(!out.status.success());
        assert!(err.contains("not a regular file"), "{err}");
        assert!(!err.contains("Not a directory"), "{err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad input of 100 KB, or a number of 301 digits, gives a one-line message of sensible
/// length.
#[test]
fn long_bad_input_is_quoted_shortened() {
    // 100 KB (one argument may be at most 128 KiB on Linux).
    let long = "7".repeat(100_000);
    let out = mancala(&["solve", "--rules", &long]);
    let err = text(&out.stderr);
    assert!(!out.status.success());
    // The 60 characters shown, and the rule-set forms of every game (about 300 bytes for the
    // four games of 0.2: each form quoted, each game named).
    let forms: usize = mancala_core::GameKind::ALL
        .into_iter()
        .map(|kind| {
            let quoted: usize = kind.rule_set_forms().iter().map(|f| f.len() + 6).sum();
            quoted + kind.name().len() + 5
        })
        .sum();
    assert!(
        err.len() < 200 + forms && err.contains('…'),
        "{} bytes",
        err.len()
    );
    let position = format!("{long},4,4,4,4,4,0,4,4,4,4,4,4,0 S");
    let out = mancala(&["solve", "--rules", "standard", "--position", &position]);
    let err = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.len() < 400 && err.contains("slot 1"),
        "{} bytes",
        err.len()
    );
    for game in ["kalah(6,4)", "bao-la-kete"] {
        let bad_move = format!("{long}x");
        let out = mancala(&["replay", "--rules", game, "--moves", &bad_move]);
        let err = text(&out.stderr);
        assert!(!out.status.success());
        assert!(err.len() < 400 && err.contains('…'), "{game}: {err:.400}");
    }
    let out = mancala(&["solve", "--max-seconds", "1e300"]);
    let err = text(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("invalid value '1e300' for '--max-seconds") && err.lines().count() == 1,
        "{err}"
    );
}

/// The packed encoding from the command line: `egdb build --encoding packed` writes
/// `kalah4.k10.packed.egdb` beside the one-byte file, `egdb info` says its encoding, bits a
/// position and sizes, `egdb convert` turns either into the other byte for byte, `egdb
/// verify` checks it, and `solve` gives the same value and nodes with either.
#[test]
fn packed_files_build_convert_verify_and_solve() {
    let dir = scratch("egdb-files", "packed");
    let d = dir.to_str().unwrap();
    let run = |args: &[&str]| {
        let out = mancala(args);
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    let build = |encoding: &str| {
        run(&[
            "egdb",
            "build",
            "--rules",
            "kalah(4,3)",
            "--max-seeds",
            "10",
            "--out",
            d,
            "--encoding",
            encoding,
        ])
    };
    let out = build("packed");
    assert!(out.contains("packed (4 bits a position)"), "{out}");
    build("byte");
    assert_eq!(listing(&dir), ["kalah4.k10.egdb", "kalah4.k10.packed.egdb"]);
    let packed = dir.join("kalah4.k10.packed.egdb");
    let byte = dir.join("kalah4.k10.egdb");
    // C(18, 8) = 43,758 entries: 4 bits each, 21,879 bytes, plus 36 + 10 of header.
    let info = run(&["egdb", "info", packed.to_str().unwrap()]);
    for line in [
        "encoding        packed (header byte 2): the value's index among those its layer allows",
        "bits/position   4",
        "entries         43758",
        "on disk         21925 bytes (21 KiB)",
        "in memory       21887 bytes (21 KiB)",
    ] {
        assert!(info.lines().any(|l| l == line), "{line:?} in\n{info}");
    }
    let info = run(&["egdb", "info", byte.to_str().unwrap()]);
    assert!(info.lines().any(|l| l == "bits/position   8"), "{info}");
    assert!(
        info.lines()
            .any(|l| l == "in memory       43758 bytes (43 KiB)"),
        "{info}"
    );
    let listed = run(&["egdb", "info", d]);
    assert!(
        listed.contains(&format!(
            "{}: kalah(4,·), K = 10, packed (4 bits a position), 43758 entries, 21 KiB on disk",
            packed.display()
        )),
        "{listed}"
    );
    // Convert each into another folder: the other encoding's build, byte for byte.
    let other = scratch("egdb-files", "packed-converted");
    let o = other.to_str().unwrap();
    run(&[
        "egdb",
        "convert",
        packed.to_str().unwrap(),
        "--encoding",
        "byte",
        "--out",
        o,
    ]);
    run(&[
        "egdb",
        "convert",
        byte.to_str().unwrap(),
        "--encoding",
        "packed",
        "--out",
        o,
    ]);
    for name in ["kalah4.k10.egdb", "kalah4.k10.packed.egdb"] {
        assert_eq!(
            std::fs::read(other.join(name)).unwrap(),
            std::fs::read(dir.join(name)).unwrap(),
            "{name}"
        );
    }
    // Converting into its own encoding in place is refused.
    let same = mancala(&[
        "egdb",
        "convert",
        packed.to_str().unwrap(),
        "--encoding",
        "packed",
    ]);
    assert!(!same.status.success());
    assert!(
        text(&same.stderr).contains("already packed"),
        "{}",
        text(&same.stderr)
    );
    // verify names the encoding of each file and its entries, C(10 + 8, 8) (m = 4, K = 10),
    // at ⌈log2(10 + 2)⌉ = 4 bits (the 11 shares 0..=10 and the 0 of a finished position)
    // or 8.
    let entries = (1..=8u64).fold(1u64, |c, i| c * (10 + i) / i);
    for (file, encoding, bits) in [(&packed, "packed", 4), (&byte, "byte", 8)] {
        let v = run(&["egdb", "verify", file.to_str().unwrap()]);
        let said = format!(
            "{}: OK (kalah(4,·), K = 10, {encoding} encoding, {bits} bits a position, {entries} entries, ",
            file.display()
        );
        assert!(v.starts_with(&said), "{said:?} in\n{v}");
        assert_eq!(v.lines().count(), 1, "{v}");
    }
    // The same solve with either file.
    let solve = |f: &Path| {
        let out = run(&[
            "solve",
            "--rules",
            "kalah(4,3)",
            "--egdb",
            f.to_str().unwrap(),
            "--threads",
            "1",
            "--tt-mb",
            "4",
            "--json",
        ]);
        let j: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
        (j["value"].clone(), j["nodes"].clone())
    };
    assert_eq!(solve(&packed), solve(&byte));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&other).unwrap();
}

/// `--max-seeds` above the seeds of the game (2·m·n: 24 for Kalah(4,3)) is refused before any
/// work, with one line naming the largest K allowed, and nothing is written.
#[test]
fn max_seeds_above_the_seeds_of_the_game_is_refused() {
    let dir = scratch("egdb-files", "k-above-the-game");
    for k in [25, 40] {
        let out = build(&dir, k);
        let err = text(&out.stderr);
        assert!(!out.status.success(), "K = {k}: {err}");
        assert!(
            err.contains(&format!(
                "K = {k} is more seeds than kalah(4,3) has: the largest K allowed is 24"
            )),
            "K = {k}: {err}"
        );
        assert_eq!(err.trim_end().lines().count(), 1, "K = {k}: {err}");
        assert!(listing(&dir).is_empty(), "K = {k}");
    }
}

/// `egdb info DIR` on a folder with no `*.egdb` file is refused (exit status 1), as a folder
/// whose every file is unusable is: nothing in it serves a solve.
#[test]
fn info_of_a_folder_without_a_database_is_refused() {
    let dir = scratch("egdb-files", "no-database");
    std::fs::write(dir.join("notes.txt"), "not a database").unwrap();
    let d = dir.to_str().unwrap();
    let info = mancala(&["egdb", "info", d]);
    assert_eq!(info.status.code(), Some(1));
    assert_eq!(text(&info.stdout), "");
    assert_eq!(
        text(&info.stderr).trim_end(),
        format!("mancala: error: {d}: no *.egdb file")
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The command a missing-database error suggests, with K filled in, builds a database that
/// the same `solve` then uses: the message gives the user's rules and folder, quoted as a
/// shell needs them.
#[test]
fn a_missing_database_names_the_build_that_serves_it() {
    // A folder whose name a shell must quote.
    let dir = scratch("egdb-files", "suggested-build").join("my databases");
    std::fs::create_dir_all(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let solve = [
        "solve",
        "--rules",
        "kalah(4,1)+empty_capture",
        "--egdb",
        d,
        "--json",
    ];
    let out = mancala(&solve);
    let err = text(&out.stderr);
    assert!(!out.status.success());
    assert_eq!(err.lines().count(), 1, "{err}");
    let start = err.find("`mancala ").expect("a command in backquotes") + "`mancala ".len();
    let end = start + err[start..].find('`').unwrap();
    // Split as a POSIX shell would: words, parts of a word in double or single quotes.
    let mut args = Vec::new();
    let mut quote = None;
    let mut word = String::new();
    for c in err[start..end].chars() {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, ' ') => args.push(std::mem::take(&mut word)),
            (_, c) => word.push(c),
        }
    }
    args.push(word);
    let k = args.iter().position(|a| a == "K").expect("K to fill in");
    args[k] = "4".to_string();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    assert_eq!(args[..3], ["egdb", "build", "--rules"], "{err}");
    assert_eq!(args[3], "kalah(4,1)+empty_capture", "{err}");
    assert_eq!(args[args.len() - 1], d, "{err}");
    let built = mancala(&args);
    assert!(built.status.success(), "{}", text(&built.stderr));
    let out = mancala(&solve);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        v["database"].is_object() || v["database"].is_string(),
        "{v}"
    );
    std::fs::remove_dir_all(dir.parent().unwrap()).unwrap();
}

/// `--out` naming a socket (a device or a FIFO alike): `egdb build` and `egdb convert`
/// refuse it before any work, `--force` or not, and leave it as it was; the save's rename
/// replaced it with the database (`--out /dev/null` as root turned the device into a file).
#[cfg(unix)]
#[test]
fn an_output_that_is_no_regular_file_is_refused_even_forced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("egdb-files", "socket");
    let sock = dir.join("kalah4.k6.egdb");
    let _listener = std::os::unix::net::UnixListener::bind(&sock).unwrap();
    let other = dir.join("other.egdb");
    assert!(build(&other, 4).status.success());
    let (s, o) = (sock.to_str().unwrap(), other.to_str().unwrap());
    let mut forced = build_args(&sock, 6);
    forced.push("--force".into());
    let forced: Vec<&str> = forced.iter().map(String::as_str).collect();
    for r in [
        build(&sock, 6),
        mancala(&forced),
        mancala(&["egdb", "convert", o, "--encoding", "packed", "--out", s]),
        mancala(&[
            "egdb",
            "convert",
            o,
            "--encoding",
            "packed",
            "--out",
            s,
            "--force",
        ]),
    ] {
        let err = text(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "{err}");
        assert_eq!(
            err.trim_end(),
            format!("mancala: error: {s}: not a regular file, which a save does not replace")
        );
    }
    assert!(std::fs::symlink_metadata(&sock)
        .unwrap()
        .file_type()
        .is_socket());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `egdb convert` reads and checks the file it converts before it looks at the output: a
/// file with one payload byte changed (which its CRC-32 catches) is named as corrupt, not
/// hidden behind an output file that `--force` would write over; with `--force` too, and
/// the output is left as it was.
#[test]
fn convert_names_a_damaged_input_before_an_occupied_output() {
    let dir = scratch("egdb-files", "convert-order");
    let input = dir.join("other.egdb");
    assert!(build(&input, 4).status.success());
    let mut bytes = std::fs::read(&input).unwrap();
    *bytes.last_mut().unwrap() ^= 0x01;
    std::fs::write(&input, &bytes).unwrap();
    let notes = dir.join("notes.egdb");
    std::fs::write(&notes, b"my notes\n").unwrap();
    let (i, n) = (input.to_str().unwrap(), notes.to_str().unwrap());
    let plain = ["egdb", "convert", i, "--encoding", "packed", "--out", n];
    let forced = [&plain[..], &["--force"]].concat();
    for r in [mancala(&plain), mancala(&forced)] {
        let err = text(&r.stderr);
        assert_eq!(r.status.code(), Some(1), "{err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{err}");
        assert!(
            err.starts_with(&format!("mancala: error: {i}: "))
                && err.contains("checksum mismatch")
                && !err.contains("--force"),
            "{err}"
        );
    }
    assert_eq!(std::fs::read(&notes).unwrap(), b"my notes\n");
    assert_eq!(listing(&dir), ["notes.egdb", "other.egdb"]);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A damaged `--egdb` file (one payload byte changed, so the payload's checksum fails): read in
/// time (`--nodes`, no time budget), it is an error and no move; not read within a quarter
/// of a budget of 4 ms (1 ms for 30 MB of entries), the search goes without it and the
/// command keeps its budget: the note says the file was not checked and how to check it, the
/// move is printed, exit status 0, and the file is not read again after the move (which took
/// up to seconds past the budget for a large file); `mancala egdb verify`, as the note says,
/// names the damage. A file cut short is refused at once, budget or not: its header and
/// length are checked before the wait.
#[test]
fn a_damaged_egdb_is_named_unless_the_budget_is_too_short_to_read_it() {
    let dir = scratch("egdb-files", "late");
    // C(16 + 12, 12) = 30,421,755 entries, a byte each.
    let file = common::build_kalah6_k16(&dir);
    let mut bytes = std::fs::read(&file).unwrap();
    assert_eq!(
        bytes.len() as u64,
        30_421_755 + 44,
        "the header and the entries"
    );
    let at = bytes.len() / 2;
    bytes[at] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();
    let f = file.to_str().unwrap();
    let reason = "database checksum mismatch";
    let out = mancala(&["bestmove", "--egdb", f, "--nodes", "1000"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(f) && err.contains(reason), "{err}");
    assert!(out.stdout.is_empty());
    let out = mancala(&["bestmove", "--egdb", f, "--time-ms", "4"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(text(&out.stdout).starts_with("bestmove "), "{err}");
    let lines: Vec<&str> = err.lines().collect();
    if lines.len() == 1 {
        assert!(
            lines[0].contains("is still being read after 1 ms: this search goes without it")
                && lines[0].ends_with(&format!(
                    "(not checked: `mancala egdb verify {f}` checks it)"
                )),
            "{err}"
        );
    } else {
        // This thread was kept from the processor until the reading had ended (a loaded
        // machine): the reading is late all the same, and its refusal is named after the move.
        assert_eq!(lines.len(), 2, "{err}");
        assert!(
            lines[0].ends_with("took longer than 1 ms to read: this search goes without it")
                && lines[1].starts_with("mancala: warning: ")
                && lines[1].contains(f)
                && lines[1].contains(reason),
            "{err}"
        );
    }
    let out = mancala(&["egdb", "verify", f]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains(f) && err.contains(reason), "{err}");
    bytes.truncate(bytes.len() - 1000);
    bytes[at] ^= 0x55;
    std::fs::write(&file, &bytes).unwrap();
    let out = mancala(&["bestmove", "--egdb", f, "--time-ms", "4"]);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.starts_with("mancala: error: --egdb: ") && err.contains(f),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(out.stdout.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A folder no file can be written in, for the tests of `--out`: a fresh folder of mode
/// 0555, or, where that takes a file anyway (root ignores modes), `/sys` (a file system of
/// the kernel's, where root cannot create a file either); with the system's error of
/// creating a file there. `None` when neither refuses a file.
#[cfg(unix)]
fn unwritable_folder(scratch: &Path) -> Option<(std::path::PathBuf, std::io::Error)> {
    use std::os::unix::fs::PermissionsExt;
    let ro = scratch.join("read-only");
    std::fs::create_dir(&ro).unwrap();
    std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
    for dir in [ro.as_path(), Path::new("/sys")] {
        let check = dir.join(".mancala-test-write-check");
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&check)
        {
            Ok(_) => {
                let _ = std::fs::remove_file(&check);
            }
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                return Some((dir.to_path_buf(), e));
            }
            Err(_) => {}
        }
    }
    None
}

/// `egdb build --out` into a folder that cannot be written is refused before the build,
/// naming the folder in the words of a save into it (`the folder … is not writable: …`),
/// for a file named in the folder, a folder to be made in it, and an Awari build alike.
#[cfg(unix)]
#[test]
fn an_out_folder_that_cannot_be_written_is_named() {
    let scratch = scratch("egdb-files", "unwritable-out");
    let Some((ro, e)) = unwritable_folder(&scratch) else {
        eprintln!("skipped: every folder tried takes a file (root, and /sys writable)");
        return;
    };
    let mut outs = vec![
        ("kalah(2,1)", ro.join("x.egdb")),
        ("awari", ro.join("a.egdb")),
    ];
    // A folder to be made in it (in /sys, root's mkdir fails with EPERM, which is not said
    // to be an unwritable folder: tried only in the folder of mode 0555).
    if ro != Path::new("/sys") {
        outs.push(("kalah(2,1)", ro.join("new/deeper")));
    }
    for (rules, out) in outs {
        let out_text = out.to_str().unwrap();
        let o = mancala(&[
            "egdb",
            "build",
            "--rules",
            rules,
            "--max-seeds",
            "2",
            "--out",
            out_text,
        ]);
        assert_eq!(o.status.code(), Some(1), "{out_text}");
        assert_eq!(
            text(&o.stderr),
            format!(
                "mancala: error: --out {out_text}: the folder {} is not writable: {e}\n",
                ro.display()
            ),
            "{rules} {out_text}"
        );
        assert!(o.stdout.is_empty());
    }
    let _ = std::fs::set_permissions(
        &ro,
        <std::fs::Permissions as std::os::unix::fs::PermissionsExt>::from_mode(0o755),
    );
}
