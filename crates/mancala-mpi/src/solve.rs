//! `mancala-mpi solve`: an exact solve shared between the ranks.
//!
//! Rank 0 builds the tree of the positions a few plies from the root and runs MTD(f) over
//! it ([`crate::tree`]): it chooses which leaves must be searched and the window each search
//! must answer; the workers answer with the single-machine solver
//! (`mancala_solver::Solver::solve_within`, its threads, table and database, unchanged),
//! keeping their table from one search to the next, and a leaf searched again goes back to
//! the worker that searched it last when that one is free (its table still holds the
//! proof). Rank 0 runs a worker too, on threads of its own. Every search finished is
//! journaled (`--journal`, [`crate::journal`]). The protocol is in the crate docs.

use std::collections::HashSet;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use mancala_core::kalah::{KalahMove, KalahPosition};
use mancala_solver::{Egdb, Solution, SolveOptions, Solver};

use crate::comm::{agree, Comm, Failure, Tag};
use crate::journal::{moves_of, moves_text, Journal};
use crate::tree::{Ask, FullLeaf, LeafResult, Task, Tree};
use mancala_solver::usage as cpu;

/// 0 → worker: search a leaf. Bytes: the leaf's number, a line feed, its moves from the
/// root (`3,1,6`, `-` for none), a line feed, what to answer: `a,b` for the open window
/// `(a, b)` (`Solver::solve_within`), `full` for a full solve (`Solver::solve`).
pub const TAG_TASK: Tag = 1;
/// Worker → 0: what a search proved, as JSON: `{"leaf", "ask" (`[a, b]` or `"full"`),
/// "lower", "upper", "pv", "best_moves", "swap", "nodes", "seconds"}` (the variation, best
/// moves and swap only for a full solve).
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
    /// Each worker's transposition table, bytes (`--tt-mb`); `None`: sized to the positions
    /// solved ([`Solver::tt_bytes_at_most`] with [`Solver::sized_table_cap`]: 256 MiB or half
    /// the memory available, the smaller), as `mancala solve` sizes it.
    pub tt_bytes: Option<usize>,
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
    /// Searches it ran (a leaf searched with several windows counts once a window).
    pub searches: u64,
    /// Nodes it searched.
    pub nodes: u64,
    /// Seconds it spent searching.
    pub busy_seconds: f64,
    /// Processor seconds of the worker's whole process (user and system, all threads, from
    /// its start to the end of the solve: opening the database included, and on rank 0 the
    /// coordinator and the first guess); `None` where the system does not tell.
    pub cpu_seconds: Option<f64>,
    /// The largest resident memory of the worker's process, bytes (its database, table and
    /// the rest; on rank 0 the coordinator's and its own worker's together).
    pub peak_resident_bytes: Option<u64>,
}

/// What rank 0 reports: the solve's result, as `mancala solve` gives it, and how it was
/// shared.
#[derive(Debug, Clone)]
pub struct SolveReport {
    /// The result (nodes: all workers' in this run and the first guess's; seconds: wall
    /// time on rank 0).
    pub solution: Solution,
    /// The database file the workers used.
    pub database: Option<PathBuf>,
    /// Distinct leaves of the tree.
    pub leaves: usize,
    /// Distinct leaves searched in this run or found in the journal.
    pub leaves_searched: usize,
    /// Searches whose result came from the journal.
    pub from_journal: usize,
    /// Searches run in this run.
    pub searches: usize,
    /// Nodes of MTD(f)'s first guess (`Solver::estimate` on rank 0), part of the solution's.
    pub guess_nodes: u64,
    /// Each worker, in order: rank 0's own worker first, then ranks 1, 2, ….
    pub workers: Vec<WorkerReport>,
}

impl SolveReport {
    /// The largest worker's busy time over the mean (1 when the searches were shared
    /// evenly; 1 also when nothing was searched).
    #[must_use]
    pub fn imbalance(&self) -> f64 {
        let busy: Vec<f64> = self.workers.iter().map(|w| w.busy_seconds).collect();
        let mean = busy.iter().sum::<f64>() / busy.len().max(1) as f64;
        if mean > 0.0 {
            busy.iter().fold(0.0_f64, |a, &b| a.max(b)) / mean
        } else {
            1.0
        }
    }

