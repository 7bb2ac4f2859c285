//! `mancala solve` and `mancala analyse`: exact values from the solver.

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::egdb::Build;
use mancala_solver::{Egdb, SolveOptions, SolveProgress, Solver, TableKind};

use crate::database::StillReading;
use crate::rules_arg::{exact_rules, ExactRules};
use crate::solve_args::SolveArgs;

/// The most seeds in the houses of a position whose solve never builds a missing cached
/// database: 32. The search without one is cheap there, and any build costs far more. Measured
/// (`--no-cache`, one solve from the start, standard capture): Kalah(7,1), 14 seeds, 37,903
/// nodes; Kalah(5,2), 20 seeds, 16,622; Kalah(6,2), 24 seeds, 41,617; Kalah(4,3), 24 seeds,
/// 19,101; Kalah(7,2), 28 seeds, 270,661; Kalah(5,3), 30 seeds, 72,887; Kalah(4,4), 32 seeds,
/// 214,231 — all within about 0.1 s — against Kalah(6,3), 36 seeds, 3,047,588 nodes (1.2 s).
/// The smallest database the cache builds for m ≥ 5 holds tens of millions of positions
/// (K = 14 for m = 7: 38 MiB, about 9 s; K = 20 for m = 5, about 6 s; m = 6: 215 MiB, about
/// 8.5 s). A file already in the cache is read whatever the seeds, and a finished position
/// (nothing to search) uses no database at all unless `--egdb` names one.
pub const BUILD_ABOVE_SEEDS: u32 = 32;

/// Whether a solve of `pos` builds a missing cached database ([`BUILD_ABOVE_SEEDS`]).
fn build_pays(pos: &KalahPosition) -> bool {
    !pos.is_over() && pos.seeds_in_houses() > BUILD_ABOVE_SEEDS
}

/// What [`setup`] gives: the position, the configured solver, the database it uses (if any)
/// as the output names it (its file, or that it was built for this run and not kept), and
/// a reading of a database given up under a time limit, to look at once the answer is out.
struct Setup {
    pos: KalahPosition,
    solver: Solver,
    file: Option<String>,
    still_reading: Option<StillReading<Egdb>>,
}

