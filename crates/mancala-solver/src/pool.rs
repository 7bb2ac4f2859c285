//! Thread pools whose threads are gone when the pool is.
//!
//! Dropping a [`rayon::ThreadPool`] only asks its threads to stop: they end a moment later,
//! on their own. A program that frees a solver and exits at once (a C program, a Python
//! script) could then end while those threads still hold their thread-local data, which a
//! leak checker reports ("possibly lost" under `std::thread::current`). [`Pool`] starts
//! the threads itself (rayon's `spawn_handler`) and joins every one of them when it is
//! dropped, so a solve, a build or a solver handle that is freed leaves no thread behind.

use std::ops::Deref;
use std::sync::{Arc, Mutex, PoisonError};
use std::thread::JoinHandle;

/// The threads of a [`Pool`], joined when dropped.
#[derive(Default)]
struct Joiner(Arc<Mutex<Vec<JoinHandle<()>>>>);

impl Drop for Joiner {
    fn drop(&mut self) {
        let handles = std::mem::take(&mut *self.0.lock().unwrap_or_else(PoisonError::into_inner));
        for h in handles {
            // A thread that panicked has ended too; its panic was rayon's to report.
            let _ = h.join();
        }
    }
}

/// A rayon thread pool that joins its threads when dropped (module docs). Dereferences to
/// the [`rayon::ThreadPool`] for `install`, `broadcast` and `join`.
pub(crate) struct Pool {
    // Declared first, so dropped first: the pool tells its threads to stop, then the joiner
    // waits until each has ended.
    pool: rayon::ThreadPool,
    _joiner: Joiner,
}

impl Pool {
    /// A pool of `threads` threads (0: one a core, as rayon counts them), named
    /// `{name}-{i}`.
    ///
    /// # Errors
    /// rayon's error when the pool cannot be built, a thread that cannot be started
    /// included.
    pub(crate) fn new(
        threads: usize,
        name: &'static str,
    ) -> Result<Pool, rayon::ThreadPoolBuildError> {
        let joiner = Joiner::default();
        let handles = Arc::clone(&joiner.0);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |i| format!("{name}-{i}"))
            .spawn_handler(move |thread| {
                let mut b = std::thread::Builder::new();
                if let Some(n) = thread.name() {
                    b = b.name(n.to_owned());
                }
                if let Some(size) = thread.stack_size() {
                    b = b.stack_size(size);
                }
                let h = b.spawn(move || thread.run())?;
                handles
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner)
                    .push(h);
                Ok(())
            })
            .build()?;
        Ok(Pool {
            pool,
            _joiner: joiner,
        })
    }
}

impl Deref for Pool {
    type Target = rayon::ThreadPool;

    fn deref(&self) -> &rayon::ThreadPool {
        &self.pool
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dropping_the_pool_ends_its_threads() {
        let pool = Pool::new(3, "pool-test").unwrap();
        assert_eq!(pool.current_num_threads(), 3);
        let names = pool.broadcast(|_| std::thread::current().name().map(str::to_owned));
        assert!(names
            .iter()
            .all(|n| n.as_deref().is_some_and(|n| n.starts_with("pool-test-"))));
        let handles = Arc::clone(&pool._joiner.0);
        assert_eq!(handles.lock().unwrap().len(), 3);
        drop(pool);
        // Every handle was joined (and so taken out) by the drop.
        assert!(handles.lock().unwrap().is_empty());
    }
}
