//! `mancala perft`: move-path counts by depth.

use std::time::Instant;

use clap::Args;

use crate::rules_arg::{any_game, parse_rules};

/// Arguments of `mancala perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The rule set.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Count depths 1..=DEPTH (DEPTH from 1 to 40).
    #[arg(long, value_parser = crate::ranges::perft_depth())]
    depth: u32,
    /// Start from this position instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// One JSON object per depth: {"depth", "nodes", "seconds"}.
    #[arg(long)]
    json: bool,
    /// Apply the rules that depend on the game's history (Oware's repetition rule and move
    /// limit): a move that repeats a position for the rule set's count, or reaches its move
    /// limit, ends the game there. Slower; without it perft counts the moves of positions, as
    /// the published Oware perft figures do.
    #[arg(long)]
    history: bool,
}

/// Prints one line per depth 1..=depth: the count and the time it took. On a terminal a
/// spinner on standard error says which depth is being counted and how long the run has
/// taken (Kalah(6,4) depth 11 takes seconds, each depth about five times the one before);
/// the lines are printed with the spinner lifted, so they never mix with it.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    let game = any_game(
        parse_rules(&args.rules)?,
        "--position",
        args.position.as_deref(),
    )?;
    let count = |d| {
        if args.history {
            mancala_core::with_game!(&game, g => g.perft(d))
        } else {
            game.perft(d)
        }
    };
    let spinner = crate::progress::spinner(String::new());
    let mut last = String::new();
    for d in 1..=args.depth {
        if let Some(b) = &spinner {
            crate::progress::set_message(
                b,
                &format!("perft: counting depth {d} of {}{last}", args.depth),
            );
        }
        let t = Instant::now();
        let nodes = count(d);
        let secs = t.elapsed().as_secs_f64();
        let line = if args.json {
            serde_json::json!({"depth": d, "nodes": nodes, "seconds": secs}).to_string()
        } else {
            let unit = mancala_core::words::noun(nodes, "node ", "nodes");
            format!("perft {d:>2}: {nodes:>16} {unit}  {secs:>9.3} s")
        };
        match &spinner {
            Some(b) => b.suspend(|| println!("{line}")),
            None => println!("{line}"),
        }
        last = format!(
            " (depth {d}: {} {} in {})",
            crate::progress::si(nodes as f64),
            mancala_core::words::noun(nodes, "node", "nodes"),
            if secs < 10.0 {
                format!("{secs:.2} s")
            } else {
                crate::progress::duration(secs)
            }
        );
    }
    if let Some(b) = spinner {
        b.finish_and_clear();
    }
    Ok(())
}
