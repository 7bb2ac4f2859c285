//! Database files under attack: a file truncated or overwritten while it is being
//! read gives an error, never a signal.

use std::io::{Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use mancala_core::kalah::KalahRules;
use mancala_solver::egdb::Encoding;
use mancala_solver::{BuildOptions, Egdb, EgdbError};

/// A fresh scratch folder for one test, in Cargo's folder for the files of integration
/// tests; the guard removes it when the test ends, passed or failed.
fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("egdb-files-{name}-"))
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .unwrap()
}

/// [`scratch`] in the system's folder for temporary files, for a test that makes a Unix
/// socket: a socket's path has at most 108 bytes, which Cargo's folder under a deep checkout
/// may use up.
fn short_scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("mancala-egdb-files-{name}-"))
        .tempdir()
        .unwrap()
}

/// Kalah(4,·) up to K = 16 seeds: C(24, 8) = 735,471 entries, a file of 735,517 bytes,
/// built in well under a second.
fn database() -> Egdb {
    database_as(Encoding::Byte)
}

/// [`database`] in `encoding` (packed: 5 bits an entry, a file of 459,716 bytes).
fn database_as(encoding: Encoding) -> Egdb {
    let rules: KalahRules = "kalah(4,3)".parse().unwrap();
    Egdb::build(&rules, 16, BuildOptions::new().encoding(encoding)).unwrap()
}

/// Rewrites the file at `path` in place (same inode, as `truncate -s 100 F` and `cp other F`
/// do) until `stop`: cut to 100 bytes, then the good bytes written back, then cut in the
/// middle of the payload, then the good bytes again.
fn keep_damaging(path: &Path, good: &[u8], stop: &AtomicBool) {
    let mut f = std::fs::OpenOptions::new().write(true).open(path).unwrap();
    let mut round = 0u64;
    while !stop.load(Ordering::Relaxed) {
        let cut = if round.is_multiple_of(2) {
            100
        } else {
            good.len() as u64 / 2
        };
        f.set_len(cut).unwrap();
        std::thread::sleep(std::time::Duration::from_micros(200));
        f.seek(SeekFrom::Start(0)).unwrap();
        f.write_all(good).unwrap();
        std::thread::sleep(std::time::Duration::from_micros(300));
        round += 1;
    }
}

/// Loads while another thread truncates and rewrites the file: every load either gives the
/// database exactly as saved or a typed error; with a memory map of the file, a load that
/// touched a page past the new end died of SIGBUS and took this test process with it.
#[test]
#[cfg_attr(miri, ignore = "threads rewriting a file")]
fn a_file_cut_and_rewritten_during_loads_gives_errors_not_signals() {
    for e in Encoding::ALL {
        cut_and_rewritten_during_loads(e);
    }
}

fn cut_and_rewritten_during_loads(encoding: Encoding) {
    let scratch = scratch(&format!("changing-{encoding}"));
    let dir = scratch.path().to_path_buf();
    let path = dir.join("kalah4.k16.egdb");
    let db = database_as(encoding);
    db.save(&path).unwrap();
    let good = std::fs::read(&path).unwrap();
    let stop = Arc::new(AtomicBool::new(false));
    let writer = {
        let (path, good, stop) = (path.clone(), good.clone(), Arc::clone(&stop));
        std::thread::spawn(move || keep_damaging(&path, &good, &stop))
    };
    let (mut whole, mut refused) = (0, 0);
    for i in 0..300 {
        let r = if i % 2 == 0 {
            Egdb::open(&path)
        } else {
            Egdb::load(&path)
        };
        match r {
            Ok(back) => {
                assert_eq!(
                    back.payload(),
                    db.payload(),
                    "a load that succeeds is whole"
                );
                whole += 1;
            }
            Err(
                EgdbError::Changed(_)
                | EgdbError::Truncated { .. }
                | EgdbError::Checksum { .. }
                | EgdbError::Header(_)
                | EgdbError::BadMagic(_)
                | EgdbError::BadEntry { .. },
            ) => refused += 1,
            Err(e) => panic!("unexpected error: {e}"),
        }
    }
    stop.store(true, Ordering::Relaxed);
    writer.join().unwrap();
    // The race was run: some loads met a damaged or changing file.
    assert!(refused > 0, "{whole} whole loads, none refused");
    // Once the file is left alone, it loads.
    std::fs::write(&path, &good).unwrap();
    assert_eq!(Egdb::load(&path).unwrap().payload(), db.payload());
}

