//! Builds the `awari` databases to N seeds in memory and prints, per level, the boards, the
//! value distribution (wins, draws, losses for the mover, mean value), the wall times by
//! phase and the rate; then the totals, the peak resident memory and the lookup time, one
//! byte a board and packed (`AwariDb::convert`).
//!
//! ```text
//! cargo run --release -p mancala-solver --example awari_build -- N [--threads T]
//!     [--probe "1 1 1 1 1 2 4 2 3 0 0 0"]
//! cargo run --release -p mancala-solver --example awari_build -- N --open FILE
//! ```
//!
//! With `--open FILE` nothing is built: the saved database of N seeds (`mancala egdb build
//! --rules awari --max-seeds N`, any encoding: byte, packed or compact, and of any grand-slam
//! rule) is opened and checked, and the time to open it, the peak resident memory and the
//! lookup time in its own encoding are printed.
//!
//! CPU time is the process's user + system time (from `/proc/self/stat` on Linux).

use std::time::Instant;

use mancala_solver::awari::{rank, AwariBoard, AwariDb};
use mancala_solver::egdb::Encoding;

/// User + system CPU seconds of this process (Linux), 0 elsewhere.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0.0;
    };
    // Fields after the command name (which is in parentheses): utime is field 14, stime 15.
    let rest = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|s| s.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// 1,000,000 boards of level `n` spread over its index (a fixed multiplicative sequence).
fn probes(n: u32) -> Vec<AwariBoard> {
    let len = rank::level_len(n).unwrap();
    (0..1_000_000u64)
        .map(|i| rank::unrank(n, (i.wrapping_mul(0x9E37_79B9_7F4A_7C15)) % len).unwrap())
        .collect()
}

/// Mean nanoseconds of `board_value()` over `probes`, and the sum of the values (a checksum).
fn time_lookups(db: &AwariDb, probes: &[AwariBoard]) -> (f64, i64) {
    let t = Instant::now();
    let mut sum = 0i64;
    for b in probes {
        sum += i64::from(db.board_value(b).unwrap());
    }
    (t.elapsed().as_secs_f64() * 1e9 / probes.len() as f64, sum)
}

fn peak_resident() {
    if let Ok(status) = std::fs::read_to_string("/proc/self/status") {
        for line in status.lines().filter(|l| l.starts_with("VmHWM")) {
            println!("peak resident: {line}");
        }
    }
}

/// `--open FILE`: open (and check) a saved database, then time lookups in its encoding.
fn open_and_look_up(n: u32, file: &std::path::Path) {
    println!("opening {}, load {}", file.display(), load_average());
    let t = Instant::now();
    let c = cpu_seconds();
    let db = AwariDb::open(file).expect("open");
    println!(
        "opened and checked in {:.1} s wall, {:.1} s CPU: levels 0..={}, {} encoding, {:.3} bits a board, {} bytes in memory",
        t.elapsed().as_secs_f64(),
        cpu_seconds() - c,
        db.max_seeds(),
        db.encoding(),
        db.payload_bits_per_board(),
        db.bytes()
    );
    peak_resident();
    let probes = probes(n.min(db.max_seeds()));
    let _ = time_lookups(&db, &probes);
    let (ns, sum) = time_lookups(&db, &probes);
    println!(
        "lookup: {ns:.1} ns a board (value() of 1,000,000 random boards of level {}, checksum {sum}), load {}",
        n.min(db.max_seeds()),
        load_average()
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let n: u32 = args.first().map_or(16, |s| s.parse().expect("N"));
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let threads: usize = opt("--threads").map_or(0, |s| s.parse().expect("threads"));
    if let Some(file) = opt("--open") {
        open_and_look_up(n, std::path::Path::new(&file));
        return;
    }
    println!(
        "awari databases to {n} seeds, threads {threads} (0 = every core), load {}",
        load_average()
    );
    println!(
        "{:>3} {:>14} {:>14} {:>14} {:>14} {:>8} {:>8} {:>8} {:>8} {:>8}",
        "n", "boards", "wins", "draws", "losses", "mean", "fwd s", "retro s", "cpu s", "Mb/s/core"
    );
    let t0 = Instant::now();
    let c0 = cpu_seconds();
    let mut c_prev = c0;
    let db = AwariDb::build_with(n, threads, |r| {
        let s = r.stats;
        let c = cpu_seconds();
        let cpu = c - c_prev;
        c_prev = c;
        let rate = if cpu > 0.0 {
            s.boards as f64 / cpu / 1e6
        } else {
            0.0
        };
        println!(
            "{:>3} {:>14} {:>14} {:>14} {:>14} {:>8.4} {:>8.2} {:>8.2} {:>8.2} {:>8.2}{}",
            s.seeds,
            s.boards,
            s.wins,
            s.draws,
            s.losses,
            s.mean(),
            r.times.forward,
            r.times.retro,
            cpu,
            rate,
            if r.times.rescans > 0 {
                format!(" ({} rescans)", r.times.rescans)
            } else {
                String::new()
            }
        );
    })
    .expect("build");
    let wall = t0.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - c0;
    let boards: u64 = (0..=n).map(|k| rank::level_len(k).unwrap()).sum();
    println!(
        "built {boards} boards ({} bytes) in {wall:.1} s wall, {cpu:.1} s CPU: {:.2} M boards/s/core, load {}",
        db.bytes(),
        boards as f64 / cpu / 1e6,
        load_average()
    );
    peak_resident();

    let probes = probes(n);
    // The same boards in the packed encoding too (the database as a packed file is read);
    // the two are timed in turns, byte, packed, byte, packed, and the second round printed
    // (the first warms the row tables and the probes in the cache for both).
    let packed = db.convert(Encoding::Packed).expect("packed");
    let time = |d: &AwariDb| time_lookups(d, &probes);
    let _ = (time(&db), time(&packed));
    let (ns, sum) = time(&db);
    let (pns, psum) = time(&packed);
    assert_eq!(psum, sum, "the packed values differ");
    println!("lookup: {ns:.1} ns a board (value() of 1,000,000 random boards of level {n}, checksum {sum})");
    println!(
        "lookup packed: {pns:.1} ns a board ({} bits a board, {} bytes; the same boards, same checksum), load {}",
        packed.bits_per_entry(),
        packed.bytes(),
        load_average()
    );
    drop(packed);

    if let Some(text) = opt("--probe") {
        let b: AwariBoard = text.parse().expect("board");
        let moves: Vec<String> = db
            .board_move_values(&b)
            .expect("probe")
            .iter()
            .map(|(m, v)| format!("{}:{v:+}", m.house))
            .collect();
        println!(
            "{b}: value {:+}; moves {}",
            db.board_value(&b).expect("probe"),
            moves.join(" ")
        );
    }
}
