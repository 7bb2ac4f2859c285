//! The database a command uses, for every game that has one (Kalah's endgame databases, the
//! Awari databases): the one `--egdb` names, or by default the cache's, or none
//! (`--no-cache`). The choice itself is the library's policy
//! (`mancala_solver::egdb::choose`); this module words what it reports and refuses.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use mancala_core::kalah::KalahRules;
use mancala_solver::egdb::{
    choose, Bound, Build, ChooseError, ChooseEvent, Chosen, Database, Want,
};
use mancala_solver::{Cache, CacheEvent, Egdb, EgdbError, Found, Source};

/// The environment variable naming the cache folder (instead of the user's cache folder):
/// the library's [`mancala_solver::egdb::CACHE_DIR_VARIABLE`].
pub const CACHE_DIR_ENV: &str = mancala_solver::egdb::CACHE_DIR_VARIABLE;
/// The environment variable that turns the cache off when set to anything but empty or `0`
/// (the same as `--no-cache`).
pub const NO_CACHE_ENV: &str = "MANCALA_NO_CACHE";

/// Where a command's database comes from.
#[derive(Clone, Copy, Debug)]
pub struct Choice<'a> {
    /// `--egdb`: a file or a folder searched by headers.
    pub egdb: Option<&'a Path>,
    /// `--no-cache`: no cached database.
    pub no_cache: bool,
    /// `--max-seeds` (the Awari databases' N); `None`: the file's or the cache's.
    pub max_seeds: Option<u32>,
    /// The positions to value have at most this many seeds in the houses (0: the database
    /// need not hold them).
    pub seeds: u32,
    /// Whether a missing database may be built, and where.
    pub build: Build,
    /// Build threads (0 = every core).
    pub threads: usize,
    /// `--verbose`: name the file used and every file passed over.
    pub verbose: bool,
    /// The start of the refusal of too many seeds: "the position has", "the set has a
    /// position with".
    pub what: &'a str,
    /// `egdb build --cache`: the cached database is what the command is for, so that a
    /// cache that cannot be used, or a database that cannot be kept there, is its one error
    /// rather than a warning followed by an error.
    pub cache_asked: bool,
    /// Set when the database is no longer wanted: its reading stops between two pieces
    /// ([`Want::cancel`]). `None`: it is read to the end.
    pub cancel: Option<&'a AtomicBool>,
    /// Under [`Build::Never`], say on standard error that the cache holds no database and
    /// how to build one (`false`: the command goes without one by its own choice, and says
    /// nothing).
    pub note_missing: bool,
}

impl<'a> Choice<'a> {
    /// A choice for the Kalah solver and engine: `--egdb` or the cache (no bound on the
    /// seeds: the solver searches above the database's K).
    pub fn kalah(egdb: Option<&'a Path>, no_cache: bool, threads: usize, build: Build) -> Self {
        Choice {
            egdb,
            no_cache,
            max_seeds: None,
            seeds: 0,
            build,
            threads,
            verbose: false,
            what: "the position has",
            cache_asked: false,
            cancel: None,
            note_missing: true,
        }
    }
}

/// Names on standard error every file passed over, with its reason (`--verbose`).
fn report_skipped(skipped: &[(PathBuf, String)]) {
    for (p, why) in skipped {
        eprintln!("mancala: egdb: skipped {}: {why}", p.display());
    }
}

