//! `mancala-mpi egdb build`: the endgame database built by every rank of the job together.
//!
//! Every rank holds all the entries (a level reads entries of any lower layer, since a
//! capture can take many seeds off the board). The build goes layer by layer and, inside a
//! layer, moment level by moment level, as the one-process build does (`LevelBuild`): for
//! each level, rank 0's cost model cuts it into one share a rank (`balance`); each rank
//! computes its share on its threads, then an all-gather gives every rank every share's
//! entries, and the next level starts. After each layer the ranks send rank 0 their timings
//! (the model learns from them) and rank 0 appends the layer to the partial file
//! (`checkpoint`). At the end rank 0 turns the entries into the database, converts it to
//! the encoding asked for (`Egdb::convert`, when not one byte an entry) and saves it with
//! `Database::save_checked` (with `--force`), as `mancala egdb build` saves: the file is the
//! same, byte for byte. The partial file is named after the one-byte database whatever the
//! encoding: its layers are one byte an entry, the same for every encoding.

use std::path::{Path, PathBuf};
use std::time::Instant;

use mancala_core::kalah::KalahRules;
use mancala_solver::egdb::{
    file_in_the_way, occupant, probe_folder, EgdbError, Encoding, Level, LevelBuild, Occupant,
};
use mancala_solver::{Database, Egdb};

use crate::balance::{Balance, CostModel, Sample};
use crate::checkpoint::{Checkpoint, CheckpointError, Identity};
use crate::comm::{agree, agree_at_root, Comm, Failure};
use mancala_solver::usage as cpu;

/// What to build.
#[derive(Debug, Clone)]
pub struct BuildArgs {
    /// The rules (their m and value-relevant options make the database).
    pub rules: KalahRules,
    /// K.
    pub max_seeds: u32,
    /// The output folder (created if missing).
    pub out: PathBuf,
    /// Continue the partial file of a killed build.
    pub resume: bool,
    /// Build threads of each rank (at least 1).
    pub threads: usize,
    /// How the levels are shared.
    pub balance: Balance,
    /// Print a line on standard error after each layer.
    pub log_layers: bool,
    /// Stop once this layer is in the partial file (a batch job's time slice), leaving the
    /// rest to a `--resume`; at once, building nothing, when the resumed partial file already
    /// holds it. No stop when it is `max_seeds` or more.
    pub stop_after: Option<u32>,
    /// Write over a file at the database's name that holds another database or none
    /// ([`check_target`]).
    pub force: bool,
    /// The entry encoding of the file saved (byte or packed; the entries are built one
    /// byte each and converted by rank 0 before the save).
    pub encoding: Encoding,
}

/// Refuses to build over the file `target` (named after the database being built, in
/// the output folder) unless `force` or [`occupant`] finds nothing in the way: no regular
/// file there (a folder is refused by the callers; a symbolic link is replaced by the save,
/// not followed), or one whose header says it holds that database (a rebuild or a repair),
/// as `mancala egdb build` does. Only the header is read. A file that is not a regular one
/// (a device, a FIFO, a socket: [`Occupant::NotRegular`]) is refused even with `force`: the
/// save would refuse it. First the folder of `target` must take a file ([`probe_folder`]):
/// a folder that cannot be written is refused as such, never as a file in the way that
/// `force` would write over.
///
/// # Errors
/// The folder's error; one line naming the file, what it holds (another database, or why it
/// cannot be told), `with` (the database to be written, [`Database::in_words`]) and
/// `--force`, as `mancala egdb build` says it; or that it is not a regular file.
pub fn check_target(target: &Path, with: &str, force: bool) -> Result<(), String> {
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    probe_folder(dir).map_err(|e| format!("--out {}: {e}", mancala_core::ShortenedPath(dir)))?;
    let name = target
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    match occupant(target, name) {
        Ok(()) => Ok(()),
        // The save refuses it whatever `--force` says (its rename would replace it), so say
        // so before the build rather than after it.
        Err(holds @ Occupant::NotRegular) => {
            Err(format!("{}: {holds}", mancala_core::ShortenedPath(target)))
        }
        Err(_) if force => Ok(()),
        Err(holds) => Err(format!(
            "{} already exists and {holds}: not written over with {with}; --force writes over it",
            mancala_core::ShortenedPath(target)
        )),
    }
}

