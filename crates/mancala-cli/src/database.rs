//! The endgame database a command uses: the one `--egdb` names, or by default one built once
//! and kept in the user's cache folder (`mancala_solver::Cache`), or none (`--no-cache`).

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use mancala_core::kalah::KalahRules;
use mancala_solver::{available_memory_bytes, Cache, CacheEvent, Egdb, EgdbError, Found};

/// The environment variable naming the cache folder (instead of the user's cache folder).
pub const CACHE_DIR_ENV: &str = "MANCALA_CACHE_DIR";
/// The environment variable that turns the cache off when set to anything but empty or `0`
/// (the same as `--no-cache`).
pub const NO_CACHE_ENV: &str = "MANCALA_NO_CACHE";

/// Where a command's database comes from.
#[derive(Clone, Copy, Debug)]
pub struct Choice<'a> {
    /// `--egdb`: a file or a folder searched by headers ([`Egdb::find_in`]).
    pub egdb: Option<&'a Path>,
    /// `--no-cache`: no database unless `--egdb`.
    pub no_cache: bool,
    /// Build threads for a cache build (0 = every core).
    pub threads: usize,
    /// `--verbose`: name the file used and every file passed over.
    pub verbose: bool,
    /// Whether a cached database that is missing or damaged may be built now. Commands with
    /// a time budget a move (`bestmove`, `play --engine`) say no: a build takes seconds to
    /// minutes, so they use the cached database when it is there and search without one
    /// otherwise, saying how to build it.
    pub build: bool,
}

/// Names on standard error every file passed over, with its reason (`--verbose`).
fn report_skipped(skipped: &[(PathBuf, String)]) {
    for (p, why) in skipped {
        eprintln!("mancala: egdb: skipped {}: {why}", p.display());
    }
}

/// [`Egdb::find_in`] for `--egdb`: the database in `path` (or the file `path`) serving
/// `rules` with the largest K, by what the file headers say, with a spinner on a terminal
/// while it is read. When `verbose`, every file passed over is named with its reason on
/// standard error, and the file used. The error is the library's, for [`lookup_error`].
pub(crate) fn lookup(path: &Path, rules: &KalahRules, verbose: bool) -> Result<Found, EgdbError> {
    // Reading and checking a large database takes seconds (2.5 GiB: 1.4–2.5 s).
    let spinner = crate::progress::spinner(format!(
        "reading the endgame database for {rules} from {}",
        path.display()
    ));
    let found = Egdb::find_in(path, rules);
    if let Some(b) = spinner {
        b.finish_and_clear();
    }
    if verbose {
        match &found {
            Ok(found) => {
                report_skipped(&found.skipped);
                eprintln!(
                    "mancala: egdb: using {} ({})",
                    found.path.display(),
                    found.database.description()
                );
            }
            Err(EgdbError::NotFound { skipped, .. }) => report_skipped(skipped),
            Err(_) => {}
        }
    }
    found
}

/// The one-line message of an error of [`lookup`] on `path`: for a folder without a
/// database for the rules, what was searched, how to build one and every file passed over
/// with its reason; else the error, naming its file once.
pub(crate) fn lookup_error(path: &Path, e: &EgdbError) -> String {
    match e {
        EgdbError::NotFound {
            dir,
            rules,
            skipped,
        } => {
            let mut msg = format!(
                "no endgame database for {rules} in {} (build one with `mancala egdb build`)",
                mancala_core::ShortenedPath(dir)
            );
            for (p, why) in skipped {
                msg.push_str(&format!(
                    "; skipped {}: {why}",
                    mancala_core::ShortenedPath(p)
                ));
            }
            msg
        }
        e => e.in_file(path),
    }
}

/// [`lookup`], with the error as its message ([`lookup_error`]): the database and its file.
pub(crate) fn find_database(
    path: &Path,
    rules: &KalahRules,
    verbose: bool,
) -> Result<(Egdb, PathBuf), String> {
    lookup(path, rules, verbose)
        .map(|found| (found.database, found.path))
        .map_err(|e| lookup_error(path, &e))
}

/// Whether [`NO_CACHE_ENV`] turns the cache off.
fn cache_off_by_environment() -> bool {
    std::env::var_os(NO_CACHE_ENV).is_some_and(|v| !v.is_empty() && v != "0")
}

/// The cache folder: [`CACHE_DIR_ENV`] when set and not empty, else the user's cache folder
/// ([`Cache::default_dir`]).
pub fn cache_dir() -> Option<PathBuf> {
    match std::env::var_os(CACHE_DIR_ENV) {
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => Cache::default_dir(),
    }
}

/// How the commands name a database built for this run that the cache could not save (it has
/// no file).
pub(crate) const NOT_KEPT: &str = "built in memory for this run (not kept)";

