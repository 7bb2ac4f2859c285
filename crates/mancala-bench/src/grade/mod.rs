//! Grading a player against exact values: every move a player chooses on a set of positions
//! is scored by the seeds it gives away, `loss = best value − value of the chosen move`
//! (seeds, for the player to move), from the exact values of every legal move.
//!
//! The pieces, each replaceable:
//!
//! * a source of exact move values, any [`ExactValues`] of the game (the one trait of
//!   `mancala_solver::exact_values`): for Kalah the exact solver (`Solver`, with whatever
//!   endgame database the caller attached) or an endgame database; for Oware under the rule
//!   set `awari` an Awari database (`AwariDb`, `docs/awari.md`); [`valued`] turns its values
//!   into a [`Valued`] position;
//! * a [`Player`]: the engine at a level ([`EnginePlayer`]), any closure ([`FnPlayer`], e.g. a
//!   Python callable), or an external program speaking the line protocol
//!   ([`ExternalPlayer`], `docs/line-protocol.md`, the grader being the side that sends
//!   positions and reads moves);
//! * [`grade`], which asks the player for a move on each valued position within a
//!   [`Budget`] and scores it, and [`play_games`], which plays whole games of the player
//!   against the exact solver and scores each of the player's moves the same way.
//!
//! A player that fails on a position — its answer is not a legal move, it crashes or raises,
//! or it does not answer within the budget's time plus grace — is scored as if it had played
//! the worst legal move (its loss is `best − worst`), and the position is listed among the
//! failures ([`GradeReport::failures`]); the run goes on with the next position (an external
//! program is started again).

use std::fmt;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use mancala_core::{Game, GameRecord, Side};
use mancala_solver::engine::{Engine, Evaluate, Level, LevelPlayer, Limits, DEFAULT_TT_BYTES};
use mancala_solver::exact_values::{ExactError, ExactGame, ExactValues};
use mancala_solver::SolveError;
use thiserror::Error;

#[cfg(target_os = "linux")]
mod cpu;
mod external;
#[cfg(target_os = "linux")]
mod keeper;
pub mod oware;
pub use external::{kill_programs, ExternalPlayer, POLL};

/// Why a set could not be valued or a game played.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GradeError {
    /// The exact solver refused a position (too many seeds, a database of other rules, no
    /// memory for its table, …).
    #[error("valuing {position}: {source}")]
    Solve {
        /// The position, in the notation.
        position: String,
        /// The solver's reason.
        source: SolveError,
    },
    /// A limit of the solver stopped it before every move's value was exact.
    #[error(
        "valuing {0}: no exact value for every move (a node or time limit stopped the solver)"
    )]
    NotExact(String),
    /// The position is a finished game: it has no move to grade.
    #[error("{0}: the game is over, there is no move to grade")]
    Finished(String),
    /// The source of exact values does not hold the position: a rule set it does not hold
    /// ([`ExactError::Rules`], naming the rules that differ: an Awari database and an
    /// `oware` position, an endgame database of another m), more seeds in the houses than a
    /// database holds, a Kalah opening.
    #[error("valuing {position}: {source}")]
    Exact {
        /// The position, in the notation.
        position: String,
        /// The source's reason.
        source: Box<ExactError>,
    },
    /// A valued position given to [`play_games`] whose moves are not its legal moves (in
    /// `legal_moves()` order, as [`valued`] gives them): the values of another position.
    #[error("{0}: the moves valued are not the legal moves of the position")]
    NotItsMoves(String),
    /// A positions file gives a position a value (the exact value for the player to move,
    /// seeds) other than its exact value ([`check_values`]).
    #[error("line {line}: {position} has the value {file:+} in the file, but its exact value is {exact:+} (seeds for the player to move)")]
    FileValue {
        /// 1-based line number of the position in the file.
        line: usize,
        /// The position, in the notation.
        position: String,
        /// The file's value, seeds.
        file: i32,
        /// The exact value ([`Valued::best`]), seeds.
        exact: i32,
    },
}

