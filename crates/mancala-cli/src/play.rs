//! `mancala play`: a game at the terminal, two people, or one person against a random mover
//! or the engine (`--engine --level L`, or `--opponent engine`).
//! Moves are typed at the prompt, in the move notation or (Kalah, Oware) as the board labels
//! the side to move's houses (`S3`, `N2`); an illegal or malformed move (a line that is not
//! valid UTF-8 included) is refused with its reason and the game goes on. `undo` takes back the last move
//! a person made, `quit` leaves. `--level` must be 1..=10 whoever the opponent is; `--egdb`
//! and `--eval-egdb` are refused unless the engine plays.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};
use mancala_core::{Game, GameRecord, Player, Side};
use mancala_solver::egdb::{Build, Database};
use mancala_solver::engine::{Engine, Evaluate, Level, LevelPlayer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::notes;
use crate::rules_arg::{parse_rules, with_position, GameCommand, GameRules};

/// Who plays the side that is not yours.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Opponent {
    /// Another person at the same terminal.
    Human,
    /// A uniformly random legal move (reproducible with `--seed`).
    Random,
    /// The engine at `--level`, `--time-ms` a move.
    Engine,
}

/// Arguments of `mancala play`.
#[derive(Debug, Args)]
pub struct PlayArgs {
    /// The rule set (`standard`, `manchester`, `kalah(m,n)+…`, `bao-la-kete`, `oware`, `awari`,
    /// `oware-openspiel`, `togyz-kumalak`, `togyz-ludii`, `bestemshe`).
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Start from this position instead of the start position.
    #[arg(long)]
    position: Option<String>,
    /// Who plays the second player.
    #[arg(long, value_enum, ignore_case = true, default_value_t = Opponent::Human)]
    opponent: Opponent,
    /// Play against the engine (the same as `--opponent engine`).
    #[arg(long, conflicts_with = "opponent")]
    engine: bool,
    /// The engine's strength level, 1 (weakest) to 10 (the strongest, the default: no depth
    /// limit, and exact play where `--egdb` or a solve within `--time-ms` allows).
    #[arg(long, default_value_t = 10, value_parser = crate::ranges::level())]
    level: u32,
    /// The engine's time a move, in milliseconds, at most 86400000 (one day; 0: no time
    /// limit, for levels 1..=9, which have a depth limit).
    #[arg(long, default_value_t = 1000, value_parser = crate::ranges::time_ms())]
    time_ms: u64,
    /// Let the opponent be the first player (South at the start) instead of the second.
    #[arg(long)]
    opponent_first: bool,
    /// Seed of the random mover and of the engine's weaker moves (levels 1..=4).
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::any_u64())]
    seed: u64,
    /// Kalah endgame database for the engine: a file, or a folder searched for the largest
    /// database serving the rules (as `mancala solve --egdb`). At level 10 the engine also
    /// solves small positions exactly at the root within its time. Without it (Kalah), the
    /// engine uses the cached database when it is there (`mancala egdb build --rules R
    /// --cache` builds it).
    #[arg(long)]
    egdb: Option<PathBuf>,
    /// No cached endgame database for the engine (none at all unless --egdb);
    /// MANCALA_NO_CACHE=1 does the same.
    #[arg(long, conflicts_with = "egdb")]
    no_cache: bool,
    /// An Oware database file for the engine (`mancala egdb build --rules R --max-seeds N
    /// --out DIR`), read whole before the game starts, as `mancala agent line --eval-egdb`:
    /// under its own rule set R (and its variants in the repetition rule) its values are
    /// exact; under the other Oware rule sets of six houses a side with R's grand-slam rule
    /// they are the engine's evaluation of the positions it holds (at most N seeds in the
    /// houses), not taken as exact. For Abapa (`oware`, `oware+repetition=2`) give the
    /// database of `oware+majority=off+cycle_score=split`. A database of another grand-slam
    /// rule or board size, or a game other than Oware, is refused.
    #[arg(long, conflicts_with = "egdb")]
    eval_egdb: Option<PathBuf>,
}

