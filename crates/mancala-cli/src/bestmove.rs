//! `mancala bestmove`: the engine's move in a position under a time budget.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use mancala_core::{parse_moves, GameRecord};
use mancala_solver::engine::{
    Choice, Engine, EngineError, Evaluate, Level, LevelPlayer, Limits, SEED, WIN,
};

use crate::rules_arg::{parse_rules, with_position, GameCommand, GameRules};

/// Arguments of `mancala bestmove`.
#[derive(Debug, Args)]
pub struct BestmoveArgs {
    /// The rule set.
    #[arg(long, default_value = "standard")]
    rules: String,
    /// The position (default: the start position of the rule set).
    #[arg(long)]
    position: Option<String>,
    /// The moves played from the position (or the start), in the game's move notation,
    /// separated by commas or spaces (`"3 1 6"`); the engine searches the position they lead
    /// to and sees the game's history (Oware: the repetition rule, OW-6.2, and the move
    /// limit, OW-6.4).
    #[arg(long)]
    moves: Option<String>,
    /// Time budget in milliseconds, at most 86400000 (one day; 0: no time limit). Needed
    /// unless --nodes is given.
    #[arg(long, value_parser = crate::ranges::time_ms(), required_unless_present = "nodes")]
    time_ms: Option<u64>,
    /// Strength level 1..=10 (10: strongest, depth limited by time only).
    #[arg(long, default_value_t = 10, value_parser = crate::ranges::level())]
    level: u32,
    /// Node budget (positions visited), alone or beside the time budget (0: no node limit).
    #[arg(long, value_parser = crate::ranges::any_u64())]
    nodes: Option<u64>,
    /// Seed of the weaker-move choices of levels 1..=4.
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::any_u64())]
    seed: u64,
    /// Transposition-table size in MiB (1..=4096).
    #[arg(long, default_value_t = 16, value_parser = crate::ranges::engine_tt_mb())]
    tt_mb: usize,
    /// Kalah endgame database: a file, or a folder searched for the largest database serving
    /// the rules (as `mancala solve --egdb`). Positions it holds are valued exactly during
    /// the search. Without it (Kalah), the cached database is used when it is there
    /// (`mancala egdb build --rules R --cache` builds it). With --time-ms, the search waits
    /// at most a quarter of the budget for the database to be read, and goes without it
    /// after that (a note says so and that the file was not checked; the reading stops,
    /// leaving the processors to the search, and the command ends within its budget). A
    /// missing, cut-short or wrong file is refused at once whatever the budget; read in time,
    /// a damaged file is an error (exit status 1).
    #[arg(long)]
    egdb: Option<PathBuf>,
    /// No cached endgame database (none at all unless --egdb); MANCALA_NO_CACHE=1 does the
    /// same.
    #[arg(long, conflicts_with = "egdb")]
    no_cache: bool,
    /// An Oware database file (`mancala egdb build --rules R --max-seeds N --out DIR`), read
    /// whole before the search (outside its time budget), as `mancala agent line
    /// --eval-egdb`: under its own rule set R (and its variants in the repetition rule) its
    /// values are exact; under the other Oware rule sets of six houses a side with R's
    /// grand-slam rule they are the engine's evaluation of the positions it holds (at most N
    /// seeds in the houses), not taken as exact. For Abapa (`oware`, `oware+repetition=2`)
    /// give the database of `oware+majority=off+cycle_score=split`. A database of another
    /// grand-slam rule or board size, or a game other than Oware, is refused.
    #[arg(long, conflicts_with = "egdb")]
    eval_egdb: Option<PathBuf>,
    /// Print one JSON object: {"move", "search_move", "weaker", "score", "score_seeds",
    /// "win_in", "depth", "pv", "nodes", "exact", "time_ms", "level", "position", "rules"}.
    /// `score` is for the player to move: in hundredths of a seed for Kalah (final store
    /// difference) and Oware (seeds taken), `score_seeds` the same in seeds; for Bao la Kete,
    /// which is won or lost, in the heuristic's units (`score_seeds` null), or ±1000000 less
    /// the plies to a forced win or loss; `win_in` is the number of plies to a forced win
    /// (positive) or loss (negative), or null.
    #[arg(long)]
    json: bool,
}

impl BestmoveArgs {
    /// The refusal of options that cannot go together, a usage error (exit status 2): level
    /// 10 has no depth limit, so it needs a budget, and budgets of 0 mean no limit. The
    /// words are the library's for the same request (Python's `Engine.search`, the C API).
    pub fn usage_error(&self) -> Option<String> {
        let unbounded = self.time_ms.unwrap_or(0) == 0 && self.nodes.unwrap_or(0) == 0;
        let deep = Level::new(self.level).is_ok_and(|l| l.max_depth().is_none());
        (deep && unbounded)
            .then(|| "level 10 needs a budget: give --time-ms or --nodes above 0".to_string())
    }
}

/// Searches and prints the move with its search report.
pub fn run(args: &BestmoveArgs) -> Result<(), String> {
    let level = Level::new(args.level).map_err(|e| format!("--level {}: {e}", args.level))?;
    let time_ms = args.time_ms.unwrap_or(0);
    let nodes = args.nodes.filter(|&n| n > 0);
    // Budgets of 0 mean no limit, as in the C API; level 10 has no depth limit, so it needs
    // one of them (refused before: `usage_error`).
    let mut limits = match level.max_depth() {
        Some(depth) => Limits::default().with_depth(depth),
        None => Limits::default(),
    };
    if time_ms > 0 {
        limits = limits.with_time(Duration::from_millis(time_ms));
    }
    limits.nodes = nodes;
    let rules = parse_rules(&args.rules)?;
    with_position(
        rules,
        args.position.as_deref(),
        Search {
            args,
            level,
            limits,
        },
    )
}

