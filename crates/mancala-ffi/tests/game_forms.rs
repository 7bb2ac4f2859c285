//! The `MancalaGame` forms of the calls that were Kalah-only: the board's counts
//! (`mancala_game_board`), the extra turn (`mancala_game_extra_turn`), the pie-rule swap
//! state (`mancala_game_swap_state`) and the exact solver on a game
//! (`mancala_solver_solve_game`, `mancala_solver_analyse_game`). Counts are checked against
//! the position texts they were parsed from and the start positions of the rules; the
//! solver's values against a Kalah endgame database (a retrograde build, independent of the
//! solver's search).

use std::ffi::{c_char, CStr, CString};
use std::ptr;

use mancala::db::{mancala_db_build, mancala_db_free, mancala_db_move_values, mancala_db_value};
use mancala::game::{
    mancala_game_board, mancala_game_extra_turn, mancala_game_free, mancala_game_new,
    mancala_game_parse, mancala_game_play, mancala_game_print, mancala_game_swap_state,
    mancala_game_undo, MANCALA_GAME_MAX_SLOTS,
};
use mancala::io::mancala_last_error;
use mancala::solver::{
    mancala_solver_analyse_game, mancala_solver_free, mancala_solver_new, mancala_solver_solve_game,
};
use mancala::{
    MancalaEgdbEncoding, MancalaGame, MancalaMoveValue, MancalaSolution, MancalaSolverConfig,
    MancalaStatus,
};

fn c(text: &str) -> CString {
    CString::new(text).unwrap()
}

fn new_game(rules: &str) -> *mut MancalaGame {
    let mut g = ptr::null_mut();
    let r = c(rules);
    assert_eq!(
        unsafe { mancala_game_new(r.as_ptr(), &mut g) },
        MancalaStatus::Ok,
        "{rules}"
    );
    g
}

fn parse(rules: &str, position: &str) -> *mut MancalaGame {
    let mut g = ptr::null_mut();
    let (r, p) = (c(rules), c(position));
    assert_eq!(
        unsafe { mancala_game_parse(r.as_ptr(), p.as_ptr(), &mut g) },
        MancalaStatus::Ok,
        "{rules} {position}"
    );
    g
}

fn play(g: *mut MancalaGame, mv: &str) {
    let m = c(mv);
    assert_eq!(
        unsafe { mancala_game_play(g, m.as_ptr()) },
        MancalaStatus::Ok,
        "{mv}"
    );
}

fn board(g: *const MancalaGame) -> Vec<u32> {
    let mut slots = [u32::MAX; MANCALA_GAME_MAX_SLOTS];
    let mut count = 0;
    assert_eq!(
        unsafe { mancala_game_board(g, slots.as_mut_ptr(), slots.len(), &mut count) },
        MancalaStatus::Ok
    );
    slots[..count].to_vec()
}

fn extra_turn(g: *const MancalaGame) -> bool {
    let mut extra = false;
    assert_eq!(
        unsafe { mancala_game_extra_turn(g, &mut extra) },
        MancalaStatus::Ok
    );
    extra
}

fn swap_state(g: *const MancalaGame) -> (bool, bool) {
    let (mut offered, mut swapped) = (true, true);
    assert_eq!(
        unsafe { mancala_game_swap_state(g, &mut offered, &mut swapped) },
        MancalaStatus::Ok
    );
    (offered, swapped)
}

fn last_error() -> String {
    let mut buf = [0 as c_char; 512];
    let mut needed = 0;
    assert_eq!(
        unsafe { mancala_last_error(buf.as_mut_ptr(), buf.len(), &mut needed) },
        MancalaStatus::Ok
    );
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .unwrap()
        .to_string()
}

/// The counts of the notation text, in its order.
fn counts_of(text: &str) -> Vec<u32> {
    let counts = text.split(' ').next().unwrap();
    counts.split(',').map(|n| n.parse().unwrap()).collect()
}

