//! Kalah core speed: sowings per second on a fixed set of random positions, and perft(10)
//! from the start of Kalah(6,4), for the packed board and the plain array reference
//! (`mancala_reference::kalah`) side by side in the same run.
//!
//! Run: `cargo bench -p mancala-benches --bench kalah`

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use mancala_benches::random_kalah_positions;
use mancala_core::kalah::{perft, KalahPosition, KalahRules};
use mancala_reference::kalah::{RefPos, RefRules};

fn to_ref(p: &KalahPosition) -> RefPos {
    let rules = RefRules::of(p.rules());
    let mut slots = [0u8; 16];
    for (i, s) in p.slots().iter().enumerate() {
        slots[i] = *s;
    }
    RefPos {
        rules,
        slots,
        to_move: usize::from(p.side_to_move() == Some(mancala_core::Side::North)),
        over: p.is_over(),
        swap_offered: p.swap_offered(),
        first_move: p.is_first_move(),
        opening: p.in_opening_turn(),
    }
}

fn sowings(c: &mut Criterion) {
    let positions = random_kalah_positions(KalahRules::standard(), 4096, 7);
    let plain: Vec<RefPos> = positions.iter().map(to_ref).collect();
    let count: u64 = positions
        .iter()
        .map(|p| u64::from(p.house_move_mask().count_ones()))
        .sum();
    // The reference lists the same moves (checked here, outside the timing).
    let ref_count: u64 = plain.iter().map(|p| p.moves().len() as u64).sum();
    assert_eq!(count, ref_count);

    let mut g = c.benchmark_group("kalah_sowings");
    g.throughput(Throughput::Elements(count));
    g.bench_function("packed", |b| {
        b.iter(|| {
            let mut check = 0u64;
            for p in &positions {
                p.for_each_child(|_, child| {
                    let (own, opp) = child.mover_relative();
                    check = check.wrapping_add(own ^ opp);
                });
            }
            black_box(check)
        });
    });
    g.bench_function("array_reference", |b| {
        b.iter(|| {
            let mut check = 0u64;
            for p in &plain {
                for h in 1..=p.rules.m {
                    if p.slots[if p.to_move == 0 { h - 1 } else { p.rules.m + h }] > 0 {
                        let child = p.play(h);
                        check = check.wrapping_add(u64::from(child.slots[0]));
                    }
                }
            }
            black_box(check)
        });
    });
    g.finish();
}

fn perft10(c: &mut Criterion) {
    let start = KalahPosition::start(KalahRules::standard());
    let plain = to_ref(&start);
    // perft(10) = 13,519,607 (equal for both, checked in the test suite up to depth 8); the
    // sowings played are the nodes of depths 1..=10.
    let sown: u64 = (1..=10).map(|d| perft(&start, d)).sum();
    let mut g = c.benchmark_group("kalah_perft10");
    g.sample_size(10);
    g.throughput(Throughput::Elements(sown));
    g.bench_function("packed", |b| {
        b.iter(|| assert_eq!(perft(black_box(&start), 10), 13_519_607));
    });
    g.bench_function("array_reference", |b| {
        b.iter(|| assert_eq!(black_box(&plain).perft(10), 13_519_607));
    });
    g.finish();
}

criterion_group!(benches, sowings, perft10);
criterion_main!(benches);
