//! The Oware databases of every grand-slam rule (`none`, `all`, `forbidden`, `leave_last`,
//! `unless_only`, each with `majority=off` and `cycle_score=split`) against references that
//! share nothing with the build but the rules text:
//!
//! * the move generator is the core's (`OwarePosition::legal_moves` and `play` under the rule
//!   set, its no-move end included), not the database's board kernel;
//! * the values of each level come from an explicit graph of every board (indexed or not)
//!   and, for each threshold t, the sets "worth ≥ t" and "worth ≤ −t" iterated naively to a
//!   fixed point from empty sets, with endless play worth 0 (OW-10.3);
//! * on the smallest levels, a game-tree search with history in which the first repetition of
//!   a board ends the game with an even split (OW-6.2 with `cycle_score=split`), which knows
//!   nothing of fixed points;
//! * the published test vector of OW-11.3 under each rule, and its two-seed example.
//!
//! Every board's value and every legal move's value is compared.

mod scratch;

use std::collections::HashMap;

use mancala_core::oware::{GrandSlam, OwareMove, OwarePosition, OwareRules};
use mancala_core::Side;
use mancala_solver::awari::{AwariBoard, AwariDb};
use mancala_solver::ExactValues;

type Board = [u8; 12];

/// The rule set of the database of `g`: `awari` with that grand-slam rule.
fn rules(g: GrandSlam) -> OwareRules {
    OwareRules::AWARI.with_grand_slam(g)
}

/// The board as a position of `rules`, the mover South, both stores empty; `None` when the
/// mover has no legal move there (the notation refuses a side letter for a finished game).
fn position(rules: OwareRules, b: &Board) -> Option<OwarePosition> {
    let c: Vec<String> = b.iter().map(u8::to_string).collect();
    let text = format!("{},0,{},0 S", c[..6].join(","), c[6..].join(","));
    OwarePosition::parse(rules, &text).ok()
}

/// The board of a position not over, mover first.
fn board_of(p: &OwarePosition) -> Board {
    let bits = p.mover_relative();
    std::array::from_fn(|i| (bits >> (8 * i)) as u8)
}

/// The final margin of a finished position for `side`, seeds (its final counts are in half
/// seeds).
fn final_margin(p: &OwarePosition, side: Side) -> i32 {
    let me = p.final_half_seeds(side).unwrap() as i32;
    let them = p.final_half_seeds(side.opponent()).unwrap() as i32;
    (me - them) / 2
}