    /// For tests: the report of a solve of value 0 in no time, no leaf and no search, with
    /// `workers` as its workers.
    #[cfg(test)]
    pub(crate) fn of_workers(workers: Vec<WorkerReport>) -> SolveReport {
        SolveReport {
            solution: Solution {
                value: 0,
                lower: 0,
                upper: 0,
                exact: true,
                score: 0,
                best_moves: Vec::new(),
                pv: Vec::new(),
                swap: None,
                nodes: 0,
                seconds: 0.0,
            },
            database: None,
            leaves: 0,
            leaves_searched: 0,
            from_journal: 0,
            searches: 0,
            guess_nodes: 0,
            workers,
        }
    }
}

fn ask_text(ask: Ask) -> String {
    match ask {
        Ask::Window(a, b) => format!("{a},{b}"),
        Ask::Full => "full".into(),
    }
}

fn ask_of(text: &str) -> Result<Ask, String> {
    if text == "full" {
        return Ok(Ask::Full);
    }
    let bad = || format!("a bad window {text:?} in a task");
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (a, b) = (
        a.parse::<i32>().map_err(|_| bad())?,
        b.parse::<i32>().map_err(|_| bad())?,
    );
    if a >= b {
        return Err(bad());
    }
    Ok(Ask::Window(a, b))
}

/// A worker's solver: its threads, table and database.
fn make_solver(args: &SolveArgs) -> Result<(Solver, Option<PathBuf>), String> {
    let solver = Solver::new().threads(args.threads);
    let mut solver = match args.tt_bytes {
        Some(bytes) => solver.tt_bytes(bytes),
        // Sized to the positions, at most 256 MiB and half the memory available, as
        // `mancala solve` sizes it.
        None => solver.tt_bytes_at_most(Solver::sized_table_cap(
            mancala_solver::available_memory_bytes(),
        )),
    };
    let mut file = None;
    if let Some(path) = &args.egdb {
        let rules = args.root.rules();
        // In the words of `mancala solve --egdb`: the file named, how to build one.
        let found = Egdb::find_in(path, &rules)
            .map_err(|e| format!("--egdb: {}", mancala_solver::egdb::lookup_error(path, &e)))?;
        solver = solver.database(Arc::new(found.database));
        file = Some(found.path);
    }
    Ok((solver, file))
}

