//! `mancala-mpi solve`: an exact solve shared between the ranks.
//!
//! Rank 0 builds the tree of the positions a few plies from the root ([`crate::tree`]) and
//! chooses, as alpha-beta would, which leaves need an exact value; the workers solve them
//! with the single-machine solver (`mancala_solver::Solver`, its threads, table and
//! database, unchanged), keeping their table from one leaf to the next. Rank 0 runs a worker
//! too, on threads of its own. Every leaf solved is journaled (`--journal`,
//! [`crate::journal`]). The protocol is in the crate docs.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mancala_core::kalah::{KalahMove, KalahPosition};
use mancala_solver::{Egdb, Solution, Solver};

use crate::comm::{agree, Comm, Failure, Tag};
use crate::journal::Journal;
use crate::tree::{LeafSolution, Tree};

/// 0 → worker: solve a leaf. Bytes: the leaf's number, a line feed, its moves from the root
/// (`3,1,6`, `-` for none).
pub const TAG_TASK: Tag = 1;
/// Worker → 0: a leaf's solution, as JSON: `{"leaf", "value", "exact", "pv", "best_moves",
/// "swap", "nodes", "seconds"}`.
pub const TAG_RESULT: Tag = 2;
/// Worker → 0: the worker cannot go on; the bytes are the one-line reason.
pub const TAG_ERROR: Tag = 3;
/// 0 → worker: the job is over (done, or stopped); no bytes.
pub const TAG_STOP: Tag = 4;

/// How long a waiting rank sleeps between two looks for a message.
const POLL: Duration = Duration::from_millis(1);
/// How often a worker in the middle of a solve looks for [`TAG_STOP`].
const WATCH: Duration = Duration::from_millis(100);

/// What to solve, and how.
#[derive(Debug, Clone)]
pub struct SolveArgs {
    /// The position (its rules included).
    pub root: KalahPosition,
    /// Plies of the coordinator's tree.
    pub depth: u32,
    /// Search threads of each worker.
    pub threads: usize,
    /// Each worker's transposition table, bytes.
    pub tt_bytes: usize,
    /// The endgame database: a file, or a folder searched by headers (every rank opens it).
    pub egdb: Option<PathBuf>,
    /// The journal (rank 0).
    pub journal: Option<PathBuf>,
    /// A line on standard error for every leaf solved.
    pub verbose: bool,
}

/// One worker's part of a solve.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkerReport {
    /// Leaves it solved.
    pub leaves: u64,
    /// Nodes it searched.
    pub nodes: u64,
    /// Seconds it spent solving.
    pub busy_seconds: f64,
}

/// What rank 0 reports: the solve's result, as `mancala solve` gives it, and how it was
/// shared.
#[derive(Debug, Clone)]
pub struct SolveReport {
    /// The result (nodes: all workers' in this run; seconds: wall time on rank 0).
    pub solution: Solution,
    /// The database file the workers used.
    pub database: Option<PathBuf>,
    /// Distinct leaves of the tree.
    pub leaves: usize,
    /// Leaves whose value came from the journal.
    pub from_journal: usize,
    /// Leaves solved in this run.
    pub solved: usize,
    /// Each worker, in order: rank 0's own worker first, then ranks 1, 2, ….
    pub workers: Vec<WorkerReport>,
}

