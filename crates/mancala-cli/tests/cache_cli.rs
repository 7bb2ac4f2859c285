//! The default endgame database of `solve`, `analyse`, `bestmove` and `play --engine`
//! built once into the cache folder (by `solve`, `analyse` or `egdb build --cache`) and
//! reused; a damaged cached file is
//! rebuilt; `--no-cache` and `--egdb` override; a cache folder that cannot be written is a
//! warning, never a failure. The cache folder of every test is a scratch folder
//! (`MANCALA_CACHE_DIR`), never the user's.

mod common;

use std::path::Path;
use std::process::{Output, Stdio};

use common::{mancala_command, scratch, text};

/// `mancala ARGS` with the cache folder `cache` (and the cache on).
fn mancala(cache: &Path, args: &[&str]) -> Output {
    mancala_command()
        .env_remove("MANCALA_NO_CACHE")
        .env("MANCALA_CACHE_DIR", cache)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mancala")
}

/// The `value` line of `solve`'s text output.
fn value(out: &Output) -> String {
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    stdout
        .lines()
        .find(|l| l.starts_with("value"))
        .unwrap_or_else(|| panic!("no value in {stdout}"))
        .to_string()
}

/// Kalah(2,9): 36 seeds, more than the 32 up to which `solve` builds no database, so the
/// cached database is m = 2, K = 36 (C(40, 4) = 91,390 entries), built in well under a
/// second.
const RULES: &str = "kalah(2,9)";
const FILE: &str = "kalah2.k36.egdb";

#[test]
fn solve_builds_once_then_reuses_and_rebuilds_a_damaged_file() {
    let cache = scratch("cache-cli", "solve");
    // The value of a plain search with no database at all, to compare with.
    let plain = mancala(&cache, &["solve", "--rules", RULES, "--no-cache"]);
    let expected = value(&plain);
    assert!(!text(&plain.stdout).contains("database"));
    assert_eq!(
        std::fs::read_dir(&cache).unwrap().count(),
        0,
        "--no-cache wrote"
    );

    let first = mancala(&cache, &["solve", "--rules", RULES]);
    let err = text(&first.stderr);
    assert_eq!(value(&first), expected);
    let file = cache.join(FILE);
    assert!(
        err.contains("building an endgame database for kalah(2,·) (K = 36")
            && err.contains(&file.display().to_string()),
        "{err}"
    );
    assert!(text(&first.stdout).contains(&format!("database    {}", file.display())));
    let good = std::fs::read(&file).unwrap();
    // C(40, 4) entries after a header of 36 bytes and the rule set's text.
    assert_eq!(good.len(), 91_390 + 36 + "kalah(2,9)".len());

    let second = mancala(&cache, &["solve", "--rules", RULES]);
    assert_eq!(value(&second), expected);
    assert_eq!(text(&second.stderr), "", "the second run should be silent");
    assert!(text(&second.stdout).contains(&format!("database    {}", file.display())));

    let header = 36 + "kalah(2,9)".len();
    let damages: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "a flipped byte",
            {
                let mut b = good.clone();
                b[header + 12_345] ^= 0x10;
                b
            },
            "checksum",
        ),
        (
            "a cut file",
            good[..good.len() - 1000].to_vec(),
            "truncated",
        ),
        (
            "another format version",
            {
                let mut b = good.clone();
                b[8..12].copy_from_slice(&7u32.to_le_bytes());
                b
            },
            "format version 7",
        ),
    ];
    for (what, bytes, reason) in damages {
        std::fs::write(&file, &bytes).unwrap();
        let out = mancala(&cache, &["solve", "--rules", RULES]);
        let err = text(&out.stderr);
        assert_eq!(value(&out), expected, "{what}");
        assert!(
            err.contains("is not used") && err.contains(reason) && err.contains("building"),
            "{what}: {err}"
        );
        assert_eq!(std::fs::read(&file).unwrap(), good, "{what}: not rebuilt");
    }
    std::fs::remove_dir_all(&cache).unwrap();
}

