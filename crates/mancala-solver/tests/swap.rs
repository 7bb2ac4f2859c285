//! The pie-rule swap against a brute force written here: every value the solver
//! gives where a swap is offered (or about to be) — value, score, best moves, principal
//! variation, the swap choice and `analyse` per move — on small boards under every one of the
//! 32 option sets, the swaps that end the game (`end_when_no_move`) included; and the
//! engine's exact modes there.
//!
//! The brute force plays the rules engine's own moves ([`KalahPosition::legal_moves`] and
//! [`KalahPosition::play`]) to the end of every game and scores only the final stores: players
//! A and B, A maximising and B minimising A's final margin (A's store minus B's at the end),
//! the sides they hold exchanged by a swap (`docs/rules/kalah.md`, `pie_rule`: "the two players exchange
//! sides and stores; the board and the side to move are unchanged"). None of the solver's
//! value arithmetic (gains, value recursion) is used.

use std::collections::HashMap;

use mancala_core::kalah::{KalahMove, KalahOption, KalahOptions, KalahPosition, KalahRules};
use mancala_core::Side;
use mancala_solver::engine::{Engine, Limits, MAX_DEPTH, SEED};
use mancala_solver::{Solution, SolveOptions, Solver};

/// Exhaustive minimax on final stores, memoised on (position, side A holds).
struct Brute {
    memo: HashMap<(KalahPosition, bool), i32>,
}

impl Brute {
    fn new() -> Brute {
        Brute {
            memo: HashMap::new(),
        }
    }

    /// A's final margin under perfect play from `p`, A holding North when `a_north`.
    fn final_margin(&mut self, p: &KalahPosition, a_north: bool) -> i32 {
        if p.is_over() {
            let d = p.store_difference();
            return if a_north { -d } else { d };
        }
        if let Some(&v) = self.memo.get(&(*p, a_north)) {
            return v;
        }
        let a_to_move = (p.side_to_move() == Some(Side::North)) == a_north;
        let mut best: Option<i32> = None;
        for mv in p.legal_moves() {
            let child = p.play(mv).expect("a listed move is legal");
            let a = if mv == KalahMove::Swap {
                !a_north
            } else {
                a_north
            };
            let v = self.final_margin(&child, a);
            best = Some(match best {
                None => v,
                Some(b) if a_to_move => b.max(v),
                Some(b) => b.min(v),
            });
        }
        let v = best.expect("a game in play has a move");
        self.memo.insert((*p, a_north), v);
        v
    }

    /// The final margin the player to move at `p` reaches by playing `mv`, then perfect play.
    fn move_final(&mut self, p: &KalahPosition, mv: KalahMove) -> i32 {
        let north = p.side_to_move() == Some(Side::North);
        let child = p.play(mv).expect("legal move");
        let a = if mv == KalahMove::Swap { !north } else { north };
        self.final_margin(&child, a)
    }
}

/// The current margin of the player to move (own store minus the other's).
fn margin_now(p: &KalahPosition) -> i32 {
    match p.side_to_move() {
        Some(Side::North) => -p.store_difference(),
        _ => p.store_difference(),
    }
}

const OPTIONS: [KalahOption; 5] = [
    KalahOption::EmptyCapture,
    KalahOption::EndWhenNoMove,
    KalahOption::DiscardRemaining,
    KalahOption::PieRule,
    KalahOption::NoFirstMoveBonus,
];

fn rules(m: u32, n: u32, bits: u32) -> KalahRules {
    let mut o = KalahOptions::NONE;
    for (i, opt) in OPTIONS.into_iter().enumerate() {
        if bits & (1 << i) != 0 {
            o = o.with(opt);
        }
    }
    KalahRules::new(m, n, o).expect("rules")
}

