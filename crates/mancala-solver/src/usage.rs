//! What this process has used: its processor time and its peak resident memory, to report
//! beside wall time on a machine that may be shared (the MPI ranks of `mancala-mpi`, the
//! players of a match in `mancala-bench`).

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
