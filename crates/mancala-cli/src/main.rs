//! The `mancala` command.
use clap::{Parser, Subcommand};

mod egdb;
mod solve;

/// Mancala games from the command line.
#[derive(Parser, Debug)]
#[command(name = "mancala", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Exact value, final score, best moves and principal variation of a position.
    Solve(solve::SolveArgs),
    /// The exact value of every legal move of a position.
    Analyse(solve::SolveArgs),
    /// Endgame databases: build, info, verify.
    Egdb(egdb::EgdbArgs),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Solve(a) => solve::run_solve(&a),
        Command::Analyse(a) => solve::run_analyse(&a),
        Command::Egdb(a) => egdb::run(a),
    };
    if let Err(e) = result {
        eprintln!("mancala: {e}");
        std::process::exit(1);
    }
}
