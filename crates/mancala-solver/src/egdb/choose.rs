//! Which database a program uses, as library policy for every game's database
//! ([`Database`]): the file or folder the user gave (largest K first, a damaged file passed
//! over and named), else the cache (its own file, or a larger one already kept, else built
//! and kept), else, where the values can come from nowhere else, one built in memory for
//! this run; the positions' seeds and the machine's memory checked before any work
//! ([`choose`]). What was done is reported as it happens ([`ChooseEvent`]) and returned as
//! data ([`Chosen::source`]); every refusal is a typed [`ChooseError`].

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use thiserror::Error;

use super::cache::{CacheEvent, Source};
use super::find::{self, Refusal};
use super::{available_memory_bytes, BuildOptions, Cache, Database, EgdbError, Encoding};

/// What a build needs and this machine has available, bytes: the refusal of a build that
/// would not fit ([`fits_in_memory`]). The figure available says which bound it is
/// ([`crate::AvailableMemory`]: the machine's memory, or the room under `ulimit -v`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error(
    "the build needs about {needs} bytes ({}), more than the {available}",
    crate::readable_bytes(*.needs)
)]
pub struct NotEnoughMemory {
    /// Bytes the build needs at once.
    pub needs: u64,
    /// The memory available ([`crate::available_memory`]).
    pub available: crate::AvailableMemory,
}

/// Ok when `needs` bytes fit the memory this machine has available (always where that
/// cannot be read).
///
/// # Errors
/// [`NotEnoughMemory`] with both figures.
pub fn fits_in_memory(needs: u64) -> Result<(), NotEnoughMemory> {
    match super::available_memory() {
        Some(available) if needs > available.bytes => Err(NotEnoughMemory { needs, available }),
        _ => Ok(()),
    }
}

/// Ok when a build needing `needs` bytes fits the memory available ([`fits_in_memory`],
/// the check of `mancala egdb build`), else [`crate::OutOfMemory`] with `needs` and the memory
/// available (its message names both): how the library's builds refuse, before any work,
/// what would not fit.
pub(crate) fn build_fits_memory(needs: u64) -> Result<(), crate::OutOfMemory> {
    fits_in_memory(needs).map_err(|e| {
        crate::OutOfMemory::refused(usize::try_from(e.needs).unwrap_or(usize::MAX), e.available)
    })
}

/// The memory a build of the database `D` of `rules` with K = `max_seeds` in `encoding`
/// needs ([`Database::build_memory`]), once it is checked against the machine's.
///
/// # Errors
/// [`ChooseError::Build`] for a K the game or the format does not hold,
/// [`ChooseError::Memory`] when the build does not fit.
pub fn build_fits<D: Database>(
    rules: &D::Rules,
    max_seeds: u32,
    encoding: Encoding,
) -> Result<u64, ChooseError> {
    let needs = D::build_memory(rules, max_seeds, encoding).map_err(ChooseError::Build)?;
    fits_in_memory(needs).map_err(|memory| ChooseError::Memory { max_seeds, memory })?;
    Ok(needs)
}

/// Whether and where [`choose`] may build a database that is not there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Build {
    /// Never: the cached database when it is there (or a larger one), else none. For a
    /// search with a time budget a move: a build takes seconds to minutes.
    Never,
    /// Into the cache when it is missing or damaged; none without a cache, or when the
    /// cache cannot be used (the database only speeds the search up: Kalah's solver).
    Cache,
    /// Into the cache, or, with no cache or one that cannot be written, in memory for this
    /// run: the values come from nowhere else (the Awari databases).
    Always,
}

