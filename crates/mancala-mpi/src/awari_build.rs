//! `mancala-mpi egdb build --rules awari`: the Awari database built by every rank of the job
//! together.
//!
//! Each level's boards are cut into one index range a rank; each rank solves its range and
//! the ranks exchange the updates that cross the cuts in rounds, until a round in which no
//! rank sends anything (`mancala_solver::awari::shard`, with the proof that the values are
//! the one-process build's). After each level every rank gets the whole level (a capture
//! reaches any board of any lower level). At the end rank 0 converts the database to the
//! encoding asked for (`AwariDb::convert`, when not one byte a board) and saves it with
//! `AwariDb::save`, as `mancala egdb build --rules awari` does: the file is the same, byte
//! for byte.
//!
//! The exchange is built from the all-gather of [`Comm`]: each rank first shares how many
//! updates it has for each rank, then all its updates; each rank keeps those addressed to
//! it. Every rank so receives every update of the round, which is simple and fine on one
//! machine or a few; a cluster build of the whole game sends each update to its owner only
//! (an all-to-all), as `docs/awari.md` costs it.

use std::path::PathBuf;
use std::time::Instant;

use mancala_solver::awari::{AwariDb, Exchange};
use mancala_solver::egdb::{Database, EgdbError, Encoding};

use crate::comm::{agree, agree_at_root, Comm, Failure};

/// What to build.
#[derive(Debug, Clone)]
pub struct AwariArgs {
    /// The grand-slam rule of the database (`unless_only` for `awari`; the Oware databases
    /// of the other rules, `docs/oware-databases.md`).
    pub grand_slam: mancala_core::oware::GrandSlam,
    /// N, the largest number of seeds on the board.
    pub max_seeds: u32,
    /// The output folder (created if missing).
    pub out: PathBuf,
    /// Build threads of each rank (its forward passes; at least 1).
    pub threads: usize,
    /// Print a line on standard error after each level.
    pub log_levels: bool,
    /// Write over a file at the database's name that holds another database or none
    /// ([`check_target`](crate::egdb_build::check_target)).
    pub force: bool,
    /// The entry encoding of the file saved (byte, packed or compact; built one byte a
    /// board, converted by rank 0 before the save).
    pub encoding: Encoding,
}

/// What rank 0 reports after a build.
#[derive(Debug, Clone)]
pub struct AwariReport {
    /// The database file written.
    pub path: PathBuf,
    /// Boards in the database.
    pub boards: u64,
    /// The file's entry encoding.
    pub encoding: Encoding,
    /// Wall time of the whole build, seconds.
    pub seconds: f64,
    /// Exchange rounds over all levels and thresholds.
    pub rounds: u64,
    /// Updates sent between ranks over the whole build.
    pub updates: u64,
}

/// The rounds of one rank over a [`Comm`].
struct CommExchange<'a, C: Comm + ?Sized> {
    comm: &'a C,
    rounds: u64,
    updates: u64,
}

impl<C: Comm + ?Sized> Exchange for CommExchange<'_, C> {
    fn parts(&self) -> usize {
        self.comm.size()
    }

    fn part(&self) -> usize {
        self.comm.rank()
    }

    fn exchange(&mut self, out: &[Vec<u64>]) -> (Vec<u64>, u64) {
        let size = self.comm.size();
        let me = self.comm.rank();
        // How many updates each rank has for each rank.
        let mine: Vec<u8> = out
            .iter()
            .flat_map(|o| (o.len() as u64).to_le_bytes())
            .collect();
        let mut table = vec![0u8; 8 * size * size];
        self.comm
            .all_gather(&mine, &vec![8 * size; size], &mut table);
        let count = |from: usize, to: usize| -> usize {
            let at = 8 * (from * size + to);
            u64::from_le_bytes(table[at..at + 8].try_into().expect("8 bytes")) as usize
        };
        let total: usize = (0..size)
            .flat_map(|f| (0..size).map(move |t| (f, t)))
            .map(|(f, t)| count(f, t))
            .sum();
        self.rounds += 1;
        self.updates += total as u64;
        if total == 0 {
            return (Vec::new(), 0);
        }
        // Then the updates themselves, every rank's in rank order, each rank's by addressee.
        let bytes: Vec<u8> = out.iter().flatten().flat_map(|u| u.to_le_bytes()).collect();
        let counts: Vec<usize> = (0..size)
            .map(|f| 8 * (0..size).map(|t| count(f, t)).sum::<usize>())
            .collect();
        let mut all = vec![0u8; counts.iter().sum()];
        self.comm.all_gather(&bytes, &counts, &mut all);
        let mut inbox = Vec::new();
        let mut at = 0;
        for from in 0..size {
            for to in 0..size {
                let len = 8 * count(from, to);
                if to == me {
                    inbox.extend(
                        all[at..at + len]
                            .chunks_exact(8)
                            .map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))),
                    );
                }
                at += len;
            }
        }
        (inbox, total as u64)
    }

    fn gather(&mut self, mine: &[u8], shares: &[usize]) -> Vec<u8> {
        let mut all = vec![0u8; shares.iter().sum()];
        self.comm.all_gather(mine, shares, &mut all);
        all
    }
}

