//! `mancala replay`: every position of a game record.

use clap::Args;
use mancala_core::kalah::parse_moves;

use crate::rules_arg::{kalah_position, GameRules};

/// Arguments of `mancala replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The rule set.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// The moves, comma- or space-separated (Kalah: house numbers 1..m from the mover's side,
    /// or `swap`).
    #[arg(long, allow_hyphen_values = true)]
    moves: String,
    /// Start from this position instead of the start position.
    #[arg(long)]
    position: Option<String>,
}

/// Prints the start position and the position after every move, one per line. An illegal
/// move stops the replay with an error naming it (the positions before it are printed).
pub fn run(args: &ReplayArgs) -> Result<(), String> {
    match GameRules::parse(&args.rules)? {
        GameRules::Kalah(r) => {
            let mut p = kalah_position(r, args.position.as_deref())?;
            let moves = parse_moves(&args.moves).map_err(|e| format!("--moves: {e}"))?;
            println!("{p}");
            for (i, mv) in moves.into_iter().enumerate() {
                p = p
                    .play(mv)
                    .map_err(|e| format!("--moves: move {}: {e}", i + 1))?;
                println!("{p}");
            }
        }
    }
    Ok(())
}