#[test]
fn the_board_is_the_notations_counts() {
    for (rules, position) in [
        ("kalah(6,4)", "4,4,0,5,5,5,1,4,4,4,4,4,4,0 S"),
        ("kalah(3,3)", "1,0,0,8,0,0,1,8 S"),
        ("awari", "0,0,0,0,0,1,23,1,0,0,0,0,0,23 S"),
        ("oware", "2,2,2,0,0,0,19,1,1,1,0,0,0,20 S"),
    ] {
        let g = parse(rules, position);
        assert_eq!(board(g), counts_of(position), "{rules} {position}");
        unsafe { mancala_game_free(g) };
    }
    // The start positions of the rules: n seeds a house, empty stores (kazans).
    for (rules, houses, seeds) in [
        ("kalah(6,4)", 6, 4),
        ("oware", 6, 4),
        ("togyz-kumalak", 9, 9),
    ] {
        let g = new_game(rules);
        let row: Vec<u32> = std::iter::repeat_n(seeds, houses).chain([0]).collect();
        assert_eq!(board(g), [row.clone(), row].concat(), "{rules}");
        unsafe { mancala_game_free(g) };
    }
    // A buffer too small: the count needed, nothing written.
    let g = new_game("kalah(6,4)");
    let (mut one, mut count) = ([7u32; 1], 0);
    assert_eq!(
        unsafe { mancala_game_board(g, one.as_mut_ptr(), 1, &mut count) },
        MancalaStatus::BufferTooSmall
    );
    assert_eq!((one, count), ([7], 14));
    assert_eq!(
        unsafe { mancala_game_board(g, ptr::null_mut(), 0, ptr::null_mut()) },
        MancalaStatus::NullPointer
    );
    unsafe { mancala_game_free(g) };
    // Bao la Kete: refused, with a message.
    let g = new_game("bao-la-kete");
    let mut slots = [7u32; MANCALA_GAME_MAX_SLOTS];
    count = 99;
    assert_eq!(
        unsafe { mancala_game_board(g, slots.as_mut_ptr(), slots.len(), &mut count) },
        MancalaStatus::InvalidArgument
    );
    assert_eq!((slots, count), ([7; MANCALA_GAME_MAX_SLOTS], 99));
    assert!(last_error().contains("Bao la Kete"), "{}", last_error());
    unsafe { mancala_game_free(g) };
}

/// Kalah(6,4) from the start (KA rules: the last seed in the mover's store gives another
/// move): house 3's four seeds end in South's store, house 1's in house 5.
#[test]
fn extra_turns_and_the_swap() {
    let g = new_game("kalah(6,4)+pie_rule");
    assert!(!extra_turn(g));
    assert_eq!(swap_state(g), (false, false));
    play(g, "3");
    assert!(extra_turn(g));
    assert_eq!(swap_state(g), (false, false));
    play(g, "1");
    assert!(!extra_turn(g));
    // North's first move: the swap is on offer; after it the players have exchanged sides,
    // North is still to move, and that is no extra turn.
    assert_eq!(swap_state(g), (true, false));
    play(g, "swap");
    assert!(!extra_turn(g));
    assert_eq!(swap_state(g), (false, true));
    assert_eq!(unsafe { mancala_game_undo(g) }, MancalaStatus::Ok);
    assert_eq!(swap_state(g), (true, false));
    unsafe { mancala_game_free(g) };
    // Oware: a move never gives another one; no pie rule.
    let g = new_game("oware");
    play(g, "6");
    assert!(!extra_turn(g));
    assert_eq!(swap_state(g), (false, false));
    unsafe { mancala_game_free(g) };
    // NULL out-pointers.
    assert_eq!(
        unsafe { mancala_game_extra_turn(ptr::null(), &mut false) },
        MancalaStatus::NullPointer
    );
    let g = new_game("kalah(6,4)");
    assert_eq!(
        unsafe { mancala_game_swap_state(g, ptr::null_mut(), &mut false) },
        MancalaStatus::NullPointer
    );
    unsafe { mancala_game_free(g) };
}

