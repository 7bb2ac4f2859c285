//! Processor time of this process, to report beside wall time (the machine may be shared).

/// User plus system processor seconds of this process so far, all its threads (from
/// `getrusage(RUSAGE_SELF)`); `None` where the system does not tell.
#[must_use]
pub fn process_seconds() -> Option<f64> {
    #[cfg(unix)]
    {
        // SAFETY: `getrusage` writes a `rusage` into the zeroed local it is given and reads
        // nothing else.
        #[allow(unsafe_code)]
        let usage = unsafe {
            let mut u: libc::rusage = std::mem::zeroed();
            (libc::getrusage(libc::RUSAGE_SELF, &mut u) == 0).then_some(u)
        };
        let u = usage?;
        let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
        Some(secs(u.ru_utime) + secs(u.ru_stime))
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
}
