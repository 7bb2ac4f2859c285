//! Plays many random complete games of Bao la Kete (Lamu rules) and checks that each ends
//! with 64 seeds and a side to move that has lost (no legal move, K-10). Prints the count,
//! plies and time.
//!
//! `cargo run --release -p mancala-examples --example bao_random_games -- 100000 [seed]`

use std::time::Instant;

use mancala_core::bao::{BaoPosition, BaoRules, TOTAL_SEEDS};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let seed: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let t = Instant::now();
    let (mut plies, mut south_wins) = (0u64, 0u64);
    for g in 0..games {
        let start = BaoPosition::start(BaoRules::LAMU);
        let end = mancala_examples::random_game(start, seed.wrapping_add(g), |_, pos| {
            assert_eq!(pos.total_seeds(), TOTAL_SEEDS, "seeds conserved (K-4.1)");
            plies += 1;
        });
        assert!(end.legal_moves().is_empty());
        if end.to_move() == mancala_core::Side::North {
            south_wins += 1;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{games} games, {plies} plies, South won {south_wins}, {secs:.2} s ({:.0} games/s)",
        games as f64 / secs
    );
}
