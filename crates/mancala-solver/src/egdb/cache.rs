//! A folder of databases filled on demand, for every game's database ([`Database`]): a
//! database is built the first time it is asked for, saved, and read back (completely
//! checked) every later time; a file that is damaged, truncated, of another format version
//! or of other rules is rebuilt, never trusted. A larger database of the same rules already
//! in the folder serves instead of a smaller one being built beside it.
//!
//! The cache is opt-in: nothing in this library writes a file unless
//! [`Cache::read_or_build`] is called with a folder the caller chose ([`Cache::default_dir`]
//! is the user's cache folder, for programs that want it; `mancala solve` uses it by
//! default).
//!
//! # How K is chosen for Kalah ([`Database::default_max_seeds`] of [`Egdb`])
//!
//! A database of m houses a row and K seeds has C(K+2m, 2m) one-byte entries and builds at
//! about 28 M positions a second on two cores; each two seeds more halve the solver's nodes.
//! The first run pays the build and the solve, later runs only the load and the solve. The
//! budget is the m = 6, K = 20 database (225,792,840 entries, 215 MiB): measured on the
//! project's 2-core machine, it builds and saves in about 8.5 s and standard Kalah(6,4)
//! solves with it in about 8.5 s (≈ 17 s the first time, ≈ 9 s after), while K = 22 (523 MiB)
//! takes about 19 s to build, so that the first run alone would pass 20 s (the figures are in
//! `BENCHMARKS.md`). For another m, K is the largest whose database has at most as many
//! entries (m = 7: 16, m = 5: 25, m = 4: 37), never more than the 2mn seeds of the game
//! (a larger K holds nothing more), and small enough that the entries take at most a quarter
//! of the memory available (the rest for the transposition table and the machine).
//!
//! The Awari databases' N is [`crate::awari::DEFAULT_MAX_SEEDS`] (its module docs say why).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use mancala_core::kalah::KalahRules;

use super::{find, split_path, BuildOptions, Database, Egdb, EgdbError, Encoding, MAX_DB_SEEDS};
use crate::progress::BuildProgress;
use crate::rank::rank_space;

/// The most entries the cache builds for Kalah by default: those of the m = 6, K = 20
/// database, C(32, 12) (module docs).
pub const DEFAULT_BUILD_ENTRIES: u64 = 225_792_840;

/// What [`Cache::read_or_build`] reports as it goes, for every game's database.
#[derive(Debug)]
pub enum CacheEvent<'a> {
    /// The cached file at `path` was not trusted (`error` says why: damaged, truncated, of
    /// another format version, of other rules, unreadable); it is rebuilt.
    Refused {
        /// The cached file.
        path: &'a Path,
        /// Why it was refused.
        error: &'a EgdbError,
    },
    /// A build begins: the database of K = `max_seeds`, `entries` entries (one byte each in
    /// memory while it is built), to be saved at `path`.
    Building {
        /// Where it will be saved.
        path: &'a Path,
        /// K (Kalah) or N (Awari).
        max_seeds: u32,
        /// Entries, C(K+2m, 2m) for Kalah, the boards of levels 0..=N for Awari.
        entries: u64,
        /// Whether the save can keep it at `path`, by the save's own test before it writes:
        /// `false` when a folder, a FIFO, a socket or a device stands there, which the save
        /// refuses. The database is then for this run only, and [`Cached::save_error`] says
        /// why; a caller promises the file for the next runs only when this is `true`.
        kept: bool,
    },
    /// The build's progress: entries done and in all, seconds so far (for Kalah every
    /// interval asked for, for Awari after each level).
    Progress(&'a BuildProgress),
}

/// Where a database a program uses comes from, as data (never a sentinel text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// Read from this file and completely checked (a file or folder given, or the cache).
    File(PathBuf),
    /// Built by this call and kept in this file (the cache).
    Built(PathBuf),
    /// Built by this call in memory only: there is no file (no cache, or its save failed).
    NotKept,
}

impl Source {
    /// The file that holds the database, `None` when it is kept nowhere.
    #[must_use]
    pub fn path(&self) -> Option<&Path> {
        match self {
            Source::File(p) | Source::Built(p) => Some(p),
            Source::NotKept => None,
        }
    }
}

impl std::fmt::Display for Source {
    /// The file, or `built in memory for this run (not kept)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.path() {
            Some(p) => write!(f, "{}", p.display()),
            None => f.write_str("built in memory for this run (not kept)"),
        }
    }
}

