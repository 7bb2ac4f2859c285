//! What each call of the [`Solver`](super::Solver) computes over the MTD(f) driver
//! (`parallel.rs`): the solve (value, best moves, pie-rule choice, principal variation), the
//! analysis of every move, the value within a window, and the heuristic estimate; and what
//! they report to the progress board.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use mancala_core::kalah::{KalahMove, KalahOption, KalahPosition, KalahRules};
use mancala_core::Side;

use super::parallel::{Ctx, Proven};
use super::progress::Board;
use super::results::{Analysis, MoveValue, Solution, SwapChoice, WindowSolution};
use super::search::{move_gain, Next, Shared};
use crate::board::{is_special, relative};
use crate::progress::SolvePhase;
use crate::rank::rank;
use crate::tt::TranspositionTable;

/// Plies of the heuristic search that gives the MTD(f) of a solve its first guess, under
/// every rule set but empty capture ([`Solver::GUESS_DEPTH`](super::Solver::GUESS_DEPTH),
/// defined here so that this file does not import the solver's, which imports it).
pub(super) const GUESS_DEPTH: u32 = 10;

/// The first guess's depth under empty capture
/// ([`Solver::GUESS_DEPTH_EMPTY_CAPTURE`](super::Solver::GUESS_DEPTH_EMPTY_CAPTURE)). Chosen
/// from 4 and 6 to 10 on the start positions of 15 boards of m = 4…7, Kalah(6,4) with a
/// 20-seed database and the 240 `midgame64` positions (docs/performance-history.md, "The
/// first guess's depth"): under empty capture 8 plies search fewer nodes than 10 on every
/// board but Kalah(7,3) (+2.9 %), Kalah(6,3) −11 %, and report the same principal
/// variations; under the standard rule 8 plies also search fewer nodes on most boards but
/// report another principal variation of Kalah(6,3) and Kalah(4,6), so 10 stays there.
pub(super) const GUESS_DEPTH_EMPTY_CAPTURE: u32 = 8;

/// The first guess's depth for positions of `rules`: [`GUESS_DEPTH_EMPTY_CAPTURE`] plies
/// under empty capture, [`GUESS_DEPTH`] otherwise.
pub(super) fn guess_depth(rules: KalahRules) -> u32 {
    if rules.has(KalahOption::EmptyCapture) {
        GUESS_DEPTH_EMPTY_CAPTURE
    } else {
        GUESS_DEPTH
    }
}

/// What a call computes.
#[derive(Clone, Copy)]
pub(super) enum Job {
    Solve,
    Analyse,
    /// [`Solver::solve_within`](super::Solver::solve_within) with the open window
    /// `(lower, upper)`.
    Window(i32, i32),
    /// [`Solver::estimate`](super::Solver::estimate) to this many plies.
    Estimate(u32),
}

/// What a call computed, by [`Job`].
pub(super) enum Output {
    Solved(Solution),
    Analysed(Analysis),
    Windowed(WindowSolution),
    /// The estimate and its nodes.
    Estimated(i32, u64),
}

/// The current margin of the player to move (South's view for a finished game), seeds.
pub(super) fn margin(pos: &KalahPosition) -> i32 {
    let d = pos.store_difference();
    match pos.side_to_move() {
        Some(Side::North) => -d,
        _ => d,
    }
}

/// The output of `job` for the finished game `pos`, at once: value 0, exact, no node.
pub(super) fn finished(pos: &KalahPosition, job: Job, t0: Instant) -> Output {
    match job {
        Job::Solve => Output::Solved(Solution {
            value: 0,
            lower: 0,
            upper: 0,
            exact: true,
            score: margin(pos),
            best_moves: Vec::new(),
            pv: Vec::new(),
            swap: None,
            nodes: 0,
            seconds: t0.elapsed().as_secs_f64(),
        }),
        Job::Analyse => Output::Analysed(Analysis {
            moves: Vec::new(),
            nodes: 0,
            seconds: t0.elapsed().as_secs_f64(),
        }),
        Job::Estimate(_) => Output::Estimated(0, 0),
        Job::Window(..) => Output::Windowed(WindowSolution {
            lower: 0,
            upper: 0,
            settled: true,
            nodes: 0,
            seconds: t0.elapsed().as_secs_f64(),
        }),
    }
}