/// `Egdb::find_in` for `--egdb` of the Kalah commands that look a database up for several
/// rule sets (`bench`): the database in `path` (or the file `path`) serving `rules` with the
/// largest K, by what the file headers say, with a spinner on a terminal while it is read.
/// When `verbose`, every file passed over is named with its reason on standard error, and
/// the file used. The error is the library's, for [`lookup_error`].
pub(crate) fn lookup(path: &Path, rules: &KalahRules, verbose: bool) -> Result<Found, EgdbError> {
    // Reading and checking a large database takes seconds (2.5 GiB: 1.4–2.5 s).
    let spinner = reading(path, rules);
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

/// A spinner on a terminal while a database for `rules` is read from `path`.
fn reading(path: &Path, rules: &impl std::fmt::Display) -> Option<indicatif::ProgressBar> {
    crate::progress::spinner(format!(
        "reading the database for {rules} from {}",
        path.display()
    ))
}

/// The one-line message of an error of [`lookup`] on `path`: the library's
/// [`mancala_solver::egdb::lookup_error`] (what was searched, how to build one, every file
/// passed over; else the error naming its file once).
pub(crate) fn lookup_error(path: &Path, e: &EgdbError) -> String {
    mancala_solver::egdb::lookup_error(path, e)
}

/// Whether [`NO_CACHE_ENV`] turns the cache off.
pub(crate) fn cache_off_by_environment() -> bool {
    std::env::var_os(NO_CACHE_ENV).is_some_and(|v| !v.is_empty() && v != "0")
}

/// The cache folder: [`CACHE_DIR_ENV`] when set to an absolute path, else the user's cache
/// folder, as the library reads them ([`Cache::dir_from_env`]). A relative value is ignored
/// with a one-line warning on standard error naming the variable and why, given once
/// however often the folder is asked for.
pub fn cache_dir() -> Option<PathBuf> {
    static WARNED: std::sync::Once = std::sync::Once::new();
    let (dir, ignored) = Cache::dir_from_env();
    if let Some(ignored) = ignored {
        // The library's whole sentence, the folder used instead included.
        WARNED.call_once(|| eprintln!("mancala: warning: {ignored}"));
    }
    dir
}

/// The cache folder a command without `--egdb` may use.
enum CacheFolder {
    /// Off: `--no-cache` or [`NO_CACHE_ENV`].
    Off,
    /// No folder is known (no home folder).
    Unknown,
    /// A file, a FIFO, a socket or a device stands where the folder (or one above it)
    /// should be: `<folder>: ` and the words of [`mancala_solver::egdb::FileInTheWay`].
    InTheWay(String),
    /// The folder.
    Use(Cache),
}

/// The cache folder of `choice`.
fn cache_folder(choice: &Choice<'_>) -> CacheFolder {
    if choice.no_cache || cache_off_by_environment() {
        return CacheFolder::Off;
    }
    let Some(dir) = cache_dir() else {
        return CacheFolder::Unknown;
    };
    match mancala_solver::egdb::file_in_the_way(&dir) {
        Some(f) => CacheFolder::InTheWay(format!("{}: {f}", mancala_core::ShortenedPath(&dir))),
        None => CacheFolder::Use(Cache::new(&dir)),
    }
}

/// The database `D` for a command on games of `rules`, with where it is from: `--egdb`
/// when given, else the cache's (read, or built and kept first when [`Choice::build`]
/// allows), else, under [`Build::Always`], one built in memory for this run; else none. What
/// happens is said on standard error as it happens (a build with a bar on a terminal, the
/// file used with `--verbose`); a cache that cannot be used is a one-line warning, and none
/// is used unless the values come from nowhere else ([`Build::Always`]).
///
/// # Errors
/// The refusals of `--egdb` (prefixed `--egdb: `), of too many seeds for the database, of
/// a build this machine cannot hold, and under [`Build::Always`] of a cache that cannot be
/// used for another reason than its folder.
pub(crate) fn choose_for<D: Database>(
    rules: &D::Rules,
    choice: &Choice<'_>,
) -> Result<Option<(Arc<D>, Source)>, String> {
    // With `--egdb` the cache is not touched: its folder is not even looked for, so nothing
    // is said about its variable.
    let folder = match choice.egdb {
        Some(_) => CacheFolder::Off,
        None => cache_folder(choice),
    };
    let cache = match (choice.egdb, folder) {
        (Some(_), _) | (None, CacheFolder::Off) => None,
        (None, CacheFolder::Use(cache)) => Some(cache),
        // A database is needed: the library builds it in memory when the folder cannot be
        // used, and says so.
        (None, CacheFolder::InTheWay(_)) if choice.build == Build::Always => {
            cache_dir().map(Cache::new)
        }
        (None, CacheFolder::Unknown) if choice.cache_asked => {
            return Err(format!(
                "--cache: no cache folder (no home folder known; set {CACHE_DIR_ENV})"
            ))
        }
        (None, CacheFolder::InTheWay(why)) if choice.cache_asked => {
            return Err(format!("--cache: cannot use {} cache ({why})", the::<D>(rules)))
        }
        (None, CacheFolder::Unknown) if choice.build == Build::Always => {
            return Err(format!(
                "no cache folder (no home folder known; set {CACHE_DIR_ENV} or give --egdb, or --no-cache)"
            ))
        }
        (None, CacheFolder::Unknown) => {
            eprintln!(
                "mancala: warning: no cache folder (no home folder known; set {CACHE_DIR_ENV}): going on without {}",
                D::a_kind_of(rules)
            );
            return Ok(None);
        }
        (None, CacheFolder::InTheWay(why)) => {
            eprintln!(
                "mancala: warning: cannot use {} cache ({why}); going on without a database",
                the::<D>(rules)
            );
            return Ok(None);
        }
    };
    if choice.egdb.is_none() && cache.is_none() && choice.build != Build::Always {
        return Ok(None);
    }
    if let (None, Some(_), None) = (choice.egdb, &cache, choice.max_seeds) {
        if D::default_max_seeds(rules, mancala_solver::available_memory_bytes()).is_none() {
            if choice.cache_asked {
                return Err(format!(
                    "--cache: not enough memory for {} of the smallest K",
                    D::a_kind_of(rules)
                ));
            }
            if choice.verbose {
                eprintln!("mancala: egdb: not enough memory for a cached database");
            }
            return Ok(None);
        }
    }
    let want = Want {
        given: choice.egdb,
        cache: cache.as_ref(),
        max_seeds: choice.max_seeds,
        seeds: choice.seeds,
        build: choice.build,
        threads: choice.threads,
        interval: crate::progress::TICK,
        cancel: choice.cancel,
    };
    // The cache's file of this run's K, when there is a cache.
    let cached = cache.as_ref().and_then(|c| {
        let k = choice
            .max_seeds
            .or_else(|| D::default_max_seeds(rules, mancala_solver::available_memory_bytes()))?;
        Some(c.file::<D>(rules, k))
    });
    if let Some(file) = &cached {
        // Ctrl-C in a save: remove this process's temporary file (`crate::interrupt`).
        if choice.build != Build::Never {
            crate::saves::remove_saves_on_interrupt(file.clone());
        }
    }
    // Reading a database and checking it whole takes seconds for a large one: a spinner
    // names it on a terminal (a given file or folder, or the cache's file when it is there).
    let spinner = match (choice.egdb, &cached) {
        (Some(path), _) => reading(path, rules),
        (None, Some(file)) if file.is_file() => crate::progress::spinner(format!(
            "reading the cached database {}",
            mancala_core::ShortenedPath(file)
        )),
        _ => None,
    };
    let mut report = Report::<D>::new(rules, choice);
    let chosen = choose::<D>(rules, &want, &mut |e| report.event(e));
    if let Some(b) = spinner {
        b.finish_and_clear();
    }
    report.finish();
    if let Some(why) = report.cannot_keep.take() {
        return Err(format!(
            "--cache: {} cannot be kept in the cache ({why}); nothing was built",
            the::<D>(rules)
        ));
    }
    match chosen {
        Ok(Some(c)) if choice.cache_asked && c.save_error.is_some() => Err(format!(
            "--cache: {} was built but could not be kept in the cache ({})",
            the::<D>(rules),
            c.save_error
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default()
        )),
        Ok(Some(c)) => Ok(Some(used(c, rules, choice))),
        Ok(None) => match report.unusable.take() {
            Some(e) if choice.cache_asked => Err(format!(
                "--cache: cannot use {} cache ({e})",
                the::<D>(rules)
            )),
            _ => Ok(None),
        },
        Err(e) => {
            if choice.verbose {
                match &e {
                    ChooseError::Given(EgdbError::NotFound { skipped, .. })
                    | ChooseError::TooFewSeeds { skipped, .. } => report_skipped(skipped),
                    _ => {}
                }
            }
            Err(refusal::<D>(rules, choice, &e))
        }
    }
}

/// What a command says of the database it uses ([`choose_for`]), and the database.
fn used<D: Database>(c: Chosen<D>, rules: &D::Rules, choice: &Choice<'_>) -> (Arc<D>, Source) {
    crate::saves::report_removed(&c.removed_stale);
    if let Some(e) = &c.save_error {
        eprintln!(
            "mancala: warning: {} could not be kept in the cache ({e}); it is used this time and built again next time",
            the::<D>(rules)
        );
    }
    if choice.verbose {
        report_skipped(&c.skipped);
        match (&c.source, choice.egdb) {
            (Source::File(p), Some(_)) => {
                eprintln!(
                    "mancala: egdb: using {} ({})",
                    p.display(),
                    c.database.describe()
                );
            }
            (source, _) => eprintln!(
                "mancala: egdb: using {source} ({}, {})",
                c.database.describe(),
                if c.built { "just built" } else { "cached" }
            ),
        }
    }
    (Arc::new(c.database), c.source)
}

/// `the endgame database`, `the Awari database`, `the Oware database of
/// awari+grand_slam=none` ([`Database::kind_of`]).
fn the<D: Database>(rules: &D::Rules) -> String {
    format!("the {}", D::kind_of(rules))
}

/// The one-line message of a refusal of [`choose_for`].
fn refusal<D: Database>(rules: &D::Rules, choice: &Choice<'_>, e: &ChooseError) -> String {
    let what = choice.what;
    // Each file passed over is named as it is with --verbose; else the message names them.
    let passed = |skipped: &[(PathBuf, String)]| {
        if choice.verbose || skipped.is_empty() {
            String::new()
        } else {
            let list: Vec<String> = skipped
                .iter()
                .map(|(p, why)| format!("{}: {why}", p.display()))
                .collect();
            format!("; passed over: {}", list.join("; "))
        }
    };
    let size = |seeds: u32| {
        let entries = D::entries(rules, seeds).unwrap_or(0);
        format!("{entries} {}s, {}", D::ENTRY, crate::saves::human(entries))
    };
    let cannot_build = |seeds: u32| {
        format!(
            "a database that holds it ({}) cannot be built in this machine's memory (docs/awari.md, \"Beyond one machine\")",
            size(seeds)
        )
    };
    match e {
        ChooseError::Given(e @ EgdbError::NoDatabase { .. }) => format!(
            "--egdb: {e} (the endgame databases are for Kalah rule sets, the Awari databases for awari)"
        ),
        ChooseError::Given(e) => format!(
            "--egdb: {}",
            lookup_error(choice.egdb.unwrap_or(Path::new("")), e)
        ),
        ChooseError::TooFewSeeds {
            seeds,
            max_seeds,
            bound: Bound::File(file),
            buildable,
            skipped,
        } => {
            // A given file cannot grow: name a database that holds the position instead.
            let build = if *buildable {
                format!(
                    "give a database of N >= {seeds}, e.g. `mancala egdb build --rules {} --max-seeds {seeds}`, or no --egdb",
                    D::family(rules)
                )
            } else {
                "a database that holds it cannot be built in this machine's memory".to_owned()
            };
            format!(
                "{what} {} in its houses, more than the {max_seeds} of the largest level of {}: the file holds {}s of at most {} ({build}){}",
                mancala_core::words::count(*seeds, "seed", "seeds"),
                file.display(),
                D::ENTRY,
                mancala_core::words::count(*max_seeds, "seed", "seeds"),
                passed(skipped)
            )
        }
        ChooseError::TooFewSeeds {
            seeds,
            max_seeds,
            bound,
            buildable,
            ..
        } => {
            let whose = match bound {
                Bound::Asked => "asked for (--max-seeds)",
                _ => "the cache builds by default",
            };
            let more = format!(
                "{what} {} in its houses, more than the {max_seeds} of the largest level {whose}",
                mancala_core::words::count(*seeds, "seed", "seeds")
            );
            if *buildable {
                format!(
                    "{more}: --max-seeds {seeds} builds a database that holds it ({})",
                    size(*seeds)
                )
            } else {
                format!("{more}; {}", cannot_build(*seeds))
            }
        }
        ChooseError::TooLarge { seeds, .. } => {
            format!(
                "{what} {} in its houses; {}",
                mancala_core::words::count(*seeds, "seed", "seeds"),
                cannot_build(*seeds)
            )
        }
        ChooseError::Memory { .. } | ChooseError::Build(_) => build_refusal::<D>(rules, e),
        ChooseError::Cache(e) => format!(
            "cannot use the {} cache ({e}); --egdb FILE or --no-cache answer without it",
            D::kind_of(rules)
        ),
    }
}

/// The one-line message of a build of the database `D` of `rules` that cannot be: more
/// memory than there is, a K the game or the format does not hold.
pub(crate) fn build_refusal<D: Database>(rules: &D::Rules, e: &ChooseError) -> String {
    match e {
        ChooseError::Memory { max_seeds, memory } => format!(
            "--max-seeds {max_seeds}: the build needs about {} bytes ({}), more than the {}",
            memory.needs,
            crate::saves::human(memory.needs),
            memory.available
        ),
        ChooseError::Build(EgdbError::MoreSeedsThanTheGame {
            max_seeds,
            total_seeds,
            largest,
            ..
        }) => mancala_solver::egdb::more_seeds_than_the_game(
            &D::family(rules),
            *max_seeds,
            *total_seeds,
            *largest,
        ),
        e => e.to_string(),
    }
}

/// The note that the cached file `path` is not used (`why`), and built again.
fn refused_note((path, why): &(String, String)) -> String {
    format!("mancala: the cached database {path} is not used ({why}): building it again")
}

/// What [`choose_for`] says as it goes: a cached file refused, a build (announced, with a
/// bar on a terminal), a database not cached, a cache that cannot be used.
struct Report<'r, D: Database> {
    rules: &'r D::Rules,
    build: Build,
    /// [`Choice::note_missing`].
    note_missing: bool,
    rules_text: String,
    bar: Option<indicatif::ProgressBar>,
    /// Why the cache cannot be used, when it cannot (the build in memory that follows is
    /// then not announced again).
    unusable: Option<String>,
    /// [`Choice::cache_asked`]: a cache that cannot be used is the caller's error, not
    /// warned about here.
    cache_asked: bool,
    /// Under `cache_asked`, the cached file refused and why ([`refused_note`]), said only
    /// if a build follows that the cache keeps.
    refused: Option<(String, String)>,
    /// Under `cache_asked`, the file the save would refuse, and why: the build is stopped
    /// before it starts, since nothing it built could be kept.
    cannot_keep: Option<String>,
    _db: std::marker::PhantomData<D>,
}

