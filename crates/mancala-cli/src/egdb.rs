//! `mancala egdb build|info|verify`: endgame databases.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
use mancala_solver::egdb::{remove_temporary_files, TemporaryOwners};
use mancala_solver::Egdb;

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
    /// Build the database of every position with at most K seeds in the houses.
    #[command(after_help = "\
Examples:
  mancala egdb build --rules standard --max-seeds 16 --out egdb/
  mancala egdb build --rules \"kalah(6,4)+empty_capture\" --max-seeds 20 --out egdb/ --threads 2
One database serves every seed count n of the same house count m and capture and end rules.")]
    Build {
        /// Rule set (its m and capture/end options decide the database).
        #[arg(long)]
        rules: String,
        /// K, the largest number of seeds in the houses (0..=127).
        #[arg(long, value_parser = crate::ranges::max_seeds())]
        max_seeds: u32,
        /// Output folder (created if missing); the file is named after the rules and K.
        #[arg(long)]
        out: PathBuf,
        /// Build threads (0 = every core; at most 256).
        #[arg(long, default_value_t = 0, value_parser = crate::ranges::threads_or_all())]
        threads: usize,
    },
    /// Print the header of a database file (the entries are not read: `egdb verify` checks
    /// them), or of every `*.egdb` file in a folder, each checked whole as `solve` would load
    /// it (with the reason a file is unusable).
    #[command(after_help = "\
Examples:
  mancala egdb info egdb/kalah6.k16.egdb
  mancala egdb info egdb/")]
    Info {
        /// The database file, or a folder of them.
        file: PathBuf,
    },
    /// Check a database file completely: header, size, checksums, every entry's range.
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
            threads,
        } => build(&rules, max_seeds, &out, threads),
        EgdbCommand::Info { file } if file.is_dir() => info_folder(&file),
        EgdbCommand::Info { file } => {
            let i = Egdb::info(&file).map_err(|e| named(&file, &e))?;
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
            println!(
                "encoding        {} ({} bits per entry: value + 128)",
                i.encoding, i.bits_per_entry
            );
            println!("entries         {}", i.entries);
            println!("file bytes      {}", i.file_bytes);
            println!("payload crc32   {:08x}", i.payload_crc);
            Ok(())
        }
        EgdbCommand::Verify { file } => {
            let t = Instant::now();
            let spinner = crate::progress::spinner(format!("checking {}", file.display()));
            let checked = Egdb::open(&file).and_then(|db| Ok((db.check_entries()?, db)));
            if let Some(b) = spinner {
                b.finish_and_clear();
            }
            let (n, db) = checked.map_err(|e| named(&file, &e))?;
            println!(
                "{}: OK ({}, {n} entries, checksums and value ranges checked in {:.2} s)",
                file.display(),
                db.description(),
                t.elapsed().as_secs_f64()
            );
            Ok(())
        }
    }
}

/// The message of `e`, about the file `file`, starting with the file's name.
fn named(file: &std::path::Path, e: &mancala_solver::EgdbError) -> String {
    let msg = e.to_string();
    let shown = file.display().to_string();
    if msg.starts_with(&shown) {
        msg
    } else {
        format!("{shown}: {msg}")
    }
}

