#![no_main]
//! `cargo +nightly fuzz run bao_moves`: see `mancala_fuzz_bodies::bao_moves`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mancala_fuzz_bodies::bao_moves(data));