/// Kalah(3,3) positions with at most 8 seeds in the houses: the solver's value and move
/// values on a `MancalaGame` are those of an endgame database; other games are refused.
#[test]
fn the_solver_on_a_game() {
    let mut db = ptr::null_mut();
    let r = c("kalah(3,3)");
    assert_eq!(
        unsafe {
            mancala_db_build(
                r.as_ptr(),
                8,
                MancalaEgdbEncoding::Byte as u32,
                1,
                None,
                ptr::null_mut(),
                0,
                &mut db,
            )
        },
        MancalaStatus::Ok
    );
    let config = MancalaSolverConfig {
        threads: 1,
        tt_bytes: 1 << 20,
        ..MancalaSolverConfig::default()
    };
    let mut solver = ptr::null_mut();
    assert_eq!(
        unsafe { mancala_solver_new(&config, &mut solver) },
        MancalaStatus::Ok
    );
    for position in [
        "1,0,0,8,0,0,1,8 S",
        "2,1,0,5,1,0,2,7 S",
        "0,3,1,4,2,0,1,7 N",
        "1,1,1,6,1,1,1,6 S",
    ] {
        let g = parse("kalah(3,3)", position);
        let (mut found, mut value) = (false, 0);
        assert_eq!(
            unsafe { mancala_db_value(db, g, &mut found, &mut value) },
            MancalaStatus::Ok
        );
        assert!(found, "{position}");
        let mut s = MancalaSolution::default();
        assert_eq!(
            unsafe { mancala_solver_solve_game(solver, g, &mut s) },
            MancalaStatus::Ok
        );
        assert!(s.exact, "{position}");
        assert_eq!(s.value, value, "{position}");
        let mut expected = [0i32; 8];
        let mut count = 0;
        assert_eq!(
            unsafe {
                mancala_db_move_values(db, g, &mut found, expected.as_mut_ptr(), 8, &mut count)
            },
            MancalaStatus::Ok
        );
        let mut moves = [MancalaMoveValue::default(); 8];
        let mut n = 0;
        assert_eq!(
            unsafe { mancala_solver_analyse_game(solver, g, moves.as_mut_ptr(), 8, &mut n) },
            MancalaStatus::Ok
        );
        assert_eq!(n, count, "{position}");
        let got: Vec<i32> = moves[..n].iter().map(|m| m.value).collect();
        assert_eq!(got, expected[..count].to_vec(), "{position}");
        unsafe { mancala_game_free(g) };
    }
    // Another game: refused before any search, nothing written.
    let g = new_game("oware");
    let mut s = MancalaSolution {
        value: 42,
        ..MancalaSolution::default()
    };
    assert_eq!(
        unsafe { mancala_solver_solve_game(solver, g, &mut s) },
        MancalaStatus::InvalidArgument
    );
    assert_eq!(s.value, 42);
    assert!(last_error().contains("Kalah"), "{}", last_error());
    let mut n = 99;
    let mut moves = [MancalaMoveValue::default(); 8];
    assert_eq!(
        unsafe { mancala_solver_analyse_game(solver, g, moves.as_mut_ptr(), 8, &mut n) },
        MancalaStatus::InvalidArgument
    );
    assert_eq!(n, 99);
    unsafe { mancala_game_free(g) };
    unsafe { mancala_solver_free(solver) };
    unsafe { mancala_db_free(db) };
}

#[test]
fn a_buffer_too_small_is_told_in_its_own_units() {
    // The start of Kalah(6,4) prints as "4,4,4,4,4,4,0,4,4,4,4,4,4,0 S": 14 one-digit
    // counts, 13 commas, a space and the side, 29 bytes, 30 with the NUL; its board is
    // 2·6 + 2 = 14 counts; Kalah(4,3) has 4 legal moves at the start.
    let g = new_game("kalah(6,4)");
    let mut buf = [0 as c_char; 8];
    let mut needed = 0;
    let st = unsafe { mancala_game_print(g, buf.as_mut_ptr(), buf.len(), &mut needed) };
    assert_eq!((st, needed), (MancalaStatus::BufferTooSmall, 30));
    assert_eq!(
        last_error(),
        "buffer of 8 bytes is too small: 30 bytes needed (the text and its NUL)"
    );
    let mut slots = [0u32; 3];
    let mut count = 0;
    let st = unsafe { mancala_game_board(g, slots.as_mut_ptr(), slots.len(), &mut count) };
    assert_eq!((st, count), (MancalaStatus::BufferTooSmall, 14));
    assert_eq!(last_error(), "buffer of 3 slots is too small: 14 needed");
    unsafe { mancala_game_free(g) };

    let g = new_game("kalah(4,3)");
    let mut solver = ptr::null_mut();
    let config = MancalaSolverConfig {
        threads: 1,
        ..Default::default()
    };
    assert_eq!(
        unsafe { mancala_solver_new(&config, &mut solver) },
        MancalaStatus::Ok
    );
    let st = unsafe { mancala_solver_analyse_game(solver, g, ptr::null_mut(), 0, &mut count) };
    assert_eq!((st, count), (MancalaStatus::BufferTooSmall, 4));
    assert_eq!(
        last_error(),
        "buffer of 0 move values is too small: 4 needed"
    );
    unsafe { mancala_solver_free(solver) };
    unsafe { mancala_game_free(g) };
}

