//! Shared helpers of the criterion benches: fixed, seeded sets of positions.

use mancala_core::kalah::{KalahPosition, KalahRules};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// `count` positions (none finished) reached by uniformly random play from the start of
/// `rules`, each after a random number of plies in 0..40; reproducible from `seed`.
#[must_use]
pub fn random_kalah_positions(rules: KalahRules, count: usize, seed: u64) -> Vec<KalahPosition> {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut p = KalahPosition::start(rules);
        let plies = rng.gen_range(0..40);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = p.play_unchecked(moves[rng.gen_range(0..moves.len())]);
        }
        if !p.is_over() {
            out.push(p);
        }
    }
    out
}

mod c_oware {
    extern "C" {
        /// `benches/c/oware_perft.c`: perft of `oware` from the start.
        pub(crate) fn c_oware_perft(depth: u32) -> u64;
    }
}

/// Perft of the `oware` rule set (6 houses a side, 4 seeds each) from the start position,
/// `depth` plies, counted by the plain-array C perft of `benches/c/oware_perft.c` (the
/// baseline of `examples/oware_perft_vs_c.rs`; repetition is not checked). Returns the number
/// of move sequences, the same as `mancala_core::oware::perft` (6, 36, 190, 1,014, 5,219 at
/// depths 1–5). Never fails; a large depth only takes long.
#[must_use]
pub fn c_oware_perft(depth: u32) -> u64 {
    // SAFETY: the C function takes a plain integer, reads and writes only its own stack
    // frames, and returns a plain integer.
    unsafe { c_oware::c_oware_perft(depth) }
}