/// A database read from a file no longer depends on it: the file deleted or cut to nothing
/// afterwards changes no value.
#[test]
#[cfg_attr(miri, ignore = "a 735 KB database")]
fn an_opened_database_does_not_read_its_file_again() {
    let scratch = scratch("after");
    let dir = scratch.path().to_path_buf();
    let path = dir.join("kalah4.k16.egdb");
    let db = database();
    db.save(&path).unwrap();
    let opened = Egdb::open(&path).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(0)
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    // Every entry read (with a map of the file, the first one past the cut would be SIGBUS).
    assert_eq!(opened.payload(), db.payload());
}

/// The names of the regular files and symlinks in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

/// Symlinks planted at every name a save could write (the final name, the fixed `.tmp` name
/// saves once used, the temporary name pattern without its random part) all point at a
/// file outside the folder: the save leaves that file byte for byte as it was, replaces the
/// symlink at the final name by the database, and leaves the other links alone.
#[test]
#[cfg(unix)]
#[cfg_attr(miri, ignore = "symlinks")]
fn symlinks_planted_in_the_folder_are_never_written_through() {
    let scratch = scratch("symlinks");
    let dir = scratch.path().to_path_buf();
    let out = dir.join("out");
    std::fs::create_dir_all(&out).unwrap();
    let victim = dir.join("important.txt");
    let precious = b"the user's own file, which no database build may touch\n".to_vec();
    std::fs::write(&victim, &precious).unwrap();
    let path = out.join("kalah4.k16.egdb");
    let planted = [
        "kalah4.k16.egdb".to_string(),
        "kalah4.k16.egdb.tmp".to_string(),
        format!(".kalah4.k16.egdb.{}.tmp", std::process::id()),
        // The pattern of a killed save's file, with a process id that is never a live one
        // (the largest pid_t): not a regular file, so not removed either.
        format!(".kalah4.k16.egdb.{}.AAAAAAAAAAAA.tmp", i32::MAX),
    ];
    for name in &planted {
        std::os::unix::fs::symlink(&victim, out.join(name)).unwrap();
    }
    let db = database();
    let report = db.save(&path).unwrap();
    assert!(report.removed_stale.is_empty(), "{report:?}");
    assert_eq!(std::fs::read(&victim).unwrap(), precious);
    let meta = std::fs::symlink_metadata(&path).unwrap();
    assert!(
        meta.file_type().is_file(),
        "the final name is now the database itself"
    );
    assert_eq!(Egdb::open(&path).unwrap().payload(), db.payload());
    for name in &planted[1..] {
        let link = std::fs::symlink_metadata(out.join(name)).unwrap();
        assert!(link.file_type().is_symlink(), "{name}");
    }
    assert_eq!(listing(&out), {
        let mut v = planted.to_vec();
        v.sort();
        v
    });
}

/// Saves of one file from several threads at once all succeed (each writes its own
/// temporary file), the file is whole, and no temporary file is left.
#[test]
#[cfg_attr(miri, ignore = "threads writing files")]
fn concurrent_saves_of_one_file_all_succeed_and_leave_it_whole() {
    let scratch = scratch("concurrent");
    let dir = scratch.path().to_path_buf();
    let path = dir.join("kalah4.k16.egdb");
    let db = database();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for _ in 0..5 {
                    db.save(&path).unwrap();
                }
            });
        }
    });
    assert_eq!(Egdb::open(&path).unwrap().payload(), db.payload());
    assert_eq!(listing(&dir), ["kalah4.k16.egdb"]);
}

