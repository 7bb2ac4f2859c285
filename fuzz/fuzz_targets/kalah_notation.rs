#![no_main]
//! `cargo +nightly fuzz run kalah_notation`: see `mancala_fuzz_bodies::kalah_notation`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mancala_fuzz_bodies::kalah_notation(data));