fn moves_text(moves: &[KalahMove]) -> String {
    if moves.is_empty() {
        "-".into()
    } else {
        moves
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn moves_of(text: &str) -> Result<Vec<KalahMove>, String> {
    if text == "-" {
        Ok(Vec::new())
    } else {
        mancala_core::kalah::parse_moves(text).map_err(|e| e.to_string())
    }
}

/// A worker's solver: its threads, table and database.
fn make_solver(args: &SolveArgs) -> Result<(Solver, Option<PathBuf>), String> {
    let mut solver = Solver::new().threads(args.threads).tt_bytes(args.tt_bytes);
    let mut file = None;
    if let Some(path) = &args.egdb {
        let rules = args.root.rules();
        let found = Egdb::find_in(path, &rules).map_err(|e| format!("--egdb: {e}"))?;
        solver = solver.database(Arc::new(found.database));
        file = Some(found.path);
    }
    Ok((solver, file))
}

/// Solves the leaf reached by `path` from the root; `stop` is asked every [`WATCH`] whether
/// to give up (then `Ok(None)`).
fn solve_leaf(
    solver: &mut Solver,
    root: &KalahPosition,
    path: &[KalahMove],
    stop: &mut dyn FnMut() -> bool,
) -> Result<Option<LeafSolution>, String> {
    let mut pos = *root;
    for &mv in path {
        pos = pos
            .play(mv)
            .map_err(|e| format!("a task's move {mv}: {e}"))?;
    }
    let s = solver
        .solve_watched(&pos, WATCH, &mut |_| {
            if stop() {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        })
        .map_err(|e| e.to_string())?;
    if !s.exact {
        return Ok(None);
    }
    Ok(Some(LeafSolution {
        value: s.value,
        pv: s.pv,
        best_moves: s.best_moves,
        swap: s
            .swap
            .map(|c| (c.swap_value, c.stay_value, c.swap_is_better)),
        nodes: s.nodes,
        seconds: s.seconds,
    }))
}

fn result_json(leaf: usize, s: &LeafSolution) -> Vec<u8> {
    serde_json::json!({
        "leaf": leaf,
        "value": s.value,
        "exact": true,
        "pv": moves_text(&s.pv),
        "best_moves": moves_text(&s.best_moves),
        "swap": s.swap.map(|(a, b, c)| serde_json::json!([a, b, c])),
        "nodes": s.nodes,
        "seconds": s.seconds,
    })
    .to_string()
    .into_bytes()
}

fn parse_result(bytes: &[u8]) -> Result<(usize, LeafSolution), String> {
    let v: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("a bad result message: {e}"))?;
    let int = |k: &str| {
        v[k].as_i64()
            .ok_or_else(|| format!("a result message without {k}"))
    };
    let swap = match &v["swap"] {
        serde_json::Value::Array(a) if a.len() == 3 => Some((
            a[0].as_i64().unwrap_or(0) as i32,
            a[1].as_i64().map(|x| x as i32),
            a[2].as_bool().unwrap_or(false),
        )),
        _ => None,
    };
    Ok((
        int("leaf")? as usize,
        LeafSolution {
            value: int("value")? as i32,
            pv: moves_of(v["pv"].as_str().unwrap_or("-"))?,
            best_moves: moves_of(v["best_moves"].as_str().unwrap_or("-"))?,
            swap,
            nodes: int("nodes")? as u64,
            seconds: v["seconds"].as_f64().unwrap_or(0.0),
        },
    ))
}

/// Runs the solve on every rank of `comm`; rank 0 gets the report, the others `None`.
///
/// # Errors
/// [`Failure`] on every rank when any rank failed (a database that cannot be opened, a
/// table that does not fit, a refused journal, a solver error).
pub fn run<C: Comm + ?Sized>(comm: &C, args: &SolveArgs) -> Result<Option<SolveReport>, Failure> {
    let t0 = Instant::now();
    let (solver, database) = agree(comm, make_solver(args))?;
    if comm.rank() == 0 {
        coordinate(comm, args, solver, database, t0).map(Some)
    } else {
        work(comm, args, solver).map(|()| None)
    }
}

/// A worker rank: solves each task from rank 0 until [`TAG_STOP`].
fn work<C: Comm + ?Sized>(comm: &C, args: &SolveArgs, mut solver: Solver) -> Result<(), Failure> {
    let mut stopped = false;
    let mut failed: Option<String> = None;
    loop {
        let Some((_, tag, bytes)) = comm.try_receive(Some(0)) else {
            std::thread::sleep(POLL);
            continue;
        };
        match tag {
            TAG_STOP => break,
            TAG_TASK if failed.is_none() => {
                let text = String::from_utf8_lossy(&bytes);
                let (leaf, path) = text.split_once('\n').unwrap_or((&text, "-"));
                let outcome = leaf
                    .parse::<usize>()
                    .map_err(|_| format!("a bad task message {text:?}"))
                    .and_then(|leaf| Ok((leaf, moves_of(path)?)))
                    .and_then(|(leaf, path)| {
                        let mut stop = || {
                            if let Some((_, TAG_STOP, _)) = comm.try_receive(Some(0)) {
                                stopped = true;
                            }
                            stopped
                        };
                        Ok((leaf, solve_leaf(&mut solver, &args.root, &path, &mut stop)?))
                    });
                match outcome {
                    Ok((leaf, Some(s))) => comm.send(0, TAG_RESULT, &result_json(leaf, &s)),
                    Ok((_, None)) => {}
                    Err(e) => {
                        comm.send(0, TAG_ERROR, e.as_bytes());
                        failed = Some(e);
                    }
                }
                if stopped {
                    break;
                }
            }
            _ => {}
        }
    }
    match failed {
        // Rank 0 prints the reason.
        Some(_) => Err(Failure::Elsewhere(Vec::new())),
        None => Ok(()),
    }
}

/// Rank 0's own worker: a thread that solves the tasks of a channel.
struct LocalWorker {
    tasks: mpsc::Sender<(usize, Vec<KalahMove>)>,
    results: mpsc::Receiver<Result<(usize, Option<LeafSolution>), String>>,
    cancel: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl LocalWorker {
    fn start(root: KalahPosition, solver: Solver) -> Result<LocalWorker, String> {
        let cancel = Arc::new(AtomicBool::new(false));
        let mut solver = solver.cancel_flag(Arc::clone(&cancel));
        let (task_tx, task_rx) = mpsc::channel::<(usize, Vec<KalahMove>)>();
        let (res_tx, res_rx) = mpsc::channel();
        let stop = Arc::clone(&cancel);
        let thread = std::thread::Builder::new()
            .name("mancala-mpi-worker".into())
            .spawn(move || {
                for (leaf, path) in task_rx {
                    let mut cancelled = || stop.load(Ordering::Relaxed);
                    let r =
                        solve_leaf(&mut solver, &root, &path, &mut cancelled).map(|s| (leaf, s));
                    if res_tx.send(r).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| format!("cannot start rank 0's worker thread: {e}"))?;
        Ok(LocalWorker {
            tasks: task_tx,
            results: res_rx,
            cancel,
            thread,
        })
    }

    fn stop(self) {
        self.cancel.store(true, Ordering::Relaxed);
        drop(self.tasks);
        let _ = self.thread.join();
    }
}

/// Sends [`TAG_STOP`] to every worker rank.
fn stop_all<C: Comm + ?Sized>(comm: &C) {
    for r in 1..comm.size() {
        comm.send(r, TAG_STOP, &[]);
    }
}

/// Rank 0: the tree, the journal, the tasks, the results.
fn coordinate<C: Comm + ?Sized>(
    comm: &C,
    args: &SolveArgs,
    solver: Solver,
    database: Option<PathBuf>,
    t0: Instant,
) -> Result<SolveReport, Failure> {
    let fail = |e: String| {
        stop_all(comm);
        Failure::Here(e)
    };
    let mut tree = Tree::new(args.root, args.depth);
    let mut journal = None;
    let mut from_journal = 0;
    if let Some(path) = &args.journal {
        let (j, entries) = Journal::open(path, &args.root).map_err(|e| fail(e.to_string()))?;
        for (moves, s) in entries {
            let mut p = args.root;
            for &mv in &moves {
                p = p.play(mv).expect("checked by Journal::open");
            }
            if let Some(l) = tree.leaf_of(&p) {
                if tree.leaves()[l].solution.is_none() {
                    tree.solved(l, s);
                    from_journal += 1;
                }
            }
        }
        journal = Some(j);
    }
    let local = LocalWorker::start(args.root, solver).map_err(fail)?;
    let workers = comm.size();
    // Worker w: 0 is rank 0's own thread, w ≥ 1 is rank w.
    let mut task_of: Vec<Option<usize>> = vec![None; workers];
    let mut report = vec![WorkerReport::default(); workers];
    let mut solved = 0;
    // An error: (the rank it comes from, the reason).
    let outcome: Result<(), (usize, String)> = loop {
        if tree.done() {
            break Ok(());
        }
        let busy: HashSet<usize> = task_of.iter().flatten().copied().collect();
        let free: Vec<usize> = (0..workers).filter(|&w| task_of[w].is_none()).collect();
        let next = tree.select(free.len(), &busy);
        if next.is_empty() && busy.is_empty() {
            break Err((
                0,
                "internal error: the tree is not solved and asks for no leaf".into(),
            ));
        }
        for (&w, &l) in free.iter().zip(&next) {
            let path = tree.leaves()[l].path.clone();
            if w == 0 {
                let _ = local.tasks.send((l, path));
            } else {
                let msg = format!("{l}\n{}", moves_text(&path));
                comm.send(w, TAG_TASK, msg.as_bytes());
            }
            task_of[w] = Some(l);
        }
        // Wait for a result: rank 0's thread (channel) or another rank (MPI).
        let got = match local.results.recv_timeout(POLL) {
            Ok(r) => Some((0, r.map_err(|e| (0, e)))),
            Err(mpsc::RecvTimeoutError::Timeout) => comm.try_receive(None).map(|(w, tag, b)| {
                let r = match tag {
                    TAG_RESULT => parse_result(&b)
                        .map(|(l, s)| (l, Some(s)))
                        .map_err(|e| (w, e)),
                    TAG_ERROR => Err((w, String::from_utf8_lossy(&b).into_owned())),
                    _ => Err((w, format!("an unexpected message (tag {tag})"))),
                };
                (w, r)
            }),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Some((0, Err((0, "rank 0's worker thread ended".to_string()))))
            }
        };
        let Some((w, r)) = got else { continue };
        let (l, s) = match r {
            Ok(x) => x,
            Err(e) => break Err(e),
        };
        if task_of[w] != Some(l) {
            break Err((w, format!("answered leaf {l}, not its task")));
        }
        task_of[w] = None;
        let Some(s) = s else {
            break Err((w, format!("stopped before solving leaf {l}")));
        };
        report[w].leaves += 1;
        report[w].nodes += s.nodes;
        report[w].busy_seconds += s.seconds;
        if args.verbose {
            eprintln!(
                "mancala-mpi: leaf {l} ({}) = {:+} by {} in {:.2} s, {} nodes; root between {:+} and {:+}",
                moves_text(&tree.leaves()[l].path),
                s.value,
                if w == 0 { "rank 0".to_string() } else { format!("rank {w}") },
                s.seconds,
                s.nodes,
                tree.bounds().0,
                tree.bounds().1
            );
        }
        if let Some(j) = &mut journal {
            if let Err(e) = j.append(&tree.leaves()[l].path, &s) {
                break Err((0, e.to_string()));
            }
        }
        tree.solved(l, s);
        solved += 1;
    };
    stop_all(comm);
    local.stop();
    outcome.map_err(|(w, e)| {
        if w == 0 {
            Failure::Here(e)
        } else {
            Failure::Of(w, e)
        }
    })?;
    let (v, _) = tree.bounds();
    let root = args.root;
    let margin = root.mover_store_difference();
    let mut solution = Solution {
        value: v,
        lower: v,
        upper: v,
        exact: true,
        score: margin + v,
        best_moves: tree.best_moves(),
        pv: tree.principal_variation(),
        swap: None,
        nodes: report.iter().map(|r| r.nodes).sum(),
        seconds: t0.elapsed().as_secs_f64(),
    };
    if let Some(s) = tree.root_leaf().and_then(|l| l.solution.as_ref()) {
        solution.swap = s.swap.map(|(a, b, c)| mancala_solver::SwapChoice {
            swap_value: a,
            stay_value: b,
            swap_is_better: c,
        });
    }
    Ok(SolveReport {
        solution,
        database,
        leaves: tree.leaves().len(),
        from_journal,
        solved,
        workers: report,
    })
}
