//! Bao la Kete: random complete games per second and legal moves generated per second.
//!
//! `cargo bench -p mancala-benches --bench bao`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mancala_core::bao::{BaoPosition, BaoRules};
use mancala_core::Side;

/// xorshift64*: a fixed, dependency-free move chooser.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// Plays one random game from the start; returns the plies and the winner.
fn random_game(rng: &mut Rng) -> (u32, Side) {
    let mut pos = BaoPosition::start(BaoRules::LAMU);
    let mut plies = 0;
    loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            // The side to move has lost (K-10.1, K-10.2); seeds are conserved (K-4.1).
            assert_eq!(pos.total_seeds(), 64);
            return (plies, pos.to_move().opponent());
        }
        let mv = moves[(rng.next() % moves.len() as u64) as usize];
        pos = pos.play(mv).expect("a listed move is legal");
        plies += 1;
    }
}

/// Positions met in 200 random games, for the move-generation bench.
fn sample_positions() -> Vec<BaoPosition> {
    let mut rng = Rng(0x1234_5678_9ABC_DEF1);
    let mut out = Vec::new();
    for _ in 0..200 {
        let mut pos = BaoPosition::start(BaoRules::LAMU);
        loop {
            out.push(pos);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos
                .play(moves[(rng.next() % moves.len() as u64) as usize])
                .unwrap();
        }
    }
    out
}

fn bench_games(c: &mut Criterion) {
    let mut g = c.benchmark_group("bao");
    const GAMES: u64 = 100;
    g.throughput(Throughput::Elements(GAMES));
    g.bench_function("random_games", |b| {
        b.iter(|| {
            let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
            let mut plies = 0u64;
            let mut south = 0u64;
            for _ in 0..GAMES {
                let (p, w) = random_game(&mut rng);
                plies += u64::from(p);
                south += u64::from(w == Side::South);
            }
            // Every game has at least the 44 nemo plies or ends earlier by a win; both sides
            // win some of 100 random games.
            assert!(plies >= GAMES * 10 && south > 0 && south < GAMES);
            black_box(plies)
        });
    });
    let positions = sample_positions();
    let expected: u64 = positions.iter().map(|p| p.legal_moves().len() as u64).sum();
    assert!(expected > positions.len() as u64);
    g.throughput(Throughput::Elements(expected));
    g.bench_function("legal_moves", |b| {
        b.iter(|| {
            let n: u64 = positions
                .iter()
                .map(|p| black_box(p).legal_moves().len() as u64)
                .sum();
            assert_eq!(n, expected);
            n
        });
    });
    g.finish();
}

// The 100,000 random games that check the rules are played by the `#[ignore]`d test
// `hundred_thousand_random_games` of mancala-core (tests/bao_games.rs):
// `cargo test -p mancala-core --release --test bao_games -- --ignored --nocapture`.
criterion_group!(benches, bench_games);
criterion_main!(benches);
