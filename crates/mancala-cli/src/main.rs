//! `mancala`: play, replay, show, perft, solve, analyse, endgame databases, the engine's best
//! move and the Manchester agent, for the games of `mancala-core`. Errors go to standard error
//! as one line, with a non-zero exit status (1 for a refused input, 2 for a malformed command
//! line).

#![deny(clippy::undocumented_unsafe_blocks)]

mod agent;
mod awari;
mod bench;
mod bestmove;
mod completions;
mod database;
mod egdb;
mod grade;
mod interrupt;
mod line;
mod matches;
mod notes;
mod paths;
mod perft;
mod play;
mod progress;
mod ranges;
mod replay;
mod rules_arg;
mod saves;
mod show;
mod solve;
mod solve_args;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// The top-level `--help` text after the list of games ([`about`]): every subcommand, by what
/// it is for.
const ABOUT: &str = " from the command line: \
show, play and replay games, count moves (perft), solve and analyse Kalah positions exactly, \
build and check endgame databases (egdb), ask the engine for a move (bestmove), run the \
solver benchmark suite (bench), grade a player against exact values (grade), play a match \
between two players, external programs included (match), run an agent (a tournament's \
protocol, or a plain line protocol for bots), or print a shell's completion script \
(completions).";

/// Examples of the top-level `--help`.
const EXAMPLES: &str = "\
Examples:
  mancala show
  mancala play --engine --level 5
  mancala play --rules oware --engine
  mancala play --rules togyz-kumalak --engine --level 5
  mancala solve --rules \"kalah(4,3)\"
  mancala bestmove --rules standard --time-ms 1000
  mancala solve --help";

/// Exact mancala rules, solvers and engines from the command line.
#[derive(Debug, Parser)]
#[command(
    name = "mancala",
    version,
    after_help = EXAMPLES,
    propagate_version = true
)]
struct Cli {
    /// No progress on standard error (progress is only drawn when standard error is a
    /// terminal anyway).
    #[arg(long, short, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Draw a position and print its notation.
    #[command(after_help = "\
Examples:
  mancala show
  mancala show \"4,4,4,4,0,4,4,4,4,0 S\"
  mancala show --rules bao-la-kete
  mancala show --rules oware")]
    Show(show::ShowArgs),
    /// Play a game at the terminal (two people, or against a random mover or the engine).
    #[command(after_help = "\
Examples:
  mancala play
  mancala play --engine --level 5 --time-ms 500
  mancala play --rules bao-la-kete --opponent random
  mancala play --rules oware --engine --level 7")]
    Play(play::PlayArgs),
    /// Replay a game record and print every position, one per line.
    #[command(after_help = "\
Examples:
  mancala replay --moves 3,6,1
  mancala replay --rules \"kalah(4,3)\" --moves \"1 2 4\"
  mancala replay --rules awari --moves \"3 1 6\"")]
    Replay(replay::ReplayArgs),
    /// Count move sequences of each depth (perft), one line per depth.
    #[command(after_help = "\
Examples:
  mancala perft --depth 8
  mancala perft --rules bao-la-kete --depth 4 --json
  mancala perft --rules oware --depth 9
  mancala perft --rules oware-openspiel --depth 9 --history
A sequence that reaches a finished game before its last ply counts nothing. Perft counts
the moves of positions: the rules that depend on a game's history (Oware's repetition rule
and move limit, Togyz Kumalak's move limit) are not applied, as in the published Oware perft figures
(docs/rules/oware.md, OW-11.4); --history applies them.")]
    Perft(perft::PerftArgs),
    /// Exact value, final score, best moves and principal variation of a Kalah position;
    /// with --rules awari, the exact value of an Awari position and of each legal move, from
    /// the Awari databases.
    #[command(after_help = "\
Examples:
  mancala solve --rules \"kalah(4,3)\"
  mancala solve --rules standard --egdb egdb/ --threads 2
  mancala solve --rules standard --max-seconds 10 --json
  mancala solve --rules standard --no-cache
  mancala solve --rules awari --position \"0,0,0,0,0,1,23,1,0,0,0,0,0,23 S\"
  mancala solve --rules awari --max-seeds 20 --position \"...\" --json

