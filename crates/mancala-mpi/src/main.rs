//! # mancala-mpi
//!
//! Endgame databases (Kalah and Awari) and exact Kalah solves shared between the processes
//! (*ranks*) of an MPI job, for machines beyond one: the `mancala-mpi` command (`egdb build`,
//! `solve`; `mpirun -np N mancala-mpi …`). Its modules are private: the command is the
//! product. See also `docs/mpi.md`.
//!
//! ```sh
//! mpirun -np 4 mancala-mpi egdb build --rules standard --max-seeds 26 --out egdb/
//! mpirun -np 4 mancala-mpi solve --rules standard --egdb egdb/ --json
//! ```
//!
//! The MPI transport is the cargo feature `mpi` (rsmpi over the system's MPI library, Open
//! MPI in this project's CI); without it the command runs as one process, a job of one rank,
//! so that the workspace builds and tests without MPI. See `docs/mpi.md` for the design.
//!
//! # Ranks and messages
//!
//! Everything between ranks goes through [`comm::Comm`]. MPI is started at the funneled
//! thread level: only each process's main thread calls MPI; the build and search threads
//! never do.
//!
//! **Database build** ([`egdb_build`]): collectives only, every rank calling the same ones
//! in the same order. For each layer: a broadcast of the cuts of every level (rank 0's cost
//! model, [`balance`]); for each level an all-gather of the shares' entries (bytes in the
//! build's walk order); after the layer a gather of the ranks' timings to rank 0 and an
//! agreement on rank 0's write of the layer to the partial file. A resumed build starts
//! with a broadcast of each finished layer read back by rank 0.
//!
//! **Awari database build** ([`awari_build`]): collectives only. For each level and each
//! threshold, rounds of two all-gathers (each rank's update counts for each rank, then the
//! updates), until a round with no update; after each level an all-gather of the level's
//! values; at the end an agreement on rank 0's save.
//!
//! **Solve** ([`solve`]): rank 0 is the coordinator (and also runs a worker on threads of its
//! own, which talk to it through channels, not MPI); ranks 1.. are workers. Rank 0 runs
//! MTD(f) over its tree ([`tree`]) and hands out leaf searches, each with the window it
//! must answer. Messages are tagged byte strings:
//!
//! | tag | from → to | contents |
//! |---|---|---|
//! | [`solve::TAG_TASK`] | 0 → worker | a leaf's number, its moves from the root, and what to answer: an open window `a,b` or `full` |
//! | [`solve::TAG_RESULT`] | worker → 0 | the leaf's number, what was asked, the proven bounds, and for `full` the leaf's best moves, variation and swap choice (JSON) |
//! | [`solve::TAG_ERROR`] | worker → 0 | a one-line reason the worker cannot go on |
//! | [`solve::TAG_STOP`] | 0 → worker | the job is over (done, or failed elsewhere) |
//!
//! A worker has at most one task at a time; the coordinator sends a task only to a worker
//! with none, and a result whose bounds do not answer its window is an error of that
//! worker. Waiting ranks poll every millisecond and sleep in between (an idle rank takes no
//! core from a busy one).
//!
//! # Termination and errors
//!
//! Every step that can fail on some rank only (a command line, opening the partial file or
//! the database, memory for the entries or the table, writing a layer) ends in an agreement
//! ([`comm::agree`]): an all-gather of one flag a rank, then, when a rank failed, of the
//! failed ranks' reasons. Rank 0 prints each reason once (alone when every rank gave it,
//! or of a check rank 0 alone makes, [`comm::agree_at_root`]; else after the ranks that
//! gave it: `mancala-mpi: error: rank 2: …`), and every rank leaves with
//! status 1 once it has — no rank is left waiting in a collective. In the solve a
//! worker that fails on a leaf sends [`solve::TAG_ERROR`]; rank 0 prints it, sends
//! [`solve::TAG_STOP`] to every worker (one in the middle of a leaf sees it within a tenth
//! of a second and stops searching) and all leave with status 1. A rank that dies (killed,
//! or a panic: the command's panic hook aborts the process instead of unwinding into
//! `MPI_Finalize`, which would wait for the others) makes `mpirun` end the whole job; the
//! partial file or the journal then lets the next run skip the work already done.

mod awari_build;
mod balance;
mod checkpoint;
mod comm;
mod egdb_build;
mod journal;
#[cfg(feature = "mpi")]
mod mpi_comm;
mod solve;
mod tree;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{ColorChoice, CommandFactory, FromArgMatches, Parser, Subcommand, ValueEnum};
use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_core::words;
use mancala_solver::egdb::{Database, Encoding};
use mancala_solver::Egdb;

use awari_build::{AwariArgs, AwariReport};
use balance::Balance;
use comm::{agree, Comm, Failure};
use egdb_build::{BuildArgs, Built};
use solve::{SolveArgs, SolveReport};

#[derive(Parser, Debug)]
#[command(
    name = "mancala-mpi",
    version,
    about = "Endgame databases and exact Kalah solves shared between the ranks of an MPI job",
    after_help = "\
Run it under MPI's launcher, e.g.:
  mpirun -np 4 mancala-mpi egdb build --rules standard --max-seeds 20 --out egdb/
  mpirun -np 4 mancala-mpi solve --rules standard --egdb egdb/ --json
Started without mpirun it is a job of one rank."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Endgame databases.
    Egdb {
        #[command(subcommand)]
        command: EgdbCommand,
    },
    /// Solve a Kalah position exactly: rank 0 walks the positions a few plies deep as
    /// alpha-beta would and hands the leaves it needs to the ranks' solvers; prints what
    /// `mancala solve` prints.
    #[command(after_help = "\
Examples:
  mpirun -np 4 mancala-mpi solve --rules standard --egdb egdb/ --json
  mpirun -np 4 mancala-mpi solve --rules \"kalah(6,5)+empty_capture\" --egdb egdb/ --journal k65.journal
Every rank opens the database itself (the path must be readable on every machine). With
--journal every leaf solved is written down as it comes, and a solve started again with the
same journal skips them.")]
    Solve(SolveCli),
}