/// The progress board of `job` on `pos`, started at `t0` in the job's first phase (so that a
/// report before the driver runs is already true).
pub(super) fn first_board(pos: &KalahPosition, job: Job, t0: Instant) -> Board {
    let (lo, hi) = value_range(pos);
    match job {
        Job::Solve | Job::Window(..) | Job::Estimate(_) => {
            Board::new(t0, SolvePhase::Value, lo, hi)
        }
        Job::Analyse => {
            let legal = pos.legal_moves();
            match legal.first() {
                Some(&mv) => {
                    let count = legal.len();
                    let first = SolvePhase::Move {
                        mv,
                        index: 0,
                        count,
                    };
                    Board::new(t0, first, lo, hi)
                }
                None => Board::new(t0, SolvePhase::Value, lo, hi),
            }
        }
    }
}

/// The interval a value of `pos` (or of one of its moves) surely lies in.
fn value_range(pos: &KalahPosition) -> (i32, i32) {
    let k = pos.seeds_in_houses() as i32;
    let stores = i32::from(pos.store(Side::South)) + i32::from(pos.store(Side::North));
    let r = if is_special(pos) { k + 2 * stores } else { k };
    (-r, r)
}

/// Publishes a new phase to the progress board, if any.
fn phase<const M: usize, T: TranspositionTable>(
    ctx: &Ctx<'_, M, T>,
    phase: SolvePhase,
    lower: i32,
    upper: i32,
) {
    if let Some(b) = ctx.progress {
        b.phase(phase, lower, upper);
    }
}

/// Tells the progress board, if any, that a null-window probe for `value ≥ beta` starts
/// (called once a probe, outside the search: no node and no move order changes).
fn probing<const M: usize, T: TranspositionTable>(ctx: &Ctx<'_, M, T>, beta: i32) {
    if let Some(b) = ctx.progress {
        b.probing(beta);
    }
}

/// Runs `job` on the position `pos` (not a finished game) started at `t0`; `shared(spent)`
/// gives the shared state of a search, given the nodes this call has already searched.
pub(super) fn drive<const M: usize, T: TranspositionTable>(
    ctx: &Ctx<'_, M, T>,
    pos: &KalahPosition,
    job: Job,
    shared: &dyn Fn(u64) -> Arc<Shared>,
    t0: Instant,
) -> Output {
    match job {
        Job::Analyse => Output::Analysed(analyse(ctx, pos, shared, t0)),
        Job::Estimate(depth) => {
            let sh = shared(0);
            let v = ctx.guess(&sh, pos, depth);
            let v = if sh.limited.load(Ordering::Relaxed) {
                0
            } else {
                v
            };
            Output::Estimated(v, sh.nodes.load(Ordering::Relaxed))
        }
        Job::Window(alpha, beta) => Output::Windowed(window(ctx, pos, (alpha, beta), shared, t0)),
        Job::Solve => Output::Solved(solve(ctx, pos, shared, t0)),
    }
}

