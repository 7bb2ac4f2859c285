//! `mancala`: play, replay, show, perft, solve, analyse, endgame databases, the engine's best
//! move and the Manchester agent, for the games of `mancala-core`. Errors go to standard error
//! as one line, with a non-zero exit status (1 for a refused input, 2 for a malformed command
//! line).

mod agent;
mod bench;
mod bestmove;
mod board;
mod egdb;
mod perft;
mod play;
mod replay;
mod rules_arg;
mod show;
mod solve;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Exact mancala rules, solvers and engines from the command line.
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
    /// Play a game at the terminal (two people, or against a random mover or the engine).
    Play(play::PlayArgs),
    /// Replay a game record and print every position, one per line.
    Replay(replay::ReplayArgs),
    /// Count move sequences of each depth (perft), one line per depth.
    Perft(perft::PerftArgs),
    /// Exact value, final score, best moves and principal variation of a Kalah position.
    Solve(solve::SolveArgs),
    /// The exact value of every legal move of a Kalah position.
    Analyse(solve::SolveArgs),
    /// Kalah endgame databases: build, info, verify.
    Egdb(egdb::EgdbArgs),
    /// The engine's best move in a position under a time budget.
    Bestmove(bestmove::BestmoveArgs),
    /// Run a game-playing agent speaking a referee protocol on stdin/stdout.
    Agent(agent::AgentArgs),
    /// The solver benchmark suite: fixed positions, checked values, nodes, a signature.
    Bench(bench::BenchArgs),
}

/// Reports a failed write to standard output (a closed pipe, a full disk) as one line instead
/// of a panic message, and any other panic as a one-line internal error.
fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        if msg.starts_with("failed printing to stdout") {
            if msg.contains("Broken pipe") {
                // The reader went away (`mancala … | head`): stop quietly, as SIGPIPE would.
                std::process::exit(141);
            }
            eprintln!(
                "mancala: error: writing standard output: {}",
                msg.trim_start_matches("failed printing to stdout: ")
            );
            std::process::exit(1);
        }
        eprintln!("mancala: internal error: {msg} (please report this)");
    }));
}

fn main() -> ExitCode {
    install_panic_hook();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                e.exit();
            }
            // One line: clap's first line, without its own `error: ` prefix.
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            eprintln!(
                "mancala: error: {} (see `mancala --help`)",
                first.trim_start_matches("error: ")
            );
            return ExitCode::from(2);
        }
    };
    let result = match cli.command {
        Command::Show(a) => show::run(&a),
        Command::Play(a) => play::run(&a),
        Command::Replay(a) => replay::run(&a),
        Command::Perft(a) => perft::run(&a),
        Command::Solve(a) => solve::run_solve(&a),
        Command::Analyse(a) => solve::run_analyse(&a),
        Command::Egdb(a) => egdb::run(a),
        Command::Bestmove(a) => bestmove::run(&a),
        Command::Agent(a) => agent::run(&a),
        Command::Bench(a) => bench::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mancala: error: {e}");
            ExitCode::FAILURE
        }
    }
}
