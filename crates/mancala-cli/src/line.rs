//! `mancala agent line`: a plain line protocol for bot programs, for every game and rule set
//! (`docs/line-protocol.md`). The bot writes one request a line on standard input and reads
//! exactly one reply line on standard output for each; a refused request is answered with one
//! `error …` line and the session goes on.
//!
//! Requests (keywords in any ASCII letter case, tokens separated by spaces or tabs):
//!
//! * `position start [moves M…]`, `position <position> [moves M…]`: a new game at the rule
//!   set's start or at the position (notation, `docs/notation.md`), then the moves played
//!   from it. Reply `ok <position reached>`.
//! * `moves M…`: a new game at the start position of the rule set with these moves played.
//!   Reply `ok <position reached>`.
//! * `play M…`: the moves played on the current game. Reply `ok <position reached>`.
//! * `go [time MS] [nodes N] [depth D]`: the engine's move in the current position, searched
//!   with the game's history (Oware's repetitions and move limit, OW-6.2, OW-6.4), within
//!   the budget (default: the command line's). Reply `bestmove <move> score <units> depth
//!   <plies> nodes <n> exact <true|false>`.
//! * `rules <rule set>`: the rule set of the games from now on (any game: `kalah(4,3)`,
//!   `awari`, `bao-la-kete`, …), a new game at its start. Reply `ok <start position>`. A
//!   rule set of another game than the current one ends the session's typed state and
//!   starts a new one for that game ([`run`]); the engine's table is started afresh whenever
//!   the rule set changes.
//! * `quit`: reply `bye`, exit 0. End of input also ends the session (status 0).
//!
//! A request that cannot be carried out (malformed, an illegal move, a finished game, a bad
//! budget, a move list with no move or an empty move between commas, words after `quit`)
//! is answered `error <reason>`, and nothing changes.

use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::time::Duration;

use clap::Args;
use mancala_core::{parse_moves, GameKind, GameRecord};
use mancala_solver::awari::AwariDb;
use mancala_solver::egdb::Database;
use mancala_solver::engine::{Engine, Evaluate, Level, LevelPlayer, Limits, MAX_DEPTH};
use mancala_solver::ExactValues;

use crate::rules_arg::{parse_rules, with_position, GameCommand, GameRules};

/// The protocol, shown by `mancala agent line --help` (`docs/line-protocol.md` has it in
/// full).
pub const LINE_HELP: &str = "\
The line protocol: one request a line on standard input, exactly one reply line each on
standard output (blank lines are ignored). Keywords in any letter case.
  position start [moves M...]        new game at the start, then these moves  -> ok <position>
  position <position> [moves M...]   new game at a position (notation)        -> ok <position>
  moves M...                         new game at the start, then these moves  -> ok <position>
  play M...                          moves played on the current game         -> ok <position>
  go [time MS] [nodes N] [depth D]   the engine's move, within the budget
                                     -> bestmove <move> score <units> depth <plies> nodes <n> exact <true|false>
  rules <rule set>                   the rule set from now on (any game), a new game at
                                     its start                                -> ok <position>
  quit                               -> bye (then exit 0; end of input also ends)
Words are separated by spaces or tabs; a line ends in \\n or \\r\\n. A refused request gets
one line `error <reason>` and changes nothing: among them a request line longer than 1 MiB,
one holding another control character or Unicode space (a lone \\r), and a move list with
no move or an empty move between commas.
Scores are for the player to move, in hundredths of a seed (Bao la Kete: heuristic units,
or +-(1000000 - plies) for a forced win or loss). The search sees the game's history:
Oware's repetition rule and move limit.

Examples:
  mancala agent line --rules oware --time-ms 0
  mancala agent line --rules standard --time-ms 100 --level 8

