//! Helpers of the integration tests: running `mancala-mpi` as one process or under a real
//! `mpirun`, and the database files to compare with.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use mancala_core::kalah::KalahRules;
use mancala_solver::egdb::Encoding;
use mancala_solver::{BuildOptions, Egdb};

/// The command under test.
pub fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_mancala-mpi"))
}

/// Runs `mancala-mpi args` as one process (no launcher), stopped after `limit` seconds.
pub fn run1(args: &[&str], limit: u32) -> Output {
    Command::new("timeout")
        .arg("-k")
        .arg("5")
        .arg(limit.to_string())
        .arg(bin())
        .args(args)
        .output()
        .expect("run mancala-mpi under timeout")
}

/// Runs `mpirun -np <np> mancala-mpi args` (the launcher from `$MPIRUN`, else `mpirun`),
/// stopped after `limit` seconds: a hang fails the test with status 124 instead of hanging
/// it. Open MPI's settings for this machine come from the environment: more ranks than
/// cores (`--oversubscribe`) and, as root in CI, the permission to run as root.
pub fn mpirun(np: usize, args: &[&str], limit: u32) -> Output {
    mpirun_mpmd(&[(np, args)], limit)
}

/// Runs one `mpirun` of several programs (MPMD: `-np 2 a : -np 1 b`), ranks numbered in
/// the order given.
pub fn mpirun_mpmd(parts: &[(usize, &[&str])], limit: u32) -> Output {
    let parts: Vec<(usize, Option<&Path>, &[&str])> =
        parts.iter().map(|&(np, args)| (np, None, args)).collect();
    mpirun_mpmd_in(&parts, limit)
}

/// [`mpirun_mpmd`] with a working folder for each program (Open MPI's `-wdir`): the same
/// command line can then name different files on different ranks, as on the nodes of a
/// cluster.
pub fn mpirun_mpmd_in(parts: &[(usize, Option<&Path>, &[&str])], limit: u32) -> Output {
    launch(parts, &[], limit)
}

/// [`mpirun`] with the variables `env` set for it and so for its ranks (started on this
/// machine, they inherit its environment).
pub fn mpirun_env(np: usize, env: &[(&str, &str)], args: &[&str], limit: u32) -> Output {
    launch(&[(np, None, args)], env, limit)
}

/// One `mpirun` of the programs `parts`, with the variables `env`.
fn launch(parts: &[(usize, Option<&Path>, &[&str])], env: &[(&str, &str)], limit: u32) -> Output {
    let launcher = std::env::var("MPIRUN").unwrap_or_else(|_| "mpirun".to_string());
    let mut c = Command::new("timeout");
    c.arg("-k").arg("5").arg(limit.to_string()).arg(launcher);
    for (i, (np, wdir, args)) in parts.iter().enumerate() {
        if i > 0 {
            c.arg(":");
        }
        c.arg("-np").arg(np.to_string());
        if let Some(w) = wdir {
            c.arg("-wdir").arg(w);
        }
        c.arg(bin()).args(*args);
    }
    // Each job its own session folder: jobs started at the same moment by parallel tests
    // otherwise race to create Open MPI's shared one (`/tmp/ompi.<host>.<uid>`) and one of
    // them fails with "A call to mkdir was unable to create the desired directory … File
    // exists" (open-mpi/ompi#8510, Open MPI 4.x; the workaround its users give is a unique
    // `orte_tmpdir_base` a job, `prte_tmpdir_base` under Open MPI 5's PRRTE).
    let session = session_dir();
    c.env("OMPI_MCA_rmaps_base_oversubscribe", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_orte_tmpdir_base", session.path())
        .env("PRTE_MCA_prte_tmpdir_base", session.path())
        .envs(env.iter().copied());
    c.output()
        .expect("run mpirun (Open MPI's openmpi-bin) under timeout")
}

/// A new empty folder for one `mpirun` job's session files, removed when the guard is
/// dropped (the job ended, or the test failed). In the system's folder for temporary
/// files, not Cargo's: the session holds Unix sockets, whose paths have at most 108 bytes.
fn session_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("mancala-mpi-job-")
        .tempdir()
        .expect("create a session folder for mpirun")
}

/// Standard output as text, after checking the exit status.
pub fn ok(out: &Output) -> String {
    assert!(
        out.status.success(),
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The JSON object on the last line of standard output, after checking the exit status.
pub fn json(out: &Output) -> serde_json::Value {
    let text = ok(out);
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The database file `mancala egdb build --rules <rules> --max-seeds <k> --out <dir>`
/// writes: the same library calls (`Egdb::build` with progress reports, then `Egdb::save` to
/// `<dir>/Egdb::file_name`), made here.
pub fn reference_database(dir: &Path, rules: &str, k: u32) -> PathBuf {
    let rules: KalahRules = rules.parse().unwrap();
    let db = Egdb::build(
        &rules,
        k,
        BuildOptions::new()
            .threads(2)
            .progress(std::time::Duration::from_secs(60), &mut |_| {
                std::ops::ControlFlow::Continue(())
            }),
    )
    .unwrap();
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(Egdb::file_name(&rules, k, Encoding::Byte));
    db.save(&path).unwrap();
    path
}

/// [`reference_database`] in the entry encoding `encoding`, as `mancala egdb build
/// --encoding <encoding>` makes it: `Egdb::build` with the encoding in its options (the
/// finished layers packed as it goes), then `Egdb::save` to `<dir>/Egdb::file_name`.
pub fn reference_database_in(dir: &Path, rules: &str, k: u32, encoding: Encoding) -> PathBuf {
    let rules: KalahRules = rules.parse().unwrap();
    let db = Egdb::build(&rules, k, BuildOptions::new().threads(2).encoding(encoding)).unwrap();
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(Egdb::file_name(&rules, k, encoding));
    db.save(&path).unwrap();
    path
}

/// [`reference_awari`] in the entry encoding `encoding`, as `mancala egdb build --rules
/// awari --encoding <encoding>` makes it: built one byte a board, converted, saved.
pub fn reference_awari_in(dir: &Path, n: u32, encoding: Encoding) -> PathBuf {
    use mancala_solver::awari::AwariDb;
    let db = AwariDb::build(n, 2).unwrap().convert(encoding).unwrap();
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(AwariDb::file_name_under(
        mancala_core::oware::GrandSlam::UnlessOnly,
        n,
        encoding,
    ));
    db.save(&path).unwrap();
    path
}

/// The Awari database of `n` seeds as `AwariDb::build` and `AwariDb::save` make it (the
/// one-process build `mancala egdb build --rules awari` runs), saved in `dir`.
pub fn reference_awari(dir: &Path, n: u32) -> PathBuf {
    let db = mancala_solver::awari::AwariDb::build(n, 2).unwrap();
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(mancala_solver::awari::AwariDb::file_name(n));
    db.save(&path).unwrap();
    path
}

/// The entries in layers 0..k of a database of m houses: C(k − 1 + 2m, 2m).
pub fn layer_len(m: u64, k: u64) -> u64 {
    // C(k + 2m − 1, 2m − 1): the distributions of k seeds over 2m houses.
    let n = 2 * m - 1;
    (1..=n).fold(1u64, |c, i| c * (k + i) / i)
}

/// The offset of the entries of layer `k` in a partial file of rules text `rules`, m houses.
pub fn partial_layer_offset(rules: &str, m: u64, k: u64) -> u64 {
    let mut at = 28 + rules.len() as u64 + 4;
    for j in 0..k {
        at += 20 + layer_len(m, j);
    }
    at + 20
}