#[test]
fn a_solver_of_more_threads_than_the_library_starts_is_refused_when_made() {
    // 1024 threads at most, as `mancala_db_build` and every other interface: more was
    // accepted here and refused by every solve (`MANCALA_STATUS_SOLVE_FAILED`).
    let mut solver = ptr::null_mut();
    for threads in [1025, u32::MAX] {
        let config = MancalaSolverConfig {
            threads,
            ..Default::default()
        };
        assert_eq!(
            unsafe { mancala_solver_new(&config, &mut solver) },
            MancalaStatus::InvalidArgument
        );
        assert!(solver.is_null());
        assert_eq!(
            last_error(),
            format!("threads: {threads} asked for, at most 1024")
        );
    }
    let config = MancalaSolverConfig {
        threads: 1024,
        ..Default::default()
    };
    assert_eq!(
        unsafe { mancala_solver_new(&config, &mut solver) },
        MancalaStatus::Ok
    );
    assert_eq!(unsafe { mancala_solver_free(solver) }, MancalaStatus::Ok);
}

#[test]
fn a_buffer_of_one_is_counted_in_the_singular() {
    // A buffer of exactly one element, too small for the start of Kalah(6,4) (30 bytes of
    // text with the NUL, a board of 14 counts) and of Kalah(4,3) (4 legal moves), and a move
    // buffer of one byte, under `MANCALA_MOVE_MAX` (8).
    use mancala::engine::{
        mancala_engine_bestmove, mancala_engine_free, mancala_engine_new, MancalaEngineConfig,
        MancalaEngineResult,
    };
    let g = new_game("kalah(6,4)");
    let mut buf = [0 as c_char; 1];
    let mut needed = 0;
    let st = unsafe { mancala_game_print(g, buf.as_mut_ptr(), buf.len(), &mut needed) };
    assert_eq!((st, needed), (MancalaStatus::BufferTooSmall, 30));
    assert_eq!(
        last_error(),
        "buffer of 1 byte is too small: 30 bytes needed (the text and its NUL)"
    );
    let mut slots = [0u32; 1];
    let mut count = 0;
    let st = unsafe { mancala_game_board(g, slots.as_mut_ptr(), slots.len(), &mut count) };
    assert_eq!((st, count), (MancalaStatus::BufferTooSmall, 14));
    assert_eq!(last_error(), "buffer of 1 slot is too small: 14 needed");
    let mut engine = ptr::null_mut();
    assert_eq!(
        unsafe { mancala_engine_new(&MancalaEngineConfig::default(), &mut engine) },
        MancalaStatus::Ok
    );
    let mut result = MancalaEngineResult::default();
    let st = unsafe {
        mancala_engine_bestmove(
            engine,
            g,
            10,
            0,
            buf.as_mut_ptr(),
            buf.len(),
            &mut needed,
            &mut result,
        )
    };
    assert_eq!((st, needed), (MancalaStatus::BufferTooSmall, 8));
    assert_eq!(
        last_error(),
        "move buffer of 1 byte is too small: 8 bytes needed"
    );
    unsafe { mancala_engine_free(engine) };
    unsafe { mancala_game_free(g) };

    let g = new_game("kalah(4,3)");
    let mut solver = ptr::null_mut();
    let config = MancalaSolverConfig {
        threads: 1,
        ..Default::default()
    };
    assert_eq!(
        unsafe { mancala_solver_new(&config, &mut solver) },
        MancalaStatus::Ok
    );
    let mut values = [MancalaMoveValue::default(); 1];
    let st = unsafe {
        mancala_solver_analyse_game(solver, g, values.as_mut_ptr(), values.len(), &mut count)
    };
    assert_eq!((st, count), (MancalaStatus::BufferTooSmall, 4));
    assert_eq!(
        last_error(),
        "buffer of 1 move value is too small: 4 needed"
    );
    unsafe { mancala_solver_free(solver) };
    unsafe { mancala_game_free(g) };
}