/// What [`Cache::read_or_build`] gives: the database and what was done to have it.
#[derive(Debug)]
pub struct Cached<D = Egdb> {
    /// The database, completely checked (read from the cache) or just built.
    pub database: D,
    /// Its file in the cache (where it was saved, or where the save failed).
    pub path: PathBuf,
    /// Whether it was built by this call (`false`: read from the cache).
    pub built: bool,
    /// When it was built but could not be saved (a full disk): why. The database is still
    /// good to use; the next call builds it again.
    pub save_error: Option<EgdbError>,
    /// Temporary files of earlier saves killed in their save, removed by this one.
    pub removed_stale: Vec<PathBuf>,
}

impl<D> Cached<D> {
    /// Where the database comes from: the cached file read, the file it was built into, or
    /// nowhere when its save failed.
    #[must_use]
    pub fn source(&self) -> Source {
        match (self.built, &self.save_error) {
            (false, _) => Source::File(self.path.clone()),
            (true, None) => Source::Built(self.path.clone()),
            (true, Some(_)) => Source::NotKept,
        }
    }
}

/// The environment variable that names the cache folder of the `mancala` command and the
/// Python package, in place of the user's cache folder ([`Cache::default_dir`]):
/// `MANCALA_CACHE_DIR`, read by [`Cache::dir_from_env`].
pub const CACHE_DIR_VARIABLE: &str = "MANCALA_CACHE_DIR";

/// A value of [`CACHE_DIR_VARIABLE`] that is ignored, as if the variable were not set, and
/// why ([`Cache::dir_from_env`]), with the folder used instead. Displayed as the one whole
/// line a program warns with (the `mancala` command and the Python package alike):
/// `MANCALA_CACHE_DIR="cache" is ignored: it is a relative path, and the cache folder must
/// be absolute (the XDG Base Directory specification holds relative paths in its variables
/// invalid); the cache folder is /home/me/.cache/mancala` (`; no other cache folder is
/// known (no home folder)` when there is none). The value is shortened as
/// [`mancala_core::ShortenedPath`] does (control characters escaped, `\n` for a newline), its
/// length, when shortened, after the quotes: `MANCALA_CACHE_DIR="aaa…aaa" (300 characters)
/// is ignored: …`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IgnoredCacheDir {
    /// The variable's value, as it was set.
    pub value: std::ffi::OsString,
    /// The cache folder used instead ([`Cache::default_dir`]), `None` when none is known.
    pub instead: Option<PathBuf>,
}

impl std::fmt::Display for IgnoredCacheDir {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let shown = mancala_core::ShortenedPath(Path::new(&self.value)).to_string();
        let n = Path::new(&self.value).to_string_lossy().chars().count();
        // A shortened value ends in its length, which goes after the quotes.
        let length = format!(" ({n} characters)");
        let (quoted, after) = match shown.strip_suffix(&length) {
            Some(s) if n > mancala_core::ShortenedPath::MAX_CHARS => (s, length.as_str()),
            _ => (shown.as_str(), ""),
        };
        write!(
            f,
            "{CACHE_DIR_VARIABLE}=\"{quoted}\"{after} is ignored: it is a relative path, and the cache folder must be absolute (the XDG Base Directory specification holds relative paths in its variables invalid)"
        )?;
        match &self.instead {
            Some(d) => write!(
                f,
                "; the cache folder is {}",
                mancala_core::ShortenedPath(d)
            ),
            None => f.write_str("; no other cache folder is known (no home folder)"),
        }
    }
}

impl std::error::Error for IgnoredCacheDir {}

/// A folder of databases filled on demand (module docs).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cache {
    dir: PathBuf,
}

/// The K the cache builds for Kalah games of `rules` with `available` bytes of memory
/// (module docs; [`Database::default_max_seeds`] of [`Egdb`]).
pub(crate) fn default_kalah_max_seeds(rules: &KalahRules, available: Option<u64>) -> Option<u32> {
    let m = usize::from(rules.houses());
    let budget = available.map_or(DEFAULT_BUILD_ENTRIES, |a| {
        (a / 4).min(DEFAULT_BUILD_ENTRIES)
    });
    let cap = rules.total_seeds().min(MAX_DB_SEEDS);
    (1..=cap)
        .take_while(|&k| rank_space(m, k).is_some_and(|n| n <= budget))
        .last()
}

