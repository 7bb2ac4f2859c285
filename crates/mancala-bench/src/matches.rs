//! Matches between two players (`mancala match`): any [`Player`] of [`crate::grade`] — the
//! engine at a level in this process ([`EnginePlayer`](crate::grade::EnginePlayer)), a
//! uniformly random mover ([`RandomPlayer`]), an external program speaking the line protocol
//! ([`ExternalPlayer`](crate::grade::ExternalPlayer), started once and reused), a closure.
//!
//! Each game is played through a [`GameRecord`] from the rule set's start, so the history
//! rules end it (Oware's repetitions, OW-6.2, and move limit, OW-6.4; Togyz Kumalak's move
//! limit) and the record holds every move: it can be replayed (`mancala replay`). Games come
//! in pairs: the first player of the rules is A in the first game of a pair and B in the
//! second, and both games start with the same random opening of [`MatchSettings::opening`]
//! plies, so that deterministic players do not replay one game over and over. A player whose
//! answer is not a legal move, that fails (an external program that crashes or answers
//! `error …`) or that answers after its [`Budget::deadline`] loses the game at once, as
//! [`crate::grade`] judges an answer; an external program is then started again for its next
//! move, and the match goes on.
//!
//! The score of a match is A's points over the games (a win 1, a draw ½), with a 95 %
//! Wilson score interval ([`wilson`]).

use std::fmt;
use std::ops::ControlFlow;
use std::time::Instant;

use mancala_core::{Game, GameRecord, Player as Mover, Side};

use crate::generate::SplitMix64;
use crate::grade::{judge, Answer, Budget, Player, Verdict};

/// One of the two players of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Seat {
    /// The first player named (`--a`).
    A,
    /// The second player named (`--b`).
    B,
}

impl Seat {
    /// 0 for A, 1 for B: the index of the seat in the arrays of a match.
    #[must_use]
    pub fn index(self) -> usize {
        match self {
            Seat::A => 0,
            Seat::B => 1,
        }
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Seat::A => "A",
            Seat::B => "B",
        })
    }
}

/// What a match plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchSettings {
    /// Games to play (an odd number leaves the last opening played once).
    pub games: u32,
    /// Random plies of each opening (uniformly random legal moves from the start among those
    /// that leave the game on; fewer when every move would end it), played by both games of
    /// a pair: the players always play from where the opening stops.
    pub opening: u32,
    /// Seed of the openings (SplitMix64, Steele, Lea & Flood 2014): the same seed, the same
    /// openings with every build.
    pub seed: u64,
    /// What A (index 0) and B (index 1) may spend on a move.
    pub budgets: [Budget; 2],
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchGame<G: Game> {
    /// The game's number in the match, from 1.
    pub number: u32,
    /// Whether A was the first player of the rules (South at the start; a pie-rule swap then
    /// exchanges the players' sides).
    pub a_first: bool,
    /// The game from the rule set's start: the opening's plies, then the players' moves; its
    /// last position is the final one, or the one where a player forfeited.
    pub record: GameRecord<G>,
    /// Plies of the random opening at the start of the record.
    pub opening_plies: usize,
    /// The player that lost by forfeit and why (an illegal or unreadable move, a failure, a
    /// timeout), `None` when the game was played to its end.
    pub forfeit: Option<(Seat, Verdict)>,
}

impl<G: Game> MatchGame<G> {
    /// A's side at the end of the game (after any pie-rule swap).
    #[must_use]
    pub fn a_side(&self) -> Side {
        self.record.side_of(if self.a_first {
            Mover::First
        } else {
            Mover::Second
        })
    }

    /// The final score, South minus North, in the game's units (seeds; Bao la Kete ±1),
    /// `None` when a player forfeited.
    #[must_use]
    pub fn score(&self) -> Option<i32> {
        if self.forfeit.is_some() {
            return None;
        }
        self.record.position().outcome().map(|o| o.score)
    }

    /// The final score from A's side (A's seeds minus B's), `None` when a player forfeited.
    #[must_use]
    pub fn a_score(&self) -> Option<i32> {
        let score = self.score()?;
        Some(if self.a_side() == Side::South {
            score
        } else {
            -score
        })
    }

    /// A's result: 1 for a win, 0 for a draw, −1 for a loss (a forfeit loses).
    #[must_use]
    pub fn a_result(&self) -> i32 {
        match &self.forfeit {
            Some((Seat::A, _)) => -1,
            Some((Seat::B, _)) => 1,
            None => self.a_score().map_or(0, i32::signum),
        }
    }
}

