//! `mancala play`: a game at the terminal, two people or one person against a random mover.
//! Moves are typed at the prompt; an illegal or malformed move is refused with its reason and
//! the game goes on.

use std::io::{self, BufRead, Write};

use clap::{Args, ValueEnum};
use mancala_core::kalah::{KalahGame, KalahMove, Player};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::rules_arg::{kalah_position, GameRules};

/// Who plays the side that is not yours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Opponent {
    /// Another person at the same terminal.
    Human,
    /// A uniformly random legal move (reproducible with `--seed`).
    Random,
}

/// Arguments of `mancala play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The rule set.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Start from this position instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// Who plays the second player.
    #[arg(long, value_enum, default_value_t = Opponent::Human)]
    opponent: Opponent,
    /// Let the opponent be the first player (South at the start) instead of the second.
    #[arg(long)]
    opponent_first: bool,
    /// Seed of the random mover.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "player 1",
        Player::Second => "player 2",
    }
}

/// Runs the game loop until the game ends, `quit` is typed, or input ends.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    let GameRules::Kalah(rules) = GameRules::parse(&args.rules)?;
    let start = kalah_position(rules, args.position.as_deref())?;
    let mut game = KalahGame::from_position(start);
    let computer = match args.opponent {
        Opponent::Human => None,
        Opponent::Random if args.opponent_first => Some(Player::First),
        Opponent::Random => Some(Player::Second),
    };
    let mut rng = StdRng::seed_from_u64(args.seed);
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let out = io::stdout();
    println!("{rules}: moves are house numbers 1..{} from the mover's left, `swap` when offered, `undo`, `quit`.", rules.houses());
    loop {
        let pos = *game.position();
        println!("\n{}\n{pos}", crate::board::kalah(&pos));
        let Some(side) = pos.side_to_move() else {
            let o = pos.outcome().expect("a finished game has an outcome");
            match o.winner {
                Some(w) => println!(
                    "{} ({w}) wins by {}.",
                    player_name(game.player_on(w)),
                    o.score.abs()
                ),
                None => println!("Draw."),
            }
            return Ok(());
        };
        let player = game.player_on(side);
        if Some(player) == computer {
            let moves = pos.legal_moves();
            let mv = moves[rng.gen_range(0..moves.len())];
            println!("{} ({side}) plays {mv}", player_name(player));
            game.play(mv).map_err(|e| e.to_string())?;
            continue;
        }
        print!("{} ({side}) to move> ", player_name(player));
        out.lock().flush().map_err(|e| e.to_string())?;
        let Some(line) = lines.next() else {
            println!("\nend of input: game left unfinished");
            return Ok(());
        };
        let line = line.map_err(|e| format!("reading standard input: {e}"))?;
        let text = line.trim();
        match text {
            "" => continue,
            "quit" | "q" | "exit" => return Ok(()),
            "undo" => {
                // Undo back to the last position where a person was to move.
                let mut undone = game.undo();
                while undone
                    && computer.is_some()
                    && game.position().side_to_move().map(|s| game.player_on(s)) == computer
                {
                    undone = game.undo();
                }
                if !undone {
                    println!("nothing to undo");
                }
                continue;
            }
            _ => {}
        }
        match text.parse::<KalahMove>() {
            Err(e) => println!("refused: {e}"),
            Ok(mv) => {
                if let Err(e) = game.play(mv) {
                    println!("refused: {}", e.reason);
                }
            }
        }
    }
}
