//! `mancala perft`: move-path counts by depth.

use std::time::Instant;

use clap::Args;

use crate::rules_arg::{bao_position, kalah_position, parse_rules, GameRules};

/// Arguments of `mancala perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// The rule set.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Count depths 1..=DEPTH (DEPTH from 1 to 40).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=40))]
    depth: u32,
    /// Start from this position instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// One JSON object per depth: {"depth", "nodes", "seconds"}.
    #[arg(long)]
    json: bool,
}

/// The first depth counted with a spinner on standard error (Kalah(6,4) depth 12 takes
/// about a second).
const PROGRESS_DEPTH: u32 = 12;

/// Prints one line per depth 1..=depth: the count and the time it took.
pub fn run(args: &PerftArgs) -> Result<(), String> {
    let count: Box<dyn Fn(u32) -> u64> = match parse_rules(&args.rules)? {
        GameRules::Kalah(r) => {
            let p = kalah_position(r, args.position.as_deref())?;
            Box::new(move |d| mancala_core::kalah::perft(&p, d))
        }
        GameRules::Bao(r) => {
            let p = bao_position(r, args.position.as_deref())?;
            Box::new(move |d| mancala_core::game::perft(&p, d))
        }
    };
    for d in 1..=args.depth {
        let t = Instant::now();
        // Depth 12 and more take seconds to hours: a spinner meanwhile.
        let spinner = (d >= PROGRESS_DEPTH)
            .then(|| crate::progress::spinner(format!("perft depth {d} of {}", args.depth)))
            .flatten();
        let nodes = count(d);
        if let Some(b) = spinner {
            b.finish_and_clear();
        }
        let secs = t.elapsed().as_secs_f64();
        if args.json {
            println!(
                "{}",
                serde_json::json!({"depth": d, "nodes": nodes, "seconds": secs})
            );
        } else {
            println!("perft {d:>2}: {nodes:>16} nodes  {secs:>9.3} s");
        }
    }
    Ok(())
}
