//! `mancala match`: a match between two players — the engine at a level in this process, a
//! random mover, or an external program speaking the line protocol — under any rule set,
//! one line per game and a summary. The match itself is `mancala_bench::matches`.

use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use clap::Args;
use mancala_bench::grade::{Budget, EnginePlayer, Player};
use mancala_bench::matches::{self, MatchGame, MatchSettings, RandomPlayer, Seat, Tally};
use mancala_core::{with_game, words, AnyGame, Game, HistoryEnd, Rules};
use mancala_solver::engine::{Evaluate, Level};
use serde_json::{json, Value};

/// Arguments of `mancala match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Player A: `random`; `LEVEL` or `LEVEL@MS` (the engine in this process at level 1..=10,
    /// MS milliseconds a move, default --time-ms); or `cmd:PROGRAM ARGS…` (an external program
    /// speaking the line protocol, started once and reused; words split at spaces, quotes
    /// ' or " group them).
    #[arg(long, value_name = "SPEC")]
    a: String,
    /// Player B, as --a.
    #[arg(long, value_name = "SPEC")]
    b: String,
    /// The rule set, of any game (`standard`, `kalah(4,3)`, `oware`, `bao-la-kete`,
    /// `togyz-kumalak+move_limit=1000`, …).
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Games to play (1 or more); each opening is played twice, sides exchanged.
    #[arg(long, default_value_t = 2, value_parser = crate::ranges::positive_u32())]
    games: u32,
    #[command(flatten)]
    budget: crate::grade::BudgetArgs,
    /// Random plies of each opening (the same opening for both games of a pair; each ply a
    /// random move that leaves the game on, fewer plies when every move would end it).
    #[arg(long, default_value_t = 0, value_parser = crate::ranges::any_u32())]
    opening: u32,
    /// Seed of the openings, of the random movers and of the engine's weaker moves (levels
    /// 1..=4).
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::any_u64())]
    seed: u64,
    /// Print one JSON object at the end (no line per game; every game is kept until then).
    #[arg(long)]
    json: bool,
}

/// A player as the command line names it.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Spec {
    /// A uniformly random mover.
    Random,
    /// The engine in this process at a level, with its own time a move (milliseconds).
    Engine(Level, Option<u64>),
    /// An external program and its arguments.
    Program(Vec<String>),
}

/// The words of `text`, split at spaces and tabs; a quoted stretch (`'…'` or `"…"`) is part
/// of a word, spaces included, without its quotes.
///
/// # Errors
/// A quote left open.
fn words(text: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, ' ' | '\t') => out.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(q) = quote {
        return Err(format!("a quote {q} is left open"));
    }
    out.extend(word);
    Ok(out)
}

/// The player `text` names (the value of `--a` or `--b`, `flag`).
///
/// # Errors
/// One line naming the flag and what is expected.
fn parse_spec(flag: &str, text: &str) -> Result<Spec, String> {
    let shown = mancala_core::Shortened(text);
    if text == "random" {
        return Ok(Spec::Random);
    }
    if let Some(command) = text.strip_prefix("cmd:") {
        let command = words(command).map_err(|e| format!("{flag} {shown}: {e}"))?;
        if command.first().is_none_or(String::is_empty) {
            return Err(format!("{flag} {shown}: no program after `cmd:`"));
        }
        return Ok(Spec::Program(command));
    }
    let (level, ms) = match text.split_once('@') {
        Some((l, ms)) => (l, Some(ms)),
        None => (text, None),
    };
    let expected = "expected `random`, LEVEL or LEVEL@MS (level 1..=10), or `cmd:PROGRAM ARGS…`";
    let level = crate::ranges::level()
        .read(level)
        .map_err(|e| format!("{flag} {shown}: the level: {e}; {expected}"))?;
    let level = Level::new(level).map_err(|e| format!("{flag} {shown}: {e}"))?;
    let ms = match ms {
        None => None,
        Some(ms) => {
            let ms = crate::ranges::time_ms()
                .read(ms)
                .map_err(|e| format!("{flag} {shown}: the milliseconds: {e}"))?;
            if ms == 0 {
                return Err(format!(
                    "{flag} {shown}: a move needs at least 1 ms (use --nodes for a budget that does not depend on the machine)"
                ));
            }
            Some(ms)
        }
    };
    Ok(Spec::Engine(level, ms))
}