/// Checks every result of the solver on `p` (game on) against the brute force; returns
/// whether a swap was offered.
fn check(solver: &mut Solver, brute: &mut Brute, p: &KalahPosition) -> bool {
    let now = margin_now(p);
    let moves = p.legal_moves();
    let finals: Vec<i32> = moves.iter().map(|&mv| brute.move_final(p, mv)).collect();
    let best_final = *finals.iter().max().unwrap();
    let value = best_final - now;

    let s: Solution = solver.solve(p, SolveOptions::new()).unwrap();
    assert!(s.exact, "{} {p}", p.rules());
    assert_eq!(s.value, value, "{} {p}: value", p.rules());
    assert_eq!(s.score, best_final, "{} {p}: score", p.rules());
    let best: Vec<KalahMove> = moves
        .iter()
        .zip(&finals)
        .filter(|(_, &f)| f == best_final)
        .map(|(&mv, _)| mv)
        .collect();
    assert_eq!(s.best_moves, best, "{} {p}: best moves", p.rules());

    // The principal variation is a legal game to the end, each move value-keeping, and the
    // player to move at `p` (whose side a swap changes) ends with the score.
    let mut q = *p;
    let mut mine_north = p.side_to_move() == Some(Side::North);
    for &mv in &s.pv {
        let me_to_move = (q.side_to_move() == Some(Side::North)) == mine_north;
        let want = brute.final_margin(&q, mine_north);
        // `move_final` is for the player to move at q: turn it into my margin.
        let got = brute.move_final(&q, mv);
        let got = if me_to_move { got } else { -got };
        assert_eq!(got, want, "{} {p}: pv move {mv} at {q}", p.rules());
        if mv == KalahMove::Swap {
            mine_north = !mine_north;
        }
        q = q.play(mv).expect("pv move legal");
    }
    assert!(q.is_over(), "{} {p}: pv {:?} ends at {q}", p.rules(), s.pv);
    let d = q.store_difference();
    assert_eq!(
        if mine_north { -d } else { d },
        s.score,
        "{} {p}: pv",
        p.rules()
    );

    // The swap choice.
    match s.swap {
        None => assert!(!p.swap_offered(), "{} {p}: no swap choice", p.rules()),
        Some(c) => {
            assert!(p.swap_offered());
            let mut swap = None;
            let mut stay: Option<i32> = None;
            for (&mv, &f) in moves.iter().zip(&finals) {
                if mv == KalahMove::Swap {
                    swap = Some(f - now);
                } else {
                    stay = Some(stay.map_or(f - now, |x| x.max(f - now)));
                }
            }
            let swap = swap.expect("swap listed");
            assert_eq!(c.swap_value, swap, "{} {p}: swap value", p.rules());
            assert_eq!(c.stay_value, stay, "{} {p}: stay value", p.rules());
            assert_eq!(c.swap_is_better, stay.is_none_or(|x| swap > x));
        }
    }

    // Every move's value.
    let a = solver.analyse(p, SolveOptions::new()).unwrap();
    assert_eq!(a.moves.len(), moves.len());
    for ((mv, &f), got) in moves.iter().zip(&finals).zip(&a.moves) {
        assert_eq!(got.mv, *mv);
        assert!(got.exact);
        assert_eq!(got.value, f - now, "{} {p}: analyse {mv}", p.rules());
    }
    p.swap_offered()
}

#[test]
fn swap_as_the_only_move_ends_the_game() {
    // The swap is the only move and ends the game at `0,1,0,0 -` (the sweep gives
    // South's seed to South's store); the decider now holds South: +1.
    let rules: KalahRules = "kalah(1,1)+pie_rule+end_when_no_move".parse().unwrap();
    let p = KalahPosition::parse(rules, "1,0,0,0 N swap").unwrap();
    let end = p.play(KalahMove::Swap).unwrap();
    assert_eq!(end.to_string(), "0,1,0,0 -");
    let s = Solver::new()
        .threads(1)
        .tt_bytes(1 << 16)
        .solve(&p, SolveOptions::new())
        .unwrap();
    assert!(s.exact);
    assert_eq!((s.value, s.score), (1, 1));
    assert_eq!(s.best_moves, vec![KalahMove::Swap]);
    assert_eq!(s.pv, vec![KalahMove::Swap]);
    let c = s.swap.unwrap();
    assert_eq!(
        (c.swap_value, c.stay_value, c.swap_is_better),
        (1, None, true)
    );
    check(
        &mut Solver::new().threads(1).tt_bytes(1 << 16),
        &mut Brute::new(),
        &p,
    );
}

/// Every position where North may swap on boards of m = 1..=3 houses with few seeds (each
/// house 0..=2, at most `max` seeds in the houses, a few store contents), under each of the
/// 16 option sets with `pie_rule`. The positions with North's row empty are those where the
/// swap ends the game under `end_when_no_move`.
#[test]
fn every_small_swap_position_equals_brute_force() {
    let mut checked = 0;
    let mut ending = 0;
    let mut only_swap = 0;
    for m in 1..=3usize {
        let max = [0, 4, 4, 3][m];
        for bits in 0..32u32 {
            let r = rules(m as u32, 1, bits);
            if !r.has(KalahOption::PieRule) {
                continue;
            }
            let mut solver = Solver::new().threads(1).tt_bytes(1 << 16);
            let mut brute = Brute::new();
            for code in 0..3usize.pow(2 * m as u32) {
                let houses: Vec<u8> = (0..2 * m)
                    .map(|i| (code / 3usize.pow(i as u32) % 3) as u8)
                    .collect();
                if houses.iter().map(|&h| u32::from(h)).sum::<u32>() > max {
                    continue;
                }
                for (s, n) in [(0u8, 0u8), (2, 0), (0, 1)] {
                    let mut slots = houses[..m].to_vec();
                    slots.push(s);
                    slots.extend_from_slice(&houses[m..]);
                    slots.push(n);
                    let Ok(p) = KalahPosition::new(r, &slots, Some(Side::North), true) else {
                        continue;
                    };
                    assert!(check(&mut solver, &mut brute, &p));
                    checked += 1;
                    if p.play(KalahMove::Swap).unwrap().is_over() {
                        ending += 1;
                    }
                    if p.legal_moves().len() == 1 {
                        only_swap += 1;
                    }
                }
            }
        }
    }
    // Independent counts of what was covered (not of results): the loops above reach
    // thousands of positions, among them swaps that end the game and swaps that are the
    // only move.
    assert!(checked > 2000, "{checked}");
    assert!(ending > 50 && only_swap > 50, "{ending} {only_swap}");
}

