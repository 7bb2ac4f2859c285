//! A clean exit on Ctrl-C (SIGINT), SIGTERM or SIGHUP, for every command (Unix): the
//! progress line on the terminal is cleared, the clean-ups the command registered
//! ([`on_interrupt`], e.g. `egdb build` removing its temporary file) run, the folders it
//! created for its output ([`make_folders`]) are removed when still empty, and the process
//! exits with status 128 + the signal number, as the shell reports a process killed by that
//! signal.
//!
//! How: [`install`], called by `main` before any other thread starts, blocks the three
//! signals in the main thread, so in every thread started later (a new thread inherits its
//! creator's signal mask), and starts one thread that waits for them with `sigwait(3)`. No
//! signal handler runs, so the clean-ups are ordinary code (locks, allocation, file
//! removal), never async-signal-unsafe. Elsewhere (not Unix) nothing is installed and the
//! signals keep their default action.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A clean-up to run when a signal arrives.
type Cleanup = Box<dyn FnOnce() + Send>;

/// The clean-ups registered so far, run in the order of registration.
static CLEANUPS: Mutex<Vec<Cleanup>> = Mutex::new(Vec::new());

/// Registers `cleanup` to run, on the signal-waiting thread, when SIGINT, SIGTERM or SIGHUP
/// arrives (after the progress line is cleared, before the exit).
pub fn on_interrupt(cleanup: impl FnOnce() + Send + 'static) {
    CLEANUPS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(Box::new(cleanup));
}

/// The folders [`make_folders`] created in this process, removed on a signal when they are
/// still empty, after the clean-ups (which remove the temporary files in them).
static FOLDERS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Creates the folder `dir` and those above it that are missing, and returns the folders it
/// created, deepest first. From before the first is created, a signal (SIGINT, SIGTERM,
/// SIGHUP) removes them again when they are empty: the creation holds the lock the
/// signal-waiting thread takes before it removes them, so no folder is created behind its
/// back.
///
/// # Errors
/// The system's error of the creation (the folders created before it stay listed, and are
/// removed on a signal as the others).
pub fn make_folders(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut folders = FOLDERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let made: Vec<PathBuf> = dir
        .ancestors()
        .take_while(|p| !p.as_os_str().is_empty() && std::fs::symlink_metadata(p).is_err())
        .map(Path::to_path_buf)
        .collect();
    folders.extend(made.iter().cloned());
    std::fs::create_dir_all(dir)?;
    Ok(made)
}

/// What the signal-waiting thread does on signal `sig`: clear the progress line, run the
/// clean-ups, remove the empty folders of [`make_folders`], say so, exit with 128 + `sig`.
#[cfg(unix)]
fn interrupted(sig: i32) -> ! {
    crate::progress::clear_all();
    let cleanups = std::mem::take(
        &mut *CLEANUPS
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner),
    );
    for cleanup in cleanups {
        cleanup();
    }
    // Held to the exit: a creation under way finishes first, and none starts after.
    let mut folders = FOLDERS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    // Deepest first, whichever creation made them: only an empty folder is removed.
    folders.sort_by_key(|d| std::cmp::Reverse(d.components().count()));
    for d in folders.iter() {
        let _ = std::fs::remove_dir(d);
    }
    eprintln!("mancala: interrupted (signal {sig})");
    std::process::exit(128 + sig);
}

/// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (and every thread it starts from
/// now on) and starts the thread that waits for them. Call it once, from `main`, before any
/// other thread exists. When the thread cannot start, the signals are unblocked again and
/// keep their default action.
#[cfg(unix)]
pub fn install() {
    // SAFETY: `sigemptyset`, `sigaddset` and `pthread_sigmask` only read and write the local,
    // zero-initialised signal set (`sigset_t` is plain data; zeroes are a valid start that
    // `sigemptyset` then initialises); the null old-mask pointer is allowed.
    let set = unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            libc::sigaddset(&mut set, sig);
        }
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        set
    };
    let started = std::thread::Builder::new()
        .name("mancala-signals".into())
        .spawn(move || loop {
            let mut sig: libc::c_int = 0;
            // SAFETY: `set` is an initialised signal set; `sig` is a writable local.
            if unsafe { libc::sigwait(&set, &mut sig) } == 0 {
                interrupted(sig);
            }
        });
    if started.is_err() {
        // SAFETY: as above: the same initialised set; the null old-mask pointer is allowed.
        unsafe { libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut()) };
    }
}

/// Elsewhere than Unix: nothing (the signals keep their default action).
#[cfg(not(unix))]
pub fn install() {}

/// Ignores SIGXFSZ, the signal a write beyond the file-size limit (`ulimit -f`,
/// `RLIMIT_FSIZE`) sends, whose default action kills the process without a word and leaves
/// a partly written temporary file. Ignored, the write fails with `EFBIG` ("File too
/// large") instead, and the command's ordinary error path reports it in one line and removes
/// its temporary file. Only the `mancala` binary does this, in `main`: the library never
/// changes a host program's signal dispositions. Elsewhere than Unix: nothing.
pub fn ignore_file_size_signal() {
    // SAFETY: setting SIGXFSZ's disposition to SIG_IGN installs no handler code; it is
    // called once, from `main`, before any other thread starts.
    #[cfg(unix)]
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
}
