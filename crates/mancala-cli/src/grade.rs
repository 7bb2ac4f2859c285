//! `mancala grade`: a player (the engine at a level, or an external program speaking the line
//! protocol) scored against the exact values of every move on a set of Kalah positions (the
//! exact solver) or of Oware positions (an Oware database: the one of the rule set, or for
//! `oware` and the other rule sets with a majority end or own-row cycles, the one of their
//! neighbour without them, with a caveat in the report), or
//! played against the exact solver from each Kalah position (`--games`). The grading itself
//! is `mancala_bench::grade`.

use mancala_core::ShortenedPath;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use mancala_bench::grade::{
    self, Budget, EnginePlayer, ExternalPlayer, GameGrade, GradeReport, MoveGrade, Player, Valued,
};
use mancala_bench::GenerateParams;
use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_core::oware::{OwarePosition, OwareRules};
use mancala_core::Game;
use mancala_solver::awari::DEFAULT_MAX_SEEDS;
use mancala_solver::egdb::Build;
use mancala_solver::engine::{Evaluate, Level};
use mancala_solver::{Egdb, Solver};
use serde_json::{json, Value};

/// Arguments of `mancala grade`.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// The set: `midgame64` (the committed Kalah(6,4) mid-game file of `mancala bench`).
    #[arg(long, default_value = "midgame64", conflicts_with_all = ["file", "generate"])]
    set: String,
    /// A positions file of `mancala bench` (`# rules: RULES`, then `position value` lines;
    /// the values of every move are computed again by the solver, and a position's value
    /// that is not its exact value is refused).
    #[arg(long, value_name = "FILE", conflicts_with = "generate")]
    file: Option<PathBuf>,
    /// Generate the set by random play under --rules (as `mancala bench --generate`, with
    /// --seed, --count, --min-seeds, --max-seeds).
    #[arg(long)]
    generate: bool,
    /// Rule set of the generated positions: any Kalah rule set (e.g. `kalah(4,3)`,
    /// `kalah(6,6)+empty_capture`), or an Oware rule set of six houses a side: `awari` and
    /// the others an Oware database holds are valued exactly; `oware` and the other rule sets
    /// with a majority end, own-row cycles or a move limit are valued by the database of
    /// their neighbour without them (`oware+majority=off+cycle_score=split` for `oware`), and
    /// the report says so.
    /// Without --generate it may name the rule set of --file (refused when the file's
    /// `# rules:` line names another).
    #[arg(long)]
    rules: Option<String>,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1, requires = "generate", value_parser = crate::ranges::any_u64())]
    seed: u64,
    /// Positions to generate (1..=100000).
    #[arg(long, default_value_t = 100, requires = "generate", value_parser = crate::ranges::generated_count())]
    count: usize,
    /// Fewest seeds in the houses aimed at by the generator.
    #[arg(long, default_value_t = 4, requires = "generate", value_parser = crate::ranges::any_u32())]
    min_seeds: u32,
    /// Most seeds in the houses of a generated position (default 16). Under `awari` also the
    /// database's N, its largest level: the cached `awari.n<N>.egdb` (built on first use),
    /// or with --no-cache levels 0..=N built in memory; default the file's N with --egdb,
    /// else 18.
    #[arg(long, value_parser = crate::ranges::any_u32())]
    max_seeds: Option<u32>,
    /// Grade only the first N positions of the set (1 or more).
    #[arg(long, value_parser = crate::ranges::positive_usize())]
    take: Option<usize>,
    /// The player: the engine at this level (1..=10), in this process. Without it, the
    /// player is the program after `--`.
    #[arg(long, value_parser = crate::ranges::level())]
    level: Option<u32>,
    /// Seed of the engine's weaker moves (levels 1..=4).
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::any_u64())]
    engine_seed: u64,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Play whole games against the exact solver from each position of the set (the player
    /// moves first) and report the seeds given away move by move (Kalah sets only).
    #[arg(long)]
    games: bool,
    /// Positions listed as the worst.
    #[arg(long, default_value_t = 5, value_parser = crate::ranges::any_usize())]
    worst: usize,
    /// Width of the groups of the loss by seeds on the board, seeds (1 or more).
    #[arg(long, default_value_t = 4, value_parser = crate::ranges::positive_u32())]
    bucket: u32,
    /// Solver threads (0 = every core; at most 1024; more than the processors is warned about).
    #[arg(long, default_value_t = 0, value_parser = crate::ranges::threads_or_all())]
    threads: usize,
    /// Solver transposition table, MiB.
    #[arg(long, default_value_t = 256, value_parser = crate::ranges::solver_tt_mb())]
    tt_mb: usize,
    /// Endgame database of the solver, as `mancala solve --egdb` (without it, the cached one,
    /// built on first use); under `awari` the Awari database file (or a folder: its Awari
    /// file of the largest N), as `mancala solve --rules awari --egdb`.
    #[arg(long)]
    egdb: Option<PathBuf>,
    /// No cached endgame database (under `awari`: levels 0..=--max-seeds built in memory for
    /// this run).
    #[arg(long, conflicts_with = "egdb")]
    no_cache: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// The external program and its arguments (after `--`), speaking the line protocol
    /// (docs/line-protocol.md), e.g. `-- mancala agent line --level 5`.
    #[arg(last = true, value_name = "PROGRAM")]
    program: Vec<String>,
}