#[derive(clap::Args, Debug)]
struct SolveCli {
    /// Rule set, e.g. `standard`, `kalah(6,4)+empty_capture`.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Position in the notation of docs/rules/kalah.md (default: the start position).
    #[arg(long)]
    position: Option<String>,
    /// Endgame database: a file, or a folder searched for the largest database serving the
    /// rules (every rank opens it). Without it no database is used.
    #[arg(long)]
    egdb: Option<PathBuf>,
    /// Plies of rank 0's tree: its leaves are the positions the ranks solve (at most 12: the
    /// tree grows about 6 times a ply).
    #[arg(long, allow_negative_numbers = true, default_value_t = 4, value_parser = whole::<u32>(0, 12))]
    depth: u32,
    /// Search threads of each rank's solver (0 = this machine's cores shared by its ranks;
    /// at most 1024).
    #[arg(long, allow_negative_numbers = true, default_value_t = 0, value_parser = whole::<usize>(0, MAX_THREADS))]
    threads: usize,
    /// Transposition table of each rank's solver, MiB (1 to 1048576). Default: sized to the
    /// positions solved, as `mancala solve` sizes it: 2^(⌈seeds/2⌉ + 4) bytes for the seeds
    /// in the houses, from 4 MiB up to 256 MiB and half the memory available, smaller with a
    /// database (4 MiB for Kalah(4,3); 256 MiB for Kalah(6,4) and larger without one).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<usize>(1, 1 << 20))]
    tt_mb: Option<usize>,
    /// Journal file (created if missing): every leaf solved is appended; the leaves already
    /// in it are not solved again.
    #[arg(long)]
    journal: Option<PathBuf>,
    /// Print one JSON object (the one of `mancala solve --json`).
    #[arg(long)]
    json: bool,
    /// A line on standard error for every leaf solved.
    #[arg(long)]
    verbose: bool,
    /// No summary of the ranks' shares on standard error.
    #[arg(long)]
    quiet: bool,
}

#[derive(Subcommand, Debug)]
enum EgdbCommand {
    /// Build the database of every position with at most K seeds in the houses, every rank
    /// computing a share of each level; rank 0 writes the file (the same bytes as `mancala
    /// egdb build`).
    #[command(after_help = "\
Examples:
  mpirun -np 4 mancala-mpi egdb build --rules standard --max-seeds 20 --out egdb/
  mpirun -np 4 mancala-mpi egdb build --rules standard --max-seeds 20 --out egdb/ --resume
After each layer rank 0 appends it to <out>/<one-byte database file>.partial (whatever the
encoding); --resume continues from there after a build was stopped (a damaged or mismatched
partial file is refused, and so is a partial file another running build is using).
--encoding packed or compact: rank 0 converts the database once it is built and saves only
that file (the one `mancala egdb build --encoding` writes), holding both encodings meanwhile.")]
    Build {
        /// Rule set (its m and capture/end options decide the database).
        #[arg(long)]
        rules: String,
        /// K, the largest number of seeds in the houses (at most 127; a game's own limit is
        /// checked too).
        #[arg(long, allow_negative_numbers = true, value_parser = whole::<u32>(0, MAX_DB_SEEDS))]
        max_seeds: u32,
        /// Output folder (created if missing); the file is named after the rules, K and the
        /// encoding.
        #[arg(long)]
        out: PathBuf,
        /// Continue the partial build in the output folder from its last finished layer
        /// (with no partial file, a build from nothing; refused when the database is
        /// already there).
        #[arg(long)]
        resume: bool,
        /// Build threads of each rank (0 = this machine's cores shared by its ranks; at most
        /// 1024).
        #[arg(long, allow_negative_numbers = true, default_value_t = 0, value_parser = whole::<usize>(0, MAX_THREADS))]
        threads: usize,
        /// How each level is shared between the ranks: by measured cost, or by equal counts
        /// of positions.
        #[arg(long, value_enum, default_value_t = BalanceArg::Cost)]
        balance: BalanceArg,
        /// Print the report as one JSON object.
        #[arg(long)]
        json: bool,
        /// No line on standard error after each layer.
        #[arg(long)]
        quiet: bool,
        /// Stop once layer N is in the partial file (e.g. to fit a batch job's time limit);
        /// --resume goes on from there. With --resume, a partial file that already holds
        /// layer N stops at once, building nothing.
        #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole::<u32>(0, MAX_DB_SEEDS))]
        stop_after_layer: Option<u32>,
        /// Write over a file at the database's name that does not hold this database
        /// (without it, such a file is refused before any work; the same database there is
        /// rebuilt).
        #[arg(long)]
        force: bool,
        /// Entry encoding of the file: byte (one byte a position), packed (the fewest bits
        /// that hold every value up to K: 5 bits a position for m = 6 and K = 15..30), or
        /// for the Oware databases also compact (blocks of Huffman codes); the ranks build
        /// one byte an entry, rank 0 converts before it saves.
        #[arg(long, default_value = "byte", value_parser = PossibleValuesParser::new(Encoding::NAMES).try_map(|s| s.parse::<Encoding>()))]
        encoding: Encoding,
    },
}

/// The most threads `--threads` takes: the library's [`mancala_solver::MAX_THREADS`], as for
/// `mancala` and the C and Python calls.
const MAX_THREADS: u64 = mancala_solver::MAX_THREADS as u64;

/// The largest K `--max-seeds` takes: [`mancala_solver::egdb::MAX_DB_SEEDS`], as for
/// `mancala egdb build`.
const MAX_DB_SEEDS: u64 = mancala_solver::egdb::MAX_DB_SEEDS as u64;

/// The value parser of a whole-number option of `min..=max` (its argument takes a leading
/// `-`, so that `--threads -1` is refused here with the option's name, not as an unexpected
/// argument): the number (decimal, optionally signed), or a refusal in the words of `mancala`'s options, which clap prints as a usage
/// error (status 2): `invalid value '1025' for '--threads <THREADS>': 1025 is out of range
/// (0 to 1024)`, `…: not a whole number (0 to 1024)` (a long value shortened as
/// [`mancala_core::Shortened`] shortens it).
fn whole<T: TryFrom<u64>>(
    min: u64,
    max: u64,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static {
    move |text: &str| {
        let range = format!("{min} to {max}");
        let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(format!("not a whole number ({range})"));
        }
        // More digits than any i128 holds is out of every range.
        text.parse::<i128>()
            .ok()
            .and_then(|v| u64::try_from(v).ok())
            .filter(|v| (min..=max).contains(v))
            .and_then(|v| T::try_from(v).ok())
            .ok_or_else(|| {
                format!(
                    "{} is out of range ({range})",
                    mancala_core::Shortened(text)
                )
            })
    }
}

