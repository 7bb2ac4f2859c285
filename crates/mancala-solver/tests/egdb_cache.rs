//! The database cache (`Cache`) and folder discovery (`Egdb::find_in`): built once, reused, rebuilt when damaged, never trusted blindly; a
//! folder that cannot be written is an error the caller can step over; two builders at once
//! leave one whole file.

use std::ops::ControlFlow;
use std::path::Path;
use std::time::Duration;

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_core::Side;
use mancala_solver::egdb::cache::DEFAULT_BUILD_ENTRIES;
use mancala_solver::{
    BuildOptions, Cache, CacheEvent, Cached, Database, Egdb, EgdbError, SolveOptions, Solver,
};

/// A fresh scratch folder for one test (never the user's cache folder), in Cargo's folder for
/// the files of integration tests; the guard removes it when the test ends, passed or failed.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("egdb-cache-{name}-"))
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

/// What the events of one `get_or_build` were: refusals (their error texts) and builds.
#[derive(Default, Debug)]
struct Seen {
    refused: Vec<String>,
    builds: Vec<(u32, u64)>,
}

fn get(cache: &Cache, rules: &KalahRules, k: u32) -> (Result<Cached, EgdbError>, Seen) {
    let mut seen = Seen::default();
    let r = cache.read_or_build::<Egdb>(rules, k, 1, Duration::from_millis(10), &mut |ev| {
        match ev {
            CacheEvent::Refused { error, .. } => seen.refused.push(error.to_string()),
            CacheEvent::Building {
                max_seeds, entries, ..
            } => seen.builds.push((max_seeds, entries)),
            CacheEvent::Progress(_) => {}
        }
        ControlFlow::Continue(())
    });
    (r, seen)
}

/// Kalah(2,1): two positions traced by hand (as in the database's unit test): S1 = 1,
/// N2 = 1, South to move is worth 0; S2 = 2, N1 = 1 is worth −1.
fn hand_traced(rules: KalahRules) -> [(KalahPosition, i32); 2] {
    [
        (
            KalahPosition::new(rules, &[1, 0, 0, 0, 1, 0], Some(Side::South), false).unwrap(),
            0,
        ),
        (
            KalahPosition::new(rules, &[0, 2, 0, 1, 0, 0], Some(Side::South), false).unwrap(),
            -1,
        ),
    ]
}

#[test]
fn the_first_call_builds_and_saves_the_second_reads_the_file() {
    let scratch = scratch("reuse");
    let dir = scratch.path().join("not/yet/there");
    let cache = Cache::new(&dir);
    let rules: KalahRules = "kalah(2,1)".parse().unwrap();
    let (first, seen) = get(&cache, &rules, 3);
    let first = first.unwrap();
    assert!(first.built && first.save_error.is_none());
    // C(3 + 4, 4) = 35 entries.
    assert_eq!(seen.builds, vec![(3, 35)]);
    assert!(seen.refused.is_empty());
    assert_eq!(first.path, dir.join("kalah2.k3.egdb"));
    let bytes = std::fs::read(&first.path).unwrap();
    let (second, seen) = get(&cache, &rules, 3);
    let second = second.unwrap();
    assert!(!second.built);
    assert!(seen.builds.is_empty() && seen.refused.is_empty());
    assert_eq!(second.database.payload(), first.database.payload());
    assert_eq!(std::fs::read(&second.path).unwrap(), bytes);
    for (p, v) in hand_traced(rules) {
        assert_eq!(second.database.value(&p), Some(v));
    }
}

