//! The arguments of `mancala solve` and `mancala analyse`, for the Kalah solver
//! (`crate::solve`) and the Oware databases (`crate::awari`) alike.

use std::path::PathBuf;

use clap::Args;

/// Options shared by `solve` and `analyse`.
#[derive(Args, Debug, Clone)]
pub struct SolveArgs {
    /// Rule set, e.g. `standard`, `kalah(6,4)+empty_capture`.
    #[arg(long, default_value = "standard")]
    pub rules: String,
    /// Position in the notation of docs/notation.md: a Kalah position, or with --rules awari an
    /// Oware one (default: the start position).
    #[arg(long)]
    pub position: Option<String>,
    /// Search threads (0 = every core; at most 1024; more than the processors is warned about).
    #[arg(long, default_value_t = 0, value_parser = crate::ranges::threads_or_all())]
    pub threads: usize,
    /// Transposition table size, MiB (1..=1048576), the same for every position but never
    /// more than the position can use (one 32-byte bucket a key of its key space: 512 MiB
    /// for Kalah(4,3) from the start). Default: sized to the
    /// position, 2^(⌈seeds/2⌉ + 4) bytes for its seeds in the houses, from 4 MiB up to 256 MiB
    /// (4 MiB for Kalah(6,3), 256 MiB for Kalah(6,4) and larger), and with a database of K
    /// seeds at most 2^(⌈(seeds − K)/2⌉ + 9) bytes (8 MiB for Kalah(6,4) with K = 20).
    #[arg(long, value_parser = crate::ranges::solver_tt_mb())]
    pub tt_mb: Option<usize>,
    /// Endgame database: a file, or a folder searched for the largest database serving the
    /// rules. Without it, a database is built once (K chosen from m and the memory) and
    /// kept in the cache folder ($MANCALA_CACHE_DIR when absolute, else $XDG_CACHE_HOME/mancala or
    /// ~/.cache/mancala), then reused; only for a position of more than 32 seeds in the
    /// houses, where it pays (a smaller one is solved without it unless it is cached; a
    /// finished position uses none).
    #[arg(long)]
    pub egdb: Option<PathBuf>,
    /// No cached endgame database (none at all unless --egdb); MANCALA_NO_CACHE=1 does the
    /// same.
    #[arg(long, conflicts_with = "egdb")]
    pub no_cache: bool,
    /// Use the exact (DashMap) table instead of the lock-free one.
    #[arg(long)]
    pub exact_table: bool,
    /// Stop after about this many nodes in all (`analyse`: for all moves together; the result
    /// is then a pair of bounds; 0: stop at once, before the first node, unlike `bestmove
    /// --nodes 0`, which means no limit). Kalah only: refused with an Oware rule set.
    #[arg(long, value_parser = crate::ranges::any_u64())]
    pub max_nodes: Option<u64>,
    /// Stop after about this many seconds of the whole command, from its start, 0 to 1e9
    /// (the result is then a pair of bounds; 0: stop at once, with no database read, though a
    /// --egdb that cannot serve is still refused; unlike `bestmove --time-ms 0`, which means
    /// no limit). The limit covers the database: one
    /// missing from the cache is not built, and a given or cached one is waited for at most a
    /// quarter of the limit while it is read, after which the solve goes without it; the
    /// output's seconds are the whole command's. Kalah only: refused with an Oware rule set.
    #[arg(long, value_parser = parse_seconds)]
    pub max_seconds: Option<f64>,
    /// With `--rules awari`: the largest level (seeds in the houses) of the Awari database
    /// to use, 0..=48 (default 18: the cached one, built on first use; with --no-cache,
    /// the position's seeds, built in memory for this run). Not for Kalah rule sets.
    #[arg(long, value_parser = crate::ranges::awari_max_seeds())]
    pub max_seeds: Option<u32>,
    /// Print one JSON object (`solve`: `value` and `score` are null unless `exact` is true;
    /// `analyse`: each move's `value` is null unless its `exact` is true; `lower` and `upper`
    /// are always the proven bounds).
    #[arg(long)]
    pub json: bool,
    /// Say on standard error which database file is used (from `--egdb` or the cache) and
    /// why each other file in the `--egdb` folder is not.
    #[arg(long)]
    pub verbose: bool,
}

/// The longest `--max-seconds`: 1e9 s, about 31.7 years. Far longer times do not fit the
/// solver's deadline (an `Instant`: 1e19 s made the solve panic), and no solve needs them.
const MAX_SECONDS: f64 = 1e9;

/// `--max-seconds`: a number of seconds from 0 to [`MAX_SECONDS`] (`2.5`, `1e3`); anything
/// else is refused with a one-line reason (clap adds the option's name and the value).
fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .parse()
        .map_err(|_| "expected a number of seconds from 0 to 1e9 (e.g. 2.5)".to_string())?;
    if (0.0..=MAX_SECONDS).contains(&v) {
        Ok(v)
    } else {
        Err("expected a number of seconds from 0 to 1e9 (about 31 years)".to_string())
    }
}