/// The database for a command on games of `rules`, with its file: `--egdb` when given (its
/// errors are the command's), else none under `--no-cache` or [`NO_CACHE_ENV`], else the
/// cached one, built and saved first when missing or damaged (saying so on standard error,
/// with a bar on a terminal). A cache that cannot be used (a folder that cannot be created or
/// written, no memory for the entries) is a one-line warning and no database, never an
/// error.
///
/// The database comes with where it is from, as the commands name it: its file, or
/// [`NOT_KEPT`] for one built for this run that the cache could not save.
///
/// # Errors
/// Only those of `--egdb` ([`find_database`]), prefixed `--egdb: `.
pub(crate) fn choose(
    rules: &KalahRules,
    choice: Choice<'_>,
) -> Result<Option<(Arc<Egdb>, String)>, String> {
    choose_kalah(rules, choice)
}

/// The engine's database for a game of any kind: [`choose`] for a Kalah rule set; none for
/// the other games, where `--egdb` is refused (they have no Kalah endgame database).
///
/// # Errors
/// Those of [`choose`], and `--egdb: …` for a game without databases.
pub(crate) fn choose_for(
    rules: mancala_core::Rules,
    choice: Choice<'_>,
) -> Result<Option<(Arc<Egdb>, String)>, String> {
    match rules.kalah() {
        Some(r) => choose(&r, choice),
        None if choice.egdb.is_some() => {
            Err("--egdb: endgame databases are for Kalah rule sets only".into())
        }
        None => Ok(None),
    }
}

fn choose_kalah(
    rules: &KalahRules,
    choice: Choice<'_>,
) -> Result<Option<(Arc<Egdb>, String)>, String> {
    if let Some(path) = choice.egdb {
        let (db, file) =
            find_database(path, rules, choice.verbose).map_err(|e| format!("--egdb: {e}"))?;
        return Ok(Some((Arc::new(db), file.display().to_string())));
    }
    if choice.no_cache || cache_off_by_environment() {
        return Ok(None);
    }
    let Some(dir) = cache_dir() else {
        eprintln!(
            "mancala: warning: no cache folder (no home folder known; set {CACHE_DIR_ENV}): going on without an endgame database"
        );
        return Ok(None);
    };
    let Some(k) = Cache::default_max_seeds(rules, available_memory_bytes()) else {
        if choice.verbose {
            eprintln!("mancala: egdb: not enough memory for a cached database");
        }
        return Ok(None);
    };
    if let Some(file) = crate::paths::file_in_the_way(&dir) {
        let why = if file == dir {
            format!(
                "{} is a file, not a folder",
                mancala_core::ShortenedPath(&dir)
            )
        } else {
            format!(
                "{}: {} is a file, not a folder",
                mancala_core::ShortenedPath(&dir),
                mancala_core::ShortenedPath(&file)
            )
        };
        eprintln!(
            "mancala: warning: cannot use the endgame database cache ({why}); going on without a database"
        );
        return Ok(None);
    }
    let cache = Cache::new(&dir);
    if !choice.build {
        return Ok(cached_only(&cache, rules, k));
    }
    // Ctrl-C in the save: remove this process's temporary file (`crate::interrupt`).
    crate::egdb::remove_saves_on_interrupt(cache.path(rules, k));
    let mut bar = None;
    let mut reading = reading_spinner(&cache.path(rules, k));
    let result = cache.get_or_build(rules, k, choice.threads, crate::progress::TICK, &mut |ev| {
        if let Some(s) = reading.take() {
            s.finish_and_clear();
        }
        match ev {
            CacheEvent::Refused { path, error } => {
                eprintln!(
                    "mancala: the cached database {} is not used ({}): building it again",
                    path.display(),
                    strip_path(path, error)
                );
            }
            CacheEvent::Building {
                path,
                max_seeds,
                entries,
            } => {
                if !crate::progress::is_quiet() {
                    eprintln!(
                        "mancala: building an endgame database for {} (K = {max_seeds}, {} MiB), once: it is kept in {} for the next runs (--no-cache: none)",
                        family(rules),
                        (entries + (1 << 19)) >> 20,
                        path.display()
                    );
                }
                bar = crate::progress::bar(entries);
            }
            CacheEvent::Progress(p) => {
                if let Some(b) = &bar {
                    b.set_length(p.total);
                    b.set_position(p.done);
                    crate::progress::set_message(b, &crate::progress::build_line(p.done, p.total, p.seconds));
                }
            }
        }
        ControlFlow::Continue(())
    });
    for b in bar.iter().chain(&reading) {
        b.finish_and_clear();
    }
    match result {
        Ok(c) => {
            crate::egdb::report_removed(&c.removed_stale);
            if let Some(e) = &c.save_error {
                eprintln!(
                    "mancala: warning: the endgame database could not be kept in the cache ({e}); it is used this time and built again next time"
                );
            }
            // A database the cache could not save has no file: never name the path that
            // failed as if it held it.
            let source = if c.save_error.is_some() {
                NOT_KEPT.to_string()
            } else {
                c.path.display().to_string()
            };
            if choice.verbose {
                eprintln!(
                    "mancala: egdb: using {source} ({}, {})",
                    c.database.description(),
                    if c.built { "just built" } else { "cached" }
                );
            }
            Ok(Some((Arc::new(c.database), source)))
        }
        Err(e) => {
            eprintln!(
                "mancala: warning: cannot use the endgame database cache ({e}); going on without a database"
            );
            Ok(None)
        }
    }
}

