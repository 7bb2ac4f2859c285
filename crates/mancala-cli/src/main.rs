//! `mancala`: play, replay, show, perft (and, as they land, solve, analyse and database
//! commands) for the games of `mancala-core`. Errors go to standard error as one line, with a
//! non-zero exit status (1 for a refused input, 2 for a malformed command line).

mod board;
mod perft;
mod play;
mod replay;
mod rules_arg;
mod show;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exact mancala rules and engines from the command line.
#[derive(Debug, Parser)]
#[command(name = "mancala", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Draw a position and print its notation.
    Show(show::ShowArgs),
    /// Play a game at the terminal (two people, or against a random mover).
    Play(play::PlayArgs),
    /// Replay a game record and print every position, one per line.
    Replay(replay::ReplayArgs),
    /// Count move sequences of each depth (perft), one line per depth.
    Perft(perft::PerftArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Show(a) => show::run(&a),
        Command::Play(a) => play::run(&a),
        Command::Replay(a) => replay::run(&a),
        Command::Perft(a) => perft::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mancala: error: {e}");
            ExitCode::FAILURE
        }
    }
}