A session of the first (> the bot's lines, < the replies):
  > moves 3 1
  < ok 4,4,0,5,5,5,0,0,5,5,5,5,5,0 S
  > go nodes 100000
  < bestmove 5 score 139 depth 11 nodes 100000 exact false
  > play 7
  < error play: move 1: illegal move 7: house 7 does not exist: houses are numbered 1..=6
  > quit
  < bye";

/// Arguments of `mancala agent line`.
#[derive(Debug, Args)]
pub struct LineArgs {
    /// The rule set of the session's games until a `rules` request changes it (any game:
    /// `standard`, `bao-la-kete`, `oware`, `awari`, `togyz-kumalak`, …).
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Default time budget of `go`, in milliseconds, at most 86400000 (one day; 0: no time
    /// limit).
    #[arg(long, default_value_t = 1000, value_parser = crate::ranges::time_ms())]
    time_ms: u64,
    /// Default node budget of `go` (positions visited; 0: no node limit).
    #[arg(long, default_value_t = 0, value_parser = crate::ranges::any_u64())]
    nodes: u64,
    /// Strength level 1..=10 (levels 1..=9 limit the depth, 1..=4 also play weaker moves).
    #[arg(long, default_value_t = 10, value_parser = crate::ranges::level())]
    level: u32,
    /// Seed of the weaker-move choices of levels 1..=4.
    #[arg(long, default_value_t = 1, value_parser = crate::ranges::any_u64())]
    seed: u64,
    /// Transposition-table size in MiB (1..=4096), kept between requests.
    #[arg(long, default_value_t = 16, value_parser = crate::ranges::engine_tt_mb())]
    tt_mb: usize,
    /// An Oware database file (`mancala egdb build --rules R --max-seeds N --out DIR`) for
    /// the Oware games: under its own rule set R (and its variants in the repetition rule)
    /// its values are exact and the engine plays them; under the other Oware rule sets of six
    /// houses a side with R's grand-slam rule they are the engine's evaluation of the
    /// positions it holds (at most N seeds in the houses), not taken as exact. For Abapa
    /// (`oware`, `oware+repetition=2`: a grand slam captures nothing) give the database of
    /// `oware+majority=off+cycle_score=split`; the Awari database (`awari`: a grand slam is
    /// forbidden) serves the `awari` rule sets. A database of another grand-slam rule or
    /// board size than the session's rule set is refused, at the start or at the `rules`
    /// request that asks for that rule set. The file is read once, at the start, whatever
    /// the game; the other games do not use it.
    #[arg(long)]
    eval_egdb: Option<std::path::PathBuf>,
}

/// Runs the line protocol on standard input and output until `quit` or the end of input.
///
/// The database of `--eval-egdb` is read once, at the start, whatever the first rule set's
/// game: a file that cannot be read ends the agent before its first request, and a session
/// that moves to an Oware rule set the file does not serve is refused at that `rules`
/// request (an `error` line), never later.
pub fn run(args: &LineArgs) -> Result<(), String> {
    let level = Level::new(args.level).map_err(|e| format!("--level {}: {e}", args.level))?;
    let mut rules = parse_rules(&args.rules)?;
    let eval_db = args.eval_egdb.as_deref().map(read_eval_egdb).transpose()?;
    let session = Session {
        args,
        level,
        eval_db,
    };
    session.check_eval_db(&rules)?;
    // A `rules` request naming another game ends the typed session; the next one is of
    // that game (the standard input's buffer is shared, so no request is lost).
    while let Some(next) = with_position(rules, None, &session)? {
        rules = next;
    }
    Ok(())
}

/// The session on a game of any kind.
struct Session<'a> {
    args: &'a LineArgs,
    level: Level,
    /// The database of `--eval-egdb`, read once for every session.
    eval_db: Option<Arc<AwariDb>>,
}

impl GameCommand for &Session<'_> {
    /// `Some(rules)` when a `rules` request named a rule set of another game.
    type Output = Option<GameRules>;

    fn run<G: Evaluate>(self, _rules: GameRules, start: G) -> Result<Option<GameRules>, String> {
        let db = match &self.eval_db {
            Some(db) => eval_egdb_of::<G>(db)?,
            None => None,
        };
        let mut state = State {
            start,
            game: GameRecord::from_position(start),
            player: self.player(db.as_ref(), &start.rules())?,
            db,
            time_ms: self.args.time_ms,
            nodes: self.args.nodes,
            switch: None,
            session: self,
        };
        serve(&mut state, io::stdin().lock(), io::stdout().lock())
            .map_err(|e| format!("standard input or output: {e}"))?;
        Ok(state.switch)
    }
}

