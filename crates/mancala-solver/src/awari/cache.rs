//! Awari databases in the cache folder of the Kalah ones ([`Cache`]): built the first time
//! they are asked for, saved, and read back completely checked every later time; a file that
//! is damaged, truncated, of another format version, game or N is rebuilt, never trusted.
//!
//! # The default N ([`DEFAULT_MAX_SEEDS`])
//!
//! The build of levels 0..=N, measured with `cargo run --release -p mancala-solver --example
//! awari_build -- N` on the project's 2-core machine while other builds ran (load average
//! 11): N = 16 (29,775,109 boards) 13.8 s of wall time, 7.9 s of CPU; N = 18 (83,789,069
//! boards) 55.5 s of wall time, 25.0 s of CPU, 118 MB resident; N = 20 (216,135,140 boards)
//! 82.2 s of CPU, 164.7 s of wall time at load 5–8 (`docs/awari.md`). On two free cores N = 18
//! takes about 13 s and N = 20 about 41 s; on a loaded machine N = 20 passes two minutes. The
//! default is N = 18: a first use stays under a minute even on a busy 2-core machine, and the
//! file takes 84 MB.

use std::path::{Path, PathBuf};

use super::file::entries_to;
use super::{AwariDb, AwariError, LevelReport, MAX_SEEDS};
use crate::{Cache, EgdbError};

/// The N of the Awari database a cache builds when none is asked for (module docs).
pub const DEFAULT_MAX_SEEDS: u32 = 18;

/// What [`Cache::awari_get_or_build`] reports as it goes.
#[derive(Debug)]
pub enum AwariCacheEvent<'a> {
    /// The cached file at `path` was not trusted (`error` says why); it is rebuilt.
    Refused {
        /// The cached file.
        path: &'a Path,
        /// Why it was refused.
        error: &'a EgdbError,
    },
    /// A build begins: levels 0..=`max_seeds`, `entries` boards (one byte each), to be saved
    /// at `path`.
    Building {
        /// Where it will be saved.
        path: &'a Path,
        /// N.
        max_seeds: u32,
        /// Boards (= bytes in memory and on disk, less the 41-byte header).
        entries: u64,
    },
    /// A level is built ([`AwariDb::build_with`]).
    Level(&'a LevelReport),
}

/// What [`Cache::awari_get_or_build`] gives: the database and what was done to have it.
#[derive(Debug)]
pub struct AwariCached {
    /// The database, completely checked (read from the cache) or just built.
    pub database: AwariDb,
    /// Its file in the cache.
    pub path: PathBuf,
    /// Whether it was built by this call (`false`: read from the cache).
    pub built: bool,
    /// When it was built but could not be saved (a full disk): why. The database is still
    /// good to use; the next call builds it again.
    pub save_error: Option<EgdbError>,
    /// Temporary files of earlier saves killed in their save, removed by this one.
    pub removed_stale: Vec<PathBuf>,
}

impl Cache {
    /// The file of the Awari database of levels 0..=`max_seeds` in the cache
    /// ([`AwariDb::file_name`], e.g. `awari.n18.egdb`).
    #[must_use]
    pub fn awari_path(&self, max_seeds: u32) -> PathBuf {
        self.dir().join(AwariDb::file_name(max_seeds))
    }

    /// The cached Awari database of levels 0..=`max_seeds`, read and checked completely
    /// ([`AwariDb::open`]), without building anything: what [`Cache::awari_get_or_build`]
    /// uses when it is there. A good database of another N under the cache's name is refused
    /// too: the name promises this N.
    ///
    /// # Errors
    /// Those of [`AwariDb::open`] (an [`EgdbError::Io`] when there is no file), and
    /// [`EgdbError::Header`] for a file of another N.
    pub fn awari_open(&self, max_seeds: u32) -> Result<AwariDb, EgdbError> {
        let path = self.awari_path(max_seeds);
        let db = AwariDb::open(&path)?;
        if db.max_seeds() == max_seeds {
            Ok(db)
        } else {
            Err(EgdbError::Header(format!(
                "{}: the cache's name is of N = {max_seeds}, but the file holds N = {}",
                mancala_core::ShortenedPath(&path),
                db.max_seeds()
            )))
        }
    }

    /// The Awari database of levels 0..=`max_seeds` from the cache, built and saved there
    /// first when it is missing or not trusted, as [`Cache::get_or_build`] does for Kalah:
    /// the file is read and checked completely ([`Cache::awari_open`]) and returned if good;
    /// otherwise ([`AwariCacheEvent::Refused`] says why when there was a file) the folder is
    /// created and must take a new file before any work is done, the levels are built on
    /// `threads` threads (0 = every core) reporting [`AwariCacheEvent::Building`] then
    /// [`AwariCacheEvent::Level`] after each level, and the database is saved crash-safely
    /// ([`AwariDb::save`]). A save that fails is reported in [`AwariCached::save_error`];
    /// the database is still returned.
    ///
    /// # Errors
    /// [`EgdbError::Io`] when the folder cannot be created or written,
    /// [`EgdbError::OutOfMemory`] when the values do not fit in memory (reading or building),
    /// [`EgdbError::MoreSeedsThanTheGame`] for `max_seeds` above 48, [`EgdbError::Threads`]
    /// when the build threads cannot start.
    pub fn awari_get_or_build(
        &self,
        max_seeds: u32,
        threads: usize,
        on_event: &mut dyn FnMut(AwariCacheEvent<'_>),
    ) -> Result<AwariCached, EgdbError> {
        if max_seeds > MAX_SEEDS {
            return Err(EgdbError::MoreSeedsThanTheGame {
                rules: super::FILE_RULES.into(),
                max_seeds,
                total_seeds: MAX_SEEDS,
                largest: MAX_SEEDS,
            });
        }
        let path = self.awari_path(max_seeds);
        match self.awari_open(max_seeds) {
            Ok(database) => {
                return Ok(AwariCached {
                    database,
                    path,
                    built: false,
                    save_error: None,
                    removed_stale: Vec::new(),
                })
            }
            Err(e @ EgdbError::OutOfMemory(_)) => return Err(e),
            // Nothing there: nothing to refuse.
            Err(EgdbError::Io { .. }) if std::fs::symlink_metadata(&path).is_err() => {}
            Err(error) => on_event(AwariCacheEvent::Refused {
                path: &path,
                error: &error,
            }),
        }
        self.check_writable(&path)?;
        on_event(AwariCacheEvent::Building {
            path: &path,
            max_seeds,
            entries: entries_to(max_seeds),
        });
        let database = AwariDb::build_with(max_seeds, threads, |r| {
            on_event(AwariCacheEvent::Level(r));
        })
        .map_err(|e| match e {
            AwariError::OutOfMemory(m) => EgdbError::OutOfMemory(m),
            other => EgdbError::Threads(other.to_string()),
        })?;
        let (save_error, removed_stale) = match database.save(&path) {
            Ok(report) => (None, report.removed_stale),
            Err(e) => (Some(e), Vec::new()),
        };
        Ok(AwariCached {
            database,
            path,
            built: true,
            save_error,
            removed_stale,
        })
    }
}