impl PlayArgs {
    /// The refusal of options that cannot go together, a usage error (exit status 2): 0 means
    /// no time limit, as in `bestmove`, and level 10 has no depth limit, so the engine needs
    /// a time above 0 there.
    /// `--egdb` and `--eval-egdb` need the engine, which alone uses them.
    pub fn usage_error(&self) -> Option<String> {
        let engine_plays = self.engine || self.opponent == Opponent::Engine;
        let deep = Level::new(self.level).is_ok_and(|l| l.max_depth().is_none());
        if engine_plays && self.time_ms == 0 && deep {
            return Some("--time-ms 0: level 10 needs a time budget above 0 (0 is no time limit; levels 1..=9 have a depth limit)".into());
        }
        if self.egdb.is_some() && !engine_plays {
            return Some(
                "--egdb needs --engine (or --opponent engine): only the engine uses it".into(),
            );
        }
        if self.eval_egdb.is_some() && !engine_plays {
            return Some(
                "--eval-egdb needs --engine (or --opponent engine): only the engine uses it".into(),
            );
        }
        None
    }
}

/// A one-line reminder of what can be typed: the legal moves now, and the commands.
fn help<G: Game>(pos: &G) -> String {
    let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    format!(
        "{}: legal moves now: {}; also `undo`, `quit`.",
        pos.rules(),
        moves.join(" ")
    )
}

/// Runs the game loop until the game ends, `quit` is typed, or input ends.
pub fn run(args: &PlayArgs) -> Result<(), String> {
    // Options that cannot go together were refused as usage errors (`PlayArgs::usage_error`).
    with_position(
        parse_rules(&args.rules)?,
        args.position.as_deref(),
        GameLoop(args),
    )
}

/// The game loop on a position of any game.
struct GameLoop<'a>(&'a PlayArgs);

impl GameCommand for GameLoop<'_> {
    type Output = ();

    fn run<G: Evaluate>(self, _rules: GameRules, start: G) -> Result<(), String> {
        let args = self.0;
        let engine_plays = args.engine || args.opponent == Opponent::Engine;
        let choice = crate::database::Choice::kalah(
            args.egdb.as_deref(),
            // `--eval-egdb` is the Oware database: no cached one beside it.
            args.no_cache || !engine_plays || args.eval_egdb.is_some(),
            0,
            // Read before the game starts, so that no move's time goes into it; a missing
            // cached database is not built here (its build takes seconds to minutes).
            Build::Never,
        );
        let db = match crate::database::choose_for::<G::Database>(&start.rules(), &choice)? {
            Some((db, source)) => {
                // Which file was taken, on standard error (standard output is the game).
                eprintln!(
                    "mancala: the engine uses the {} {source} ({})",
                    <G::Database as Database>::kind_of(&start.rules()),
                    db.describe()
                );
                Some(db)
            }
            None => None,
        };
        game_loop(start, args, db)
    }
}

