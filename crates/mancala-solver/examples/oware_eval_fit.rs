//! Fits the weights of the Oware evaluation (`engine/oware.rs`) to the exact values of the
//! `awari` databases by least squares, and prints them with the fit's quality beside that of
//! the hand-set weights.
//!
//! ```text
//! mancala egdb build --rules awari --max-seeds 20 --out egdb/
//! cargo run --release -p mancala-solver --example oware_eval_fit -- egdb/awari.n20.egdb \
//!     [--from 12] [--samples 200000]
//! ```
//!
//! Each level n from `--from` to the database's N gives `--samples` boards spread over its
//! index (a fixed multiplicative sequence, so the fit is reproducible), those where the mover
//! has a move. The value to fit is the database's value of the board (OW-10.3): the mover's
//! future captures minus the opponent's, in seeds. The terms are those of the evaluation,
//! from the mover's point of view: the seeds in each of the mover's houses and in each of the
//! opponent's (12 weights), the number of houses holding 1 or 2 seeds on each side (exposed
//! to a capture, 2 weights), the largest capture of one sowing of each side (the opponent's
//! as if he had the move) and the empty houses of each side (4 weights). Printed: the weights in seeds and in score units
//! (hundredths of a seed, rounded, as `engine/oware.rs` holds them), the root-mean-square
//! error and R² of the fit on the boards fitted and on a second, disjoint sample, and the
//! same for the hand-set weights (a quarter of a seed a seed in the row, half a seed an
//! exposed house).

use std::path::PathBuf;

use mancala_solver::awari::{rank, AwariDb};

const TERMS: usize = 18;

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
        if board.is_terminal() || board.moves().is_empty() {
            continue;
        }
        let v = db.board_value(&board).expect("value");
        out.push((terms(&board.houses()), f64::from(v)));
    }
    out
}

/// Least squares: the weights minimising the squared error, by the normal equations solved
/// with Gaussian elimination (partial pivoting).
fn fit(rows: &[([f64; TERMS], f64)]) -> [f64; TERMS] {
    let mut a = [[0.0f64; TERMS + 1]; TERMS];
    for (x, y) in rows {
        for i in 0..TERMS {
            for j in 0..TERMS {
                a[i][j] += x[i] * x[j];
            }
            a[i][TERMS] += x[i] * y;
        }
    }
    for c in 0..TERMS {
        let p = (c..TERMS)
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
    for i in 0..TERMS {
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
    let db = AwariDb::open(&PathBuf::from(file)).expect("open the database");
    let from: u32 = opt("--from").map_or(12, |s| s.parse().expect("--from"));
    let samples: u64 = opt("--samples").map_or(200_000, |s| s.parse().expect("--samples"));
    let top = db.max_seeds();
    let mut train = Vec::new();
    let mut test = Vec::new();
    for n in from..=top {
        train.extend(sample(&db, n, samples, 0));
        test.extend(sample(&db, n, samples, 1));
    }
    let w = fit(&train);
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
        _ => "opponent's empty houses".into(),
    };
    for (i, x) in w.iter().enumerate() {
        println!(
            "{:>26}: {x:+.4} seeds = {:+}",
            names(i),
            (x * 100.0).round()
        );
    }
    let units: Vec<String> = w
        .iter()
        .map(|x| format!("{}", (x * 100.0).round()))
        .collect();
    println!("units: [{}]", units.join(", "));
    for (name, weights) in [("fitted", &w), ("hand-set", &hand)] {
        let (e1, r1) = quality(&train, weights);
        let (e2, r2) = quality(&test, weights);
        println!(
            "{name:>9}: fitted boards rms {e1:.3} seeds R² {r1:.3}; held out rms {e2:.3} R² {r2:.3}"
        );
    }
}