/// What a program asks of [`choose`].
#[derive(Clone, Copy, Debug)]
pub struct Want<'a> {
    /// A file, or a folder searched by the files' headers (`--egdb`): nothing else is used.
    pub given: Option<&'a Path>,
    /// The cache to read and fill; `None` for none (`--no-cache`).
    pub cache: Option<&'a Cache>,
    /// K asked for (`--max-seeds`); `None`: the cache's ([`Database::default_max_seeds`]),
    /// or without a cache the seeds of the positions.
    pub max_seeds: Option<u32>,
    /// The positions to value have at most this many seeds in the houses: a database of a
    /// smaller K is refused before it is read or built ([`ChooseError::TooFewSeeds`]). 0
    /// when the database need not hold them (the solver searches above its K).
    pub seeds: u32,
    /// Whether and where a missing database may be built.
    pub build: Build,
    /// Build threads (0 = every core).
    pub threads: usize,
    /// The interval of the build's progress reports.
    pub interval: Duration,
    /// A flag that gives up the reading of a file once set (between the pieces of the read
    /// and of the entry check: [`Database::open_cancellable`]), for a program that may stop
    /// needing the database while it is read; `None`: the reading always ends.
    pub cancel: Option<&'a AtomicBool>,
}

/// Where the K that was too small came from ([`ChooseError::TooFewSeeds`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The file given (or the largest usable one of the folder given).
    File(PathBuf),
    /// K asked for ([`Want::max_seeds`]).
    Asked,
    /// The cache's K ([`Database::default_max_seeds`]).
    Default,
}

/// Why [`choose`] found no database to use. Each carries what a message needs as data.
#[derive(Debug, Error)]
pub enum ChooseError {
    /// The file or folder given cannot be used: its error, for a folder
    /// [`EgdbError::NotFound`] with every file passed over and why.
    #[error("{0}")]
    Given(EgdbError),
    /// The positions have more seeds in the houses than the database holds.
    #[error("{} in the houses, more than the {max_seeds} the database holds", mancala_core::words::count(*seeds, "seed", "seeds"))]
    TooFewSeeds {
        /// The most seeds of the positions.
        seeds: u32,
        /// The database's K.
        max_seeds: u32,
        /// Where K came from.
        bound: Bound,
        /// Whether a database of K = `seeds` fits this machine's memory.
        buildable: bool,
        /// The files of the folder given passed over before (damaged, of other rules).
        skipped: Vec<(PathBuf, String)>,
    },
    /// A database that holds the positions cannot be built in this machine's memory (no
    /// cache and no K asked for).
    #[error(
        "a database of {seeds} seeds ({entries} entries) cannot be built in this machine's memory"
    )]
    TooLarge {
        /// The most seeds of the positions.
        seeds: u32,
        /// Entries of the database that would hold them.
        entries: u64,
    },
    /// A build of this K does not fit the memory available.
    #[error("K = {max_seeds}: {memory}")]
    Memory {
        /// K.
        max_seeds: u32,
        /// What it needs and what there is.
        memory: NotEnoughMemory,
    },
    /// K is one the game or the format does not hold, or the build failed.
    #[error(transparent)]
    Build(EgdbError),
    /// The cache could not be read or filled (and the values come from nowhere else).
    #[error("cannot use the database cache ({0})")]
    Cache(EgdbError),
}