impl<'r, D: Database> Report<'r, D> {
    fn new(rules: &'r D::Rules, choice: &Choice<'_>) -> Self {
        Report {
            rules,
            build: choice.build,
            note_missing: choice.note_missing,
            rules_text: rules.to_string(),
            bar: None,
            unusable: None,
            cache_asked: choice.cache_asked,
            refused: None,
            cannot_keep: None,
            _db: std::marker::PhantomData,
        }
    }

    fn event(&mut self, e: ChooseEvent<'_>) -> ControlFlow<()> {
        let quiet = crate::progress::is_quiet();
        match e {
            ChooseEvent::Cache(CacheEvent::Refused { path, error }) => {
                let refused = (path.display().to_string(), error.reason());
                if self.cache_asked {
                    // Said when the build that follows can be kept; otherwise the error
                    // says it once.
                    self.refused = Some(refused);
                } else {
                    eprintln!("{}", refused_note(&refused));
                }
            }
            ChooseEvent::Cache(CacheEvent::Building {
                path, kept: false, ..
            }) if self.cache_asked => {
                // `egdb build --cache` exists to keep the database: building one the save
                // will refuse would only waste the build.
                self.cannot_keep = Some(match self.refused.take() {
                    Some((path, why)) => format!("{path}: {why}"),
                    None => path.display().to_string(),
                });
                return ControlFlow::Break(());
            }
            ChooseEvent::Cache(CacheEvent::Building {
                path: _,
                max_seeds,
                entries,
                kept: false,
            }) => {
                // No promise of a file that the save will refuse: the warning of the failed
                // save says why once the database is built.
                if !quiet {
                    eprintln!(
                        "mancala: building {} for {} ({}, {}) for this run only: the cache cannot keep it",
                        D::a_kind_of(self.rules),
                        D::family(self.rules),
                        D::extent(max_seeds),
                        crate::saves::human(entries),
                    );
                }
                self.bar = crate::progress::bar(entries);
            }
            ChooseEvent::Cache(CacheEvent::Building {
                path,
                max_seeds,
                entries,
                kept: true,
            }) => {
                if let Some(refused) = self.refused.take() {
                    eprintln!("{}", refused_note(&refused));
                }
                if !quiet {
                    eprintln!(
                        "mancala: building {} for {} ({}, {}), once: it is kept in {} for the next runs (--no-cache: none)",
                        D::a_kind_of(self.rules),
                        D::family(self.rules),
                        D::extent(max_seeds),
                        crate::saves::human(entries),
                        path.display()
                    );
                }
                self.bar = crate::progress::bar(entries);
            }
            ChooseEvent::Cache(CacheEvent::Progress(p)) => {
                if let Some(b) = &self.bar {
                    b.set_length(p.total);
                    b.set_position(p.done);
                    crate::progress::set_message(
                        b,
                        &crate::progress::build_line(p.done, p.total, p.seconds),
                    );
                }
            }
            ChooseEvent::NotCached {
                max_seeds, error, ..
            } => {
                if !quiet && self.note_missing {
                    let reason = error.map_or("none is cached yet".to_string(), EgdbError::reason);
                    eprintln!(
                        "mancala: no {} for {}, {} ({reason}): this search goes without one; `mancala egdb build --rules '{}' --cache` builds it once for the next runs",
                        D::kind_of(self.rules),
                        D::family(self.rules),
                        D::extent(max_seeds),
                        self.rules_text
                    );
                }
            }
            ChooseEvent::CacheUnusable(e) => {
                self.unusable = Some(e.to_string());
                if self.cache_asked {
                    // The caller's error says it.
                } else if self.build == Build::Always {
                    eprintln!(
                        "mancala: warning: {} cache cannot be used ({e}); building it in memory for this run",
                        the::<D>(self.rules)
                    );
                } else {
                    eprintln!(
                        "mancala: warning: cannot use {} cache ({e}); going on without a database",
                        the::<D>(self.rules)
                    );
                }
            }
            ChooseEvent::BuildingInMemory { max_seeds, entries } => {
                if !quiet && self.unusable.is_none() {
                    eprintln!(
                        "mancala: building {} of {} in memory for this run (--no-cache: nothing is kept)",
                        D::a_kind_of(self.rules),
                        D::extent(max_seeds)
                    );
                }
                self.bar = crate::progress::bar(entries);
            }
        }
        ControlFlow::Continue(())
    }

