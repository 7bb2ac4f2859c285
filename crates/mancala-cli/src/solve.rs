//! `mancala solve` and `mancala analyse`: exact values from the solver.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use mancala_core::kalah::KalahPosition;
use mancala_solver::egdb::Build;
use mancala_solver::{Egdb, SolveOptions, SolveProgress, Solver, TableKind};

use crate::rules_arg::kalah_only;

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
    /// Search threads (0 = every core; at most 256).
    #[arg(long, default_value_t = 0, value_parser = crate::ranges::threads_or_all())]
    pub threads: usize,
    /// Transposition table size, MiB (1..=1048576).
    #[arg(long, default_value_t = 256, value_parser = crate::ranges::solver_tt_mb())]
    pub tt_mb: usize,
    /// Endgame database: a file, or a folder searched for the largest database serving the
    /// rules. Without it, a database is built once (K chosen from m and the memory) and
    /// kept in the cache folder ($MANCALA_CACHE_DIR, else $XDG_CACHE_HOME/mancala or
    /// ~/.cache/mancala), then reused.
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
    /// is then a pair of bounds).
    #[arg(long, value_parser = crate::ranges::any_u64())]
    pub max_nodes: Option<u64>,
    /// Stop after about this many seconds, 0 to 1e9 (the result is then a pair of bounds).
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

/// The position, the configured solver and the database it uses (if any): where it comes
/// from, as the output names it (its file, or that it was built for this run and not kept).
fn setup(args: &SolveArgs) -> Result<(KalahPosition, Solver, Option<String>), String> {
    let rules = kalah_only(&args.rules, "solve and analyse are")?;
    if let Some(n) = args.max_seeds {
        return Err(format!(
            "--max-seeds {n}: for --rules awari only (a Kalah solve takes the cache's K, or --egdb)"
        ));
    }
    let pos = crate::rules_arg::position_as::<mancala_core::kalah::KalahPosition>(
        "--position",
        rules,
        args.position.as_deref(),
    )?;
    // --threads and --tt-mb are in range: clap parsed them with their ranges (ranges.rs).
    let tt_bytes = args.tt_mb << 20;
    if let Some(avail) = mancala_solver::available_memory_bytes() {
        if tt_bytes as u64 > avail {
            return Err(format!(
                "--tt-mb {}: more than the {} MiB of memory available",
                args.tt_mb,
                avail >> 20
            ));
        }
    }
    // --max-seconds is 0..=1e9 (parse_seconds above): always a duration.
    let time_limit = args.max_seconds.map(Duration::from_secs_f64);
    let mut solver = Solver::new().tt_bytes(tt_bytes);
    if args.threads > 0 {
        solver = solver.threads(args.threads);
    }
    if args.exact_table {
        solver = solver.table(TableKind::Exact);
    }
    let mut file = None;
    let choice = crate::database::Choice {
        verbose: args.verbose,
        ..crate::database::Choice::kalah(
            args.egdb.as_deref(),
            args.no_cache,
            args.threads,
            Build::Cache,
        )
    };
    if let Some((db, source)) = crate::database::choose_for::<Egdb>(&rules, &choice)? {
        solver = solver.database(db);
        file = Some(source.to_string());
    }
    solver = solver.node_limit(args.max_nodes).time_limit(time_limit);
    Ok((pos, solver, file))
}

/// Runs `f` (a solve or an analysis) with a spinner on standard error showing the proven
/// bounds, nodes, nodes per second, elapsed time and database (when progress is shown), or
/// plainly.
fn with_progress<R>(
    solver: &mut Solver,
    database: Option<&str>,
    plain: impl FnOnce(&mut Solver) -> R,
    watched: impl FnOnce(&mut Solver, &mut dyn FnMut(&SolveProgress) -> ControlFlow<()>) -> R,
) -> R {
    let db = database.map(str::to_string);
    match crate::progress::spinner("starting".into()) {
        None => plain(solver),
        Some(bar) => {
            let r = watched(solver, &mut |p| {
                crate::progress::set_message(&bar, &crate::progress::solve_line(p, db.as_deref()));
                ControlFlow::Continue(())
            });
            bar.finish_and_clear();
            r
        }
    }
}

/// Why a result is only a pair of bounds: the limit that stopped it, with the figure reached.
fn stopped_by(args: &SolveArgs, nodes: u64, seconds: f64) -> String {
    match (args.max_seconds, args.max_nodes) {
        (Some(s), _) if seconds >= s => {
            format!("ran out of time: --max-seconds {s} reached after {seconds:.1} s")
        }
        (_, Some(n)) if nodes >= n => {
            format!("ran out of nodes: --max-nodes {n} reached after {nodes} nodes")
        }
        _ => "stopped by a limit".to_string(),
    }
}

fn moves_text<T: ToString>(moves: &[T]) -> Vec<String> {
    moves.iter().map(ToString::to_string).collect()
}