/// Runs the build on every rank; rank 0 saves the file and gets the report (`None` on the
/// other ranks). A failure on any rank (the output folder, memory, the save) stops every
/// rank with rank 0's or the failing rank's message.
pub fn run<C: Comm + ?Sized>(comm: &C, args: &AwariArgs) -> Result<Option<AwariReport>, Failure> {
    let path = args.out.join(AwariDb::file_name_under(
        args.grand_slam,
        args.max_seeds,
        args.encoding,
    ));
    agree_at_root(
        comm,
        if comm.rank() == 0 {
            std::fs::create_dir_all(&args.out)
                .map_err(|e| {
                    format!(
                        "cannot create {}: {e}",
                        mancala_core::ShortenedPath(&args.out)
                    )
                })
                .and_then(|()| {
                    let with = AwariDb::in_words(
                        &AwariDb::rules_of(args.grand_slam),
                        args.max_seeds,
                        args.encoding,
                    );
                    crate::egdb_build::check_target(&path, &with, args.force)
                })
        } else {
            Ok(())
        },
    )?;
    let started = Instant::now();
    let mut ex = CommExchange {
        comm,
        rounds: 0,
        updates: 0,
    };
    let rank = comm.rank();
    let log = args.log_levels && rank == 0;
    let built = AwariDb::build_shared_under(
        args.grand_slam,
        args.max_seeds,
        args.threads,
        &mut ex,
        |r| {
            if log {
                eprintln!(
                    "{}; {:.2} s ({})",
                    r.stats,
                    r.times.forward + r.times.retro,
                    mancala_core::words::count(
                        r.times.rescans,
                        "exchange round",
                        "exchange rounds"
                    )
                );
            }
        },
    )
    .map_err(|e| e.to_string());
    let db = agree(comm, built)?;
    let saved = if rank == 0 {
        let converted = match args.encoding {
            Encoding::Byte => Ok(None),
            other => db.convert(other).map(Some).map_err(|e| e.to_string()),
        };
        converted.and_then(|c| {
            c.as_ref()
                .unwrap_or(&db)
                .save_checked(&path, args.force)
                .map(|_| ())
                // A file that came during the build as `check_target` says it; otherwise
                // the error's reason alone: its text names the path too.
                .map_err(|e| match e {
                    EgdbError::Occupied { .. } => crate::egdb_build::save_error(&path, &e),
                    _ => format!(
                        "cannot save {}: {}",
                        mancala_core::ShortenedPath(&path),
                        e.reason()
                    ),
                })
        })
    } else {
        Ok(())
    };
    agree_at_root(comm, saved)?;
    if rank != 0 {
        return Ok(None);
    }
    let boards = (0..=args.max_seeds)
        .filter_map(|n| db.level_stats(n))
        .map(|s| s.boards)
        .sum();
    Ok(Some(AwariReport {
        path,
        boards,
        encoding: args.encoding,
        seconds: started.elapsed().as_secs_f64(),
        rounds: ex.rounds,
        updates: ex.updates,
    }))
}