impl Cache {
    /// Before a build whose file will be `path` (in this cache's folder): creates the folder
    /// and checks that it takes a new file ([`super::probe_folder`]), so that no build runs
    /// for nothing.
    ///
    /// # Errors
    /// [`EgdbError::Io`] naming the folder (a file where the folder, or one above it, should
    /// be is said in words).
    fn check_writable(&self, path: &Path) -> Result<(), EgdbError> {
        let dir_error = |source| EgdbError::Io {
            path: self.dir.clone(),
            // A file where the folder (or one above it) should be is named in words, not as
            // the system's "File exists" or "Not a directory".
            source: super::file_in_the_way(&self.dir).map_or(source, |f| {
                std::io::Error::new(std::io::ErrorKind::InvalidInput, f.to_string())
            }),
        };
        std::fs::create_dir_all(&self.dir).map_err(dir_error)?;
        let (dir, _) = split_path(path).map_err(dir_error)?;
        super::probe_folder(&dir).map_err(dir_error)?;
        Ok(())
    }

    /// A cache in the folder `dir` (created when the first database is saved).
    pub fn new(dir: impl Into<PathBuf>) -> Cache {
        Cache { dir: dir.into() }
    }

    /// The user's cache folder for this library, from the `directories` crate
    /// (`ProjectDirs` of the application `mancala`): `$XDG_CACHE_HOME/mancala`, else
    /// `~/.cache/mancala` on Linux and the BSDs, `~/Library/Caches/mancala` on macOS,
    /// `%LOCALAPPDATA%\mancala\cache` on Windows. `None` when no home folder is known.
    #[must_use]
    pub fn default_dir() -> Option<PathBuf> {
        directories::ProjectDirs::from("", "", "mancala").map(|p| p.cache_dir().to_path_buf())
    }

    /// The cache folder the environment names: [`CACHE_DIR_VARIABLE`] when it is set to an
    /// absolute path, else the user's cache folder ([`Cache::default_dir`]; `None` when no
    /// home folder is known). An empty value counts as unset; a relative one (`cache`,
    /// `./cache`) is ignored, and given back as the second part to be warned about: the
    /// XDG Base Directory specification holds a relative path in its variables invalid, to
    /// be ignored, since the folder a program runs in would decide where it points (the
    /// user's cache folder already ignores a relative `XDG_CACHE_HOME`). The one reading of
    /// the variable of every front end that has one ([`Cache::dir_from`] of its value).
    #[must_use]
    pub fn dir_from_env() -> (Option<PathBuf>, Option<IgnoredCacheDir>) {
        Cache::dir_from(std::env::var_os(CACHE_DIR_VARIABLE).as_deref())
    }

    /// [`Cache::dir_from_env`] for the value `value` of [`CACHE_DIR_VARIABLE`] (`None`:
    /// unset).
    #[must_use]
    pub fn dir_from(value: Option<&std::ffi::OsStr>) -> (Option<PathBuf>, Option<IgnoredCacheDir>) {
        match value.filter(|v| !v.is_empty()) {
            Some(v) if Path::new(v).is_absolute() => (Some(PathBuf::from(v)), None),
            Some(v) => {
                let dir = Cache::default_dir();
                let ignored = IgnoredCacheDir {
                    value: v.to_os_string(),
                    instead: dir.clone(),
                };
                (dir, Some(ignored))
            }
            None => (Cache::default_dir(), None),
        }
    }

    /// The folder.
    #[must_use]
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of the database `D` of `rules` and K = `max_seeds` in the cache
    /// ([`Database::file_name`], one byte an entry: `kalah6.k20.egdb`, `awari.n18.egdb`).
    #[must_use]
    pub fn file<D: Database>(&self, rules: &D::Rules, max_seeds: u32) -> PathBuf {
        self.dir
            .join(D::file_name(rules, max_seeds, Encoding::Byte))
    }

    /// The cached database `D` of `rules` with K = `max_seeds`, read and checked, without
    /// building anything: what [`Cache::read_or_build`] uses when it is there. A good
    /// database of other K or of the packed encoding under the cache's name (copied or
    /// renamed there by hand) is refused too: the name promises this K, one byte an entry.
    ///
    /// # Errors
    /// Those of [`Database::open`] (an [`EgdbError::Io`] when there is no file),
    /// [`EgdbError::RulesMismatch`] for a database of other rules, and [`EgdbError::Header`]
    /// for a file of other K or encoding.
    pub fn read<D: Database>(&self, rules: &D::Rules, max_seeds: u32) -> Result<D, EgdbError> {
        self.read_until(rules, max_seeds, None)
    }