    fn finish(&mut self) {
        if let Some(b) = self.bar.take() {
            b.finish_and_clear();
        }
    }
}

/// The engine's database for a command that keeps a time budget (`bestmove`): what
/// [`choose_for`] gives without building ([`Build::Never`]) — `egdb` (`--egdb`) when given,
/// else the cached one unless `no_cache` — read on a thread of its own and waited for at
/// most `at_most` (`None`: until it is read); `verbose`: name the file used and every file
/// passed over, as [`Choice::verbose`]; `note_missing`: say that none is cached, as
/// [`Choice::note_missing`]. Reading and checking a database takes from a
/// fraction of a second to seconds, which must not come out of the search's time unasked.
/// `None` when there is none — at once for a game without databases, or without `--egdb`
/// when the cache is off — or when it is not read in time: then a note on standard error
/// says so (unless `--quiet`), and the reading is given up (its flag stops it within a
/// piece of 4 MiB, so that it does not take a processor from the search), handed back as
/// [`StillReading`] for the command to look at once its answer is out. The limit holds for
/// the whole command: a file given with `--egdb` that was not read in time is not read again
/// after the answer (with a database of gigabytes that would take seconds past the budget),
/// and the note says it was not checked; its header was checked before the wait, so a path
/// that is no database for the rules (a missing or truncated file, another game's) is still
/// refused at once.
///
/// # Errors
/// The `--egdb` error when the file given cannot be used (and is known to be in time).
pub(crate) fn read_within<D: Database>(
    rules: D::Rules,
    egdb: Option<PathBuf>,
    no_cache: bool,
    verbose: bool,
    note_missing: bool,
    at_most: Option<Duration>,
) -> Result<(Loaded<D>, Option<StillReading<D>>), String> {
    use std::sync::mpsc::RecvTimeoutError;
    if let Some(path) = egdb.as_deref() {
        // What the headers say is the command's answer, never lost to the short wait below.
        check_given::<D>(&rules, path)?;
    }
    if let Err(EgdbError::NoDatabase { .. }) = D::entries(&rules, 0) {
        // A game without databases (Bao la Kete, Togyz Kumalak), no `--egdb`: nothing to
        // read or wait for.
        return Ok((None, None));
    }
    if egdb.is_none() && (no_cache || cache_off_by_environment()) {
        // Neither a file given nor the cache: nothing to read, so nothing to wait for (a
        // reading thread that answers late would be said to be "still reading").
        return Ok((None, None));
    }
    let given = egdb.clone();
    let started = std::time::Instant::now();
    let (tx, mut rx) = std::sync::mpsc::channel();
    let cancel = Arc::new(AtomicBool::new(false));
    let reader = {
        let cancel = Arc::clone(&cancel);
        move || {
            let mut choice = Choice::kalah(egdb.as_deref(), no_cache, 0, Build::Never);
            choice.cancel = Some(&cancel);
            choice.verbose = verbose;
            choice.note_missing = note_missing;
            let read = choose_for::<D>(&rules, &choice);
            // A reading given up hands nothing over (its error is not the file's).
            if read.is_err() && cancel.load(Ordering::Relaxed) {
                return;
            }
            // The receiver may be gone (the command ended first): nothing to hand over then.
            let _ = tx.send(read);
        }
    };
    if std::thread::Builder::new()
        .name("mancala-egdb-read".into())
        .spawn(reader)
        .is_err()
    {
        eprintln!(
            "mancala: warning: cannot start a thread to read the {}; going on without one",
            D::kind_of(&rules)
        );
        return Ok((None, None));
    }
    // Whether the reading ended, but only after the limit (handed back below as under way).
    let mut ended_late = false;
    let received = match at_most {
        None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
        Some(limit) => match rx.recv_timeout(limit) {
            // Handed over after the limit (this thread was kept from the processor while
            // the reading ran): late all the same, so that the limit is kept; the reading
            // is handed back as one still under way.
            Ok(read) if started.elapsed() > limit => {
                let (late, again) = std::sync::mpsc::channel();
                // The receiver is held just below: the send cannot fail.
                let _ = late.send(read);
                rx = again;
                ended_late = true;
                Err(RecvTimeoutError::Timeout)
            }
            received => received,
        },
    };
    match received {
        Ok(loaded) => Ok((loaded?, None)),
        Err(RecvTimeoutError::Timeout) => {
            // The search goes without it: the reading stops rather than take a processor
            // from the search.
            cancel.store(true, Ordering::Relaxed);
            if !crate::progress::is_quiet() {
                // A file the user named and that is now not checked: say how to check it.
                // (A reading that ended late is named after the answer if it failed.)
                let unchecked = match given.as_deref() {
                    Some(path) if path.is_file() => format!(
                        " (not checked: `mancala egdb verify {}` checks it)",
                        mancala_solver::egdb::shell_word(path)
                    ),
                    Some(_) => " (not checked)".to_string(),
                    None => String::new(),
                };
                let ms = at_most.map_or(0, |d| d.as_millis());
                let what = the::<D>(&rules);
                if ended_late {
                    eprintln!(
                        "mancala: {what} took longer than {ms} ms to read: this search goes without it"
                    );
                } else {
                    eprintln!(
                        "mancala: {what} is still being read after {ms} ms: this search goes without it{unchecked}"
                    );
                }
            }
            Ok((None, Some(StillReading { rx })))
        }
        Err(RecvTimeoutError::Disconnected) => Ok((None, None)),
    }
}