/// The search of `bestmove` on a position of any game.
struct Search<'a> {
    args: &'a BestmoveArgs,
    level: Level,
    limits: Limits,
}

impl GameCommand for Search<'_> {
    type Output = ();

    fn run<G: Evaluate>(self, rules: GameRules, start: G) -> Result<(), String> {
        let Search {
            args,
            level,
            mut limits,
        } = self;
        let game = match args.moves.as_deref() {
            None => GameRecord::from_position(start),
            Some(text) => {
                let moves = parse_moves::<G>(text).map_err(|e| format!("--moves {text}: {e}"))?;
                GameRecord::replay(start, &moves).map_err(|e| format!("--moves {text}: {e}"))?
            }
        };
        let p = *game.position();
        // The database after the position is read, so a bad position is refused at once. It
        // is read on a thread of its own; with a time budget the search waits for it at most
        // a quarter of the budget, out of the search's time (a budget is kept), and goes
        // without it after that. A missing cached database is never built here.
        // The database of `--eval-egdb` is read whole first, outside the budget.
        let mut engine = Engine::with_tt_bytes(args.tt_mb << 20);
        if let Some(path) = args.eval_egdb.as_deref() {
            crate::line::use_eval_egdb(&mut engine, &p.rules(), path)?;
        }
        let started = Instant::now();
        let (db, still_reading) = crate::database::read_within::<G::Database>(
            p.rules(),
            args.egdb.clone(),
            // `--eval-egdb` is the Oware database: no cached one beside it.
            args.no_cache || args.eval_egdb.is_some(),
            false,
            true,
            limits.time.map(|budget| budget / 4),
        )?;
        let db = db.map(|(db, _)| db);
        if let Some(t) = limits.time {
            limits.time = Some(
                t.saturating_sub(started.elapsed())
                    .max(Duration::from_millis(1)),
            );
        }
        if args.eval_egdb.is_none() {
            engine.set_database(db);
        }
        let mut player: LevelPlayer<G> = LevelPlayer::with_engine(engine, level, args.seed);
        let budget = args.time_ms.unwrap_or(0);
        let spinner = (budget >= 1000)
            .then(|| crate::progress::spinner(format!("searching, budget {budget} ms")))
            .flatten();
        let c = player.choose_game(&game, limits);
        if let Some(b) = spinner {
            b.finish_and_clear();
        }
        let c = c.map_err(|e| match e {
            EngineError::OutOfMemory(_) => format!("--tt-mb {}: {e}", args.tt_mb),
            // After `--moves`, the position searched is the one they lead to.
            _ => match args.moves.as_deref() {
                Some(moves) => crate::rules_arg::position_error("--moves", moves, e),
                None => crate::rules_arg::position_error(
                    "--position",
                    args.position.as_deref().unwrap_or("(start)"),
                    e,
                ),
            },
        })?;
        print_choice(
            args,
            &rules.to_string(),
            &p.to_string(),
            &c,
            G::SCORED_IN_SEEDS,
        );
        // The move is out: a reading that ended with an error before it was given up is
        // named now (one not read in time is not read again: the budget is the command's).
        if let Some(reading) = still_reading {
            reading.warn_if_refused();
        }
        Ok(())
    }
}

/// Prints the choice `c`; `in_seeds`: whether the game is scored in seeds (Kalah, Oware), so
/// that the score is shown in seeds; else (Bao la Kete, won or lost) in the heuristic's units.
fn print_choice<M: std::fmt::Display>(
    args: &BestmoveArgs,
    rules: &str,
    position: &str,
    c: &Choice<M>,
    in_seeds: bool,
) {
    let s = &c.search;
    let pv: Vec<String> = s.pv.iter().map(ToString::to_string).collect();
    let score_seeds = f64::from(s.score) / f64::from(SEED);
    let win_in = s
        .is_decisive()
        .then(|| s.score.signum() * (WIN - s.score.abs()));
    let ms = s.elapsed.as_secs_f64() * 1000.0;
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "rules": rules,
                "position": position,
                "level": args.level,
                "move": c.mv.to_string(),
                "search_move": s.best_move.to_string(),
                "weaker": c.weaker,
                "score": s.score,
                "score_seeds": if win_in.is_some() || !in_seeds { None } else { Some(score_seeds) },
                "win_in": win_in,
                "depth": s.depth,
                "pv": pv,
                "nodes": s.nodes,
                "exact": s.exact,
                "time_ms": ms,
            })
        );
    } else {
        println!("bestmove {}", c.mv);
        if c.weaker {
            println!(
                "(level {}: a weaker move; the search chose {})",
                args.level, s.best_move
            );
        }
        let score = match win_in {
            Some(n) if n > 0 => format!(
                "forced win in {}",
                mancala_core::words::count(n, "ply", "plies")
            ),
            Some(n) => format!(
                "forced loss in {}",
                mancala_core::words::count(-n, "ply", "plies")
            ),
            None if in_seeds => format!(
                "{score_seeds:+.2} seeds ({})",
                if s.exact { "exact" } else { "estimate" }
            ),
            // Bao la Kete is won or lost, not scored in seeds: the heuristic's own units.
            None => format!("{:+} (the heuristic's estimate)", s.score),
        };
        println!(
            "score {score}, depth {}, nodes {}, {ms:.0} ms",
            s.depth, s.nodes
        );
        println!("pv {}", pv.join(" "));
    }
}