/// Checks the values a positions file gives its positions against their exact values:
/// `file[i]` is the 1-based line number and the value (seeds, for the player to move) the
/// file gives the position of `valued[i]`, whose exact value is [`Valued::best`] (a file's
/// value is the position's exact value: the format of `mancala bench`'s positions files,
/// `docs/grading.md`). Pairs past the shorter of the two slices are not checked (a set cut
/// by `take`).
///
/// # Errors
/// [`GradeError::FileValue`] for the first position whose value disagrees.
pub fn check_values<G: Game>(
    valued: &[Valued<G>],
    file: &[(usize, i32)],
) -> Result<(), GradeError> {
    for (v, &(line, value)) in valued.iter().zip(file) {
        let exact = v.best();
        if exact != value {
            return Err(GradeError::FileValue {
                line,
                position: v.position.to_string(),
                file: value,
                exact,
            });
        }
    }
    Ok(())
}

/// A position with the exact value of every legal move (seeds, for the player to move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Valued<G: Game> {
    /// The position.
    pub position: G,
    /// Seeds on the board outside the stores (the houses; for Kalah
    /// `KalahPosition::seeds_in_houses`), the key of [`GradeReport::by_seeds`].
    pub seeds: u32,
    /// South's store minus North's, seeds (what was scored before this position; the final
    /// score of a game counts it, a value does not).
    pub stores: i32,
    /// Every legal move with its exact value, in `legal_moves()` order.
    pub moves: Vec<(G::Move, i32)>,
}

impl<G: Game> Valued<G> {
    /// The best value (seeds): the position's exact value.
    #[must_use]
    pub fn best(&self) -> i32 {
        self.moves.iter().map(|m| m.1).max().unwrap_or(0)
    }

    /// The worst move's value (seeds).
    #[must_use]
    pub fn worst(&self) -> i32 {
        self.moves.iter().map(|m| m.1).min().unwrap_or(0)
    }

    /// The moves of the best value, in `legal_moves()` order.
    #[must_use]
    pub fn best_moves(&self) -> Vec<G::Move> {
        let b = self.best();
        self.moves
            .iter()
            .filter(|m| m.1 == b)
            .map(|m| m.0)
            .collect()
    }

    /// The value of `mv`, `None` when it is not a legal move here.
    #[must_use]
    pub fn value_of(&self, mv: G::Move) -> Option<i32> {
        self.moves.iter().find(|m| m.0 == mv).map(|m| m.1)
    }
}

/// The position `position` with the exact value of each legal move from `values` (any
/// source of exact values of the game: the solver, a database), the seeds in its houses
/// and its stores, South's minus North's.
///
/// # Errors
/// [`GradeError::Finished`] for a finished game, [`GradeError::Solve`] and
/// [`GradeError::NotExact`] (the solver could not start, or a limit stopped it),
/// [`GradeError::Exact`] (a rule set the source does not hold, a position a database does
/// not hold).
pub fn valued<G: ExactGame, V: ExactValues<G> + ?Sized>(
    values: &V,
    position: &G,
) -> Result<Valued<G>, GradeError> {
    let text = || position.to_string();
    let refused = |e: ExactError| match e {
        ExactError::Solve(source) => GradeError::Solve {
            position: text(),
            source,
        },
        ExactError::NotExact => GradeError::NotExact(text()),
        source => GradeError::Exact {
            position: text(),
            source: Box::new(source),
        },
    };
    values
        .check_rules(&position.rules())
        .map_err(|m| refused(m.into()))?;
    let Some(side) = position.side_to_move() else {
        return Err(GradeError::Finished(text()));
    };
    let moves = values.move_values_of(position).map_err(refused)?;
    let stored = position.stored_margin();
    Ok(Valued {
        position: *position,
        seeds: position.house_seeds(),
        stores: if side == Side::South { stored } else { -stored },
        moves,
    })
}

/// Values every position of `positions` with `values` ([`valued`]), in order; `progress`
/// gets the index of each position valued.
///
/// # Errors
/// The first error of [`valued`].
pub fn value_set<G: ExactGame, V: ExactValues<G> + ?Sized>(
    positions: &[G],
    values: &V,
    mut progress: impl FnMut(usize),
) -> Result<Vec<Valued<G>>, GradeError> {
    positions
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let v = valued(values, p);
            progress(i);
            v
        })
        .collect()
}