impl Session<'_> {
    /// Ok when the database of `--eval-egdb`, if any, serves `rules`: exactly, as estimates
    /// (the Oware rule sets of its board size and grand-slam rule), or not at all because
    /// `rules` is of a game that does not read it.
    ///
    /// # Errors
    /// An Oware rule set the database serves neither way, naming the rules that differ.
    fn check_eval_db(&self, rules: &GameRules) -> Result<(), String> {
        if let (Some(db), GameRules::Oware(r)) = (&self.eval_db, rules) {
            if db.check_rules(r).is_err() {
                if let Err(e) = db.check_estimate_rules(r) {
                    return Err(eval_egdb_refusal(
                        self.args
                            .eval_egdb
                            .as_deref()
                            .unwrap_or(std::path::Path::new("")),
                        e,
                    ));
                }
            }
        }
        Ok(())
    }

    /// A fresh engine (an empty table of `--tt-mb`) at the session's level and seed, with
    /// the database of `--eval-egdb` (`db`) as [`give_eval_egdb`] gives it.
    ///
    /// # Errors
    /// As [`give_eval_egdb`].
    fn player<G: Evaluate>(
        &self,
        db: Option<&Arc<G::Database>>,
        rules: &G::Rules,
    ) -> Result<LevelPlayer<G>, String> {
        let mut engine = Engine::with_tt_bytes(self.args.tt_mb << 20);
        if let (Some(db), Some(path)) = (db, self.args.eval_egdb.as_deref()) {
            give_eval_egdb(&mut engine, db, rules, path)?;
        }
        Ok(LevelPlayer::with_engine(engine, self.level, self.args.seed))
    }
}

/// Reads the Oware database file of `--eval-egdb` (`path`), whole and checked.
///
/// # Errors
/// The file cannot be read or is no Oware database: `--eval-egdb PATH: <reason>`.
pub(crate) fn read_eval_egdb(path: &std::path::Path) -> Result<Arc<AwariDb>, String> {
    <AwariDb as Database>::open(path)
        .map(Arc::new)
        .map_err(|e| format!("--eval-egdb: {}", crate::database::lookup_error(path, &e)))
}

/// The database of `--eval-egdb` as the database type of game `G`: `Some` for Oware, `None`
/// for the other games, which do not read it.
///
/// # Errors
/// An Oware database type that is not the Oware database (never, for the games of the core).
pub(crate) fn eval_egdb_of<G: Evaluate>(
    db: &Arc<AwariDb>,
) -> Result<Option<Arc<G::Database>>, String> {
    if G::KIND != GameKind::Oware {
        return Ok(None);
    }
    let db: Arc<dyn std::any::Any + Send + Sync> = db.clone();
    db.downcast::<G::Database>()
        .map(Some)
        .map_err(|_| "--eval-egdb: the Oware games read another kind of database".to_string())
}

/// The database of `--eval-egdb` (the file `path`) for a command that plays one game `G`
/// (`bestmove`, `play --engine`) under `rules`: read whole and checked, and given to
/// `engine` as [`give_eval_egdb`] gives it.
///
/// # Errors
/// A game other than Oware (checked before the file is read: only the Oware games read an
/// Oware database), as [`read_eval_egdb`], as [`give_eval_egdb`].
pub(crate) fn use_eval_egdb<G: Evaluate>(
    engine: &mut Engine<G>,
    rules: &G::Rules,
    path: &std::path::Path,
) -> Result<(), String> {
    if G::KIND != GameKind::Oware {
        return Err(eval_egdb_refusal(
            path,
            format!(
                "an Oware database serves the Oware games, not {rules} ({})",
                G::KIND
            ),
        ));
    }
    let db = read_eval_egdb(path)?;
    let db = eval_egdb_of::<G>(&db)?.expect("an Oware database for an Oware game");
    give_eval_egdb(engine, &db, rules, path)
}

/// The refusal of the database of `--eval-egdb` (the file `path`) for a rule set it does not
/// serve, `e` naming the rules that differ: `--eval-egdb PATH: <e>`.
pub(crate) fn eval_egdb_refusal(path: &std::path::Path, e: impl std::fmt::Display) -> String {
    format!("--eval-egdb {}: {e}", path.display())
}

/// Gives `engine` the database of `--eval-egdb` (`db`, read from `path`) for positions
/// played under `rules`: as its exact database ([`Engine::set_database`]) when it holds the
/// values of `rules`, else as its evaluation ([`Engine::set_estimates`]) when its values are
/// estimates of them ([`ExactValues::check_estimate_rules`]: six houses a side and the
/// database's grand-slam rule).
///
/// # Errors
/// A database whose values are neither (e.g. the Awari database, `grand_slam=unless_only`,
/// under Abapa's `grand_slam=none`): [`eval_egdb_refusal`], naming the rules that differ.
pub(crate) fn give_eval_egdb<G: Evaluate>(
    engine: &mut Engine<G>,
    db: &Arc<G::Database>,
    rules: &G::Rules,
    path: &std::path::Path,
) -> Result<(), String> {
    if db.check_rules(rules).is_ok() {
        engine.set_database(Some(db.clone()));
    } else if let Err(e) = db.check_estimate_rules(rules) {
        return Err(eval_egdb_refusal(path, e));
    } else {
        engine.set_estimates(Some(db.clone()));
    }
    Ok(())
}

