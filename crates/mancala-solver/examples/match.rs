//! Matches between engine levels, or between the engine and a uniformly random mover, with
//! sides alternated every game.
//!
//! ```text
//! cargo run --release -p mancala-solver --example match -- \
//!     --rules standard --games 100 --a 10@100 --b random
//! cargo run --release -p mancala-solver --example match -- \
//!     --rules standard --games 100 --a 7@1000 --b 4@1000 --opening 4
//! cargo run --release -p mancala-solver --example match -- \
//!     --rules bao-la-kete --games 100 --a 10@100 --b random
//! cargo run --release -p mancala-solver --example match -- \
//!     --rules oware --games 100 --a 10@100 --b 5@100
//! ```
//!
//! `--rules` takes a rule set of any game: Kalah, `bao-la-kete[+…]`, an Oware rule set
//! (`oware`, `awari`, `oware-openspiel`, with options) or a Togyz Kumalak one. The score of a Bao game is +1 or −1 (win or
//! loss); of a Kalah or Oware game, South's final seeds minus North's. Games are played
//! through a game record ([`mancala_core::GameRecord`]), so the history rules end them: an
//! Oware game ends at its rule set's repetition of a position (OW-6.2) or move limit (OW-6.4).
//! A Togyz Kumalak game can cycle forever (TK-6.6): give matches between two engines a
//! `move_limit` (`togyz-kumalak+move_limit=1000`).
//!
//! A player is `random` or `LEVEL@MS` (strength level 1–10, at most MS milliseconds a move).
//! `--opening K` starts each pair of games with the same K random plies (then the same
//! opening is played again with the sides exchanged), so that deterministic levels do not
//! replay one game a hundred times. `--seed S` fixes every random choice.
//! Prints one line per game and a summary: wins of A, wins of B, draws, A's mean final store
//! difference, and the engines' mean depth and time a move.
//!
//! The command `mancala match` plays such matches too, with external programs speaking the
//! line protocol as players (`docs/line-protocol.md`, "Playing a match"); this example stays
//! as the figures of BENCHMARKS.md were measured with it (its own random generator and seeds).

use std::process::ExitCode;
use std::time::{Duration, Instant};

use mancala_core::{with_game, AnyGame, GameRecord, Rules, Side};
use mancala_solver::engine::{Engine, Evaluate, Level, LevelPlayer};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

#[derive(Clone, Copy, Debug)]
enum Spec {
    Random,
    Engine(Level, u64),
}

impl std::fmt::Display for Spec {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Spec::Random => f.write_str("random"),
            Spec::Engine(l, ms) => write!(f, "level {l} @ {ms} ms"),
        }
    }
}

fn parse_spec(s: &str) -> Result<Spec, String> {
    if s == "random" {
        return Ok(Spec::Random);
    }
    let (l, ms) = s
        .split_once('@')
        .ok_or_else(|| format!("player `{s}`: expected `random` or LEVEL@MS"))?;
    let l: u32 = l.parse().map_err(|_| format!("player `{s}`: bad level"))?;
    let ms: u64 = ms
        .parse()
        .map_err(|_| format!("player `{s}`: bad milliseconds"))?;
    Ok(Spec::Engine(Level::new(l).map_err(|e| e.to_string())?, ms))
}

#[derive(Default)]
struct Stats {
    moves: u64,
    depth: u64,
    time: Duration,
}

enum Agent<G: Evaluate> {
    Random(Box<StdRng>),
    Engine(Box<LevelPlayer<G>>, Duration),
}

impl<G: Evaluate> Agent<G> {
    fn new(spec: Spec, seed: u64) -> Agent<G> {
        match spec {
            Spec::Random => Agent::Random(Box::new(StdRng::seed_from_u64(seed))),
            Spec::Engine(level, ms) => Agent::Engine(
                Box::new(LevelPlayer::with_engine(
                    Engine::with_tt_bytes(8 << 20),
                    level,
                    seed,
                )),
                Duration::from_millis(ms),
            ),
        }
    }

    fn choose(&mut self, game: &GameRecord<G>, stats: &mut Stats) -> G::Move {
        let p = game.position();
        match self {
            Agent::Random(rng) => {
                let moves = p.legal_moves();
                moves[rng.gen_range(0..moves.len())]
            }
            Agent::Engine(player, time) => {
                let t = Instant::now();
                // With the game's history (Oware: repetitions and the move limit).
                let limits = player.level().limits(*time);
                let c = player
                    .choose_game(game, limits)
                    .expect("the game is not over");
                stats.time += t.elapsed();
                stats.moves += 1;
                stats.depth += u64::from(c.search.depth);
                c.mv
            }
        }
    }
}