/// `egdb info DIR`: one line a `*.egdb` file, in name order: what its header says, or why
/// it cannot be used. Each file is read whole and checked as `solve --egdb DIR` would load it
/// (header, size, both checksums, every entry's range), so that a file listed as usable is
/// one the solver uses: a damaged payload under a good header is named here too. That reads
/// every file (about 0.5 s for a K = 20 file) and holds one at a time in memory.
fn info_folder(dir: &std::path::Path) -> Result<(), String> {
    let list = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = list
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("egdb"))
        .collect();
    files.sort();
    if files.is_empty() {
        println!("{}: no *.egdb file", dir.display());
    }
    for p in files {
        let spinner = crate::progress::spinner(format!("checking {}", p.display()));
        // The header, then the whole file as the solver would load it.
        let checked = Egdb::info(&p).and_then(|i| Egdb::open(&p).map(|_| i));
        if let Some(b) = spinner {
            b.finish_and_clear();
        }
        match checked {
            Ok(i) => {
                let opts: String = i.options.iter().map(|o| format!("+{}", o.name())).collect();
                println!(
                    "{}: kalah({},·){opts}, K = {}, {} entries, built with {}",
                    p.display(),
                    i.houses,
                    i.max_seeds,
                    i.entries,
                    i.rules
                );
            }
            Err(e) => {
                let msg = e.to_string();
                let prefix = format!("{}: ", p.display());
                let why = msg.strip_prefix(&prefix).unwrap_or(&msg);
                println!("{}: unusable: {why}", p.display());
            }
        }
    }
    Ok(())
}

fn build(rules: &str, max_seeds: u32, out: &PathBuf, threads: usize) -> Result<(), String> {
    let rules = crate::rules_arg::kalah_only(rules, "endgame databases are")?;
    // One byte per position with at most K seeds in the 2m houses: C(K + 2m, 2m) bytes.
    // Refuse up front what this machine cannot hold, rather than abort in the allocator.
    let m = u128::from(rules.houses()) * 2;
    let entries = (1..=m).fold(1u128, |c, i| {
        c.saturating_mul(u128::from(max_seeds) + i) / i
    });
    if let Some(avail) = mancala_solver::available_memory_bytes() {
        if entries > u128::from(avail) {
            return Err(format!(
                "--max-seeds {max_seeds}: the database needs {entries} bytes, more than the {avail} bytes of memory available"
            ));
        }
    }
    let path = out.join(Egdb::file_name(&rules, max_seeds));
    // The folder must exist and take a file before the build, not after minutes of work. The
    // probe has a fresh unpredictable name, created exclusively (a planted symlink is never
    // followed), and is removed when dropped.
    let refused = |e: std::io::Error| {
        format!(
            "--out {}: {}",
            out.display(),
            crate::paths::folder_error(out, &e)
        )
    };
    std::fs::create_dir_all(out).map_err(refused)?;
    tempfile::Builder::new()
        .prefix(".mancala-write-check-")
        .tempfile_in(out)
        .map_err(refused)?;
    // Ctrl-C, SIGTERM or SIGHUP from now on: remove this process's temporary file before the
    // exit (`crate::interrupt`).
    let saved = path.clone();
    crate::interrupt::on_interrupt(move || {
        for p in remove_temporary_files(&saved, TemporaryOwners::ThisProcess) {
            eprintln!("mancala: removed {}", p.display());
        }
    });
    let bar = crate::progress::bar(entries.min(u128::from(u64::MAX)) as u64);
    let t = Instant::now();
    let db = Egdb::build_watched(
        &rules,
        max_seeds,
        threads,
        crate::progress::TICK,
        &mut |p| {
            if let Some(b) = &bar {
                b.set_length(p.total);
                b.set_position(p.done);
                b.set_message(crate::progress::build_line(p.done, p.total, p.seconds));
            }
            ControlFlow::Continue(())
        },
    )
    .map_err(|e| e.to_string())?;
    let build_s = t.elapsed().as_secs_f64();
    std::fs::create_dir_all(out).map_err(refused)?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let t = Instant::now();
    let report = db.save(&path).map_err(|e| e.to_string())?;
    for stale in &report.removed_stale {
        eprintln!(
            "mancala: removed {}: a temporary file left by an earlier save that was killed",
            stale.display()
        );
    }
    println!(
        "built {} in {build_s:.2} s ({:.1} M positions/s), {} entries, {} bytes; saved {} in {:.2} s",
        db.description(),
        db.len() as f64 / build_s / 1e6,
        db.len(),
        db.bytes(),
        path.display(),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