/// The solve's configuration. `started`: when the command started, from which the time
/// limit (`--max-seconds`) runs: the database's reading comes out of it.
fn setup(args: &SolveArgs, rules: KalahRules, started: Instant) -> Result<Setup, String> {
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
    // A position too large to solve is refused before any database is looked for (none
    // would help, and the note that one is missing would mislead).
    Solver::check_size(&pos).map_err(|e| e.to_string())?;
    // --threads and --tt-mb are in range: clap parsed them with their ranges (ranges.rs).
    let mut solver = match args.tt_mb {
        Some(mb) => {
            if let Some(refusal) = mancala_solver::tt_mb_refusal(mb as u64) {
                return Err(refusal);
            }
            Solver::new().tt_bytes(mb << 20)
        }
        // Sized to the position, at most 256 MiB and half the memory available.
        None => Solver::new().tt_bytes_at_most(Solver::sized_table_cap(
            mancala_solver::available_memory_bytes(),
        )),
    };
    // --max-seconds is 0..=1e9 (parse_seconds above): always a duration.
    let time_limit = args.max_seconds.map(Duration::from_secs_f64);
    if args.threads > 0 {
        solver = solver.threads(args.threads);
    }
    if args.exact_table {
        solver = solver.table(TableKind::Exact);
    }
    let mut still_reading = None;
    let pays = build_pays(&pos);
    if args.verbose && !pays && args.egdb.is_none() {
        eprintln!(
            "mancala: egdb: a database missing from the cache is not built: the position has {} seeds in the houses, at most {BUILD_ABOVE_SEEDS}{}",
            pos.seeds_in_houses(),
            if pos.is_over() { " (the game is over: none is read)" } else { "" }
        );
    }
    let chosen = match time_limit {
        // A finished position has nothing to search: no database is read unless named.
        _ if pos.is_over() && args.egdb.is_none() => None,
        // The limit covers the whole command: with 0 nothing is read, but a file or folder
        // given that cannot serve is refused as it is under any other limit.
        Some(limit) if limit.is_zero() => {
            if let Some(path) = args.egdb.as_deref() {
                crate::database::check_given::<Egdb>(&rules, path)?;
            }
            None
        }
        // Under a time limit no database is built (that takes seconds to minutes), and a
        // given or cached one is waited for at most a quarter of the limit, as `bestmove`
        // does: after that the solve goes without it, and its reading stops.
        Some(limit) => {
            let (db, reading) = crate::database::read_within::<Egdb>(
                rules,
                args.egdb.clone(),
                args.no_cache,
                args.verbose,
                pays,
                Some((limit / 4).saturating_sub(started.elapsed())),
            )?;
            still_reading = reading;
            db
        }
        None => {
            // A database missing from the cache is built only where it pays; a cached one
            // is read.
            let build = if pays { Build::Cache } else { Build::Never };
            let choice = crate::database::Choice {
                verbose: args.verbose,
                note_missing: pays,
                ..crate::database::Choice::kalah(
                    args.egdb.as_deref(),
                    args.no_cache,
                    args.threads,
                    build,
                )
            };
            crate::database::choose_for::<Egdb>(&rules, &choice)?
        }
    };
    let mut file = None;
    if let Some((db, source)) = chosen {
        solver = solver.database(db);
        file = Some(source.to_string());
    }
    // What is left of the limit once the database is read.
    let time_limit = time_limit.map(|limit| limit.saturating_sub(started.elapsed()));
    solver = solver.node_limit(args.max_nodes).time_limit(time_limit);
    Ok(Setup {
        pos,
        solver,
        file,
        still_reading,
    })
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

/// A number of seconds as a person wrote it: `0.2`, `10`, and in exponent form where the
/// plain form is long (`1e-300`, which `{}` writes with 300 digits).
fn seconds_text(s: f64) -> String {
    let plain = s.to_string();
    if plain.len() <= 16 {
        plain
    } else {
        format!("{s:e}")
    }
}

/// Why a result is only a pair of bounds: the limit that stopped it, with the figure reached.
fn stopped_by(args: &SolveArgs, nodes: u64, seconds: f64) -> String {
    match (args.max_seconds, args.max_nodes) {
        (Some(s), _) if seconds >= s => {
            let s = seconds_text(s);
            format!("ran out of time: --max-seconds {s} reached after {seconds:.1} s")
        }
        (_, Some(n)) if nodes >= n => {
            format!(
                "ran out of nodes: --max-nodes {n} reached after {}",
                mancala_core::words::count(nodes, "node", "nodes")
            )
        }
        _ => "stopped by a limit".to_string(),
    }
}

/// Runs `mancala solve`: value, final score, best moves, principal variation, nodes, seconds.
///
/// # Errors
/// A message for a bad rule set, position or database, or a solver error.
pub fn run_solve(args: &SolveArgs) -> Result<(), String> {
    run(args, false)
}

/// Runs `mancala analyse`: the value of every legal move.
///
/// # Errors
/// As [`run_solve`].
pub fn run_analyse(args: &SolveArgs) -> Result<(), String> {
    run(args, true)
}

/// What `solve` (`analyse` false) and `analyse` share: the rule set (Oware's solve goes its
/// own way), the setup, the search with its progress, the answer, then the database reading.
fn run(args: &SolveArgs, analyse: bool) -> Result<(), String> {
    let started = Instant::now();
    crate::ranges::warn_if_oversubscribed(args.threads);
    let rules = match exact_rules(&args.rules, "solve and analyse are")? {
        ExactRules::Oware(rules) => return crate::awari::run(args, rules, analyse),
        ExactRules::Kalah(rules) => rules,
    };
    let Setup {
        pos,
        mut solver,
        file,
        still_reading,
    } = setup(args, rules, started)?;
    if analyse {
        let mut a = with_progress(
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
        // The whole command's time, the database's reading included.
        a.seconds = started.elapsed().as_secs_f64();
        print_analysis(args, &pos, &a);
    } else {
        let mut s = with_progress(
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
        // The whole command's time, the database's reading included.
        s.seconds = started.elapsed().as_secs_f64();
        if args.json {
            println!("{}", s.to_json(&pos, file.as_deref()));
        } else {
            print!(
                "{}",
                s.to_text(&pos, file.as_deref(), &stopped_by(args, s.nodes, s.seconds))
            );
        }
    }
    // Once the answer is out, as `bestmove` does: a reading that ended with an error before it
    // was given up is named (none is read again: the limit covers the whole command).
    if let Some(reading) = still_reading {
        reading.warn_if_refused();
    }
    Ok(())
}

/// Prints `analyse`'s answer: JSON under `--json`, else one line a move.
fn print_analysis(args: &SolveArgs, pos: &KalahPosition, a: &mancala_solver::Analysis) {
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
        return;
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
}
