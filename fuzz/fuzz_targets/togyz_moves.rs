#![no_main]
//! `cargo +nightly fuzz run togyz_moves`: see `mancala_fuzz_bodies::togyz_moves`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mancala_fuzz_bodies::togyz_moves(data));
