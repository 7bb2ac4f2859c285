//! `mancala egdb build|info|verify|convert`: endgame databases (Kalah's, and Awari's through
//! `crate::awari`).

use mancala_core::ShortenedPath;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use crate::rules_arg::{exact_rules, ExactRules};
use crate::saves::{
    bits_text, check_overwrite, convert_folder, human, make_folders, out_target, remove_made,
    Writing,
};
use clap::builder::{PossibleValuesParser, TypedValueParser};
use clap::{Args, Subcommand};
use mancala_solver::awari::AwariDb;
use mancala_solver::egdb::{Database, DatabaseInfo, Encoding};
use mancala_solver::{BuildOptions, Egdb, EgdbInfo};

/// `mancala egdb …`.
#[derive(Args, Debug)]
pub struct EgdbArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: EgdbCommand,
}

/// The database subcommands.
#[derive(Subcommand, Debug)]
pub enum EgdbCommand {
    /// Build the database of every position with at most K seeds in the houses (Kalah), or
    /// of every board with at most N seeds (--rules awari).
    #[command(after_help = "\
Examples:
  mancala egdb build --rules standard --max-seeds 16 --out egdb/
  mancala egdb build --rules awari --max-seeds 18 --out egdb/
  mancala egdb build --rules awari --max-seeds 20
  mancala egdb build --rules \"oware+majority=off+cycle_score=split\" --max-seeds 24
  mancala egdb build --rules \"kalah(6,4)+empty_capture\" --max-seeds 20 --out egdb/ --threads 2
  mancala egdb build --rules standard --max-seeds 24 --encoding packed --out egdb/
  mancala egdb build --rules standard --max-seeds 12 --out small.egdb
  mancala egdb build --rules manchester --cache
One database serves every seed count n of the same house count m and capture and end rules.
--encoding byte (the default) stores one byte a position, the fastest to look up; packed
stores 5 bits a position for K = 15..30 (m = 6, K = 30: 6.4 GiB instead of 10.3 GiB), is
built layer by layer (the finished layers packed, the one under construction one byte a
position), and is named kalah6.k30.packed.egdb.
--rules awari builds the Awari database of levels 0..=N (N = --max-seeds, at most 48; one
byte a board, named awari.n<N>.egdb), printing each level's wins, draws and losses for the
mover on standard error; without --out it goes to the cache folder, where `solve --rules
awari --max-seeds N` finds it. N = 18: 84 MB; N = 20: 216 MB, about 80 s of CPU. With
--encoding packed it is saved with the value's index among -n..n of its level n in 6 bits a
board for N = 16..31 (7 from N = 32), named awari.n<N>.packed.egdb (N = 20: 162 MB; N = 30:
6.8 GiB instead of 9.1 GiB), and a packed file stays packed in memory when it is read;
packed and compact need --out (the cache keeps one-byte files only), and --egdb finds them.
Every Oware rule set with majority=off and cycle_score=split has its database, one a
grand-slam rule: --rules \"oware+majority=off+cycle_score=split\" (Abapa without the majority
end, cycles split: grand_slam=none) builds awari+grand_slam=none.n<N>.egdb, and likewise
grand_slam=all, forbidden and leave_last; each file names its rule set in its header and
serves only that rule set's positions.")]
    Build {
        /// Rule set (its m and capture/end options decide the database).
        #[arg(long)]
        rules: String,
        /// K, the largest number of seeds in the houses (0..=127; with --cache, the
        /// cache's own K).
        #[arg(long, value_parser = crate::ranges::max_seeds(), required_unless_present = "cache", conflicts_with = "cache")]
        max_seeds: Option<u32>,
        /// Output folder (created if missing; the file is named after the rules and K), or
        /// the file itself when the path ends in `.egdb` (not `.egdb/`) and is not a folder.
        /// Required for Kalah; for `--rules awari` the default is the cache folder (where
        /// `solve --rules awari --max-seeds N` finds it).
        #[arg(long, conflicts_with = "cache")]
        out: Option<PathBuf>,
        /// Build the database the commands use by default (`solve`, `bestmove`, `play
        /// --engine`) into the cache folder, under the cache's K, unless it is there already.
        #[arg(long, conflicts_with = "encoding")]
        cache: bool,
        /// Build threads (0 = every core; at most 1024; more than the processors is warned about).
        #[arg(long, default_value_t = 0, value_parser = crate::ranges::threads_or_all())]
        threads: usize,
        /// Entry encoding: byte (one byte a position) or packed (the fewest bits that hold
        /// every value up to K: 5 bits a position for m = 6 and K = 15..30; `egdb info`
        /// prints a file's); for the Oware databases also compact (blocks of Huffman codes,
        /// about 3.3 bits a board at N = 20..=24).
        #[arg(long, default_value = "byte", value_parser = PossibleValuesParser::new(Encoding::NAMES).try_map(|s| s.parse::<Encoding>()))]
        encoding: Encoding,
        /// Write over an existing file at --out that holds something else (another
        /// database, or no database); without it such a file is refused, while a file of the
        /// same database (game, rules, K or N, encoding) is replaced. Without --out (an
        /// Oware database, or --cache) the database goes to the cache folder, whose file of
        /// it is always written over: --force is accepted there and changes nothing.
        #[arg(long)]
        force: bool,
    },
    /// Write a database file (Kalah or Awari) again in the other entry encoding (every value
    /// the same).
    #[command(after_help = "\