/// Plays one game through a game record (so that the history rules end it); returns the
/// final score (South − North, in the game's units) and whether A ended on South.
fn play_game<G: Evaluate>(
    start: G,
    a: &mut Agent<G>,
    b: &mut Agent<G>,
    a_first: bool,
    stats: &mut [Stats; 2],
) -> (i32, bool) {
    let mut record = GameRecord::from_position(start);
    // Which side A plays; a pie-rule swap exchanges the players' sides.
    let mut a_side = if a_first { Side::South } else { Side::North };
    while let Some(side) = record.position().side_to_move() {
        let p = *record.position();
        let mv = if side == a_side {
            a.choose(&record, &mut stats[0])
        } else {
            b.choose(&record, &mut stats[1])
        };
        if p.swaps_players(mv) {
            a_side = a_side.opponent();
        }
        record.play(mv).expect("players choose legal moves");
    }
    let outcome = record.position().outcome().expect("over");
    (outcome.score, a_side == Side::South)
}

fn run_match<G: Evaluate>(
    start: G,
    games: u32,
    a: Spec,
    b: Spec,
    opening: u32,
    seed: u64,
) -> Result<(), String> {
    let mut wins = [0u32; 2];
    let mut draws = 0;
    let mut diff_sum = 0i64;
    let mut stats = [Stats::default(), Stats::default()];
    let mut rng = StdRng::seed_from_u64(seed);
    let mut opening_pos = start;
    let t0 = Instant::now();
    for g in 0..games {
        if g % 2 == 0 {
            // A fresh random opening for each pair of games.
            opening_pos = start;
            for _ in 0..opening {
                if opening_pos.is_over() {
                    break;
                }
                let moves = opening_pos.legal_moves();
                opening_pos = opening_pos
                    .play(moves[rng.gen_range(0..moves.len())])
                    .map_err(|e| e.to_string())?;
            }
        }
        let a_first = g % 2 == 0;
        let mut pa = Agent::new(a, seed.wrapping_mul(1000).wrapping_add(u64::from(g)));
        let mut pb = Agent::new(b, seed.wrapping_mul(1000).wrapping_add(u64::from(g) + 500));
        let (score, a_south) = if opening_pos.is_over() {
            (opening_pos.outcome().map_or(0, |o| o.score), a_first)
        } else {
            play_game(opening_pos, &mut pa, &mut pb, a_first, &mut stats)
        };
        let a_score = if a_south { score } else { -score };
        diff_sum += i64::from(a_score);
        let result = match a_score.signum() {
            1 => {
                wins[0] += 1;
                "A wins"
            }
            -1 => {
                wins[1] += 1;
                "B wins"
            }
            _ => {
                draws += 1;
                "draw"
            }
        };
        println!(
            "game {:>3}: A {}, {result} ({a_score:+})",
            g + 1,
            if a_first { "first" } else { "second" }
        );
    }
    println!("A = {a}, B = {b}, {games} games, opening {opening} random plies, seed {seed}");
    println!(
        "A wins {}, B wins {}, draws {draws}; A's mean final score {:+.2}; wall time {:.1} s",
        wins[0],
        wins[1],
        diff_sum as f64 / f64::from(games.max(1)),
        t0.elapsed().as_secs_f64()
    );
    for (name, s) in ["A", "B"].iter().zip(&stats) {
        if s.moves > 0 {
            println!(
                "{name}: {} engine moves, mean depth {:.1}, mean time a move {:.1} ms",
                s.moves,
                s.depth as f64 / s.moves as f64,
                s.time.as_secs_f64() * 1000.0 / s.moves as f64
            );
        }
    }
    Ok(())
}

fn run() -> Result<(), String> {
    let mut games = 100u32;
    let mut rules = "standard".to_string();
    let mut a = Spec::Engine(Level::MAX, 100);
    let mut b = Spec::Random;
    let mut opening = 0u32;
    let mut seed = 1u64;
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let mut value = || args.next().ok_or_else(|| format!("{flag} needs a value"));
        match flag.as_str() {
            "--games" => games = value()?.parse().map_err(|_| "--games: a number")?,
            "--rules" => rules = value()?,
            "--a" => a = parse_spec(&value()?)?,
            "--b" => b = parse_spec(&value()?)?,
            "--opening" => opening = value()?.parse().map_err(|_| "--opening: a number")?,
            "--seed" => seed = value()?.parse().map_err(|_| "--seed: a number")?,
            _ => return Err(format!("unknown argument `{flag}`")),
        }
    }
    let rules: Rules = rules.parse().map_err(|e| format!("--rules: {e}"))?;
    let game = AnyGame::new(rules);
    with_game!(game, g => run_match(*g.position(), games, a, b, opening, seed))
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("match: {e}");
            ExitCode::FAILURE
        }
    }
}