/// A word of a program's command line as the summary shows it: as it is, or quoted as Rust
/// writes a string (`"my bot"`, `"a\tb"`) when it is empty or holds white space, a quote or
/// a control character, so that the words stay apart and the line one line.
fn quoted(word: &str) -> String {
    if word.is_empty()
        || word
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '"' || c == '\'')
    {
        format!("{word:?}")
    } else {
        word.to_string()
    }
}

/// How the summary names the player of `spec`.
fn describe(spec: &Spec, time_ms: u128) -> String {
    match spec {
        Spec::Random => "random".to_string(),
        Spec::Engine(level, ms) => format!("level {level} @ {} ms", ms.map_or(time_ms, u128::from)),
        Spec::Program(command) => {
            let words: Vec<String> = command.iter().map(|w| quoted(w)).collect();
            format!("cmd: {}", words.join(" "))
        }
    }
}

/// The player `spec` names, for seat `seat`, with its budget: an external program is started
/// now and told the rule set `rules`.
fn player<G: Evaluate>(
    args: &MatchArgs,
    spec: &Spec,
    seat: Seat,
    rules: &str,
) -> Result<(Box<dyn Player<G>>, Budget), String> {
    let mut budget = args.budget.budget();
    let seed = args.seed.wrapping_add(seat.index() as u64 + 1);
    let player: Box<dyn Player<G>> = match spec {
        Spec::Random => Box::new(RandomPlayer::new(seed)),
        Spec::Engine(level, ms) => {
            if let Some(ms) = ms {
                budget.time = Duration::from_millis(*ms);
            }
            Box::new(EnginePlayer::new(*level, args.seed))
        }
        Spec::Program(command) => {
            let who = format!(
                "player {seat} ({})",
                mancala_core::ShortenedPath(std::path::Path::new(&command.join(" ")))
            );
            Box::new(
                crate::grade::start_program(command.clone(), rules, &who, "played")
                    .map_err(|e| format!("{who}: {e}"))?,
            )
        }
    };
    Ok((player, budget))
}

/// The result of `game` in words: who won, or a draw.
fn result_text<G: Game>(game: &MatchGame<G>) -> &'static str {
    match game.a_result() {
        1 => "A wins",
        -1 => "B wins",
        _ => "draw",
    }
}

fn ended_text(end: HistoryEnd) -> &'static str {
    match end {
        HistoryEnd::Repetition => "repetition",
        HistoryEnd::MoveLimit => "move limit",
    }
}

