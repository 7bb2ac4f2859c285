//! The game-specific front ends of `MancalaGame`, `mancala_kalah_*` and `mancala_bao_*`,
//! written once: the template of every thin wrapper is below ([`TEMPLATE`]), and the table
//! `build/front_ends.md` says, for each front end, its handle type, its game, which wrappers
//! it has in which order, and the documentation text that differs from one front end to
//! another. The build script writes the Rust source of each front end into `OUT_DIR`
//! (`kalah_1.rs`, `kalah_2.rs`, …, one file a group of consecutive wrappers), which
//! `src/kalah.rs` and `src/bao.rs` take in with `include!`; the header test
//! (`tests/header.rs`) puts the same files in place of those `include!` lines before cbindgen
//! reads the crate, so that the header declares the functions where the module has them.
//!
//! The template's placeholders: `{T}` the handle type (`MancalaKalah`), `{g}` the prefix of
//! the names (`kalah`), `{KIND}` the `GameKind` variant (`Kalah`); a doc line `/// {key}` is
//! the table's text for `key` in that front end, one doc line a line of it.
//!
//! The generator exists only to keep the older per-game families in step with
//! `mancala_game_*`; it goes when they go. A front end with `- deprecated: <release>` has
//! every wrapper `#[deprecated]`, naming its `mancala_game_*` replacement and the release
//! that removes it (`mancala_bao_*`, `mancala_kalah_*`; the hand-written Kalah-only calls
//! in `src/kalah.rs` are marked there, naming `mancala_game_board`,
//! `mancala_game_extra_turn`, `mancala_game_swap_state`).

use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Every thin wrapper, each after a line `@@ name`. Each is one call to a generic body of
/// `src/game.rs` or `src/handle.rs`, the same bodies the `mancala_game_*` functions call.
const TEMPLATE: &str = r#"
@@ new
/// {new}
///
/// Ownership as `mancala_game_from_rules`; the handle is released with `mancala_{g}_free`.
/// Thread safety: safe from any thread.
///
/// {new.returns}
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_new(
    rules: *const MancalaRules,
    out: *mut *mut {T},
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { new_of_kind_body(GameKind::{KIND}, rules, None, out) }
}

@@ parse
/// {parse}
///
/// Ownership as `mancala_game_from_rules`; the handle is released with `mancala_{g}_free`.
/// Thread safety: safe from any thread.
///
/// {parse.returns}
///
/// # Safety
/// `text` must be NULL or NUL-terminated; `out` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_parse(
    rules: *const MancalaRules,
    text: *const c_char,
    out: *mut *mut {T},
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { new_of_kind_body(GameKind::{KIND}, rules, Some(text), out) }
}

@@ clone
/// `mancala_game_clone` for a `{T}`: the copy is released with `mancala_{g}_free`.
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`,
/// as `mancala_game_clone`.
///
/// # Safety
/// `out` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_clone(
    game: *const {T},
    out: *mut *mut {T},
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { clone_body(game, out) }
}

@@ free
/// {free}
///
/// Thread safety: no other thread may be using `game`. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `game` must be NULL or a pointer value (it is only dereferenced if it is a live handle).
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_free(game: *mut {T}) -> MancalaStatus {
    // SAFETY: the caller's contract: no other thread uses `game` (`free_entry` checks the rest).
    unsafe { handle::free_entry(game, "game") }
}

@@ print
/// {print}
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL`, `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`, as `mancala_game_print`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_print(
    game: *const {T},
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, AnyGame::position_text) }
}

@@ draw
/// {draw}
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL`, `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`, as `mancala_game_draw`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_draw(
    game: *const {T},
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, AnyGame::drawing_text) }
}

@@ record_print
/// {record_print}
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL`, `MANCALA_STATUS_NULL_POINTER`,
/// `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`, as `mancala_game_record_print`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_record_print(
    game: *const {T},
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { print_body(game, buf, len, needed, |g| g.moves_text().join(",")) }
}