/// The moves of one player over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MoveStats {
    /// Answers asked of the player (a failed one included).
    pub moves: u64,
    /// Wall time of those answers, seconds.
    pub seconds: f64,
    /// Answers that came with a search depth ([`Player::last_depth`]).
    pub searched: u64,
    /// The sum of those depths, plies.
    pub depth: u64,
    /// Answers whose CPU time was measured ([`Player::cpu_seconds`] known before and after
    /// the answer; not an external program's first answer after a start, nor any off
    /// Linux for a program).
    pub cpu_moves: u64,
    /// CPU time (user + system) of those answers, seconds: of this process for a player
    /// that runs in it, of the program and every process it started for an external one.
    pub cpu_seconds: f64,
}

impl MoveStats {
    /// The mean depth of the searches, plies, `None` when no answer gave a depth.
    #[must_use]
    pub fn mean_depth(&self) -> Option<f64> {
        (self.searched > 0).then(|| self.depth as f64 / self.searched as f64)
    }

    /// The mean wall time of an answer, seconds, `None` for no answer.
    #[must_use]
    pub fn mean_seconds(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.seconds / self.moves as f64)
    }

    /// The mean CPU time of an answer whose CPU time was measured, seconds, `None` when
    /// none was.
    #[must_use]
    pub fn mean_cpu_seconds(&self) -> Option<f64> {
        (self.cpu_moves > 0).then(|| self.cpu_seconds / self.cpu_moves as f64)
    }
}

/// The results of a match so far.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games played.
    pub games: u32,
    /// Games A won (B's forfeits included).
    pub a_wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games A lost (A's forfeits included).
    pub a_losses: u32,
    /// Games lost by forfeit, A's (index 0) and B's (index 1).
    pub forfeits: [u32; 2],
    /// The moves of A (index 0) and B (index 1).
    pub stats: [MoveStats; 2],
}

/// The normal quantile of a two-sided 95 % interval, z = Φ⁻¹(0.975).
pub const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson score interval (Wilson 1927, "Probable inference, the law of succession, and
/// statistical inference", JASA 22) of a proportion `p` (0..=1) observed over `n` trials at
/// the normal quantile `z` ([`Z95`] for 95 %): `(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) /
/// (1 + z²/n)`, clamped to 0..=1. A match's score counts a draw as half a point. `(0, 1)`
/// when `n` is 0.
#[must_use]
pub fn wilson(p: f64, n: f64, z: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let d = 1.0 + z2 / n;
    (
        ((centre - half) / d).clamp(0.0, 1.0),
        ((centre + half) / d).clamp(0.0, 1.0),
    )
}

impl Tally {
    /// A's score: its points (a win 1, a draw ½) over the games, 0..=1; `None` before the
    /// first game has ended (no score yet).
    #[must_use]
    pub fn a_score(&self) -> Option<f64> {
        if self.games == 0 {
            return None;
        }
        Some((f64::from(self.a_wins) + f64::from(self.draws) / 2.0) / f64::from(self.games))
    }

    /// The 95 % Wilson interval of A's score ([`wilson`] at [`Z95`]); `None` with no game.
    #[must_use]
    pub fn a_interval(&self) -> Option<(f64, f64)> {
        let score = self.a_score()?;
        Some(wilson(score, f64::from(self.games), Z95))
    }

    /// Counts `game`.
    fn add<G: Game>(&mut self, game: &MatchGame<G>) {
        self.games += 1;
        match game.a_result() {
            1 => self.a_wins += 1,
            0 => self.draws += 1,
            _ => self.a_losses += 1,
        }
        if let Some((seat, _)) = &game.forfeit {
            self.forfeits[seat.index()] += 1;
        }
    }
}

/// A uniformly random mover: each move drawn from the legal moves with SplitMix64 (Steele,
/// Lea & Flood 2014) from its seed, so the same seed plays the same moves in the same
/// positions with every build.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: SplitMix64,
}

impl RandomPlayer {
    /// A random mover drawing from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: SplitMix64::new(seed),
        }
    }
}

impl<G: Game> Player<G> for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn answer(&mut self, position: &G, _budget: &Budget) -> Answer<G::Move> {
        let moves = position.legal_moves();
        match moves.len() {
            0 => Answer::Failed("the game is over".to_string()),
            n => Answer::Move(moves[self.rng.below(n as u64) as usize]),
        }
    }
}

/// A random opening: up to `plies` moves from `start`, each drawn uniformly among the legal
/// moves not drawn yet until one leaves the game on (by the board and the history rules), so
/// that the players have a game to play; fewer plies when every move of a position would end
/// the game.
fn random_opening<G: Game>(start: G, plies: u32, rng: &mut SplitMix64) -> Vec<G::Move> {
    let mut record = GameRecord::from_position(start);
    'plies: for _ in 0..plies {
        let mut moves = record.position().legal_moves().to_vec();
        while !moves.is_empty() {
            let mv = moves.swap_remove(rng.below(moves.len() as u64) as usize);
            let mut after = record.clone();
            if after.play(mv).is_ok() && !after.is_over() {
                record = after;
                continue 'plies;
            }
        }
        break;
    }
    record.moves().to_vec()
}