/// What a player may spend on one move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// The time the player is given (the engine's budget; an external program is asked
    /// `go time <ms>`).
    pub time: Duration,
    /// Extra wall time allowed past `time` before the answer counts as timed out (start-up,
    /// pipes, an engine finishing its last iteration).
    pub grace: Duration,
    /// A node budget for engine players (`go … nodes N` for an external program), `None`
    /// for none. Node budgets make the engine's moves reproducible.
    pub nodes: Option<u64>,
}

impl Budget {
    /// A budget of `time` with a grace of half a second and no node budget.
    #[must_use]
    pub fn time(time: Duration) -> Budget {
        Budget {
            time,
            grace: Duration::from_millis(500),
            nodes: None,
        }
    }

    /// The wall time after which an answer is timed out: `time + grace` (at most
    /// `Duration::MAX`).
    #[must_use]
    pub fn deadline(&self) -> Duration {
        self.time.saturating_add(self.grace)
    }
}

/// A player's answer to one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer<M> {
    /// A move (the grader checks that it is legal).
    Move(M),
    /// An answer that is not a move of the game's notation (the text given).
    Unreadable(String),
    /// The player failed: it crashed, raised, refused the position, ended (the reason).
    Failed(String),
    /// No answer within the budget's deadline.
    TimedOut,
}

/// A player that chooses moves.
pub trait Player<G: Game> {
    /// The player's name in reports.
    fn name(&self) -> String;

    /// The player's move in `position` within `budget`. The grader times the call and
    /// counts an answer after [`Budget::deadline`] as timed out; a player that can stop
    /// itself (an engine, an external program) answers [`Answer::TimedOut`] itself rather
    /// than overrun.
    fn answer(&mut self, position: &G, budget: &Budget) -> Answer<G::Move>;

    /// Whether the player keeps its own clock (answers [`Answer::TimedOut`] itself, e.g. an
    /// external program whose start-up is not counted): then the grader does not time the
    /// call. Default `false`.
    fn times_itself(&self) -> bool {
        false
    }

    /// The reason the player gave when it refused to be told the rule set (an external
    /// program's `error …` reply to `rules <rule set>`), `None` when it accepted it or is
    /// never told (the engine, a closure). Default `None`.
    fn rules_refused(&self) -> Option<String> {
        None
    }

    /// The player's move in the current position of `game`, a game in progress whose moves
    /// and positions since its start are the game's history (Oware's repetitions, OW-6.2,
    /// and move limit, OW-6.4): what a match asks ([`crate::matches`]). The default answers
    /// [`Player::answer`] on the current position alone; the engine searches with the history,
    /// and an external program is sent the moves played when the rules have a history rule.
    fn answer_game(&mut self, game: &GameRecord<G>, budget: &Budget) -> Answer<G::Move> {
        self.answer(game.position(), budget)
    }

    /// The depth in plies of the search behind the last answer, when the player searches and
    /// says so (the engine; an external program whose `bestmove` line holds `depth <plies>`),
    /// else `None`. Default `None`.
    fn last_depth(&self) -> Option<u32> {
        None
    }

    /// The last answer as the player wrote it, when it is text read as a move (an external
    /// program's move word: `03` for the move `3`), so that a failure line quotes the
    /// player's own words; `None` for a player whose moves are values (the engine, a
    /// closure), whose move is shown in the game's notation. Default `None`.
    fn answer_text(&self) -> Option<String> {
        None
    }

    /// The CPU time (user + system) the player has spent so far, seconds from an origin of
    /// its own, or `None` when it cannot be measured now. A match reads it before and after
    /// each answer and counts the difference as the answer's CPU time
    /// ([`MoveStats::cpu_seconds`](crate::matches::MoveStats::cpu_seconds)). The default is
    /// the CPU time of this process (`getrusage(RUSAGE_SELF)`,
    /// [`mancala_solver::usage::process_seconds`]; `None` off Unix) less that of the threads
    /// that read external programs' output ([`ExternalPlayer`]'s readers, each counting its
    /// own with [`mancala_solver::usage::thread_seconds`]): right for a player that computes
    /// in this process (the engine, a closure) while nothing else in it computes. An external
    /// program counts its own processes instead ([`ExternalPlayer`]).
    fn cpu_seconds(&self) -> Option<f64> {
        external::in_process_seconds()
    }
}