#[derive(Debug, Clone, Copy, ValueEnum)]
enum BalanceArg {
    Cost,
    Count,
}

/// The variables that name this process's rank, as launchers set them (Open MPI, PMIx,
/// MPICH's PMI, Slurm), in the order they are read.
const RANK_VARIABLES: [&str; 4] = [
    "OMPI_COMM_WORLD_RANK",
    "PMIX_RANK",
    "PMI_RANK",
    "SLURM_PROCID",
];

/// The variables that name how many ranks the launcher started, in the order they are read.
const SIZE_VARIABLES: [&str; 3] = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"];

/// How clap colours its help and errors, given the environment `var`: never under a
/// launcher (any of [`RANK_VARIABLES`] or [`SIZE_VARIABLES`] set and not empty: Open MPI
/// gives its ranks a pseudo-terminal, so that colour codes would reach a file or a pipe
/// mpirun's output goes to) unless `CLICOLOR_FORCE` asks for colour (set, not empty, not
/// `0`); otherwise clap's own choice (colour on a terminal, `NO_COLOR` and the like obeyed).
fn colour_choice(var: &dyn Fn(&str) -> Option<std::ffi::OsString>) -> ColorChoice {
    let set = |name: &str| var(name).is_some_and(|v| !v.is_empty());
    let launched = RANK_VARIABLES.iter().chain(&SIZE_VARIABLES).any(|n| set(n));
    let forced = var("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0");
    if launched && !forced {
        ColorChoice::Never
    } else {
        ColorChoice::Auto
    }
}

/// This process's command line parsed by clap, coloured as [`colour_choice`] says.
fn parse_command_line() -> Result<Cli, clap::Error> {
    let mut cmd = Cli::command().color(colour_choice(&|name| std::env::var_os(name)));
    let mut matches = cmd.try_get_matches_from_mut(std::env::args_os())?;
    Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut cmd))
}

/// The rank the launcher gave this process and the count of ranks it started, read from
/// the environment before MPI starts ([`launcher_from`] with the process's variables and
/// warnings on standard error), so that only rank 0 prints a usage error and a build without
/// MPI knows it was started with more ranks than one.
fn launcher() -> (Option<u64>, Option<u64>) {
    launcher_from(&|name| std::env::var_os(name), &mut say)
}

/// A decimal number without sign (ASCII digits only, at least one, at most `u64::MAX`), or
/// `None`: `+1`, `-0`, ` 1` and `1.0` are none, where `str::parse` would take `+1`.
fn unsigned_decimal(value: &str) -> Option<u64> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// Whether `value` is a decimal without sign (ASCII digits only, at least one) past
/// `u64::MAX`: a number, but too large for a count of ranks or a rank.
fn too_large(value: &str) -> bool {
    !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) && value.parse::<u64>().is_err()
}

/// A variable's value for a warning: quoted, shortened as [`mancala_core::Shortened`] does
/// (its first 60 characters and `…`, control characters escaped), its length after the
/// quotes when it was shortened: `"999…" (5000 characters)`, never the whole of a long value.
fn shown_value(value: &str) -> String {
    let n = value.chars().count();
    let quoted = format!("{:?}", mancala_core::Shortened(value).to_string());
    if n > mancala_core::Shortened::MAX_CHARS {
        format!("{quoted} ({n} characters)")
    } else {
        quoted
    }
}

/// The rank and the count of ranks of the launcher's variables, as `var` gives them: of
/// each list ([`RANK_VARIABLES`], [`SIZE_VARIABLES`]) the first variable that is set and not
/// empty and whose value is valid counts. A count must be a positive decimal without sign
/// (`1`, `16`); a rank a decimal without sign, below the count when one is known. A value
/// that is not (`four`, `0` or `+1` for a count, `-1` for a rank, a rank at or past the
/// count, a number past `u64::MAX`, or not UTF-8) is passed over, as if it were not set,
/// with one line through `warn` naming the variable, its value (shortened: [`shown_value`])
/// and why; the next variable is tried. `None` when no
/// variable of the list counts.
fn launcher_from(
    var: &dyn Fn(&str) -> Option<std::ffi::OsString>,
    warn: &mut dyn FnMut(&str),
) -> (Option<u64>, Option<u64>) {
    let mut first = |names: &[&'static str], check: &dyn Fn(&str) -> Result<u64, String>| {
        names.iter().find_map(|&name| {
            let value = var(name).filter(|v| !v.is_empty())?;
            // A value that is not UTF-8 holds no number: refused as an empty one would be,
            // in the same words.
            let checked = value.to_str().map_or_else(|| check(""), check);
            match checked {
                Ok(n) => Some((name, n)),
                Err(why) => {
                    warn(&format!(
                        "mancala-mpi: warning: {name}={} {why}: ignored",
                        shown_value(&value.to_string_lossy())
                    ));
                    None
                }
            }
        })
    };
    let size = first(&SIZE_VARIABLES, &|v| {
        if too_large(v) {
            return Err(format!(
                "is too large for the launcher's count of ranks (at most {})",
                u64::MAX
            ));
        }
        unsigned_decimal(v)
            .filter(|&n| n > 0)
            .ok_or_else(|| "is not a positive whole number (the launcher's count of ranks)".into())
    });
    let rank = first(&RANK_VARIABLES, &|v| {
        if too_large(v) {
            return Err(format!(
                "is too large for the launcher's rank (at most {})",
                u64::MAX
            ));
        }
        let rank = unsigned_decimal(v)
            .ok_or_else(|| "is not a whole number (the launcher's rank)".to_string())?;
        match size {
            Some((name, n)) if rank >= n => Err(format!(
                "is not below the count of ranks ({name}={n}), as a rank must be"
            )),
            _ => Ok(rank),
        }
    });
    (rank.map(|r| r.1), size.map(|s| s.1))
}