/// The id of a process that has exited and been reaped.
#[cfg(unix)]
fn dead_pid() -> u32 {
    let mut child = std::process::Command::new("true").spawn().unwrap();
    let pid = child.id();
    child.wait().unwrap();
    pid
}

/// A save removes (and reports) the temporary files of earlier saves of the same name whose
/// process is gone, as a save killed by SIGKILL leaves them: this test plants such a file
/// under the name pattern `Egdb::save` documents, with the id of a process that has exited.
/// Files of live processes (a save under way elsewhere), of other names and of other
/// patterns are kept.
#[test]
#[cfg(unix)]
#[cfg_attr(miri, ignore = "processes")]
fn a_save_removes_the_temporary_files_of_killed_saves_only() {
    let scratch = scratch("stale");
    let dir = scratch.path().to_path_buf();
    let path = dir.join("kalah4.k16.egdb");
    let gone = dir.join(format!(".kalah4.k16.egdb.{}.x7Gq2LmPz0Ab.tmp", dead_pid()));
    let mut live_child = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .unwrap();
    let kept = [
        // A save under way in another live process.
        format!(".kalah4.k16.egdb.{}.Qw3rTy5uIo9P.tmp", live_child.id()),
        // A save under way in this process.
        format!(".kalah4.k16.egdb.{}.Zx8cVb4nMl2K.tmp", std::process::id()),
        // Another database's file, another pattern, a user's file.
        format!(".kalah4.k17.egdb.{}.x7Gq2LmPz0Ab.tmp", dead_pid()),
        format!(".kalah4.k16.egdb.{}.tmp", dead_pid()),
        "notes.txt".to_string(),
    ];
    std::fs::write(&gone, vec![7u8; 1 << 20]).unwrap();
    for name in &kept {
        std::fs::write(dir.join(name), b"x").unwrap();
    }
    let db = database();
    let report = db.save(&path).unwrap();
    live_child.kill().unwrap();
    live_child.wait().unwrap();
    assert_eq!(report.removed_stale, std::slice::from_ref(&gone));
    assert!(!gone.exists());
    let mut expected: Vec<String> = kept.to_vec();
    expected.push("kalah4.k16.egdb".to_string());
    expected.sort();
    assert_eq!(listing(&dir), expected);
}

/// A save that fails (its folder does not exist; a file where the folder should be; a folder
/// where the file should be) reports the error and leaves nothing behind.
#[test]
#[cfg_attr(miri, ignore = "files")]
fn a_failed_save_leaves_nothing() {
    let scratch = scratch("failed");
    let dir = scratch.path().to_path_buf();
    let db = database();
    let missing = dir.join("missing").join("kalah4.k16.egdb");
    assert!(matches!(db.save(&missing), Err(EgdbError::Io { .. })));
    std::fs::write(dir.join("file"), b"x").unwrap();
    let under_file = dir.join("file").join("kalah4.k16.egdb");
    assert!(matches!(db.save(&under_file), Err(EgdbError::Io { .. })));
    // A folder where the file should be is named as one (the rename said "Is a directory").
    std::fs::create_dir(dir.join("folder")).unwrap();
    let e = db.save(&dir.join("folder")).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: it is a folder, not a file",
            dir.join("folder").display()
        )
    );
    std::fs::remove_dir(dir.join("folder")).unwrap();
    assert_eq!(listing(&dir), ["file"]);
}

