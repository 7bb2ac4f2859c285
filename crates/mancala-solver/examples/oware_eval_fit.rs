//! Fits the weights of the Oware evaluation (`engine/oware.rs`) to the exact values of an
//! Oware database (of any grand-slam rule: the `awari` databases, or the database of
//! `grand_slam=none`, Abapa's neighbour, which the evaluation's weights come from) by least
//! squares, and prints them with the fit's quality beside that of today's and the hand-set
//! weights.
//!
//! ```text
//! mancala egdb build --rules "oware+majority=off+cycle_score=split" --max-seeds 24 --out egdb/
//! cargo run --release -p mancala-solver --example oware_eval_fit -- \
//!     egdb/awari+grand_slam=none.n24.egdb [--from 18] [--samples 150000]
//! ```
//!
//! Each level n from `--from` (default 12) to the database's N gives `--samples` boards
//! (default 200,000) spread over its index (a fixed multiplicative sequence, so the fit is
//! reproducible), those where the mover has a legal move under the database's grand-slam
//! rule. The value to fit is the database's value of the board (OW-10.3): the mover's future
//! captures minus the opponent's, in seeds. The terms are those of the evaluation, from the
//! mover's point of view: the seeds in each of the mover's houses and in each of the
//! opponent's (12 weights), the number of houses holding 1 or 2 seeds on each side (exposed
//! to a capture, 2 weights), the largest capture of one sowing of each side (the opponent's
//! as if he had the move), the empty houses of each side, the seeds each side's sowings
//! would drop in the other row (every house sown once, summed), the largest house of each
//! side and whether it laps (12 seeds or more). Two fits are printed: the first 18 terms
//! alone (`refit`) and all 24 (`with the candidates`, the evaluation's weights), each in
//! seeds and in score units (hundredths of a seed, rounded, as `engine/oware.rs` holds them);
//! then the root-mean-square error and R² on the boards fitted and on a second, disjoint
//! sample of the two fits, of today's weights (`FITTED`) and of the hand-set weights (a
//! quarter of a seed a seed in the row, half a seed an exposed house).

use mancala_solver::awari::{rank, AwariDb};

/// The number of terms: those of the evaluation's first 18 weights, then the candidates.
const TERMS: usize = 24;

/// The terms of today's evaluation (the first `BASE` of [`terms`]).
const BASE: usize = 18;

/// The seeds a sowing from each house of the row that comes first in `h` drops in the other
/// row, summed over the row: a full lap (11 seeds, the emptied house skipped) drops 6 there.
fn reach(h: &[u8; 12]) -> u32 {
    let mut seeds = 0;
    for (i, &s) in h[..6].iter().enumerate() {
        let (laps, rest) = (usize::from(s) / 11, usize::from(s) % 11);
        let partial = (i + rest).min(11) + 1;
        seeds += 6 * laps + partial.saturating_sub((i + 1).max(6));
    }
    seeds as u32
}

/// The terms of a board (the mover's houses first), as the evaluation computes them.
fn terms(h: &[u8; 12]) -> [f64; TERMS] {
    let mut t = [0.0; TERMS];
    for i in 0..12 {
        t[i] = f64::from(h[i]);
    }
    t[12] = h[..6].iter().filter(|&&s| s == 1 || s == 2).count() as f64;
    t[13] = h[6..].iter().filter(|&&s| s == 1 || s == 2).count() as f64;
    t[14] = f64::from(capture(h));
    let mut f = [0u8; 12];
    f[..6].copy_from_slice(&h[6..]);
    f[6..].copy_from_slice(&h[..6]);
    t[15] = f64::from(capture(&f));
    t[16] = h[..6].iter().filter(|&&s| s == 0).count() as f64;
    t[17] = h[6..].iter().filter(|&&s| s == 0).count() as f64;
    t[18] = f64::from(reach(h));
    t[19] = f64::from(reach(&f));
    let largest = |r: &[u8]| r.iter().copied().max().unwrap_or(0);
    t[20] = f64::from(largest(&h[..6]));
    t[21] = f64::from(largest(&h[6..]));
    t[22] = f64::from(u8::from(largest(&h[..6]) >= 12));
    t[23] = f64::from(u8::from(largest(&h[6..]) >= 12));
    t
}

/// The largest capture of one sowing by the player whose houses come first, as the
/// evaluation computes it: a sowing that ends in the opponent's row without a lap (at most
/// 11 seeds) takes the chain of houses of 2 or 3 seeds back from its last house.
fn capture(h: &[u8; 12]) -> u32 {
    let mut best = 0;
    for i in 0..6 {
        let s = usize::from(h[i]);
        if s == 0 || !(6..=11).contains(&(i + s)) {
            continue;
        }
        let mut last = i + s;
        let mut got = 0;
        while last >= 6 {
            let c = u32::from(h[last]) + 1;
            if c == 2 || c == 3 {
                got += c;
                last -= 1;
            } else {
                break;
            }
        }
        best = best.max(got);
    }
    best
}