/// A session's game, engine and default budget.
struct State<'a, 's, G: Evaluate> {
    /// The rule set's start position.
    start: G,
    game: GameRecord<G>,
    player: LevelPlayer<G>,
    /// The database of `--eval-egdb`, read once a session.
    db: Option<Arc<G::Database>>,
    time_ms: u64,
    nodes: u64,
    /// A rule set of another game asked for by `rules`: the session ends after the reply.
    switch: Option<GameRules>,
    session: &'s Session<'a>,
}

/// The longest request line read, bytes (its end of line excluded): a longer one is read
/// to its end without being kept and answered with an error, so that the agent's memory
/// does not grow with the length of a line. A whole game's moves fit many times over.
pub const MAX_REQUEST_BYTES: usize = 1 << 20;

/// What [`read_request`] read.
#[derive(Debug, PartialEq, Eq)]
enum Request {
    /// The end of the input, with nothing before it.
    End,
    /// A line (without its `\n`; the last line of the input may have none).
    Line,
    /// A line longer than [`MAX_REQUEST_BYTES`]: read to its end and dropped.
    TooLong,
}

/// Reads the next line of `input` into `bytes` (cleared first; at most
/// [`MAX_REQUEST_BYTES`] kept), up to and without its `\n` or `\r\n`, or to the end of the
/// input (a `\r` just before the end of the input is kept: no line end follows it).
///
/// # Errors
/// The input's errors.
fn read_request(input: &mut impl BufRead, bytes: &mut Vec<u8>) -> io::Result<Request> {
    bytes.clear();
    let mut too_long = false;
    let mut any = false;
    let mut ended = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (take, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (buf.len(), false),
        };
        if !too_long {
            // One byte more than the limit is kept: the `\r` of a `\r\n` line end, which
            // is not counted.
            if bytes.len() + take > MAX_REQUEST_BYTES + 1 {
                too_long = true;
                bytes.clear();
                bytes.shrink_to(MAX_REQUEST_BYTES + 1);
            } else {
                bytes.extend_from_slice(&buf[..take]);
            }
        }
        input.consume(take + usize::from(end));
        if end {
            ended = true;
            break;
        }
    }
    if ended && bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    if !too_long && bytes.len() > MAX_REQUEST_BYTES {
        too_long = true;
        bytes.clear();
    }
    Ok(match (any, too_long) {
        (false, _) => Request::End,
        (true, false) => Request::Line,
        (true, true) => Request::TooLong,
    })
}

/// Reads requests from `input` and writes one reply line each to `output` (flushed), until
/// `quit` or the end of input.
///
/// # Errors
/// Only the input's or the output's errors; refused requests are replies.
fn serve<G: Evaluate>(
    state: &mut State<'_, '_, G>,
    mut input: impl BufRead,
    mut output: impl Write,
) -> io::Result<()> {
    let mut bytes = Vec::new();
    loop {
        let reply = match read_request(&mut input, &mut bytes)? {
            Request::End => return Ok(()),
            Request::TooLong => Some(Err(format!(
                "the request is longer than {MAX_REQUEST_BYTES} bytes (it was read to its end and dropped)"
            ))),
            Request::Line => match std::str::from_utf8(&bytes) {
                Err(_) => Some(Err("the line is not valid UTF-8".to_string())),
                Ok(line) => match separators_only(line) {
                    Ok(line) => state.answer(line),
                    Err(why) => Some(Err(why)),
                },
            },
        };
        let Some(reply) = reply else { continue };
        let quit = reply.as_deref() == Ok("bye");
        match reply {
            Ok(text) => writeln!(output, "{text}")?,
            Err(why) => writeln!(output, "error {}", why.replace(['\n', '\r'], " "))?,
        }
        output.flush()?;
        if quit || state.switch.is_some() {
            return Ok(());
        }
    }
}

