//! Plays one random game of Kalah and prints every move and position.
//!
//! `cargo run --release -p mancala-examples --example kalah_random_game -- "kalah(6,4)+pie_rule" 7`
//! (rule set and seed are optional; the defaults are `standard` and 1).

use mancala_core::kalah::{KalahPosition, KalahRules};

fn main() {
    let mut args = std::env::args().skip(1);
    let rules: KalahRules = match args.next().as_deref().unwrap_or("standard").parse() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("kalah_random_game: {e}");
            std::process::exit(1);
        }
    };
    let seed = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let start = KalahPosition::start(rules);
    println!("{rules}\n       {start}");
    let end = mancala_examples::random_game(start, seed, |mv, pos| println!("{mv:>5}  {pos}"));
    println!("{}", end.outcome().expect("the game is over"));
}