/// The budget of a move, `--time-ms`, `--grace-ms` and `--nodes` (`mancala grade`,
/// `mancala match`).
#[derive(Debug, Args)]
pub struct BudgetArgs {
    /// Time of each move, milliseconds, 1 to 86400000 (one day; 0 is refused: a move needs
    /// time) (the engine's budget; an external program is sent `go time MS`).
    #[arg(long, default_value_t = 1000, value_parser = crate::ranges::positive_time_ms())]
    time_ms: u64,
    /// Wall time allowed past --time-ms before an answer counts as timed out, milliseconds,
    /// at most 86400000 (one day; 0: none, the answer is due at --time-ms).
    #[arg(long, default_value_t = 500, value_parser = crate::ranges::time_ms())]
    grace_ms: u64,
    /// Node budget of each move (the engine's; `go … nodes N` for a program). With it the
    /// engine's moves do not depend on the machine's speed (0: the engine answers from its
    /// search's first iteration, one ply deep, unlike `bestmove --nodes 0`, which means no
    /// limit; a program is sent `nodes 0`).
    #[arg(long, value_parser = crate::ranges::any_u64())]
    nodes: Option<u64>,
}

impl BudgetArgs {
    /// The budget the options give (`--time-ms` is at least 1: its value parser).
    pub fn budget(&self) -> Budget {
        Budget {
            time: Duration::from_millis(self.time_ms),
            grace: Duration::from_millis(self.grace_ms),
            nodes: self.nodes,
        }
    }
}

/// The 1-based line number and the value (seeds) of each position of a positions file.
type FileValues = Vec<(usize, i32)>;

/// The positions of the set, and for a file the line number and value of each of its
/// positions (empty for another set).
fn positions(
    args: &GradeArgs,
    file: Option<&str>,
    solver: &mut Solver,
) -> Result<(Vec<KalahPosition>, FileValues), String> {
    let mut file_values = Vec::new();
    let ps: Vec<KalahPosition> = if args.generate {
        let rules: KalahRules = crate::rules_arg::kalah_only(generated_rules(args), "grade is")?;
        let params = GenerateParams {
            rules,
            seed: args.seed,
            count: args.count,
            min_seeds: args.min_seeds,
            max_seeds: args.max_seeds.unwrap_or(16),
        };
        let text = mancala_bench::generate_midgame(&params, solver, |_, _| {})
            .map_err(|e| e.to_string())?;
        let (_, ps) = mancala_bench::parse_positions(&text).map_err(|e| e.to_string())?;
        ps.into_iter().map(|p| p.position).collect()
    } else if let (Some(f), Some(text)) = (&args.file, file) {
        let (_, ps) = mancala_bench::parse_positions_at(text)
            .map_err(|e| format!("{}: {e}", ShortenedPath(f)))?;
        file_values = ps.iter().map(|(line, p)| (*line, p.value)).collect();
        ps.into_iter().map(|(_, p)| p.position).collect()
    } else {
        match args.set.as_str() {
            "midgame64" => mancala_bench::set("midgame64")
                .map_err(|e| e.to_string())?
                .positions
                .into_iter()
                .map(|p| p.position)
                .collect(),
            other => {
                return Err(format!(
                    "--set {other}: no such grading set (midgame64; or --file, --generate)"
                ))
            }
        }
    };
    Ok((take(args, ps)?, file_values))
}