/// The engine's database for a command that keeps a time budget (`bestmove`): what
/// [`choose_for`] gives without building ([`Choice::build`] false) — `egdb` (`--egdb`) when
/// given, else the cached one unless `no_cache` — read on a thread of its own and waited for
/// at most `at_most` (`None`: until it is read). Reading and checking a database takes from a
/// fraction of a second to seconds, which must not come out of the search's time unasked.
/// `Ok(None)` when there is none, or when it is not read in time (then a note on standard
/// error says so, and the reading thread is left to end with the process).
///
/// # Errors
/// The `--egdb` error when the file given cannot be used.
pub(crate) fn read_within(
    rules: mancala_core::Rules,
    egdb: Option<PathBuf>,
    no_cache: bool,
    at_most: Option<Duration>,
) -> Result<Option<(Arc<Egdb>, String)>, String> {
    use std::sync::mpsc::RecvTimeoutError;
    fn choice(egdb: Option<&std::path::Path>, no_cache: bool) -> Choice<'_> {
        Choice {
            egdb,
            no_cache,
            threads: 0,
            verbose: false,
            build: false,
        }
    }
    if rules.kalah().is_none() {
        // Nothing to read for the other games: their answer (none, or the refusal of
        // `--egdb`) is given at once, never left behind by a short wait.
        return choose_for(rules, choice(egdb.as_deref(), no_cache));
    }
    if let (Some(k), Some(path)) = (rules.kalah(), egdb.as_deref()) {
        // The headers say at once whether `--egdb` can serve the rules (a folder without a
        // database for them, a file that is not one): that refusal is the command's
        // answer, never lost to the short wait for the entries below.
        let early = if path.is_dir() {
            Egdb::scan_folder(path, &k).and_then(|scan| {
                if scan.candidates.is_empty() {
                    Err(EgdbError::NotFound {
                        dir: path.to_path_buf(),
                        rules: k.to_string(),
                        skipped: scan.skipped,
                    })
                } else {
                    Ok(())
                }
            })
        } else {
            Egdb::info(path).map(|_| ())
        };
        early.map_err(|e| format!("--egdb: {}", lookup_error(path, &e)))?;
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = move || {
        // The receiver may be gone (the command ended first): nothing to hand over then.
        let _ = tx.send(choose_for(rules, choice(egdb.as_deref(), no_cache)));
    };
    if std::thread::Builder::new()
        .name("mancala-egdb-read".into())
        .spawn(reader)
        .is_err()
    {
        eprintln!("mancala: warning: cannot start a thread to read the endgame database; going on without one");
        return Ok(None);
    }
    let received = match at_most {
        None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        Some(limit) => rx.recv_timeout(limit),
    };
    match received {
        Ok(loaded) => loaded,
        Err(RecvTimeoutError::Timeout) => {
            if !crate::progress::is_quiet() {
                eprintln!(
                    "mancala: the endgame database is still being read after {} ms: this search goes without it",
                    at_most.map_or(0, |d| d.as_millis())
                );
            }
            Ok(None)
        }
        Err(RecvTimeoutError::Disconnected) => Ok(None),
    }
}

/// `mancala egdb build --rules R --cache`: the database the commands use by default for
/// `rules`, built into the cache folder unless a good one is there already, with `threads`
/// build threads (0 = every core). Prints where it is.
///
/// # Errors
/// A rule set that is not Kalah's, a cache turned off ([`NO_CACHE_ENV`]) or unusable (no
/// folder, not enough memory, a folder that cannot be written).
pub(crate) fn build_cache(rules: &str, threads: usize) -> Result<(), String> {
    let rules = crate::rules_arg::kalah_only(rules, "endgame databases are")?;
    if cache_off_by_environment() {
        return Err(format!(
            "--cache: the cache is turned off ({NO_CACHE_ENV} is set)"
        ));
    }
    let choice = Choice {
        egdb: None,
        no_cache: false,
        threads,
        verbose: false,
        build: true,
    };
    match choose_kalah(&rules, choice)? {
        Some((db, source)) if source != NOT_KEPT => {
            println!("cached {} in {source}", db.description());
            Ok(())
        }
        Some(_) => Err(
            "--cache: the database was built but could not be kept (see the warning above)".into(),
        ),
        None => Err("--cache: no database was cached (see the warning above)".into()),
    }
}