fn main() -> ExitCode {
    // A panic (a bug) ends the process at once: unwinding would reach `MPI_Finalize`, which
    // waits for the other ranks, and they may be waiting in a collective for this one. An
    // aborted rank makes mpirun end the whole job.
    // A failed write to standard output (a full disk, a closed pipe) is no bug: it ends the
    // rank as `mancala` ends, in one line ([`stdout_failed`]), without a backtrace.
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_default();
        if let Some(os_error) = msg.strip_prefix("failed printing to stdout: ") {
            stdout_failed(os_error.contains("Broken pipe"), os_error);
        }
        report(info);
        std::process::abort();
    }));
    // `--help` and `--version` are answered before MPI starts (by rank 0 alone); a bad
    // command line only once every rank's is known (`run`), so that the rank that has it
    // can say why even when the other ranks' lines are good (an MPMD launch).
    let parsed = parse_command_line();
    // A write beyond the file-size limit (`ulimit -f`) sends SIGXFSZ, whose default action
    // kills the rank without a word and leaves the temporary file; ignored, the write fails
    // with EFBIG, which the build's error path reports and cleans up. Only here, in the
    // binary: the library leaves a host program's signal dispositions alone.
    // SAFETY: SIG_IGN installs no handler code; no other thread has started yet.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let (launcher_rank, launcher_size) = launcher();
    // With MPI the count of ranks is MPI's; the variables' only check the rank.
    #[cfg(feature = "mpi")]
    let _ = launcher_size;
    if let Err(e) = &parsed {
        if !e.use_stderr() {
            if launcher_rank.unwrap_or(0) == 0 {
                use std::io::Write;
                if let Err(e) = e.print().and_then(|()| std::io::stdout().flush()) {
                    stdout_failed(e.kind() == std::io::ErrorKind::BrokenPipe, &e.to_string());
                }
            }
            return ExitCode::from(0);
        }
    }
    #[cfg(feature = "mpi")]
    let comm = match mpi_comm::Mpi::start() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("mancala-mpi: error: {e}");
            return ExitCode::from(1);
        }
    };
    #[cfg(not(feature = "mpi"))]
    let comm = {
        if launcher_size.is_some_and(|n| n > 1) {
            // Rank 0 says it, or every rank when the variables name no rank (a rank at or
            // past the count is none): never silently.
            if launcher_rank.is_none_or(|r| r == 0) {
                eprintln!("mancala-mpi: error: this mancala-mpi was built without MPI (cargo feature `mpi`) and runs as one process; build it with `--features mpi` to run it under mpirun");
            }
            return ExitCode::from(1);
        }
        comm::Single
    };
    let code = match run(&comm, parsed) {
        Ok(()) => 0,
        Err(Failure::Here(m)) if m == USAGE => 2,
        Err(f @ Failure::Agreed(_)) => {
            // Every rank has the reasons: rank 0 says each once, and no rank leaves (so that
            // mpirun ends the job and speaks) before it has.
            for line in f.reasons(comm.rank(), comm.size()) {
                say(&format!("mancala-mpi: error: {line}"));
            }
            said(&comm);
            1
        }
        Err(f) => {
            // Under mpirun the ranks' lines meet in one stream, and mpirun ends the job at
            // the first rank that exits with an error. So a rank that failed says why at
            // once and stays half a second; the others wait a fifth of a second first, so
            // that their "rank N failed (reason above)" comes after that reason (it came
            // before it in every run with mismatched command lines), and stay as long (seen:
            // a reason lost when a rank without one left first).
            let several = comm.size() > 1;
            let elsewhere = matches!(f, Failure::Elsewhere(_));
            let pause = |ms| std::thread::sleep(std::time::Duration::from_millis(ms));
            if several && elsewhere {
                pause(200);
            }
            if let Some(m) = f.message(comm.rank(), comm.size()) {
                say(&format!("mancala-mpi: error: {m}"));
            }
            if several {
                pause(if elsewhere { 300 } else { 500 });
            }
            1
        }
    };
    ExitCode::from(code)
}

/// Ends the process after a write to standard output failed with `os_error` (its text, as
/// `std::io::Error` shows it), as `mancala` ends: quietly with status 141 when the reader
/// went away (`broken_pipe`), as SIGPIPE would end it; else with one line `mancala-mpi:
/// error: writing standard output: <os_error>` and status 1. The process ends at once
/// (`std::process::exit`: nothing unwinds into `MPI_Finalize`, which would wait for the
/// other ranks; under mpirun the job ends as it ends when a rank aborts).
fn stdout_failed(broken_pipe: bool, os_error: &str) -> ! {
    if !broken_pipe {
        say(&format!(
            "mancala-mpi: error: writing standard output: {os_error}"
        ));
    }
    std::process::exit(if broken_pipe { 141 } else { 1 });
}

/// Writes `line` and a newline to standard error in one write: a rank's line must reach
/// mpirun whole before the rank exits and mpirun ends the job (`eprintln!` writes a
/// formatted line in pieces, and a piece was seen lost, or another rank's line printed in
/// between).
fn say(line: &str) {
    use std::io::Write;
    let mut text = String::with_capacity(line.len() + 1);
    text.push_str(line);
    text.push('\n');
    let _ = std::io::stderr().lock().write_all(text.as_bytes());
}

/// This process's arguments after the program's name, each followed by a NUL byte.
fn command_line() -> Vec<u8> {
    let mut line = Vec::new();
    for a in std::env::args_os().skip(1) {
        line.extend_from_slice(a.as_encoded_bytes());
        line.push(0);
    }
    line
}

/// [`command_line`]'s bytes for a message: the arguments separated by spaces, control
/// characters escaped.
fn shown(line: &[u8]) -> String {
    let text = String::from_utf8_lossy(line);
    let args: Vec<String> = text
        .split_terminator('\0')
        .map(|a| a.escape_debug().to_string())
        .collect();
    args.join(" ")
}

/// Threads of each rank: `threads` (at most [`MAX_THREADS`], checked by clap), or 0 for this
/// machine's cores shared by its ranks.
fn threads_of<C: Comm>(comm: &C, threads: usize) -> usize {
    if threads > 0 {
        return threads;
    }
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    (cores / comm.ranks_on_node().max(1)).max(1)
}