/// A flipped payload byte, a cut file, another format version, a header of other rules under
/// the file's name, garbage: each is refused with its reason and rebuilt to the same bytes.
#[test]
fn a_damaged_cached_file_is_rebuilt_never_trusted() {
    let scratch = scratch("damage");
    let dir = scratch.path().to_path_buf();
    let cache = Cache::new(&dir);
    let rules: KalahRules = "kalah(4,3)".parse().unwrap();
    let (good, _) = get(&cache, &rules, 8);
    let path = good.unwrap().path;
    let bytes = std::fs::read(&path).unwrap();
    let header = 36 + "kalah(4,3)".len();
    let other: KalahRules = "kalah(4,3)+empty_capture".parse().unwrap();
    let other_bytes = {
        let p = dir.join("other.egdb");
        Egdb::build(&other, 8, BuildOptions::new())
            .unwrap()
            .save(&p)
            .unwrap();
        let b = std::fs::read(&p).unwrap();
        std::fs::remove_file(&p).unwrap();
        b
    };
    let damages: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "flipped entry",
            {
                let mut b = bytes.clone();
                b[header + 1000] ^= 0x40;
                b
            },
            "checksum",
        ),
        ("truncated", bytes[..bytes.len() / 2].to_vec(), "truncated"),
        (
            "version 2",
            {
                let mut b = bytes.clone();
                b[8] = 2;
                b
            },
            "format version 2",
        ),
        ("other rules", other_bytes, "not for kalah(4,3)"),
        ("garbage", b"not a database at all".to_vec(), "bad magic"),
    ];
    for (what, damaged, reason) in damages {
        std::fs::write(&path, &damaged).unwrap();
        let (r, seen) = get(&cache, &rules, 8);
        let c = r.unwrap_or_else(|e| panic!("{what}: {e}"));
        assert!(c.built, "{what}");
        assert_eq!(seen.refused.len(), 1, "{what}: {seen:?}");
        assert!(seen.refused[0].contains(reason), "{what}: {seen:?}");
        assert_eq!(
            std::fs::read(&path).unwrap(),
            bytes,
            "{what}: not rebuilt whole"
        );
    }
    // The rebuilt database gives the values of a plain search without any database.
    let db = Egdb::open(&path).unwrap();
    // 7 seeds in the houses (S 1,0,2,1 and N 0,2,1,0), 17 in the stores.
    let p = KalahPosition::new(
        rules,
        &[1, 0, 2, 1, 10, 0, 2, 1, 0, 7],
        Some(Side::North),
        false,
    )
    .unwrap();
    let searched = Solver::new()
        .threads(1)
        .solve(&p, SolveOptions::new())
        .unwrap()
        .value;
    assert_eq!(db.value(&p), Some(searched));
}

#[test]
fn a_folder_that_cannot_be_written_is_an_error_before_any_build() {
    let scratch = scratch("blocked");
    let dir = scratch.path().to_path_buf();
    let file = dir.join("a-file");
    std::fs::write(&file, b"in the way").unwrap();
    let rules: KalahRules = "kalah(2,1)".parse().unwrap();
    let (r, seen) = get(&Cache::new(&file), &rules, 3);
    assert!(
        matches!(r, Err(EgdbError::Io { ref path, .. }) if *path == file),
        "{r:?}"
    );
    assert!(
        seen.builds.is_empty() && seen.refused.is_empty(),
        "{seen:?}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = dir.join("read-only");
        std::fs::create_dir(&ro).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        // Root writes into a read-only folder anyway: the check then only says it is usable.
        let probe = std::fs::write(ro.join("probe"), b"").is_ok();
        let (r, seen) = get(&Cache::new(&ro), &rules, 3);
        if probe {
            assert!(r.is_ok());
        } else {
            assert!(matches!(r, Err(EgdbError::Io { .. })), "{r:?}");
            assert!(seen.builds.is_empty());
        }
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

#[test]
fn two_builders_at_once_leave_one_whole_file() {
    let scratch = scratch("race");
    let dir = scratch.path().to_path_buf();
    let rules: KalahRules = "kalah(4,3)".parse().unwrap();
    let results: Vec<Cached> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..3)
            .map(|_| s.spawn(|| get(&Cache::new(&dir), &rules, 10).0.unwrap()))
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let reference = Egdb::build(&rules, 10, BuildOptions::new()).unwrap();
    for c in &results {
        assert!(c.save_error.is_none());
        assert_eq!(c.database.payload(), reference.payload());
    }
    let db = Egdb::open(&results[0].path).unwrap();
    assert_eq!(db.payload(), reference.payload());
    // No temporary file is left behind.
    let names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("kalah4.k10.egdb")]);
}