/// `egdb::occupant` reads a file's header once and checks it as its own game's database,
/// whichever database is about to be written: a Kalah file in the way of an Oware database
/// (and the reverse) is another database, described from its own header, not a file that
/// cannot be told; the same database's name is no obstacle; a file of no database cannot be
/// told.
#[test]
fn the_occupant_of_either_game_is_described_from_its_own_header() {
    use mancala_core::oware::GrandSlam;
    use mancala_solver::awari::AwariDb;
    use mancala_solver::egdb::{occupant, Occupant};
    let scratch = scratch("occupant");
    let dir = scratch.path().to_path_buf();
    let kalah = dir.join("k.egdb");
    let rules: KalahRules = "kalah(4,3)".parse().unwrap();
    Egdb::build(&rules, 6, BuildOptions::new())
        .unwrap()
        .save(&kalah)
        .unwrap();
    let awari = dir.join("a.egdb");
    AwariDb::build_until_under(GrandSlam::UnlessOnly, 4, 1, |_| true)
        .unwrap()
        .save(&awari)
        .unwrap();
    let awari_name = AwariDb::file_name_under(GrandSlam::UnlessOnly, 4, Encoding::Byte);
    let kalah_name = Egdb::file_name(&rules, 6, Encoding::Byte);
    assert!(occupant(&kalah, &kalah_name).is_ok());
    assert!(occupant(&awari, &awari_name).is_ok());
    match occupant(&kalah, &awari_name) {
        Err(Occupant::Other(what)) => assert_eq!(what, "kalah(4,·), K = 6, byte encoding"),
        other => panic!("{other:?}"),
    }
    match occupant(&awari, &kalah_name) {
        Err(Occupant::Other(what)) => assert_eq!(what, "awari, levels 0..=4, byte encoding"),
        other => panic!("{other:?}"),
    }
    let notes = dir.join("notes.egdb");
    std::fs::write(&notes, b"my notes\n").unwrap();
    assert!(matches!(
        occupant(&notes, &kalah_name),
        Err(Occupant::Unknown(EgdbError::BadMagic(_)))
    ));
    // Nothing there, or a folder: nothing is in the way.
    assert!(occupant(&dir.join("none.egdb"), &kalah_name).is_ok());
    assert!(occupant(&dir, &kalah_name).is_ok());
}

/// A path that cannot name a file says why: the empty one that it is empty (it said "the
/// path has no file name in UTF-8"), a non-UTF-8 name that it is not UTF-8.
#[test]
#[cfg_attr(miri, ignore = "files")]
fn a_save_to_an_empty_or_non_utf8_path_says_why() {
    let rules: KalahRules = "kalah(2,1)".parse().unwrap();
    let db = Egdb::build(&rules, 4, BuildOptions::new()).unwrap();
    let e = db.save(Path::new("")).unwrap_err();
    assert!(matches!(e, EgdbError::Io { .. }), "{e:?}");
    assert_eq!(e.to_string(), "(an empty path): the path is empty");
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let scratch = scratch("non-utf8");
        let dir = scratch.path().to_path_buf();
        let path = dir.join(std::ffi::OsStr::from_bytes(b"db\xff.egdb"));
        let e = db.save(&path).unwrap_err();
        assert!(
            e.to_string().ends_with(": the file name is not UTF-8"),
            "{e}"
        );
        assert!(listing(&dir).is_empty());
    }
}

