//! `mancala replay`: every position of a game record.

use clap::Args;
use mancala_core::Game;

use crate::rules_arg::{bao_position, kalah_position, parse_rules, GameRules};

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
/// move stops the replay with an error naming it (the positions before it are printed).
pub fn run(args: &ReplayArgs) -> Result<(), String> {
    match parse_rules(&args.rules)? {
        GameRules::Kalah(r) => replay(kalah_position(r, args.position.as_deref())?, &args.moves),
        GameRules::Bao(r) => replay(bao_position(r, args.position.as_deref())?, &args.moves),
    }
}

fn replay<G>(mut pos: G, moves: &str) -> Result<(), String>
where
    G: Game,
    G::Move: std::str::FromStr,
    <G::Move as std::str::FromStr>::Err: std::fmt::Display,
{
    println!("{pos}");
    let texts = moves
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|t| !t.is_empty());
    for (i, text) in texts.enumerate() {
        let mv: G::Move = text
            .parse()
            .map_err(|e| format!("--moves: move {}: {e}", i + 1))?;
        pos = pos
            .play(mv)
            .map_err(|e| format!("--moves: move {}: {e}", i + 1))?;
        println!("{pos}");
    }
    Ok(())
}