/// Every position of the opening (South's first turn, the swap decision and the move after
/// it) of whole games of small boards under all 32 option sets.
#[test]
fn openings_of_small_games_equal_brute_force() {
    let mut swaps = 0;
    for (m, n) in [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (3, 1)] {
        for bits in 0..32u32 {
            let r = rules(m, n, bits);
            let mut solver = Solver::new().threads(1).tt_bytes(1 << 16);
            let mut brute = Brute::new();
            // Breadth-first over the opening: positions until one ply after the swap decision.
            let mut layer = vec![KalahPosition::start(r)];
            let mut seen = std::collections::HashSet::new();
            while let Some(p) = layer.pop() {
                if p.is_over() || !seen.insert(p) {
                    continue;
                }
                if check(&mut solver, &mut brute, &p) {
                    swaps += 1;
                }
                let special = p.is_first_move() || p.in_opening_turn() || p.swap_offered();
                if special {
                    for mv in p.legal_moves() {
                        layer.push(p.play(mv).unwrap());
                    }
                }
            }
        }
    }
    assert!(swaps > 30, "{swaps}");
}

/// Two threads give the same results at the swap positions of a board (the best-move tests
/// then run side by side).
#[test]
fn two_threads_at_swap_positions() {
    let r = rules(2, 1, 0b01010); // end_when_no_move + pie_rule
    let mut solver = Solver::new().threads(2).tt_bytes(1 << 16);
    let mut brute = Brute::new();
    let mut n = 0;
    for text in [
        "1,0,0,0,0,0 N swap",
        "2,1,0,0,0,0 N swap",
        "0,1,3,1,0,0 N swap",
        "1,1,1,0,1,2 N swap",
        "2,0,1,1,0,0 N swap",
    ] {
        let p = KalahPosition::parse(r, text).unwrap();
        assert!(check(&mut solver, &mut brute, &p));
        n += 1;
    }
    assert_eq!(n, 5);
}

/// The engine at swap positions: its exact root solve (node budget, no depth limit) and its
/// own full-depth search both give the brute force's final margin and a best move.
#[test]
fn engine_is_exact_at_swap_positions() {
    let mut brute = Brute::new();
    let mut root_solved = 0;
    for (rules_text, text) in [
        ("kalah(1,1)+pie_rule+end_when_no_move", "1,0,0,0 N swap"),
        ("kalah(2,1)+pie_rule+end_when_no_move", "2,1,0,0,0,0 N swap"),
        ("kalah(2,1)+pie_rule+end_when_no_move", "0,1,3,1,0,0 N swap"),
        (
            "kalah(2,2)+pie_rule+end_when_no_move+discard_remaining",
            "1,0,2,0,0,1 N swap",
        ),
        (
            "kalah(3,1)+pie_rule+end_when_no_move+empty_capture",
            "1,1,0,0,0,0,0,0 N swap",
        ),
        ("kalah(3,2)+pie_rule", "0,3,3,0,2,2,2,0 N swap"),
    ] {
        let r: KalahRules = rules_text.parse().unwrap();
        let p = KalahPosition::parse(r, text).unwrap();
        let best = p
            .legal_moves()
            .into_iter()
            .map(|mv| brute.move_final(&p, mv))
            .max()
            .unwrap();
        for root_solve in [true, false] {
            let mut engine = Engine::with_tt_bytes(1 << 16);
            engine.set_root_solve(root_solve);
            let limits = if root_solve {
                Limits::nodes(1 << 22)
            } else {
                Limits::depth(MAX_DEPTH)
            };
            let res = engine.search(&p, &limits).unwrap();
            assert!(res.exact, "{rules_text} {text} root_solve {root_solve}");
            assert_eq!(
                res.score,
                SEED * best,
                "{rules_text} {text} root_solve {root_solve}"
            );
            assert_eq!(brute.move_final(&p, res.best_move), best, "{text}");
            if root_solve {
                root_solved += 1;
            }
        }
    }
    assert_eq!(root_solved, 6);
}
