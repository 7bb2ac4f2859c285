//! Helpers shared by the Rust examples: a seeded random mover for any game.

use mancala_core::Game;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Plays uniformly random legal moves from `start` until the game ends, calling `visit` with
/// each move and the position after it. Returns the final position. Reproducible from `seed`.
pub fn random_game<G: Game>(start: G, seed: u64, mut visit: impl FnMut(G::Move, &G)) -> G {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut pos = start;
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return pos;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        pos = pos.play(mv).expect("a listed move is legal");
        visit(mv, &pos);
    }
}
