//! CPU time (user + system) of an external program with every process it started
//! ([`tree_seconds`], Linux), for a match's count of each answer's CPU time. A player that
//! computes in this process counts this process's time instead
//! (`mancala_solver::usage::process_seconds`). Linux only: elsewhere a program's CPU time is
//! not measured.

/// Processes [`tree_seconds`] reads at the most (a guard against a tree that changes under
/// the reading faster than it is read).
const MAX_PROCESSES: usize = 4096;

/// The CPU time (user + system), seconds, of the process `root` and of every process below
/// it that is running (or not yet reaped), each with the children it has reaped and waited
/// for: the sum of `utime`, `stime`, `cutime` and `cstime` of /proc/PID/stat (proc(5), in
/// clock ticks of `sysconf(_SC_CLK_TCK)`, 10 ms on most systems), the processes below a
/// process read from /proc/PID/task/TID/children. Under an external program's keeper (a
/// child subreaper, module `keeper`) every process the program started stays below it, so
/// this is the CPU time the program and everything it started have spent. A process that
/// ends and is reaped while the tree is read may be missed by that reading (its time then
/// shows in its parent's at the next). `None` when `root`'s entries cannot be read (no
/// such process, no /proc, a kernel without the `children` files).
#[must_use]
pub(crate) fn tree_seconds(root: u32) -> Option<f64> {
    // SAFETY: sysconf has no preconditions.
    let tick = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if tick <= 0 {
        return None;
    }
    // A kernel without the `children` files cannot list the tree.
    if !std::path::Path::new(&format!("/proc/{root}/task/{root}/children")).exists() {
        return None;
    }
    let mut ticks = own_ticks(root)?;
    let mut stack = children(root);
    let mut seen = 1;
    while let Some(pid) = stack.pop() {
        seen += 1;
        if seen > MAX_PROCESSES {
            break;
        }
        // A process gone since its parent was read counts nothing here.
        ticks += own_ticks(pid).unwrap_or(0);
        stack.extend(children(pid));
    }
    Some(ticks as f64 / tick as f64)
}

/// `utime + stime + cutime + cstime` of /proc/`pid`/stat, clock ticks (proc(5): fields 14
/// to 17, counted after the command's closing parenthesis, since the command may hold
/// spaces and parentheses).
fn own_ticks(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let after = &stat[stat.rfind(')')? + 1..];
    // Fields from 3 (the state) on: utime is field 14, so the 12th of these.
    let fields: Vec<&str> = after.split_whitespace().skip(11).take(4).collect();
    if fields.len() < 4 {
        return None;
    }
    fields.iter().try_fold(0u64, |sum, f| {
        // cutime and cstime are signed in the kernel's format; never negative in practice.
        let v: i64 = f.parse().ok()?;
        Some(sum + v.max(0) as u64)
    })
}

/// The children of every thread of process `pid` (/proc/`pid`/task/TID/children; a thread
/// that ends while it is read has none).
fn children(pid: u32) -> Vec<u32> {
    let Ok(tasks) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for task in tasks.flatten() {
        if let Ok(text) = std::fs::read_to_string(task.path().join("children")) {
            out.extend(
                text.split_whitespace()
                    .filter_map(|p| p.parse::<u32>().ok()),
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};

    /// The CPU time of a finished child as wait4(2) reports it (its own and that of the
    /// children it waited for), seconds.
    fn reaped_seconds(pid: u32) -> f64 {
        let mut status = 0;
        // SAFETY: `usage` is a writable local; `status` too.
        let usage = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            let r = libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage);
            assert_eq!(r, pid as libc::pid_t, "wait4");
            usage
        };
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        secs(usage.ru_utime) + secs(usage.ru_stime)
    }

    /// A shell whose two background children and itself each count to 200,000, the
    /// children then waiting on the shell's standard input (an explicit redirection: an
    /// asynchronous list's own standard input is /dev/null) (alive, below the shell, spending nothing) while the
    /// tree is read: the reading must equal what wait4(2) reports once the whole tree has
    /// ended normally, to the clock's granularity (a tick a field of each of the three
    /// processes, two fields each, and the shell's own last steps).
    #[test]
    // The child is reaped by wait4(2) in `reaped_seconds`, for its resource usage.
    #[allow(clippy::zombie_processes)]
    fn a_tree_counts_its_live_children_as_wait4_counts_them_at_the_end() {
        let script = r#"
            spin() { i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done; }
            exec 3<&0
            (spin; echo child; read x <&3) &
            (spin; echo child; read x <&3) &
            spin; echo parent
            wait
        "#;
        let mut child = Command::new("sh")
            .args(["-c", script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("sh");
        let pid = child.id();
        let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
        for _ in 0..3 {
            lines.next().expect("a line").expect("read");
        }
        let read = tree_seconds(pid).expect("the tree");
        // Both children read their line from the shell's standard input, then end.
        let mut stdin = child.stdin.take().expect("stdin");
        writeln!(stdin, "a\nb").expect("write");
        drop(stdin);
        let reaped = reaped_seconds(pid);
        let tick = 1.0 / unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
        assert!(
            reaped > 0.05,
            "the work took {reaped} s of CPU: too little to compare"
        );
        assert!(
            (read - reaped).abs() <= 7.0 * tick + 0.01,
            "read {read} s while running, wait4 {reaped} s at the end"
        );
    }

    #[test]
    fn no_such_process_has_no_time() {
        // Pid numbers above the kernel's maximum (4,194,304 at most) never exist.
        assert_eq!(tree_seconds(u32::MAX - 1), None);
    }
}