/// `text` cut at [`mancala_core::Shortened::MAX_CHARS`] characters with `…`, its control
/// characters kept: [`Verdict`]'s `Display` quotes it as Rust quotes a string, escaping them
/// once.
pub(crate) fn cut(text: &str) -> String {
    let max = mancala_core::Shortened::MAX_CHARS;
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut cut: String = text.chars().take(max).collect();
    cut.push('…');
    cut
}

/// The verdict on `answer`, given `late` (it came after the deadline from a player that
/// does not keep its own clock), `text` (the answer as the player wrote it,
/// [`Player::answer_text`]) and `legal` (whether a move is legal in the position, called
/// at most once, for a move on time: a match plays the move as its check): the move, or why
/// the player failed ([`Verdict::Illegal`] with the player's text, trimmed and cut ([`cut`]),
/// else the move in the game's notation; [`Verdict::Failed`], [`Verdict::TimedOut`]; never [`Verdict::Played`]). How
/// [`grade`] and a match ([`crate::matches`]) judge an answer alike.
pub(crate) fn judge<M: Copy + fmt::Display>(
    answer: Answer<M>,
    late: bool,
    text: Option<String>,
    mut legal: impl FnMut(M) -> bool,
) -> Result<M, Verdict> {
    match answer {
        _ if late => Err(Verdict::TimedOut),
        Answer::Move(mv) if legal(mv) => Ok(mv),
        Answer::Move(mv) => Err(Verdict::Illegal(
            text.map_or_else(|| mv.to_string(), |t| cut(t.trim())),
        )),
        Answer::Unreadable(t) => Err(Verdict::Illegal(t)),
        Answer::Failed(w) => Err(Verdict::Failed(w)),
        Answer::TimedOut => Err(Verdict::TimedOut),
    }
}

/// The engine of `mancala_solver::engine` at a level, in this process: a [`LevelPlayer`]
/// with a [`DEFAULT_TT_BYTES`] table (kept from position to position) and seed 1 for the
/// weaker moves of levels 1–4, searching with the budget's time and node budget — the
/// defaults of `mancala agent line`, so that `mancala agent line --level L` run as an
/// [`ExternalPlayer`] with a node budget grades the same.
pub struct EnginePlayer<G: Evaluate> {
    player: LevelPlayer<G>,
    /// The depth of the last search, plies.
    depth: Option<u32>,
}

impl<G: Evaluate> EnginePlayer<G> {
    /// The engine at `level`, weaker moves drawn from `seed`.
    #[must_use]
    pub fn new(level: Level, seed: u64) -> EnginePlayer<G> {
        EnginePlayer {
            player: LevelPlayer::with_engine(Engine::with_tt_bytes(DEFAULT_TT_BYTES), level, seed),
            depth: None,
        }
    }

    /// The engine, e.g. to attach an endgame database.
    pub fn engine_mut(&mut self) -> &mut Engine<G> {
        self.player.engine_mut()
    }
}

impl<G: Evaluate> Player<G> for EnginePlayer<G> {
    fn name(&self) -> String {
        format!("engine level {}", self.player.level())
    }

    fn answer(&mut self, position: &G, budget: &Budget) -> Answer<G::Move> {
        // As `mancala agent line`'s `go` after `position`: a game with no moves played.
        self.answer_game(&GameRecord::from_position(*position), budget)
    }

    fn answer_game(&mut self, game: &GameRecord<G>, budget: &Budget) -> Answer<G::Move> {
        let mut limits = Limits::time(budget.time);
        if let Some(n) = budget.nodes {
            limits = limits.with_nodes(n);
        }
        self.depth = None;
        match self.player.choose_game(game, limits) {
            Ok(c) => {
                self.depth = Some(c.search.depth);
                Answer::Move(c.mv)
            }
            Err(e) => Answer::Failed(e.to_string()),
        }
    }

    fn last_depth(&self) -> Option<u32> {
        self.depth
    }
}

/// A player made of a closure `(position, budget) -> Answer`, named `name`.
pub struct FnPlayer<F> {
    name: String,
    f: F,
}

impl<F> FnPlayer<F> {
    /// The closure `f` as a player called `name`.
    pub fn new(name: impl Into<String>, f: F) -> FnPlayer<F> {
        FnPlayer {
            name: name.into(),
            f,
        }
    }
}