/// The one-line message of a refused or failed save at `path`: a file that appeared there
/// during the build and holds something else ([`EgdbError::Occupied`]) is said as
/// [`check_target`] says it before the build; any other error in the library's words.
pub fn save_error(path: &Path, e: &EgdbError) -> String {
    match e {
        EgdbError::Occupied { holds, with, .. } => format!(
            "{} already exists and {holds}: not written over with {with}; --force writes over it",
            mancala_core::ShortenedPath(path)
        ),
        _ => e.to_string(),
    }
}

/// How a build ended on rank 0.
#[derive(Debug, Clone)]
pub enum Built {
    /// The database is saved.
    Database(BuildReport),
    /// Stopped as asked after `layer`; the partial file holds layers 0..=layer.
    Stopped {
        /// The last layer in the partial file: the one to stop after, or a later one when
        /// the resumed partial file already held it.
        layer: u32,
        /// The partial file.
        partial: PathBuf,
        /// Whether this run built layers; `false` when the resumed partial file already
        /// held the layer to stop after (nothing was built).
        built: bool,
    },
}

/// One rank's share of the work of a whole build.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RankReport {
    /// Positions it computed.
    pub positions: u64,
    /// Seconds it computed (wall time inside its shares).
    pub busy_seconds: f64,
    /// Seconds in the exchanges of entries (waiting for the slowest rank included).
    pub exchange_seconds: f64,
    /// Processor time of the whole process (user + system, all its threads), seconds, when
    /// the system tells it.
    pub cpu_seconds: Option<f64>,
}

/// What rank 0 reports after a build.
#[derive(Debug, Clone)]
pub struct BuildReport {
    /// The database file written.
    pub path: PathBuf,
    /// What it serves (`Egdb::description`).
    pub description: String,
    /// Its entries.
    pub entries: u64,
    /// Its entry encoding.
    pub encoding: Encoding,
    /// The bytes of the saved file (header and payload; `Egdb::file_bytes`), what
    /// `std::fs::metadata` gives of it.
    pub file_bytes: u64,
    /// Layers read back from the partial file instead of built.
    pub resumed_layers: u32,
    /// A layer of the partial file dropped because it was cut short.
    pub dropped_layer: Option<u32>,
    /// Wall seconds from the start to the database in memory (loading the partial file
    /// included), and of the save.
    pub build_seconds: f64,
    /// Seconds of the save.
    pub save_seconds: f64,
    /// Threads of each rank.
    pub threads: usize,
    /// Each rank's share, in rank order.
    pub ranks: Vec<RankReport>,
    /// Temporary files of earlier killed saves removed.
    pub removed_stale: Vec<PathBuf>,
}

impl BuildReport {
    /// The largest busy time over the mean: 1 is a perfect balance.
    #[must_use]
    pub fn imbalance(&self) -> f64 {
        let busy: Vec<f64> = self.ranks.iter().map(|r| r.busy_seconds).collect();
        let mean = busy.iter().sum::<f64>() / busy.len() as f64;
        let max = busy.iter().copied().fold(0.0, f64::max);
        if mean > 0.0 {
            max / mean
        } else {
            1.0
        }
    }
}

/// The partial file of the database `file` (module `checkpoint`).
#[must_use]
pub fn partial_path(out: &Path, file: &str) -> PathBuf {
    out.join(format!("{file}.partial"))
}

