//! C and C++ programs built against the library this test run built (`libmancala.so` and
//! `libmancala.a` next to this test binary, in `target/<profile>/deps`):
//!
//! * `tests/c/error_paths.c`: every error path and the hand-derived values of the rules and
//!   game calls;
//! * `tests/c/solver_paths.c`: the solver and endgame-database calls, values checked against
//!   a plain minimax written in C, limits, cancel from another thread, damaged files;
//! * `tests/c/game_paths.c`: the one game API (`MancalaGame`) on every game, engine against
//!   engine, and its error paths;
//! * `tests/c/db_paths.c`: the one database family (`MancalaDb`) on Oware and Kalah games:
//!   values worked out by hand, files, the cache, the engine (its move under Abapa with the
//!   neighbour database as its evaluation checked against the Rust engine's), every error
//!   path;
//! * `tests/c/engine_paths.c`: the playing engine: a hand-derived best move, budgets, levels,
//!   cancel from another thread, Bao la Kete moves, exact play with a database, every error
//!   path;
//! * `examples/c` and `examples/cpp`, linked shared and static, with their exact output
//!   checked against the committed `expected_output.txt` and against the same game replayed
//!   here directly on `mancala-core`;
//! * both C programs under valgrind (or AddressSanitizer when valgrind is not installed):
//!   no invalid access, no leak;
//! * `install.sh` into a staging root (`--destdir`, `--libdir`) and a prefix: the files it
//!   installs, the pkg-config files and the CMake package building the C example shared and
//!   static (no `NEEDED libmancala` in the static program).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::Arc;

use mancala_core::kalah::{KalahMove, KalahPosition, KalahRules};
use mancala_core::oware::{OwarePosition, OwareRules};
use mancala_core::GameRecord;
use mancala_core::Side;
use mancala_solver::awari::AwariDb;
use mancala_solver::egdb::Database;
use mancala_solver::engine::{Engine, Level, LevelPlayer, Limits};
use mancala_solver::{BuildOptions, SolveOptions, Solver};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

/// The SONAME `build.rs` gives the shared library, derived from the crate version by Cargo's
/// compatibility rule: `libmancala.so.0.<minor>` below 1.0, `libmancala.so.<major>` after.
fn soname() -> String {
    let (major, minor) = (
        env!("CARGO_PKG_VERSION_MAJOR"),
        env!("CARGO_PKG_VERSION_MINOR"),
    );
    if major == "0" {
        format!("libmancala.so.0.{minor}")
    } else {
        format!("libmancala.so.{major}")
    }
}

/// The directory holding the `libmancala.{so,a}` that cargo built for this test run, with the
/// link `<soname>` → `libmancala.so` that programs linked against it load at run time (what
/// `install.sh` makes in an installed prefix).
fn lib_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("deps dir").to_path_buf();
    for lib in ["libmancala.so", "libmancala.a"] {
        assert!(
            deps.join(lib).is_file(),
            "{} missing: cargo should build the cdylib and staticlib with the tests",
            deps.join(lib).display()
        );
    }
    let link = deps.join(soname());
    if std::fs::symlink_metadata(&link).is_err() {
        // Several tests may get here at once: a link made by another one is as good.
        let _ = std::os::unix::fs::symlink("libmancala.so", &link);
    }
    deps
}

/// The dynamic section's entries of one kind (`SONAME`, `NEEDED`) of an ELF file, by readelf.
fn dynamic_entries(file: &Path, kind: &str) -> Vec<String> {
    let out = run(Command::new("readelf").arg("-d").arg(file));
    stdout(&out)
        .lines()
        .filter(|l| l.contains(&format!("({kind})")))
        .filter_map(|l| Some(l.split_once('[')?.1.split_once(']')?.0.to_string()))
        .collect()
}

/// A fresh, empty scratch folder for one test, `mancala-ffi-<name>-` and a random part, in
/// Cargo's folder for the files of integration tests; the guard removes it, with the copies
/// of the library and the programs built against it (tens of MB), when the test ends, passed
/// or failed. Each run builds anew: none of these folders is reused as a cache.
fn scratch(name: &str) -> Scratch {
    let dir = tempfile::Builder::new()
        .prefix(&format!("mancala-ffi-{name}-"))
        .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
        .expect("create scratch dir");
    Scratch(dir)
}

