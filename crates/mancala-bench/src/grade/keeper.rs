//! The keeper of an external program (Linux): a small process between the grader and the
//! program that makes sure no process the program started outlives it, nor the grader.
//!
//! A process group is not enough for that: a process that calls `setsid` (or `setpgid`)
//! leaves the group, and nothing kills the group when the grader itself is killed with
//! SIGKILL. So [`keep`] makes the process the grader starts a keeper, which:
//!
//! * is a child subreaper (`PR_SET_CHILD_SUBREAPER`, prctl(2)): every process the program
//!   starts, directly or not, that loses its parent becomes the keeper's child instead of
//!   init's, whatever group or session it is in;
//! * starts the program as its own child, with `PR_SET_PDEATHSIG` = SIGKILL (the program dies
//!   if the keeper does), and no signal blocked;
//! * waits, with SIGCHLD, SIGTERM, SIGINT and SIGHUP blocked and taken by sigtimedwait(2),
//!   for the program to end, for SIGTERM or SIGINT (the grader stopping the program), or for
//!   the grader to end (its own `PR_SET_PDEATHSIG` = SIGHUP, and the parent checked every
//!   [`CHECK`]);
//! * then kills (SIGKILL) every child it has, reaps it, and again, until it has none: each
//!   process killed hands its own children to the keeper, so the whole tree goes, the
//!   processes that left the program's group or session included; then it exits.
//!
//! The keeper runs between fork and exec of [`std::process::Command::spawn`] (its
//! `pre_exec`), in a copy of a process that may have other threads: it uses system calls
//! only (no allocation, no lock), reads `/proc` with `getdents64` into a buffer on its stack,
//! and never returns except in the program's own process, which then execs. It closes every
//! file descriptor it holds, so the grader sees the program's end of its pipes as the
//! program's own. Being a fork of the grader, it shares the grader's memory copy-on-write
//! while it runs: pages the grader changes meanwhile are copied (the grader mostly waits for
//! the program's replies; a grader playing whole games changes its solver's table).

use std::io;
use std::os::unix::process::CommandExt;
use std::process::Command;

/// How often the keeper checks that the grader still runs, besides the signal the kernel
/// sends it when the grader's thread that started it ends.
const CHECK: libc::timespec = libc::timespec {
    tv_sec: 0,
    tv_nsec: 200_000_000,
};

/// Makes `command` start through a keeper (module docs): the process the grader gets is the
/// keeper (the leader of its own process group when `command` asks for one); SIGTERM to it
/// stops the program and every process it started, and it then exits.
pub(super) fn keep(command: &mut Command) {
    let grader = std::process::id();
    // SAFETY: the closure runs between fork and exec and makes system calls only, on
    // values on its own stack (see `start`).
    unsafe {
        command.pre_exec(move || start(grader));
    }
}

/// The first thing the forked process does: becomes the keeper, starts the program as its
/// child and returns `Ok` in the program's process (which then execs); in the keeper it
/// never returns.
fn start(grader: u32) -> io::Result<()> {
    let grader = libc::pid_t::try_from(grader).unwrap_or(0);
    // SAFETY: system calls on local values; `waited` is initialised by sigemptyset first.
    unsafe {
        let mut waited: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut waited);
        for sig in [libc::SIGCHLD, libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
            libc::sigaddset(&mut waited, sig);
        }
        if libc::sigprocmask(libc::SIG_BLOCK, &waited, std::ptr::null_mut()) != 0
            || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGHUP, 0, 0, 0) != 0
            || libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0
        {
            return Err(io::Error::last_os_error());
        }
        if libc::getppid() != grader {
            // The grader ended before the signal of its end was asked for.
            libc::_exit(1);
        }
        let keeper = libc::getpid();
        let program = libc::fork();
        if program < 0 {
            return Err(io::Error::last_os_error());
        }
        if program == 0 {
            // The program's process: it dies with the keeper, and starts with no signal
            // blocked (the grader may block some in its threads, the keeper blocks four).
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                return Err(io::Error::last_os_error());
            }
            if libc::getppid() != keeper {
                libc::_exit(1);
            }
            let mut none: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut none);
            libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
            return Ok(());
        }
        close_all();
        let status = watch(grader, program, &waited);
        kill_all();
        libc::_exit(status)
    }
}

