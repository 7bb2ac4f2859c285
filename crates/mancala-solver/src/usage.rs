//! What this process has used: its processor time (and a thread's) and its peak resident
//! memory, to report beside wall time on a machine that may be shared (the MPI ranks of
//! `mancala-mpi`, the players of a match in `mancala-bench`).

/// `getrusage(RUSAGE_SELF)`: what this process has used so far, all its threads; `None`
/// when the call fails.
#[cfg(unix)]
fn own_usage() -> Option<libc::rusage> {
    // SAFETY: `getrusage` writes a `rusage` into the zeroed local it is given and reads
    // nothing else.
    #[allow(unsafe_code)]
    unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        (libc::getrusage(libc::RUSAGE_SELF, &mut u) == 0).then_some(u)
    }
}

/// User plus system processor seconds of this process so far, all its threads (from
/// `getrusage(RUSAGE_SELF)`); `None` where the system does not tell.
#[must_use]
pub fn process_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        let u = own_usage()?;
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        Some(secs(u.ru_utime) + secs(u.ru_stime))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// User plus system processor seconds of the calling thread so far
/// (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`, POSIX); `None` where the system does not tell.
/// A thread that does work for others in a process (reading another program's output) counts
/// it with this, so that the process's own figure ([`process_seconds`]) can leave it out.
#[must_use]
pub fn thread_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        // SAFETY: `clock_gettime` writes a `timespec` into the zeroed local it is given.
        #[allow(unsafe_code)]
        let t = unsafe {
            let mut t: libc::timespec = std::mem::zeroed();
            if libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) != 0 {
                return None;
            }
            t
        };
        Some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The largest resident memory of this process so far, bytes (`ru_maxrss` of
/// `getrusage(RUSAGE_SELF)`); `None` where the system does not tell.
#[must_use]
pub fn peak_resident_bytes() -> Option<u64> {
    #[cfg(unix)]
    {
        let max = u64::try_from(own_usage()?.ru_maxrss).ok()?;
        // Linux and the BSDs count KiB, macOS bytes.
        if cfg!(target_os = "macos") {
            Some(max)
        } else {
            Some(max.saturating_mul(1024))
        }
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn processor_time_grows_with_work() {
        let Some(before) = super::process_seconds() else {
            return;
        };
        let mut x = 1u64;
        let t = std::time::Instant::now();
        while t.elapsed().as_millis() < 50 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        }
        std::hint::black_box(x);
        let after = super::process_seconds().unwrap();
        assert!(after > before, "{before} -> {after}");
    }

    #[test]
    fn a_thread_counts_its_own_time_only() {
        let Some(before) = super::thread_seconds() else {
            return;
        };
        // Another thread works 50 ms of its own CPU time; this one sleeps meanwhile.
        let other = std::thread::spawn(|| {
            let start = super::thread_seconds().unwrap();
            let mut x = 1u64;
            while super::thread_seconds().unwrap() - start < 0.05 {
                x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            }
            std::hint::black_box(x);
            super::thread_seconds().unwrap()
        });
        let theirs = other.join().unwrap();
        let mine = super::thread_seconds().unwrap() - before;
        assert!(theirs >= 0.05, "{theirs}");
        assert!(mine < 0.05, "this thread's {mine} s includes the other's");
    }

    #[test]
    fn peak_memory_covers_what_was_touched() {
        let Some(_) = super::peak_resident_bytes() else {
            return;
        };
        // 64 MiB written page by page is resident at once.
        let v = vec![1u8; 64 << 20];
        std::hint::black_box(&v);
        let peak = super::peak_resident_bytes().unwrap();
        assert!(peak >= 64 << 20, "{peak}");
    }
}