#[test]
fn no_cache_and_egdb_override_the_cache() {
    let cache = scratch("cache-cli", "override");
    let out = mancala(
        &cache,
        &["solve", "--rules", RULES, "--no-cache", "--egdb", "x"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // MANCALA_NO_CACHE does what --no-cache does.
    let out = mancala_command()
        .env("MANCALA_NO_CACHE", "1")
        .env("MANCALA_CACHE_DIR", &cache)
        .args(["solve", "--rules", RULES])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 0);
    // --egdb takes a database from elsewhere and the cache is not touched.
    let elsewhere = scratch("cache-cli", "override-egdb");
    let built = mancala(
        &cache,
        &[
            "egdb",
            "build",
            "--rules",
            RULES,
            "--max-seeds",
            "6",
            "--out",
            elsewhere.to_str().unwrap(),
        ],
    );
    assert!(built.status.success(), "{}", text(&built.stderr));
    let out = mancala(
        &cache,
        &[
            "solve",
            "--rules",
            RULES,
            "--egdb",
            elsewhere.to_str().unwrap(),
        ],
    );
    assert!(text(&out.stdout).contains("kalah2.k6.egdb"));
    assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 0);
    std::fs::remove_dir_all(&cache).unwrap();
    std::fs::remove_dir_all(&elsewhere).unwrap();
}

#[test]
fn a_cache_folder_that_cannot_be_written_is_a_warning() {
    let dir = scratch("cache-cli", "blocked");
    let in_the_way = dir.join("a-file");
    std::fs::write(&in_the_way, b"not a folder").unwrap();
    let plain = value(&mancala(&dir, &["solve", "--rules", RULES, "--no-cache"]));
    let out = mancala(&in_the_way, &["solve", "--rules", RULES]);
    let err = text(&out.stderr);
    assert_eq!(value(&out), plain);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("mancala: warning: cannot use the endgame database cache")
            && err.contains("going on without a database"),
        "{err}"
    );
    assert!(!text(&out.stdout).contains("database "));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A folder where the cached file should be: the database is built and used, the save fails