Without --egdb, the first solve of a board size builds an endgame database (m = 6: K = 20,
215 MiB, a few seconds) and keeps it in the cache folder ($MANCALA_CACHE_DIR when it is an
absolute path, else $XDG_CACHE_HOME/mancala or ~/.cache/mancala); later solves read it
back. It is built only for a position of more than 32 seeds in the houses, where it pays
(a smaller one is searched without it unless it is cached; a finished game uses none).
Under --max-seconds a missing database is not built, and a cached one is waited for at
most a quarter of the limit, which covers the whole command. --no-cache or
MANCALA_NO_CACHE=1: no database at all.

Progress (the proven bounds on the value and the bound the running MTD(f) probe tests, as in
`value in [+8, +48], testing ≥ +9`; nodes, nodes/s) is drawn on standard error when it is a
terminal; --quiet turns it off.

With --rules awari the answer comes from the Awari database of every board with at most N
seeds in the houses (docs/awari.md): the value from here (the mover's future captures minus
the opponent's), the final score it implies with the seeds already captured, and each legal
move's value. Without --egdb the database of N = 18 (84 MB, 25 s of CPU to build: 55 s on a
busy 2-core machine) is built once into the cache folder; --max-seeds N asks for another N; --no-cache
builds the levels up to the position's seeds in memory for this run. A position with more
seeds in the houses than the database holds is refused, saying so. --tt-mb and --exact-table
do not apply to Awari; --max-nodes and --max-seconds are refused (no search to stop).")]
    Solve(solve_args::SolveArgs),
    /// The exact value of every legal move of a Kalah position, or (--rules awari) of an
    /// Awari position from the Awari databases.
    #[command(after_help = "\
Examples:
  mancala analyse --rules \"kalah(4,3)\"
  mancala analyse --rules standard --position \"0,5,5,5,5,4,0,4,4,4,4,4,4,0 N\" --max-seconds 5
  mancala analyse --rules awari --position \"0,0,0,0,1,1,23,1,0,0,0,1,0,22 N\"")]
    Analyse(solve_args::SolveArgs),
    /// Kalah endgame databases and Awari databases: build, convert, info, verify.
    #[command(after_help = "\
Examples:
  mancala egdb build --rules standard --max-seeds 16 --out egdb/
  mancala egdb info egdb/kalah6.k16.egdb
  mancala egdb verify egdb/kalah6.k16.egdb
  mancala egdb build --rules awari --max-seeds 16 --out egdb/
  mancala egdb verify egdb/awari.n16.egdb")]
    Egdb(egdb::EgdbArgs),
    /// The engine's best move in a position under a time budget.
    #[command(after_help = "\
Examples:
  mancala bestmove --time-ms 1000
  mancala bestmove --rules bao-la-kete --time-ms 500 --level 7 --json
  mancala bestmove --rules oware-openspiel --time-ms 100")]
    Bestmove(bestmove::BestmoveArgs),
    /// Run a game-playing agent speaking a referee protocol on stdin/stdout.
    #[command(after_help = "\
Examples:
  mancala agent manchester
  mancala agent manchester --game-ms 60000 --level 8
  mancala agent line --rules oware --time-ms 200")]
    Agent(agent::AgentArgs),
    /// The solver benchmark suite: fixed positions, checked values, nodes, a signature.
    #[command(after_help = "\
Examples:
  mancala bench --quick
  mancala bench --set kalah64-ec --egdb egdb/
  mancala bench --list