/// The first `--take` positions; an empty set refused.
fn take<G>(args: &GradeArgs, mut ps: Vec<G>) -> Result<Vec<G>, String> {
    if let Some(n) = args.take {
        ps.truncate(n);
    }
    if ps.is_empty() {
        return Err("the set has no position".into());
    }
    Ok(ps)
}

/// The solver with its database for `rules`.
fn solver(args: &GradeArgs, rules: &KalahRules) -> Result<Solver, String> {
    let mut s = Solver::new().tt_bytes(args.tt_mb << 20);
    if args.threads > 0 {
        s = s.threads(args.threads);
    }
    let choice = crate::database::Choice::kalah(
        args.egdb.as_deref(),
        args.no_cache,
        args.threads,
        Build::Cache,
    );
    if let Some((db, _)) = crate::database::choose_for::<Egdb>(rules, &choice)? {
        s = s.database(db);
    }
    Ok(s)
}

fn move_json<G: Game>(g: &MoveGrade<G>) -> Value {
    json!({
        "index": g.index,
        "position": g.valued.position.to_string(),
        "seeds": g.valued.seeds,
        "move": g.chosen.map(|m| m.to_string()),
        "verdict": g.verdict.to_string(),
        "failed": g.verdict.failed(),
        "loss": g.loss,
        "best": g.valued.best(),
        "best_moves": g.valued.best_moves().iter().map(ToString::to_string).collect::<Vec<_>>(),
        "values": g.valued.moves.iter().map(|(m, v)| json!([m.to_string(), v])).collect::<Vec<_>>(),
        "seconds": g.seconds,
    })
}

fn report_json<G: Game>(r: &GradeReport<G>, rules: &str, worst: usize, bucket: u32) -> Value {
    json!({
        "player": r.player,
        "rules": rules,
        "rules_refused": r.rules_refused,
        "positions": r.positions(),
        "optimal": r.optimal_share(),
        "mean_loss": r.mean_loss(),
        "worst_loss": r.worst_loss(),
        "total_loss": r.total_loss(),
        "failures": r.failures().map(move_json).collect::<Vec<_>>(),
        "by_seeds": r.by_seeds(bucket).iter().map(|b| json!({
            "min_seeds": b.min_seeds, "max_seeds": b.max_seeds, "positions": b.positions,
            "optimal": b.optimal, "mean_loss": b.mean_loss, "worst_loss": b.worst_loss,
        })).collect::<Vec<_>>(),
        "worst": r.worst(worst).into_iter().map(move_json).collect::<Vec<_>>(),
        "moves": r.moves.iter().map(move_json).collect::<Vec<_>>(),
    })
}

fn print_report<G: Game>(r: &GradeReport<G>, rules: &str, worst: usize, bucket: u32) {
    println!("player     {}", r.player);
    println!("rules      {rules}");
    if let Some(why) = &r.rules_refused {
        println!("           (the program refused `rules {rules}`: {why})");
    }
    println!("positions  {}", r.positions());
    println!("optimal    {:.1} %", 100.0 * r.optimal_share());
    println!("mean loss  {:.3} seeds", r.mean_loss());
    println!(
        "worst loss {}",
        mancala_core::words::count(r.worst_loss(), "seed", "seeds")
    );
    let failures: Vec<_> = r.failures().collect();
    println!(
        "failures   {} (each scored as the worst legal move)",
        failures.len()
    );
    for g in &failures {
        println!(
            "  #{:<4} {}  {}  loss {}",
            g.index, g.valued.position, g.verdict, g.loss
        );
    }
    println!();
    println!("| seeds on board | positions | optimal | mean loss | worst loss |");
    println!("|---|---:|---:|---:|---:|");
    for b in r.by_seeds(bucket) {
        println!(
            "| {}..={} | {} | {:.1} % | {:.3} | {} |",
            b.min_seeds,
            b.max_seeds,
            b.positions,
            100.0 * b.optimal,
            b.mean_loss,
            b.worst_loss
        );
    }
    let w = r.worst(worst);
    if !w.is_empty() {
        println!();
        println!("worst positions:");
        for g in w {
            let chosen = g.chosen.map_or_else(|| "-".to_string(), |m| m.to_string());
            let best: Vec<String> = g
                .valued
                .best_moves()
                .iter()
                .map(ToString::to_string)
                .collect();
            println!(
                "  #{:<4} {}  played {chosen} (loss {}), best {} ({:+})",
                g.index,
                g.valued.position,
                g.loss,
                best.join(" "),
                g.valued.best()
            );
        }
    }
}

