//! The Awari databases on the command line (`--rules awari`): `egdb build`, `egdb
//! info/verify/convert` of an Awari file, and `solve`/`analyse`, which answer every position
//! with at most N seeds in the houses exactly from the database, each legal move with its
//! value (`docs/awari.md`).

use std::path::{Path, PathBuf};
use std::time::Instant;

use mancala_core::oware::{OwarePosition, OwareRules};
use mancala_core::Side;
use mancala_solver::awari::{
    entries_to, AwariBoard, AwariCacheEvent, AwariDb, AwariInfo, LevelReport, DEFAULT_MAX_SEEDS,
    MAX_SEEDS,
};
use mancala_solver::egdb::{game_of_file, Encoding};
use mancala_solver::engine::oware::awari_values_carry_over;
use mancala_solver::{available_memory_bytes, Cache, EgdbError};

use crate::solve::SolveArgs;

/// The Oware rule set `--rules TEXT` names when the Awari databases hold its values
/// (`awari`, and its variants in the repetition rule and the seeds a house:
/// [`awari_values_carry_over`], `docs/awari.md`, "The engine"); `Ok(None)` for every other
/// game's rule set (and for a text no game accepts, which the Kalah path then refuses with
/// its message). `what` names the command for the refusal of another Oware rule set ("solve
/// and analyse are").
///
/// # Errors
/// `--rules TEXT: …` for an Oware rule set whose values are not the databases'.
pub fn wanted(text: &str, what: &str) -> Result<Option<OwareRules>, String> {
    match crate::rules_arg::parse_rules(text) {
        Ok(crate::rules_arg::GameRules::Oware(r)) if awari_values_carry_over(&r) => Ok(Some(r)),
        Ok(crate::rules_arg::GameRules::Oware(r)) => {
            let shown: String = text.chars().take(60).collect();
            Err(format!(
                "--rules {shown}: {what} for Kalah rule sets and, with the Awari databases, the Oware rule sets whose values they hold: 6 houses a side, grand_slam=unless_only, majority=off, cycle_score=split and no move limit (awari, with any repetition rule); {r} has {}",
                differences(&r)
            ))
        }
        _ => Ok(None),
    }
}

/// What makes the values of `r` other than the Awari databases': the rules of `r` that
/// differ from those [`awari_values_carry_over`] asks for, as `--rules` spells them.
fn differences(r: &OwareRules) -> String {
    let a = OwareRules::AWARI;
    let mut d = Vec::new();
    if r.houses() != 6 {
        d.push(format!("{} houses a side", r.houses()));
    }
    if r.grand_slam() != a.grand_slam() {
        d.push(format!("grand_slam={}", r.grand_slam().name()));
    }
    if r.majority() != a.majority() {
        d.push(format!("majority={}", r.majority().name()));
    }
    if r.cycle_score() != a.cycle_score() {
        d.push(format!("cycle_score={}", r.cycle_score().name()));
    }
    if let Some(n) = r.move_limit() {
        d.push(format!("move_limit={n}"));
    }
    d.join(", ")
}

/// One line of a level's counts: `level 12: 1339702 boards, 712315 wins, 196942 draws,
/// 430445 losses for the mover, mean +1.3314, 0.53 s`.
fn level_line(r: &LevelReport) -> String {
    let s = r.stats;
    format!(
        "level {:>2}: {} boards, {} wins, {} draws, {} losses for the mover, mean {:+.4}, {:.2} s",
        s.seeds,
        s.boards,
        s.wins,
        s.draws,
        s.losses,
        s.mean(),
        r.times.forward + r.times.retro
    )
}

/// Refuses a build of N = `max_seeds` (one byte a board) that the game or this machine
/// cannot hold.
fn check_size(max_seeds: u32) -> Result<u64, String> {
    check_size_in(max_seeds, Encoding::Byte)
}

