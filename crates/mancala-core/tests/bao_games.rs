//! Random complete games of Bao la Kete, and perft from the start position.

use mancala_core::bao::{BaoPosition, BaoRules};
use mancala_core::game::perft;
use mancala_core::Side;

/// A small deterministic generator (xorshift64*), so no test depends on a random crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Plays one random game; returns (plies, winner).
fn random_game(seed: u64) -> (u32, Side) {
    let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut pos = BaoPosition::start(BaoRules::LAMU);
    let mut plies = 0;
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            let out = pos.outcome().expect("a position without moves is finished");
            return (plies, out.winner.expect("no draws in Bao (K-10.3)"));
        }
        let mv = moves[(rng.next() % moves.len() as u64) as usize];
        pos = pos.play(mv).expect("a listed move plays");
        assert_eq!(pos.total_seeds(), 64, "K-4.1");
        plies += 1;
        assert!(plies < 100_000, "game does not end");
    }
}

/// `docs/rules/bao-la-kete.md`, §13: "From the start, South has 4 legal moves (F6 or F7, either
/// direction); the numbers of move sequences of length 1, 2 and 3 are 4, 14 and 38."
#[test]
fn perft_from_the_start_matches_the_rules_file() {
    let start = BaoPosition::start(BaoRules::LAMU);
    assert_eq!(perft(&start, 1), 4);
    assert_eq!(perft(&start, 2), 14);
    assert_eq!(perft(&start, 3), 38);
}

#[test]
fn three_hundred_random_games_end() {
    let mut plies = 0u64;
    let mut wins = [0u32; 2];
    for seed in 0..300 {
        let (p, w) = random_game(seed);
        plies += u64::from(p);
        wins[w.index()] += 1;
    }
    assert!(plies > 300 * 10);
    assert!(wins[0] > 0 && wins[1] > 0);
}

/// 100,000 random games (run with `--ignored`, release): prints the time taken.
#[test]
#[ignore = "long: 100,000 random games"]
fn hundred_thousand_random_games() {
    let t = std::time::Instant::now();
    let mut plies = 0u64;
    for seed in 0..100_000 {
        plies += u64::from(random_game(seed).0);
    }
    eprintln!(
        "100000 random games, {plies} plies, in {:.1} s",
        t.elapsed().as_secs_f64()
    );
}

/// Random games reach every kind of move and ending: hizi zetu blocks, kichwa and
/// stop/safari choices, wins by an emptied front row and by having no legal move.
#[test]
fn random_games_reach_every_feature() {
    use mancala_core::bao::BaoMove;
    let mut counts = [0u32; 6];
    for seed in 0..300u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut pos = BaoPosition::start(BaoRules::LAMU);
        loop {
            if pos.reserved().is_some() {
                counts[0] += 1;
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                if pos.front_row_occupied(pos.to_move()) {
                    counts[4] += 1;
                } else {
                    counts[5] += 1;
                }
                break;
            }
            let mv: BaoMove = moves[(rng.next() % moves.len() as u64) as usize];
            counts[1] += u32::from(mv.kichwa.is_some());
            counts[2] += u32::from(mv.kuu.is_some());
            counts[3] += u32::from(mv.direction.is_none());
            pos = pos.play(mv).unwrap();
        }
    }
    eprintln!(
        "reserved, kichwa, kuu choice, nemo captures, no-move losses, front-row losses: {counts:?}"
    );
    assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
}

/// Perft 4..6 from the start, printed for the report (run with `--ignored --nocapture`).
#[test]
#[ignore = "prints deeper perft counts"]
fn deeper_perft() {
    let start = BaoPosition::default();
    for d in 4..=6 {
        let t = std::time::Instant::now();
        eprintln!(
            "perft({d}) = {} in {:.2} s",
            perft(&start, d),
            t.elapsed().as_secs_f64()
        );
    }
}

/// Random games under the non-default options reach what those options change: a later
/// blocked turn of a longer hizi zetu block (K-8.4, A8: the owner to move with fewer blocked
/// turns to come than the block started with) and, with `first_mtaji_takata_from_kuu=off`,
/// mtaji moves of a side whose kuu stands that start elsewhere (K-8.3a).
#[test]
fn random_games_reach_the_option_features() {
    use mancala_core::bao::{BaoMove, Pit};
    let rules: BaoRules =
        "bao-la-kete+must_capture_reserved=off+first_mtaji_takata_from_kuu=off+block_duration=3"
            .parse()
            .unwrap();
    let mut counts = [0u32; 2];
    for seed in 0..300u64 {
        let mut rng = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
        let mut pos = BaoPosition::start(rules);
        loop {
            if let Some((owner, _)) = pos.reserved() {
                if owner == pos.to_move() && pos.block_turns_left() < 2 {
                    counts[0] += 1;
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv: BaoMove = moves[(rng.next() % moves.len() as u64) as usize];
            if !pos.is_nemo() && pos.kuu_stands(pos.to_move()) && mv.pit != Pit::KUU {
                counts[1] += 1;
            }
            pos = pos.play(mv).unwrap();
        }
    }
    eprintln!("later blocked turns, mtaji moves beside a standing kuu: {counts:?}");
    assert!(counts.iter().all(|&c| c > 0), "{counts:?}");
}