impl<G: Evaluate> State<'_, '_, G> {
    /// The reply to one request line (`None` for a blank line): `Ok(reply)` or `Err(why)`.
    fn answer(&mut self, line: &str) -> Option<Result<String, String>> {
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        if word.is_empty() {
            return None;
        }
        Some(match word.to_ascii_lowercase().as_str() {
            "position" => self.position(rest),
            "moves" => {
                move_list::<G>("moves", rest).and_then(|m| self.new_game("moves", self.start, &m))
            }
            "play" => self.play(rest),
            "go" => self.go(rest),
            "rules" => self.rules(rest),
            "quit" if rest.is_empty() => Ok("bye".to_string()),
            "quit" => Err(format!(
                "quit: nothing may follow `quit`, got `{}`",
                mancala_core::Shortened(rest)
            )),
            _ => Err(format!(
                "unknown request `{}`: position, moves, play, go, rules or quit",
                mancala_core::Shortened(word)
            )),
        })
    }

    /// `position start|<position> [moves M…]`. An error in the move list is labelled
    /// `position: moves:`, the request and then its part, as `go: depth:` is.
    fn position(&mut self, rest: &str) -> Result<String, String> {
        const MOVES: &str = "position: moves";
        let (head, moves) = split_moves(rest);
        if head.is_empty() {
            return Err("position: give `start` or a position".into());
        }
        let moves = match moves {
            Some(m) => move_list::<G>(MOVES, m)?,
            None => Vec::new(),
        };
        let start = if head.eq_ignore_ascii_case("start") {
            self.start
        } else {
            G::parse(self.start.rules(), head).map_err(|e| format!("position {head}: {e}"))?
        };
        self.new_game(MOVES, start, &moves)
    }

    /// A new game at `start` with `moves` played; the game is unchanged when refused (the
    /// error labelled `what`, the request's move list).
    fn new_game(&mut self, what: &str, start: G, moves: &[G::Move]) -> Result<String, String> {
        let game = GameRecord::replay(start, moves).map_err(|e| format!("{what}: {e}"))?;
        self.game = game;
        Ok(format!("ok {}", self.game.position()))
    }

    /// `rules <rule set>`: the rule set from now on and a new game at its start; the engine
    /// starts afresh when the rule set changes (its table holds values of the old rules). A
    /// rule set of another game sets `switch` (the caller starts a session of that game).
    /// Refused, changing nothing: no rule set, or one that no game accepts.
    fn rules(&mut self, rest: &str) -> Result<String, String> {
        if rest.is_empty() {
            return Err("rules: give a rule set, e.g. `rules kalah(4,3)` or `rules awari`".into());
        }
        let shown = mancala_core::Shortened(rest);
        let rules: GameRules = rest.parse().map_err(|e| format!("rules {shown}: {e}"))?;
        if rules.kind() != G::KIND {
            self.session
                .check_eval_db(&rules)
                .map_err(|e| format!("rules {shown}: {e}"))?;
            let start = mancala_core::AnyGame::new(rules).position_text();
            self.switch = Some(rules);
            return Ok(format!("ok {start}"));
        }
        let own: G::Rules = rest.parse().map_err(|e| format!("rules {shown}: {e}"))?;
        if own != self.start.rules() {
            self.player = self
                .session
                .player(self.db.as_ref(), &own)
                .map_err(|e| format!("rules {shown}: {e}"))?;
        }
        self.start = G::start(own);
        self.game = GameRecord::from_position(self.start);
        Ok(format!("ok {}", self.start))
    }

    /// `play M…` on the current game, all or nothing.
    fn play(&mut self, rest: &str) -> Result<String, String> {
        let moves = move_list::<G>("play", rest)?;
        let mut game = self.game.clone();
        for (i, &mv) in moves.iter().enumerate() {
            game.play(mv)
                .map_err(|e| format!("play: move {}: {e}", i + 1))?;
        }
        self.game = game;
        Ok(format!("ok {}", self.game.position()))
    }