@@ legal_moves_text
/// {legal_moves_text}
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` (`buf` untouched, `*count` not written),
/// `MANCALA_STATUS_NULL_POINTER`, `MANCALA_STATUS_INVALID_HANDLE` or `MANCALA_STATUS_PANIC`,
/// as `mancala_game_legal_moves`.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` and `count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_legal_moves(
    game: *const {T},
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    count: *mut usize,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { legal_moves_body(game, buf, len, needed, count) }
}

@@ play_text
/// {play_text}
///
/// # Safety
/// `mv` must be NULL or NUL-terminated; no other thread may use `game` during the call.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_play(
    game: *mut {T},
    mv: *const c_char,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { play_text_body(game, mv) }
}

@@ undo
/// `mancala_game_undo` for a `{T}`: takes back the last move played on this handle
/// (back to the position it was made or parsed from, not further).
///
/// {undo.returns}
///
/// # Safety
/// No other thread may use `game` during the call.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_undo(game: *mut {T}) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { undo_body(game) }
}

@@ side_to_move
/// {side_to_move}
///
/// Thread safety: `game` is only read. Returns `MANCALA_STATUS_OK`,
/// `MANCALA_STATUS_NULL_POINTER` (`game` or `side` NULL), `MANCALA_STATUS_INVALID_HANDLE` or
/// `MANCALA_STATUS_PANIC`.
///
/// # Safety
/// `side` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_side_to_move(
    game: *const {T},
    side: *mut MancalaSide,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { side_to_move_body(game, side) }
}

@@ outcome
/// {outcome}
///
/// # Safety
/// `outcome` and `score` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_outcome(
    game: *const {T},
    outcome: *mut MancalaOutcome,
    score: *mut i32,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { outcome_body(game, outcome, score) }
}

@@ perft
/// {perft}
///
/// # Safety
/// `nodes` must be NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn mancala_{g}_perft(
    game: *const {T},
    depth: u32,
    nodes: *mut u64,
) -> MancalaStatus {
    // SAFETY: forwarded contract.
    unsafe { perft_body(game, depth, nodes) }
}
"#;

/// One front end of the table: `## prefix` and its fields, then its texts under `### key`.
struct FrontEnd {
    prefix: String,
    type_name: String,
    kind: String,
    /// The wrappers, in groups: one generated file a group.
    groups: Vec<Vec<String>>,
    texts: BTreeMap<String, String>,
    /// `- deprecated:` the release that removes the front end: every wrapper is then
    /// `#[deprecated]`, naming its `mancala_game_*` replacement and that release.
    removed_in: Option<String>,
}

/// Reads the table (`build/front_ends.md`, see its introduction for the format).
///
/// # Panics
/// On a malformed table, with the line at fault: the build then stops with that message.
fn parse_table(table: &str) -> Vec<FrontEnd> {
    let mut fronts: Vec<FrontEnd> = Vec::new();
    let mut key: Option<String> = None;
    for (n, line) in table.lines().enumerate() {
        let at = || format!("build/front_ends.md:{}", n + 1);
        if let Some(prefix) = line.strip_prefix("## ") {
            key = None;
            fronts.push(FrontEnd {
                prefix: prefix.trim().to_string(),
                type_name: String::new(),
                kind: String::new(),
                groups: Vec::new(),
                texts: BTreeMap::new(),
                removed_in: None,
            });
        } else if let Some(name) = line.strip_prefix("### ") {
            let front = fronts
                .last_mut()
                .unwrap_or_else(|| panic!("{}: text before a `## `", at()));
            let name = name.trim().to_string();
            assert!(
                front.texts.insert(name.clone(), String::new()).is_none(),
                "{}: `{name}` twice",
                at()
            );
            key = Some(name);
        } else if let (Some(front), Some(k)) = (fronts.last_mut(), &key) {
            let text = front.texts.get_mut(k).expect("inserted at its heading");
            text.push_str(line);
            text.push('\n');
        } else if let (Some(front), Some(field)) = (fronts.last_mut(), line.strip_prefix("- ")) {
            let (name, value) = field
                .split_once(':')
                .unwrap_or_else(|| panic!("{}: a field is `- name: value`", at()));
            let value = value.trim().trim_matches('`');
            match name.trim() {
                "type" => front.type_name = value.to_string(),
                "kind" => front.kind = value.to_string(),
                "deprecated" => front.removed_in = Some(value.to_string()),
                "wrappers" => {
                    front.groups = value
                        .split('/')
                        .map(|g| g.split_whitespace().map(str::to_string).collect())
                        .collect();
                }
                other => panic!("{}: unknown field `{other}`", at()),
            }
        }
    }
    for front in &mut fronts {
        for text in front.texts.values_mut() {
            *text = text.trim().to_string();
        }
    }
    fronts
}