/// The Awari build of `mancala-mpi egdb build --rules awari` (every rank checks the same
/// command line: the same outcome).
#[allow(clippy::too_many_arguments)]
fn awari_job<C: Comm>(
    comm: &C,
    text: &str,
    rules: &mancala_core::oware::OwareRules,
    max_seeds: u32,
    encoding: Encoding,
    out: PathBuf,
    resume: bool,
    stop_after_layer: Option<u32>,
    threads: usize,
    json: bool,
    quiet: bool,
    force: bool,
) -> Result<Job, String> {
    if let Err(refused) = mancala_solver::awari::check_rules(rules) {
        // In the words of `mancala egdb build`.
        let shown: String = text.chars().take(60).collect();
        return Err(format!(
            "--rules {shown}: {}",
            mancala_solver::awari::unserved(&refused, "endgame databases are")
        ));
    }
    if max_seeds > mancala_solver::awari::MAX_SEEDS {
        // In the words of `mancala egdb build`.
        return Err(mancala_solver::egdb::more_seeds_than_the_game(
            &<mancala_solver::awari::AwariDb as Database>::family(rules),
            max_seeds,
            mancala_solver::awari::MAX_SEEDS,
            mancala_solver::awari::MAX_SEEDS,
        ));
    }
    if resume || stop_after_layer.is_some() {
        return Err(
            "--resume and --stop-after-layer are for the Kalah databases; an Awari build runs in one go".to_string(),
        );
    }
    Ok(Job::Awari {
        args: AwariArgs {
            grand_slam: rules.grand_slam(),
            max_seeds,
            out,
            threads: threads_of(comm, threads),
            log_levels: !quiet,
            force,
            encoding,
        },
        json,
    })
}

/// Parses a Kalah rule set (every rank does, with the same text: the same outcome); a
/// malformed rule set of another game gets that game's reason (`Rules::parse_kalah`).
fn kalah_rules(text: &str) -> Result<KalahRules, String> {
    mancala_core::Rules::parse_kalah(text).map_err(|e| format!("--rules {text:?}: {e}"))
}

/// The failure of a command line clap refused, already printed: status 2.
const USAGE: &str = "usage";

/// A command checked and ready to run.
enum Job {
    Build {
        args: BuildArgs,
        json: bool,
    },
    Awari {
        args: AwariArgs,
        json: bool,
    },
    Solve {
        args: SolveArgs,
        json: bool,
        quiet: bool,
    },
}

/// Checks the command line on this rank.
///
/// # Errors
/// The one-line reason a request is refused (rules no database serves, a position that does
/// not parse, a table larger than the memory, …).
fn prepare<C: Comm>(comm: &C, cli: Cli) -> Result<Job, String> {
    match cli.command {
        Command::Solve(a) => {
            let rules = kalah_rules(&a.rules)?;
            let root = match &a.position {
                None => KalahPosition::start(rules),
                Some(p) => {
                    KalahPosition::parse(rules, p).map_err(|e| format!("--position {p:?}: {e}"))?
                }
            };
            // Each rank's table in its own memory, refused as `mancala solve` refuses it.
            if let Some(refusal) = a
                .tt_mb
                .and_then(|mb| mancala_solver::tt_mb_refusal(mb as u64))
            {
                return Err(refusal);
            }
            Ok(Job::Solve {
                args: SolveArgs {
                    root,
                    depth: a.depth,
                    threads: threads_of(comm, a.threads),
                    tt_bytes: a.tt_mb.map(|mb| mb << 20),
                    egdb: a.egdb,
                    journal: a.journal,
                    verbose: a.verbose,
                },
                json: a.json,
                quiet: a.quiet,
            })
        }
        Command::Egdb {
            command:
                EgdbCommand::Build {
                    rules,
                    max_seeds,
                    out,
                    resume,
                    threads,
                    balance,
                    json,
                    quiet,
                    stop_after_layer,
                    force,
                    encoding,
                },
        } => {
            // One parse, by the parser of the game the text names: a rule set that game
            // refuses gets that game's own reason, as `mancala` gives it.
            let parsed = rules
                .parse::<mancala_core::Rules>()
                .map_err(|e| format!("--rules {rules:?}: {e}"))?;
            let kalah = match parsed {
                mancala_core::Rules::Kalah(k) => k,
                mancala_core::Rules::Oware(o) => {
                    return awari_job(
                        comm,
                        &rules,
                        &o,
                        max_seeds,
                        encoding,
                        out,
                        resume,
                        stop_after_layer,
                        threads,
                        json,
                        quiet,
                        force,
                    )
                }
                // Another game's rule set: refused naming its game, in the words of
                // `mancala egdb build`.
                other => {
                    let shown: String = rules.chars().take(60).collect();
                    return Err(format!(
                        "--rules {shown}: {}",
                        mancala_solver::egdb::not_served("endgame databases are", other.kind())
                    ));
                }
            };
            let rules = kalah;
            // Kalah's databases have no compact encoding: refused as `mancala` refuses it.
            <Egdb as Database>::check_encoding(encoding).map_err(|e| e.to_string())?;
            let balance = match balance {
                BalanceArg::Cost => Balance::Cost,
                BalanceArg::Count => Balance::Count,
            };
            Ok(Job::Build {
                args: BuildArgs {
                    rules,
                    max_seeds,
                    out,
                    resume,
                    threads: threads_of(comm, threads),
                    balance,
                    log_layers: !quiet,
                    stop_after: stop_after_layer,
                    force,
                    encoding,
                },
                json,
            })
        }
    }
}

/// The line rank `rank` prints for the usage error `e` of its command line `args` (program
/// name first), in `mancala`'s form: `mancala-mpi: error: ` (and `rank N: ` for a rank
/// other than 0), clap's message in one line ([`mancala_core::usage_error_line`]), and where
/// help is (`(see `mancala-mpi egdb build --help`)`: [`help_hint`]). A command line that
/// stops at a group (`mancala-mpi egdb`) gets the group's help, as clap gives it, from
/// rank 0; from another rank one line saying that a command is missing.
fn usage_error(e: &clap::Error, rank: usize, args: &[std::ffi::OsString]) -> String {
    let hint = help_hint(args);
    let on = if rank == 0 {
        String::new()
    } else {
        format!("rank {rank}: ")
    };
    if e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        if rank == 0 {
            return e.render().to_string().trim_end().to_string();
        }
        return format!("mancala-mpi: error: {on}a command is missing (see `{hint}`)");
    }
    format!(
        "mancala-mpi: error: {on}{} (see `{hint}`)",
        mancala_core::usage_error_line(&e.to_string())
    )
}