/// Refuses a build of N = `max_seeds` saved in `encoding` that the game or this machine
/// cannot hold (packed: the one-byte values and the packed ones at once while packing).
fn check_size_in(max_seeds: u32, encoding: Encoding) -> Result<u64, String> {
    if max_seeds > MAX_SEEDS {
        return Err(format!(
            "--max-seeds {max_seeds}: Awari has {MAX_SEEDS} seeds, so at most {MAX_SEEDS}"
        ));
    }
    let entries = entries_to(max_seeds);
    if let Some(avail) = available_memory_bytes() {
        // The values (one byte a board) and the build's work space for the top level
        // (about four bytes a board of it).
        let top = mancala_solver::awari::rank::level_len(max_seeds).unwrap_or(0);
        let packed = match encoding {
            Encoding::Byte => 0,
            Encoding::Packed => {
                let w = mancala_solver::awari::bits_per_entry(encoding, max_seeds);
                (entries * u64::from(w)).div_ceil(8) + 8
            }
        };
        let needs = (entries + 4 * top).max(entries + packed);
        if needs > avail {
            return Err(format!(
                "--max-seeds {max_seeds}: the build needs about {needs} bytes ({}), more than the {avail} bytes of memory available",
                crate::egdb::human(needs)
            ));
        }
    }
    Ok(entries)
}