/// Closes every file descriptor of the keeper (its copies of the program's pipes and of
/// `spawn`'s error channel), so that they close when the program's do.
///
/// # Safety
/// Only in the keeper, which uses no file descriptor it had before.
unsafe fn close_all() {
    // SAFETY: close_range(2) and close(2) on descriptors of this process.
    unsafe {
        if libc::syscall(libc::SYS_close_range, 0u32, u32::MAX, 0u32) != 0 {
            // Kernels before 5.9: one at a time, up to the limit of open files.
            let mut limit = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            let top = if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 {
                limit.rlim_cur.min(1 << 16) as libc::c_int
            } else {
                1024
            };
            for fd in 0..top {
                libc::close(fd);
            }
        }
    }
}

/// Waits until the program ends, SIGTERM or SIGINT arrives, or the grader ends, reaping the
/// keeper's children meanwhile. Returns the program's exit status (128 + the signal that
/// killed it), or 1 when it did not end by itself.
///
/// # Safety
/// Only in the keeper, with `waited` blocked.
unsafe fn watch(grader: libc::pid_t, program: libc::pid_t, waited: &libc::sigset_t) -> i32 {
    loop {
        // SAFETY: `info` is a writable local; `waited` and `CHECK` are initialised.
        let sig = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            libc::sigtimedwait(waited, &mut info, &CHECK)
        };
        loop {
            let mut status = 0;
            // SAFETY: waitpid(2) on this process's children.
            let reaped = unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) };
            if reaped <= 0 {
                break;
            }
            if reaped == program {
                return if libc::WIFSIGNALED(status) {
                    128 + libc::WTERMSIG(status)
                } else {
                    libc::WEXITSTATUS(status)
                };
            }
        }
        // SAFETY: getppid(2) has no arguments.
        if sig == libc::SIGTERM || sig == libc::SIGINT || unsafe { libc::getppid() } != grader {
            return 1;
        }
    }
}

/// Kills every child of the keeper, reaps it, and again until it has none (each process
/// killed hands its children to the keeper, a subreaper).
///
/// # Safety
/// Only in the keeper.
unsafe fn kill_all() {
    // SAFETY: getpid(2) has no arguments.
    let me = unsafe { libc::getpid() };
    loop {
        // SAFETY: kill(2) of this process's children, found in /proc.
        let found = unsafe { for_each_child(me, |pid| libc::kill(pid, libc::SIGKILL)) };
        if !found {
            // No /proc to read: the keeper's process group (the keeper included) is what
            // can be killed.
            // SAFETY: kill(2) of the caller's own process group.
            unsafe { libc::kill(0, libc::SIGKILL) };
        }
        let mut status = 0;
        // SAFETY: waitpid(2) on this process's children.
        match unsafe { libc::waitpid(-1, &mut status, libc::WNOHANG) } {
            0 => {
                // Killed but not ended yet.
                let pause = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 1_000_000,
                };
                // SAFETY: nanosleep(2) with an initialised duration and no remainder.
                unsafe { libc::nanosleep(&pause, std::ptr::null_mut()) };
            }
            r if r > 0 => {}
            _ => return,
        }
    }
}

