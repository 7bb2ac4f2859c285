//! Replays every committed fuzz input on stable: each file of `fuzz/corpus/<target>/` (the
//! seed and minimised corpora) and of `fuzz/regressions/<target>/` (inputs that once found a
//! bug) goes through the target's body, which panics on any broken invariant.

use std::path::{Path, PathBuf};

use mancala_fuzz_bodies::{Body, GAMES, TARGETS};

fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("fuzz/bodies has a parent")
        .to_path_buf()
}

/// The files of `dir`, sorted (none when it does not exist).
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<PathBuf> = entries
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.is_file())
        .collect();
    v.sort();
    v
}

fn replay(target: &str, body: Body, folder: &str) -> usize {
    let dir = fuzz_dir().join(folder).join(target);
    let inputs = files(&dir);
    for path in &inputs {
        let data = std::fs::read(path).expect("read a corpus file");
        let result = std::panic::catch_unwind(|| body(&data));
        assert!(result.is_ok(), "{target}: {} fails", path.display());
    }
    inputs.len()
}

fn target(name: &str) -> Body {
    TARGETS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|&(_, b)| b)
        .expect("a known target")
}

/// Every target has a committed corpus and a `fuzz_targets/<name>.rs`, and nothing else is
/// there: a corpus folder without a target would silently never be replayed.
#[test]
fn every_target_has_a_corpus_and_a_libfuzzer_entry() {
    for (name, _) in TARGETS {
        let corpus = files(&fuzz_dir().join("corpus").join(name));
        assert!(!corpus.is_empty(), "fuzz/corpus/{name} is empty");
        let entry = fuzz_dir().join("fuzz_targets").join(format!("{name}.rs"));
        let text = std::fs::read_to_string(&entry).expect("fuzz_targets/<name>.rs");
        assert!(
            text.contains(&format!("mancala_fuzz_bodies::{name}(data)")),
            "{} does not call its body",
            entry.display()
        );
    }
    for folder in ["corpus", "regressions"] {
        let Ok(entries) = std::fs::read_dir(fuzz_dir().join(folder)) else {
            continue;
        };
        for e in entries {
            let name = e.expect("entry").file_name();
            let name = name.to_str().expect("UTF-8 folder name");
            assert!(
                TARGETS.iter().any(|(n, _)| *n == name),
                "fuzz/{folder}/{name} belongs to no target"
            );
        }
    }
}

/// Every game of the library ([`GameKind::ALL`]) has its two targets, the moves and the
/// notation, each a body in [`TARGETS`] (so a committed corpus and a `fuzz_targets/` entry,
/// checked above) and a `[[bin]]` of `fuzz/Cargo.toml`; every target is such a `[[bin]]`. A
/// game added to the library without its fuzz targets fails here (as the command's
/// `every_game` tests do for `mancala`).
#[test]
fn every_game_has_its_fuzz_targets() {
    use mancala_core::GameKind;
    let manifest = std::fs::read_to_string(fuzz_dir().join("Cargo.toml")).expect("fuzz/Cargo.toml");
    let listed = |name: &str| {
        manifest.contains(&format!(
            "[[bin]]\nname = \"{name}\"\npath = \"fuzz_targets/{name}.rs\"\n"
        ))
    };
    for kind in GameKind::ALL {
        // The name of the game's module in `mancala-core` and of its targets.
        let stem = GAMES
            .iter()
            .find(|(k, _, _)| *k == kind)
            .map(|&(_, stem, _)| stem)
            .unwrap_or_else(|| panic!("{kind}: not in the fuzzed games' table GAMES"));
        for job in ["moves", "notation"] {
            let name = format!("{stem}_{job}");
            assert!(
                TARGETS.iter().any(|(n, _)| *n == name),
                "{kind}: no fuzz body {name}"
            );
        }
    }
    for (name, _) in TARGETS {
        assert!(listed(name), "fuzz/Cargo.toml has no [[bin]] {name}");
    }
    // Every target is replayed: this file declares a test a target from the list TARGETS
    // comes from, and the fuzzed games are in the order of the library's list (so the C API's
    // body draws a game from the same bytes as before).
    let this = std::fs::read_to_string(fuzz_dir().join("bodies/tests/replay.rs")).unwrap();
    assert!(this.contains("\nmancala_fuzz_bodies::for_each_target!(replay_tests);"));
    let kinds: Vec<GameKind> = GAMES.iter().map(|&(kind, _, _)| kind).collect();
    assert_eq!(kinds, GameKind::ALL);
}

/// The database seeds of `egdb_load` are real databases, so that the corpus starts from the
/// path where a file loads (the fuzzer mutates them from there).
#[test]
fn the_database_seeds_load() {
    for name in [
        "kalah1+discard_remaining.k4",
        "kalah2.k4",
        "kalah2+end_when_no_move.k4",
        "kalah3+empty_capture.k4",
    ] {
        let bytes = std::fs::read(fuzz_dir().join("corpus/egdb_load").join(name)).unwrap();
        let db = mancala_solver::Egdb::from_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(db.max_seeds(), 4, "{name}");
    }
}

macro_rules! replay_tests {
    ($($name:ident),*) => {$(
        #[test]
        fn $name() {
            let n = replay(stringify!($name), target(stringify!($name)), "corpus");
            let r = replay(stringify!($name), target(stringify!($name)), "regressions");
            assert!(n > 0, "no corpus for {}", stringify!($name));
            eprintln!("{}: {n} corpus inputs, {r} regressions", stringify!($name));
        }
    )*};
}

mancala_fuzz_bodies::for_each_target!(replay_tests);

/// The status-name check of the `ffi_strings` body on every code the library has and on the
/// codes around them, so that a status added to the library is covered by the replay even
/// before a fuzz input draws it.
#[test]
fn every_status_code_is_checked() {
    let count = mancala::status::all_statuses().len() as i32;
    assert!(count >= 17, "MANCALA_STATUS_CANCELLED (16) is a status");
    for code in -2..count + 3 {
        mancala_fuzz_bodies::check_status_name(code);
    }
    mancala_fuzz_bodies::check_status_name(i32::MIN);
    mancala_fuzz_bodies::check_status_name(i32::MAX);
}

/// The committed `ffi_strings` inputs (corpus and regressions) draw every status code of the
/// library's list through `mancala_status_name`, the last one included
/// (`regressions/ffi_strings/status_cancelled` draws `MANCALA_STATUS_CANCELLED`, 16), so that
/// the replay exercises the body's check of each, not only the direct calls above.
#[test]
fn the_ffi_inputs_draw_every_status_code() {
    let _ = mancala_fuzz_bodies::status_codes_checked();
    replay("ffi_strings", target("ffi_strings"), "corpus");
    replay("ffi_strings", target("ffi_strings"), "regressions");
    let drawn = mancala_fuzz_bodies::status_codes_checked();
    let missing: Vec<i32> = mancala::status::all_statuses()
        .iter()
        .map(|&s| s as i32)
        .filter(|c| !drawn.contains(c))
        .collect();
    assert!(
        missing.is_empty(),
        "status codes no input draws: {missing:?}"
    );

    // The regression alone: step 10 (`mancala_status_name`), a code of the list, 18 places
    // from −2.
    let data = std::fs::read(fuzz_dir().join("regressions/ffi_strings/status_cancelled"))
        .expect("the regression input");
    mancala_fuzz_bodies::ffi_strings(&data);
    assert_eq!(
        mancala_fuzz_bodies::status_codes_checked(),
        [mancala::status::MancalaStatus::Cancelled as i32]
    );
}
