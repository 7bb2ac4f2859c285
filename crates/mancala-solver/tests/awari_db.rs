//! The Awari databases: published values (OW-11.3, Romein and Bal's test vector [S10]), the
//! level counts of OW-11.2, the index as a bijection, a search without any theory of cycles
//! on the smallest levels, and the typed errors.

use std::collections::HashMap;

use mancala_solver::awari::{rank, AwariBoard, AwariDb, AwariError};

fn board(s: &str) -> AwariBoard {
    s.parse().unwrap()
}

/// OW-11.3: `0,0,0,0,0,1,23,1,0,0,0,0,0,23 S` is worth +2 to South under `awari` (the
/// grand slam 6 is South's only move, captures North's house 1 and leaves North without a
/// move), and −2 would be the `none` reading.
#[test]
fn ow_11_3_two_seed_example() {
    let db = AwariDb::build(2, 1).unwrap();
    let b = board("0 0 0 0 0 1 1 0 0 0 0 0");
    assert_eq!(db.board_value(&b).unwrap(), 2);
    let moves = db.board_move_values(&b).unwrap();
    assert_eq!(moves.len(), 1);
    assert_eq!(
        (moves[0].0.house, moves[0].0.captured, moves[0].1),
        (6, 2, 2)
    );
}

/// [S10] (the 2024 release of Romein and Bal's databases, README): board
/// `1 1 1 1 1 2 4 2 3 0 0 0` scores 0, its children −1 −1 −2 −2 −2 0 (OW-11.3). 16 seeds.
#[test]
fn romein_bal_test_vector() {
    let db = AwariDb::build(16, 0).unwrap();
    let b = board("1 1 1 1 1 2 4 2 3 0 0 0");
    assert_eq!(db.board_value(&b).unwrap(), 0);
    let values: Vec<(u8, i32)> = db
        .board_move_values(&b)
        .unwrap()
        .iter()
        .map(|(m, v)| (m.house, *v))
        .collect();
    assert_eq!(
        values,
        vec![(1, -1), (2, -1), (3, -2), (4, -2), (5, -2), (6, 0)]
    );
    // The level counts of the build are OW-11.2's "counted" column.
    let counted = [
        1u64, 12, 78, 364, 1_365, 4_368, 12_375, 31_812, 75_504, 167_596, 351_351, 701_064,
        1_339_702, 2_464_320, 4_381_818, 7_558_200, 12_685_179,
    ];
    for (n, &c) in counted.iter().enumerate() {
        let s = db.level_stats(n as u32).unwrap();
        assert_eq!(s.boards, c, "level {n}");
        assert_eq!(s.wins + s.draws + s.losses, c);
    }
    assert_eq!(counted.iter().sum::<u64>(), 29_775_109);
}

/// OW-11.2: the number of boards of n seeds whose second player has an empty house, counted
/// here by enumerating every board, equals the index's level size (and the table's column).
#[test]
fn level_sizes_are_the_counted_boards() {
    for n in 0..=11u32 {
        let mut counted = 0u64;
        let mut all = 0u64;
        let mut b = [0u8; 12];
        enumerate(&mut b, 0, n as u8, &mut |b| {
            all += 1;
            counted += u64::from(b[6..].contains(&0));
        });
        assert_eq!(rank::level_len(n), Some(counted), "level {n}");
        assert_eq!(all, binomial(u64::from(n) + 11, 11));
    }
    assert_eq!(rank::level_len(16), Some(12_685_179));
    assert_eq!(rank::level_len(30), Some(2_742_236_068));
    assert_eq!(rank::level_len(49), None);
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1u64, |r, i| r * (n - i) / (i + 1))
}

fn enumerate(b: &mut [u8; 12], i: usize, left: u8, f: &mut impl FnMut(&[u8; 12])) {
    if i == 11 {
        b[11] = left;
        f(b);
        return;
    }
    for c in 0..=left {
        b[i] = c;
        enumerate(b, i + 1, left - c, f);
    }
}

/// Every indexed board of the levels up to 9 has a distinct index below the level's size,
/// unranks to itself, and the walk visits the indices in order; boards whose second player
/// has no empty house have no index.
#[test]
fn rank_is_a_bijection_on_small_levels() {
    for n in 0..=9u32 {
        let len = rank::level_len(n).unwrap();
        let mut seen = vec![false; len as usize];
        let mut b = [0u8; 12];
        enumerate(&mut b, 0, n as u8, &mut |b| {
            let board = AwariBoard::new(*b).unwrap();
            match rank::rank(&board) {
                Some(r) => {
                    assert!(r < len);
                    assert!(!seen[r as usize], "index {r} twice");
                    seen[r as usize] = true;
                    assert_eq!(rank::unrank(n, r), Some(board));
                }
                None => assert!(!b[6..].contains(&0)),
            }
        });
        assert!(seen.iter().all(|&s| s));
        let mut w = rank::LevelWalk::at(n, 0).unwrap();
        for r in 0..len {
            assert_eq!(w.index(), r);
            assert_eq!(Some(w.board()), rank::unrank(n, r));
            assert_eq!(w.advance(), r + 1 < len);
        }
        assert_eq!(rank::unrank(n, len), None);
    }
}