Comparing builds: the signature is the total nodes searched by the quick (--quick) or full
suite at --threads 1 --tt-mb 64 without --egdb. On one thread the search makes no decision
that depends on time (the suite sets no limit, and no threads race), so the node counts are
the same on every CPU and system and in every build profile. To compare two builds, run
`mancala bench --quick` with each and compare the signatures: a different signature means
the search visits other nodes (move ordering, pruning), not that it is wrong; the values are
checked separately (a wrong one fails the run, which then prints no signature). A run of
--set or --file prints the signature of its selection, named after it: the set names, then
`file:` and the file's path as given (`signature S (suite version V, kalah63
file:mine.txt; …)`); compare it only with a run of the same selection and suite version.

Exit status: 0 when every value was checked; 1 for a refused input (an unknown set, a bad
file or database, bad generator parameters: one error line, nothing on standard output) or a
run with a wrong or unproven value (the table is printed, then the error; with --json the
object has \"ok\": false and the reason in \"failure\"); 2 for a malformed command line;
128 + the signal when interrupted (130 for Ctrl-C).")]
    Bench(bench::BenchArgs),
    /// Grade a player (the engine at a level, or a line-protocol program) against the exact
    /// values of every move on a set of Kalah positions or of Awari positions, or in whole
    /// games against the Kalah solver.
    #[command(after_help = "\
Examples:
  mancala grade --level 5 --take 20
  mancala grade --generate --rules \"kalah(4,3)\" --count 50 --level 3 --json
  mancala grade --generate --rules \"kalah(4,3)\" --count 20 --nodes 2000 -- mancala agent line --level 6
  mancala grade --level 8 --take 5 --games
  mancala grade --generate --rules awari --count 100 --max-seeds 12 --no-cache --level 5

Each move is scored by the seeds it gives away: the best move's exact value minus the value
of the move played (Kalah: the solver's, with the endgame database; awari: an Awari
database's, chosen as by `mancala solve --rules awari`: --egdb, else the cached one of
N = --max-seeds (18), or --no-cache to build it in memory). A player that answers an
illegal move, fails (a program that ends or answers otherwise, an engine error) or does not
answer within --time-ms plus --grace-ms is scored as if it had played the worst legal move,
listed under failures, and the run goes on (a program is killed and started again). An
external program speaks the line protocol of `mancala agent line` (docs/line-protocol.md):
after each start it is sent `rules <rule set>` (the set's; it answers `ok …`, or `error …`
and is then graded all the same, with a warning: it must know the rule set from its own
options), then for each position `position <position>` and `go time MS [nodes N]`, and
answers `ok …` and `bestmove <move> …`. Exit status 1 when the program cannot be started or
does not answer `rules`.")]
    Grade(grade::GradeArgs),
    /// Play a match between two players: the engine at a level, a random mover, or external
    /// programs speaking the line protocol; one line per game, then the score.
    #[command(after_help = "\
Examples:
  mancala match --rules \"kalah(4,3)\" --games 10 --a 8@100 --b random
  mancala match --rules oware --games 20 --opening 2 --a \"cmd:./my-bot\" --b 10@250
  mancala match --rules standard --games 4 --nodes 20000 --a 9 --b 6 --json

A player is `random`, `LEVEL` or `LEVEL@MS` (the engine in this process at level 1..=10,
MS milliseconds a move, default --time-ms), or `cmd:PROGRAM ARGS…`: an external program
speaking the line protocol of `mancala agent line` (docs/line-protocol.md), started once and
reused, spoken to as `mancala grade` speaks to it: `rules <rule set>` after each start, then
for each move `position …` and `go time MS [nodes N]`; under rules with a history rule
(Oware, a move limit) the position is sent as `position <start> moves …`. Games come in
pairs from the same --opening random plies, A the first player in the first game of a pair
and B in the second. A player that answers an illegal move, fails (a program that crashes
or answers `error …`) or does not answer within its time plus --grace-ms loses that game,
which its line says; a program is then started again, and the match goes on. Each game's
line ends with its moves from the start (`mancala replay --rules R --moves \"…\"` replays
it). The summary: A's wins, draws and losses, its score (a draw counts a half) with a 95 %
Wilson interval, and each player's mean depth (engines), wall time and CPU time a move (the
CPU time of this process for the engine, less its reading of the other program's output;
of the program and everything it started for a program, on Linux). Ctrl-C prints the summary of the games played so far.")]
    Match(matches::MatchArgs),
    /// Print the shell completion script of `mancala` (bash, zsh, fish, elvish, powershell).
    #[command(after_help = "\
Examples:
  mkdir -p ~/.local/share/bash-completion/completions && mancala completions bash > ~/.local/share/bash-completion/completions/mancala
  mkdir -p ~/.zfunc && mancala completions zsh > ~/.zfunc/_mancala
  mkdir -p ~/.config/fish/completions && mancala completions fish > ~/.config/fish/completions/mancala.fish

(`mkdir -p` makes the folder where it does not exist yet.) bash loads a script from ~/.local/share/bash-completion/completions/ when the
bash-completion package is installed (else `source` it from ~/.bashrc); zsh from a folder of
$fpath (add `fpath=(~/.zfunc $fpath)` before `compinit` in ~/.zshrc); fish from
~/.config/fish/completions/. The script is of this version of mancala: make it again after an
upgrade.")]
    Completions(completions::CompletionsArgs),
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
            stdout_failed(
                msg.contains("Broken pipe"),
                msg.trim_start_matches("failed printing to stdout: "),
            );
        }
        eprintln!("mancala: internal error: {msg} (please report this)");
    }));
}