impl<G: Game, F: FnMut(&G, &Budget) -> Answer<G::Move>> Player<G> for FnPlayer<F> {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn answer(&mut self, position: &G, budget: &Budget) -> Answer<G::Move> {
        (self.f)(position, budget)
    }
}

/// How a player's answer was scored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A legal move, scored by its value.
    Played,
    /// The answer was not a legal move here (the text given): scored as the worst move.
    Illegal(String),
    /// The player failed (the reason): scored as the worst move.
    Failed(String),
    /// No answer within the deadline: scored as the worst move.
    TimedOut,
}

impl Verdict {
    /// Whether the player failed here (anything but [`Verdict::Played`]).
    #[must_use]
    pub fn failed(&self) -> bool {
        *self != Verdict::Played
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Played => write!(f, "played"),
            Verdict::Illegal(t) => write!(f, "illegal move {t:?}"),
            Verdict::Failed(w) => write!(f, "failed: {w}"),
            Verdict::TimedOut => write!(f, "timed out"),
        }
    }
}

/// One graded move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveGrade<G: Game> {
    /// Index of the position in the set (or ply of the game, [`play_games`]).
    pub index: usize,
    /// The position, with the values of its moves.
    pub valued: Valued<G>,
    /// The move played, `None` when the player failed.
    pub chosen: Option<G::Move>,
    /// How the answer was scored.
    pub verdict: Verdict,
    /// Seeds given away: best value − value of the chosen move (the worst move's when the
    /// player failed), ≥ 0.
    pub loss: i32,
    /// Wall time of the answer, seconds.
    pub seconds: f64,
}

/// Asks `player` for a move in `valued`'s position and scores it.
fn grade_one<G: Game, P: Player<G> + ?Sized>(
    player: &mut P,
    index: usize,
    valued: &Valued<G>,
    budget: &Budget,
) -> MoveGrade<G> {
    let t0 = Instant::now();
    let answer = player.answer(&valued.position, budget);
    let seconds = t0.elapsed().as_secs_f64();
    let late = !player.times_itself() && t0.elapsed() > budget.deadline();
    let text = player.answer_text();
    let (chosen, verdict) = match judge(answer, late, text, |mv| valued.value_of(mv).is_some()) {
        Ok(mv) => (Some(mv), Verdict::Played),
        Err(verdict) => (None, verdict),
    };
    let value = chosen
        .and_then(|m| valued.value_of(m))
        .unwrap_or_else(|| valued.worst());
    MoveGrade {
        index,
        valued: valued.clone(),
        chosen,
        verdict,
        loss: valued.best() - value,
        seconds,
    }
}

/// The losses of a group of positions with a number of seeds on the board.
#[derive(Clone, Debug, PartialEq)]
pub struct SeedBucket {
    /// Fewest seeds on the board in the group.
    pub min_seeds: u32,
    /// Most seeds on the board in the group.
    pub max_seeds: u32,
    /// Positions in the group.
    pub positions: usize,
    /// Share of optimal moves, 0..=1.
    pub optimal: f64,
    /// Mean loss, seeds.
    pub mean_loss: f64,
    /// Worst loss, seeds.
    pub worst_loss: i32,
}

/// The grades of one player on a set.
#[derive(Clone, Debug, PartialEq)]
pub struct GradeReport<G: Game> {
    /// The player's name ([`Player::name`]).
    pub player: String,
    /// The player's reason for refusing the rule set it was told
    /// ([`Player::rules_refused`]), `None` when it accepted it or was not told.
    pub rules_refused: Option<String>,
    /// One grade per position, in the set's order.
    pub moves: Vec<MoveGrade<G>>,
}

/// 1 when the move played was optimal: a legal move of loss 0 (a failure never is, even
/// where every move has the same value), else 0.
fn optimal<G: Game>(g: &MoveGrade<G>) -> i32 {
    i32::from(g.loss == 0 && !g.verdict.failed())
}

fn mean(v: impl Iterator<Item = i32>) -> (usize, f64) {
    let (n, s) = v.fold((0usize, 0i64), |(n, s), x| (n + 1, s + i64::from(x)));
    (n, if n == 0 { 0.0 } else { s as f64 / n as f64 })
}