fn game_json(g: &GameGrade<KalahPosition>) -> Value {
    json!({
        "opening": g.opening.to_string(),
        "value": g.value,
        "result": g.result,
        "given_away": g.given_away(),
        "line": g.line.iter().map(ToString::to_string).collect::<Vec<_>>(),
        "moves": g.moves.iter().map(move_json).collect::<Vec<_>>(),
    })
}

impl GradeArgs {
    /// The refusal of options that cannot go together, a usage error (exit status 2): a
    /// generator asked for fewer seeds at most than at least.
    pub fn usage_error(&self) -> Option<String> {
        let hi = self
            .max_seeds
            .filter(|&hi| self.generate && self.min_seeds > hi)?;
        Some(format!(
            "--min-seeds {} is more than --max-seeds {hi}",
            self.min_seeds
        ))
    }
}

/// The player the arguments name, for positions of game `G` under the rule set `rules`: an
/// external program is started now (one error when it cannot start) and told the rule set
/// (`rules …`); a refusal is a warning, the program is graded all the same.
fn player<G: Evaluate>(args: &GradeArgs, rules: &str) -> Result<Box<dyn Player<G>>, String> {
    match (args.level, args.program.is_empty()) {
        (Some(l), true) => {
            let level = Level::new(l).map_err(|e| format!("--level {l}: {e}"))?;
            Ok(Box::new(EnginePlayer::new(level, args.engine_seed)))
        }
        (None, false) => Ok(Box::new(start_program(
            args.program.clone(),
            rules,
            "the program",
            "graded",
        )?)),
        (Some(_), false) => Err("give the player once: --level L or a program after `--`".into()),
        (None, true) => {
            Err("no player: --level L (the engine) or `-- PROGRAM ARGS…` (line protocol)".into())
        }
    }
}

/// The external program `command` (its arguments after the first word), started now and told
/// the rule set `rules` (`rules …`), with everything it starts killed if this process is
/// stopped by a signal. A refusal of the rule set is a warning on standard error naming the
/// program as `who`, which is `done` all the same (`graded`, `played`).
///
/// # Errors
/// One line when the program cannot start or does not answer `rules` (before any work).
pub(crate) fn start_program(
    command: Vec<String>,
    rules: &str,
    who: &str,
    done: &str,
) -> Result<ExternalPlayer, String> {
    // Nothing the grader started is left running if it is stopped by a signal.
    crate::interrupt::on_interrupt(grade::kill_programs);
    let mut p = ExternalPlayer::new(command);
    // A program that cannot start, or does not answer, is one error, before any work.
    p.start_now()?;
    if let Some(why) = p.tell_rules(rules)? {
        eprintln!(
            "mancala: warning: {who} refused `rules {rules}` ({why}): it is {done} all the same, and must be given the rule set by its own options"
        );
    }
    Ok(p)
}

/// The rule-set text of the set: `--rules` with `--generate`, the `# rules:` line of
/// `--file` (`None` when it has none: the file's parser says so), `standard` for
/// `midgame64`.
fn rules_text(args: &GradeArgs, file: Option<&str>) -> Result<Option<String>, String> {
    if args.generate {
        return Ok(Some(generated_rules(args).to_string()));
    }
    if let Some(text) = file {
        return Ok(mancala_bench::file_rules(text).map(|(_, r)| r.to_string()));
    }
    Ok(Some("standard".to_string()))
}

/// The rule set of `--generate`: `--rules`, default `standard`.
fn generated_rules(args: &GradeArgs) -> &str {
    args.rules.as_deref().unwrap_or("standard")
}