/// A save over a file that is not a regular one (here a Unix socket; `/dev/null` alike) is
/// refused and leaves it as it was: the rename replaced it with the database (as root it
/// turned `/dev/null` into a regular file). Every game's database is saved the same way.
#[test]
#[cfg(unix)]
#[cfg_attr(miri, ignore = "files")]
fn a_save_over_a_socket_is_refused_and_leaves_it() {
    use std::os::unix::fs::FileTypeExt;
    let scratch = short_scratch("socket");
    let dir = scratch.path().to_path_buf();
    let path = dir.join("kalah2.k4.egdb");
    let _listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let rules: KalahRules = "kalah(2,1)".parse().unwrap();
    let db = Egdb::build(&rules, 4, BuildOptions::new()).unwrap();
    let e = db.save(&path).unwrap_err();
    assert!(matches!(e, EgdbError::Io { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        format!(
            "{}: not a regular file, which a save does not replace",
            path.display()
        )
    );
    // The check before a build says so at once, rather than after the build, in the words
    // of the save's error.
    let holds = mancala_solver::egdb::occupant(&path, "kalah2.k4.egdb").unwrap_err();
    assert!(
        matches!(holds, mancala_solver::egdb::Occupant::NotRegular),
        "{holds:?}"
    );
    assert_eq!(
        format!("{}: {holds}", path.display()),
        e.to_string(),
        "the save's words"
    );
    let awari = mancala_solver::awari::AwariDb::build(2, 1).unwrap();
    assert!(matches!(awari.save(&path), Err(EgdbError::Io { .. })));
    assert!(std::fs::symlink_metadata(&path)
        .unwrap()
        .file_type()
        .is_socket());
    assert_eq!(listing(&dir), ["kalah2.k4.egdb"]);
}

/// `egdb::occupant` tells a FIFO, a socket and a device (`/dev/null`) from a file that cannot
/// be told to hold a database: each is `Occupant::NotRegular`, found without opening it (a
/// FIFO's open would block), whereas a symbolic link to `/dev/null` is no obstacle (the save
/// replaces the link) and neither is a regular file of the same database.
#[test]
#[cfg(unix)]
#[cfg_attr(miri, ignore = "runs mkfifo")]
fn a_fifo_a_socket_or_a_device_is_not_a_regular_occupant() {
    use mancala_solver::egdb::{occupant, Occupant};
    let scratch = short_scratch("not-regular-occupant");
    let dir = scratch.path().to_path_buf();
    let name = "kalah2.k4.egdb";
    let fifo = dir.join("fifo.egdb");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let socket = dir.join("socket.egdb");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let link = dir.join("link.egdb");
    std::os::unix::fs::symlink("/dev/null", &link).unwrap();
    for path in [fifo.as_path(), socket.as_path(), Path::new("/dev/null")] {
        match occupant(path, name) {
            Err(e @ Occupant::NotRegular) => assert_eq!(
                e.to_string(),
                "not a regular file, which a save does not replace"
            ),
            other => panic!("{}: {other:?}", path.display()),
        }
    }
    assert!(occupant(&link, name).is_ok());
    let same = dir.join(name);
    let rules: KalahRules = "kalah(2,1)".parse().unwrap();
    Egdb::build(&rules, 4, BuildOptions::new())
        .unwrap()
        .save(&same)
        .unwrap();
    assert!(occupant(&same, name).is_ok());
}

/// `egdb::probe_folder` creates nothing that stays: a writable folder is left empty; a folder
/// that is not there, or a file given as the folder, is the system's error
/// (`No such file or directory`, `Not a directory`), which never names the probe; a folder
/// that cannot be written is named, as a save names it.
#[test]
#[cfg_attr(miri, ignore = "files")]
fn the_folder_probe_leaves_nothing_and_names_no_probe() {
    use mancala_solver::egdb::probe_folder;
    let scratch = scratch("probe");
    let dir = scratch.path().to_path_buf();
    probe_folder(&dir).unwrap();
    assert!(listing(&dir).is_empty());
    let missing = probe_folder(&dir.join("missing")).unwrap_err();
    assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
    let file = dir.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    let in_a_file = probe_folder(&file).unwrap_err();
    for e in [&missing, &in_a_file] {
        assert!(!e.to_string().contains("mancala-write-check"), "{e}");
        // Only the system's words and code: `<words> (os error <n>)`.
        assert!(e.raw_os_error().is_some(), "{e:?}");
    }
    assert_eq!(listing(&dir), ["a-file"]);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let ro = dir.join("read-only");
        std::fs::create_dir(&ro).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        // Root writes anyway: the probe then succeeds, and leaves nothing either.
        let root = std::fs::write(ro.join("root-check"), b"").is_ok();
        let _ = std::fs::remove_file(ro.join("root-check"));
        match probe_folder(&ro) {
            Ok(()) => assert!(root, "a read-only folder took the probe"),
            Err(e) => {
                assert!(!root, "{e}");
                assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied);
                // In the words of a save into it.
                assert!(
                    e.to_string().starts_with(&format!(
                        "the folder {} is not writable: ",
                        mancala_core::ShortenedPath(&ro)
                    )),
                    "{e}"
                );
            }
        }
        assert!(listing(&ro).is_empty());
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
}

/// `egdb::file_in_the_way` names what stands where a folder is wanted, the folder itself or
/// one above it, and says a FIFO, a socket or a device apart from a file; a folder, a missing
/// path below folders, and a link to a folder are in nobody's way.
#[test]
#[cfg_attr(miri, ignore = "files")]
fn what_stands_in_the_way_of_a_folder_is_named() {
    use mancala_solver::egdb::{file_in_the_way, FileInTheWay};
    let scratch = short_scratch("in-the-way");
    let dir = scratch.path().to_path_buf();
    let file = dir.join("a-file");
    std::fs::write(&file, b"x").unwrap();
    assert_eq!(file_in_the_way(&dir), None);
    assert_eq!(file_in_the_way(&dir.join("missing/below")), None);
    let itself = file_in_the_way(&file).unwrap();
    assert_eq!(
        itself,
        FileInTheWay {
            path: file.clone(),
            itself: true,
            regular: true,
            broken_link: false
        }
    );
    assert_eq!(itself.to_string(), "it is a file, not a folder");
    let above = file_in_the_way(&file.join("sub/deeper")).unwrap();
    assert_eq!(
        (above.path.as_path(), above.itself),
        (file.as_path(), false)
    );
    assert_eq!(
        above.to_string(),
        format!("{} is a file, not a folder", file.display())
    );
    #[cfg(unix)]
    {
        let socket = dir.join("socket");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        assert_eq!(
            file_in_the_way(&socket).unwrap().to_string(),
            "it is a FIFO, socket or device, not a folder"
        );
        assert_eq!(
            file_in_the_way(Path::new("/dev/null/sub"))
                .unwrap()
                .to_string(),
            "/dev/null is a FIFO, socket or device, not a folder"
        );
        let link = dir.join("link");
        std::os::unix::fs::symlink(&dir, &link).unwrap();
        assert_eq!(file_in_the_way(&link.join("new")), None);
        // A link to itself, and one to nothing: "File exists" for the system.
        let (looped, dangling) = (dir.join("loop"), dir.join("dangling"));
        std::os::unix::fs::symlink("loop", &looped).unwrap();
        std::os::unix::fs::symlink(dir.join("nothing"), &dangling).unwrap();
        for link in [&looped, &dangling] {
            let nowhere = "a symbolic link that leads nowhere (a loop, or a missing target)";
            assert_eq!(
                file_in_the_way(link).unwrap().to_string(),
                format!("it is {nowhere}, not a folder")
            );
            assert_eq!(
                file_in_the_way(&link.join("sub")).unwrap().to_string(),
                format!("{} is {nowhere}, not a folder", link.display())
            );
        }
    }
}

/// `egdb::open_regular` names a symbolic link that leads nowhere, around a loop or to a
/// missing target, in words (the system says "Too many levels of symbolic links" or "No
/// such file or directory"), whether the open reads or appends and creates; the kind stays
/// the open's. A link to a regular file is followed.
#[test]
#[cfg(unix)]
#[cfg_attr(miri, ignore = "symlinks")]
fn a_link_that_leads_nowhere_is_named_when_opened() {
    use mancala_solver::egdb::{is_broken_link, open_regular};
    use std::fs::OpenOptions;
    let scratch = scratch("broken-links");
    let dir = scratch.path().to_path_buf();
    let (looped, dangling, good) = (dir.join("loop"), dir.join("dangling"), dir.join("good"));
    std::os::unix::fs::symlink("loop", &looped).unwrap();
    std::os::unix::fs::symlink(dir.join("missing/below"), &dangling).unwrap();
    std::fs::write(dir.join("file"), b"x").unwrap();
    std::os::unix::fs::symlink("file", &good).unwrap();
    let nowhere = "it is a symbolic link that leads nowhere (a loop, or a missing target)";
    for link in [&looped, &dangling] {
        assert!(is_broken_link(link), "{}", link.display());
        for options in [
            OpenOptions::new().read(true).clone(),
            OpenOptions::new().append(true).create(true).clone(),
        ] {
            let e = open_regular(link, &options).unwrap_err();
            assert_eq!(e.to_string(), nowhere, "{}", link.display());
        }
    }
    assert!(!is_broken_link(&good) && !is_broken_link(&dir.join("file")));
    assert!(!is_broken_link(&dir.join("nothing")));
    assert!(open_regular(&good, OpenOptions::new().read(true)).is_ok());
    // Nothing there at all is the system's own error, as before.
    let e = open_regular(&dir.join("nothing"), OpenOptions::new().read(true)).unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::NotFound);
    assert!(!e.to_string().contains("symbolic link"), "{e}");
}