    /// [`Cache::read`], given up ([`EgdbError::Cancelled`]) once `cancel` is set.
    pub(crate) fn read_until<D: Database>(
        &self,
        rules: &D::Rules,
        max_seeds: u32,
        cancel: Option<&AtomicBool>,
    ) -> Result<D, EgdbError> {
        let db = find::open_serving::<D>(&self.file::<D>(rules, max_seeds), rules, cancel)?;
        if db.max_seeds() == max_seeds && db.encoding() == Encoding::Byte {
            Ok(db)
        } else {
            let k = D::SEEDS_BOUND;
            Err(EgdbError::Header(format!(
                "the cache's name is of {k} = {max_seeds}, one byte an entry, but the file holds {k} = {}, {} encoding",
                db.max_seeds(),
                db.encoding()
            )))
        }
    }

    /// A database `D` of `rules` with K above `max_seeds` in the cache folder (by the
    /// files' headers, never their names), read and checked: the smallest such K that
    /// opens (of its encodings, byte first, then packed, then compact, as
    /// [`scan_folder`](super::scan_folder) orders them), so that a larger database already
    /// kept serves the positions a smaller one would. `None` when there is none (or the
    /// folder cannot be listed).
    #[must_use]
    pub fn read_larger<D: Database>(
        &self,
        rules: &D::Rules,
        max_seeds: u32,
    ) -> Option<(D, PathBuf)> {
        self.read_larger_until(rules, max_seeds, None)
    }

    /// [`Cache::read_larger`], given up (`None`) once `cancel` is set.
    pub(crate) fn read_larger_until<D: Database>(
        &self,
        rules: &D::Rules,
        max_seeds: u32,
        cancel: Option<&AtomicBool>,
    ) -> Option<(D, PathBuf)> {
        let scan = find::scan_folder::<D>(&self.dir, rules).ok()?;
        let mut larger: Vec<(u32, PathBuf)> = scan
            .candidates
            .into_iter()
            .filter(|(k, _)| *k > max_seeds)
            .collect();
        // The smallest larger K first; for one K, the scan's order (byte, packed, compact),
        // kept by the stable sort.
        larger.sort_by_key(|(k, _)| *k);
        larger.into_iter().find_map(|(_, p)| {
            find::open_serving::<D>(&p, rules, cancel)
                .ok()
                .map(|db| (db, p))
        })
    }