#[test]
fn the_default_k_follows_m_the_seeds_and_the_memory() {
    let k = |rules: &str, mem: Option<u64>| Egdb::default_max_seeds(&rules.parse().unwrap(), mem);
    // C(32, 12) = 225,792,840 is the budget; C(33, 12) = 354,817,320 is over it.
    assert_eq!(DEFAULT_BUILD_ENTRIES, 225_792_840);
    assert_eq!(k("standard", None), Some(20));
    assert_eq!(k("kalah(6,6)+empty_capture", Some(64 << 30)), Some(20));
    // m = 7: C(30, 14) = 145,422,675 fits, C(31, 14) = 265,182,525 does not.
    assert_eq!(k("manchester", None), Some(16));
    // m = 5: C(35, 10) = 183,579,396 fits, C(36, 10) = 254,186,856 does not.
    assert_eq!(k("kalah(5,5)", None), Some(25));
    // Never more than the 2mn seeds of the game: Kalah(4,3) has 24.
    assert_eq!(k("kalah(4,3)", None), Some(24));
    // A quarter of the memory: 4 · C(30, 12) bytes hold K = 18 for m = 6, not 19.
    assert_eq!(k("standard", Some(4 * 86_493_225)), Some(18));
    assert_eq!(k("standard", Some(4 * 86_493_225 - 4)), Some(17));
    // Not even K = 1 (13 entries) in 40 bytes.
    assert_eq!(k("standard", Some(40)), None);
}

