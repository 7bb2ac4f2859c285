//! `mancala egdb build|info|verify`: endgame databases.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::Instant;

use clap::{Args, Subcommand};
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
    Build {
        /// Rule set (its m and capture/end options decide the database).
        #[arg(long)]
        rules: String,
        /// K, the largest number of seeds in the houses.
        #[arg(long)]
        max_seeds: u32,
        /// Output folder (created if missing); the file is named after the rules and K.
        #[arg(long)]
        out: PathBuf,
        /// Build threads (0 = every core).
        #[arg(long, default_value_t = 0)]
        threads: usize,
    },
    /// Print the header of a database file.
    Info {
        /// The database file.
        file: PathBuf,
    },
    /// Check a database file completely: header, size, checksums, every entry's range.
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
        EgdbCommand::Info { file } => {
            let i = Egdb::info(&file).map_err(|e| e.to_string())?;
            println!("file            {}", file.display());
            println!("format version  {}", i.version);
            println!("built with      {}", i.rules);
            println!("houses (m)      {}", i.houses);
            println!("max seeds (K)   {}", i.max_seeds);
            let opts: Vec<&str> = i.options.iter().map(|o| o.name()).collect();
            println!("options         {}", opts.join("+"));
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
            let db = Egdb::open(&file).map_err(|e| e.to_string())?;
            let n = db.check_entries().map_err(|e| e.to_string())?;
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

fn build(rules: &str, max_seeds: u32, out: &PathBuf, threads: usize) -> Result<(), String> {
    let rules = crate::rules_arg::kalah_only(rules, "endgame databases are")?;
    if threads > 256 {
        return Err(format!("--threads {threads}: at most 256 (0 = every core)"));
    }
    // One byte per position with at most K seeds in the 2m houses: C(K + 2m, 2m) bytes.
    // Refuse up front what this machine cannot hold, rather than abort in the allocator.
    let m = u128::from(rules.houses()) * 2;
    let entries = (1..=m).fold(1u128, |c, i| {
        c.saturating_mul(u128::from(max_seeds) + i) / i
    });
    if let Some(avail) = crate::solve::available_memory_bytes() {
        if entries > u128::from(avail) {
            return Err(format!(
                "--max-seeds {max_seeds}: the database needs {entries} bytes, more than the {avail} bytes of memory available"
            ));
        }
    }
    let path = out.join(Egdb::file_name(&rules, max_seeds));
    // The folder must exist and take a file before the build, not after minutes of work.
    std::fs::create_dir_all(out).map_err(|e| format!("--out {}: {e}", out.display()))?;
    let probe = out.join(format!(".mancala-write-check-{}", std::process::id()));
    std::fs::File::create(&probe).map_err(|e| format!("--out {}: {e}", out.display()))?;
    let _ = std::fs::remove_file(&probe);
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
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let t = Instant::now();
    db.save(&path).map_err(|e| e.to_string())?;
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