/// Rank 0's start: the output folder checked, the partial file opened (`--resume`) or
/// created.
fn open_partial(
    args: &BuildArgs,
    id: &Identity,
    build: &LevelBuild,
) -> Result<(Checkpoint, Option<u32>), String> {
    let out = &args.out;
    // Anything there, or above it, that is not a folder (a file, a FIFO, a socket, a device;
    // a link is followed) is named as such, before `create_dir_all` says only "File exists"
    // or "Not a directory".
    if let Some(f) = file_in_the_way(out) {
        return Err(format!("--out {}: {f}", mancala_core::ShortenedPath(out)));
    }
    std::fs::create_dir_all(out)
        .map_err(|e| format!("--out {}: {e}", mancala_core::ShortenedPath(out)))?;
    let file = Egdb::file_name(&args.rules, args.max_seeds, Encoding::Byte);
    // The database's own name is checked now, not after every layer is built: a folder
    // standing there would make the final rename fail at the end of the build.
    let target = out.join(Egdb::file_name(&args.rules, args.max_seeds, args.encoding));
    // The entry itself: a symbolic link, even to a folder, is replaced by the save.
    if std::fs::symlink_metadata(&target).is_ok_and(|m| m.is_dir()) {
        return Err(format!(
            "{}: it is a folder, not a file",
            mancala_core::ShortenedPath(&target)
        ));
    }
    let with = Egdb::in_words(&args.rules, args.max_seeds, args.encoding);
    check_target(&target, &with, args.force)?;
    let path = partial_path(out, &file);
    // A symbolic link there, to a file, a folder or nothing, is refused first.
    Checkpoint::refuse_link(&path).map_err(|e| e.to_string())?;
    if path.is_dir() {
        return Err(format!(
            "{}: it is a folder, not a file",
            mancala_core::ShortenedPath(&path)
        ));
    }
    let layer_len = |k: u32| {
        let r = build.layer_range(k);
        r.end - r.start
    };
    if path.exists() {
        if !args.resume {
            // A FIFO, a socket or a device there is refused before it is opened.
            if Checkpoint::in_use(&path).map_err(|e| e.to_string())? {
                return Err(CheckpointError::InUse { path }.to_string());
            }
            return Err(format!(
                "{}: a partial build is there (a build that was stopped): --resume continues it, or delete the file to start over",
                mancala_core::ShortenedPath(&path)
            ));
        }
        let (c, r) = Checkpoint::resume(&path, id, layer_len).map_err(|e| e.to_string())?;
        if r.started_over && args.log_layers {
            eprintln!("mancala-mpi: {} was cut inside its header (the build was stopped while starting it): the build starts over", mancala_core::ShortenedPath(&path));
        }
        return Ok((c, r.dropped));
    }
    if args.resume && target.exists() {
        // Nothing to resume, and the database of this build is already there: a build from
        // nothing would silently replace it.
        return Err(format!(
            "{}: --resume, but there is no partial build to resume and this database is already built; delete it to build it again",
            mancala_core::ShortenedPath(&target)
        ));
    }
    let c = Checkpoint::create(&path, id).map_err(|e: CheckpointError| e.to_string())?;
    Ok((c, None))
}