/// Every board of exactly `n` seeds.
fn boards_of(n: u32) -> Vec<Board> {
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

/// A move of the core's generator from a board: the house, and either its value when it
/// leaves the level (a capture, or the end of the game) or the board it reaches in the level.
enum Step {
    Exit(u8, i32),
    Inner(u8, Board),
}

/// The moves of board `b` under `rules`, by the core (`None`: no legal move, the game is over
/// and each player takes his own row, OW-6.3). Exits need the values of the levels below.
fn steps(rules: OwareRules, b: &Board, lower: &impl Fn(&Board) -> i32) -> Option<Vec<Step>> {
    let p = position(rules, b)?;
    let steps = p
        .legal_moves()
        .iter()
        .map(|&m| {
            let c = p.play(m).unwrap();
            if c.is_over() {
                return Step::Exit(m.house(), final_margin(&c, Side::South));
            }
            let captured = i32::from(c.store(Side::South));
            if captured > 0 {
                Step::Exit(m.house(), captured - lower(&board_of(&c)))
            } else {
                Step::Inner(m.house(), board_of(&c))
            }
        })
        .collect();
    Some(steps)
}

/// The value of a board without a legal move: each player takes his own row (OW-6.3).
fn own_rows(b: &Board) -> i32 {
    let own: i32 = b[..6].iter().map(|&c| i32::from(c)).sum();
    let opp: i32 = b[6..].iter().map(|&c| i32::from(c)).sum();
    own - opp
}

/// The reference values of every board with at most `max` seeds under `rules`.
struct Reference {
    values: HashMap<Board, i32>,
}

impl Reference {
    fn build(rules: OwareRules, max: u32) -> Reference {
        let mut values: HashMap<Board, i32> = HashMap::new();
        for n in 0..=max {
            let boards = boards_of(n);
            let index: HashMap<Board, usize> =
                boards.iter().enumerate().map(|(i, b)| (*b, i)).collect();
            let lower = |b: &Board| values[b];
            let mut exits: Vec<Vec<i32>> = Vec::with_capacity(boards.len());
            let mut inner: Vec<Vec<usize>> = Vec::with_capacity(boards.len());
            let mut fixed: Vec<Option<i32>> = Vec::with_capacity(boards.len());
            for b in &boards {
                match steps(rules, b, &lower) {
                    None => {
                        fixed.push(Some(own_rows(b)));
                        exits.push(Vec::new());
                        inner.push(Vec::new());
                    }
                    Some(s) => {
                        fixed.push(None);
                        let mut e = Vec::new();
                        let mut c = Vec::new();
                        for step in s {
                            match step {
                                Step::Exit(_, v) => e.push(v),
                                Step::Inner(_, child) => c.push(index[&child]),
                            }
                        }
                        exits.push(e);
                        inner.push(c);
                    }
                }
            }
            let mut level = vec![0i32; boards.len()];
            for (x, f) in fixed.iter().enumerate() {
                if let Some(v) = f {
                    level[x] = *v;
                }
            }
            for t in 1..=n as i32 {
                let mut win: Vec<bool> = fixed.iter().map(|f| f.is_some_and(|v| v >= t)).collect();
                let mut lose: Vec<bool> =
                    fixed.iter().map(|f| f.is_some_and(|v| v <= -t)).collect();
                loop {
                    let mut changed = false;
                    for x in 0..boards.len() {
                        if fixed[x].is_some() {
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
                for x in 0..boards.len() {
                    assert!(!(win[x] && lose[x]), "level {n}, t {t}: both sets");
                    if fixed[x].is_none() {
                        if win[x] {
                            level[x] = t;
                        }
                        if lose[x] {
                            level[x] = -t;
                        }
                    }
                }
            }
            values.extend(boards.iter().zip(level).map(|(b, v)| (*b, v)));
        }
        Reference { values }
    }
}

/// The database's value and move values of `b` against the reference's, the moves by the
/// core.
fn compare(db: &AwariDb, rules: OwareRules, reference: &Reference, b: &Board) {
    let board = AwariBoard::new(*b).unwrap();
    assert_eq!(
        db.board_value(&board).unwrap(),
        reference.values[b],
        "{rules}: board {board}"
    );
    let got: Vec<(u8, i32)> = db
        .board_move_values(&board)
        .unwrap()
        .iter()
        .map(|(m, v)| (m.house, *v))
        .collect();
    let lower = |c: &Board| reference.values[c];
    let want: Vec<(u8, i32)> = steps(rules, b, &lower)
        .unwrap_or_default()
        .into_iter()
        .map(|s| match s {
            Step::Exit(h, v) => (h, v),
            Step::Inner(h, c) => (h, -reference.values[&c]),
        })
        .collect();
    assert_eq!(got, want, "{rules}: moves of {board}");
    // The same through the one exact-values interface, for a position of the rule set.
    if let Some(p) = position(rules, b) {
        assert_eq!(db.value_of(&p).unwrap(), reference.values[b]);
        let through: Vec<(u8, i32)> = db
            .move_values_of(&p)
            .unwrap()
            .iter()
            .map(|&(OwareMove(h), v)| (h, v))
            .collect();
        assert_eq!(through, want, "{rules}: moves of {board}");
    }
}

/// Every board of at most 8 seeds (75,582 at 8, 125,970 in all) and each of its moves, under
/// every grand-slam rule.
#[test]
fn every_board_and_move_equals_the_reference_under_every_rule() {
    const N: u32 = 8;
    for g in GrandSlam::ALL {
        let r = rules(g);
        let reference = Reference::build(r, N);
        let db = AwariDb::build_until_under(g, N, 2, |_| true).unwrap();
        assert_eq!(db.grand_slam(), g);
        assert_eq!(db.rules(), r);
        for b in reference.values.keys() {
            compare(&db, r, &reference, b);
        }
        assert_eq!(reference.values.len(), 125_970); // C(20, 12) boards of at most 8 seeds
    }
}

/// The value of `b` under `rules` when `path` (ending in `b`) has been played since the last
/// capture, within the window (`alpha`, `beta`) (fail-hard negamax over the tree of paths,
/// moves by the core): a capture leads to a lower level (values in `lower`), a move back to
/// a board of the path repeats it and ends the game with an even split (0 to the
/// difference), a move that ends the game is worth its final margin.
fn search(
    rules: OwareRules,
    b: &Board,
    path: &mut Vec<Board>,
    lower: &HashMap<Board, i32>,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let Some(steps) = steps(rules, b, &|c| lower[c]) else {
        return own_rows(b);
    };
    for s in steps {
        let v = match s {
            Step::Exit(_, v) => v,
            Step::Inner(_, c) if path.contains(&c) => 0,
            Step::Inner(_, c) => {
                path.push(c);
                let v = -search(rules, &c, path, lower, -beta, -alpha);
                path.pop();
                v
            }
        };
        if v >= beta {
            return beta;
        }
        alpha = alpha.max(v);
    }
    alpha
}

/// The game with history (the first repetition ends it, split evenly), searched over every
/// path on every board of at most 3 seeds, equals the database under every rule.
#[test]
fn first_repetition_search_agrees_on_small_levels_under_every_rule() {
    const N: u32 = 3;
    for g in GrandSlam::ALL {
        let r = rules(g);
        let db = AwariDb::build_until_under(g, N, 1, |_| true).unwrap();
        let mut memo: HashMap<Board, i32> = HashMap::new();
        for n in 0..=N {
            let n = n as i32;
            for b in boards_of(n as u32) {
                let v = search(r, &b, &mut vec![b], &memo, -n - 1, n + 1);
                let board = AwariBoard::new(b).unwrap();
                assert_eq!(db.board_value(&board).unwrap(), v, "{r}: board {board}");
                memo.insert(b, v);
            }
        }
    }
}

/// OW-11.3: board `1 1 1 1 1 2 4 2 3 0 0 0` (16 seeds) is worth 0 and its moves −1 −1 −2 −2
/// −2 0 under every grand-slam rule when the seeds left at a no-move end go to the owner of
/// the row; and `0,0,0,0,0,1,23,1,0,0,0,0,0,23 S` is worth +2 to South under `awari`, −2
/// under `grand_slam=none` (`awari` itself: `tests/awari_db.rs`).
#[test]
fn ow_11_3_vector_under_every_rule() {
    let two: Board = [0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0];
    let vector: Board = [1, 1, 1, 1, 1, 2, 4, 2, 3, 0, 0, 0];
    let rules = [
        GrandSlam::None,
        GrandSlam::All,
        GrandSlam::Forbidden,
        GrandSlam::LeaveLast,
    ];
    for g in rules {
        let db = AwariDb::build_until_under(g, 16, 0, |_| true).unwrap();
        let b = AwariBoard::new(vector).unwrap();
        assert_eq!(db.board_value(&b).unwrap(), 0, "{g:?}");
        let values: Vec<i32> = db
            .board_move_values(&b)
            .unwrap()
            .iter()
            .map(|(_, v)| *v)
            .collect();
        assert_eq!(values, vec![-1, -1, -2, -2, -2, 0], "{g:?}");
        let v = db.board_value(&AwariBoard::new(two).unwrap()).unwrap();
        if g == GrandSlam::None {
            assert_eq!(v, -2);
        }
    }
}

/// Each rule's database saved in both encodings: the header names its rule set (`awari`
/// itself for `unless_only`), the file names differ, a round trip keeps every value and the
/// rule, and a file serves its own rule set only — another grand-slam rule is refused with
/// the typed mismatch, by the file and by the lookup.
#[test]
fn files_name_their_rule_set_and_serve_only_it() {
    use mancala_solver::egdb::{Database, Encoding};
    use mancala_solver::{EgdbError, ExactError};
    const N: u32 = 6;
    let mut names = std::collections::HashSet::new();
    for g in GrandSlam::ALL {
        let r = rules(g);
        let db = AwariDb::build_until_under(g, N, 1, |_| true).unwrap();
        for encoding in [Encoding::Byte, Encoding::Packed] {
            let name = AwariDb::file_name_under(g, N, encoding);
            assert!(names.insert(name.clone()), "{name}");
            let path = scratch::file(&name);
            db.convert(encoding).unwrap().save(&path).unwrap();
            let bytes = std::fs::read(&path).unwrap();
            let text = r.to_string();
            assert_eq!(&bytes[32..32 + text.len()], text.as_bytes(), "{name}");
            let info = AwariDb::info(&path).unwrap();
            assert_eq!((info.grand_slam, info.rules.as_str()), (g, text.as_str()));
            let back = AwariDb::open(&path).unwrap();
            std::fs::remove_file(&path).unwrap();
            assert_eq!(back.grand_slam(), g);
            for n in 0..=N {
                for i in 0..mancala_solver::awari::rank::level_len(n).unwrap() {
                    assert_eq!(back.value_at(n, i), db.value_at(n, i));
                }
            }
            for other in GrandSlam::ALL {
                let o = rules(other);
                let served = AwariDb::info_serves(&info, &o);
                assert_eq!(served.is_ok(), other == g, "{name} for {o}");
                assert_eq!(back.serves_rules(&o).is_ok(), other == g);
                if other != g {
                    let m = back.check_rules(&o).unwrap_err();
                    assert_eq!(m.differences, vec![format!("grand_slam={}", other.name())]);
                    let p = position(o, &[0, 0, 0, 0, 1, 1, 1, 0, 0, 0, 0, 0]).unwrap();
                    assert_eq!(back.value_of(&p), Err(ExactError::Rules(m)));
                }
            }
        }
    }
    assert_eq!(
        AwariDb::file_name_under(GrandSlam::UnlessOnly, 18, Encoding::Byte),
        "awari.n18.egdb"
    );
    // A header naming an Oware rule set no database holds is refused.
    let path = scratch::file("majority.egdb");
    let db = AwariDb::build_until_under(GrandSlam::None, 2, 1, |_| true).unwrap();
    db.save(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let payload = &bytes[32 + "awari+grand_slam=none".len() + 4..];
    assert_eq!(payload.len(), 1 + 12 + 78);
    let changed = mancala_solver::egdb::Header {
        version: 1,
        houses: 6,
        max_seeds: 2,
        option_bits: 0,
        encoding: 1,
        entries: 1 + 12 + 78,
        payload_crc: crc32fast::hash(payload),
        rules: "oware+cycle_score=split".into(),
    };
    let mut file = changed.encode();
    file.extend_from_slice(payload);
    // The same header with the rule set written back opens.
    let mut same = mancala_solver::egdb::Header {
        rules: "awari+grand_slam=none".into(),
        ..changed.clone()
    }
    .encode();
    same.extend_from_slice(payload);
    assert_eq!(same, bytes);
    std::fs::write(&path, &file).unwrap();
    assert!(matches!(
        AwariDb::open(&path),
        Err(EgdbError::RulesMismatch { .. })
    ));
    std::fs::remove_file(&path).unwrap();
}