/// The template of each wrapper, by name.
fn templates() -> BTreeMap<&'static str, &'static str> {
    TEMPLATE
        .split("\n@@ ")
        .skip(1)
        .map(|part| {
            let (name, body) = part.split_once('\n').expect("a name line");
            (name.trim(), body.trim_end())
        })
        .collect()
}

/// The Rust source of one wrapper of `front`: the template with its placeholders filled in.
/// Records in `used` the texts it took.
///
/// # Panics
/// When the table lacks a text the template asks for.
fn wrapper(front: &FrontEnd, name: &str, template: &str, used: &mut Vec<String>) -> String {
    let mut out = String::new();
    for line in template.lines() {
        if let (Some(removed_in), "#[no_mangle]") = (&front.removed_in, line) {
            // The replacement of each wrapper: the `mancala_game_*` call of the same name
            // (the constructors take the rules through `mancala_game_from_rules`).
            let replacement = match name {
                "new" | "parse" => "mancala_game_from_rules".to_string(),
                "legal_moves_text" => "mancala_game_legal_moves".to_string(),
                "play_text" => "mancala_game_play".to_string(),
                other => format!("mancala_game_{other}"),
            };
            writeln!(
                out,
                "#[deprecated(since = \"0.3.0\", note = \"use {replacement} with a MancalaGame; removed in {removed_in}\")]"
            )
            .expect("a String takes any text");
        }
        let key = line
            .strip_prefix("/// {")
            .and_then(|rest| rest.strip_suffix('}'));
        match key {
            Some(key) => {
                let text = front.texts.get(key).unwrap_or_else(|| {
                    panic!(
                        "build/front_ends.md: `## {}` has no `### {key}`",
                        front.prefix
                    )
                });
                used.push(key.to_string());
                for text_line in text.lines() {
                    let doc = format!("/// {text_line}");
                    writeln!(out, "{}", doc.trim_end()).expect("a String takes any text");
                }
            }
            None => {
                let filled = line
                    .replace("{T}", &front.type_name)
                    .replace("{g}", &front.prefix)
                    .replace("{KIND}", &front.kind);
                writeln!(out, "{filled}").expect("a String takes any text");
            }
        }
    }
    out
}

/// The generated files, `(file name, Rust source)`: for each front end of `table`, one file
/// a group of wrappers, `<prefix>_<group number from 1>.rs`.
///
/// # Panics
/// On a malformed table, a wrapper the template does not have, or a text no wrapper uses.
pub fn generate(table: &str) -> Vec<(String, String)> {
    let templates = templates();
    let mut files = Vec::new();
    for front in parse_table(table) {
        assert!(
            !front.type_name.is_empty() && !front.kind.is_empty() && !front.groups.is_empty(),
            "build/front_ends.md: `## {}` needs `- type:`, `- kind:` and `- wrappers:`",
            front.prefix
        );
        let mut used = Vec::new();
        for (i, group) in front.groups.iter().enumerate() {
            let mut source = String::from(
                "// Generated by build.rs from build/front_ends.md and build/front_ends.rs.\n",
            );
            for name in group {
                let template = templates.get(name.as_str()).unwrap_or_else(|| {
                    panic!("build/front_ends.md: no wrapper `{name}` in build/front_ends.rs")
                });
                source.push('\n');
                source.push_str(&wrapper(&front, name, template, &mut used));
            }
            files.push((format!("{}_{}.rs", front.prefix, i + 1), source));
        }
        for key in front.texts.keys() {
            assert!(
                used.contains(key),
                "build/front_ends.md: `## {}` has `### {key}`, which no wrapper uses",
                front.prefix
            );
        }
    }
    files
}
