//! The Oware databases on the command line (`--rules awari`, `--rules
//! "oware+majority=off+cycle_score=split"` and every rule set whose values they hold):
//! `egdb build` and `egdb info` of an Oware database file (verify and convert are the
//! generic ones of `crate::egdb`), and
//! `solve`/`analyse`, which answer every position with at most N seeds in the houses exactly
//! from the database, each legal move with its value (`docs/awari.md`). Which database is
//! used is the library's policy (`crate::database::choose_for`).

use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use mancala_core::oware::{GrandSlam, OwarePosition, OwareRules};
use mancala_core::Side;
use mancala_solver::awari::{AwariDb, AwariInfo, LevelReport, DEFAULT_MAX_SEEDS};
use mancala_solver::egdb::{build_fits, game_of_file, Build, Database, Encoding};
use mancala_solver::{ExactValues, Source};

use crate::solve_args::SolveArgs;

/// One line of a level's counts and its time: `level 12: 1339702 boards, 712315 wins,
/// 196942 draws, 430445 losses for the mover, mean +1.3314, 0.53 s`.
fn level_line(r: &LevelReport) -> String {
    format!("{}, {:.2} s", r.stats, r.times.forward + r.times.retro)
}

/// What messages call the database of the grand-slam rule `g`: `the Awari database` for
/// `unless_only`, `the Oware database of awari+grand_slam=none` for the others.
fn db_name(g: GrandSlam) -> String {
    <AwariDb as Database>::a_kind_of(&OwareRules::AWARI.with_grand_slam(g))
}

/// Refuses a build of N = `max_seeds` of the database of `rules` saved in `encoding` that
/// the game or this machine cannot hold (packed: the one-byte values and the packed ones at
/// once while packing); else the boards it holds.
fn check_size_in(rules: &OwareRules, max_seeds: u32, encoding: Encoding) -> Result<u64, String> {
    let db_rules = AwariDb::rules_of(rules.grand_slam());
    build_fits::<AwariDb>(&db_rules, max_seeds, encoding)
        .map_err(|e| crate::database::build_refusal::<AwariDb>(&db_rules, &e))?;
    Ok(mancala_solver::awari::entries_to(max_seeds))
}

