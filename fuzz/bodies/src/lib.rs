//! The bodies of the fuzz targets of `fuzz/` (cargo-fuzz), one per input surface, as plain
//! functions of the fuzzer's bytes.
//!
//! Each body takes any bytes, drives one surface of the library with them, and **panics when
//! an invariant breaks** (a wrong answer, an inconsistent status, a changed output on
//! failure); a panic inside the library is a finding too. It returns normally otherwise, for
//! every input, and bounds its own work so that no input runs long.
//!
//! The libFuzzer targets in `fuzz/fuzz_targets/*.rs` are one-line calls of these functions
//! (nightly, `cargo +nightly fuzz run <target>`); `tests/replay.rs` calls them on stable over
//! every file of `fuzz/corpus/<target>/` and `fuzz/regressions/<target>/`, so `cargo test`
//! (and CI) replays the corpora without nightly. See `fuzz/README.md`.

mod bao;
pub mod corpus;
mod egdb;
mod ffi;
mod kalah;
mod oware;
mod togyz;

#[allow(missing_docs, clippy::all)]
#[path = "../../../crates/mancala-core/tests/oware_reference/mod.rs"]
mod oware_reference;

pub use bao::{bao_moves, bao_notation};
pub use egdb::egdb_load;
pub use ffi::{check_status_name, ffi_strings, status_codes_checked};
pub use kalah::{kalah_moves, kalah_notation};
pub use oware::{oware_moves, oware_moves_plan, oware_notation};
pub use togyz::{togyz_moves, togyz_notation};

use arbitrary::Unstructured;
use mancala_core::{GameKind, Rules};

/// A fuzz target body: any bytes in, a panic on a broken invariant.
pub type Body = fn(&[u8]);

/// Declares [`TARGETS`] from the one list of targets ([`for_each_target!`]).
macro_rules! targets {
    ($($name:ident),+ $(,)?) => {
        /// Every target, by the name of its `fuzz/fuzz_targets/<name>.rs` and of its corpus
        /// folder.
        pub const TARGETS: [(&str, Body); [$(stringify!($name)),+].len()] =
            [$((stringify!($name), $name)),+];
    };
}

/// Calls `$callback!(name, …)` with the name of every fuzz target: the one list of them, which
/// [`TARGETS`] and the replay tests (`tests/replay.rs`, a test a target) are declared from.
#[macro_export]
macro_rules! for_each_target {
    ($callback:ident) => {
        $callback!(
            kalah_notation,
            kalah_moves,
            bao_notation,
            bao_moves,
            oware_notation,
            oware_moves,
            togyz_notation,
            togyz_moves,
            egdb_load,
            ffi_strings
        );
    };
}

for_each_target!(targets);

/// A rule set of one game, drawn from the fuzzer's bytes (by the game's own tables).
pub type ArbitraryRules = fn(&mut Unstructured<'_>) -> arbitrary::Result<Rules>;

/// Every game of the library with its fuzz targets, in the order of [`GameKind::ALL`]: its
/// kind, the stem of its two targets (`<stem>_notation` and `<stem>_moves`, the name of its
/// module in `mancala-core`) and its arbitrary rule sets (which the C API's body draws).
pub const GAMES: [(GameKind, &str, ArbitraryRules); 4] = [
    (GameKind::Kalah, "kalah", |u| {
        kalah::arbitrary_rules(u).map(Rules::from)
    }),
    (GameKind::Bao, "bao", |u| {
        bao::arbitrary_rules(u).map(Rules::from)
    }),
    (GameKind::Oware, "oware", |u| {
        oware::arbitrary_rules(u).map(Rules::from)
    }),
    (GameKind::Togyz, "togyz", |u| {
        togyz::arbitrary_rules(u).map(Rules::from)
    }),
];

/// The input split at its first `n - 1` newlines into `n` text lines (missing lines are
/// empty); bytes that are not UTF-8 become U+FFFD (the Rust API takes `&str`; raw bytes
/// reach the C ABI in `ffi_strings`).
fn lines(data: &[u8], n: usize) -> Vec<String> {
    let text = String::from_utf8_lossy(data);
    let mut parts: Vec<String> = text.splitn(n, '\n').map(str::to_string).collect();
    parts.resize(n, String::new());
    parts
}