/// A scratch folder of [`scratch`]: removed when dropped. The guard is the folder's path
/// ([`Deref`](std::ops::Deref) to [`Path`]).
struct Scratch(tempfile::TempDir);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<std::ffi::OsStr> for Scratch {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.path().as_os_str()
    }
}

/// Runs a command to success. `LD_LIBRARY_PATH` (which cargo sets for tests, possibly
/// pointing at an older `libmancala.so` in `target/<profile>`) is removed, so that programs
/// load the library their rpath names.
fn run(cmd: &mut Command) -> Output {
    let out = cmd
        .env_remove("LD_LIBRARY_PATH")
        .output()
        .unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(
        out.status.success(),
        "{cmd:?} failed ({}):\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

fn have(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// The environment variable that lets the tests needing a missing tool pass without running
/// (README, "Two commands"); without it a missing tool fails them.
const SKIP_MISSING_TOOLS: &str = "MANCALA_SKIP_MISSING_TOOLS";

/// Whether the test may go on with `tool` (from the Debian/Ubuntu package `package`): true
/// when it is installed; false, after saying so, when it is not and [`SKIP_MISSING_TOOLS`]
/// is set to anything but empty or `0`; otherwise the test fails with a one-line reason
/// naming the package, since a test that passes without running checks nothing.
fn require(tool: &str, package: &str) -> bool {
    if have(tool) {
        return true;
    }
    let skip = std::env::var_os(SKIP_MISSING_TOOLS).is_some_and(|v| !v.is_empty() && v != "0");
    assert!(
        skip,
        "{tool} is not installed: install the package `{package}` (.ci/run does), or set \
         {SKIP_MISSING_TOOLS}=1 to skip the tests that need it"
    );
    eprintln!("{tool} is not installed and {SKIP_MISSING_TOOLS} is set: skipping");
    false
}

/// Compiles `tests/c/<name>.c` against the shared library, with extra compiler flags.
fn build_c_test(name: &str, dir: &Path, extra: &[&str]) -> PathBuf {
    let exe = dir.join(name);
    let lib = lib_dir();
    run(Command::new("gcc")
        .args([
            "-std=c11",
            "-g",
            "-O1",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-pedantic",
        ])
        .args(extra)
        .arg("-I")
        .arg(root().join("include"))
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/c/{name}.c")))
        .arg("-o")
        .arg(&exe)
        .arg("-L")
        .arg(&lib)
        .arg("-lmancala")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-lpthread"));
    exe
}

fn assert_all_passed(name: &str, out: &str) {
    let last = out.lines().last().unwrap_or("");
    assert!(
        last.ends_with(" passed, 0 failed") && !last.starts_with("0 "),
        "{name}.c reported failures:\n{out}"
    );
}

#[test]
fn c_error_paths() {
    let dir = scratch("error_paths");
    let exe = build_c_test("error_paths", &dir, &[]);
    let out = stdout(&run(&mut Command::new(exe)));
    assert_all_passed("error_paths", &out);
}

#[test]
fn c_solver_and_database_paths() {
    let dir = scratch("solver_paths");
    let exe = build_c_test("solver_paths", &dir, &[]);
    let out = stdout(&run(Command::new(exe).arg(&dir)));
    assert_all_passed("solver_paths", &out);
}

#[test]
fn c_game_paths() {
    let dir = scratch("game_paths");
    let exe = build_c_test("game_paths", &dir, &[]);
    let out = stdout(&run(&mut Command::new(exe)));
    assert_all_passed("game_paths", &out);
}

#[test]
fn c_awari_paths() {
    let dir = scratch("awari_paths");
    let exe = build_c_test("awari_paths", &dir, &[]);
    let out = stdout(&run(Command::new(exe).arg(&dir)));
    assert_all_passed("awari_paths", &out);
}

/// The move and score of the Abapa position that `db_paths.c` searches at level 5 with the
/// Oware database of `grand_slam=none` (N = 6) as the evaluation (`estimates`:
/// `mancala_engine_set_estimates`), or without it, as the Rust engine gives them with the
/// same table size, level and seed.
fn abapa_move_from_rust(estimates: bool) -> (String, i32) {
    let rules: OwareRules = "oware".parse().unwrap();
    let neighbour: OwareRules = "oware+majority=off+cycle_score=split".parse().unwrap();
    let mut engine = Engine::<OwarePosition>::with_tt_bytes(1 << 16);
    if estimates {
        let db = <AwariDb as Database>::build(&neighbour, 6, BuildOptions::new()).unwrap();
        engine.set_estimates(Some(Arc::new(db)));
    }
    let pos = OwarePosition::parse(rules, "1,0,1,1,1,1,21,1,1,0,0,0,1,19 S").unwrap();
    let mut player = LevelPlayer::with_engine(engine, Level::new(5).unwrap(), 0);
    let c = player
        .choose_game(&GameRecord::from_position(pos), Limits::default())
        .unwrap();
    (c.mv.to_string(), c.search.score)
}

#[test]
fn c_db_paths() {
    let dir = scratch("db_paths");
    let exe = build_c_test("db_paths", &dir, &[]);
    let out = stdout(&run(Command::new(exe).arg(&dir)));
    assert_all_passed("db_paths", &out);
    // The C engine given the neighbour database as its evaluation plays the Rust engine's
    // move with it, and another move without it (so the call is not without effect).
    let (with, score) = abapa_move_from_rust(true);
    let (without, heuristic) = abapa_move_from_rust(false);
    assert_ne!(with, without);
    for line in [
        format!("estimates: move {with} score {score}"),
        format!("heuristic: move {without} score {heuristic}"),
    ] {
        assert!(out.lines().any(|l| l == line), "{line} not in\n{out}");
    }
}

#[test]
fn c_engine_paths() {
    let dir = scratch("engine_paths");
    let exe = build_c_test("engine_paths", &dir, &[]);
    let out = stdout(&run(&mut Command::new(exe)));
    assert_all_passed("engine_paths", &out);
}

/// Builds an example with its Makefile into `dir` (shared and static) and returns both.
fn build_example(lang: &str, dir: &Path) -> [PathBuf; 2] {
    run(Command::new("make")
        .arg("-s")
        .arg("-C")
        .arg(root().join("examples").join(lang))
        .arg(format!("LIBDIR={}", lib_dir().display()))
        .arg(format!("OUTDIR={}", dir.display())));
    [dir.join("kalah_game"), dir.join("kalah_game_static")]
}

fn expected_output(lang: &str) -> String {
    let path = root()
        .join("examples")
        .join(lang)
        .join("expected_output.txt");
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The examples' game replayed directly on `mancala-core` and `mancala-solver`: South is the
/// engine (with at most 16 seeds in the houses the solver's first best move, else greedy:
/// largest store lead after the move, then an extra turn, then the lowest house), North the
/// script 1,6,2,5,3,4 (skipping illegal entries); then the solve and analysis of Kalah(4,3),
/// and the playing engine's move in the Kalah(6,4) start on a 20000-node budget.
/// Gives the lines from `start:` on.
fn transcript_from_core() -> String {
    let mut solver = Solver::new().threads(1).tt_bytes(16 << 20);
    let rules: KalahRules = "kalah(6,4)".parse().unwrap();
    let mut game = GameRecord::<KalahPosition>::new(rules);
    let script = [1u8, 6, 2, 5, 3, 4];
    let mut cursor = 0;
    let mut text = format!("start: {}\n", game.position());
    let mut ply = 0;
    while let Some(side) = game.position().side_to_move() {
        let pos = *game.position();
        let legal = pos.legal_moves();
        let solved = if side == Side::South && pos.seeds_in_houses() <= 16 {
            let s = solver.solve(&pos, SolveOptions::new()).unwrap();
            (s.exact && !s.best_moves.is_empty()).then(|| (s.best_moves[0], s.value))
        } else {
            None
        };
        let how = match (side, solved) {
            (Side::North, _) => "script".to_string(),
            (Side::South, Some((_, value))) => format!("solver, value {value:+}"),
            (Side::South, None) => "greedy".to_string(),
        };
        let mv = if let Some((mv, _)) = solved {
            mv
        } else if side == Side::South {
            let mut best = (i32::MIN, legal[0]);
            for &mv in &legal {
                let next = pos.play(mv).unwrap();
                let lead = next.store_difference();
                let value = 2 * lead + i32::from(pos.is_extra_turn(mv));
                if value > best.0 {
                    best = (value, mv);
                }
            }
            best.1
        } else {
            let mut chosen = legal[0];
            for _ in 0..script.len() {
                let wanted = KalahMove::House(script[cursor]);
                cursor = (cursor + 1) % script.len();
                if legal.contains(&wanted) {
                    chosen = wanted;
                    break;
                }
            }
            chosen
        };
        let extra = pos.is_extra_turn(mv);
        game.play(mv).unwrap();
        ply += 1;
        let name = match side {
            Side::South => "South",
            Side::North => "North",
        };
        text += &format!(
            "{ply:3}. {name} ({how}) plays {mv} -> {}{}\n",
            game.position(),
            if extra { "  (extra turn)" } else { "" }
        );
    }
    let outcome = game.position().outcome().unwrap();
    let result = match outcome.winner {
        Some(Side::South) => "South wins",
        Some(Side::North) => "North wins",
        None => "draw",
    };
    text += &format!(
        "result: {result} (score {:+}, South minus North)\n",
        outcome.score
    );
    // The final board, as `mancala_kalah_draw` gives it.
    text += &format!("{}\n", game.position().drawing());
    let record: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
    text += &format!("record: {}\n", record.join(","));

    let small = KalahPosition::start("kalah(4,3)".parse().unwrap());
    let s = solver.solve(&small, SolveOptions::new()).unwrap();
    let best: Vec<String> = s.best_moves.iter().map(|m| format!(" {m}")).collect();
    text += &format!(
        "solve kalah(4,3) start: value {:+} ({}), best move{}\n",
        s.value,
        if s.exact { "exact" } else { "bounds" },
        best.concat()
    );
    let analysis = solver.analyse(&small, SolveOptions::new()).unwrap();
    let values: Vec<String> = analysis
        .moves
        .iter()
        .map(|m| format!(" {}:{:+}", m.mv, m.value))
        .collect();
    text += &format!("analyse:{}\n", values.concat());

    // The playing engine at level 10 (a 1 MiB table, seed 0) with a 20000-node budget, as
    // `mancala_engine_kalah_bestmove(engine, game, 0, 20000, …)` runs it.
    let mut player = LevelPlayer::with_engine(
        Engine::<KalahPosition>::with_tt_bytes(1 << 20),
        Level::new(10).unwrap(),
        0,
    );
    let choice = player
        .choose_within(&KalahPosition::start(rules), Limits::nodes(20_000))
        .unwrap();
    text += &format!(
        "engine (level 10, 20000 nodes) on the kalah(6,4) start: move {}, depth {}, score {:+}\n",
        choice.mv, choice.search.depth, choice.search.score
    );
    text
}

fn check_example(lang: &str) {
    let expected = expected_output(lang);
    let version = env!("CARGO_PKG_VERSION");
    let header =
        format!("libmancala {version} (header {version})\nrules: standard\nperft(2) = 35\n");
    assert!(
        expected.starts_with(&header),
        "expected_output.txt does not start with\n{header}"
    );
    assert_eq!(
        &expected[header.len()..],
        transcript_from_core(),
        "examples/{lang}/expected_output.txt disagrees with the game replayed on mancala-core"
    );
    // Hand-checked opening (docs/rules/kalah.md worked example 1): South's house 3 ends in the
    // store.
    assert!(expected
        .contains("  1. South (greedy) plays 3 -> 4,4,0,5,5,5,1,4,4,4,4,4,4,0 S  (extra turn)\n"));
    let dir = scratch(lang);
    let exes = build_example(lang, &dir);
    for exe in &exes {
        let out = stdout(&run(&mut Command::new(exe)));
        assert_eq!(out, expected, "{} output differs", exe.display());
    }
    check_example_reports_errors(lang, &exes);
}

/// The examples report a failing call with the status name and the library's whole message
/// (a regression guard: the message must still be there when read after
/// `mancala_status_name`, which once cleared it), a short one (a bad option) and a long one
/// (an unknown rule set, whose message lists every game: longer than the 256-byte buffer the
/// C examples once used, which then printed nothing of it).
/// The expected message is the one `mancala-core` gives for the same rule-set text.
fn check_example_reports_errors(lang: &str, exes: &[PathBuf]) {
    let call = if lang == "c" {
        "mancala_rules_new(rules_text, &rules)"
    } else {
        "mancala_rules_new(text, &raw)"
    };
    for exe in exes {
        check_reports_bad_rules(exe, call);
    }
}

/// Runs `exe` with a bad option and with an unknown rule set as its argument and checks that
/// it exits with 1 and prints `<call> failed: MANCALA_STATUS_BAD_RULES: <message>`, the
/// message being the one `mancala-core` gives for the same text.
fn check_reports_bad_rules(exe: &Path, call: &str) {
    let short = "kalah(6,4)+bogus";
    let message = short.parse::<KalahRules>().unwrap_err().to_string();
    assert!(message.contains("bogus"), "{message}");
    let unknown = "nope";
    let long = unknown
        .parse::<mancala_core::Rules>()
        .unwrap_err()
        .to_string();
    assert!(
        long.contains("nope") && long.len() >= 256,
        "the unknown-rule-set message is expected to be long: {long}"
    );
    for (bad, message) in [(short, message), (unknown, long)] {
        let out = Command::new(exe)
            .arg(bad)
            .env_remove("LD_LIBRARY_PATH")
            .output()
            .unwrap_or_else(|e| panic!("cannot run {}: {e}", exe.display()));
        assert_eq!(out.status.code(), Some(1), "{} {bad}", exe.display());
        let stderr = String::from_utf8(out.stderr).expect("UTF-8");
        assert_eq!(
            stderr,
            format!("{call} failed: MANCALA_STATUS_BAD_RULES: {message}\n"),
            "{} {bad}",
            exe.display()
        );
    }
}

#[test]
fn c_example_shared_and_static() {
    check_example("c");
}

/// The Oware example plays a whole game engine against engine through `MancalaGame`: every
/// printed move replays on `mancala-core` to the printed position, and the game ends with
/// the printed result.
#[test]
fn c_oware_example_plays_a_whole_game() {
    let dir = scratch("oware_example");
    build_example("c", &dir);
    check_reports_bad_rules(&dir.join("oware_game"), "mancala_game_new(rules, &game)");
    let out = stdout(&run(&mut Command::new(dir.join("oware_game"))));
    let mut lines = out.lines();
    let start = lines.next().expect("a start line");
    let rules: OwareRules = "oware".parse().unwrap();
    assert_eq!(start, format!("start: {}", OwarePosition::start(rules)));
    let mut game = GameRecord::<OwarePosition>::new(rules);
    let mut plies = 0;
    for line in lines.by_ref() {
        let Some((head, position)) = line.split_once(": ") else {
            break;
        };
        let Some((_, mv)) = head.split_once(" plays ") else {
            break;
        };
        game.play(mv.parse().expect("a house number"))
            .unwrap_or_else(|e| panic!("{line}: {e}"));
        assert_eq!(game.position().to_string(), position, "{line}");
        plies += 1;
    }
    assert!(plies > 10, "{out}");
    let outcome = game.position().outcome().expect("the game is over");
    let result = out.lines().last().unwrap();
    let expected = match outcome.winner {
        Some(Side::South) => "South wins",
        Some(Side::North) => "North wins",
        None => "draw",
    };
    assert_eq!(result, format!("result: {expected} ({:+})", outcome.score));
}

#[test]
fn cpp_example_shared_and_static() {
    check_example("cpp");
}

/// The memory checker of this machine: valgrind, or AddressSanitizer when valgrind is not
/// installed (`MANCALA_MEMCHECK=asan` forces AddressSanitizer, to test that path too).
fn use_valgrind() -> bool {
    have("valgrind") && std::env::var("MANCALA_MEMCHECK").as_deref() != Ok("asan")
}

/// Compiles one C file against the shared library (with AddressSanitizer when
/// `!use_valgrind()`).
fn build_for_memcheck(src: &Path, exe: &Path) {
    let lib = lib_dir();
    let mut cmd = Command::new("gcc");
    cmd.args(["-std=c11", "-g", "-O1", "-fno-omit-frame-pointer"]);
    if !use_valgrind() {
        cmd.arg("-fsanitize=address");
    }
    run(cmd
        .arg("-I")
        .arg(root().join("include"))
        .arg(src)
        .arg("-o")
        .arg(exe)
        .arg("-L")
        .arg(&lib)
        .arg("-lmancala")
        .arg(format!("-Wl,-rpath,{}", lib.display()))
        .arg("-lpthread"));
}

/// Runs `exe` under the memory checker; `Err` with its report on any invalid access or leak
/// (valgrind: definite, indirect or possible; LeakSanitizer: any). `arg`, when given, is
/// the program's one argument.
fn memcheck(exe: &Path, arg: Option<&Path>) -> Result<(), String> {
    let out = if use_valgrind() {
        Command::new("valgrind")
            .args([
                // Valgrind runs one thread at a time; its default lock lets a busy search
                // thread starve the thread that cancels it for tens of seconds (seen on this
                // machine under load). The ticket lock hands the threads turns fairly.
                "--fair-sched=yes",
                "--error-exitcode=99",
                "--leak-check=full",
                "--errors-for-leak-kinds=definite,indirect,possible",
                "--quiet",
            ])
            .arg(format!(
                "--suppressions={}",
                Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("valgrind.supp")
                    .display()
            ))
            .arg(exe)
            .args(arg)
            .env_remove("LD_LIBRARY_PATH")
            .output()
            .expect("run valgrind")
    } else {
        Command::new(exe)
            .args(arg)
            .env_remove("LD_LIBRARY_PATH")
            .env("ASAN_OPTIONS", "detect_leaks=1")
            .output()
            .expect("run AddressSanitizer build")
    };
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{} ({}):\n{}",
            exe.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

const LEAKY_PROGRAM: &str = r#"
#include "mancala.h"
int main(void) {
    MancalaRules *rules = 0;
    MancalaKalah *game = 0;
    if (mancala_rules_new("standard", &rules) != MANCALA_STATUS_OK) return 2;
    if (mancala_kalah_new(rules, &game) != MANCALA_STATUS_OK) return 2;
    game = 0; /* leaked on purpose */
    return mancala_rules_free(rules) == MANCALA_STATUS_OK ? 0 : 2;
}
"#;

#[test]
fn c_programs_are_memory_clean() {
    let dir = scratch("memcheck");
    eprintln!(
        "memory checker: {}",
        if use_valgrind() {
            "valgrind"
        } else {
            "gcc -fsanitize=address"
        }
    );
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c");
    let programs = [
        ("kalah_game", root().join("examples/c/kalah_game.c")),
        ("error_paths", tests.join("error_paths.c")),
        ("solver_paths", tests.join("solver_paths.c")),
        ("engine_paths", tests.join("engine_paths.c")),
        ("game_paths", tests.join("game_paths.c")),
        ("awari_paths", tests.join("awari_paths.c")),
        ("db_paths", tests.join("db_paths.c")),
    ];
    for (name, src) in programs {
        let exe = dir.join(name);
        build_for_memcheck(&src, &exe);
        // Only solver_paths, awari_paths and db_paths take an argument (their scratch
        // folder); the example takes a rule set.
        let arg = matches!(name, "solver_paths" | "awari_paths" | "db_paths").then_some(&*dir);
        if let Err(report) = memcheck(&exe, arg) {
            panic!("memory errors in {report}");
        }
    }
    // The checker is not vacuous: a handle the caller forgets to free is reported (the
    // library's handle registry holds no pointer that would make it look reachable).
    let leaky = dir.join("leaky.c");
    std::fs::write(&leaky, LEAKY_PROGRAM).unwrap();
    build_for_memcheck(&leaky, &dir.join("leaky"));
    assert!(
        memcheck(&dir.join("leaky"), None).is_err(),
        "the memory checker missed a leaked MancalaKalah handle"
    );
}

/// Runs `install.sh` with the libraries this test run built (`--from`, so that nothing is
/// built again in another profile) and the options `args`.
fn install(args: &[&str]) {
    run(Command::new("sh")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("install.sh"))
        .arg("--from")
        .arg(lib_dir())
        .args(args));
}

/// Every file and link under `dir`, as paths relative to it, sorted.
fn files_under(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() && !path.is_symlink() {
                todo.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap();
                found.push(rel.to_string_lossy().into_owned());
            }
        }
    }
    found.sort();
    found
}

/// The system libraries a static link of a Rust staticlib needs with this toolchain, as
/// rustc prints them (`--print native-static-libs`) for an empty staticlib crate: they are
/// the standard library's, and `mancala-ffi`'s dependencies link no native library of their
/// own.
fn native_static_libs(dir: &Path) -> String {
    let src = dir.join("empty.rs");
    std::fs::write(&src, "").unwrap();
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = run(Command::new(rustc)
        .args(["--crate-type", "staticlib", "--crate-name", "empty"])
        .args(["--print", "native-static-libs", "-o"])
        .arg(dir.join("libempty.a"))
        .arg(&src));
    let text = String::from_utf8_lossy(&out.stderr).into_owned() + &stdout(&out);
    text.lines()
        .find_map(|l| Some(l.split_once("native-static-libs: ")?.1.trim().to_string()))
        .unwrap_or_else(|| panic!("no native-static-libs line in rustc's output:\n{text}"))
}

/// `install.sh --prefix /usr --libdir lib/x86_64-linux-gnu --destdir STAGE`, as a
/// distribution's package build runs it: exactly the header, the shared library under its
/// versioned name with the SONAME link and the development link, the static library, the two
/// pkg-config files and the CMake package, all under the staging root; the pkg-config files
/// name the final places.
#[test]
fn the_shared_library_has_a_soname_and_installs_under_a_versioned_name() {
    if !require("readelf", "binutils") {
        return;
    }
    assert_eq!(
        dynamic_entries(&lib_dir().join("libmancala.so"), "SONAME"),
        [soname()]
    );
    let stage = scratch("soname");
    let stage_arg = stage.display().to_string();
    install(&[
        "--prefix",
        "/usr",
        "--libdir",
        "lib/x86_64-linux-gnu",
        "--destdir",
        &stage_arg,
    ]);
    let version = env!("CARGO_PKG_VERSION");
    let file = format!("libmancala.so.{version}");
    let libdir = "usr/lib/x86_64-linux-gnu";
    let mut expected: Vec<String> = [
        "usr/include/mancala.h".to_string(),
        format!("{libdir}/{file}"),
        format!("{libdir}/{}", soname()),
        format!("{libdir}/libmancala.so"),
        format!("{libdir}/libmancala.a"),
        format!("{libdir}/pkgconfig/mancala.pc"),
        format!("{libdir}/pkgconfig/mancala-static.pc"),
        format!("{libdir}/cmake/mancala/mancala-config.cmake"),
        format!("{libdir}/cmake/mancala/mancala-config-version.cmake"),
        "usr/share/mancala/valgrind.supp".to_string(),
    ]
    .into();
    expected.sort();
    assert_eq!(files_under(&stage), expected);
    let lib = stage.join(libdir);
    assert!(lib.join(&file).is_file() && !lib.join(&file).is_symlink());
    assert_eq!(
        std::fs::read_link(lib.join(soname())).unwrap(),
        Path::new(&file)
    );
    assert_eq!(
        std::fs::read_link(lib.join("libmancala.so")).unwrap(),
        Path::new(&soname())
    );
    assert_eq!(
        std::fs::read(stage.join("usr/include/mancala.h")).unwrap(),
        std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("include/mancala.h")).unwrap()
    );
    let pc = std::fs::read_to_string(lib.join("pkgconfig/mancala.pc")).unwrap();
    for line in [
        "prefix=/usr\n",
        "libdir=${prefix}/lib/x86_64-linux-gnu\n",
        "includedir=${prefix}/include\n",
        &format!("Version: {version}\n"),
        "Libs: -L${libdir} -lmancala\n",
    ] {
        assert!(pc.contains(line), "mancala.pc lacks {line:?}:\n{pc}");
    }
    // A program linked with -lmancala records the SONAME, not the unversioned name.
    let example = scratch("soname_example");
    let [shared, _] = build_example("c", &example);
    assert!(dynamic_entries(&shared, "NEEDED").contains(&soname()));
}

/// `install.sh`'s CMake package used by `examples/cmake` (configure, build, run), shared and
/// static; the programs print exactly the C example's expected output. The package is
/// installed under a staging root with a libdir of its own and used from there: it finds
/// its files from its own place.
#[test]
fn cmake_package_builds_the_example() {
    if !require("cmake", "cmake") {
        return;
    }
    let stage = scratch("cmake_prefix");
    let stage_arg = stage.display().to_string();
    install(&[
        "--prefix",
        "/opt/mancala",
        "--libdir",
        "lib64",
        "--destdir",
        &stage_arg,
    ]);
    // CMake searches PREFIX/lib64 only on some systems (not on Debian's multiarch): the
    // package's folder is given directly, as for any libdir outside CMake's search.
    let package = stage.join("opt/mancala/lib64/cmake/mancala");
    let build = scratch("cmake_build");
    run(Command::new("cmake")
        .arg("-S")
        .arg(root().join("examples/cmake"))
        .arg("-B")
        .arg(&build)
        .arg(format!("-Dmancala_DIR={}", package.display())));
    run(Command::new("cmake").arg("--build").arg(&build));
    for exe in ["kalah_game", "kalah_game_static"] {
        let out = stdout(&run(&mut Command::new(build.join(exe))));
        assert_eq!(out, expected_output("c"), "{exe} (CMake) output differs");
    }
    // The shared one loads the installed library, through the SONAME link; the static one
    // needs no libmancala at run time.
    assert!(dynamic_entries(&build.join("kalah_game"), "NEEDED").contains(&soname()));
    let needed = dynamic_entries(&build.join("kalah_game_static"), "NEEDED");
    assert!(
        !needed.iter().any(|n| n.starts_with("libmancala")),
        "{needed:?}"
    );
}

/// The pkg-config files of an installed prefix, as a C user types them: `mancala` links the
/// shared library, `mancala-static` the static one with the system libraries Rust's standard
/// library needs (which are also `mancala`'s `Libs.private`, for `--static`); both build the
/// C example, which prints the expected output, and the static program needs no libmancala
/// at run time.
#[test]
fn pkg_config_finds_the_library_in_one_line() {
    let dir = scratch("pkgconfig");
    let prefix = dir.join("prefix");
    install(&["--prefix", &prefix.display().to_string()]);
    let lib = prefix.join("lib");
    let pc = std::fs::read_to_string(lib.join("pkgconfig/mancala.pc")).unwrap();
    assert!(pc.contains(&format!("Version: {}\n", env!("CARGO_PKG_VERSION"))));
    assert!(pc.contains(&format!("prefix={}\n", prefix.display())));
    let syslibs = native_static_libs(&dir);
    assert!(
        pc.contains(&format!("Libs.private: {syslibs}\n")),
        "mancala.pc's Libs.private is not rustc's native-static-libs ({syslibs}):\n{pc}"
    );
    if !require("pkg-config", "pkg-config") {
        return;
    }
    let pkg_config = |args: &[&str]| {
        let out = run(Command::new("pkg-config")
            .args(args)
            .env("PKG_CONFIG_PATH", lib.join("pkgconfig")));
        stdout(&out)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let l = format!("-L{}", lib.display());
    assert_eq!(
        pkg_config(&["--static", "--libs", "mancala"]),
        format!("{l} -lmancala {syslibs}")
    );
    assert_eq!(
        pkg_config(&["--libs", "mancala-static"]),
        format!("{l} -l:libmancala.a {syslibs}")
    );
    let src = root().join("examples/c/kalah_game.c");
    let shared = dir.join("kalah_game");
    let statik = dir.join("kalah_game_static");
    for (exe, flags) in [
        (
            &shared,
            format!(
                "$(pkg-config --cflags --libs mancala) -Wl,-rpath,{}",
                lib.display()
            ),
        ),
        (
            &statik,
            "$(pkg-config --cflags --libs mancala-static)".into(),
        ),
    ] {
        let script = format!(
            "cc -std=c11 {src} -o {exe} {flags}",
            src = src.display(),
            exe = exe.display()
        );
        run(Command::new("sh")
            .arg("-c")
            .arg(&script)
            .env("PKG_CONFIG_PATH", lib.join("pkgconfig")));
        let out = stdout(&run(&mut Command::new(exe)));
        assert_eq!(out, expected_output("c"), "{script}");
    }
    if !require("readelf", "binutils") {
        return;
    }
    assert!(dynamic_entries(&shared, "NEEDED").contains(&soname()));
    let needed = dynamic_entries(&statik, "NEEDED");
    assert!(
        !needed.iter().any(|n| n.starts_with("libmancala")),
        "{needed:?}"
    );
}