/// An error about the rule set named by the `# rules:` line of the file `f`: said of that
/// line, not of `--rules` (which was not given).
fn of_file_rules(f: &std::path::Path, e: &str) -> String {
    match e.strip_prefix("--rules ") {
        // An empty line: no rule set to name, the parser's "malformed rule set ``" left out.
        Some(rest) if rest.starts_with(": ") => {
            let why = rest[2..]
                .strip_prefix("malformed rule set ``")
                .unwrap_or(&rest[2..]);
            format!(
                "{}: its `# rules:` line names no rule set{why}",
                ShortenedPath(f)
            )
        }
        Some(rest) => format!(
            "{}: the rule set of its `# rules:` line, {rest}",
            ShortenedPath(f)
        ),
        None => format!("{}: {e}", ShortenedPath(f)),
    }
}

/// Runs `mancala grade`.
///
/// # Errors
/// A message for a bad set, rule set, database, player, or a solver error.
pub fn run(args: &GradeArgs) -> Result<(), String> {
    // The options' ranges and combinations were checked as the command line was parsed.
    crate::ranges::warn_if_oversubscribed(args.threads);
    let in_file = |e: String| match &args.file {
        Some(f) if !args.generate => of_file_rules(f, &e),
        _ => e,
    };
    // The file is read once (it may be a pipe: `--file /dev/stdin`, `--file <(…)`).
    let file = match &args.file {
        Some(f) if !args.generate => {
            Some(std::fs::read_to_string(f).map_err(|e| format!("{}: {e}", ShortenedPath(f)))?)
        }
        _ => None,
    };
    let file = file.as_deref();
    let from_file = rules_text(args, file)?;
    if let (Some(f), Some(given), false) = (&args.file, &args.rules, args.generate) {
        // `--rules` with `--file` only confirms the file's rule set: it never overrides it.
        let same = from_file.as_deref().is_some_and(|t| {
            matches!(
                (t.parse::<mancala_core::Rules>(), given.parse::<mancala_core::Rules>()),
                (Ok(a), Ok(b)) if a == b
            )
        });
        if !same {
            return Err(format!(
                "--rules {}: {} names the rule set {} (its `# rules:` line): give the file's rule set or no --rules",
                mancala_core::Shortened(given),
                ShortenedPath(f),
                from_file.as_deref().map_or_else(|| "(none)".to_string(), |t| mancala_core::Shortened(t).to_string())
            ));
        }
    }
    if let (None, Some(given), false) = (&args.file, &args.rules, args.generate) {
        // The built-in set is of `standard` (Kalah(6,4)): `--rules` may only confirm it.
        let standard = "standard".parse::<mancala_core::Rules>().ok();
        if given.parse::<mancala_core::Rules>().ok() != standard || standard.is_none() {
            return Err(format!(
                "--rules {}: the built-in set is of the rule set standard (Kalah(6,4)); give --generate N for positions of another rule set, or --file",
                mancala_core::Shortened(given)
            ));
        }
    }
    let awari = match from_file {
        Some(t) => oware_grading(&t).map_err(in_file)?,
        None => None,
    };
    match awari {
        Some((rules, valued)) => run_awari(args, rules, valued, file),
        None => run_kalah(args, file),
    }
}

/// The Oware rule set `text` names and the rule set whose database values its positions:
/// itself when an Oware database holds it ([`crate::rules_arg::exact_rules`]); for another
/// Oware rule set of six houses a side (`oware`, `oware-openspiel`, …) its neighbour without
/// the majority end, with cycles split and no move limit
/// (`oware+majority=off+cycle_score=split` for `oware`), whose values are those of the
/// database of the same grand-slam rule and which has the same legal moves in every position
/// not over. `Ok(None)` for a Kalah rule set.
///
/// # Errors
/// The refusal of [`crate::rules_arg::exact_rules`] for an Oware rule set no database comes
/// near (another number of houses), another game, or a text no game accepts.
fn oware_grading(text: &str) -> Result<Option<(OwareRules, OwareRules)>, String> {
    let refused = match crate::rules_arg::exact_rules(text, "grade is") {
        Ok(crate::rules_arg::ExactRules::Oware(r)) => return Ok(Some((r, r))),
        Ok(crate::rules_arg::ExactRules::Kalah(_)) => return Ok(None),
        Err(refused) => refused,
    };
    let Ok(crate::rules_arg::GameRules::Oware(r)) = crate::rules_arg::parse_rules(text) else {
        return Err(refused);
    };
    match grade::oware::valued_rules(r) {
        Some(neighbour) => Ok(Some((r, neighbour))),
        None => Err(refused),
    }
}