    /// The database `D` of `rules` (for Kalah its m and value-relevant options) and K =
    /// `max_seeds` from the cache, built and saved there first when it is missing or not
    /// trusted:
    ///
    /// 1. the file [`Cache::file`] is read and checked completely ([`Cache::read`]: header,
    ///    format version, size, both CRC-32 checksums, every entry, the rules); if it is good
    ///    and is the database its name promises (K = `max_seeds`, one byte an entry) it is
    ///    returned;
    /// 2. otherwise a larger database of the same rules in the folder is returned when one
    ///    opens ([`Cache::read_larger`]): it holds every position the one asked for would;
    /// 3. otherwise (missing, or there but refused: [`CacheEvent::Refused`] says why) the
    ///    folder is created and must take a new file (an exclusively created probe, removed
    ///    at once) before any work is done;
    /// 4. the database is built on `threads` threads (0 = every core) with
    ///    [`Database::build`], reporting [`CacheEvent::Building`] then
    ///    [`CacheEvent::Progress`] (every `interval` for Kalah, after each level for
    ///    Awari); a [`ControlFlow::Break`] from `on_event` cancels;
    /// 5. it is saved with [`Database::save`] (an exclusively created temporary file,
    ///    flushed to disk and renamed over the name in one step), so that two processes or
    ///    threads filling the same cache at once both succeed and the file is always one
    ///    whole database. A save that fails is reported in [`Cached::save_error`]; the
    ///    database is still returned.
    ///
    /// # Errors
    /// [`EgdbError::Io`] when the folder cannot be created or written (read-only, a file in
    /// the way) or is the empty path (which names no folder: nothing is read or written in
    /// the current one), [`EgdbError::OutOfMemory`] when the entries do not fit in memory (reading
    /// or building), [`EgdbError::Unsupported`] for a K the format does not hold,
    /// [`EgdbError::MoreSeedsThanTheGame`] for a K above the seeds of the game,
    /// [`EgdbError::NoDatabase`] for a game without databases, [`EgdbError::Cancelled`]
    /// after a [`ControlFlow::Break`], [`EgdbError::Threads`] when the build threads cannot
    /// start.
    pub fn read_or_build<D: Database>(
        &self,
        rules: &D::Rules,
        max_seeds: u32,
        threads: usize,
        interval: Duration,
        on_event: &mut dyn FnMut(CacheEvent<'_>) -> ControlFlow<()>,
    ) -> Result<Cached<D>, EgdbError> {
        if self.dir.as_os_str().is_empty() {
            // An empty path would put the files in the current folder, never asked for.
            return Err(EgdbError::Io {
                path: self.dir.clone(),
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "it names no folder (`.` is the current one)",
                ),
            });
        }
        let entries = D::entries(rules, max_seeds)?;
        let path = self.file::<D>(rules, max_seeds);
        let read = |database, path| Cached {
            database,
            path,
            built: false,
            save_error: None,
            removed_stale: Vec::new(),
        };
        let refused = match self.read::<D>(rules, max_seeds) {
            Ok(database) => return Ok(read(database, path)),
            Err(e @ EgdbError::OutOfMemory(_)) => return Err(e),
            // Nothing there (or the folder is missing or not a folder): nothing to refuse.
            Err(EgdbError::Io { .. }) if std::fs::symlink_metadata(&path).is_err() => None,
            Err(error) => Some(error),
        };
        if let Some((database, larger)) = self.read_larger::<D>(rules, max_seeds) {
            return Ok(read(database, larger));
        }
        if let Some(error) = &refused {
            if on_event(CacheEvent::Refused { path: &path, error }).is_break() {
                return Err(EgdbError::Cancelled);
            }
        }
        self.check_writable(&path)?;
        if on_event(CacheEvent::Building {
            path: &path,
            max_seeds,
            entries,
            kept: super::save::refusal(&path).is_none(),
        })
        .is_break()
        {
            return Err(EgdbError::Cancelled);
        }
        let mut on_progress = |p: &BuildProgress| on_event(CacheEvent::Progress(p));
        let options = BuildOptions::new()
            .threads(threads)
            .progress(interval, &mut on_progress);
        let database = D::build(rules, max_seeds, options)?;
        let (save_error, removed_stale) = match database.save_over(&path) {
            Ok(report) => (None, report.removed_stale),
            Err(e) => (Some(e), Vec::new()),
        };
        Ok(Cached {
            database,
            path,
            built: true,
            save_error,
            removed_stale,
        })
    }

    /// The file of the Kalah database of `rules` and K = `max_seeds` in the cache.
    #[deprecated(since = "0.3.0", note = "use `Cache::file::<Egdb>`; removed in 0.4.0")]
    #[must_use]
    pub fn path(&self, rules: &KalahRules, max_seeds: u32) -> PathBuf {
        self.file::<Egdb>(rules, max_seeds)
    }

    /// The K worth building for Kalah games of `rules` on this machine (module docs).
    #[deprecated(
        since = "0.3.0",
        note = "use `Database::default_max_seeds` of `Egdb`; removed in 0.4.0"
    )]
    #[must_use]
    pub fn default_max_seeds(rules: &KalahRules, available: Option<u64>) -> Option<u32> {
        default_kalah_max_seeds(rules, available)
    }

    /// The Kalah database of `rules` and K = `max_seeds` from the cache, built first when
    /// missing ([`Cache::read_or_build`]).
    ///
    /// # Errors
    /// As [`Cache::read_or_build`].
    #[deprecated(
        since = "0.3.0",
        note = "use `Cache::read_or_build::<Egdb>`; removed in 0.4.0"
    )]
    pub fn get_or_build(
        &self,
        rules: &KalahRules,
        max_seeds: u32,
        threads: usize,
        interval: Duration,
        on_event: &mut dyn FnMut(CacheEvent<'_>) -> ControlFlow<()>,
    ) -> Result<Cached, EgdbError> {
        self.read_or_build::<Egdb>(rules, max_seeds, threads, interval, on_event)
    }
}
