#![no_main]
//! `cargo +nightly fuzz run kalah_moves`: see `mancala_fuzz_bodies::kalah_moves`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mancala_fuzz_bodies::kalah_moves(data));