/// The cached database of `rules` (K = `k`) if it is there and good, without building it:
/// for commands that must keep a time budget. When it is missing or refused, a one-line note
/// on standard error says how to build it, and the command searches without one.
fn cached_only(cache: &Cache, rules: &KalahRules, k: u32) -> Option<(Arc<Egdb>, String)> {
    let path = cache.path(rules, k);
    let reading = reading_spinner(&path);
    let opened = cache.open(rules, k);
    if let Some(s) = reading {
        s.finish_and_clear();
    }
    let reason = match opened {
        Ok(db) => return Some((Arc::new(db), path.display().to_string())),
        Err(_) if std::fs::symlink_metadata(&path).is_err() => "none is cached yet".to_string(),
        Err(e) => strip_path(&path, &e),
    };
    if !crate::progress::is_quiet() {
        eprintln!(
            "mancala: no endgame database for {}, K = {k} ({reason}): the engine searches without one within its time; `mancala egdb build --rules '{rules}' --cache` builds it once for the next runs",
            family(rules)
        );
    }
    None
}

/// A spinner on a terminal while the cached database at `path` is read and checked (seconds
/// for a large one: 215 MiB take about 3 s), when there is a file there; `None` otherwise
/// and when progress is not shown (`crate::progress::spinner`).
pub(crate) fn reading_spinner(path: &Path) -> Option<indicatif::ProgressBar> {
    path.is_file()
        .then(|| {
            crate::progress::spinner(format!(
                "reading the cached database {}",
                mancala_core::ShortenedPath(path)
            ))
        })
        .flatten()
}

/// `kalah(6,·)+empty_capture`: what a database of `rules` serves.
fn family(rules: &KalahRules) -> String {
    let mut s = format!("kalah({},·)", rules.houses());
    for o in rules.options().database_relevant().iter() {
        s.push('+');
        s.push_str(o.name());
    }
    s
}

/// The text of `e` without `path: ` in front.
fn strip_path(path: &Path, e: &EgdbError) -> String {
    let msg = e.to_string();
    let shown = format!("{}: ", mancala_core::ShortenedPath(path));
    msg.strip_prefix(&shown).map_or(msg.clone(), str::to_string)
}

/// The cached Awari database of the default N (`awari.n18.egdb`), read and checked on a
/// thread of its own, for the engine under a rule set its values carry over to
/// ([`mancala_solver::engine::oware::awari_values_carry_over`]): `None` for any other rule
/// set, with `no_cache` or [`NO_CACHE_ENV`], when the file is not in the cache folder or is
/// refused, or when it is not read within `at_most` (the search then goes without it). Never
/// builds it: `mancala egdb build --rules awari --cache` does.
pub(crate) fn read_awari_within(
    rules: mancala_core::Rules,
    no_cache: bool,
    at_most: Option<Duration>,
) -> Option<Arc<mancala_solver::awari::AwariDb>> {
    use mancala_solver::awari::DEFAULT_MAX_SEEDS;
    let mancala_core::Rules::Oware(r) = rules else {
        return None;
    };
    if no_cache
        || cache_off_by_environment()
        || !mancala_solver::engine::oware::awari_values_carry_over(&r)
    {
        return None;
    }
    let cache = Cache::new(cache_dir()?);
    if !cache.awari_path(DEFAULT_MAX_SEEDS).is_file() {
        return None;
    }
    let reading = reading_spinner(&cache.awari_path(DEFAULT_MAX_SEEDS));
    let (tx, rx) = std::sync::mpsc::channel();
    let reader = move || {
        let _ = tx.send(cache.awari_open(DEFAULT_MAX_SEEDS).ok().map(Arc::new));
    };
    std::thread::Builder::new()
        .name("mancala-awari-read".into())
        .spawn(reader)
        .ok()?;
    let received = match at_most {
        None => rx.recv().ok(),
        Some(limit) => rx.recv_timeout(limit).ok(),
    };
    if let Some(s) = reading {
        s.finish_and_clear();
    }
    if received.is_none() && !crate::progress::is_quiet() {
        eprintln!(
            "mancala: the Awari database is still being read after {} ms: this search goes without it",
            at_most.map_or(0, |d| d.as_millis())
        );
    }
    received.flatten()
}