impl<G: Game> GradeReport<G> {
    /// Positions graded.
    #[must_use]
    pub fn positions(&self) -> usize {
        self.moves.len()
    }

    /// Share of positions where the move played was optimal (a legal move of loss 0; a
    /// failure never counts, even where every legal move has the same value), 0..=1 (0 for
    /// no position).
    #[must_use]
    pub fn optimal_share(&self) -> f64 {
        let (n, m) = mean(self.moves.iter().map(optimal));
        if n == 0 {
            0.0
        } else {
            m
        }
    }

    /// Mean loss per position, seeds.
    #[must_use]
    pub fn mean_loss(&self) -> f64 {
        mean(self.moves.iter().map(|g| g.loss)).1
    }

    /// Worst loss, seeds (0 for no position).
    #[must_use]
    pub fn worst_loss(&self) -> i32 {
        self.moves.iter().map(|g| g.loss).max().unwrap_or(0)
    }

    /// Total loss, seeds.
    #[must_use]
    pub fn total_loss(&self) -> i64 {
        self.moves.iter().map(|g| i64::from(g.loss)).sum()
    }

    /// The positions where the player failed ([`Verdict::failed`]), in the set's order.
    pub fn failures(&self) -> impl Iterator<Item = &MoveGrade<G>> {
        self.moves.iter().filter(|g| g.verdict.failed())
    }

    /// The `n` largest losses, largest first (ties in the set's order); positions with loss 0
    /// are left out.
    #[must_use]
    pub fn worst(&self, n: usize) -> Vec<&MoveGrade<G>> {
        let mut v: Vec<&MoveGrade<G>> = self.moves.iter().filter(|g| g.loss > 0).collect();
        v.sort_by(|a, b| b.loss.cmp(&a.loss).then(a.index.cmp(&b.index)));
        v.truncate(n);
        v
    }

    /// Losses grouped by seeds on the board in groups of `width` seeds (`1..=width`,
    /// `width+1..=2·width`, …; 0 is taken as 1), the groups with at least one position, fewest
    /// seeds first.
    #[must_use]
    pub fn by_seeds(&self, width: u32) -> Vec<SeedBucket> {
        let width = width.max(1);
        let mut keys: Vec<u32> = self
            .moves
            .iter()
            .map(|g| g.valued.seeds.saturating_sub(1) / width)
            .collect();
        keys.sort_unstable();
        keys.dedup();
        keys.into_iter()
            .map(|k| {
                let group: Vec<&MoveGrade<G>> = self
                    .moves
                    .iter()
                    .filter(|g| g.valued.seeds.saturating_sub(1) / width == k)
                    .collect();
                SeedBucket {
                    min_seeds: k * width + 1,
                    max_seeds: (k + 1) * width,
                    positions: group.len(),
                    optimal: mean(group.iter().map(|g| optimal(g))).1,
                    mean_loss: mean(group.iter().map(|g| g.loss)).1,
                    worst_loss: group.iter().map(|g| g.loss).max().unwrap_or(0),
                }
            })
            .collect()
    }
}

/// Grades `player` on every position of `set` within `budget`: each answer is scored by its
/// loss ([`MoveGrade`]); a failure is scored as the worst legal move and the run goes on.
/// `progress` is called after each position with its grade; when it returns
/// [`ControlFlow::Break`] the run stops there and the report holds the positions graded so
/// far (how a caller stops a run on Ctrl-C).
pub fn grade<G: Game, P: Player<G> + ?Sized>(
    player: &mut P,
    set: &[Valued<G>],
    budget: &Budget,
    mut progress: impl FnMut(&MoveGrade<G>) -> ControlFlow<()>,
) -> GradeReport<G> {
    let mut moves = Vec::with_capacity(set.len());
    for (i, v) in set.iter().enumerate() {
        let g = grade_one(player, i, v, budget);
        let flow = progress(&g);
        moves.push(g);
        if flow.is_break() {
            break;
        }
    }
    GradeReport {
        player: player.name(),
        rules_refused: player.rules_refused(),
        moves,
    }
}

