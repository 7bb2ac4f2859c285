//! Anytime engine speed: nodes per second of fixed-depth searches (deterministic, so the
//! node count and result are the same every run) from fixed Kalah positions. The table is
//! cleared before every search so that each iteration does the same work; the best move and
//! score are checked inside the loop, so a fast wrong answer cannot pass as a speed-up.
//!
//! Run: `cargo bench -p mancala-benches --bench engine`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mancala_core::kalah::{KalahPosition, KalahRules};
use mancala_solver::engine::{Engine, Limits};

fn cases() -> Vec<(&'static str, KalahPosition, u32)> {
    let standard = KalahRules::standard();
    vec![
        (
            "kalah(6,4) start, depth 12",
            KalahPosition::start(standard),
            12,
        ),
        (
            "kalah(6,4) middle game, depth 12",
            KalahPosition::parse(standard, "5,0,6,1,5,5,3,4,5,0,6,5,1,2 N").unwrap(),
            12,
        ),
        (
            "manchester start, depth 10",
            KalahPosition::start(KalahRules::manchester()),
            10,
        ),
    ]
}

fn engine_nodes_per_second(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    for (name, pos, depth) in cases() {
        let limits = Limits::depth(depth);
        let mut engine: Engine<KalahPosition> = Engine::with_tt_bytes(4 << 20);
        let expected = engine.search(&pos, &limits).unwrap();
        group.throughput(Throughput::Elements(expected.nodes));
        group.bench_function(name, |b| {
            b.iter(|| {
                engine.clear();
                let r = engine.search(black_box(&pos), &limits).unwrap();
                assert_eq!(
                    (r.best_move, r.score, r.nodes),
                    (expected.best_move, expected.score, expected.nodes)
                );
                r.nodes
            })
        });
    }
    group.finish();
}

criterion_group!(benches, engine_nodes_per_second);
criterion_main!(benches);