fn game_loop<G: Evaluate>(
    start: G,
    args: &PlayArgs,
    db: Option<Arc<G::Database>>,
) -> Result<(), String> {
    let opponent = if args.engine {
        Opponent::Engine
    } else {
        args.opponent
    };
    let mut engine: Option<LevelPlayer<G>> = match opponent {
        Opponent::Engine => {
            let level =
                Level::new(args.level).map_err(|e| format!("--level {}: {e}", args.level))?;
            let mut engine = Engine::new();
            engine.set_database(db);
            if let Some(path) = args.eval_egdb.as_deref() {
                crate::line::use_eval_egdb(&mut engine, &start.rules(), path)?;
            }
            Some(LevelPlayer::with_engine(engine, level, args.seed))
        }
        _ => None,
    };
    // Player 1 starts on South; the record follows the players across a pie-rule swap.
    let mut game = GameRecord::from_position(start);
    let computer = match opponent {
        Opponent::Human => None,
        _ if args.opponent_first => Some(1),
        _ => Some(2),
    };
    let mut rng = StdRng::seed_from_u64(args.seed);
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut bytes = Vec::new();
    println!("{}", help(&start));
    loop {
        let pos = *game.position();
        println!("\n{}\n{pos}", pos.drawing());
        let Some(side) = pos.side_to_move() else {
            if let Some(end) = game.ended_by() {
                let h = pos.history_rules();
                println!("{}.", notes::history_end(end, h.repetition, h.move_limit));
            }
            let Some(o) = pos.outcome() else {
                return Err("the game is over without a result (a bug: please report it)".into());
            };
            match o.winner {
                Some(w) if G::SCORED_IN_SEEDS => {
                    println!(
                        "Result: player {} ({w}) wins by {}.",
                        player_on(&game, w),
                        notes::counters::<G>(o.score.unsigned_abs())
                    );
                }
                Some(w) => println!("Result: player {} ({w}) wins.", player_on(&game, w)),
                None => println!("Result: a draw."),
            }
            return Ok(());
        };
        let player = player_on(&game, side);
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // Bao: the side to move has no legal move and loses (K-10).
            println!("player {player} ({side}) has no legal move and loses.");
            return Ok(());
        }
        if Some(player) == computer {
            let mv = match engine.as_mut() {
                Some(e) => {
                    // A spinner while the engine thinks for a second or more.
                    let spinner = (args.time_ms >= 1000)
                        .then(|| {
                            crate::progress::spinner(format!(
                                "player {player} ({side}) thinking, budget {} ms",
                                args.time_ms
                            ))
                        })
                        .flatten();
                    // The record's history: Oware's repetitions and move limit (OW-6.2,
                    // OW-6.4) are seen by the search.
                    let mut limits = e.level().limits(Duration::from_millis(args.time_ms));
                    if args.time_ms == 0 {
                        // No time limit: the level's depth limit ends the search.
                        limits.time = None;
                    }
                    let choice = e.choose_game(&game, limits);
                    if let Some(b) = spinner {
                        b.finish_and_clear();
                    }
                    choice.map_err(|e| e.to_string())?.mv
                }
                None => moves[rng.gen_range(0..moves.len())],
            };
            println!("player {player} ({side}) plays {mv}");
            game.play(mv).map_err(|e| e.to_string())?;
            say_after_move(&game, &pos, mv);
            continue;
        }
        print!("player {player} ({side}) to move> ");
        io::stdout().flush().map_err(|e| e.to_string())?;
        bytes.clear();
        let read = input
            .read_until(b'\n', &mut bytes)
            .map_err(|e| format!("reading standard input: {e}"))?;
        if read == 0 {
            // Input ended before the game did: an unfinished game is not a success (`quit`
            // leaves one deliberately).
            println!();
            return Err(
                "end of input before the end of the game (type `quit` to leave a game)".into(),
            );
        }
        let Ok(line) = std::str::from_utf8(&bytes) else {
            println!("refused: malformed move: the line is not valid UTF-8");
            continue;
        };
        let text = line.trim();
        // The commands in any letter case, as every keyword (docs/notation.md, "Letter case").
        match text.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "q" | "exit" => return Ok(()),
            "help" | "?" => {
                println!("{}", help(&pos));
                continue;
            }
            "undo" => {
                // Back to the last position where a person was to move.
                let mut undone = false;
                while game.undo().is_some() {
                    undone = true;
                    let to_move = game.position().side_to_move().map(|s| player_on(&game, s));
                    if to_move != computer {
                        break;
                    }
                }
                if !undone {
                    println!("nothing to undo");
                }
                continue;
            }
            _ => {}
        }
        let legal: Vec<String> = pos.legal_moves().iter().map(ToString::to_string).collect();
        let text = match house_label(G::KIND, text, side, &legal) {
            Ok(t) => t,
            Err(why) => {
                println!("refused: {why}");
                continue;
            }
        };
        match text.parse::<G::Move>() {
            Err(e) => println!("refused: {e}"),
            Ok(mv) => match game.play(mv) {
                Err(e) => println!("refused: {e}"),
                Ok(_) => say_after_move(&game, &pos, mv),
            },
        }
    }
}