/// Searches the leaf reached by `path` from the root as `ask` says; `stop` is asked every
/// [`WATCH`] whether to give up (then `Ok(None)`).
fn search_leaf(
    solver: &mut Solver,
    root: &KalahPosition,
    path: &[KalahMove],
    ask: Ask,
    stop: &mut dyn FnMut() -> bool,
) -> Result<Option<LeafResult>, String> {
    let mut pos = *root;
    for &mv in path {
        pos = pos
            .play(mv)
            .map_err(|e| format!("a task's move {mv}: {e}"))?;
    }
    let mut watch = |_: &mancala_solver::SolveProgress| {
        if stop() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    match ask {
        Ask::Full => {
            let s = solver
                .solve(&pos, SolveOptions::new().progress(WATCH, &mut watch))
                .map_err(|e| e.to_string())?;
            if !s.exact {
                return Ok(None);
            }
            Ok(Some(LeafResult {
                ask,
                lower: s.value,
                upper: s.value,
                full: Some(FullLeaf {
                    pv: s.pv,
                    best_moves: s.best_moves,
                    swap: s
                        .swap
                        .map(|c| (c.swap_value, c.stay_value, c.swap_is_better)),
                }),
                nodes: s.nodes,
                seconds: s.seconds,
            }))
        }
        Ask::Window(a, b) => {
            let w = solver
                .solve_within(&pos, a, b, SolveOptions::new().progress(WATCH, &mut watch))
                .map_err(|e| e.to_string())?;
            if !w.settled {
                return Ok(None);
            }
            Ok(Some(LeafResult {
                ask,
                lower: w.lower,
                upper: w.upper,
                full: None,
                nodes: w.nodes,
                seconds: w.seconds,
            }))
        }
    }
}

fn result_json(leaf: usize, r: &LeafResult) -> Vec<u8> {
    let full = r.full.as_ref();
    serde_json::json!({
        "leaf": leaf,
        "ask": match r.ask {
            Ask::Window(a, b) => serde_json::json!([a, b]),
            Ask::Full => serde_json::json!("full"),
        },
        "lower": r.lower,
        "upper": r.upper,
        "pv": full.map(|f| moves_text(&f.pv)),
        "best_moves": full.map(|f| moves_text(&f.best_moves)),
        "swap": full.and_then(|f| f.swap).map(|(a, b, c)| serde_json::json!([a, b, c])),
        "nodes": r.nodes,
        "seconds": r.seconds,
    })
    .to_string()
    .into_bytes()
}

fn parse_result(bytes: &[u8]) -> Result<(usize, LeafResult), String> {
    let v: serde_json::Value =
        serde_json::from_slice(bytes).map_err(|e| format!("a bad result message: {e}"))?;
    let int = |x: &serde_json::Value, k: &str| {
        x.as_i64()
            .ok_or_else(|| format!("a result message without {k}"))
    };
    let bound = |k: &str| -> Result<i32, String> {
        i32::try_from(int(&v[k], k)?).map_err(|_| format!("a result message's {k} out of range"))
    };
    let ask = match &v["ask"] {
        serde_json::Value::String(s) if s == "full" => Ask::Full,
        serde_json::Value::Array(w) if w.len() == 2 => {
            let a = i32::try_from(int(&w[0], "ask")?).map_err(|_| "a bad window".to_string())?;
            let b = i32::try_from(int(&w[1], "ask")?).map_err(|_| "a bad window".to_string())?;
            Ask::Window(a, b)
        }
        _ => return Err("a result message without what was asked".into()),
    };
    let full = if ask == Ask::Full {
        let swap = match &v["swap"] {
            serde_json::Value::Array(a) if a.len() == 3 => Some((
                a[0].as_i64().unwrap_or(0) as i32,
                a[1].as_i64().map(|x| x as i32),
                a[2].as_bool().unwrap_or(false),
            )),
            _ => None,
        };
        Some(FullLeaf {
            pv: moves_of(v["pv"].as_str().unwrap_or("-"))?,
            best_moves: moves_of(v["best_moves"].as_str().unwrap_or("-"))?,
            swap,
        })
    } else {
        None
    };
    let r = LeafResult {
        ask,
        lower: bound("lower")?,
        upper: bound("upper")?,
        full,
        nodes: int(&v["nodes"], "nodes")? as u64,
        seconds: v["seconds"].as_f64().unwrap_or(0.0),
    };
    if r.lower > r.upper || !ask.answered_by(r.lower, r.upper) {
        return Err(format!(
            "a result {}..={} that does not answer {}",
            r.lower,
            r.upper,
            ask_text(ask)
        ));
    }
    Ok((int(&v["leaf"], "leaf")? as usize, r))
}

/// Runs the solve on every rank of `comm`; rank 0 gets the report, the others `None`.
///
/// # Errors
/// [`Failure`] on every rank when any rank failed (a database that cannot be opened, a
/// table that does not fit, a refused journal, a solver error).
pub fn run<C: Comm + ?Sized>(comm: &C, args: &SolveArgs) -> Result<Option<SolveReport>, Failure> {
    let t0 = Instant::now();
    let (solver, database) = agree(comm, make_solver(args))?;
    let outcome = if comm.rank() == 0 {
        coordinate(comm, args, solver, database, t0).map(Some)
    } else {
        work(comm, args, solver).map(|()| None)
    };
    // Every rank gets here, whatever happened (a worker leaves only on rank 0's stop, and
    // rank 0 sends it on every way out), so this gather waits for no rank that left.
    let mine = [
        cpu::process_seconds().unwrap_or(-1.0),
        cpu::peak_resident_bytes().map_or(-1.0, |b| b as f64),
    ];
    let all = comm.gather_f64(&mine);
    let mut report = outcome?;
    if let (Some(r), Some(all)) = (&mut report, all) {
        for (w, c) in r.workers.iter_mut().zip(all.chunks(2)) {
            w.cpu_seconds = (c[0] >= 0.0).then_some(c[0]);
            w.peak_resident_bytes = (c[1] >= 0.0).then_some(c[1] as u64);
        }
    }
    Ok(report)
}

/// A worker rank: runs each task from rank 0 until [`TAG_STOP`].
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
                let mut parts = text.splitn(3, '\n');
                let (leaf, path, ask) = (
                    parts.next().unwrap_or(""),
                    parts.next().unwrap_or("-"),
                    parts.next().unwrap_or("full"),
                );
                let outcome = leaf
                    .parse::<usize>()
                    .map_err(|_| format!("a bad task message {text:?}"))
                    .and_then(|leaf| Ok((leaf, moves_of(path)?, ask_of(ask)?)))
                    .and_then(|(leaf, path, ask)| {
                        let mut stop = || {
                            if let Some((_, TAG_STOP, _)) = comm.try_receive(Some(0)) {
                                stopped = true;
                            }
                            stopped
                        };
                        let r = search_leaf(&mut solver, &args.root, &path, ask, &mut stop)?;
                        Ok((leaf, r))
                    });
                match outcome {
                    Ok((leaf, Some(r))) => comm.send(0, TAG_RESULT, &result_json(leaf, &r)),
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

/// A search's outcome on rank 0's own worker: the leaf and what was proven (`None`:
/// stopped), or the reason it failed.
type LocalResult = Result<(usize, Option<LeafResult>), String>;

/// Rank 0's own worker: a thread that runs the tasks of a channel.
struct LocalWorker {
    tasks: mpsc::Sender<(usize, Vec<KalahMove>, Ask)>,
    results: mpsc::Receiver<LocalResult>,
    cancel: Arc<AtomicBool>,
    thread: std::thread::JoinHandle<()>,
}

impl LocalWorker {
    fn start(root: KalahPosition, solver: Solver) -> Result<LocalWorker, String> {
        let cancel = Arc::new(AtomicBool::new(false));
        let mut solver = solver.cancel_flag(Arc::clone(&cancel));
        let (task_tx, task_rx) = mpsc::channel::<(usize, Vec<KalahMove>, Ask)>();
        let (res_tx, res_rx) = mpsc::channel();
        let stop = Arc::clone(&cancel);
        let thread = std::thread::Builder::new()
            .name("mancala-mpi-worker".into())
            .spawn(move || {
                for (leaf, path, ask) in task_rx {
                    let mut cancelled = || stop.load(Ordering::Relaxed);
                    let r = search_leaf(&mut solver, &root, &path, ask, &mut cancelled)
                        .map(|s| (leaf, s));
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

/// Which free worker takes each task: the worker that searched the leaf last when it is
/// free (its table holds that search's proof), otherwise the first free one left.
/// `last[l]` is the worker that last searched leaf `l`; returns (worker, task) pairs.
fn assign(tasks: &[Task], free: &[usize], last: &[Option<usize>]) -> Vec<(usize, Task)> {
    let mut free: Vec<usize> = free.to_vec();
    let mut out = Vec::new();
    let mut rest = Vec::new();
    for &t in tasks {
        match last[t.leaf].and_then(|w| free.iter().position(|&f| f == w)) {
            Some(i) => out.push((free.remove(i), t)),
            None => rest.push(t),
        }
    }
    for t in rest {
        if free.is_empty() {
            break;
        }
        out.push((free.remove(0), t));
    }
    out
}

/// The rank of an error of the coordinator's journal (not of a worker): the job's.
const JOURNAL: usize = usize::MAX;

/// Rank 0: the tree, the journal, the tasks, the results.
fn coordinate<C: Comm + ?Sized>(
    comm: &C,
    args: &SolveArgs,
    mut solver: Solver,
    database: Option<PathBuf>,
    t0: Instant,
) -> Result<SolveReport, Failure> {
    // Rank 0's own checks (the journal, the tree, the first guess): the job's refusal.
    let fail = |e: String| {
        stop_all(comm);
        Failure::Job(e)
    };
    let mut tree = Tree::new(args.root, args.depth);
    let mut journal = None;
    let mut from_journal = 0;
    let mut searched: HashSet<usize> = HashSet::new();
    if let Some(path) = &args.journal {
        let (j, entries) =
            Journal::open(path, &args.root).map_err(|e| fail(format!("--journal: {e}")))?;
        for (moves, r) in entries {
            let mut p = args.root;
            for &mv in &moves {
                p = p.play(mv).expect("checked by Journal::open");
            }
            if let Some(l) = tree.leaf_of(&p) {
                tree.record(l, r.lower, r.upper, r.full).map_err(|e| {
                    fail(format!(
                        "{}: {e}; the journal is not used (delete it to start over)",
                        mancala_core::ShortenedPath(j.path())
                    ))
                })?;
                searched.insert(l);
                from_journal += 1;
            }
        }
        journal = Some(j);
    }
    let mut guess_nodes = 0;
    if tree.root_leaf().is_none() && !tree.finished() {
        // MTD(f)'s first guess, as the single solver makes it.
        let (g, n) = solver
            .estimate(&args.root, Solver::guess_depth(args.root.rules()))
            .map_err(|e| fail(e.to_string()))?;
        tree.set_guess(g);
        guess_nodes = n;
    }
    let local = LocalWorker::start(args.root, solver).map_err(fail)?;
    let workers = comm.size();
    // Worker w: 0 is rank 0's own thread, w ≥ 1 is rank w.
    let mut task_of: Vec<Option<Task>> = vec![None; workers];
    let mut last: Vec<Option<usize>> = vec![None; tree.leaves().len()];
    let mut report = vec![WorkerReport::default(); workers];
    let mut searches = 0;
    // An error: (the rank it comes from, the reason).
    let outcome: Result<(), (usize, String)> = loop {
        if tree.finished() {
            break Ok(());
        }
        let busy: HashSet<usize> = task_of.iter().flatten().map(|t| t.leaf).collect();
        let free: Vec<usize> = (0..workers).filter(|&w| task_of[w].is_none()).collect();
        let next = tree.next(free.len(), &busy);
        if next.is_empty() && busy.is_empty() {
            break Err((
                0,
                "internal error: the tree is not solved and asks for no search".into(),
            ));
        }
        for (w, task) in assign(&next, &free, &last) {
            let path = tree.leaves()[task.leaf].path.clone();
            if w == 0 {
                let _ = local.tasks.send((task.leaf, path, task.ask));
            } else {
                let msg = format!(
                    "{}\n{}\n{}",
                    task.leaf,
                    moves_text(&path),
                    ask_text(task.ask)
                );
                comm.send(w, TAG_TASK, msg.as_bytes());
            }
            task_of[w] = Some(task);
        }
        // Wait for a result: another rank (MPI) or rank 0's thread (channel). The ranks'
        // messages are looked at first, every round: rank 0's thread may answer small
        // searches faster than the wait below, and must not keep the others unheard.
        let from_rank = comm.try_receive(None).map(|(w, tag, b)| {
            let r = match tag {
                TAG_RESULT => parse_result(&b)
                    .map(|(l, s)| (l, Some(s)))
                    .map_err(|e| (w, e)),
                TAG_ERROR => Err((w, String::from_utf8_lossy(&b).into_owned())),
                _ => Err((w, format!("an unexpected message (tag {tag})"))),
            };
            (w, r)
        });
        let got = from_rank.or_else(|| match local.results.recv_timeout(POLL) {
            Ok(r) => Some((0, r.map_err(|e| (0, e)))),
            Err(mpsc::RecvTimeoutError::Timeout) => None,
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Some((0, Err((0, "rank 0's worker thread ended".to_string()))))
            }
        });
        let Some((w, r)) = got else { continue };
        let (l, r) = match r {
            Ok(x) => x,
            Err(e) => break Err(e),
        };
        let Some(task) = task_of[w].take() else {
            break Err((w, format!("answered leaf {l} without a task")));
        };
        if task.leaf != l {
            break Err((w, format!("answered leaf {l}, not its task")));
        }
        let Some(r) = r else {
            break Err((w, format!("stopped before answering leaf {l}")));
        };
        if r.ask != task.ask {
            break Err((w, format!("answered another question about leaf {l}")));
        }
        report[w].searches += 1;
        report[w].nodes += r.nodes;
        report[w].busy_seconds += r.seconds;
        if let Err(e) = tree.record(l, r.lower, r.upper, r.full.clone()) {
            break Err((w, e));
        }
        last[l] = Some(w);
        searched.insert(l);
        searches += 1;
        if args.verbose {
            eprintln!(
                "mancala-mpi: leaf {l} ({}) asked {}: {}..={} by {} in {:.2} s, {}; root between {:+} and {:+}",
                moves_text(&tree.leaves()[l].path),
                ask_text(r.ask),
                r.lower,
                r.upper,
                if w == 0 { "rank 0".to_string() } else { format!("rank {w}") },
                r.seconds,
                mancala_core::words::count(r.nodes, "node", "nodes"),
                tree.bounds().0,
                tree.bounds().1
            );
        }
        if let Some(j) = &mut journal {
            if let Err(e) = j.append(&tree.leaves()[l].path, &r) {
                break Err((JOURNAL, e.to_string()));
            }
        }
    };
    stop_all(comm);
    local.stop();
    outcome.map_err(|(w, e)| {
        if w == JOURNAL {
            Failure::Job(e)
        } else if w == 0 {
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
        nodes: guess_nodes + report.iter().map(|r| r.nodes).sum::<u64>(),
        seconds: t0.elapsed().as_secs_f64(),
    };
    if let Some(s) = tree.root_leaf().and_then(|l| l.full()) {
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
        leaves_searched: searched.len(),
        from_journal,
        searches,
        guess_nodes,
        workers: report,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_leaf_goes_back_to_its_last_worker_when_free() {
        let t = |leaf| Task {
            leaf,
            ask: Ask::Window(0, 1),
        };
        let last = vec![Some(2), None, Some(0), Some(1)];
        // Leaf 0 to worker 2, leaf 2 to worker 0; leaf 1 (never searched) to the first
        // free worker left; leaf 3's worker is busy, and no worker is left for it.
        assert_eq!(
            assign(&[t(1), t(0), t(2), t(3)], &[0, 2, 3], &last),
            vec![(2, t(0)), (0, t(2)), (3, t(1))]
        );
        assert_eq!(assign(&[t(3)], &[0], &last), vec![(0, t(3))]);
    }

    #[test]
    fn imbalance_is_the_largest_busy_time_over_the_mean() {
        let worker = |busy_seconds| WorkerReport {
            busy_seconds,
            ..WorkerReport::default()
        };
        let report =
            |busy: &[f64]| SolveReport::of_workers(busy.iter().map(|&b| worker(b)).collect());
        // Busy 1 s and 3 s: mean 2 s, the larger 1.5 times it.
        assert!((report(&[1.0, 3.0]).imbalance() - 1.5).abs() < 1e-12);
        assert!((report(&[2.0, 2.0, 2.0]).imbalance() - 1.0).abs() < 1e-12);
        assert!((report(&[0.0, 0.0]).imbalance() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn results_go_through_their_messages() {
        let full = LeafResult {
            ask: Ask::Full,
            lower: 4,
            upper: 4,
            full: Some(FullLeaf {
                pv: vec![KalahMove::House(2), KalahMove::Swap],
                best_moves: vec![KalahMove::House(2)],
                swap: Some((6, Some(4), true)),
            }),
            nodes: 77,
            seconds: 1.5,
        };
        let window = LeafResult {
            ask: Ask::Window(i32::MIN, -20),
            lower: -20,
            upper: 30,
            full: None,
            nodes: 5,
            seconds: 0.25,
        };
        for r in [full, window] {
            assert_eq!(parse_result(&result_json(7, &r)).unwrap(), (7, r.clone()));
            assert_eq!(ask_of(&ask_text(r.ask)).unwrap(), r.ask);
        }
        // Bounds that do not answer the window are refused.
        let bad = LeafResult {
            ask: Ask::Window(0, 1),
            lower: -3,
            upper: 3,
            full: None,
            nodes: 1,
            seconds: 0.0,
        };
        assert!(parse_result(&result_json(1, &bad)).is_err());
        assert!(ask_of("3,3").is_err());
        assert!(ask_of("x").is_err());
    }
}