    /// `go [time MS] [nodes N] [depth D]`.
    fn go(&mut self, rest: &str) -> Result<String, String> {
        let (mut time_ms, mut nodes, mut depth) = (self.time_ms, self.nodes, None);
        let mut words = rest.split_whitespace();
        let mut seen: Vec<String> = Vec::new();
        while let Some(key) = words.next() {
            let value = words
                .next()
                .ok_or_else(|| format!("go: `{}` needs a number", mancala_core::Shortened(key)))?;
            let lower = key.to_ascii_lowercase();
            if seen.contains(&lower) {
                return Err(format!(
                    "go: `{}` given twice",
                    mancala_core::Shortened(key)
                ));
            }
            seen.push(lower);
            let n: u64 = value.parse().map_err(|_| {
                let what = if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) {
                    "is too large"
                } else {
                    "is not a whole number"
                };
                format!(
                    "go: {}: `{}` {what}",
                    mancala_core::Shortened(key),
                    mancala_core::Shortened(value)
                )
            })?;
            match key.to_ascii_lowercase().as_str() {
                // The bound of `--time-ms`: one day.
                "time" if n > crate::ranges::MAX_TIME_MS => {
                    return Err(format!(
                        "go: time {n} is out of range (0 to {})",
                        crate::ranges::MAX_TIME_MS
                    ));
                }
                "time" => time_ms = n,
                "nodes" => nodes = n,
                // 0: no depth limit, as 0 is no limit for time and nodes.
                "depth" if n == 0 => depth = None,
                "depth" => {
                    depth = Some(
                        u32::try_from(n)
                            .ok()
                            .filter(|d| (1..=MAX_DEPTH).contains(d))
                            .ok_or_else(|| {
                                format!("go: depth {n}: 1..={MAX_DEPTH} plies, or 0 for no limit")
                            })?,
                    );
                }
                _ => {
                    return Err(format!(
                        "go: unknown budget `{}`: time, nodes or depth",
                        mancala_core::Shortened(key)
                    ))
                }
            }
        }
        let mut limits = Limits::default();
        if time_ms > 0 {
            limits = limits.with_time(Duration::from_millis(time_ms));
        }
        if nodes > 0 {
            limits = limits.with_nodes(nodes);
        }
        limits.depth = depth;
        if limits.time.is_none()
            && limits.nodes.is_none()
            && limits.depth.is_none()
            && self.player.level().max_depth().is_none()
        {
            return Err("go: level 10 needs a budget: time, nodes or depth above 0".into());
        }
        if self.game.is_over() {
            return Err(format!(
                "go: the game is over ({})",
                self.game
                    .position()
                    .outcome()
                    .map_or_else(|| "no legal move".to_string(), |o| o.to_string())
            ));
        }
        let c = self
            .player
            .choose_game(&self.game, limits)
            .map_err(|e| format!("go: {e}"))?;
        let s = &c.search;
        Ok(format!(
            "bestmove {} score {} depth {} nodes {} exact {}",
            c.mv, s.score, s.depth, s.nodes, s.exact
        ))
    }
}

/// A request line (read without its line end, [`read_request`]) without the spaces and tabs
/// around it, or the reason it is refused: the words of a request are separated by spaces and tabs
/// only, so any other control character or Unicode space in it (a lone `\r`, a form feed,
/// a no-break space) is refused, named by its code point and byte offset (1-based), rather
/// than taken as a separator (a `\r` would hide the words before it on a terminal).
fn separators_only(line: &str) -> Result<&str, String> {
    if let Some((at, c)) = line
        .char_indices()
        .find(|&(_, c)| c != ' ' && c != '\t' && (c.is_control() || c.is_whitespace()))
    {
        let name = match c {
            '\r' => " (a carriage return)",
            '\u{0b}' => " (a vertical tab)",
            '\u{0c}' => " (a form feed)",
            '\u{a0}' => " (a no-break space)",
            _ => "",
        };
        return Err(format!(
            "the request holds U+{:04X}{name} at byte {}: words are separated by spaces or \
             tabs, and a line ends in \\n or \\r\\n",
            u32::from(c),
            at + 1
        ));
    }
    Ok(line.trim_matches([' ', '\t']))
}

/// Splits `<head> [moves M…]` at the word `moves` (any case): the head and the moves' text
/// (`None` without the word).
fn split_moves(rest: &str) -> (&str, Option<&str>) {
    for word in rest.split_whitespace() {
        if word.eq_ignore_ascii_case("moves") {
            // The byte offset of this word in `rest` (a sub-slice of it).
            let at = word.as_ptr() as usize - rest.as_ptr() as usize;
            return (rest[..at].trim(), Some(rest[at + word.len()..].trim()));
        }
    }
    (rest.trim(), None)
}