/// A trailing separator changes nothing in what `egdb::file_in_the_way` and
/// `egdb::is_broken_link` say: `dang/` is the link `dang` itself (the system would follow
/// it, and call the path of a file "Not a directory").
#[test]
#[cfg(unix)]
#[cfg_attr(miri, ignore = "symlinks")]
fn a_trailing_slash_changes_nothing_in_the_way() {
    use mancala_solver::egdb::{file_in_the_way, is_broken_link};
    let scratch = short_scratch("trailing-slash");
    let dir = scratch.path().to_path_buf();
    let (looped, dangling, file) = (dir.join("loop"), dir.join("dang"), dir.join("file"));
    std::os::unix::fs::symlink("loop", &looped).unwrap();
    std::os::unix::fs::symlink(dir.join("nothing"), &dangling).unwrap();
    std::fs::write(&file, b"x").unwrap();
    let socket = dir.join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let nowhere = "a symbolic link that leads nowhere (a loop, or a missing target)";
    for (path, what) in [
        (&looped, nowhere),
        (&dangling, nowhere),
        (&file, "a file"),
        (&socket, "a FIFO, socket or device"),
    ] {
        let slashed = PathBuf::from(format!("{}//", path.display()));
        let found = file_in_the_way(&slashed).unwrap();
        assert_eq!(found.to_string(), format!("it is {what}, not a folder"));
        assert!(found.itself);
        assert_eq!(
            is_broken_link(&slashed),
            what == nowhere,
            "{}",
            path.display()
        );
    }
    // A link to a folder stays a folder, slash or not.
    let to_dir = dir.join("to-dir");
    std::os::unix::fs::symlink(&dir, &to_dir).unwrap();
    assert_eq!(file_in_the_way(&dir.join("to-dir/")), None);
}