/// The moves of `game` in notation, separated by spaces (`mancala replay --moves` reads them).
fn move_list<G: Game>(game: &MatchGame<G>) -> Vec<String> {
    game.record
        .moves()
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// One game's line.
fn game_line<G: Game>(game: &MatchGame<G>) -> String {
    let how = match (&game.forfeit, game.a_score(), game.record.ended_by()) {
        (Some((seat, verdict)), _, _) => format!("{seat} forfeits: {verdict}"),
        (None, Some(score), Some(end)) => format!("{score:+} for A, ended by {}", ended_text(end)),
        (None, Some(score), None) => format!("{score:+} for A"),
        (None, None, _) => "no score".to_string(),
    };
    let moves = move_list(game);
    // A's side at the end; after a pie-rule swap it is not the side A started on.
    let swapped = if game.record.swapped() {
        " after the swap"
    } else {
        ""
    };
    format!(
        "game {}: A {}{swapped}, {} ({how}); {} (opening {}){}{}",
        game.number,
        game.a_side(),
        result_text(game),
        words::count(moves.len(), "ply", "plies"),
        game.opening_plies,
        if moves.is_empty() { "" } else { ": " },
        moves.join(" ")
    )
}

fn game_json<G: Game>(game: &MatchGame<G>) -> Value {
    json!({
        "game": game.number,
        "a_first": game.a_first,
        "a_side": game.a_side().to_string(),
        "result": result_text(game),
        "a_result": game.a_result(),
        "score": game.score(),
        "a_score": game.a_score(),
        "forfeit": game.forfeit.as_ref().map(|(seat, verdict)| json!({
            "player": seat.to_string(),
            "reason": verdict.to_string(),
        })),
        "ended_by": game.record.ended_by().map(ended_text),
        "opening_plies": game.opening_plies,
        "plies": game.record.plies(),
        "moves": move_list(game),
        "final": game.record.position().to_string(),
    })
}

/// What the summary says of the match: the players, the settings and the tally so far.
struct Summary {
    names: [String; 2],
    rules: String,
    games_asked: u32,
    opening: u32,
    seed: u64,
    tally: Tally,
    games: Vec<Value>,
    json: bool,
}

impl Summary {
    /// Prints the summary (`interrupted`: the match was stopped before its last game).
    fn print(&self, interrupted: bool) {
        let t = &self.tally;
        let stats = |s: &matches::MoveStats| {
            json!({
                "moves": s.moves,
                "mean_depth": s.mean_depth(),
                "mean_ms": s.mean_seconds().map(|x| x * 1000.0),
                "cpu_moves": s.cpu_moves,
                "mean_cpu_ms": s.mean_cpu_seconds().map(|x| x * 1000.0),
            })
        };
        if self.json {
            let out = json!({
                "a": self.names[0],
                "b": self.names[1],
                "rules": self.rules,
                "games": t.games,
                "games_asked": self.games_asked,
                "opening": self.opening,
                "seed": self.seed,
                "interrupted": interrupted,
                "a_wins": t.a_wins,
                "draws": t.draws,
                "a_losses": t.a_losses,
                "forfeits": {"a": t.forfeits[0], "b": t.forfeits[1]},
                "a_score": t.a_score(),
                "a_interval": t.a_interval().map(|(lo, hi)| [lo, hi]),
                "stats": {"a": stats(&t.stats[0]), "b": stats(&t.stats[1])},
                "results": self.games,
            });
            println!("{out}");
            return;
        }
        println!("A = {}, B = {}", self.names[0], self.names[1]);
        println!(
            "rules {}, {} of {} games{}, opening {} random plies, seed {}",
            self.rules,
            t.games,
            self.games_asked,
            if interrupted { " (interrupted)" } else { "" },
            self.opening,
            self.seed
        );
        let score = match (t.a_score(), t.a_interval()) {
            (Some(score), Some((lo, hi))) => {
                format!("score {score:.3}, 95 % interval [{lo:.2}, {hi:.2}] (Wilson)")
            }
            _ => "no score (no game has ended)".to_string(),
        };
        println!(
            "A: {}, {}, {} (forfeits: A {}, B {}); {score}",
            words::count(t.a_wins, "win", "wins"),
            words::count(t.draws, "draw", "draws"),
            words::count(t.a_losses, "loss", "losses"),
            t.forfeits[0],
            t.forfeits[1],
        );
        for (seat, s) in ["A", "B"].iter().zip(&t.stats) {
            let mut line = format!("{seat}: {}", words::count(s.moves, "move", "moves"));
            if let Some(d) = s.mean_depth() {
                line.push_str(&format!(", mean depth {d:.1}"));
            }
            if let Some(secs) = s.mean_seconds() {
                line.push_str(&format!(", mean time a move {:.1} ms", secs * 1000.0));
            }
            if let Some(secs) = s.mean_cpu_seconds() {
                line.push_str(&format!(", mean CPU time a move {:.1} ms", secs * 1000.0));
                if s.cpu_moves < s.moves {
                    line.push_str(&format!(" (over {} of the moves)", s.cpu_moves));
                }
            }
            println!("{line}");
        }
    }
}

fn lock(summary: &Mutex<Summary>) -> std::sync::MutexGuard<'_, Summary> {
    summary.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Plays the match on game `G` from `start`.
fn run_match<G: Evaluate>(
    args: &MatchArgs,
    start: G,
    specs: [Spec; 2],
    summary: &Arc<Mutex<Summary>>,
) -> Result<(), String> {
    let rules = start.rules().to_string();
    let (mut a, budget_a) = player::<G>(args, &specs[0], Seat::A, &rules)?;
    let (mut b, budget_b) = player::<G>(args, &specs[1], Seat::B, &rules)?;
    let settings = MatchSettings {
        games: args.games,
        opening: args.opening,
        seed: args.seed,
        budgets: [budget_a, budget_b],
    };
    matches::play_match(start, [a.as_mut(), b.as_mut()], &settings, |game, tally| {
        let mut s = lock(summary);
        s.tally = tally.clone();
        // Only `--json` prints the games again at the end: without it nothing is kept, so
        // that a long match's memory does not grow with its games.
        if args.json {
            s.games.push(game_json(game));
        }
        if !args.json {
            println!("{}", game_line(game));
        }
        ControlFlow::Continue(())
    });
    lock(summary).print(false);
    Ok(())
}

/// Runs `mancala match`.
///
/// # Errors
/// One line for a bad player, rule set, or a program that cannot start or does not answer
/// `rules`.
pub fn run(args: &MatchArgs) -> Result<(), String> {
    let specs = [parse_spec("--a", &args.a)?, parse_spec("--b", &args.b)?];
    let time_ms = args.budget.budget().time.as_millis();
    let rules: Rules = args
        .rules
        .parse()
        .map_err(|e| format!("--rules {}: {e}", mancala_core::Shortened(&args.rules)))?;
    let summary = Arc::new(Mutex::new(Summary {
        names: [describe(&specs[0], time_ms), describe(&specs[1], time_ms)],
        rules: rules.to_string(),
        games_asked: args.games,
        opening: args.opening,
        seed: args.seed,
        tally: Tally::default(),
        games: Vec::new(),
        json: args.json,
    }));
    // Ctrl-C (or SIGTERM, SIGHUP) prints the summary of the games finished so far.
    let on_signal = Arc::clone(&summary);
    crate::interrupt::on_interrupt(move || lock(&on_signal).print(true));
    let game = AnyGame::new(rules);
    let [a, b] = specs;
    with_game!(game, g => run_match(args, *g.position(), [a, b], &summary))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_split_at_spaces_and_grouped_by_quotes() {
        let w = |t: &str| words(t).unwrap();
        assert_eq!(w(" a  b\tc "), ["a", "b", "c"]);
        assert_eq!(
            w("prog --rules 'kalah(4,3)' \"x y\" ''"),
            ["prog", "--rules", "kalah(4,3)", "x y", ""]
        );
        assert_eq!(w("a'b c'd"), ["ab cd"]);
        assert!(words("a 'b").is_err());
    }

    /// The summary's name of a program keeps its words apart and on one line.
    #[test]
    fn a_program_is_named_word_by_word() {
        let spec = Spec::Program(vec![
            "my bot".into(),
            "a\tb".into(),
            String::new(),
            "-x".into(),
        ]);
        assert_eq!(describe(&spec, 100), r#"cmd: "my bot" "a\tb" "" -x"#);
    }

    #[test]
    fn specs_are_read_or_refused_in_one_line() {
        assert_eq!(parse_spec("--a", "random"), Ok(Spec::Random));
        let l5 = Level::new(5).unwrap();
        assert_eq!(parse_spec("--a", "5"), Ok(Spec::Engine(l5, None)));
        assert_eq!(parse_spec("--a", "5@250"), Ok(Spec::Engine(l5, Some(250))));
        assert_eq!(
            parse_spec("--b", "cmd:mancala agent line --level 5"),
            Ok(Spec::Program(vec![
                "mancala".into(),
                "agent".into(),
                "line".into(),
                "--level".into(),
                "5".into()
            ]))
        );
        for bad in [
            "11", "0@100", "5@0", "5@x", "cmd:", "cmd:  ", "randon", "cmd:a 'b", "cmd:''",
            "cmd:'' x",
        ] {
            let e = parse_spec("--a", bad).unwrap_err();
            assert!(e.starts_with("--a "), "{e}");
            assert!(!e.contains('\n'), "{e}");
        }
    }
}