/// Grades `player` on `valued` and prints the report (`extra`: fields added to the JSON).
fn grade_and_print<G: Game>(
    args: &GradeArgs,
    player: &mut dyn Player<G>,
    valued: &[Valued<G>],
    rules: &str,
    extra: &[(&str, Value)],
) -> Result<(), String> {
    let bar = crate::progress::bar(valued.len() as u64);
    let report = grade::grade(player, valued, &args.budget.budget(), |_| {
        if let Some(b) = &bar {
            b.inc(1);
        }
        std::ops::ControlFlow::Continue(())
    });
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    if args.json {
        let mut out = report_json(&report, rules, args.worst, args.bucket);
        for (k, v) in extra {
            out[*k] = v.clone();
        }
        println!("{out}");
    } else {
        print_report(&report, rules, args.worst, args.bucket);
        for (k, v) in extra {
            println!(
                "{k:<10} {}",
                v.as_str().map_or_else(|| v.to_string(), str::to_string)
            );
        }
    }
    Ok(())
}

/// `mancala grade` on Oware positions of `rules` (played under `rules`), valued by the Oware
/// database of `valued` ([`oware_grading`]: `rules` itself when a database holds it, else
/// its neighbour without the majority end and with cycles split, which the report then says
/// in a caveat line).
fn run_awari(
    args: &GradeArgs,
    rules: OwareRules,
    valued_rules: OwareRules,
    file: Option<&str>,
) -> Result<(), String> {
    if args.games {
        return Err(
            "--games: whole games are played against the Kalah solver only (an Awari game's repetitions are not in the database's values); grade the positions without --games"
                .into(),
        );
    }
    let rules_text = rules.to_string();
    let mut player = player::<OwarePosition>(args, &rules_text)?;
    let choice = |what, seeds| crate::database::Choice {
        egdb: args.egdb.as_deref(),
        no_cache: args.no_cache,
        max_seeds: args.max_seeds,
        seeds,
        build: Build::Always,
        threads: args.threads,
        verbose: false,
        what,
        cache_asked: false,
        cancel: None,
        note_missing: true,
    };
    let (positions, (db, source)) = if args.generate {
        // The database first: its N bounds the positions generated.
        let asked = if args.egdb.is_some() {
            args.max_seeds.unwrap_or(0)
        } else {
            args.max_seeds.unwrap_or(DEFAULT_MAX_SEEDS)
        };
        let (db, source) = crate::awari::database(
            &valued_rules,
            &choice("the set asks for positions of", asked),
        )?;
        let hi = args.max_seeds.unwrap_or(db.max_seeds());
        if args.min_seeds > hi {
            return Err(format!(
                "--min-seeds {} is more than the {} of the database's largest level",
                args.min_seeds,
                mancala_core::words::count(hi, "seed", "seeds")
            ));
        }
        let ps = mancala_bench::generate_oware(
            rules,
            args.seed,
            args.count,
            args.min_seeds,
            hi,
            &mut || std::ops::ControlFlow::Continue(()),
        )
        .map_err(|e| e.to_string())?;
        (take(args, ps)?, (db, source))
    } else {
        let f = args
            .file
            .as_ref()
            .ok_or("an awari set is generated or read from --file")?;
        let text = file.ok_or("an awari set is generated or read from --file")?;
        let (_, ps) = mancala_bench::parse_oware_positions(text)
            .map_err(|e| format!("{}: {e}", ShortenedPath(f)))?;
        let ps = take(args, ps)?;
        let seeds = ps
            .iter()
            .map(OwarePosition::seeds_in_houses)
            .max()
            .unwrap_or(0);
        let db =
            crate::awari::database(&valued_rules, &choice("the set has a position with", seeds))?;
        (ps, db)
    };
    // Positions over under `rules` (the majority reached) have no move to grade and are
    // left out when the values are the neighbour's.
    let valued = grade::oware::value_positions(&positions, valued_rules, &*db, |_| {})
        .map_err(|e| e.to_string())?;
    let source = crate::awari::source_text(&source, db.max_seeds());
    let mut extra = vec![("database", json!(source))];
    if let Some(caveat) = grade::oware::caveat(rules, valued_rules) {
        extra.push(("caveat", json!(caveat)));
    }
    grade_and_print(args, player.as_mut(), &valued, &rules_text, &extra)
}