/// Plays game number `number` from `start`: the `opening` moves, then the players in turn
/// (A the first player of the rules when `a_first`) until the game ends or a player forfeits.
fn play_game<G: Game>(
    start: G,
    opening: &[G::Move],
    number: u32,
    a_first: bool,
    players: &mut [&mut dyn Player<G>; 2],
    settings: &MatchSettings,
    stats: &mut [MoveStats; 2],
) -> MatchGame<G> {
    let mut record = GameRecord::from_position(start);
    for &mv in opening {
        // The opening's moves were drawn legal from this start.
        let _ = record.play(mv);
    }
    let opening_plies = record.plies();
    let mut forfeit = None;
    while let Some(side) = record.position().side_to_move() {
        let first = record.player_on(side) == Mover::First;
        let seat = if first == a_first { Seat::A } else { Seat::B };
        let budget = &settings.budgets[seat.index()];
        let player = &mut *players[seat.index()];
        let cpu0 = player.cpu_seconds();
        let t0 = Instant::now();
        let answer = player.answer_game(&record, budget);
        let elapsed = t0.elapsed();
        let cpu1 = player.cpu_seconds();
        let late = !player.times_itself() && elapsed > budget.deadline();
        let s = &mut stats[seat.index()];
        s.moves += 1;
        s.seconds += elapsed.as_secs_f64();
        if let (Some(c0), Some(c1)) = (cpu0, cpu1) {
            if c1 >= c0 {
                s.cpu_moves += 1;
                s.cpu_seconds += c1 - c0;
            }
        }
        if let Some(d) = player.last_depth() {
            s.searched += 1;
            s.depth += u64::from(d);
        }
        // The move's one legality check is its play: an illegal move leaves the record as
        // it was.
        let text = player.answer_text();
        if let Err(verdict) = judge(answer, late, text, |mv| record.play(mv).is_ok()) {
            forfeit = Some((seat, verdict));
            break;
        }
    }
    MatchGame {
        number,
        a_first,
        record,
        opening_plies,
        forfeit,
    }
}

