//! The packed Oware perft (`mancala_core::oware::perft`) against a plain-array C perft of
//! the same rules (`benches/c/oware_perft.c`, built by the benches crate's build script with
//! `-O3 -march=native`), in one process, interleaved: packed, C, packed, C, … for a number of
//! rounds; with `reference` as a third argument, the project's Rust array reference
//! (`crates/mancala-core/tests/oware_reference`) runs third in every round. Each run's CPU
//! time (user + system, `getrusage(RUSAGE_SELF)`) and wall time are measured; the ratio of a
//! round is a baseline's CPU time over the packed run's, and the median of the rounds is
//! printed with the counts (which must agree) and the load average before and after.
//!
//! Both perfts do the same work: every ply is played, the last one included, and at the
//! last ply each move is sown, its capture taken (the grand slam spared), the stores
//! updated and the majority end checked after a capture, with no legal-move generation
//! for the leaves (the C perft generates moves only for a position it plays on, and the
//! packed perft's leaf sowing, `OwarePosition::leaf_const`, skips the same). The packed
//! perft does more at its leaves, not less: it sows every house, an illegal move's too, and
//! folds each sowing into a checksum that the optimiser cannot drop.
//!
//! `cargo run --release -p mancala-benches --example oware_perft_vs_c -- [DEPTH] [ROUNDS]
//! [reference]` (default depth 11, 5 rounds; `oware` from the start, repetition not checked).

#[path = "../../crates/mancala-core/tests/oware_reference/mod.rs"]
mod oware_reference;

use std::time::{Duration, Instant};

use mancala_benches::c_oware_perft;
use mancala_core::oware::{perft, OwarePosition, OwareRules};

/// The CPU time of this process so far, user + system.
fn cpu_time() -> Duration {
    let mut usage = core::mem::MaybeUninit::<libc::rusage>::zeroed();
    // SAFETY: getrusage writes a `struct rusage` into the buffer it is given, which is one.
    let rc = unsafe { libc::getrusage(libc::RUSAGE_SELF, usage.as_mut_ptr()) };
    assert_eq!(rc, 0, "getrusage failed");
    // SAFETY: getrusage returned 0, so it filled the buffer.
    let usage = unsafe { usage.assume_init() };
    let tv = |t: libc::timeval| {
        Duration::from_secs(t.tv_sec as u64) + Duration::from_micros(t.tv_usec as u64)
    };
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// Runs `f`, returning its result, CPU time and wall time.
fn measure(f: impl FnOnce() -> u64) -> (u64, Duration, Duration) {
    let (cpu, wall) = (cpu_time(), Instant::now());
    let nodes = f();
    (nodes, cpu_time() - cpu, wall.elapsed())
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(11);
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5).max(1);
    let with_reference = args.next().as_deref() == Some("reference");
    let ref_rules = oware_reference::RefRules::of(OwareRules::OWARE);
    let ref_start = oware_reference::RefPos::start(&ref_rules);
    let start = OwarePosition::start(OwareRules::OWARE);
    println!("oware perft({depth}) from the start, {rounds} rounds, packed then C each round");
    println!("load average before: {}", load_average());
    let (mut cpu_ratios, mut wall_ratios) = (Vec::new(), Vec::new());
    let (mut ours_cpu, mut c_cpu) = (Vec::new(), Vec::new());
    let (mut ref_ratios, mut ref_c_ratios) = (Vec::new(), Vec::new());
    for round in 1..=rounds {
        let (ours, a_cpu, a_wall) = measure(|| perft(std::hint::black_box(&start), depth));
        let (theirs, b_cpu, b_wall) = measure(|| c_oware_perft(std::hint::black_box(depth)));
        assert_eq!(ours, theirs, "the two perfts disagree at depth {depth}");
        let cpu = b_cpu.as_secs_f64() / a_cpu.as_secs_f64();
        let wall = b_wall.as_secs_f64() / a_wall.as_secs_f64();
        println!(
            "round {round}: {ours} nodes; packed {:.3} s CPU ({:.3} s wall), \
             C {:.3} s CPU ({:.3} s wall): {cpu:.2}x CPU, {wall:.2}x wall",
            a_cpu.as_secs_f64(),
            a_wall.as_secs_f64(),
            b_cpu.as_secs_f64(),
            b_wall.as_secs_f64(),
        );
        cpu_ratios.push(cpu);
        wall_ratios.push(wall);
        ours_cpu.push(a_cpu.as_secs_f64());
        c_cpu.push(b_cpu.as_secs_f64());
        if with_reference {
            let (plain, r_cpu, r_wall) =
                measure(|| std::hint::black_box(&ref_start).perft(&ref_rules, depth));
            assert_eq!(ours, plain, "the reference disagrees at depth {depth}");
            let ratio = r_cpu.as_secs_f64() / a_cpu.as_secs_f64();
            println!(
                "round {round}: reference {:.3} s CPU ({:.3} s wall): {ratio:.2}x CPU \
                 the packed run, {:.2}x CPU the C run",
                r_cpu.as_secs_f64(),
                r_wall.as_secs_f64(),
                r_cpu.as_secs_f64() / b_cpu.as_secs_f64(),
            );
            ref_ratios.push(ratio);
            ref_c_ratios.push(r_cpu.as_secs_f64() / b_cpu.as_secs_f64());
        }
    }
    println!("load average after: {}", load_average());
    println!(
        "median: packed {:.3} s CPU, C {:.3} s CPU; C / packed = {:.2}x CPU ({:.2}x wall)",
        median(ours_cpu),
        median(c_cpu),
        median(cpu_ratios),
        median(wall_ratios),
    );
    if with_reference {
        println!(
            "median: reference / packed = {:.2}x CPU, reference / C = {:.2}x CPU",
            median(ref_ratios),
            median(ref_c_ratios),
        );
    }
}