Examples:
  mancala egdb convert egdb/kalah6.k26.egdb --encoding packed
  mancala egdb convert egdb/kalah6.k26.packed.egdb --encoding byte --out other/
  mancala egdb convert egdb/awari.n24.egdb --encoding packed
  mancala egdb convert egdb/awari.n24.egdb --encoding compact
The file is read and checked completely first; the new one is written beside it (or into
--out) under the name of its encoding: kalah6.k26.egdb for byte, kalah6.k26.packed.egdb for
packed (awari.n24.egdb, awari.n24.packed.egdb, awari.n24.compact.egdb; compact is for the
Oware databases only). Both encodings are in memory at once while converting.")]
    Convert {
        /// The database file.
        file: PathBuf,
        /// The encoding to write: byte, packed, or compact (Oware databases only).
        #[arg(long, value_parser = PossibleValuesParser::new(Encoding::NAMES).try_map(|s| s.parse::<Encoding>()))]
        encoding: Encoding,
        /// Output folder (created if missing; default: the folder of the file; the new file
        /// is named after the rules, K or N, and the encoding), or the file itself when the
        /// path ends in `.egdb` (not `.egdb/`) and is not a folder (as for `egdb build`).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write over an existing file at the output that holds something else (another
        /// database, or no database); without it such a file is refused, while a file of the
        /// same database in the same encoding is replaced.
        #[arg(long)]
        force: bool,
    },
    /// Print the header of a database file, Kalah or Awari (the entries are not read: `egdb
    /// verify` checks them), or of every `*.egdb` file in a folder, each checked whole as `solve` would load
    /// it (with the reason a file is unusable); a folder with no usable file is an error.
    #[command(after_help = "\
Examples:
  mancala egdb info egdb/kalah6.k16.egdb
  mancala egdb info egdb/")]
    Info {
        /// The database file, or a folder of them.
        file: PathBuf,
    },
    /// Check a database file (Kalah or Awari) completely, reading it once: header, size,
    /// checksums, every entry's range; prints its encoding, bits a position and entries.
    #[command(after_help = "\
Examples:
  mancala egdb verify egdb/kalah6.k16.egdb")]
    Verify {
        /// The database file.
        file: PathBuf,
    },
}