/// One whole game of a player against the exact solver ([`play_games`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GameGrade<G: Game> {
    /// The opening the game started from (the player moves first).
    pub opening: G,
    /// The opening's exact value for the player (seeds).
    pub value: i32,
    /// The player's moves, graded, in order (`index` is the ply from the opening).
    pub moves: Vec<MoveGrade<G>>,
    /// Every move of the game, the player's and the solver's, in order.
    pub line: Vec<G::Move>,
    /// The player's final margin from the opening on (seeds it scored minus the solver's,
    /// counted from the opening's stores): `value − given_away()` when the solver plays
    /// perfectly.
    pub result: i32,
}

impl<G: Game> GameGrade<G> {
    /// Seeds the player gave away over the game: the sum of its losses.
    #[must_use]
    pub fn given_away(&self) -> i32 {
        self.moves.iter().map(|m| m.loss).sum()
    }
}

/// Plays `player` against the exact solver from each position of `set` (the player moves
/// first), the set valued beforehand ([`value_set`]: so a set whose stated values are checked
/// against the exact ones first, [`check_values`], has each opening valued once): the solver
/// plays the first of its best moves ([`Valued::best_moves`]), each of the player's moves is
/// graded as in [`grade`] (a failure plays the worst legal move for it and the game goes on),
/// until the game is over. Every position after an opening is valued with `values`, once. A
/// pie-rule swap ([`Game::swaps_players`]) exchanges the sides of the player and the solver.
/// `progress` is called after each game with its index in `set` and the game.
///
/// # Errors
/// [`GradeError::Finished`] for a finished position of `set`, [`GradeError::NotItsMoves`]
/// for one whose moves valued are not its legal moves, before its game; the first error of
/// `values` ([`valued`]) on a position of a game.
pub fn play_games<G: ExactGame, P: Player<G> + ?Sized, V: ExactValues<G> + ?Sized>(
    player: &mut P,
    set: &[Valued<G>],
    values: &V,
    budget: &Budget,
    mut progress: impl FnMut(usize, &GameGrade<G>),
) -> Result<Vec<GameGrade<G>>, GradeError> {
    let mut games = Vec::with_capacity(set.len());
    for (gi, first) in set.iter().enumerate() {
        let opening = &first.position;
        if opening.is_over() {
            return Err(GradeError::Finished(opening.to_string()));
        }
        // Values of another position would be played as this one's moves.
        let legal = opening.legal_moves();
        if !first.moves.iter().map(|m| m.0).eq(legal.iter().copied()) {
            return Err(GradeError::NotItsMoves(opening.to_string()));
        }
        let ours = opening.side_to_move();
        let mut swapped = false;
        let mut pos = *opening;
        let mut moves = Vec::new();
        let mut line = Vec::new();
        let mut valued = Some(first.clone());
        while !pos.is_over() {
            let v = match valued.take() {
                Some(v) => v,
                None => self::valued(values, &pos)?,
            };
            let player_to_move = (pos.side_to_move() == ours) != swapped;
            let mv = if player_to_move {
                let g = grade_one(player, line.len(), &v, budget);
                let worst = v.moves.iter().min_by_key(|m| m.1).map(|m| m.0);
                let mv = g.chosen.or(worst);
                moves.push(g);
                mv
            } else {
                v.best_moves().first().copied()
            };
            // A position not over has a legal move, and each is valued.
            let Some(mv) = mv else {
                return Err(GradeError::NotItsMoves(pos.to_string()));
            };
            if pos.swaps_players(mv) {
                swapped = !swapped;
            }
            pos = pos.play_unchecked(mv);
            line.push(mv);
        }
        let outcome = pos.outcome().expect("a finished game has an outcome");
        // The player's margin at the end (its side then: its side at the opening, exchanged
        // by a swap) minus its margin at the opening (its side then).
        let opening_south = ours == Some(mancala_core::Side::South);
        let player_south = opening_south != swapped;
        let end = if player_south {
            outcome.score
        } else {
            -outcome.score
        };
        let start = if opening_south {
            first.stores
        } else {
            -first.stores
        };
        let result = end - start;
        let g = GameGrade {
            opening: *opening,
            value: first.best(),
            moves,
            line,
            result,
        };
        progress(gi, &g);
        games.push(g);
    }
    Ok(games)
}
