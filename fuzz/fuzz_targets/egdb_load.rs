#![no_main]
//! `cargo +nightly fuzz run egdb_load`: see `mancala_fuzz_bodies::egdb_load`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mancala_fuzz_bodies::egdb_load(data));