/// Random indices of every level up to 48 round-trip, and the walk steps to the next index.
#[test]
fn rank_round_trips_on_random_indices_of_every_level() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for n in 0..=48u32 {
        let len = rank::level_len(n).unwrap();
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let r = x % len;
            let b = rank::unrank(n, r).unwrap();
            assert_eq!(b.seeds(), n);
            assert!(b.is_indexed());
            assert_eq!(rank::rank(&b), Some(r));
            let mut w = rank::LevelWalk::at(n, r).unwrap();
            if w.advance() {
                assert_eq!(rank::unrank(n, r + 1), Some(w.board()));
            } else {
                assert_eq!(r + 1, len);
            }
        }
        assert_eq!(
            rank::rank(&rank::unrank(n, len - 1).unwrap()),
            Some(len - 1)
        );
    }
}

/// A search that knows nothing of attractors: the game of OW-6.2 where the first repetition
/// of a board since the last capture ends the game with an even split (value 0 to the
/// difference), searched over every path (alpha-beta on the tree of paths), on every board of
/// the levels up to 3.
#[test]
fn first_repetition_search_agrees_on_small_levels() {
    const N: u32 = 3;
    let db = AwariDb::build(N, 1).unwrap();
    let mut memo: HashMap<AwariBoard, i32> = HashMap::new();
    for n in 0..=N {
        let mut b = [0u8; 12];
        let mut boards = Vec::new();
        enumerate(&mut b, 0, n as u8, &mut |b| {
            boards.push(AwariBoard::new(*b).unwrap())
        });
        for board in boards {
            let n = n as i32;
            let v = search(&board, &mut vec![board], &memo, -n - 1, n + 1);
            assert_eq!(db.board_value(&board).unwrap(), v, "board {board}");
            memo.insert(board, v);
        }
    }
}

/// The value of `b` when `path` (ending in `b`) has been played since the last capture,
/// within the window (`alpha`, `beta`) (fail-hard negamax): moves that capture lead to a
/// lower level, whose values are in `lower`; a move back to a board of the path repeats it
/// and ends the game at 0.
fn search(
    b: &AwariBoard,
    path: &mut Vec<AwariBoard>,
    lower: &HashMap<AwariBoard, i32>,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let moves = b.moves();
    if moves.is_empty() {
        return -(b.seeds() as i32);
    }
    for m in moves {
        let v = if m.captured > 0 {
            m.captured as i32 - lower[&m.child]
        } else if path.contains(&m.child) {
            0
        } else {
            path.push(m.child);
            let v = -search(&m.child, path, lower, -beta, -alpha);
            path.pop();
            v
        };
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

#[test]
fn typed_errors() {
    assert_eq!(
        AwariDb::build(49, 1).err(),
        Some(AwariError::TooManySeeds { seeds: 49, max: 48 })
    );
    assert!(matches!(
        AwariDb::build(2, 100_000).err(),
        Some(AwariError::Threads(_))
    ));
    let db = AwariDb::build(3, 1).unwrap();
    assert_eq!(
        db.board_value(&board("4 0 0 0 0 0 0 0 0 0 0 0")).err(),
        Some(AwariError::NotBuilt { seeds: 4, max: 3 })
    );
    assert_eq!(db.value_at(3, rank::level_len(3).unwrap()), None);
    assert_eq!(db.value_at(4, 0), None);
    assert_eq!(
        board("0 0 0 0 0 1 1 0 0 0 0 0").play(1).err(),
        Some(AwariError::IllegalMove { house: 1 })
    );
}

/// A board whose second player has no empty house is valued through its children: the
/// 12-seed board with a seed in every house.
#[test]
fn unindexed_board_is_valued_by_one_ply() {
    let db = AwariDb::build(12, 0).unwrap();
    let b = board("1 1 1 1 1 1 1 1 1 1 1 1");
    assert!(!b.is_indexed());
    let best = db
        .board_move_values(&b)
        .unwrap()
        .iter()
        .map(|(_, v)| *v)
        .max()
        .unwrap();
    assert_eq!(db.board_value(&b).unwrap(), best);
    // Every move from it sows one seed into the next house: no capture (a house of 1
    // becomes 2 only in the mover's row, except from house 6, whose seed makes North's
    // house 1 hold 2: a capture of 2).
    let caps: Vec<u32> = db
        .board_move_values(&b)
        .unwrap()
        .iter()
        .map(|(m, _)| m.captured)
        .collect();
    assert_eq!(caps, vec![0, 0, 0, 0, 0, 2]);
}

/// The order of work changes nothing (module docs of the build): one thread and two give
/// the same entry for every board to 12 seeds.
#[test]
fn one_thread_and_two_build_the_same_entries() {
    let one = AwariDb::build(12, 1).unwrap();
    let two = AwariDb::build(12, 2).unwrap();
    for n in 0..=12 {
        for r in 0..rank::level_len(n).unwrap() {
            assert_eq!(
                one.value_at(n, r),
                two.value_at(n, r),
                "level {n} index {r}"
            );
        }
        assert_eq!(one.level_stats(n), two.level_stats(n));
    }
}