/// `egdb build --rules awari --max-seeds N [--out FILE|DIR] [--threads T] [--encoding E]`,
/// and `--cache` (`max_seeds` `None`: the cache's N). Without `--out` the file goes to the
/// cache folder, where `solve --rules awari --max-seeds N` finds it (the one-byte file; a
/// packed one is named `awari.n<N>.packed.egdb` and found there by `--egdb DIR`).
///
/// # Errors
/// N above 48 or more than the memory, an output that cannot be written, no cache folder.
pub fn build(
    max_seeds: Option<u32>,
    out: Option<&Path>,
    threads: usize,
    encoding: Encoding,
) -> Result<(), String> {
    let max_seeds = max_seeds.unwrap_or(DEFAULT_MAX_SEEDS);
    let entries = check_size_in(max_seeds, encoding)?;
    let name = AwariDb::file_name_for(max_seeds, encoding);
    let (dir, path) = match out {
        Some(out) => {
            let (dir, file) = crate::egdb::out_target(out);
            let path = file.unwrap_or_else(|| dir.join(&name));
            (dir, path)
        }
        None => {
            let dir = crate::database::cache_dir().ok_or_else(|| {
                format!(
                    "no cache folder (no home folder known; set {} or give --out)",
                    crate::database::CACHE_DIR_ENV
                )
            })?;
            let path = dir.join(&name);
            (dir, path)
        }
    };
    // The folder as the user named it: `--out`, or the cache folder when none was given.
    let named = if out.is_some() {
        "--out"
    } else {
        "the cache folder"
    };
    let refused = |e: std::io::Error| {
        format!(
            "{named} {}: {}",
            mancala_core::ShortenedPath(&dir),
            crate::paths::folder_error(&dir, &e)
        )
    };
    let made = crate::egdb::make_folders(&dir).map_err(refused)?;
    // Any failure from here on removes the folders made for the file.
    let fail = |e: String| {
        crate::egdb::remove_made(&made);
        e
    };
    tempfile::Builder::new()
        .prefix(".mancala-write-check-")
        .tempfile_in(&dir)
        .map_err(|e| fail(refused(e)))?;
    if out.is_none() && encoding == Encoding::Packed {
        // The cache reads and builds one-byte files only: a packed file there is kept, but
        // only `--egdb` finds it.
        eprintln!(
            "mancala: note: the cache uses one-byte files (awari.n<N>.egdb); this packed file is found by --egdb {}, not by the cache",
            dir.display()
        );
    }
    crate::egdb::remove_saves_on_interrupt(path.clone());
    if !crate::progress::is_quiet() {
        eprintln!(
            "mancala: building the Awari database of levels 0..={max_seeds} ({entries} boards, {})",
            crate::egdb::human(entries)
        );
    }
    let t = Instant::now();
    let db = AwariDb::build_with(max_seeds, threads, |r| {
        if !crate::progress::is_quiet() {
            eprintln!("mancala: {}", level_line(r));
        }
    })
    .map_err(|e| fail(e.to_string()))?;
    let db = match encoding {
        Encoding::Byte => db,
        Encoding::Packed => db.convert(encoding).map_err(|e| fail(e.to_string()))?,
    };
    let build_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let report = db.save(&path).map_err(|e| fail(e.to_string()))?;
    crate::egdb::report_removed(&report.removed_stale);
    let what = match encoding {
        Encoding::Byte => "one byte a board".to_string(),
        Encoding::Packed => format!("packed, {} bits a board", db.bits_per_entry()),
    };
    println!(
        "built awari, levels 0..={max_seeds}, in {build_s:.2} s ({:.1} M boards/s), {entries} boards, {what}, {} bytes; saved {} in {:.2} s",
        entries as f64 / build_s.max(1e-9) / 1e6,
        payload_bytes(entries, db.bits_per_entry()),
        path.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `egdb build --rules awari --cache`: the Awari database `solve --rules awari` uses by
/// default (N = [`DEFAULT_MAX_SEEDS`]), built into the cache folder unless a good one is there
/// already ([`Cache::awari_get_or_build`]). Prints where it is.
///
/// # Errors
/// The cache turned off, no cache folder, a folder that cannot be written, no memory.
pub fn build_cache(threads: usize) -> Result<(), String> {
    if std::env::var_os(crate::database::NO_CACHE_ENV).is_some_and(|v| !v.is_empty() && v != "0") {
        return Err(format!(
            "--cache: the cache is turned off ({} is set)",
            crate::database::NO_CACHE_ENV
        ));
    }
    check_size(DEFAULT_MAX_SEEDS)?;
    let dir = crate::database::cache_dir().ok_or_else(|| {
        format!(
            "--cache: no cache folder (no home folder known; set {})",
            crate::database::CACHE_DIR_ENV
        )
    })?;
    let cache = Cache::new(&dir);
    crate::egdb::remove_saves_on_interrupt(cache.awari_path(DEFAULT_MAX_SEEDS));
    let c = cache
        .awari_get_or_build(DEFAULT_MAX_SEEDS, threads, &mut |ev| {
            if crate::progress::is_quiet() {
                return;
            }
            match ev {
                AwariCacheEvent::Refused { path, error } => eprintln!(
                    "mancala: the cached database {} is not used ({error}): building it again",
                    path.display()
                ),
                AwariCacheEvent::Building {
                    max_seeds, entries, ..
                } => eprintln!(
                    "mancala: building the Awari database of levels 0..={max_seeds} ({entries} boards, {})",
                    crate::egdb::human(entries)
                ),
                AwariCacheEvent::Level(r) => eprintln!("mancala: {}", level_line(r)),
            }
        })
        .map_err(|e| format!("--cache: {e}"))?;
    if let Some(e) = c.save_error {
        return Err(format!(
            "--cache: the database was built but could not be kept ({e})"
        ));
    }
    println!(
        "cached awari, levels 0..={}, in {}",
        c.database.max_seeds(),
        c.path.display()
    );
    Ok(())
}

/// Whether the file at `path` holds an Awari database, by its header alone; `false` when it
/// cannot be read (the Kalah path then gives the error).
pub fn is_awari_file(path: &Path) -> bool {
    matches!(game_of_file(path), Ok((mancala_core::GameKind::Oware, _)))
}

/// `egdb info FILE` of an Awari file.
///
/// # Errors
/// The header's error, naming the file.
pub fn info(file: &Path) -> Result<(), String> {
    let i = AwariDb::info(file).map_err(|e| e.in_file(file))?;
    println!("file            {}", file.display());
    println!("format version  {}", i.version);
    println!("built with      {} (Awari databases)", i.rules);
    println!(
        "max seeds (N)   {} (levels 0..={})",
        i.max_seeds, i.max_seeds
    );
    let what = match i.encoding {
        Encoding::Byte => "one byte a board, the value to the mover + 128",
        Encoding::Packed => "the value's index among −n..=n of its level n",
    };
    println!(
        "encoding        {} (header byte {}): {what}",
        i.encoding,
        i.encoding.code()
    );
    println!("bits/position   {}", i.bits_per_entry);
    println!("entries         {}", i.entries);
    println!(
        "on disk         {} bytes ({})",
        i.file_bytes,
        crate::egdb::human(i.file_bytes)
    );
    // A packed database stays packed in memory, with 8 bytes of padding.
    let memory = match i.encoding {
        Encoding::Byte => i.entries,
        Encoding::Packed => i.payload_bytes + 8,
    };
    println!(
        "in memory       {} bytes ({})",
        memory,
        crate::egdb::human(memory)
    );
    println!("payload crc32   {:08x}", i.payload_crc);
    Ok(())
}

/// What an Awari header says, on one line (`egdb info DIR`).
pub fn summary(i: &AwariInfo) -> String {
    format!(
        "awari, levels 0..={}, {} ({} bits a board), {} entries, {} on disk, built with {}",
        i.max_seeds,
        i.encoding,
        i.bits_per_entry,
        i.entries,
        crate::egdb::human(i.file_bytes),
        i.rules
    )
}

/// `egdb verify FILE` of an Awari file: opened and checked completely.
///
/// # Errors
/// The file's error, naming it.
pub fn verify(file: &Path) -> Result<(), String> {
    let t = Instant::now();
    let spinner = crate::progress::spinner(format!("checking {}", file.display()));
    let opened = AwariDb::open(file);
    if let Some(b) = spinner {
        b.finish_and_clear();
    }
    let db = opened.map_err(|e| e.in_file(file))?;
    println!(
        "{}: OK (awari, levels 0..={}, {} encoding, {} bits a board, {} entries, {} in memory; header, checksums and every entry's range checked in {:.2} s)",
        file.display(),
        db.max_seeds(),
        db.encoding(),
        db.bits_per_entry(),
        entries_to(db.max_seeds()),
        crate::egdb::human(db.bytes() as u64),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Payload bytes of `entries` boards of `bits` bits each.
fn payload_bytes(entries: u64, bits: u32) -> u64 {
    (entries * u64::from(bits)).div_ceil(8)
}

/// `egdb convert FILE --encoding E [--out DIR|FILE.egdb]` of an Awari file: read and checked
/// completely, converted, written beside it (or into `out`) as `awari.n<N>.egdb` (byte) or
/// `awari.n<N>.packed.egdb` (packed), or to `out` itself when it names a `.egdb` file.
///
/// # Errors
/// The file's error, a file already in `encoding`, not enough memory for both encodings,
/// an output folder that cannot be written.
pub fn convert(file: &Path, encoding: Encoding, out: Option<&Path>) -> Result<(), String> {
    let t = Instant::now();
    let info = AwariDb::info(file).map_err(|e| e.in_file(file))?;
    if info.encoding == encoding {
        return Err(format!(
            "{} is already {encoding}: nothing to convert",
            mancala_core::ShortenedPath(file)
        ));
    }
    let bits = mancala_solver::awari::bits_per_entry(encoding, info.max_seeds);
    let needs = info.payload_bytes + payload_bytes(info.entries, bits) + 8;
    let folder = crate::egdb::convert_folder(file, out, needs)?;
    let path = folder.path(&AwariDb::file_name_for(info.max_seeds, encoding), file)?;
    let db = AwariDb::open(file).map_err(|e| folder.undo(e.in_file(file)))?;
    crate::egdb::remove_saves_on_interrupt(path.clone());
    let converted = db
        .convert(encoding)
        .map_err(|e| folder.undo(e.in_file(file)))?;
    drop(db);
    let report = converted
        .save(&path)
        .map_err(|e| folder.undo(e.to_string()))?;
    crate::egdb::report_removed(&report.removed_stale);
    println!(
        "converted {} (awari, levels 0..={}) to {} ({} bits a board, {} bytes) in {:.2} s",
        file.display(),
        info.max_seeds,
        path.display(),
        converted.bits_per_entry(),
        payload_bytes(info.entries, converted.bits_per_entry()),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// The database for `solve`/`analyse`: `--egdb` (a file, or a folder searched for the
/// Awari file of the largest N), else an in-memory build of levels 0..=N under
/// `--no-cache`, else the cache's (N = `--max-seeds`, default [`DEFAULT_MAX_SEEDS`]), built
/// and saved first when missing. `seeds`: the position's seeds in the houses, refused
/// before any work when the database would not hold them.
fn database(args: &SolveArgs, seeds: u32) -> Result<(AwariDb, String), String> {
    choose(
        &Choice {
            egdb: args.egdb.as_deref(),
            no_cache: args.no_cache,
            max_seeds: args.max_seeds,
            threads: args.threads,
            verbose: args.verbose,
            what: "the position has",
        },
        seeds,
    )
}

/// What chooses an Awari database ([`choose`]): the options of `solve --rules awari`.
pub struct Choice<'a> {
    /// `--egdb`: a file, or a folder searched for the Awari file of the largest N.
    pub egdb: Option<&'a Path>,
    /// `--no-cache` (or the variable): build levels 0..=N in memory for this run.
    pub no_cache: bool,
    /// `--max-seeds`: N (default: the cache's [`DEFAULT_MAX_SEEDS`]; under `no_cache` the
    /// seeds asked for).
    pub max_seeds: Option<u32>,
    /// Build threads (0 = every core).
    pub threads: usize,
    /// Name the file used and the files passed over.
    pub verbose: bool,
    /// The start of the refusal of too many seeds: "the position has", "the set has a
    /// position with".
    pub what: &'a str,
}

/// The Awari database `choice` names, holding boards of `seeds` seeds in the houses (refused
/// before any work otherwise), and where it comes from (a path, or [`crate::database::NOT_KEPT`]):
/// `--egdb`, else an in-memory build under `--no-cache`, else the cache's (built and saved
/// first when missing).
///
/// # Errors
/// `--egdb`'s error, too many seeds for the database, N above 48 or the memory, the cache's
/// error.
pub fn choose(choice: &Choice<'_>, seeds: u32) -> Result<(AwariDb, String), String> {
    let what = choice.what;
    let bytes = entries_to(seeds);
    // Whether this machine can build a database that holds the position (the build's own
    // memory check, `egdb build`'s).
    let fits = check_size(seeds).is_ok();
    let size = format!("{bytes} boards, {}", crate::egdb::human(bytes));
    let cannot_build = format!(
        "a database that holds it ({size}) cannot be built in this machine's memory (docs/awari.md, \"Beyond one machine\")"
    );
    let no_room = format!("{what} {seeds} seeds in its houses; {cannot_build}");
    let too_many = |n: u32, whose: &str| {
        let more = format!(
            "{what} {seeds} seeds in its houses, more than the {n} of the largest level {whose}"
        );
        if fits {
            format!("{more}: --max-seeds {seeds} builds a database that holds it ({size})")
        } else {
            format!("{more}; {cannot_build}")
        }
    };
    if let Some(path) = choice.egdb {
        // The candidates, the largest N first: the first that opens (every entry checked) is
        // used; a damaged one is passed over, as a damaged Kalah file is.
        let (candidates, mut refused) =
            find(path, choice.verbose).map_err(|e| format!("--egdb: {e}"))?;
        let folder = path.is_dir();
        // Each refused file is named as it is passed over with --verbose; else the error
        // names them all.
        let passed = |refused: &[String]| {
            if choice.verbose {
                String::new()
            } else {
                passed_over(refused)
            }
        };
        for (info, file) in &candidates {
            if seeds > info.max_seeds {
                // A given file cannot grow: name a database that holds the position instead.
                let build = if fits {
                    format!(
                        "give a database of N >= {seeds}, e.g. `mancala egdb build --rules awari --max-seeds {seeds}`, or no --egdb"
                    )
                } else {
                    "a database that holds it cannot be built in this machine's memory".to_owned()
                };
                return Err(format!(
                    "{what} {seeds} seeds in its houses, more than the {} of the largest level of {}: the file holds boards of at most {} seeds ({build}){}",
                    info.max_seeds,
                    mancala_core::ShortenedPath(file),
                    info.max_seeds,
                    passed(&refused)
                ));
            }
            match AwariDb::open(file) {
                Ok(db) => {
                    if choice.verbose {
                        eprintln!("mancala: egdb: using {}", file.display());
                    }
                    return Ok((db, file.display().to_string()));
                }
                Err(e) => {
                    if choice.verbose && folder {
                        eprintln!(
                            "mancala: egdb: skipped {}: {}",
                            mancala_core::ShortenedPath(file),
                            strip(file, &e)
                        );
                    }
                    refused.push(e.in_file(file));
                }
            }
        }
        return Err(format!(
            "--egdb: {}",
            if folder {
                format!(
                    "no usable Awari database in {}{}",
                    mancala_core::ShortenedPath(path),
                    passed(&refused)
                )
            } else {
                refused.join("; ")
            }
        ));
    }
    let cache_off = choice.no_cache
        || std::env::var_os(crate::database::NO_CACHE_ENV)
            .is_some_and(|v| !v.is_empty() && v != "0");
    if cache_off {
        let n = choice.max_seeds.unwrap_or(seeds);
        if seeds > n {
            return Err(too_many(n, "asked for (--max-seeds)"));
        }
        if choice.max_seeds.is_none() && !fits {
            // N is the position's seeds, not an option the user gave: said of the position.
            return Err(no_room);
        }
        check_size(n)?;
        if !crate::progress::is_quiet() {
            eprintln!(
                "mancala: building the Awari database of levels 0..={n} in memory for this run (--no-cache: nothing is kept)"
            );
        }
        let db = AwariDb::build(n, choice.threads).map_err(|e| e.to_string())?;
        return Ok((db, crate::database::NOT_KEPT.to_string()));
    }
    let n = choice.max_seeds.unwrap_or(DEFAULT_MAX_SEEDS);
    if seeds > n {
        return Err(too_many(
            n,
            if choice.max_seeds.is_some() {
                "asked for (--max-seeds)"
            } else {
                "the cache builds by default"
            },
        ));
    }
    check_size(n)?;
    let dir = crate::database::cache_dir().ok_or_else(|| {
        format!(
            "no cache folder (no home folder known; set {} or give --egdb, or --no-cache)",
            crate::database::CACHE_DIR_ENV
        )
    })?;
    let cache = Cache::new(&dir);
    crate::egdb::remove_saves_on_interrupt(cache.awari_path(n));
    let mut bar = None;
    let mut done = 0u64;
    let t = Instant::now();
    let mut reading = crate::database::reading_spinner(&cache.awari_path(n));
    let result = cache.awari_get_or_build(n, choice.threads, &mut |ev| {
        if let Some(s) = reading.take() {
            s.finish_and_clear();
        }
        match ev {
        AwariCacheEvent::Refused { path, error } => eprintln!(
            "mancala: the cached database {} is not used ({}): building it again",
            path.display(),
            error
        ),
        AwariCacheEvent::Building {
            path,
            max_seeds,
            entries,
        } => {
            if !crate::progress::is_quiet() {
                eprintln!(
                    "mancala: building the Awari database (levels 0..={max_seeds}, {}), once: it is kept in {} for the next runs (--no-cache: none)",
                    crate::egdb::human(entries),
                    path.display()
                );
            }
            bar = crate::progress::bar(entries);
        }
        AwariCacheEvent::Level(r) => {
            done += r.stats.boards;
            match &bar {
                Some(b) => {
                    b.set_position(done);
                    crate::progress::set_message(
                        b,
                        &crate::progress::build_line(
                            done,
                            b.length().unwrap_or(done),
                            t.elapsed().as_secs_f64(),
                        ),
                    );
                }
                None if choice.verbose => eprintln!("mancala: {}", level_line(r)),
                None => {}
            }
        }
        }
    });
    for b in bar.iter().chain(&reading) {
        b.finish_and_clear();
    }
    let c = match result {
        Ok(c) => c,
        // A cache folder that cannot be made or written: said in one line, and the database
        // built in memory for this run, as the cache does when only the save fails.
        Err(e @ EgdbError::Io { .. }) => {
            eprintln!(
                "mancala: warning: the Awari database cache cannot be used ({e}); building levels 0..={n} in memory for this run"
            );
            let db = AwariDb::build(n, choice.threads).map_err(|e| e.to_string())?;
            return Ok((db, crate::database::NOT_KEPT.to_string()));
        }
        Err(e) => {
            return Err(format!(
                "cannot use the endgame database cache ({e}); --egdb FILE or --no-cache answer without it"
            ))
        }
    };
    crate::egdb::report_removed(&c.removed_stale);
    if let Some(e) = &c.save_error {
        eprintln!(
            "mancala: warning: the Awari database could not be kept in the cache ({e}); it is used this time and built again next time"
        );
    }
    let source = if c.save_error.is_some() {
        crate::database::NOT_KEPT.to_string()
    } else {
        c.path.display().to_string()
    };
    if choice.verbose {
        eprintln!(
            "mancala: egdb: using {source} (awari, levels 0..={n}, {})",
            if c.built { "just built" } else { "cached" }
        );
    }
    Ok((c.database, source))
}

/// `--egdb PATH` for Awari: the file itself, or in a folder every Awari file (by header) whose
/// header checks, the largest N first (the first that opens is used), and every other
/// `*.egdb` file of the folder with its reason (named as it is passed over when `verbose`).
///
/// # Errors
/// The file's header error; a folder that cannot be read or holds no Awari file whose
/// header checks (naming each file passed over).
#[allow(clippy::type_complexity)]
fn find(path: &Path, verbose: bool) -> Result<(Vec<(AwariInfo, PathBuf)>, Vec<String>), String> {
    if !path.is_dir() {
        return AwariDb::info(path)
            .map(|i| (vec![(i, path.to_path_buf())], Vec::new()))
            .map_err(|e| e.in_file(path));
    }
    let list = std::fs::read_dir(path)
        .map_err(|e| format!("{}: {e}", mancala_core::ShortenedPath(path)))?;
    let mut files: Vec<PathBuf> = list
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("egdb"))
        .collect();
    files.sort();
    let mut found: Vec<(AwariInfo, PathBuf)> = Vec::new();
    let mut refused = Vec::new();
    for p in files {
        match AwariDb::info(&p) {
            Ok(i) => found.push((i, p)),
            Err(e) => {
                if verbose {
                    eprintln!("mancala: egdb: skipped {}: {}", p.display(), strip(&p, &e));
                }
                refused.push(e.in_file(&p));
            }
        }
    }
    // The largest N first; of equal N, the first name.
    found.sort_by(|a, b| {
        b.0.max_seeds
            .cmp(&a.0.max_seeds)
            .then_with(|| a.1.cmp(&b.1))
    });
    if found.is_empty() {
        return Err(format!(
            "no Awari database in {} (build one with `mancala egdb build --rules awari --max-seeds N --out {}`){}",
            mancala_core::ShortenedPath(path),
            mancala_core::ShortenedPath(path),
            if verbose { String::new() } else { passed_over(&refused) }
        ));
    }
    Ok((found, refused))
}

/// `; passed over: …` naming each refused file with its reason, or nothing.
fn passed_over(refused: &[String]) -> String {
    if refused.is_empty() {
        String::new()
    } else {
        format!("; passed over: {}", refused.join("; "))
    }
}

/// The text of `e` without `path: ` in front.
fn strip(path: &Path, e: &EgdbError) -> String {
    let msg = e.to_string();
    let shown = format!("{}: ", mancala_core::ShortenedPath(path));
    msg.strip_prefix(&shown).map_or(msg.clone(), str::to_string)
}

/// The answer for one position: what `solve` and `analyse` print.
struct Answer {
    /// The value to the mover: future captures minus the opponent's (OW-10.3).
    value: i32,
    /// The seeds the mover has captured minus the opponent's so far (the stores).
    captured: i32,
    /// Each legal move (house number, the mover's) with its value to the mover.
    moves: Vec<(u8, i32)>,
}

/// `mancala solve --rules awari` (`analyse` false) and `mancala analyse --rules awari`.
///
/// # Errors
/// A bad position, a position with more seeds than the database holds, a database that
/// cannot be had (`--egdb`'s error, the cache's), `--max-seeds` above 48.
pub fn run(args: &SolveArgs, rules: OwareRules, analyse: bool) -> Result<(), String> {
    let pos = crate::rules_arg::position_as::<OwarePosition>(
        "--position",
        rules,
        args.position.as_deref(),
    )?;
    let Some(mover) = pos.side_to_move() else {
        return over(args, &pos, analyse);
    };
    let seeds = pos.seeds_in_houses();
    let board = mover_first(&pos);
    let board = AwariBoard::new(board).map_err(|e| format!("--position: {e}"))?;
    let (db, source) = database(args, seeds)?;
    let value = db.value(&board).map_err(|e| e.to_string())?;
    let moves = db
        .move_values(&board)
        .map_err(|e| e.to_string())?
        .iter()
        .map(|(m, v)| (m.house, *v))
        .collect();
    let captured = i32::from(pos.store(mover)) - i32::from(pos.store(mover.opponent()));
    let a = Answer {
        value,
        captured,
        moves,
    };
    print(args, &pos, &a, &source, db.max_seeds(), analyse);
    Ok(())
}

/// The twelve houses of `pos` mover first: the mover's houses 1..6, then the opponent's
/// houses 1..6 (the order of `AwariBoard`, OW-10.4).
fn mover_first(pos: &OwarePosition) -> [u8; 12] {
    let bits = pos.mover_relative();
    std::array::from_fn(|i| (bits >> (8 * i)) as u8)
}

/// A finished game: no database needed, the score is the final one.
fn over(args: &SolveArgs, pos: &OwarePosition, analyse: bool) -> Result<(), String> {
    let score = pos.outcome().map_or(0, |o| o.score);
    if args.json {
        let out = serde_json::json!({
            "rules": pos.rules().to_string(),
            "position": pos.to_string(),
            "database": null,
            "max_seeds": null,
            "exact": true,
            "value": 0,
            "lower": 0,
            "upper": 0,
            "score": score,
            // South's captured seeds minus North's (no one is to move).
            "captured": i32::from(pos.store(Side::South)) - i32::from(pos.store(Side::North)),
            "best_moves": [],
            "moves": [],
        });
        println!("{out}");
        return Ok(());
    }
    println!("rules       {}", pos.rules());
    println!("position    {pos}");
    if analyse {
        println!("note        the game is over: no move to value");
    } else {
        println!("value       +0 (the game is over)");
    }
    println!("score       {score:+} (the game is over: final margin of South)");
    Ok(())
}

/// The database line: `FILE (levels 0..=N)`, or `built in memory for this run (levels
/// 0..=N, not kept)`.
fn source_text(source: &str, max_seeds: u32) -> String {
    if source == crate::database::NOT_KEPT {
        format!("built in memory for this run (levels 0..={max_seeds}, not kept)")
    } else {
        format!("{source} (levels 0..={max_seeds})")
    }
}

fn print(
    args: &SolveArgs,
    pos: &OwarePosition,
    a: &Answer,
    source: &str,
    max_seeds: u32,
    analyse: bool,
) {
    let best = a.moves.iter().map(|m| m.1).max();
    let best_moves: Vec<String> = a
        .moves
        .iter()
        .filter(|m| Some(m.1) == best)
        .map(|m| m.0.to_string())
        .collect();
    if args.json {
        let moves: Vec<_> = a
            .moves
            .iter()
            .map(|(h, v)| {
                serde_json::json!({
                    "move": h.to_string(),
                    "value": v,
                    "score": a.captured + v,
                    "lower": v,
                    "upper": v,
                    "exact": true,
                })
            })
            .collect();
        let out = serde_json::json!({
            "rules": pos.rules().to_string(),
            "position": pos.to_string(),
            "database": source,
            "max_seeds": max_seeds,
            "exact": true,
            "value": a.value,
            "lower": a.value,
            "upper": a.value,
            "score": a.captured + a.value,
            "captured": a.captured,
            "best_moves": best_moves,
            "moves": moves,
        });
        println!("{out}");
        return;
    }
    let mover = match pos.side_to_move() {
        Some(Side::South) => "South",
        _ => "North",
    };
    if analyse {
        println!("rules     {}", pos.rules());
        println!("position  {pos}");
        println!("database  {}", source_text(source, max_seeds));
        for (h, v) in &a.moves {
            if a.captured == 0 {
                println!("move {h:>4}  {v:+}");
            } else {
                println!("move {h:>4}  {v:+} (final margin {:+})", a.captured + v);
            }
        }
        return;
    }
    println!("rules       {}", pos.rules());
    println!("position    {pos}");
    println!("database    {}", source_text(source, max_seeds));
    println!("to move     {mover}");
    println!(
        "value       {:+} (from here: the mover's future captures minus the opponent's, the seeds left at the end included)",
        a.value
    );
    println!(
        "score       {:+} (final margin of the player to move: {:+} captured so far, then {:+})",
        a.captured + a.value,
        a.captured,
        a.value
    );
    println!("best moves  {}", best_moves.join(" "));
    let moves: Vec<String> = a.moves.iter().map(|(h, v)| format!("{h}:{v:+}")).collect();
    println!("moves       {}", moves.join(" "));
}
