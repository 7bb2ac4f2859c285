//! Oware core speed: perft(9) from the start of `oware` and of `awari`, for the packed
//! position and the plain array reference (`crates/mancala-core/tests/oware_reference`) side
//! by side in the same run. Throughput counts the sowings played (the nodes of depths
//! 1..=9, every one played, the last ply included).
//!
//! Run: `cargo bench -p mancala-benches --bench oware`

#[path = "../../crates/mancala-core/tests/oware_reference/mod.rs"]
mod oware_reference;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mancala_core::oware::{perft, OwarePosition, OwareRules};
use oware_reference::{RefPos, RefRules};

/// perft(9) from the start, the same for both rule sets: checked against the reference by the
/// test suite (`tests/oware_vs_reference.rs` to depth 7) and asserted for both
/// implementations here before timing.
const PERFT9: u64 = 3_592_872;

fn perft9(c: &mut Criterion) {
    for (name, rules) in [("oware", OwareRules::OWARE), ("awari", OwareRules::AWARI)] {
        let start = OwarePosition::start(rules);
        let rr = RefRules::of(rules);
        let plain = RefPos::start(&rr);
        assert_eq!(perft(&start, 9), PERFT9);
        assert_eq!(plain.perft(&rr, 9), PERFT9);
        let sown: u64 = (1..=9).map(|d| perft(&start, d)).sum();
        let mut g = c.benchmark_group(format!("oware_perft9/{name}"));
        g.sample_size(10);
        g.throughput(Throughput::Elements(sown));
        g.bench_function("packed", |b| {
            b.iter(|| assert_eq!(perft(black_box(&start), 9), PERFT9));
        });
        g.bench_function("array_reference", |b| {
            b.iter(|| assert_eq!(black_box(&plain).perft(&rr, 9), PERFT9));
        });
        g.finish();
    }
}

criterion_group!(benches, perft9);
criterion_main!(benches);