/// Runs an `egdb` subcommand.
///
/// # Errors
/// A message for a bad rule set, an I/O error, or a damaged or refused file.
pub fn run(args: EgdbArgs) -> Result<(), String> {
    match args.command {
        EgdbCommand::Build {
            rules,
            max_seeds,
            out,
            cache,
            threads,
            encoding,
            force,
        } => {
            crate::ranges::warn_if_oversubscribed(threads);
            let rules = match exact_rules(&rules, "endgame databases are")? {
                ExactRules::Oware(awari) if cache => {
                    return crate::database::build_cache::<AwariDb>(&awari, threads);
                }
                ExactRules::Oware(awari) => {
                    return crate::awari::build(
                        &awari,
                        max_seeds,
                        out.as_deref(),
                        threads,
                        encoding,
                        force,
                    );
                }
                ExactRules::Kalah(rules) => rules,
            };
            match (max_seeds, out) {
                (Some(max_seeds), Some(out)) if !cache => {
                    build(&rules, max_seeds, &out, threads, encoding, force)
                }
                (Some(_), None) if !cache => Err(
                    "--out is required for a Kalah database (a folder, or a file ending in .egdb), or --cache (see `mancala egdb build --help`)"
                        .into(),
                ),
                _ => crate::database::build_cache::<Egdb>(&rules, threads),
            }
        }
        EgdbCommand::Convert {
            file,
            encoding,
            out,
            force,
        } if crate::awari::is_awari_file(&file) => {
            convert::<AwariDb>(&file, encoding, out.as_deref(), force)
        }
        EgdbCommand::Convert {
            file,
            encoding,
            out,
            force,
        } => convert::<Egdb>(&file, encoding, out.as_deref(), force),
        EgdbCommand::Info { file } if file.is_dir() => info_folder(&file),
        EgdbCommand::Info { file } if crate::awari::is_awari_file(&file) => {
            crate::awari::info(&file)
        }
        EgdbCommand::Verify { file } if crate::awari::is_awari_file(&file) => {
            verify::<AwariDb>(&file)
        }
        EgdbCommand::Info { file } => {
            let i = Egdb::info(&file).map_err(|e| e.about(&file).to_string())?;
            println!("file            {}", file.display());
            println!("format version  {}", i.version);
            println!("built with      {}", i.rules);
            println!("houses (m)      {}", i.houses);
            println!("max seeds (K)   {}", i.max_seeds);
            let opts: Vec<&str> = i.options.iter().map(|o| o.name()).collect();
            let opts = if opts.is_empty() {
                "none".to_string()
            } else {
                opts.join("+")
            };
            println!("options         {opts}");
            let what = match i.encoding() {
                Encoding::Byte => "one byte a position, the value + 128",
                Encoding::Packed => "the value's index among those its layer allows",
                // A Kalah header of the compact encoding is refused when it is read.
                Encoding::Compact => "compact (Oware databases only)",
            };
            println!(
                "encoding        {} (header byte {}): {what}",
                i.encoding(),
                i.encoding
            );
            println!("bits/position   {}", i.bits_per_entry);
            println!("entries         {}", i.entries);
            println!(
                "on disk         {} ({})",
                mancala_core::words::count(i.file_bytes, "byte", "bytes"),
                human(i.file_bytes)
            );
            println!(
                "in memory       {} ({})",
                mancala_core::words::count(i.memory_bytes, "byte", "bytes"),
                human(i.memory_bytes)
            );
            println!("payload crc32   {:08x}", i.payload_crc);
            Ok(())
        }
        EgdbCommand::Verify { file } => verify::<Egdb>(&file),
    }
}