/// Where a user who mistyped `args` (program name first) finds help: the `--help` of the
/// deepest subcommand the arguments name (`mancala-mpi egdb build --help`, `mancala-mpi
/// solve --help`), else `mancala-mpi --help`, as `mancala` names it. Options are passed
/// over; the first word that is no subcommand there ends the path.
fn help_hint(args: &[std::ffi::OsString]) -> String {
    let mut cmd = Cli::command();
    let mut path = vec!["mancala-mpi".to_string()];
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

/// Once the rank that says why the job stops (a command line refused, the reasons of an
/// agreement) has said it: every rank waits for it here, so that no other rank leaves before
/// that and makes mpirun end the job (and print its own note) before the reason is out.
fn said<C: Comm>(comm: &C) {
    let _ = comm.all_flags(false);
}

fn run<C: Comm>(comm: &C, parsed: Result<Cli, clap::Error>) -> Result<(), Failure> {
    // Every rank checks its own command line (under MPMD launches they may differ); all
    // agree before any collective, so that a rank with a bad one stops the others.
    // A usage error is printed once, by the lowest rank that has one (all ranks usually
    // share one command line), and every rank leaves with status 2 (a request refused after
    // parsing: status 1).
    let unparsed = comm.all_flags(parsed.is_err());
    if let Some(first) = unparsed.iter().position(|&f| f) {
        if let (true, Err(e)) = (comm.rank() == first, &parsed) {
            say(&usage_error(
                e,
                first,
                &std::env::args_os().collect::<Vec<_>>(),
            ));
        }
        said(comm);
        return Err(Failure::Here(USAGE.to_string()));
    }
    let Ok(cli) = parsed else {
        unreachable!("no rank failed to parse")
    };
    // Then every rank must have rank 0's command line: ranks that were given other rules, a
    // position, a database size or a window would work on different problems and answer
    // wrongly (or meet in collectives of different sizes). The program's path may differ.
    let mut line = command_line();
    let mine = line.clone();
    comm.broadcast(0, &mut line);
    agree(
        comm,
        if line == mine {
            Ok(())
        } else {
            Err(format!(
                "this rank was started with other arguments than rank 0 (`{}` against `{}`): every rank must get the same command line",
                shown(&mine),
                shown(&line)
            ))
        },
    )?;
    // A request refused after parsing is said once, by rank 0, and every rank leaves with
    // status 1, as `mancala` refuses the same requests.
    let job = agree(comm, prepare(comm, cli))?;
    match job {
        Job::Solve { args, json, quiet } => {
            if let Some(r) = solve::run(comm, &args)? {
                print_solve(&r, &args, json, quiet, comm.size());
            }
            Ok(())
        }
        Job::Awari { args, json } => {
            if let Some(r) = awari_build::run(comm, &args)? {
                print_awari(&r, comm.size(), json);
            }
            Ok(())
        }
        Job::Build { args, json } => {
            match egdb_build::run(comm, &args)? {
                Some(Built::Database(r)) => print_build(&r, comm.size(), args.balance, json),
                Some(Built::Stopped {
                    layer,
                    partial,
                    built,
                }) => {
                    if json {
                        let out = serde_json::json!({
                            "stopped_after_layer": layer,
                            "partial": partial.display().to_string(),
                            "built_layers": built,
                        });
                        println!("{out}");
                    } else if !built {
                        println!(
                            "nothing built: {} already holds layers 0..={layer}, the layer to stop after included; add --resume without --stop-after-layer (or with a later layer) to go on",
                            partial.display()
                        );
                    } else {
                        println!(
                            "stopped after layer {layer} as asked; {} holds layers 0..={layer}: add --resume to go on",
                            partial.display()
                        );
                    }
                }
                None => {}
            }
            Ok(())
        }
    }
}

fn print_awari(r: &AwariReport, ranks: usize, json: bool) {
    if json {
        let out = serde_json::json!({
            "database": r.path.display().to_string(),
            "boards": r.boards,
            "encoding": r.encoding.name(),
            "seconds": r.seconds,
            "ranks": ranks,
            "exchange_rounds": r.rounds,
            "updates_exchanged": r.updates,
        });
        println!("{out}");
    } else {
        println!(
            "{}: {} by {} in {:.2} s ({} encoding, {}, {} between ranks)",
            r.path.display(),
            words::count(r.boards, "board", "boards"),
            words::count(ranks, "rank", "ranks"),
            r.seconds,
            r.encoding,
            words::count(r.rounds, "exchange round", "exchange rounds"),
            words::count(r.updates, "update", "updates")
        );
    }
}

fn print_build(r: &egdb_build::BuildReport, ranks: usize, balance: Balance, json: bool) {
    for stale in &r.removed_stale {
        eprintln!(
            "mancala-mpi: removed {}: a temporary file left by an earlier save that was killed",
            stale.display()
        );
    }
    let balance = match balance {
        Balance::Cost => "cost",
        Balance::Count => "count",
    };
    if json {
        let per_rank: Vec<_> = r
            .ranks
            .iter()
            .enumerate()
            .map(|(i, x)| {
                serde_json::json!({
                    "rank": i,
                    "positions": x.positions,
                    "busy_seconds": x.busy_seconds,
                    "exchange_seconds": x.exchange_seconds,
                    "cpu_seconds": x.cpu_seconds,
                })
            })
            .collect();
        let out = serde_json::json!({
            "database": r.path.display().to_string(),
            "description": r.description,
            "entries": r.entries,
            "encoding": r.encoding.name(),
            "file_bytes": r.file_bytes,
            "ranks": ranks,
            "threads": r.threads,
            "balance": balance,
            "resumed_layers": r.resumed_layers,
            "dropped_layer": r.dropped_layer,
            "build_seconds": r.build_seconds,
            "save_seconds": r.save_seconds,
            "imbalance": r.imbalance(),
            "per_rank": per_rank,
        });
        println!("{out}");
        return;
    }
    println!(
        "built {} in {:.2} s ({:.1} M positions/s) on {} × {}, {}, {} encoding, {} bytes on disk; saved {} in {:.2} s",
        r.description,
        r.build_seconds,
        r.entries as f64 / r.build_seconds / 1e6,
        words::count(ranks, "rank", "ranks"),
        words::count(r.threads, "thread", "threads"),
        words::count(r.entries, "entry", "entries"),
        r.encoding,
        r.file_bytes,
        r.path.display(),
        r.save_seconds
    );
    if r.resumed_layers > 0 {
        println!(
            "resumed     layers 0..={} read back from the partial file",
            r.resumed_layers - 1
        );
    }
    println!("rank   positions    busy s  exchange s     cpu s");
    for (i, x) in r.ranks.iter().enumerate() {
        let cpu = x
            .cpu_seconds
            .map_or_else(|| "-".to_string(), |c| format!("{c:.2}"));
        println!(
            "{i:>4} {:>11} {:>9.2} {:>11.2} {cpu:>9}",
            x.positions, x.busy_seconds, x.exchange_seconds
        );
    }
    println!(
        "balance     largest busy time / mean = {:.3} (--balance {balance})",
        r.imbalance()
    );
}

/// How a solve was shared, the line `mancala-mpi solve` prints on standard error after
/// `mancala-mpi: ` (unless `--quiet`): `ranks` ranks of `threads` threads each, the tree of
/// `depth` plies, its leaves and searches, the first guess's nodes, then each worker's
/// searches, nodes, busy and processor seconds and peak resident memory (in the unit of
/// `readable_bytes`: `3 MiB`, `1.2 GiB`). Every count
/// is in words, the singular for exactly one (`1 leaf`, `2 leaves`).
fn solve_summary(r: &SolveReport, ranks: usize, threads: usize, depth: u32) -> String {
    let per: Vec<String> = r
        .workers
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let cpu = w
                .cpu_seconds
                .map_or_else(|| "-".to_string(), |c| format!("{c:.2}"));
            let rss = w
                .peak_resident_bytes
                .map_or_else(|| "-".to_string(), mancala_solver::readable_bytes);
            format!(
                "rank {i}: {}, {}, {:.2} s busy, {cpu} s cpu, {rss} peak resident",
                words::count(w.searches, "search", "searches"),
                words::count(w.nodes, "node", "nodes"),
                w.busy_seconds
            )
        })
        .collect();
    format!(
        "{} × {}, tree of depth {depth}: {}, {} of them searched; {}, {} from the journal; first guess {}; {}",
        words::count(ranks, "rank", "ranks"),
        words::count(threads, "thread", "threads"),
        words::count(r.leaves, "leaf", "leaves"),
        r.leaves_searched,
        words::count(r.searches, "search", "searches"),
        r.from_journal,
        words::count(r.guess_nodes, "node", "nodes"),
        per.join("; ")
    )
}