/// A move typed as the board labels the houses (`S3` when South is to move, `N2` when
/// North is, in any letter case: Kalah and Oware): the house number, the move's own
/// notation. Anything else is given back as it is.
///
/// # Errors
/// A label of the other side's row, which is not a move of the side to move: the message
/// proposes the same number on the mover's row when it is one of the legal moves `legal`
/// (as texts), else the legal moves.
fn house_label<'a>(
    kind: mancala_core::GameKind,
    text: &'a str,
    side: Side,
    legal: &[String],
) -> Result<&'a str, String> {
    if kind == mancala_core::GameKind::Bao {
        return Ok(text);
    }
    let mut chars = text.chars();
    let (Some(letter), number) = (chars.next(), chars.as_str()) else {
        return Ok(text);
    };
    let named = match letter.to_ascii_uppercase() {
        'S' => Side::South,
        'N' => Side::North,
        _ => return Ok(text),
    };
    if number.is_empty() || !number.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(text);
    }
    if named == side {
        Ok(number)
    } else if legal.iter().any(|m| m == number) {
        Err(format!(
            "`{text}` is a house of {named}'s row, and {side} is to move: type a house of {side}'s row, by its number or its label ({number} or {}{number})",
            &side.to_string()[..1]
        ))
    } else {
        Err(format!(
            "`{text}` is a house of {named}'s row, and {side} is to move: type a house of {side}'s row, by its number or its label; legal now: {}",
            legal.join(" ")
        ))
    }
}

/// Prints what the move `mv` from `before` did that the board does not say at a glance (the
/// seeds captured, an extra turn), one line each.
fn say_after_move<G: Game>(game: &GameRecord<G>, before: &G, mv: G::Move) {
    let name = |side: Side| format!("player {} ({side})", player_on(game, side));
    for line in notes::after_move(before, mv, game.position(), name) {
        println!("{line}");
    }
}

/// The number of the player (1 or 2) on `side` now: player 1 starts on South; the record
/// follows the players across a pie-rule swap.
fn player_on<G: Game>(game: &GameRecord<G>, side: Side) -> u8 {
    match game.player_on(side) {
        Player::First => 1,
        Player::Second => 2,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use mancala_core::GameKind;

    #[test]
    fn a_house_label_of_the_side_to_move_is_its_number() {
        let six: Vec<String> = (1..=6).map(|h| h.to_string()).collect();
        let l = six.as_slice();
        assert_eq!(house_label(GameKind::Kalah, "S3", Side::South, l), Ok("3"));
        assert_eq!(house_label(GameKind::Oware, "n2", Side::North, l), Ok("2"));
        assert_eq!(house_label(GameKind::Kalah, "3", Side::South, l), Ok("3"));
        assert_eq!(
            house_label(GameKind::Kalah, "swap", Side::North, l),
            Ok("swap")
        );
        assert_eq!(house_label(GameKind::Kalah, "S", Side::South, l), Ok("S"));
        assert_eq!(house_label(GameKind::Bao, "S3", Side::South, l), Ok("S3"));
        let e = house_label(GameKind::Kalah, "N3", Side::South, l).unwrap_err();
        assert!(
            e.starts_with("`N3` is a house of North's row, and South is to move")
                && e.ends_with("(3 or S3)"),
            "{e}"
        );
        // A house that the mover's row does not have (or cannot play) is not proposed: the
        // legal moves are.
        let e = house_label(GameKind::Kalah, "s10", Side::North, &l[..3]).unwrap_err();
        assert!(e.ends_with("legal now: 1 2 3") && !e.contains("N10"), "{e}");
    }
}
