#![no_main]
//! `cargo +nightly fuzz run oware_moves`: see `mancala_fuzz_bodies::oware_moves`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mancala_fuzz_bodies::oware_moves(data));