/// Prints a solve as `mancala solve` does (text or `--json`), and on standard error how the
/// work was shared.
fn print_solve(r: &SolveReport, args: &SolveArgs, json: bool, quiet: bool, ranks: usize) {
    let s = &r.solution;
    let pos = &args.root;
    let database = r.database.as_ref().map(|f| f.display().to_string());
    if !quiet {
        eprintln!(
            "mancala-mpi: {}",
            solve_summary(r, ranks, args.threads, args.depth)
        );
        eprintln!(
            "mancala-mpi: balance: largest busy time / mean = {:.3} over {:.2} s of wall time (busy: a rank's seconds in leaf searches; cpu: its process's processor seconds)",
            r.imbalance(),
            r.solution.seconds
        );
    }
    if json {
        println!("{}", s.to_json(pos, database.as_deref()));
        return;
    }
    // A distributed solve always runs to its proven value (no node or time limit).
    print!("{}", s.to_text(pos, database.as_deref(), "stopped early"));
}

#[cfg(test)]
mod tests {
    use super::*;
    use solve::WorkerReport;

    /// [`launcher_from`] of the variables `set`: the rank, the count, and the warnings.
    fn launcher_of(set: &[(&str, &str)]) -> (Option<u64>, Option<u64>, Vec<String>) {
        let vars: Vec<(String, String)> = set
            .iter()
            .map(|&(n, v)| (n.to_string(), v.to_string()))
            .collect();
        let var = move |name: &str| {
            vars.iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| std::ffi::OsString::from(v))
        };
        let mut warnings = Vec::new();
        let (rank, size) = launcher_from(&var, &mut |w| warnings.push(w.to_string()));
        (rank, size, warnings)
    }

    /// A count is a positive decimal without sign, a rank a decimal without sign below the
    /// count: `0`, `+1`, `-1`, ` 2`, `2.0` and a rank at the count are passed over with a
    /// warning naming the variable, and the next variable counts.
    #[test]
    fn launcher_numbers_are_unsigned_decimals_and_a_rank_is_below_the_count() {
        assert_eq!(
            launcher_of(&[("OMPI_COMM_WORLD_SIZE", "4"), ("OMPI_COMM_WORLD_RANK", "3")]),
            (Some(3), Some(4), vec![])
        );
        assert_eq!(
            launcher_of(&[("PMI_RANK", "0"), ("SLURM_NTASKS", "1")]),
            (Some(0), Some(1), vec![])
        );
        let count = "is not a positive whole number (the launcher's count of ranks): ignored";
        for bad in ["0", "+1", "-1", " 2", "2.0", "00"] {
            let (rank, size, warnings) =
                launcher_of(&[("OMPI_COMM_WORLD_SIZE", bad), ("PMI_SIZE", "3")]);
            assert_eq!((rank, size), (None, Some(3)), "{bad:?}");
            assert_eq!(
                warnings,
                vec![format!(
                    "mancala-mpi: warning: OMPI_COMM_WORLD_SIZE={bad:?} {count}"
                )]
            );
        }
        for bad in ["+1", "-1", "one", "1 "] {
            let (rank, size, warnings) = launcher_of(&[("PMIX_RANK", bad), ("PMI_RANK", "1")]);
            assert_eq!((rank, size), (Some(1), None), "{bad:?}");
            assert_eq!(
                warnings,
                vec![format!(
                    "mancala-mpi: warning: PMIX_RANK={bad:?} is not a whole number (the launcher's rank): ignored"
                )]
            );
        }
        // Rank 2 of two ranks (0 and 1) is none; rank 1 is.
        let (rank, size, warnings) =
            launcher_of(&[("PMI_SIZE", "2"), ("PMI_RANK", "2"), ("SLURM_PROCID", "1")]);
        assert_eq!((rank, size), (Some(1), Some(2)));
        assert_eq!(
            warnings,
            vec!["mancala-mpi: warning: PMI_RANK=\"2\" is not below the count of ranks (PMI_SIZE=2), as a rank must be: ignored".to_string()]
        );
        // A number past 2^64 - 1 is too large, not "not a number"; for a rank too.
        let (_, size, warnings) = launcher_of(&[
            ("OMPI_COMM_WORLD_SIZE", "18446744073709551616"),
            ("PMIX_RANK", "99999999999999999999"),
        ]);
        assert_eq!(size, None);
        assert_eq!(
            warnings,
            vec![
                "mancala-mpi: warning: OMPI_COMM_WORLD_SIZE=\"18446744073709551616\" is too large for the launcher's count of ranks (at most 18446744073709551615): ignored".to_string(),
                "mancala-mpi: warning: PMIX_RANK=\"99999999999999999999\" is too large for the launcher's rank (at most 18446744073709551615): ignored".to_string(),
            ]
        );
        // A long value is shortened to its first 60 characters, its length after the quotes.
        let long = "9".repeat(5000);
        let (_, _, warnings) = launcher_of(&[("OMPI_COMM_WORLD_SIZE", long.as_str())]);
        assert_eq!(
            warnings,
            vec![format!(
                "mancala-mpi: warning: OMPI_COMM_WORLD_SIZE=\"{}…\" (5000 characters) is too large for the launcher's count of ranks (at most 18446744073709551615): ignored",
                &long[..60]
            )]
        );
        // A value that is not UTF-8 is refused in the words of any other non-number.
        #[cfg(unix)]
        {
            use std::os::unix::ffi::OsStringExt;
            let var = |name: &str| {
                ["PMI_SIZE", "PMI_RANK"]
                    .contains(&name)
                    .then(|| std::ffi::OsString::from_vec(vec![b'4', 0xff]))
            };
            let mut warnings = Vec::new();
            let found = launcher_from(&var, &mut |w| warnings.push(w.to_string()));
            assert_eq!(found, (None, None));
            assert_eq!(
                warnings,
                vec![
                    "mancala-mpi: warning: PMI_SIZE=\"4\u{fffd}\" is not a positive whole number (the launcher's count of ranks): ignored".to_string(),
                    "mancala-mpi: warning: PMI_RANK=\"4\u{fffd}\" is not a whole number (the launcher's rank): ignored".to_string(),
                ]
            );
        }
        // Nothing set, or set empty: nothing, and no warning.
        assert_eq!(launcher_of(&[("PMI_SIZE", "")]), (None, None, vec![]));
    }

    /// [`colour_choice`] of the variables `set`.
    fn colour_of(set: &[(&str, &str)]) -> ColorChoice {
        let var = |name: &str| {
            set.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| std::ffi::OsString::from(v))
        };
        colour_choice(&var)
    }

    /// Under a launcher (any rank or count variable set, not empty) clap's colours are off,
    /// unless CLICOLOR_FORCE asks for them; elsewhere clap decides.
    #[test]
    fn no_colour_under_a_launcher_unless_asked() {
        assert_eq!(colour_of(&[]), ColorChoice::Auto);
        for name in RANK_VARIABLES.iter().chain(&SIZE_VARIABLES) {
            assert_eq!(colour_of(&[(name, "1")]), ColorChoice::Never, "{name}");
            assert_eq!(colour_of(&[(name, "")]), ColorChoice::Auto, "{name}");
        }
        let launched = ("PMIX_RANK", "0");
        assert_eq!(
            colour_of(&[launched, ("CLICOLOR_FORCE", "1")]),
            ColorChoice::Auto
        );
        for not_asked in ["", "0"] {
            assert_eq!(
                colour_of(&[launched, ("CLICOLOR_FORCE", not_asked)]),
                ColorChoice::Never
            );
        }
        assert_eq!(colour_of(&[("CLICOLOR_FORCE", "1")]), ColorChoice::Auto);
    }

    fn report(leaves: usize, searches: usize, guess_nodes: u64, workers: usize) -> SolveReport {
        let worker = WorkerReport {
            searches: searches as u64 / workers as u64,
            nodes: guess_nodes,
            busy_seconds: 0.5,
            cpu_seconds: Some(0.25),
            peak_resident_bytes: Some(3 * 1048576),
        };
        SolveReport {
            leaves,
            leaves_searched: leaves,
            searches,
            guess_nodes,
            ..SolveReport::of_workers(vec![worker; workers])
        }
    }

    /// A count of one in the singular, every other count (zero included) in the plural.
    #[test]
    fn the_solve_summary_counts_in_words() {
        assert_eq!(
            solve_summary(&report(1, 1, 1, 1), 1, 1, 0),
            "1 rank × 1 thread, tree of depth 0: 1 leaf, 1 of them searched; 1 search, \
             0 from the journal; first guess 1 node; \
             rank 0: 1 search, 1 node, 0.50 s busy, 0.25 s cpu, 3 MiB peak resident"
        );
        assert_eq!(
            solve_summary(&report(12, 4, 0, 2), 2, 3, 2),
            "2 ranks × 3 threads, tree of depth 2: 12 leaves, 12 of them searched; 4 searches, \
             0 from the journal; first guess 0 nodes; \
             rank 0: 2 searches, 0 nodes, 0.50 s busy, 0.25 s cpu, 3 MiB peak resident; \
             rank 1: 2 searches, 0 nodes, 0.50 s busy, 0.25 s cpu, 3 MiB peak resident"
        );
    }
}