/// Plays a match of `settings.games` games from `start` (the rule set's start position)
/// between `players[0]` (A) and `players[1]` (B), each move within its budget
/// (`settings.budgets`). Games come in pairs from one random opening of `settings.opening`
/// plies, A the first player of the rules in the first game of a pair and B in the second.
/// `each` is called after every game with the game and the tally so far; when it returns
/// [`ControlFlow::Break`] the match stops there. Returns the tally of the games played.
///
/// A player whose answer is not a legal move, that fails, or that answers after its
/// [`Budget::deadline`] (when it does not keep its own clock, [`Player::times_itself`]) loses
/// the game by forfeit ([`MatchGame::forfeit`]); the match goes on (an external program is
/// started again for its next move).
pub fn play_match<G: Game>(
    start: G,
    mut players: [&mut dyn Player<G>; 2],
    settings: &MatchSettings,
    mut each: impl FnMut(&MatchGame<G>, &Tally) -> ControlFlow<()>,
) -> Tally {
    let mut rng = SplitMix64::new(settings.seed);
    let mut opening = Vec::new();
    let mut tally = Tally::default();
    for g in 0..settings.games {
        if g % 2 == 0 {
            opening = random_opening(start, settings.opening, &mut rng);
        }
        let game = play_game(
            start,
            &opening,
            g + 1,
            g % 2 == 0,
            &mut players,
            settings,
            &mut tally.stats,
        );
        tally.add(&game);
        if each(&game, &tally).is_break() {
            break;
        }
    }
    tally
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grade::FnPlayer;
    use mancala_core::kalah::KalahPosition;
    use std::time::Duration;

    /// The intervals BENCHMARKS.md quotes for matches against another engine, computed
    /// there by hand from the formula: +16 =3 −31 (0.35 over 50 games) gives [0.23, 0.49],
    /// +96 =2 −2 (0.97 over 100) gives [0.92, 0.99].
    #[test]
    fn wilson_intervals_match_the_published_ones() {
        let round = |(lo, hi): (f64, f64)| ((lo * 100.0).round(), (hi * 100.0).round());
        assert_eq!(round(wilson(0.35, 50.0, Z95)), (23.0, 49.0));
        assert_eq!(round(wilson(0.97, 100.0, Z95)), (92.0, 99.0));
        // All points over 20 games: the upper end is 1, the lower 20 / (20 + z²).
        let (lo, hi) = wilson(1.0, 20.0, Z95);
        assert_eq!(hi, 1.0);
        assert!((lo - 20.0 / (20.0 + Z95 * Z95)).abs() < 1e-12);
        assert_eq!(wilson(0.5, 0.0, Z95), (0.0, 1.0));
    }

    /// An opening longer than any game stops where every legal move would end the game, so
    /// that the players make at least the last move; a short one has its plies.
    #[test]
    fn an_opening_leaves_the_game_on() {
        let start = KalahPosition::start("kalah(4,3)".parse().unwrap());
        let mut rng = SplitMix64::new(3);
        for _ in 0..50 {
            let mut record = GameRecord::from_position(start);
            for mv in random_opening(start, 500, &mut rng) {
                record.play(mv).unwrap();
            }
            assert!(!record.is_over());
            for mv in record.position().legal_moves() {
                let mut after = record.clone();
                after.play(mv).unwrap();
                assert!(after.is_over(), "{mv} leaves the game on");
            }
            assert_eq!(random_opening(start, 3, &mut rng).len(), 3);
        }
    }

    /// Before a game has ended there is no score, and no interval; after one win of A the
    /// score is 1 and the interval Wilson's for one trial.
    #[test]
    fn no_game_no_score() {
        let mut t = Tally::default();
        assert_eq!((t.a_score(), t.a_interval()), (None, None));
        t.games = 1;
        t.a_wins = 1;
        assert_eq!(t.a_score(), Some(1.0));
        assert_eq!(t.a_interval(), Some(wilson(1.0, 1.0, Z95)));
    }

    fn settings(games: u32, opening: u32) -> MatchSettings {
        let b = Budget::time(Duration::from_secs(60));
        MatchSettings {
            games,
            opening,
            seed: 7,
            budgets: [b, b],
        }
    }

    /// A player that always plays the first legal move, against one that answers a house
    /// that does not exist: the second loses every game by forfeit at its first move, and
    /// the first plays only the moves before it.
    #[test]
    fn an_illegal_answer_forfeits_the_game() {
        let mut first = FnPlayer::new("first", |p: &KalahPosition, _: &Budget| {
            Answer::Move(p.legal_moves()[0])
        });
        let mut bad = FnPlayer::new("bad", |_: &KalahPosition, _: &Budget| {
            Answer::Unreadable("9".to_string())
        });
        let start = KalahPosition::start("kalah(4,3)".parse().unwrap());
        let mut games = Vec::new();
        let tally = play_match(start, [&mut first, &mut bad], &settings(4, 0), |g, _| {
            games.push(g.clone());
            ControlFlow::Continue(())
        });
        assert_eq!((tally.games, tally.a_wins, tally.forfeits), (4, 4, [0, 4]));
        for g in &games {
            assert_eq!(g.forfeit, Some((Seat::B, Verdict::Illegal("9".into()))));
            // A moved first in games 1 and 3 (one move, unless it earned another turn: the
            // first legal move of kalah(4,3) is house 1, 3 seeds, ending in house 4: no
            // extra turn), B at once in games 2 and 4.
            let plies = if g.a_first { 1 } else { 0 };
            assert_eq!(g.record.plies(), plies, "game {}", g.number);
            assert_eq!(g.a_result(), 1);
            assert_eq!(g.score(), None);
        }
    }

    /// Two random movers with a seed: every game ends (a result each), the games of a pair
    /// share their opening, and the same seed plays the same match again.
    #[test]
    fn random_matches_are_reproducible() {
        let start = KalahPosition::start("kalah(4,3)".parse().unwrap());
        let run = || {
            let (mut a, mut b) = (RandomPlayer::new(1), RandomPlayer::new(2));
            let mut games = Vec::new();
            let tally = play_match(start, [&mut a, &mut b], &settings(6, 3), |g, _| {
                games.push(g.clone());
                ControlFlow::Continue(())
            });
            (tally, games)
        };
        let (tally, games) = run();
        assert_eq!(tally.a_wins + tally.draws + tally.a_losses, 6);
        assert_eq!(tally.forfeits, [0, 0]);
        for pair in games.chunks(2) {
            assert_eq!(pair[0].record.moves()[..3], pair[1].record.moves()[..3]);
            assert!(pair[0].a_first && !pair[1].a_first);
        }
        for g in &games {
            assert!(g.record.is_over());
            // The final score is the stores' difference after the sweep: the board's.
            let o = g.record.position().outcome().unwrap();
            assert_eq!(g.score(), Some(o.score));
        }
        assert_eq!(run().1, games);
        // A stop after the second game.
        let (mut a, mut b) = (RandomPlayer::new(1), RandomPlayer::new(2));
        let t = play_match(start, [&mut a, &mut b], &settings(6, 3), |_, t| {
            if t.games == 2 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(t.games, 2);
    }
}
