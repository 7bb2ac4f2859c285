//! Togyz Kumalak core speed: perft(6) from the start of `togyz-kumalak`, for the packed
//! position and the plain array reference (`mancala-reference`'s `togyz`) side by side in the
//! same run. Throughput counts the sowings played (the nodes of depths 1..=6, every one
//! played, the last ply included).
//!
//! Run: `cargo bench -p mancala-benches --bench togyz`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mancala_core::togyz::{perft, TogyzPosition, TogyzRules};
use mancala_reference::togyz::Board;

/// perft(6) from the start of `togyz-kumalak` (`docs/rules/togyz-kumalak.md`, TK-11.1),
/// asserted for both implementations before timing and in every timed run.
const PERFT6: u64 = 360_035;

fn perft6(c: &mut Criterion) {
    let rules = TogyzRules::default();
    let start = TogyzPosition::start(rules);
    let plain = Board::start(rules);
    assert_eq!(perft(&start, 6), PERFT6);
    assert_eq!(plain.perft(6), PERFT6);
    let sown: u64 = (1..=6).map(|d| perft(&start, d)).sum();
    let mut g = c.benchmark_group("togyz_perft6");
    g.sample_size(10);
    g.throughput(Throughput::Elements(sown));
    g.bench_function("packed", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 6), PERFT6));
    });
    g.bench_function("array_reference", |b| {
        b.iter(|| assert_eq!(black_box(&plain).perft(6), PERFT6));
    });
    g.finish();
}

criterion_group!(benches, perft6);
criterion_main!(benches);
