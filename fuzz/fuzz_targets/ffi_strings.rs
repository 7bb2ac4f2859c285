#![no_main]
//! `cargo +nightly fuzz run ffi_strings`: see `mancala_fuzz_bodies::ffi_strings`.

libfuzzer_sys::fuzz_target!(|data: &[u8]| mancala_fuzz_bodies::ffi_strings(data));