/// Ends the process after a write to standard output failed with `os_error` (its text, as
/// `std::io::Error` shows it): quietly with status 141 when the reader went away
/// (`broken_pipe`: `mancala … | head`), as SIGPIPE would end it; else (a full disk, a file
/// past `ulimit -f`) with one line `mancala: error: writing standard output: <os_error>` and
/// status 1.
fn stdout_failed(broken_pipe: bool, os_error: &str) -> ! {
    if broken_pipe {
        std::process::exit(141);
    }
    eprintln!("mancala: error: writing standard output: {os_error}");
    std::process::exit(1);
}

/// Prints what clap answers on standard output instead of running a command (`--help`,
/// `--version`, `mancala help solve`) and flushes it: status 0 once it is written, or the
/// end of [`stdout_failed`] when it cannot be (clap's own `Error::exit` would pass over the
/// failure and leave with status 0).
fn print_answer(answer: &clap::Error) -> ExitCode {
    use std::io::Write;
    match answer.print().and_then(|()| std::io::stdout().flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => stdout_failed(e.kind() == std::io::ErrorKind::BrokenPipe, &e.to_string()),
    }
}

/// The command-line grammar: [`Cli`] with every option that takes a value accepting a
/// leading `-`, so that `--max-seconds -1` is refused by the option's own check with its
/// name and value ("invalid value '-1' for '--max-seconds …'") instead of clap's
/// "unexpected argument '-1'".
fn command() -> clap::Command {
    fn negatives(cmd: clap::Command) -> clap::Command {
        cmd.mut_args(|a| {
            if a.get_action().takes_values() && !a.is_positional() {
                a.allow_negative_numbers(true)
            } else {
                a
            }
        })
        .mut_subcommands(negatives)
    }
    negatives(<Cli as clap::CommandFactory>::command()).about(about())
}

/// The top-level `--help` text: every game of the library by name ([`GameKind::ALL`], so a
/// game is named as soon as it is a game), then [`ABOUT`].
///
/// [`GameKind::ALL`]: mancala_core::GameKind::ALL
fn about() -> String {
    let names: Vec<&str> = mancala_core::GameKind::ALL
        .iter()
        .map(|kind| kind.name())
        .collect();
    let games = match names.split_last() {
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
        None => String::new(),
    };
    format!("{games}{ABOUT}")
}

/// Parses the command line `args` (program name first) with [`command`].
/// Options that cannot go together (`bestmove --time-ms 0` at level 10) are refused here, as
/// clap refuses a value out of its range: a usage error (exit status 2).
fn parse(args: &[std::ffi::OsString]) -> Result<Cli, clap::Error> {
    let matches = command().try_get_matches_from(args)?;
    let cli = <Cli as clap::FromArgMatches>::from_arg_matches(&matches)?;
    let refused = match &cli.command {
        Command::Bestmove(a) => a.usage_error().map(|m| ("bestmove", m)),
        Command::Play(a) => a.usage_error().map(|m| ("play", m)),
        Command::Grade(a) => a.usage_error().map(|m| ("grade", m)),
        _ => None,
    };
    match refused {
        None => Ok(cli),
        Some((name, message)) => {
            let mut cmd = command();
            let kind = clap::error::ErrorKind::ArgumentConflict;
            Err(match cmd.find_subcommand_mut(name) {
                Some(sub) => sub.error(kind, message),
                None => cmd.error(kind, message),
            })
        }
    }
}

/// Where a user who mistyped `args` finds help: the `--help` of the deepest subcommand the
/// arguments name (`mancala egdb build --help`, `mancala solve --help`), else
/// `mancala --help`. Options before a subcommand's name (`mancala --quiet egdb build`) are
/// passed over: the only ones there are flags without a value.
fn help_hint(args: &[std::ffi::OsString]) -> String {
    let mut cmd = command();
    let mut path = vec!["mancala".to_string()];
    for arg in args.iter().skip(1) {
        let Some(arg) = arg.to_str() else { break };
        if arg.starts_with('-') {
            continue;
        }
        let Some(sub) = cmd.find_subcommand(arg).cloned() else {
            break;
        };
        path.push(sub.get_name().to_string());
        cmd = sub;
    }
    format!("{} --help", path.join(" "))
}

