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