/// Whether the file or folder given with `--egdb` (`path`) can serve `rules` as far as its
/// headers tell, the entries unread: at once, so that a command that reads no database (a
/// budget of 0) or gives up its reading (a short budget) still refuses a wrong `--egdb`.
///
/// # Errors
/// The `--egdb` refusal, in the words of [`choose_for`]'s: a game without databases (Bao la
/// Kete, Togyz Kumalak), a path that cannot be read, a file whose header is not one of this
/// game's databases, a folder without a database for `rules`. (Whether a file's database
/// serves `rules` is left to the reading.)
pub(crate) fn check_given<D: Database>(rules: &D::Rules, path: &Path) -> Result<(), String> {
    if let Err(e @ EgdbError::NoDatabase { .. }) = D::entries(rules, 0) {
        let choice = Choice::kalah(Some(path), false, 0, Build::Never);
        return Err(refusal::<D>(rules, &choice, &ChooseError::Given(e)));
    }
    let early = if path.is_dir() {
        mancala_solver::egdb::scan_folder::<D>(path, rules).and_then(|scan| {
            if scan.candidates.is_empty() {
                Err(EgdbError::NotFound {
                    dir: path.to_path_buf(),
                    rules: rules.to_string(),
                    skipped: scan.skipped,
                })
            } else {
                Ok(())
            }
        })
    } else {
        // The header says whether the file serves the rules, before its entries are read:
        // a database of other rules is refused whatever the budget.
        D::info(path).and_then(|info| match D::info_serves(&info, rules) {
            Ok(()) => Ok(()),
            Err(_) => Err(EgdbError::RulesMismatch {
                database: mancala_solver::egdb::DatabaseInfo::describe(&info),
                wanted: rules.to_string(),
            }),
        })
    };
    early.map_err(|e| format!("--egdb: {}", lookup_error(path, &e)))
}

