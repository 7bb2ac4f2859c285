#![no_main]
//! `cargo +nightly fuzz run bao_notation`: see `mancala_fuzz_bodies::bao_notation`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mancala_fuzz_bodies::bao_notation(data));