/// Runs the build on every rank of `comm`; rank 0 gets the report, the others `None`.
///
/// # Errors
/// [`Failure`]: on every rank when any rank failed (a bad output folder, a refused partial
/// file, no memory for the entries, a write error), with the reason on the rank that failed.
pub fn run<C: Comm + ?Sized>(comm: &C, args: &BuildArgs) -> Result<Option<Built>, Failure> {
    let t0 = Instant::now();
    let cpu0 = cpu::process_seconds();
    let (rank, size) = (comm.rank(), comm.size());
    let build = agree(
        comm,
        LevelBuild::new(&args.rules, args.max_seeds).map_err(|e| e.to_string()),
    )?;
    let pool = agree(
        comm,
        rayon::ThreadPoolBuilder::new()
            .num_threads(args.threads)
            .thread_name(|i| format!("mancala-mpi-build-{i}"))
            .build()
            .map_err(|e| format!("cannot start the build threads: {e}")),
    )?;
    let id = Identity::of(&args.rules, args.max_seeds, build.total());
    let partial = if rank == 0 {
        open_partial(args, &id, &build).map(Some)
    } else {
        Ok(None)
    };
    let mut partial = agree_at_root(comm, partial)?;
    let dropped = partial.as_ref().and_then(|p| p.1);
    // Resume: rank 0 reads each finished layer, every rank takes it in.
    let mut done = vec![0u8; 8];
    if let Some((c, _)) = &partial {
        done = u64::from(c.layers()).to_le_bytes().to_vec();
    }
    comm.broadcast(0, &mut done);
    let resumed = u64::from_le_bytes(done[..8].try_into().expect("8 bytes")) as u32;
    if let (Some(d), true) = (dropped, args.log_layers) {
        eprintln!("mancala-mpi: layer {d} of the partial file was cut short (the build was stopped while writing it): it is built again");
    }
    // The partial file already holds the layer to stop after (or a later one): nothing is
    // built, nor read back, and the database is not written.
    if let Some(stop) = args.stop_after {
        if stop < args.max_seeds && resumed > stop {
            let file = Egdb::file_name(&args.rules, args.max_seeds, Encoding::Byte);
            return Ok((rank == 0).then(|| Built::Stopped {
                layer: resumed - 1,
                partial: partial_path(&args.out, &file),
                built: false,
            }));
        }
    }
    for k in 0..resumed {
        let mut entries = Vec::new();
        let read = match &mut partial {
            Some((c, _)) => c
                .read_layer(k)
                .map(|e| entries = e)
                .map_err(|e| e.to_string()),
            None => Ok(()),
        };
        agree_at_root(comm, read)?;
        comm.broadcast(0, &mut entries);
        let loaded = build
            .load_layer(k, &entries)
            .map_err(|e| format!("the partial file's layer {k}: {e}"));
        agree(comm, loaded)?;
    }
    if resumed > 0 && rank == 0 && args.log_layers {
        eprintln!(
            "mancala-mpi: resumed: layers 0..={} read back from the partial file",
            resumed - 1
        );
    }
    let mut model = CostModel::new(args.balance, args.max_seeds, size);
    let mut mine = RankReport::default();
    let mut sample = Sample::new(args.max_seeds);
    let mut share = Vec::new();
    let mut all = Vec::new();
    for k in resumed..=args.max_seeds {
        let tk = Instant::now();
        let levels = build.levels(k);
        // Rank 0 cuts every level of the layer; every rank gets the same cuts.
        let mut plan = Vec::new();
        if rank == 0 {
            for level in &levels {
                for c in model.cuts(&level.by_own_seeds()) {
                    plan.extend_from_slice(&c.to_le_bytes());
                }
            }
        }
        comm.broadcast(0, &mut plan);
        let cuts: Vec<u64> = plan
            .chunks_exact(8)
            .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")))
            .collect();
        for (i, level) in levels.iter().enumerate() {
            let c = &cuts[i * (size + 1)..(i + 1) * (size + 1)];
            let (from, to) = (c[rank], c[rank + 1]);
            pool.install(|| compute_share(&build, level, from, to, &mut sample));
            mine.positions += to - from;
            let te = Instant::now();
            share.clear();
            build.export(level, from, to, &mut share);
            let counts: Vec<usize> = c.windows(2).map(|w| (w[1] - w[0]) as usize).collect();
            all.resize(level.len() as usize, 0);
            comm.all_gather(&share, &counts, &mut all);
            for r in (0..size).filter(|&r| r != rank) {
                build.import(level, c[r], &all[c[r] as usize..c[r + 1] as usize]);
            }
            mine.exchange_seconds += te.elapsed().as_secs_f64();
        }
        // The layer's timings to rank 0's model.
        if let Some(flat) = comm.gather_f64(&sample.flat()) {
            let samples = Sample::unflatten(&flat, args.max_seeds);
            model.learn(&samples);
            if args.log_layers {
                let busy: Vec<String> = samples
                    .iter()
                    .map(|s| format!("{:.2}", s.seconds.iter().sum::<f64>()))
                    .collect();
                let positions = {
                    let r = build.layer_range(k);
                    r.end - r.start
                };
                eprintln!(
                    "mancala-mpi: layer {k}/{} done in {:.2} s, {}; busy seconds by rank: {}",
                    args.max_seeds,
                    tk.elapsed().as_secs_f64(),
                    mancala_core::words::count(positions, "position", "positions"),
                    busy.join(" ")
                );
            }
        }
        mine.busy_seconds += sample.seconds.iter().sum::<f64>();
        sample = Sample::new(args.max_seeds);
        let saved = match &mut partial {
            Some((c, _)) => c
                .append(k, &build.layer_entries(k))
                .map_err(|e| e.to_string()),
            None => Ok(()),
        };
        agree_at_root(comm, saved)?;
        if args.stop_after == Some(k) && k < args.max_seeds {
            let file = Egdb::file_name(&args.rules, args.max_seeds, Encoding::Byte);
            return Ok((rank == 0).then(|| Built::Stopped {
                layer: k,
                partial: partial_path(&args.out, &file),
                built: true,
            }));
        }
    }
    mine.cpu_seconds = cpu::process_seconds()
        .zip(cpu0)
        .map(|(now, then)| now - then);
    let flat = [
        mine.positions as f64,
        mine.busy_seconds,
        mine.exchange_seconds,
        mine.cpu_seconds.unwrap_or(-1.0),
    ];
    let gathered = comm.gather_f64(&flat);
    let Some(gathered) = gathered else {
        return Ok(None);
    };
    let ranks = gathered
        .chunks(4)
        .map(|c| RankReport {
            positions: c[0] as u64,
            busy_seconds: c[1],
            exchange_seconds: c[2],
            cpu_seconds: (c[3] >= 0.0).then_some(c[3]),
        })
        .collect();
    let db = pool.install(|| build.finish());
    let db = match args.encoding {
        Encoding::Byte => db,
        other => db.convert(other).map_err(|e| Failure::Job(e.to_string()))?,
    };
    let build_seconds = t0.elapsed().as_secs_f64();
    let path = args
        .out
        .join(Egdb::file_name(&args.rules, args.max_seeds, args.encoding));
    let ts = Instant::now();
    let report = db
        .save_checked(&path, args.force)
        .map_err(|e| Failure::Job(save_error(&path, &e)))?;
    let save_seconds = ts.elapsed().as_secs_f64();
    if let Some((c, _)) = partial {
        c.remove().map_err(|e| Failure::Job(e.to_string()))?;
    }
    Ok(Some(Built::Database(BuildReport {
        path,
        description: db.description(),
        entries: db.len() as u64,
        encoding: db.encoding(),
        file_bytes: db.file_bytes(),
        resumed_layers: resumed,
        dropped_layer: dropped,
        build_seconds,
        save_seconds,
        threads: args.threads,
        ranks,
        removed_stale: report.removed_stale,
    })))
}

/// Computes the positions `from..to` of `level`, one run of a seed count in the mover's row
/// at a time, timing each into `sample`.
fn compute_share(build: &LevelBuild, level: &Level, from: u64, to: u64, sample: &mut Sample) {
    let mut start = 0u64;
    for (a, n) in level.by_own_seeds() {
        let (lo, hi) = (start.max(from), (start + n).min(to));
        start += n;
        if lo >= hi {
            continue;
        }
        let t = Instant::now();
        build.compute(level, lo, hi);
        sample.seconds[a as usize] += t.elapsed().as_secs_f64();
        sample.positions[a as usize] += (hi - lo) as f64;
    }
}