/// A database read and where it came from, or none.
type Loaded<D> = Option<(Arc<D>, Source)>;

/// What the reading thread of [`read_within`] hands over: the database, none, or the
/// `--egdb` error.
type ReadResult<D> = Result<Loaded<D>, String>;

/// A database read that [`read_within`] stopped waiting for and gave up: the search went
/// without it.
pub(crate) struct StillReading<D: Database> {
    /// What the reading thread hands over, if it ended before it was given up.
    rx: std::sync::mpsc::Receiver<ReadResult<D>>,
}

impl<D: Database> StillReading<D> {
    /// Once the command's answer is printed: when the reading thread ended with an error
    /// before it was given up (a damaged, truncated or changed file found in the time the
    /// wait had), says so in one line on standard error, a warning naming the file and the
    /// reason, even under `--quiet`. A reading still under way is left to stop (it was given
    /// up) and never waited for or run again, so that the command ends within its time
    /// budget; a database read whole says nothing. The exit status is unchanged (the answer
    /// was given without it).
    pub(crate) fn warn_if_refused(self) {
        if let Ok(Err(e)) = self.rx.try_recv() {
            eprintln!("mancala: warning: {e}; the search went without it");
        }
    }
}

/// `mancala egdb build --rules R --cache`: the database the commands use by default for
/// `rules`, built into the cache folder unless a good one is there already, with `threads`
/// build threads (0 = every core). Prints where it is.
///
/// # Errors
/// A cache turned off ([`NO_CACHE_ENV`]) or unusable (no folder, not enough memory, a folder
/// that cannot be written).
pub(crate) fn build_cache<D: Database>(rules: &D::Rules, threads: usize) -> Result<(), String> {
    if cache_off_by_environment() {
        return Err(format!(
            "--cache: the cache is turned off ({NO_CACHE_ENV} is set)"
        ));
    }
    let choice = Choice {
        egdb: None,
        no_cache: false,
        max_seeds: None,
        seeds: 0,
        build: Build::Cache,
        threads,
        verbose: false,
        what: "the position has",
        cache_asked: true,
        cancel: None,
        note_missing: true,
    };
    // A cache that cannot be used, or a database that cannot be kept, is `choose_for`'s
    // error under `cache_asked`.
    match choose_for::<D>(rules, &choice)? {
        Some((db, Source::File(p) | Source::Built(p))) => {
            println!("cached {} in {}", db.describe(), p.display());
            Ok(())
        }
        Some((_, Source::NotKept)) | None => Err("--cache: no database was cached".into()),
    }
}