/// Calls `f` with the id of every process whose parent is `parent`, read from `/proc/*/stat`.
/// Returns whether `/proc` could be read.
///
/// # Safety
/// System calls only: safe after fork in a process that had threads.
unsafe fn for_each_child(parent: libc::pid_t, mut f: impl FnMut(libc::pid_t) -> i32) -> bool {
    #[repr(align(8))]
    struct Entries([u8; 4096]);
    // SAFETY: open(2) of a constant, NUL-terminated path.
    let dir = unsafe {
        libc::open(
            c"/proc".as_ptr(),
            libc::O_RDONLY | libc::O_DIRECTORY | libc::O_CLOEXEC,
        )
    };
    if dir < 0 {
        return false;
    }
    let mut entries = Entries([0; 4096]);
    loop {
        // SAFETY: getdents64(2) into a buffer of the length given.
        let n = unsafe {
            libc::syscall(
                libc::SYS_getdents64,
                dir,
                entries.0.as_mut_ptr(),
                entries.0.len(),
            )
        };
        if n <= 0 {
            break;
        }
        let got = &entries.0[..(n as usize).min(entries.0.len())];
        // Each record: inode (8 bytes), offset (8), record length (2), type (1), name.
        let mut at = 0;
        while at + 19 < got.len() {
            let len = usize::from(u16::from_ne_bytes([got[at + 16], got[at + 17]]));
            if len == 0 {
                break;
            }
            let end = (at + len).min(got.len());
            let name = &got[at + 19..end];
            let name = &name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())];
            if let Some(pid) = number(name) {
                // SAFETY: reads this process's view of /proc.
                if unsafe { parent_of(name) } == Some(parent) {
                    f(pid);
                }
            }
            at += len;
        }
    }
    // SAFETY: the descriptor opened above.
    unsafe { libc::close(dir) };
    true
}

/// The decimal number `digits` (one to nine digits, nothing else), else `None`.
fn number(digits: &[u8]) -> Option<libc::pid_t> {
    if digits.is_empty() || digits.len() > 9 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        digits
            .iter()
            .fold(0, |n, &d| n * 10 + libc::pid_t::from(d - b'0')),
    )
}

/// The parent process id of process `pid` (its decimal digits), from `/proc/<pid>/stat`:
/// `pid (comm) state ppid …`, the name in parentheses possibly holding spaces and
/// parentheses itself, so read after the last `)`.
///
/// # Safety
/// System calls only.
unsafe fn parent_of(pid: &[u8]) -> Option<libc::pid_t> {
    let mut path = [0u8; 32];
    let parts: [&[u8]; 3] = [b"/proc/", pid, b"/stat"];
    let mut at = 0;
    for part in parts {
        path.get_mut(at..at + part.len())?.copy_from_slice(part);
        at += part.len();
    }
    // `path[at]` is the terminating NUL (at most 6 + 9 + 5 bytes were written).
    // SAFETY: open(2) of a NUL-terminated path on the stack.
    let fd = unsafe { libc::open(path.as_ptr().cast(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if fd < 0 {
        return None;
    }
    // The name is at most 15 bytes: the fields after it are in the first 256 bytes.
    let mut stat = [0u8; 256];
    // SAFETY: read(2) into the buffer of the length given, then close(2) of `fd`.
    let n = unsafe {
        let n = libc::read(fd, stat.as_mut_ptr().cast(), stat.len());
        libc::close(fd);
        n
    };
    let stat = stat.get(..usize::try_from(n).ok()?)?;
    let close = stat.iter().rposition(|&b| b == b')')?;
    // ") S 1234 …"
    let rest = stat.get(close + 4..)?;
    let end = rest.iter().position(|&b| b == b' ')?;
    number(&rest[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_of_this_process_is_read_from_proc() {
        let me = std::process::id().to_string();
        // SAFETY: getppid(2) has no arguments.
        let want = unsafe { libc::getppid() };
        // SAFETY: system calls only.
        assert_eq!(unsafe { parent_of(me.as_bytes()) }, Some(want));
    }

    #[test]
    fn numbers_are_decimal_digits_only() {
        assert_eq!(number(b"4321"), Some(4321));
        assert_eq!(number(b""), None);
        assert_eq!(number(b"12a"), None);
        assert_eq!(number(b"self"), None);
        assert_eq!(number(b"1234567890"), None);
    }
}
