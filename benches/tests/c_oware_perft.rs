//! The plain-array C perft (`benches/c/oware_perft.c`) counts what `mancala perft --rules
//! oware` counts: the figures of OW-11.4 (depths 1–5) and of `mancala perft --rules oware
//! --depth 8` (depths 6–8), and the packed perft of the core at every depth to 8.

use mancala_benches::c_oware_perft;
use mancala_core::oware::{perft, OwarePosition, OwareRules};

#[test]
fn the_c_perft_counts_the_published_figures() {
    let counts: Vec<u64> = (1..=8).map(c_oware_perft).collect();
    assert_eq!(counts, [6, 36, 190, 1_014, 5_219, 27_332, 139_157, 711_414]);
    assert_eq!(c_oware_perft(0), 1);
}

#[test]
fn the_c_perft_agrees_with_the_packed_one() {
    let start = OwarePosition::start(OwareRules::OWARE);
    for depth in 0..=8 {
        assert_eq!(c_oware_perft(depth), perft(&start, depth), "depth {depth}");
    }
}