/// `egdb::open_regular` refuses a link to a missing target before it opens, even when it
/// would create the file: nothing is created at the target. A link that leads nowhere, or a
/// file, above the file asked for is named as such, not as "Too many levels of symbolic
/// links" or "Not a directory".
#[test]
#[cfg(unix)]
#[cfg_attr(miri, ignore = "symlinks")]
fn a_link_to_nothing_is_not_followed_to_create_a_file() {
    use mancala_solver::egdb::open_regular;
    use std::fs::OpenOptions;
    let scratch = scratch("dangling-create");
    let dir = scratch.path().to_path_buf();
    let (target, dangling) = (dir.join("target"), dir.join("dangling"));
    std::os::unix::fs::symlink(&target, &dangling).unwrap();
    let e = open_regular(&dangling, OpenOptions::new().append(true).create(true)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "it is a symbolic link that leads nowhere (a loop, or a missing target)"
    );
    assert!(!target.exists(), "the open created the link's target");
    let looped = dir.join("loop");
    std::os::unix::fs::symlink("loop", &looped).unwrap();
    std::fs::write(dir.join("file"), b"x").unwrap();
    for (above, what) in [
        (
            &looped,
            "a symbolic link that leads nowhere (a loop, or a missing target)",
        ),
        (&dir.join("file"), "a file"),
    ] {
        for options in [
            OpenOptions::new().read(true).clone(),
            OpenOptions::new().append(true).create(true).clone(),
        ] {
            let e = open_regular(&above.join("x"), &options).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!("{} is {what}, not a folder", above.display())
            );
        }
    }
}