/// `egdb build --rules RULES --max-seeds N [--out FILE|DIR] [--threads T] [--encoding E]`
/// for an Oware rule set `rules` whose values a database holds (the database of its
/// grand-slam rule), and `--cache` (`max_seeds` `None`: the cache's N). Without `--out` the
/// one-byte file goes to the cache folder, where `solve --rules RULES --max-seeds N` finds
/// it; another encoding needs `--out` (the cache's lookups read one-byte files only).
///
/// An existing file at `--out` that holds another database or none is refused unless
/// `force` (`crate::saves::check_overwrite`); in the cache folder it is built again.
///
/// # Errors
/// `encoding` other than byte without `out`, N above 48 or more than the memory, an output
/// that cannot be written, no cache folder, an output file that holds something else
/// (without `force`).
pub fn build(
    rules: &OwareRules,
    max_seeds: Option<u32>,
    out: Option<&Path>,
    threads: usize,
    encoding: Encoding,
    force: bool,
) -> Result<(), String> {
    let max_seeds = max_seeds.unwrap_or(DEFAULT_MAX_SEEDS);
    let g = rules.grand_slam();
    // N and the memory first: a refusal of the encoding below names the file of this N.
    let entries = check_size_in(rules, max_seeds, encoding)?;
    if out.is_none() && encoding != Encoding::Byte {
        // The cache's lookups read the one-byte file of N only: a file of another encoding
        // saved there would never be read by them, and the cache would build the one-byte
        // file beside it.
        return Err(format!(
            "--encoding {encoding} without --out: the cache folder keeps one-byte databases only ({}), the only files its lookups read; give --out DIR for a {encoding} file (--egdb DIR then finds it), or leave out --encoding",
            AwariDb::file_name_under(g, max_seeds, Encoding::Byte)
        ));
    }
    let name = AwariDb::file_name_under(g, max_seeds, encoding);
    let (dir, path) = match out {
        Some(out) => {
            let (dir, file) = crate::saves::out_target(out);
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
    let writing = crate::saves::Writing::of::<AwariDb>(rules, max_seeds, encoding);
    let force = force || out.is_none();
    // The folder as the user named it: `--out`, or the cache folder when none was given.
    let refused = |e: std::io::Error| match out {
        Some(given) => crate::paths::out_error(given, &dir, &e),
        None => format!(
            "the cache folder {}: {}",
            mancala_core::ShortenedPath(&dir),
            crate::paths::folder_error(&dir, &e)
        ),
    };
    let made = crate::saves::make_folders(&dir).map_err(refused)?;
    // Any failure from here on removes the folders made for the file.
    let fail = |e: String| {
        crate::saves::remove_made(&made);
        e
    };
    mancala_solver::egdb::probe_folder(&dir).map_err(|e| fail(refused(e)))?;
    // A file at `--out` that holds another database is refused before the build (once the
    // folder is known to take a file: only then can `--force` help), and again before the
    // save (it may have appeared meanwhile). The cache folder is the cache's: a file there
    // that cannot be used is built again, as the cache does.
    crate::saves::check_overwrite(&path, &writing, force).map_err(fail)?;
    crate::saves::remove_saves_on_interrupt(path.clone());
    if !crate::progress::is_quiet() {
        crate::progress::note(format_args!(
            "mancala: building {} of levels 0..={max_seeds} ({}, {})",
            db_name(g),
            mancala_core::words::count(entries, "board", "boards"),
            crate::saves::human(entries)
        ));
    }
    let t = Instant::now();
    let db = AwariDb::build_until_under(g, max_seeds, threads, |r| {
        if !crate::progress::is_quiet() {
            crate::progress::note(format_args!("mancala: {}", level_line(r)));
        }
        true
    })
    .map_err(|e| fail(e.to_string()))?;
    let db = match encoding {
        Encoding::Byte => db,
        Encoding::Packed | Encoding::Compact => {
            db.convert(encoding).map_err(|e| fail(e.to_string()))?
        }
    };
    let build_s = t.elapsed().as_secs_f64();
    crate::saves::check_overwrite(&path, &writing, force).map_err(fail)?;
    let t = Instant::now();
    let report = db
        .save_checked(&path, force)
        .map_err(|e| fail(crate::saves::save_error(&path, &writing, &e)))?;
    crate::saves::report_removed(&report.removed_stale);
    let what = match encoding {
        Encoding::Byte => "one byte a board".to_string(),
        Encoding::Packed => format!("packed, {} bits a board", db.bits_per_entry()),
        Encoding::Compact => format!(
            "compact, {} bits a board",
            crate::saves::bits_text(encoding, db.average_bits())
        ),
    };
    println!(
        "built {}, levels 0..={max_seeds}, in {build_s:.2} s ({:.1} M boards/s), {}, {what}, {}; saved {} in {:.2} s",
        db.rules(),
        entries as f64 / build_s.max(1e-9) / 1e6,
        mancala_core::words::count(entries, "board", "boards"),
        crate::saves::size_text(&db),
        path.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// Whether the file at `path` holds an Oware database, by its header alone; `false` when it
/// cannot be read (the Kalah path then gives the error).
pub fn is_awari_file(path: &Path) -> bool {
    matches!(game_of_file(path), Ok((mancala_core::GameKind::Oware, _)))
}

/// `egdb info FILE` of an Oware database file.
///
/// # Errors
/// The header's error, naming the file.
pub fn info(file: &Path) -> Result<(), String> {
    let i = AwariDb::info(file).map_err(|e| e.about(file).to_string())?;
    println!("file            {}", file.display());
    println!("format version  {}", i.version);
    match i.grand_slam {
        GrandSlam::UnlessOnly => println!("built with      {} (Awari databases)", i.rules),
        g => println!(
            "built with      {} (Oware databases, grand_slam={})",
            i.rules,
            g.name()
        ),
    }
    println!(
        "max seeds (N)   {} (levels 0..={})",
        i.max_seeds, i.max_seeds
    );
    let what = match i.encoding {
        Encoding::Byte => "one byte a board, the value to the mover + 128",
        Encoding::Packed => "the value's index among −n..=n of its level n",
        Encoding::Compact => "blocks of 128 boards, Huffman codes chosen by two neighbours' values",
    };
    println!(
        "encoding        {} (header byte {}): {what}",
        i.encoding,
        i.encoding.code()
    );
    let bits = crate::saves::bits_text(i.encoding, i.average_bits());
    match i.encoding {
        Encoding::Compact => {
            println!("bits/position   {bits} (the payload's bits over the boards)");
        }
        _ => println!("bits/position   {bits}"),
    }
    println!("entries         {}", i.entries);
    println!(
        "on disk         {} ({})",
        mancala_core::words::count(i.file_bytes, "byte", "bytes"),
        crate::saves::human(i.file_bytes)
    );
    // A packed or compact database stays so in memory, with 8 bytes of padding (and the
    // decoders of a compact one's code tables): what `egdb verify` gives once it is opened.
    let memory = i.memory_bytes;
    println!(
        "in memory       {} ({})",
        mancala_core::words::count(memory, "byte", "bytes"),
        crate::saves::human(memory)
    );
    println!("payload crc32   {:08x}", i.payload_crc);
    Ok(())
}

/// What an Oware database header says, on one line (`egdb info DIR`).
pub fn summary(i: &AwariInfo) -> String {
    format!(
        "{}, levels 0..={}, {} ({} bits a board), {}, {} on disk, built with {}",
        i.rules,
        i.max_seeds,
        i.encoding,
        crate::saves::bits_text(i.encoding, i.average_bits()),
        mancala_core::words::count(i.entries, "entry", "entries"),
        crate::saves::human(i.file_bytes),
        i.rules
    )
}

/// The Oware database (of the grand-slam rule of `rules`) for `solve`/`analyse --rules
/// RULES` and `grade` on Oware positions of `rules` holding boards of `seeds` seeds in the houses (refused before any work
/// otherwise): `choice`'s `--egdb` (a file, or a folder searched for the Awari file of the
/// largest N), else the cache's (N = `--max-seeds`, default [`DEFAULT_MAX_SEEDS`]; a larger
/// one already cached serves), built and saved first when missing, else under `--no-cache`
/// levels 0..=N built in memory for this run; and where it comes from.
///
/// # Errors
/// `--egdb`'s error, too many seeds for the database, N above 48 or the memory, the cache's
/// error.
pub fn database(
    rules: &OwareRules,
    choice: &crate::database::Choice<'_>,
) -> Result<(Arc<AwariDb>, Source), String> {
    let choice = crate::database::Choice {
        build: Build::Always,
        ..*choice
    };
    crate::database::choose_for::<AwariDb>(rules, &choice)?
        .ok_or_else(|| format!("no Oware database holds the values of {rules}"))
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
/// cannot be had (`--egdb`'s error, the cache's), `--max-seeds` above 48; `--max-nodes` or
/// `--max-seconds` (a budget the database's answer could not keep).
pub fn run(args: &SolveArgs, rules: OwareRules, analyse: bool) -> Result<(), String> {
    // The values come from a database read or built whole, not from a search that a budget
    // could stop: a budget given here could not be kept, so it is refused, not ignored.
    if let Some(n) = args.max_nodes {
        return Err(format!(
            "--max-nodes {n}: for Kalah solves only (the Oware databases answer from a database read or built whole; --max-seeds bounds its size)"
        ));
    }
    if let Some(s) = args.max_seconds {
        return Err(format!(
            "--max-seconds {s}: for Kalah solves only (the Oware databases answer from a database read or built whole; --max-seeds bounds its size)"
        ));
    }
    let pos = crate::rules_arg::position_as::<OwarePosition>(
        "--position",
        rules,
        args.position.as_deref(),
    )?;
    let Some(mover) = pos.side_to_move() else {
        return over(args, &pos, analyse);
    };
    let choice = crate::database::Choice {
        egdb: args.egdb.as_deref(),
        no_cache: args.no_cache,
        max_seeds: args.max_seeds,
        seeds: pos.seeds_in_houses(),
        build: Build::Always,
        threads: args.threads,
        verbose: args.verbose,
        what: "the position has",
        cache_asked: false,
        cancel: None,
        note_missing: true,
    };
    let (db, source) = database(&rules, &choice)?;
    let value = db.value_of(&pos).map_err(|e| e.to_string())?;
    let moves = db
        .move_values_of(&pos)
        .map_err(|e| e.to_string())?
        .into_iter()
        .map(|(m, v)| (m.0, v))
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
pub fn source_text(source: &Source, max_seeds: u32) -> String {
    mancala_bench::grade::oware::database_line(source.path(), max_seeds)
}

fn print(
    args: &SolveArgs,
    pos: &OwarePosition,
    a: &Answer,
    source: &Source,
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
            "database": source.to_string(),
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