fn main() -> ExitCode {
    install_panic_hook();
    // A write beyond `ulimit -f` fails with an error the command reports, not a silent kill
    // (the help and version too, printed below).
    interrupt::ignore_file_size_signal();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let cli = match parse(&args) {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                return print_answer(&e);
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                // The help on standard error, status 2: a command line that names no command.
                e.exit();
            }
            eprintln!(
                "mancala: error: {} (see `{}`)",
                mancala_core::usage_error_line(&e.to_string()),
                help_hint(&args)
            );
            return ExitCode::from(2);
        }
    };
    progress::set_quiet(cli.quiet);
    // Before any other thread starts: Ctrl-C clears the progress line and runs the clean-ups.
    interrupt::install();
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
        Command::Grade(a) => grade::run(&a),
        Command::Match(a) => matches::run(&a),
        Command::Completions(a) => completions::run(&a),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mancala: error: {e}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subcommand is named in the top-level help text.
    #[test]
    fn the_top_level_help_names_every_subcommand() {
        let cmd = command();
        let mut names = 0;
        for sub in cmd.get_subcommands() {
            let name = sub.get_name();
            assert!(
                ABOUT.contains(name),
                "{name} missing from the top-level help"
            );
            names += 1;
        }
        assert_eq!(names, 13);
    }

    /// Every `--help` has examples, and every example is a command line clap accepts.
    #[test]
    fn every_help_has_examples_that_parse() {
        let cmd = command();
        let mut texts = vec![EXAMPLES.to_string()];
        // Every subcommand and every subcommand of those (`egdb build`, `agent manchester`).
        let mut subs: Vec<(String, &clap::Command)> = Vec::new();
        for sub in cmd.get_subcommands() {
            subs.push((sub.get_name().to_string(), sub));
            for inner in sub.get_subcommands() {
                subs.push((format!("{} {}", sub.get_name(), inner.get_name()), inner));
            }
        }
        for (name, sub) in subs {
            let text = sub
                .get_after_help()
                .map(ToString::to_string)
                .unwrap_or_default();
            assert!(
                text.contains("Examples:"),
                "`mancala {name} --help` has no example"
            );
            texts.push(text);
        }
        for text in texts {
            for line in text.lines().filter(|l| l.starts_with("  mancala ")) {
                // A redirection of the output is the shell's, not an argument.
                let command = line.split(" > ").next().unwrap_or(line);
                let words = split_words(command.trim());
                match parse(
                    &words
                        .iter()
                        .map(std::ffi::OsString::from)
                        .collect::<Vec<_>>(),
                ) {
                    Ok(_) => {}
                    Err(e) if e.kind() == clap::error::ErrorKind::DisplayHelp => {}
                    Err(e) => panic!("example `{line}` does not parse: {e}"),
                }
            }
        }
    }

    /// Splits a shell line on spaces, keeping double-quoted words together.
    fn split_words(line: &str) -> Vec<String> {
        let mut words = Vec::new();
        let mut cur = String::new();
        let mut quoted = false;
        for c in line.chars() {
            match c {
                '"' => quoted = !quoted,
                ' ' if !quoted => {
                    if !cur.is_empty() {
                        words.push(std::mem::take(&mut cur));
                    }
                }
                _ => cur.push(c),
            }
        }
        if !cur.is_empty() {
            words.push(cur);
        }
        words
    }

    #[test]
    fn the_help_hint_names_the_deepest_subcommand() {
        let hint = |line: &str| {
            help_hint(
                &line
                    .split(' ')
                    .map(std::ffi::OsString::from)
                    .collect::<Vec<_>>(),
            )
        };
        assert_eq!(
            hint("mancala egdb build --rules standard --max-seeds 2"),
            "mancala egdb build --help"
        );
        assert_eq!(
            hint("mancala --quiet egdb verify"),
            "mancala egdb verify --help"
        );
        assert_eq!(hint("mancala egdb bogus"), "mancala egdb --help");
        assert_eq!(
            hint("mancala agent manchester --level 0"),
            "mancala agent manchester --help"
        );
        assert_eq!(hint("mancala solve --rules x"), "mancala solve --help");
        assert_eq!(hint("mancala bogus"), "mancala --help");
        // A value that happens to be a subcommand's name is not one once a subcommand
        // without subcommands is reached.
        assert_eq!(hint("mancala show play"), "mancala show --help");
    }

    #[test]
    fn a_clap_message_keeps_what_follows_its_colon() {
        let e = Cli::try_parse_from(["mancala", "bestmove"]).unwrap_err();
        let line = mancala_core::usage_error_line(&e.to_string());
        assert!(line.contains("--time-ms"), "{line}");
        assert!(!line.contains('\n'));
    }
}
