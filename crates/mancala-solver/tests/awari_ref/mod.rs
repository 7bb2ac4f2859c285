//! The independent reference of the Awari databases, written from the rules text: plain
//! arrays, sowing seed by seed, an explicit graph of every board with at most N seeds
//! (indexed or not), and for each level and each threshold t the sets "worth ≥ t" and
//! "worth ≤ −t" computed by naive iteration to a fixed point from empty sets, with endless
//! play worth 0 (OW-10.3). Shared by `tests/awari_reference.rs` and the command line's tests
//! of `solve --rules awari` (`crates/mancala-cli/tests/awari_cli.rs`), which include this
//! file by its path.

#![allow(dead_code)]

use std::collections::HashMap;

/// A board, mover first: the mover's houses 1..6, then the opponent's houses 1..6.
pub type Board = [u8; 12];

/// Seeds on the board.
pub fn seeds(b: &Board) -> u32 {
    b.iter().map(|&c| u32::from(c)).sum()
}

/// One move of the reference: the house (0-based), seeds captured, the board after it seen
/// from the next mover.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    /// The house, 0-based.
    pub house: usize,
    /// Seeds captured.
    pub captured: u32,
    /// The board after the move, seen from the next mover.
    pub child: Board,
}

/// Sows house `i` (0-based, non-empty) seed by seed, skipping the origin (OW-2.1, OW-2.3),
/// then captures backwards from the last house while it is the opponent's and holds 2 or 3
/// (OW-3.1, OW-3.2). Returns the captured seeds, the board after the move from the same
/// side, and whether the opponent's row is empty afterwards (eradicating, OW-5.3).
pub fn sow(b: &Board, i: usize) -> (u32, Board, bool) {
    let mut x = *b;
    let mut s = x[i];
    x[i] = 0;
    let mut pos = i;
    while s > 0 {
        pos = (pos + 1) % 12;
        if pos == i {
            continue;
        }
        x[pos] += 1;
        s -= 1;
    }
    let mut captured = 0;
    let mut j = pos;
    while j >= 6 && (x[j] == 2 || x[j] == 3) {
        captured += u32::from(x[j]);
        x[j] = 0;
        j -= 1;
    }
    let eradicating = x[6..].iter().all(|&c| c == 0);
    (captured, x, eradicating)
}

/// The legal moves under `grand_slam=unless_only` (OW-5.3): the non-eradicating ones when
/// there is one, else every non-empty house (a grand slam then captures its chain).
pub fn moves(b: &Board) -> Vec<Move> {
    let all: Vec<(usize, u32, Board, bool)> = (0..6)
        .filter(|&i| b[i] > 0)
        .map(|i| {
            let (c, x, e) = sow(b, i);
            (i, c, x, e)
        })
        .collect();
    let any_keeps = all.iter().any(|m| !m.3);
    all.into_iter()
        .filter(|m| !any_keeps || !m.3)
        .map(|(house, captured, x, _)| {
            let mut child = [0u8; 12];
            child[..6].copy_from_slice(&x[6..]);
            child[6..].copy_from_slice(&x[..6]);
            Move {
                house,
                captured,
                child,
            }
        })
        .collect()
}

/// Every board of exactly `n` seeds.
pub fn boards_of(n: u32) -> Vec<Board> {
    fn rec(b: &mut Board, i: usize, left: u8, out: &mut Vec<Board>) {
        if i == 11 {
            b[11] = left;
            out.push(*b);
            return;
        }
        for c in 0..=left {
            b[i] = c;
            rec(b, i + 1, left - c, out);
        }
    }
    let mut out = Vec::new();
    rec(&mut [0; 12], 0, n as u8, &mut out);
    out
}

/// One level of the reference: its boards, their indices, their values.
pub type RefLevel = (Vec<Board>, HashMap<Board, usize>, Vec<i32>);

/// The reference values of every board with at most `max` seeds, by level.
pub struct Reference {
    /// Per level n: its boards, their indices, their values.
    pub levels: Vec<RefLevel>,
}

impl Reference {
    /// The value of `b` to its mover.
    pub fn value(&self, b: &Board) -> i32 {
        let (_, index, values) = &self.levels[seeds(b) as usize];
        values[index[b]]
    }

    /// The values of every board with at most `max` seeds.
    pub fn build(max: u32) -> Reference {
        let mut r = Reference { levels: Vec::new() };
        for n in 0..=max {
            let boards = boards_of(n);
            let index: HashMap<Board, usize> =
                boards.iter().enumerate().map(|(i, b)| (*b, i)).collect();
            // The explicit graph: per board, the exits' values (moves that capture, their
            // value known from the levels below) and the inner children (moves that capture
            // nothing and stay in this level).
            let mut exits: Vec<Vec<i32>> = Vec::with_capacity(boards.len());
            let mut inner: Vec<Vec<usize>> = Vec::with_capacity(boards.len());
            let mut terminal = Vec::with_capacity(boards.len());
            for b in &boards {
                let ms = moves(b);
                terminal.push(ms.is_empty());
                let mut e = Vec::new();
                let mut c = Vec::new();
                for m in ms {
                    if m.captured > 0 {
                        e.push(m.captured as i32 - r.value(&m.child));
                    } else {
                        c.push(index[&m.child]);
                    }
                }
                exits.push(e);
                inner.push(c);
            }
            // A board without move: each player takes his own row (OW-6.3), so the mover,
            // whose row is empty, loses n.
            let mut values = vec![0i32; boards.len()];
            for t in 1..=n as i32 {
                let mut win = vec![false; boards.len()];
                let mut lose: Vec<bool> = terminal.clone(); // −n ≤ −t
                loop {
                    let mut changed = false;
                    for x in 0..boards.len() {
                        if terminal[x] {
                            continue;
                        }
                        if !win[x]
                            && (exits[x].iter().any(|&v| v >= t)
                                || inner[x].iter().any(|&y| lose[y]))
                        {
                            win[x] = true;
                            changed = true;
                        }
                        if !lose[x]
                            && exits[x].iter().all(|&v| v <= -t)
                            && inner[x].iter().all(|&y| win[y])
                        {
                            lose[x] = true;
                            changed = true;
                        }
                    }
                    if !changed {
                        break;
                    }
                }
                // Thresholds are visited upwards and W_t, L_t shrink as t grows: the last t
                // a board is in is its value's size.
                for x in 0..boards.len() {
                    assert!(!(win[x] && lose[x]), "level {n}, t {t}: both sets");
                    if win[x] {
                        values[x] = t;
                    }
                    if lose[x] {
                        values[x] = -t;
                    }
                }
            }
            r.levels.push((boards, index, values));
        }
        r
    }
}