/// What [`choose`] reports as it goes.
#[derive(Debug)]
pub enum ChooseEvent<'a> {
    /// The cache's events: a file refused, a build begun, its progress.
    Cache(CacheEvent<'a>),
    /// [`Build::Never`]: the cache holds no usable database of K = `max_seeds` at `path`
    /// (`error`: why the file there was refused; `None`: there is none).
    NotCached {
        /// The file the cache would hold.
        path: &'a Path,
        /// K.
        max_seeds: u32,
        /// Why the file there is not used, when there is one.
        error: Option<&'a EgdbError>,
    },
    /// The cache cannot be used (`error`): for [`Build::Always`] a database is built in
    /// memory instead, otherwise none is used.
    CacheUnusable(&'a EgdbError),
    /// A database of K = `max_seeds` is built in memory for this run, kept nowhere.
    BuildingInMemory {
        /// K.
        max_seeds: u32,
        /// Its entries.
        entries: u64,
    },
}

/// The database [`choose`] chose, with what was done to have it.
#[derive(Debug)]
pub struct Chosen<D> {
    /// The database, completely checked or just built.
    pub database: D,
    /// Where it comes from.
    pub source: Source,
    /// Whether it was built by this call.
    pub built: bool,
    /// The `*.egdb` files of the folder given that were passed over, with why.
    pub skipped: Vec<(PathBuf, String)>,
    /// When it was built for the cache but could not be saved: why.
    pub save_error: Option<EgdbError>,
    /// Temporary files of earlier saves killed in their save, removed by this one.
    pub removed_stale: Vec<PathBuf>,
}

impl<D> Chosen<D> {
    fn read(database: D, path: PathBuf, skipped: Vec<(PathBuf, String)>) -> Chosen<D> {
        Chosen {
            database,
            source: Source::File(path),
            built: false,
            skipped,
            save_error: None,
            removed_stale: Vec::new(),
        }
    }
}

/// The database `D` a program uses for positions of `rules`, as `want` asks (module docs):
///
/// * a file or folder given ([`Want::given`]): the file (its header first: a database of
///   another game or rules, or of fewer seeds than [`Want::seeds`], is refused before its
///   entries are read), or in a folder the databases serving `rules` by their headers,
///   largest K first, the first that opens (a damaged one is passed over and named);
/// * else with a cache: K = [`Want::max_seeds`] or the cache's; the cached file of that K,
///   or a larger one of the same rules in the cache folder; if there is none, [`Build::Never`]
///   reports [`ChooseEvent::NotCached`] and uses none, the others build it into the cache
///   ([`Cache::read_or_build`]; a cache that cannot be used is
///   [`ChooseEvent::CacheUnusable`], then a database built in memory under
///   [`Build::Always`], none otherwise);
/// * else (no cache) under [`Build::Always`] a database of K = [`Want::max_seeds`] (or the
///   positions' seeds) built in memory; none otherwise.
///
/// A build's memory is checked against the machine's first ([`build_fits`]). `Ok(None)`:
/// no database (which the program goes on without).
///
/// # Errors
/// [`ChooseError`]: the given path's error, too few seeds, a build that cannot be (memory,
/// K), a cache that cannot be used under [`Build::Always`] for another reason than its
/// folder, or [`EgdbError::Cancelled`] (in [`ChooseError::Build`]) when `on_event` breaks
/// or when [`Want::cancel`] is set while a file is read.
pub fn choose<D: Database>(
    rules: &D::Rules,
    want: &Want<'_>,
    on_event: &mut dyn FnMut(ChooseEvent<'_>) -> ControlFlow<()>,
) -> Result<Option<Chosen<D>>, ChooseError> {
    let seeds = want.seeds;
    // Whether a database that holds the positions could be built here at all.
    let buildable = || seeds == 0 || build_fits::<D>(rules, seeds, Encoding::Byte).is_ok();
    let too_few = |max_seeds, bound, skipped| ChooseError::TooFewSeeds {
        seeds,
        max_seeds,
        bound,
        buildable: buildable(),
        skipped,
    };
    if let Err(e @ EgdbError::NoDatabase { .. }) = D::entries(rules, 0) {
        // A game without databases: no file can serve, and none is built.
        return match want.given {
            Some(_) => Err(ChooseError::Given(e)),
            None => Ok(None),
        };
    }
    if let Some(path) = want.given {
        return match find::find_holding::<D>(path, rules, seeds, want.cancel) {
            Ok(found) => Ok(Some(Chosen::read(
                found.database,
                found.path,
                found.skipped,
            ))),
            Err(Refusal::Error(EgdbError::Cancelled)) => {
                Err(ChooseError::Build(EgdbError::Cancelled))
            }
            Err(Refusal::Error(e)) => Err(ChooseError::Given(e)),
            Err(Refusal::TooFewSeeds {
                file,
                max_seeds,
                skipped,
            }) => Err(too_few(max_seeds, Bound::File(file), skipped)),
        };
    }
    let Some(cache) = want.cache else {
        if want.build != Build::Always {
            return Ok(None);
        }
        let k = match want.max_seeds {
            Some(k) if seeds > k => return Err(too_few(k, Bound::Asked, Vec::new())),
            Some(k) => k,
            None if !buildable() => {
                return Err(ChooseError::TooLarge {
                    seeds,
                    entries: D::entries(rules, seeds).unwrap_or(0),
                })
            }
            None => seeds,
        };
        return in_memory::<D>(rules, k, want, on_event).map(Some);
    };
    let (k, bound) = match want.max_seeds {
        Some(k) => (k, Bound::Asked),
        None => match D::default_max_seeds(rules, available_memory_bytes()) {
            Some(k) => (k, Bound::Default),
            None => return Ok(None),
        },
    };
    if seeds > k {
        return Err(too_few(k, bound, Vec::new()));
    }
    if want.build == Build::Never {
        let path = cache.file::<D>(rules, k);
        let refused = match cache.read_until::<D>(rules, k, want.cancel) {
            Ok(db) => return Ok(Some(Chosen::read(db, path, Vec::new()))),
            Err(EgdbError::Cancelled) => return Err(ChooseError::Build(EgdbError::Cancelled)),
            Err(_) if std::fs::symlink_metadata(&path).is_err() => None,
            Err(e) => Some(e),
        };
        if let Some((db, larger)) = cache.read_larger_until::<D>(rules, k, want.cancel) {
            return Ok(Some(Chosen::read(db, larger, Vec::new())));
        }
        super::check_cancel(want.cancel).map_err(ChooseError::Build)?;
        // The report's answer changes nothing: no database either way.
        let _ = on_event(ChooseEvent::NotCached {
            path: &path,
            max_seeds: k,
            error: refused.as_ref(),
        });
        return Ok(None);
    }
    build_fits::<D>(rules, k, Encoding::Byte)?;
    let mut on_cache = |e: CacheEvent<'_>| on_event(ChooseEvent::Cache(e));
    match cache.read_or_build::<D>(rules, k, want.threads, want.interval, &mut on_cache) {
        Ok(c) => Ok(Some(Chosen {
            source: c.source(),
            built: c.built,
            database: c.database,
            skipped: Vec::new(),
            save_error: c.save_error,
            removed_stale: c.removed_stale,
        })),
        Err(EgdbError::Cancelled) => Err(ChooseError::Build(EgdbError::Cancelled)),
        // A cache folder that cannot be made or written: the database is built for this run
        // where it is needed, as the cache does when only the save fails.
        Err(e @ EgdbError::Io { .. }) if want.build == Build::Always => {
            if on_event(ChooseEvent::CacheUnusable(&e)).is_break() {
                return Err(ChooseError::Build(EgdbError::Cancelled));
            }
            in_memory::<D>(rules, k, want, on_event).map(Some)
        }
        Err(e) if want.build == Build::Always => Err(ChooseError::Cache(e)),
        Err(e) => {
            let _ = on_event(ChooseEvent::CacheUnusable(&e));
            Ok(None)
        }
    }
}

/// A database of K = `max_seeds` built in memory for this run (its memory checked first).
fn in_memory<D: Database>(
    rules: &D::Rules,
    max_seeds: u32,
    want: &Want<'_>,
    on_event: &mut dyn FnMut(ChooseEvent<'_>) -> ControlFlow<()>,
) -> Result<Chosen<D>, ChooseError> {
    build_fits::<D>(rules, max_seeds, Encoding::Byte)?;
    let entries = D::entries(rules, max_seeds).map_err(ChooseError::Build)?;
    if on_event(ChooseEvent::BuildingInMemory { max_seeds, entries }).is_break() {
        return Err(ChooseError::Build(EgdbError::Cancelled));
    }
    let mut on_progress =
        |p: &crate::BuildProgress| on_event(ChooseEvent::Cache(CacheEvent::Progress(p)));
    let options = BuildOptions::new()
        .threads(want.threads)
        .progress(want.interval, &mut on_progress);
    let database = D::build(rules, max_seeds, options).map_err(ChooseError::Build)?;
    Ok(Chosen {
        database,
        source: Source::NotKept,
        built: true,
        skipped: Vec::new(),
        save_error: None,
        removed_stale: Vec::new(),
    })
}
