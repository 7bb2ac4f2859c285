//! `mancala show`: draw a position.

use clap::Args;
use mancala_core::kalah::KalahRules;

use crate::rules_arg::{bao_position, kalah_position, GameRules};

/// Arguments of `mancala show`.
#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The position, in the notation of the game (Kalah: `4,4,4,4,4,4,0,4,4,4,4,4,4,0 S`;
    /// Bao la Kete: four `/`-separated rows, reserves, kuus, side, reserved pit).
    position: String,
    /// The rule set; by default Bao la Kete when the position has `/`-separated rows, else
    /// kalah(m,4) with m read off the position.
    #[arg(long)]
    rules: Option<String>,
}

/// Prints the drawing and the notation.
pub fn run(args: &ShowArgs) -> Result<(), String> {
    let rules = match &args.rules {
        Some(r) => GameRules::parse(r)?,
        None if args.position.contains('/') => GameRules::parse("bao-la-kete")?,
        None => {
            let slots = args
                .position
                .split_whitespace()
                .next()
                .map_or(0, |c| c.split(',').count());
            let m = slots.saturating_sub(2) / 2;
            GameRules::Kalah(
                KalahRules::new(m as u32, 4, Default::default()).map_err(|_| {
                    format!(
                        "position: {slots} slots do not make a Kalah board (2m+2 with m in 1..=7)"
                    )
                })?,
            )
        }
    };
    match rules {
        GameRules::Kalah(r) => {
            let p = kalah_position(r, Some(&args.position))?;
            println!("{}", crate::board::kalah(&p));
            println!("{p}");
        }
        GameRules::Bao(r) => {
            let p = bao_position(r, Some(&args.position))?;
            println!("{}", crate::board::bao(&p));
            println!("{p}");
        }
    }
    Ok(())
}