/// Runs `mancala solve`: value, final score, best moves, principal variation, nodes, seconds.
///
/// # Errors
/// A message for a bad rule set, position or database, or a solver error.
pub fn run_solve(args: &SolveArgs) -> Result<(), String> {
    if let Some(rules) = crate::awari::wanted(&args.rules, "solve and analyse are")? {
        return crate::awari::run(args, rules, false);
    }
    let (pos, mut solver, file) = setup(args)?;
    let s = with_progress(
        &mut solver,
        file.as_deref(),
        |sv| sv.solve(&pos, SolveOptions::new()),
        |sv, cb| {
            sv.solve(
                &pos,
                SolveOptions::new().progress(crate::progress::TICK, cb),
            )
        },
    )
    .map_err(|e| e.to_string())?;
    let database = file;
    if args.json {
        let out = s.to_json(&pos, database.as_deref());
        println!("{out}");
        return Ok(());
    }
    println!("rules       {}", pos.rules());
    println!("position    {pos}");
    if let Some(f) = &database {
        println!("database    {f}");
    }
    if s.exact {
        println!("value       {:+}", s.value);
    } else {
        println!(
            "value       not proven ({}); proven so far: between {:+} and {:+}",
            stopped_by(args, s.nodes, s.seconds),
            s.lower,
            s.upper
        );
    }
    if pos.is_over() {
        // Nobody is to move: the score is the final one, and there is no move or line.
        println!(
            "score       {:+} (the game is over: final margin of South)",
            s.score
        );
        println!("best moves  none (the game is over)");
    } else if s.exact {
        println!(
            "score       {:+} (final margin of the player to move)",
            s.score
        );
        println!("best moves  {}", moves_text(&s.best_moves).join(" "));
        println!("pv          {}", moves_text(&s.pv).join(" "));
    } else {
        // Bounds only: no final score, best move or line is proven yet.
        let now = s.score - s.value;
        println!(
            "score       between {:+} and {:+} (final margin of the player to move)",
            now + s.lower,
            now + s.upper
        );
    }
    if let Some(c) = s.swap {
        let verdict = if c.swap_is_better {
            "better"
        } else {
            "not better"
        };
        match c.stay_value {
            Some(stay) => println!(
                "swap        {verdict} (swap {:+}, best house move {stay:+})",
                c.swap_value
            ),
            None => println!(
                "swap        {verdict} (swap {:+}, no house move)",
                c.swap_value
            ),
        }
    }
    println!("nodes       {}", s.nodes);
    println!(
        "seconds     {:.3} ({:.2} M nodes/s)",
        s.seconds,
        s.nodes as f64 / s.seconds.max(1e-9) / 1e6
    );
    Ok(())
}

/// Runs `mancala analyse`: the value of every legal move.
///
/// # Errors
/// As [`run_solve`].
pub fn run_analyse(args: &SolveArgs) -> Result<(), String> {
    if let Some(rules) = crate::awari::wanted(&args.rules, "solve and analyse are")? {
        return crate::awari::run(args, rules, true);
    }
    let (pos, mut solver, file) = setup(args)?;
    let a = with_progress(
        &mut solver,
        file.as_deref(),
        |sv| sv.analyse(&pos, SolveOptions::new()),
        |sv, cb| {
            sv.analyse(
                &pos,
                SolveOptions::new().progress(crate::progress::TICK, cb),
            )
        },
    )
    .map_err(|e| e.to_string())?;
    if args.json {
        let moves: Vec<_> = a
            .moves
            .iter()
            .map(|m| {
                serde_json::json!({
                    "move": m.mv.to_string(),
                    // A value only when proven, as `solve --json`.
                    "value": m.exact.then_some(m.value),
                    "lower": m.lower,
                    "upper": m.upper,
                    "exact": m.exact,
                })
            })
            .collect();
        let out = serde_json::json!({
            "rules": pos.rules().to_string(),
            "position": pos.to_string(),
            "moves": moves,
            "nodes": a.nodes,
            "seconds": a.seconds,
        });
        println!("{out}");
        return Ok(());
    }
    println!("rules     {}", pos.rules());
    println!("position  {pos}");
    if a.moves.is_empty() {
        println!("note      the game is over: no move to value");
    } else if a.moves.iter().all(|m| !m.exact) {
        println!(
            "note      no move proven: {}; each move shows its proven bounds",
            stopped_by(args, a.nodes, a.seconds)
        );
    } else if a.moves.iter().any(|m| !m.exact) {
        println!(
            "note      not every move proven: {}; the others show proven bounds",
            stopped_by(args, a.nodes, a.seconds)
        );
    }
    for m in &a.moves {
        if m.exact {
            println!("move {:>4}  {:+}", m.mv.to_string(), m.value);
        } else {
            println!(
                "move {:>4}  {:+}..={:+} (limit)",
                m.mv.to_string(),
                m.lower,
                m.upper
            );
        }
    }
    println!("nodes     {}", a.nodes);
    println!("seconds   {:.3}", a.seconds);
    Ok(())
}
