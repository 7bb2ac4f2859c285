#![no_main]
//! `cargo +nightly fuzz run togyz_notation`: see `mancala_fuzz_bodies::togyz_notation`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mancala_fuzz_bodies::togyz_notation(data));