/// `egdb::open_regular` of a path ending in `/`, which names a folder: a file, a FIFO, or
/// nothing there when the open would create a file, is refused in words (the system says
/// "Not a directory", or "Is a directory" of a file an append would create), a folder as a
/// folder, a link that leads nowhere as such; nothing there, to be read, is the system's
/// "No such file or directory", as without the `/`; nothing is created.
#[test]
#[cfg(unix)]
#[cfg_attr(miri, ignore = "symlinks")]
fn a_name_ending_in_a_slash_is_no_file() {
    use mancala_solver::egdb::open_regular;
    use std::fs::OpenOptions;
    let scratch = scratch("trailing-slash");
    let dir = scratch.path().to_path_buf();
    std::fs::write(dir.join("file"), b"x").unwrap();
    std::fs::create_dir(dir.join("folder")).unwrap();
    std::os::unix::fs::symlink(dir.join("missing"), dir.join("dangling")).unwrap();
    let fifo = std::process::Command::new("mkfifo")
        .arg(dir.join("fifo"))
        .status();
    assert!(fifo.is_ok_and(|s| s.success()), "mkfifo");
    let no_file = "a file's name cannot end with '/' (that names a folder)";
    for (name, why) in [
        ("file/", no_file),
        ("fifo/", no_file),
        ("folder/", "it is a folder, not a file"),
        (
            "dangling/",
            "it is a symbolic link that leads nowhere (a loop, or a missing target)",
        ),
    ] {
        for options in [
            OpenOptions::new().read(true).clone(),
            OpenOptions::new().append(true).create(true).clone(),
        ] {
            let e = open_regular(&dir.join(name), &options).unwrap_err();
            assert_eq!(e.to_string(), why, "{name}");
            assert_eq!(e.kind(), std::io::ErrorKind::InvalidInput, "{name}");
        }
    }
    let read = open_regular(&dir.join("new/"), OpenOptions::new().read(true)).unwrap_err();
    let without_slash = open_regular(&dir.join("new"), OpenOptions::new().read(true)).unwrap_err();
    assert_eq!(read.kind(), std::io::ErrorKind::NotFound);
    assert_eq!(read.to_string(), without_slash.to_string());
    let create = OpenOptions::new().append(true).create(true).clone();
    let e = open_regular(&dir.join("new/"), &create).unwrap_err();
    assert_eq!(
        (e.to_string().as_str(), e.kind()),
        (no_file, std::io::ErrorKind::InvalidInput)
    );
    assert!(!dir.join("new").exists() && !dir.join("missing").exists());
}

/// A save over a symbolic link to a folder replaces the link, as one to a file or to
/// nothing is (the link itself is looked at, not the folder it leads to); the folder is
/// left as it was.
#[test]
#[cfg(unix)]
#[cfg_attr(miri, ignore = "symlinks")]
fn a_save_replaces_a_link_to_a_folder() {
    let scratch = scratch("link-to-folder");
    let dir = scratch.path().to_path_buf();
    let folder = dir.join("folder");
    std::fs::create_dir(&folder).unwrap();
    let link = dir.join("db.egdb");
    std::os::unix::fs::symlink(&folder, &link).unwrap();
    let rules: KalahRules = "kalah(2,1)".parse().unwrap();
    let db = Egdb::build(&rules, 4, BuildOptions::new()).unwrap();
    db.save(&link).unwrap();
    assert!(std::fs::symlink_metadata(&link).unwrap().is_file());
    assert!(listing(&folder).is_empty());
    assert!(Egdb::open(&link).is_ok());
}
