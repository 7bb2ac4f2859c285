#![no_main]
//! `cargo +nightly fuzz run oware_notation`: see `mancala_fuzz_bodies::oware_notation`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mancala_fuzz_bodies::oware_notation(data));