/// `mancala grade` on Kalah positions, valued by the exact solver.
fn run_kalah(args: &GradeArgs, file: Option<&str>) -> Result<(), String> {
    if !args.generate && args.max_seeds.is_some() {
        return Err("--max-seeds: for --generate, or for an awari set (the database's N)".into());
    }
    let rules = if args.generate {
        crate::rules_arg::kalah_only(generated_rules(args), "grade is")?
    } else if let (Some(f), Some(text)) = (&args.file, file) {
        if let Some((_, r)) = mancala_bench::file_rules(text) {
            crate::rules_arg::kalah_only(r, "grade is").map_err(|e| of_file_rules(f, &e))?;
        }
        mancala_bench::parse_positions(text)
            .map_err(|e| format!("{}: {e}", ShortenedPath(f)))?
            .0
    } else {
        "standard".parse().expect("standard parses")
    };
    let rules_text = rules.to_string();
    let mut player = player::<KalahPosition>(args, &rules_text)?;
    let mut solver = solver(args, &rules)?;
    let (positions, file_values) = positions(args, file, &mut solver)?;
    let budget = args.budget.budget();
    // Each position is valued once, for the check of a file's values and for the grade or
    // the games that follow.
    let valued: Vec<Valued<KalahPosition>> =
        grade::value_set(&positions, &solver, |_| {}).map_err(|e| e.to_string())?;
    // The values of a file are its positions' exact values: one that disagrees is refused
    // before any move is asked for (a file with wrong values is a wrong file).
    grade::check_values(&valued, &file_values).map_err(|e| match &args.file {
        Some(f) => format!("{}: {e}", ShortenedPath(f)),
        None => e.to_string(),
    })?;
    if args.games {
        let bar = crate::progress::bar(valued.len() as u64);
        let games = grade::play_games(player.as_mut(), &valued, &solver, &budget, |_, _| {
            if let Some(b) = &bar {
                b.inc(1);
            }
        })
        .map_err(|e| e.to_string())?;
        if let Some(b) = bar {
            b.finish_and_clear();
        }
        let given: i64 = games.iter().map(|g| i64::from(g.given_away())).sum();
        let moves: usize = games.iter().map(|g| g.moves.len()).sum();
        if args.json {
            let out = json!({
                "player": player.name(),
                "rules": rules_text,
                "rules_refused": player.rules_refused(),
                "games": games.len(),
                "moves": moves,
                "given_away": given,
                "results": games.iter().map(game_json).collect::<Vec<_>>(),
            });
            println!("{out}");
            return Ok(());
        }
        println!("player     {}", player.name());
        println!("rules      {rules_text}");
        println!(
            "games      {} (the player moves first; the solver plays a best move)",
            games.len()
        );
        println!("moves      {moves} of the player");
        println!(
            "given away {} in all",
            mancala_core::words::count(given, "seed", "seeds")
        );
        for (i, g) in games.iter().enumerate() {
            let losses: Vec<String> = g.moves.iter().map(|m| m.loss.to_string()).collect();
            println!(
                "game {i:<4} {}  value {:+}  result {:+}  given away {}  losses by move: {}",
                g.opening,
                g.value,
                g.result,
                g.given_away(),
                losses.join(" ")
            );
            for m in g.moves.iter().filter(|m| m.verdict.failed()) {
                println!(
                    "  failure at ply {}: {}  {}  loss {}",
                    m.index, m.valued.position, m.verdict, m.loss
                );
            }
        }
        return Ok(());
    }
    grade_and_print(args, player.as_mut(), &valued, &rules_text, &[])
}