/// `egdb verify FILE`: the file opened as a database `D`, which checks everything verify
/// promises (header, size, both checksums, every entry's range), reading the file and
/// checking each entry once.
///
/// # Errors
/// The file's error, naming it.
fn verify<D: Database>(file: &std::path::Path) -> Result<(), String> {
    let t = Instant::now();
    let spinner = crate::progress::spinner(format!("checking {}", file.display()));
    let opened = D::open(file);
    if let Some(b) = spinner {
        b.finish_and_clear();
    }
    let db = opened.map_err(|e| e.about(file).to_string())?;
    let bits = bits_text(db.encoding(), db.average_bits());
    println!(
        "{}: OK ({}, {} encoding, {bits} bits a {}, {}, {} in memory; header, checksums and every entry's range checked in {:.2} s)",
        file.display(),
        db.describe(),
        db.encoding(),
        D::ENTRY,
        mancala_core::words::count(db.entry_count(), "entry", "entries"),
        human(db.bytes() as u64),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// What a header says, on one line: `kalah(6,·)+empty_capture, K = 20, packed (5 bits a
/// position), 225792840 entries, 135 MiB on disk, built with kalah(6,4)+empty_capture`.
fn summary(i: &EgdbInfo) -> String {
    let opts: String = i.options.iter().map(|o| format!("+{}", o.name())).collect();
    format!(
        "kalah({},·){opts}, K = {}, {} ({} bits a position), {}, {} on disk, built with {}",
        i.houses,
        i.max_seeds,
        i.encoding(),
        i.bits_per_entry,
        mancala_core::words::count(i.entries, "entry", "entries"),
        human(i.file_bytes),
        i.rules
    )
}

/// `egdb info DIR`: one line a `*.egdb` file, in name order: what its header says, or why
/// it cannot be used. Each file is read whole and checked as `solve --egdb DIR` would load it
/// (header, size, both checksums, every entry's range), so that a file listed as usable is
/// one the solver uses: a damaged payload under a good header is named here too. That reads
/// every file (about 0.5 s for a K = 20 file) and holds one at a time in memory.
///
/// # Errors
/// The folder cannot be read, holds no `*.egdb` file, or none of its files is usable (each
/// listed first with its reason): nothing in it serves a solve.
fn info_folder(dir: &std::path::Path) -> Result<(), String> {
    let files = mancala_solver::egdb::database_files(dir).map_err(|e| e.to_string())?;
    if files.is_empty() {
        return Err(format!("{}: no *.egdb file", ShortenedPath(dir)));
    }
    let mut usable = 0usize;
    let count = files.len();
    for p in files {
        let spinner = crate::progress::spinner(format!("checking {}", p.display()));
        // The header, then the whole file as the solver would load it.
        // An Awari file (by its header) is checked as one; every other as a Kalah one.
        let checked = if crate::awari::is_awari_file(&p) {
            AwariDb::info(&p).and_then(|i| AwariDb::open(&p).map(|_| crate::awari::summary(&i)))
        } else {
            Egdb::info(&p).and_then(|i| Egdb::open(&p).map(|_| summary(&i)))
        };
        if let Some(b) = spinner {
            b.finish_and_clear();
        }
        match checked {
            Ok(line) => {
                usable += 1;
                println!("{}: {line}", p.display());
            }
            Err(e) => {
                let msg = e.to_string();
                let prefix = format!("{}: ", ShortenedPath(&p));
                let why = msg.strip_prefix(&prefix).unwrap_or(&msg);
                println!("{}: unusable: {why}", p.display());
            }
        }
    }
    if usable == 0 {
        return Err(format!(
            "{}: no usable database ({}, every one unusable)",
            ShortenedPath(dir),
            mancala_core::words::count(count, "file", "files")
        ));
    }
    Ok(())
}

fn build(
    rules: &mancala_core::kalah::KalahRules,
    max_seeds: u32,
    out: &std::path::Path,
    threads: usize,
    encoding: Encoding,
    force: bool,
) -> Result<(), String> {
    // One entry per position with at most K seeds in the 2m houses: C(K + 2m, 2m) entries.
    // Refuse up front what this machine cannot hold, rather than abort in the allocator.
    let m = u128::from(rules.houses()) * 2;
    let entries = (1..=m).fold(1u128, |c, i| {
        c.saturating_mul(u128::from(max_seeds) + i) / i
    });
    let needs = Egdb::build_memory(rules, max_seeds, encoding).map_err(|e| e.to_string())?;
    if let Some(avail) = mancala_solver::available_memory() {
        if needs > avail.bytes {
            return Err(format!(
                "--max-seeds {max_seeds}: the build needs {needs} bytes ({}), more than the {avail}",
                human(needs)
            ));
        }
    }
    // `--out` names the file itself when it ends in `.egdb` and is not a folder.
    let given = out;
    let (out, file) = out_target(out);
    let path = file.unwrap_or_else(|| out.join(Egdb::file_name(rules, max_seeds, encoding)));
    let writing = Writing::of::<Egdb>(rules, max_seeds, encoding);
    let out = &out;
    // The folder must exist and take a file before the build, not after minutes of work. The
    // probe has a fresh unpredictable name, created exclusively (a planted symlink is never
    // followed), and is removed when dropped.
    let refused = |e: std::io::Error| crate::paths::out_error(given, out, &e);
    let made = make_folders(out).map_err(refused)?;
    // Any failure from here on removes the folders made for the file.
    let fail = |e: String| {
        remove_made(&made);
        e
    };
    mancala_solver::egdb::probe_folder(out).map_err(|e| fail(refused(e)))?;
    // A file there that holds another database is refused before the build (once the folder
    // is known to take a file: only then can `--force` help), and again before the save (it
    // may have appeared meanwhile).
    check_overwrite(&path, &writing, force).map_err(fail)?;
    // Ctrl-C, SIGTERM or SIGHUP from now on: remove this process's temporary file before the
    // exit (`crate::interrupt`).
    crate::saves::remove_saves_on_interrupt(path.clone());
    let bar = crate::progress::bar(entries.min(u128::from(u64::MAX)) as u64);
    let t = Instant::now();
    let db = Egdb::build(
        rules,
        max_seeds,
        BuildOptions::new()
            .encoding(encoding)
            .threads(threads)
            .progress(crate::progress::TICK, &mut |p| {
                if let Some(b) = &bar {
                    b.set_length(p.total);
                    b.set_position(p.done);
                    crate::progress::set_message(
                        b,
                        &crate::progress::build_line(p.done, p.total, p.seconds),
                    );
                }
                ControlFlow::Continue(())
            }),
    )
    .map_err(|e| fail(e.to_string()))?;
    let build_s = t.elapsed().as_secs_f64();
    std::fs::create_dir_all(out).map_err(|e| fail(refused(e)))?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    check_overwrite(&path, &writing, force).map_err(fail)?;
    let t = Instant::now();
    let report = db
        .save_checked(&path, force)
        .map_err(|e| fail(crate::saves::save_error(&path, &writing, &e)))?;
    crate::saves::report_removed(&report.removed_stale);
    println!(
        "built {} in {build_s:.2} s ({:.1} M positions/s), {}, {} ({} bits a position), {}; saved {} in {:.2} s",
        db.description(),
        db.len() as f64 / build_s / 1e6,
        mancala_core::words::count(db.len() as u64, "entry", "entries"),
        db.encoding(),
        db.bits_per_entry(),
        crate::saves::size_text(&db),
        path.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `egdb convert FILE --encoding E [--out DIR|FILE.egdb]` of a database `D`: read and
/// checked completely, converted, written beside it (or into `out`) under the name of its
/// encoding (`kalah6.k26.packed.egdb`, `awari.n24.egdb`), or to `out` itself when it names a
/// `.egdb` file. The file is read and checked completely before the output file is looked
/// at, so that a damaged file is named as such rather than behind a file in the way.
///
/// # Errors
/// The file's error, a file already in `encoding`, not enough memory for both encodings,
/// an output folder that cannot be written, an output that is the input, an output file
/// that holds another database or none (unless `force`, [`check_overwrite`]).
fn convert<D: Database>(
    file: &std::path::Path,
    encoding: Encoding,
    out: Option<&std::path::Path>,
    force: bool,
) -> Result<(), String> {
    let t = Instant::now();
    // The header first: a file already in `encoding`, or a conversion this machine cannot
    // hold, is refused before gigabytes are read.
    let info = D::info(file).map_err(|e| e.about(file).to_string())?;
    if info.encoding() == encoding {
        return Err(format!(
            "{} is already {encoding}: nothing to convert",
            ShortenedPath(file)
        ));
    }
    // An encoding the game's databases do not have (a Kalah database to compact) is refused
    // before anything else: `--force` could not help it.
    D::check_encoding(encoding).map_err(|e| e.about(file).to_string())?;
    // The file's entries as they are read, and the converted ones (8 bytes of padding
    // after a packed payload).
    let converted_bytes = (info.entries() * u64::from(info.bits_in(encoding))).div_ceil(8);
    let needs = info.memory_bytes() + converted_bytes + 8;
    let folder = convert_folder(file, out, needs)?;
    let path = folder.path(&info.file_name(encoding), file)?;
    // The file is read and checked completely before the output is looked at: a damaged
    // file is reported as such, not behind a file in the way that `--force` would write
    // over.
    let db = D::open(file).map_err(|e| folder.undo(e.about(file).to_string()))?;
    let writing = Writing::converted(&info, encoding);
    check_overwrite(&path, &writing, force).map_err(|e| folder.undo(e))?;
    // Ctrl-C, SIGTERM or SIGHUP from now on: remove this process's temporary file before the
    // exit (`crate::interrupt`).
    crate::saves::remove_saves_on_interrupt(path.clone());
    let converted = db
        .convert(encoding)
        .map_err(|e| folder.undo(e.about(file).to_string()))?;
    drop(db);
    let report = converted
        .save_checked(&path, force)
        .map_err(|e| folder.undo(crate::saves::save_error(&path, &writing, &e)))?;
    crate::saves::report_removed(&report.removed_stale);
    // A compact encoding's codes have no fixed width: the payload's bits over the entries.
    let bits = bits_text(encoding, converted.average_bits());
    println!(
        "converted {} ({}) to {} ({bits} bits a {}), {}, in {:.2} s",
        file.display(),
        converted.describe(),
        path.display(),
        D::ENTRY,
        crate::saves::size_text(&converted),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