/// with a warning, and no command names the folder as the database it used (the
/// output once said `database <path>` for a path that held no database).
#[test]
fn a_folder_in_the_place_of_the_cached_file_is_never_named_as_the_database() {
    let cache = scratch("cache-cli", "folder-entry");
    let folder = cache.join(FILE);
    std::fs::create_dir_all(&folder).unwrap();
    let plain = value(&mancala(&cache, &["solve", "--rules", RULES, "--no-cache"]));
    let out = mancala(&cache, &["solve", "--rules", RULES]);
    let (stdout, err) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(value(&out), plain);
    assert!(err.contains("could not be kept in the cache"), "{err}");
    let db_line = stdout
        .lines()
        .find(|l| l.starts_with("database"))
        .unwrap_or_else(|| panic!("no database line in {stdout}"));
    assert!(!db_line.contains(&*folder.to_string_lossy()), "{db_line}");
    assert!(db_line.contains("not kept"), "{db_line}");
    let json = mancala(&cache, &["solve", "--rules", RULES, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(v["database"], "built in memory for this run (not kept)");
    assert!(folder.is_dir());
    std::fs::remove_dir_all(&cache).unwrap();
}

/// A FIFO or a folder where the cached file should be: the build is announced as for this
/// run only, never as kept in the cache for the next runs (a promise the save, which
/// refuses both, would break two lines later), and the warning of the failed save gives the
/// reason once. The FIFO is left a FIFO.
/// Puts a FIFO (`name` "fifo") or else a folder at `file`, where a save would refuse it.
#[cfg(unix)]
fn occupy(file: &std::path::Path, name: &str) {
    if name == "fifo" {
        let made = std::process::Command::new("mkfifo").arg(file).status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    } else {
        std::fs::create_dir(file).unwrap();
    }
}

#[cfg(unix)]
#[test]
fn a_cached_file_the_save_refuses_is_never_promised() {
    use std::os::unix::fs::FileTypeExt;
    for (name, why) in [
        ("fifo", "not a regular file, which a save does not replace"),
        ("folder", "it is a folder, not a file"),
    ] {
        let cache = scratch("cache-cli", &format!("unkept-{name}"));
        let file = cache.join(FILE);
        occupy(&file, name);
        let plain = value(&mancala(&cache, &["solve", "--rules", RULES, "--no-cache"]));
        let out = mancala(&cache, &["solve", "--rules", RULES]);
        let err = text(&out.stderr);
        assert_eq!(value(&out), plain, "{name}");
        assert!(
            !err.contains("for the next runs") && !err.contains("it is kept in"),
            "{name}: {err}"
        );
        let building: Vec<&str> = err.lines().filter(|l| l.contains("building an")).collect();
        assert_eq!(building.len(), 1, "{name}: {err}");
        assert!(
            building[0].ends_with("for this run only: the cache cannot keep it"),
            "{name}: {err}"
        );
        assert!(
            err.contains(&format!(
                "could not be kept in the cache ({}: {why})",
                file.display()
            )),
            "{name}: {err}"
        );
        let t = std::fs::symlink_metadata(&file).unwrap().file_type();
        assert!(
            if name == "fifo" {
                t.is_fifo()
            } else {
                t.is_dir()
            },
            "{name}"
        );
        std::fs::remove_dir_all(&cache).unwrap();
    }
}

/// `analyse` builds the cached database as `solve` does; `bestmove` and `play --engine`,
/// which keep a time a move, never build it: with an empty cache they search without one and
/// say how to build it (`egdb build --cache`); once it is cached they use it.
#[test]
fn analyse_builds_the_cache_bestmove_and_play_only_use_it() {
    let cache = scratch("cache-cli", "analyse");
    let out = mancala(&cache, &["analyse", "--rules", RULES]);
    assert!(out.status.success(), "analyse: {}", text(&out.stderr));
    assert!(cache.join(FILE).is_file(), "analyse: no cached file");
    std::fs::remove_dir_all(&cache).unwrap();

    let cache = scratch("cache-cli", "bestmove");
    let bestmove = ["bestmove", "--rules", RULES, "--time-ms", "100", "--json"];
    let out = mancala(&cache, &bestmove);
    assert!(out.status.success(), "bestmove: {}", text(&out.stderr));
    assert!(!cache.join(FILE).exists(), "bestmove built the database");
    let note = text(&out.stderr);
    assert!(
        note.contains("no endgame database for kalah(2,·), K = 36 (none is cached yet)")
            && note.contains("`mancala egdb build --rules 'kalah(2,9)' --cache`"),
        "{note}"
    );
    // Filled ahead of time, the cache serves bestmove: the start of Kalah(2,9) holds 36
    // seeds, all of them in the K = 36 database, so the search is exact at once.
    let built = mancala(&cache, &["egdb", "build", "--rules", RULES, "--cache"]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert_eq!(
        text(&built.stdout).trim(),
        format!(
            "cached kalah(2,·), K = 36 in {}",
            cache.join(FILE).display()
        )
    );
    let again = mancala(
        &cache,
        &["egdb", "build", "--rules", RULES, "--cache", "--quiet"],
    );
    assert!(again.status.success());
    assert!(
        !text(&again.stderr).contains("building"),
        "built twice: {}",
        text(&again.stderr)
    );
    let out = mancala(&cache, &bestmove);
    assert!(out.status.success(), "bestmove: {}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("\"exact\":true"),
        "{}",
        text(&out.stdout)
    );
    assert!(!text(&out.stderr).contains("no endgame database"));
    std::fs::remove_dir_all(&cache).unwrap();

    // play: only when the engine plays, and then without building.
    let cache = scratch("cache-cli", "play");
    let play = |args: &[&str]| {
        let mut child = mancala_command()
            .env_remove("MANCALA_NO_CACHE")
            .env("MANCALA_CACHE_DIR", &cache)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        common::feed(&mut child, b"quit\n");
        child.wait_with_output().unwrap()
    };
    let people = play(&["play", "--rules", RULES]);
    assert!(people.status.success(), "{}", text(&people.stderr));
    assert!(!text(&people.stderr).contains("endgame database"));
    let engine = play(&["play", "--rules", RULES, "--engine", "--time-ms", "50"]);
    assert!(engine.status.success(), "{}", text(&engine.stderr));
    assert!(!cache.join(FILE).exists(), "play built the database");
    assert!(text(&engine.stderr).contains("none is cached yet"));
    std::fs::remove_dir_all(&cache).unwrap();
}

/// `egdb build --out` names the file itself when it ends in `.egdb`: a file is written there,
/// not a folder of that name; `--cache` needs neither `--out` nor `--max-seeds`, and is
/// refused with them.
#[test]
fn egdb_build_out_a_file_and_into_the_cache() {
    let dir = scratch("cache-cli", "out-file");
    let file = dir.join("small.egdb");
    let out = mancala(
        &dir.join("cache"),
        &[
            "egdb",
            "build",
            "--rules",
            RULES,
            "--max-seeds",
            "6",
            "--quiet",
            "--out",
            file.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(file.is_file(), "no file {}", file.display());
    let info = mancala(
        &dir.join("cache"),
        &["egdb", "info", file.to_str().unwrap()],
    );
    assert!(
        text(&info.stdout).contains("max seeds (K)   6"),
        "{}",
        text(&info.stdout)
    );
    for refused in [
        vec![
            "egdb",
            "build",
            "--rules",
            RULES,
            "--cache",
            "--max-seeds",
            "6",
        ],
        vec!["egdb", "build", "--rules", RULES, "--cache", "--out", "x"],
        vec!["egdb", "build", "--rules", RULES],
    ] {
        let out = mancala(&dir.join("cache"), &refused);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{refused:?}: {}",
            text(&out.stderr)
        );
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two processes filling an empty cache at once both succeed, and the file is one whole
/// database (`egdb verify` reads and checks all of it).
#[test]
fn two_processes_filling_the_cache_at_once() {
    let cache = scratch("cache-cli", "race");
    let children: Vec<_> = (0..2)
        .map(|_| {
            mancala_command()
                .env_remove("MANCALA_NO_CACHE")
                .env("MANCALA_CACHE_DIR", &cache)
                .args(["solve", "--rules", RULES, "--threads", "1"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let values: Vec<String> = children
        .into_iter()
        .map(|c| value(&c.wait_with_output().unwrap()))
        .collect();
    assert_eq!(values[0], values[1]);
    let verify = mancala(
        &cache,
        &["egdb", "verify", cache.join(FILE).to_str().unwrap()],
    );
    assert!(verify.status.success(), "{}", text(&verify.stderr));
    let names: Vec<_> = std::fs::read_dir(&cache)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 1, "{names:?}");
    std::fs::remove_dir_all(&cache).unwrap();
}

/// Under `--max-seconds` a database missing from the cache is not built (the build came
/// before the search, outside the time limit): `solve` and `analyse` search without one and
/// write nothing. The same command without the limit builds it, and one with the limit then
/// reads it.
#[test]
fn a_time_limit_builds_no_database_but_reads_a_cached_one() {
    let cache = scratch("cache-cli", "max-seconds");
    let file = cache.join(FILE);
    for cmd in ["solve", "analyse"] {
        let o = mancala(
            &cache,
            &[cmd, "--rules", RULES, "--max-seconds", "100", "--json"],
        );
        assert!(o.status.success(), "{cmd}: {}", text(&o.stderr));
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(j["database"], serde_json::Value::Null, "{cmd}: {j}");
        assert!(!file.exists(), "{cmd} built {}", file.display());
    }
    let built = mancala(&cache, &["solve", "--rules", RULES, "--json"]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert!(file.is_file());
    let o = mancala(
        &cache,
        &["solve", "--rules", RULES, "--max-seconds", "100", "--json"],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["database"], file.display().to_string(), "{j}");
}

/// A symbolic link that leads nowhere at the cached file's name (around a loop, or to a
/// missing target) is said in words when `solve` and `egdb build --cache` pass it over, not
/// with the system's "Too many levels of symbolic links" or "No such file or directory";
/// the database is built and kept in its place.
#[cfg(unix)]
#[test]
fn a_link_that_leads_nowhere_at_the_cached_name_is_named() {
    for (name, target, args) in [
        ("loop", FILE, &["solve", "--rules", RULES][..]),
        (
            "dangling",
            "/nonexistent/db",
            &["solve", "--rules", RULES][..],
        ),
        (
            "loop-build",
            FILE,
            &["egdb", "build", "--rules", RULES, "--cache"][..],
        ),
    ] {
        let cache = scratch("cache-cli", name);
        let file = cache.join(FILE);
        std::os::unix::fs::symlink(target, &file).unwrap();
        let o = mancala(&cache, args);
        let err = text(&o.stderr);
        assert!(o.status.success(), "{name}: {err}");
        let refused = format!(
            "mancala: the cached database {} is not used (it is a symbolic link that leads nowhere (a loop, or a missing target)): building it again\n",
            file.display()
        );
        assert!(err.starts_with(&refused), "{name}: {err}");
        assert!(
            std::fs::symlink_metadata(&file).unwrap().is_file(),
            "{name}"
        );
    }
}

/// A relative `MANCALA_CACHE_DIR` is ignored with one warning naming it and why (the XDG
/// Base Directory specification holds relative paths in its variables invalid): the
/// database goes to the user's cache folder (here `$XDG_CACHE_HOME/mancala`), never to a
/// folder under the one the command runs in.
#[test]
fn a_relative_cache_dir_variable_is_ignored_with_a_warning() {
    let root = scratch("cache-cli", "relative");
    let xdg = root.join("xdg");
    let work = root.join("work");
    std::fs::create_dir_all(&work).unwrap();
    for args in [
        &["egdb", "build", "--rules", "kalah(2,1)", "--cache"][..],
        &["solve", "--rules", "kalah(2,1)"][..],
    ] {
        let o = mancala_command()
            .env_remove("MANCALA_NO_CACHE")
            .env("MANCALA_CACHE_DIR", "cache")
            .env("XDG_CACHE_HOME", &xdg)
            .current_dir(&work)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = text(&o.stderr);
        assert!(o.status.success(), "{args:?}: {err}");
        let warning = format!(
            "mancala: warning: MANCALA_CACHE_DIR=\"cache\" is ignored: it is a relative path, and the cache folder must be absolute (the XDG Base Directory specification holds relative paths in its variables invalid); the cache folder is {}\n",
            xdg.join("mancala").display()
        );
        assert!(err.starts_with(&warning), "{args:?}: {err}");
        assert_eq!(
            err.matches("MANCALA_CACHE_DIR").count(),
            1,
            "{args:?}: {err}"
        );
        // Kalah(2,1): 4 seeds, the cached database K = 4.
        assert!(xdg.join("mancala/kalah2.k4.egdb").is_file(), "{args:?}");
        assert!(!work.join("cache").exists(), "{args:?}");
    }
}

/// With `--egdb` the cache is not touched, so its variable is not read: a relative
/// `MANCALA_CACHE_DIR` draws no warning from `solve` or `bestmove`.
#[test]
fn the_cache_variable_is_not_read_under_egdb() {
    let root = scratch("cache-cli", "egdb-no-warning");
    let db = root.join("kalah2.k2.egdb");
    let o = mancala_command()
        .args([
            "egdb",
            "build",
            "-q",
            "--rules",
            "kalah(2,1)",
            "--max-seeds",
            "2",
        ])
        .arg("--out")
        .arg(&db)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o.stderr));
    for command in [&["solve"][..], &["bestmove", "--time-ms", "50"]] {
        let o = mancala_command()
            .env_remove("MANCALA_NO_CACHE")
            .env("MANCALA_CACHE_DIR", "cache")
            .current_dir(&root)
            .args(command)
            .args(["--rules", "kalah(2,1)", "--egdb"])
            .arg(&db)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let err = text(&o.stderr);
        assert!(o.status.success(), "{command:?}: {err}");
        assert!(!err.contains("MANCALA_CACHE_DIR"), "{command:?}: {err}");
        assert!(!root.join("cache").exists(), "{command:?}");
    }
}

/// `egdb build --cache` with a cache folder it cannot use (a file where the folder, or one
/// above it, should be) says so in one error line, for Kalah and Awari alike: it printed a
/// warning, then an error saying to see the warning. A database it cannot keep (a folder or
/// a FIFO at the cached file's name) is one error too, with the save's reason, and is not
/// built: it used to be built, announced "for this run only", then refused.
#[cfg(unix)]
#[test]
fn egdb_build_cache_that_cannot_be_used_is_one_error() {
    use std::os::unix::fs::FileTypeExt;
    let dir = scratch("cache-cli", "build-cache-error");
    let file = dir.join("a-file");
    std::fs::write(&file, b"not a folder").unwrap();
    for (cache, rules, why) in [
        (
            file.clone(),
            RULES,
            "the endgame database cache (FILE: it is a file, not a folder)".to_string(),
        ),
        (
            file.join("below"),
            "awari",
            format!(
                "the Awari database cache (FILE/below: {} is a file, not a folder)",
                file.display()
            ),
        ),
    ] {
        let o = mancala(&cache, &["egdb", "build", "--rules", rules, "--cache"]);
        assert_eq!(o.status.code(), Some(1), "{rules}");
        let why = why.replace("FILE", &file.display().to_string());
        assert_eq!(
            text(&o.stderr),
            format!("mancala: error: --cache: cannot use {why}\n"),
            "{rules}"
        );
        assert!(o.stdout.is_empty(), "{rules}");
    }
    // A folder or a FIFO at the cached file's name: the save would refuse it, so nothing is
    // built and the one line says why (the reading's refusal of the file).
    for (name, why) in [
        ("folder", "it is a folder, not a file"),
        ("fifo", "not a regular file"),
    ] {
        let cache = dir.join(format!("cache-{name}"));
        std::fs::create_dir_all(&cache).unwrap();
        let file = cache.join(FILE);
        occupy(&file, name);
        let o = mancala(&cache, &["egdb", "build", "--rules", RULES, "--cache"]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        assert_eq!(
            text(&o.stderr),
            format!(
                "mancala: error: --cache: the endgame database cannot be kept in the cache ({}: {why}); nothing was built\n",
                file.display()
            ),
            "{name}"
        );
        assert!(o.stdout.is_empty(), "{name}");
        let kind = std::fs::symlink_metadata(&file).unwrap().file_type();
        assert!(
            if name == "fifo" {
                kind.is_fifo()
            } else {
                kind.is_dir()
            },
            "{name}"
        );
        // Nothing else was written into the cache folder.
        assert_eq!(std::fs::read_dir(&cache).unwrap().count(), 1, "{name}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `--max-seconds` covers the whole command, the reading of the cached database included:
/// with 0 the command stops at once, so no database is read although one is cached (the
/// output names none, and no value is proven, where the database would have given them).
#[test]
fn a_time_limit_of_zero_reads_no_cached_database() {
    let cache = scratch("cache-cli", "max-seconds-zero");
    // Kalah(4,2): a search of more than the nodes between two looks at the clock.
    let (rules, file) = ("kalah(4,2)", cache.join("kalah4.k16.egdb"));
    let built = mancala(&cache, &["egdb", "build", "--rules", rules, "--cache"]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert!(file.is_file());
    for cmd in ["solve", "analyse"] {
        let o = mancala(
            &cache,
            &[cmd, "--rules", rules, "--max-seconds", "0", "--json"],
        );
        assert!(o.status.success(), "{cmd}: {}", text(&o.stderr));
        let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        if cmd == "solve" {
            assert_eq!(j["database"], serde_json::Value::Null, "{j}");
            assert_eq!(j["exact"], false, "{j}");
        } else {
            // The database would have valued every move at once.
            let moves = j["moves"].as_array().unwrap();
            assert!(moves.iter().all(|m| m["exact"] == false), "{j}");
        }
    }
    // With a limit the read fits in, the cached file is used.
    let o = mancala(
        &cache,
        &["solve", "--rules", rules, "--max-seconds", "1000", "--json"],
    );
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["database"], file.display().to_string(), "{j}");
    assert_eq!(j["exact"], true, "{j}");
}

/// A database is built only where it pays: `solve` and `analyse` of a position with at most
/// 32 seeds in the houses (Kalah(4,2) from the start: 16) build none into an empty cache
/// and say nothing of it, with the value of a search without one; a database already cached
/// is read; a finished position uses none, cached or not.
#[test]
fn no_database_is_built_where_the_search_is_cheap() {
    let cache = scratch("cache-cli", "cheap");
    let small = "kalah(4,2)";
    let plain = mancala(&cache, &["solve", "--rules", small, "--no-cache"]);
    let expected = value(&plain);
    for cmd in ["solve", "analyse"] {
        let o = mancala(&cache, &[cmd, "--rules", small]);
        assert!(o.status.success(), "{cmd}: {}", text(&o.stderr));
        assert_eq!(text(&o.stderr), "", "{cmd}");
        assert_eq!(
            std::fs::read_dir(&cache).map_or(0, Iterator::count),
            0,
            "{cmd} built a database"
        );
        if cmd == "solve" {
            assert_eq!(value(&o), expected);
            assert!(!text(&o.stdout).contains("database"), "{}", text(&o.stdout));
        }
    }
    // A finished game of Kalah(6,3): +0, with no database (the K = 20 one is 215 MiB).
    let over = "0,0,0,0,0,0,18,0,0,0,0,0,0,18 -";
    let o = mancala(
        &cache,
        &[
            "solve",
            "--rules",
            "kalah(6,3)",
            "--position",
            over,
            "--json",
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["value"], 0, "{j}");
    assert_eq!(j["database"], serde_json::Value::Null, "{j}");
    assert_eq!(std::fs::read_dir(&cache).map_or(0, Iterator::count), 0);
    // Cached ahead of time, the small game's database is read.
    let built = mancala(&cache, &["egdb", "build", "--rules", small, "--cache"]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    let file = cache.join("kalah4.k16.egdb");
    let o = mancala(&cache, &["solve", "--rules", small]);
    assert_eq!(value(&o), expected);
    assert!(
        text(&o.stdout).contains(&format!("database    {}", file.display())),
        "{}",
        text(&o.stdout)
    );
    // A finished position of that board reads none.
    let o = mancala(
        &cache,
        &[
            "solve",
            "--rules",
            small,
            "--position",
            "0,0,0,0,8,0,0,0,0,8 -",
            "--json",
        ],
    );
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["database"], serde_json::Value::Null, "{j}");
    assert_eq!(j["value"], 0, "{j}");
}