/// `samples` boards of level `n` with a move for the mover, and their values: the `k`-th
/// sample of a stream (`k` = 0 or 1 for two disjoint samples).
fn sample(db: &AwariDb, n: u32, samples: u64, k: u64) -> Vec<([f64; TERMS], f64)> {
    let len = rank::level_len(n).expect("level");
    let mut out = Vec::new();
    let mut i = k;
    while (out.len() as u64) < samples.min(len / 2) {
        let index = i.wrapping_mul(0x9E37_79B9_7F4A_7C15) % len;
        i += 2;
        let board = rank::unrank(n, index).expect("unrank");
        if board.is_terminal() || board.moves_under(db.grand_slam()).is_empty() {
            continue;
        }
        let v = db.board_value(&board).expect("value");
        out.push((terms(&board.houses()), f64::from(v)));
    }
    out
}

/// Least squares: the weights minimising the squared error, by the normal equations solved
/// with Gaussian elimination (partial pivoting).
fn fit(rows: &[([f64; TERMS], f64)], k: usize) -> [f64; TERMS] {
    let mut a = [[0.0f64; TERMS + 1]; TERMS];
    for (x, y) in rows {
        for i in 0..k {
            for j in 0..k {
                a[i][j] += x[i] * x[j];
            }
            a[i][TERMS] += x[i] * y;
        }
    }
    for c in 0..k {
        let p = (c..k)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .expect("rows");
        a.swap(c, p);
        for r in 0..TERMS {
            if r != c && a[c][c] != 0.0 {
                let f = a[r][c] / a[c][c];
                let pivot = a[c];
                for (x, p) in a[r].iter_mut().zip(pivot).skip(c) {
                    *x -= f * p;
                }
            }
        }
    }
    let mut w = [0.0; TERMS];
    for i in 0..k {
        w[i] = if a[i][i] == 0.0 {
            0.0
        } else {
            a[i][TERMS] / a[i][i]
        };
    }
    w
}

/// Root-mean-square error and R² of weights `w` on `rows`.
fn quality(rows: &[([f64; TERMS], f64)], w: &[f64; TERMS]) -> (f64, f64) {
    let n = rows.len() as f64;
    let mean = rows.iter().map(|r| r.1).sum::<f64>() / n;
    let (mut se, mut st) = (0.0, 0.0);
    for (x, y) in rows {
        let p: f64 = x.iter().zip(w).map(|(a, b)| a * b).sum();
        se += (y - p) * (y - p);
        st += (y - mean) * (y - mean);
    }
    ((se / n).sqrt(), 1.0 - se / st)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let Some(file) = args.first().filter(|a| !a.starts_with("--")) else {
        eprintln!("usage: oware_eval_fit DATABASE [--from N] [--samples S]");
        std::process::exit(2);
    };
    let db = AwariDb::open(file).expect("open the database");
    let from: u32 = opt("--from").map_or(12, |s| s.parse().expect("--from"));
    let samples: u64 = opt("--samples").map_or(200_000, |s| s.parse().expect("--samples"));
    let top = db.max_seeds();
    let mut train = Vec::new();
    let mut test = Vec::new();
    for n in from..=top {
        train.extend(sample(&db, n, samples, 0));
        test.extend(sample(&db, n, samples, 1));
    }
    let base = fit(&train, BASE);
    let w = fit(&train, TERMS);
    // Today's weights of the evaluation, in seeds.
    let mut today = [0.0; TERMS];
    for (t, u) in today.iter_mut().zip(mancala_solver::engine::oware::FITTED) {
        *t = f64::from(u) / 100.0;
    }
    // The hand-set weights, still used on other board sizes.
    let mut hand = [0.0; TERMS];
    for (i, h) in hand.iter_mut().enumerate().take(12) {
        *h = if i < 6 { 0.25 } else { -0.25 };
    }
    hand[12] = -0.5;
    hand[13] = 0.5;
    println!(
        "levels {from}..={top}: {} boards fitted, {} held out",
        train.len(),
        test.len()
    );
    let names = |i: usize| match i {
        0..=5 => format!("mover's house {}", i + 1),
        6..=11 => format!("opponent's house {}", i - 5),
        12 => "mover's houses of 1-2".into(),
        13 => "opponent's houses of 1-2".into(),
        14 => "mover's capture".into(),
        15 => "opponent's capture".into(),
        16 => "mover's empty houses".into(),
        17 => "opponent's empty houses".into(),
        18 => "mover's seeds reaching".into(),
        19 => "opponent's seeds reaching".into(),
        20 => "mover's largest house".into(),
        21 => "opponent's largest house".into(),
        22 => "mover's lap".into(),
        _ => "opponent's lap".into(),
    };
    for (label, weights, k) in [("refit", &base, BASE), ("with the candidates", &w, TERMS)] {
        println!("{label}:");
        for (i, x) in weights.iter().enumerate().take(k) {
            println!(
                "{:>26}: {x:+.4} seeds = {:+}",
                names(i),
                (x * 100.0).round()
            );
        }
        let units: Vec<String> = weights[..k]
            .iter()
            .map(|x| format!("{}", (x * 100.0).round()))
            .collect();
        println!("units: [{}]", units.join(", "));
    }
    for (name, weights) in [
        ("with the candidates", &w),
        ("refit", &base),
        ("today's", &today),
        ("hand-set", &hand),
    ] {
        let (e1, r1) = quality(&train, weights);
        let (e2, r2) = quality(&test, weights);
        println!(
            "{name:>19}: fitted boards rms {e1:.3} seeds R² {r1:.3}; held out rms {e2:.3} R² {r2:.3}"
        );
    }
}
