//! `mancala replay`: every position of a game record.

use crate::rules_arg::{any_game, parse_rules};
use clap::Args;

/// Arguments of `mancala replay`.
#[derive(Debug, Args)]
pub struct ReplayArgs {
    /// The rule set.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// The moves, comma- or space-separated (Kalah: house numbers 1..m from the mover's side,
    /// or `swap`; Bao la Kete: move notation such as `F6>` or `F3L+`).
    #[arg(long, allow_hyphen_values = true)]
    moves: String,
    /// Start from this position instead of the start position.
    #[arg(long)]
    position: Option<String>,
}

/// Prints the start position and the position after every move, one per line. An illegal
/// move stops the replay with an error naming it (the positions before it are printed); an
/// empty move between commas (`1,,2`) is refused before any is played.
pub fn run(args: &ReplayArgs) -> Result<(), String> {
    let rules = parse_rules(&args.rules)?;
    let mut game = any_game(rules, "--position", args.position.as_deref())?;
    let texts = crate::rules_arg::move_texts("--moves", &args.moves)?;
    println!("{}", game.position_text());
    for (i, text) in texts.into_iter().enumerate() {
        game.play_text(text)
            .map_err(|e| format!("--moves: move {}: {e}", i + 1))?;
        println!("{}", game.position_text());
    }
    Ok(())
}