/// The value of every legal move of `pos`, one MTD(f) run a move.
fn analyse<const M: usize, T: TranspositionTable>(
    ctx: &Ctx<'_, M, T>,
    pos: &KalahPosition,
    shared: &dyn Fn(u64) -> Arc<Shared>,
    t0: Instant,
) -> Analysis {
    let mut nodes = 0u64;
    let (lo, hi) = value_range(pos);
    let mut moves = Vec::new();
    let legal = pos.legal_moves();
    // Once a limit or the cancel flag stopped one move, the later moves keep their
    // starting bounds without a search (each would otherwise search a few thousand
    // nodes before it looks at the limits).
    let mut stopped = false;
    for (index, &mv) in legal.iter().enumerate() {
        let count = legal.len();
        phase(ctx, SolvePhase::Move { mv, index, count }, lo, hi);
        let p = if stopped {
            Proven {
                lower: lo,
                upper: hi,
            }
        } else {
            let sh = shared(nodes);
            let p = ctx.mtd(&sh, lo - 1, hi + 1, 0, |s, a, b| {
                probing(ctx, b);
                s.move_value(pos, mv, a, b)
            });
            nodes += sh.nodes.load(Ordering::Relaxed);
            stopped = sh.limited.load(Ordering::Relaxed);
            p
        };
        // `lo − 1, hi + 1` above: a move's value can exceed the position's range by
        // nothing, but the extra room keeps the driver's first probes inside its
        // interval. The bounds reported are clamped back to the range, so that a move
        // stopped before its first probe shows what is known, never a value outside
        // the game (−49..=+49 on a 48-seed board).
        let (lower, upper) = (p.lower.clamp(lo, hi), p.upper.clamp(lo, hi));
        moves.push(MoveValue {
            mv,
            value: lower,
            lower,
            upper,
            exact: lower == upper,
        });
    }
    Analysis {
        moves,
        nodes,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

/// The value of `pos` searched only as far as the open window `(alpha, beta)` needs.
fn window<const M: usize, T: TranspositionTable>(
    ctx: &Ctx<'_, M, T>,
    pos: &KalahPosition,
    (alpha, beta): (i32, i32),
    shared: &dyn Fn(u64) -> Arc<Shared>,
    t0: Instant,
) -> WindowSolution {
    let (lo, hi) = value_range(pos);
    phase(ctx, SolvePhase::Value, lo, hi);
    let sh = shared(0);
    // The β a probe may test: max(lo, α) + 1 ..= min(hi, β). With more than two,
    // MTD(f) starts from the heuristic guess, as `solve` does.
    let first = lo.max(alpha).saturating_add(1);
    let last = hi.min(beta);
    let guess = if i64::from(last) - i64::from(first) >= 2 {
        ctx.guess(&sh, pos, guess_depth(pos.rules()))
    } else {
        first
    };
    let p = ctx.mtd_within(&sh, lo, hi, (alpha, beta), guess, |s, a, b| {
        probing(ctx, b);
        s.search_pos(pos, a, b)
    });
    WindowSolution {
        lower: p.lower,
        upper: p.upper,
        settled: p.exact() || p.upper <= alpha || p.lower >= beta,
        nodes: sh.nodes.load(Ordering::Relaxed),
        seconds: t0.elapsed().as_secs_f64(),
    }
}

/// The solve of `pos`: the value by MTD(f) from the heuristic guess, then, when it is
/// exact, the best moves, the pie-rule choice and a principal variation
/// ([`complete_solution`]).
fn solve<const M: usize, T: TranspositionTable>(
    ctx: &Ctx<'_, M, T>,
    pos: &KalahPosition,
    shared: &dyn Fn(u64) -> Arc<Shared>,
    t0: Instant,
) -> Solution {
    let (lo, hi) = value_range(pos);
    phase(ctx, SolvePhase::Value, lo, hi);
    let sh = shared(0);
    // First guess of MTD(f): a shallow heuristic search (gains only, database exact).
    let guess = ctx.guess(&sh, pos, guess_depth(pos.rules()));
    let p: Proven = ctx.mtd(&sh, lo, hi, guess, |s, a, b| {
        probing(ctx, b);
        s.search_pos(pos, a, b)
    });
    let mut sol = Solution {
        value: p.lower,
        lower: p.lower,
        upper: p.upper,
        exact: p.exact(),
        score: margin(pos) + p.lower,
        best_moves: Vec::new(),
        pv: Vec::new(),
        swap: None,
        nodes: sh.nodes.load(Ordering::Relaxed),
        seconds: 0.0,
    };
    if sol.exact {
        complete_solution(ctx, pos, shared, &mut sol, (lo, hi));
    }
    sol.seconds = t0.elapsed().as_secs_f64();
    sol
}

/// Adds to the exact solution `sol` of `pos` (values within `(lo, hi)`) every best move
/// (each move's test on its own thread), the pie-rule choice when the swap is offered and a
/// principal variation, with their nodes. Left out when a limit stopped the best moves'
/// tests (then no best move is kept).
fn complete_solution<const M: usize, T: TranspositionTable>(
    ctx: &Ctx<'_, M, T>,
    pos: &KalahPosition,
    shared: &dyn Fn(u64) -> Arc<Shared>,
    sol: &mut Solution,
    (lo, hi): (i32, i32),
) {
    let v = sol.value;
    phase(ctx, SolvePhase::BestMoves, v, v);
    let sh = shared(sol.nodes);
    let mut complete = true;
    let moves = pos.legal_moves();
    // Each move's test on its own thread (the tests are independent).
    let tests = ctx.at_least_each(&sh, v, &moves, |s, &mv, a, b| s.move_value(pos, mv, a, b));
    for (&mv, t) in moves.iter().zip(tests) {
        match t {
            Some(true) => sol.best_moves.push(mv),
            Some(false) => {}
            None => complete = false,
        }
    }
    if pos.swap_offered() && complete {
        phase(ctx, SolvePhase::Swap, v, v);
        sol.swap = Some(swap_choice(ctx, &sh, pos, v, (lo, hi)));
    }
    if complete {
        phase(ctx, SolvePhase::PrincipalVariation, v, v);
        sol.pv = principal_variation(ctx, &sh, pos, v);
    }
    sol.nodes += sh.nodes.load(Ordering::Relaxed);
    if !complete {
        sol.best_moves.clear();
    }
}

/// The pie-rule choice at `pos` (value `v`, values within `(lo, hi)`): the value of
/// swapping and of the best house move.
fn swap_choice<const M: usize, T: TranspositionTable>(
    ctx: &Ctx<'_, M, T>,
    sh: &Shared,
    pos: &KalahPosition,
    v: i32,
    (lo, hi): (i32, i32),
) -> SwapChoice {
    let a = ctx.mtd(sh, lo - 1, hi + 1, v, |s, a, b| {
        s.move_value(pos, KalahMove::Swap, a, b)
    });
    let mut stay: Option<i32> = None;
    for mv in pos.legal_moves() {
        if mv == KalahMove::Swap {
            continue;
        }
        let q = ctx.mtd(sh, lo - 1, hi + 1, v, |s, a, b| s.move_value(pos, mv, a, b));
        stay = Some(stay.map_or(q.lower, |x| x.max(q.lower)));
    }
    SwapChoice {
        swap_value: a.lower,
        stay_value: stay,
        swap_is_better: stay.is_none_or(|x| a.lower > x),
    }
}

/// Follows value-keeping moves from `pos` (of value `v`) to the end of the game.
fn principal_variation<const M: usize, T: TranspositionTable>(
    ctx: &Ctx<'_, M, T>,
    sh: &Shared,
    pos: &KalahPosition,
    v: i32,
) -> Vec<KalahMove> {
    let mut pv = Vec::new();
    let mut pos = *pos;
    let mut v = v;
    while let Some(side) = pos.side_to_move() {
        let mut moves = pos.legal_moves();
        // The table's best move first.
        if !is_special(&pos) {
            let (b, _) = relative(&pos, side);
            if let Some(e) = ctx.tt.probe(rank::<M>(b)) {
                moves.sort_by_key(|mv| *mv != KalahMove::House(e.best.wrapping_add(1)));
            }
        }
        let mut found = None;
        for mv in moves {
            match ctx.at_least(sh, v, |s, a, b| s.move_value(&pos, mv, a, b)) {
                Some(true) => {
                    found = Some(mv);
                    break;
                }
                Some(false) => {}
                None => return Vec::new(),
            }
        }
        let Some(mv) = found else {
            // Cannot happen with exact values; stop rather than loop.
            return pv;
        };
        let child = pos.play_unchecked(mv);
        // The child's value for its player to move, from v = g ± v(child) (`move_gain`).
        v = match move_gain(&pos, mv, &child) {
            (_, Next::Over) => 0,
            (g, Next::Same) => v - g,
            (g, Next::Other) => g - v,
        };
        pv.push(mv);
        pos = child;
    }
    pv
}