#[test]
fn find_in_takes_the_largest_serving_database_by_its_header() {
    let scratch = scratch("find");
    let dir = scratch.path().to_path_buf();
    let rules: KalahRules = "kalah(2,3)".parse().unwrap();
    Egdb::build(&rules, 3, BuildOptions::new())
        .unwrap()
        .save(&dir.join("small.egdb"))
        .unwrap();
    Egdb::build(&rules, 5, BuildOptions::new())
        .unwrap()
        .save(&dir.join("a-k1.egdb"))
        .unwrap();
    let other: KalahRules = "kalah(2,3)+empty_capture".parse().unwrap();
    Egdb::build(&other, 9, BuildOptions::new())
        .unwrap()
        .save(&dir.join("other.egdb"))
        .unwrap();
    std::fs::write(dir.join("z-k99.egdb"), b"MNCLEGDB").unwrap();
    std::fs::write(dir.join("notes.txt"), b"ignored").unwrap();
    let found = Egdb::find_in(&dir, &rules).unwrap();
    assert_eq!(found.path, dir.join("a-k1.egdb"));
    assert_eq!(found.database.max_seeds(), 5);
    let skipped: Vec<&Path> = found.skipped.iter().map(|(p, _)| p.as_path()).collect();
    assert_eq!(
        skipped,
        vec![
            dir.join("other.egdb").as_path(),
            dir.join("z-k99.egdb").as_path()
        ]
    );
    assert!(found.skipped[0]
        .1
        .contains("built for kalah(2,3)+empty_capture"));
    // A file is opened as it is.
    let one = Egdb::find_in(&dir.join("small.egdb"), &rules).unwrap();
    assert_eq!(one.database.max_seeds(), 3);
    // The larger candidate damaged: the next one is taken, and the damage named.
    let mut b = std::fs::read(dir.join("a-k1.egdb")).unwrap();
    let n = b.len();
    b[n - 1] ^= 1;
    std::fs::write(dir.join("a-k1.egdb"), &b).unwrap();
    let found = Egdb::find_in(&dir, &rules).unwrap();
    assert_eq!(found.database.max_seeds(), 3);
    assert!(found
        .skipped
        .iter()
        .any(|(p, why)| p.ends_with("a-k1.egdb") && why.contains("checksum")));
    // Nothing serving the rules: every file is named with its reason.
    let none: KalahRules = "kalah(3,3)".parse().unwrap();
    match Egdb::find_in(&dir, &none) {
        Err(e @ EgdbError::NotFound { .. }) => {
            let text = e.to_string();
            assert!(
                text.starts_with("no endgame database for kalah(3,3) in "),
                "{text}"
            );
            assert!(
                text.contains("other.egdb: built for") && text.contains("truncated"),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
}

/// The empty path names no cache folder: it is refused before anything is read, built or
/// written (it read and wrote the database in the process's current folder).
#[test]
fn an_empty_folder_path_is_refused() {
    let rules: KalahRules = "kalah(2,1)".parse().unwrap();
    let name = Cache::new("x").file::<Egdb>(&rules, 3);
    let name = name.file_name().unwrap();
    assert!(!Path::new(name).exists());
    let (got, seen) = get(&Cache::new(""), &rules, 3);
    let e = got.unwrap_err();
    assert!(matches!(e, EgdbError::Io { .. }), "{e:?}");
    assert!(
        e.to_string()
            .ends_with(": it names no folder (`.` is the current one)"),
        "{e}"
    );
    assert!(seen.builds.is_empty() && seen.refused.is_empty());
    assert!(!Path::new(name).exists());
}

/// A file where the cache folder, or a folder above it, should be is named in words (the
/// system said "File exists" or "Not a directory"), and nothing is built.
#[test]
fn a_file_in_the_way_of_the_cache_folder_is_named() {
    let scratch = scratch("file-in-the-way");
    let dir = scratch.path().to_path_buf();
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let rules: KalahRules = "kalah(2,1)".parse().unwrap();
    for (folder, why) in [
        (file.clone(), "it is a file, not a folder".to_string()),
        (
            file.join("below"),
            format!("{} is a file, not a folder", file.display()),
        ),
    ] {
        let (got, seen) = get(&Cache::new(&folder), &rules, 3);
        let e = got.unwrap_err();
        assert_eq!(e.to_string(), format!("{}: {why}", folder.display()));
        assert!(seen.builds.is_empty());
    }
    assert_eq!(std::fs::read(&file).unwrap(), b"x");
}

#[test]
fn a_good_database_of_another_k_under_the_cache_name_is_rebuilt() {
    // Seen in the fresh-clone review: a K = 16 packed file copied to the cache's K = 24 name
    // was used as it was. The cache's name promises K and the byte encoding.
    let scratch = scratch("other-k");
    let dir = scratch.path().to_path_buf();
    let cache = Cache::new(&dir);
    let rules: KalahRules = "kalah(2,1)".parse().unwrap();
    let small = Egdb::build(&rules, 2, BuildOptions::new()).unwrap();
    small.save(&cache.file::<Egdb>(&rules, 3)).unwrap();
    let (got, seen) = get(&cache, &rules, 3);
    let got = got.unwrap();
    assert!(got.built, "the K = 2 file was used");
    assert_eq!(seen.refused.len(), 1, "{seen:?}");
    assert!(
        seen.refused[0].contains("K = 3") && seen.refused[0].contains("K = 2"),
        "{seen:?}"
    );
    assert_eq!(got.database.max_seeds(), 3);
    // C(3 + 4, 4) = 35 entries, as a K = 3 build has.
    assert_eq!(seen.builds, vec![(3, 35)]);
    let (again, seen) = get(&cache, &rules, 3);
    assert!(!again.unwrap().built && seen.refused.is_empty());
}

/// A symbolic link that leads nowhere (a loop, a missing target) at the cached file's name
/// is refused in words, not with the system's "Too many levels of symbolic links" or "No
/// such file or directory"; the database is built and its save replaces the link.
#[test]
#[cfg(unix)]
fn a_link_that_leads_nowhere_at_the_cached_name_is_named_and_replaced() {
    let rules: KalahRules = "kalah(2,1)".parse().unwrap();
    for (name, target) in [("loop", None), ("dangling", Some("missing/target"))] {
        let scratch = scratch(&format!("broken-{name}"));
        let dir = scratch.path().to_path_buf();
        let cache = Cache::new(&dir);
        let file = cache.file::<Egdb>(&rules, 3);
        let file_name = file.file_name().unwrap().to_owned();
        std::os::unix::fs::symlink(target.map_or(file_name.as_ref(), Path::new), &file).unwrap();
        let (got, seen) = get(&cache, &rules, 3);
        assert!(got.unwrap().built, "{name}");
        assert_eq!(
            seen.refused,
            vec![format!(
                "{}: it is a symbolic link that leads nowhere (a loop, or a missing target)",
                file.display()
            )],
            "{name}"
        );
        // C(3 + 4, 4) = 35 entries.
        assert_eq!(seen.builds, vec![(3, 35)], "{name}");
        assert!(
            std::fs::symlink_metadata(&file).unwrap().is_file(),
            "{name}"
        );
    }
}

/// `MANCALA_CACHE_DIR` names the cache folder when it is an absolute path; a relative one is
/// ignored, as the XDG Base Directory specification asks of its variables, and said so (the
/// user's cache folder serves instead); an empty one counts as unset.
#[test]
fn a_relative_cache_dir_variable_is_ignored() {
    use mancala_solver::egdb::IgnoredCacheDir;
    use std::ffi::OsStr;
    let absolute = std::env::temp_dir().join("some-cache");
    assert_eq!(
        Cache::dir_from(Some(absolute.as_os_str())),
        (Some(absolute.clone()), None)
    );
    assert_eq!(Cache::dir_from(None), (Cache::default_dir(), None));
    assert_eq!(
        Cache::dir_from(Some(OsStr::new(""))),
        (Cache::default_dir(), None)
    );
    for relative in ["cache", "./cache", "../c", "~/cache"] {
        let (dir, ignored) = Cache::dir_from(Some(OsStr::new(relative)));
        assert_eq!(dir, Cache::default_dir(), "{relative}");
        let ignored = ignored.unwrap();
        assert_eq!(
            ignored,
            IgnoredCacheDir {
                value: relative.into(),
                instead: Cache::default_dir(),
            }
        );
        let instead = Cache::default_dir().map_or_else(
            || "; no other cache folder is known (no home folder)".to_string(),
            |d| format!("; the cache folder is {}", d.display()),
        );
        assert_eq!(
            ignored.to_string(),
            format!("MANCALA_CACHE_DIR=\"{relative}\" is ignored: it is a relative path, and the cache folder must be absolute (the XDG Base Directory specification holds relative paths in its variables invalid){instead}")
        );
    }
}

/// The ignored value's sentence is whole, the folder used instead in it, a long value
/// shortened with its length after the quotes, not inside them, and a control character in
/// it escaped once.
#[test]
fn an_ignored_cache_dir_says_the_folder_used_and_a_long_value_s_length_outside() {
    use mancala_solver::egdb::IgnoredCacheDir;
    let long = "a".repeat(300);
    let ignored = IgnoredCacheDir {
        value: long.clone().into(),
        instead: Some("/home/me/.cache/mancala".into()),
    };
    // The first 30 characters, an ellipsis, the last 29 (`ShortenedPath`'s 60), then 300.
    let shown = format!("{}…{}", &long[..30], &long[..29]);
    assert_eq!(
        ignored.to_string(),
        format!("MANCALA_CACHE_DIR=\"{shown}\" (300 characters) is ignored: it is a relative path, and the cache folder must be absolute (the XDG Base Directory specification holds relative paths in its variables invalid); the cache folder is /home/me/.cache/mancala")
    );
    // A control character is escaped once (a newline as `\n`), a backslash kept as it is.
    let odd = IgnoredCacheDir {
        value: "ca\nche\\x\t".into(),
        instead: None,
    };
    assert!(
        odd.to_string()
            .starts_with(r#"MANCALA_CACHE_DIR="ca\nche\x\t" is ignored: "#),
        "{odd}"
    );
    let nowhere = IgnoredCacheDir {
        value: "cache".into(),
        instead: None,
    };
    assert!(nowhere
        .to_string()
        .ends_with("invalid); no other cache folder is known (no home folder)"));
}
