//! Every game of the library through the C API's calls on games of any kind
//! (`mancala_rules_*`, `mancala_game_*`, `mancala_engine_bestmove`), called from Rust on each
//! game of [`GameKind::ALL`] at its default rule set ([`Rules::default_of`]) and checked
//! against the library's own answers, so that a game added to the library without its place
//! in the C API fails here (as the command's `every_game` tests do for `mancala`).

use std::ffi::{c_char, CString};
use std::ptr;

use mancala::engine::{MancalaEngineConfig, MancalaEngineResult, MANCALA_MOVE_MAX};
use mancala::game::{MancalaGame, MancalaGameKind};
use mancala::{MancalaStatus, MANCALA_DRAWING_MAX, MANCALA_NOTATION_MAX};
use mancala_core::{AnyGame, GameKind, Rules};

/// What a printing call wrote into a buffer of `len` bytes, as text (without the NUL).
fn text_of(
    len: usize,
    call: impl FnOnce(*mut c_char, usize, *mut usize) -> MancalaStatus,
) -> String {
    let mut buf = vec![0 as c_char; len];
    let mut needed = 0;
    assert_eq!(call(buf.as_mut_ptr(), len, &mut needed), MancalaStatus::Ok);
    let bytes: Vec<u8> = buf[..needed - 1].iter().map(|&c| c as u8).collect();
    String::from_utf8(bytes).unwrap()
}

fn print(game: *const MancalaGame) -> String {
    // SAFETY: a live game handle; the buffer is the callee's to fill.
    text_of(MANCALA_NOTATION_MAX, |b, l, n| unsafe {
        mancala::game::mancala_game_print(game, b, l, n)
    })
}

#[test]
fn every_game_through_the_c_api() {
    for kind in GameKind::ALL {
        let rules = Rules::default_of(kind);
        let text = CString::new(rules.to_string()).unwrap();
        let mut library = AnyGame::new(rules);

        // The rule set: its game.
        let mut r = ptr::null_mut();
        // SAFETY: a NUL-terminated text and a writable out-pointer.
        let st = unsafe { mancala::rules::mancala_rules_new(text.as_ptr(), &mut r) };
        assert_eq!(st, MancalaStatus::Ok, "{kind}");
        let mut which = MancalaGameKind::Kalah;
        // SAFETY: a live rules handle, a writable out-pointer.
        let st = unsafe { mancala::rules::mancala_rules_game(r, &mut which) };
        assert_eq!((st, which), (MancalaStatus::Ok, kind.into()), "{kind}");

        // A game of the rule set, by its text and by the handle.
        let mut g = ptr::null_mut();
        // SAFETY: as above.
        let st = unsafe { mancala::game::mancala_game_new(text.as_ptr(), &mut g) };
        assert_eq!(st, MancalaStatus::Ok, "{kind}");
        let mut h = ptr::null_mut();
        // SAFETY: a live rules handle, no position (the start), a writable out-pointer.
        let st = unsafe { mancala::game::mancala_game_from_rules(r, ptr::null(), &mut h) };
        assert_eq!(st, MancalaStatus::Ok, "{kind}");
        let mut which = MancalaGameKind::Kalah;
        // SAFETY: a live game handle, a writable out-pointer.
        let st = unsafe { mancala::game::mancala_game_kind(g, &mut which) };
        assert_eq!((st, which), (MancalaStatus::Ok, kind.into()), "{kind}");

        // Its rules, position and drawing.
        assert_eq!(print(g), library.position_text(), "{kind}");
        assert_eq!(print(h), library.position_text(), "{kind}");
        // SAFETY: a live game handle; the buffers are the callee's to fill.
        let printed = text_of(64, |b, l, n| unsafe {
            mancala::game::mancala_game_rules_print(g, b, l, n)
        });
        assert_eq!(printed, rules.to_string(), "{kind}");
        // SAFETY: as above.
        let drawn = text_of(MANCALA_DRAWING_MAX, |b, l, n| unsafe {
            mancala::game::mancala_game_draw(g, b, l, n)
        });
        assert_eq!(drawn, library.drawing_text(), "{kind}");

        // Legal moves, perft, a move by index.
        let mut count = 0;
        // SAFETY: as above, and `count` writable.
        let moves = text_of(1024, |b, l, n| unsafe {
            mancala::game::mancala_game_legal_moves(g, b, l, n, &mut count)
        });
        assert_eq!(moves, library.legal_moves_text().join(" "), "{kind}");
        assert_eq!(count, library.legal_move_count(), "{kind}");
        let mut nodes = 0;
        // SAFETY: a live game handle, a writable out-pointer.
        let st = unsafe { mancala::game::mancala_game_perft(g, 3, &mut nodes) };
        assert_eq!((st, nodes), (MancalaStatus::Ok, library.perft(3)), "{kind}");
        // SAFETY: a live game handle used by this thread only; the buffer is the callee's.
        let played = text_of(MANCALA_MOVE_MAX, |b, l, n| unsafe {
            mancala::game::mancala_game_play_index(g, 0, b, l, n)
        });
        assert_eq!(played, library.play_index(0).unwrap(), "{kind}");
        assert_eq!(print(g), library.position_text(), "{kind}");

        // The engine's move is one of the legal moves.
        let config = MancalaEngineConfig {
            tt_bytes: 1 << 20,
            level: 1,
            seed: 1,
        };
        let mut engine = ptr::null_mut();
        // SAFETY: a readable config and a writable out-pointer.
        let st = unsafe { mancala::engine::mancala_engine_new(&config, &mut engine) };
        assert_eq!(st, MancalaStatus::Ok, "{kind}");
        // SAFETY: a plain C struct: all zeros is a valid value.
        let mut result: MancalaEngineResult = unsafe { std::mem::zeroed() };
        // SAFETY: live handles, no time limit (level 1 has a depth limit), the buffers are
        // the callee's.
        let chosen = text_of(MANCALA_MOVE_MAX, |b, l, n| unsafe {
            mancala::engine::mancala_engine_bestmove(engine, g, 0, 0, b, l, n, &mut result)
        });
        assert!(
            library.legal_moves_text().contains(&chosen),
            "{kind}: {chosen} is not a legal move"
        );

        // SAFETY: live handles, each freed once.
        unsafe {
            assert_eq!(
                mancala::engine::mancala_engine_free(engine),
                MancalaStatus::Ok
            );
            assert_eq!(mancala::game::mancala_game_free(g), MancalaStatus::Ok);
            assert_eq!(mancala::game::mancala_game_free(h), MancalaStatus::Ok);
            assert_eq!(mancala::rules::mancala_rules_free(r), MancalaStatus::Ok);
        }
    }
}
