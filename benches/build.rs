//! Builds the plain-array C perft of Oware (`c/oware_perft.c`), the baseline of
//! `examples/oware_perft_vs_c.rs`, with the `cc` crate: `-O3 -march=native` whatever the
//! Cargo profile, so that the baseline is the C compiler's best on this machine.

fn main() {
    println!("cargo:rerun-if-changed=c/oware_perft.c");
    cc::Build::new()
        .file("c/oware_perft.c")
        .opt_level(3)
        .flag_if_supported("-march=native")
        .warnings(true)
        .extra_warnings(true)
        .compile("oware_perft_c");
}