/// The moves of a request's move list `text` (`what` names the request in the errors): at
/// least one, separated by spaces, tabs or commas, with a move on each side of every comma.
///
/// # Errors
/// No move; an empty move (two commas with nothing between, or a comma first or last);
/// a malformed move (its 1-based index named).
fn move_list<G: Evaluate>(what: &str, text: &str) -> Result<Vec<G::Move>, String> {
    if text.trim().is_empty() {
        return Err(format!("{what}: give at least one move"));
    }
    crate::rules_arg::move_texts(what, text)?;
    parse_moves::<G>(text).map_err(|e| format!("{what}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_longer_than_the_limit_is_read_to_its_end_and_dropped() {
        let long = "x".repeat(MAX_REQUEST_BYTES + 1);
        let fits = "y".repeat(MAX_REQUEST_BYTES);
        // The `\r` of a `\r\n` line end is not counted: the limit's line fits with it, a
        // byte more does not.
        let text = format!("go\n{long}\n{fits}\n{fits}\r\n{long}\r\nquit\r\n{fits}\r");
        // A small buffer: the line comes in many pieces.
        let mut input = io::BufReader::with_capacity(7, text.as_bytes());
        let mut bytes = Vec::new();
        let mut got = Vec::new();
        loop {
            let r = read_request(&mut input, &mut bytes).unwrap();
            if r == Request::End {
                break;
            }
            got.push((r, bytes.len()));
            assert!(bytes.capacity() <= 2 * MAX_REQUEST_BYTES);
        }
        assert_eq!(
            got,
            [
                (Request::Line, 2),
                (Request::TooLong, 0),
                (Request::Line, MAX_REQUEST_BYTES),
                (Request::Line, MAX_REQUEST_BYTES),
                (Request::TooLong, 0),
                (Request::Line, 4),
                // A `\r` at the end of the input ends no line: it is the request's byte.
                (Request::TooLong, 0),
            ]
        );
    }

    /// Spaces and tabs separate words; any other control character or Unicode space is
    /// refused with its code point and byte (the `\r` of a `\r\n` line end is gone before:
    /// [`read_request`]).
    #[test]
    fn only_spaces_and_tabs_separate_words() {
        assert_eq!(separators_only(" \tplay 1\t2 "), Ok("play 1\t2"));
        assert_eq!(separators_only(""), Ok(""));
        let refused = |line: &str| separators_only(line).unwrap_err();
        assert!(refused("play 1\r").contains("U+000D (a carriage return) at byte 7"));
        assert!(
            refused("play 9\rplay 1")
                .starts_with("the request holds U+000D (a carriage return) at byte 7: "),
            "{}",
            refused("play 9\rplay 1")
        );
        assert!(refused("play 1\r\r").contains("U+000D (a carriage return) at byte 7"));
        assert!(refused("go\u{0c}nodes 5").contains("U+000C (a form feed) at byte 3"));
        // "é" is two bytes: the no-break space after it starts at byte 3.
        assert!(refused("é\u{a0}1").contains("U+00A0 (a no-break space) at byte 3"));
        assert!(refused("play\u{2003}1").contains("U+2003 at byte 5"));
        assert!(refused("play\u{0}1").contains("U+0000 at byte 5"));
    }

    /// What `play`, `moves` and `position … moves` read as a move list (Oware's moves).
    #[test]
    fn a_move_list_has_a_move_on_each_side_of_every_comma() {
        type O = mancala_core::oware::OwarePosition;
        let ok = |t: &str| move_list::<O>("play", t).map(|m| m.len());
        assert_eq!(ok("1,2, 3 ,4 5\t6"), Ok(6));
        assert_eq!(ok(""), Err("play: give at least one move".into()));
        assert_eq!(ok(" \t"), Err("play: give at least one move".into()));
        assert_eq!(
            ok("1,2,,3"),
            Err("play: an empty move after move 2 (a comma with no move after it)".into())
        );
        assert_eq!(
            ok("1 2,"),
            Err("play: an empty move after move 2 (a comma with no move after it)".into())
        );
        assert_eq!(ok(",1"), Err("play: a comma before the first move".into()));
        assert!(ok("1,x").unwrap_err().starts_with("play: move 2: "));
    }

    #[test]
    fn the_moves_keyword_splits_the_request() {
        assert_eq!(
            split_moves("1,1,1,6,0,0,0,9 S moves 3 1"),
            ("1,1,1,6,0,0,0,9 S", Some("3 1"))
        );
        assert_eq!(split_moves("start MOVES"), ("start", Some("")));
        assert_eq!(split_moves("start"), ("start", None));
    }
}
