//! [`Comm`] over MPI (feature `mpi`): rsmpi's bindings to the system's MPI library (Open MPI
//! from the distribution's packages in this project's CI).
//!
//! MPI is started with `MPI_THREAD_FUNNELED`: only the main thread of each process calls MPI
//! (the search and build threads never do). Counts above 1 GiB are cut into rounds
//! ([`crate::comm::gather_rounds`]), since MPI counts are C `int`s.

use mpi::datatype::PartitionMut;
use mpi::point_to_point::MatchedReceiveVec;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;
use mpi::Threading;

use crate::comm::{gather_rounds, Comm, Tag, MAX_PIECE};

/// The world of an MPI job. MPI is finalized when the [`Mpi`] is dropped.
pub struct Mpi {
    world: SimpleCommunicator,
    on_node: usize,
    // Dropped last: finalizes MPI.
    _universe: mpi::environment::Universe,
}

impl std::fmt::Debug for Mpi {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Mpi(rank {} of {})", self.rank(), self.size())
    }
}

impl Mpi {
    /// Starts MPI (`MPI_Init_thread` with `MPI_THREAD_FUNNELED`). Launched without
    /// `mpirun`, the process is a job of one rank (MPI's singleton start).
    ///
    /// # Errors
    /// A message when MPI was already started or does not give the funneled thread level.
    pub fn start() -> Result<Mpi, String> {
        let (universe, level) = mpi::initialize_with_threading(Threading::Funneled)
            .ok_or_else(|| "MPI was already started".to_string())?;
        if level < Threading::Funneled {
            return Err(format!(
                "the MPI library gives the thread level {level:?}, the funneled level is needed"
            ));
        }
        let world = universe.world();
        let on_node = world.split_shared(world.rank()).size() as usize;
        Ok(Mpi {
            world,
            on_node,
            _universe: universe,
        })
    }
}

fn count(n: usize) -> mpi::Count {
    mpi::Count::try_from(n).expect("pieces are at most MAX_PIECE bytes")
}

impl Comm for Mpi {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn ranks_on_node(&self) -> usize {
        self.on_node
    }

    fn broadcast(&self, root: usize, buf: &mut Vec<u8>) {
        let root = self.world.process_at_rank(root as i32);
        let mut len = buf.len() as u64;
        root.broadcast_into(&mut len);
        buf.resize(len as usize, 0);
        for piece in buf.chunks_mut(MAX_PIECE) {
            root.broadcast_into(piece);
        }
    }

    fn all_gather(&self, mine: &[u8], counts: &[usize], out: &mut [u8]) {
        let me = self.rank();
        debug_assert_eq!(mine.len(), counts[me]);
        let starts: Vec<usize> = counts
            .iter()
            .scan(0, |at, &c| {
                let s = *at;
                *at += c;
                Some(s)
            })
            .collect();
        let rounds = gather_rounds(counts, MAX_PIECE);
        if rounds.len() == 1 {
            let c: Vec<mpi::Count> = counts.iter().map(|&n| count(n)).collect();
            let d: Vec<mpi::Count> = starts.iter().map(|&n| count(n)).collect();
            let mut part = PartitionMut::new(out, c, d);
            self.world.all_gather_varcount_into(mine, &mut part);
            return;
        }
        let mut tmp = Vec::new();
        for round in rounds {
            let c: Vec<mpi::Count> = round.iter().map(|&(_, n)| count(n)).collect();
            let mut d = Vec::with_capacity(round.len());
            let mut at = 0;
            for &(_, n) in &round {
                d.push(count(at));
                at += n;
            }
            tmp.resize(at, 0);
            let (from, len) = round[me];
            let mut part = PartitionMut::new(&mut tmp[..], c, d);
            self.world
                .all_gather_varcount_into(&mine[from..from + len], &mut part);
            let mut at = 0;
            for (r, &(from, len)) in round.iter().enumerate() {
                out[starts[r] + from..starts[r] + from + len].copy_from_slice(&tmp[at..at + len]);
                at += len;
            }
        }
    }

    fn gather_f64(&self, mine: &[f64]) -> Option<Vec<f64>> {
        let root = self.world.process_at_rank(0);
        if self.rank() == 0 {
            let mut all = vec![0.0; mine.len() * self.size()];
            root.gather_into_root(mine, &mut all[..]);
            Some(all)
        } else {
            root.gather_into(mine);
            None
        }
    }

    fn all_flags(&self, mine: bool) -> Vec<bool> {
        let mut all = vec![0u8; self.size()];
        self.world.all_gather_into(&u8::from(mine), &mut all[..]);
        all.into_iter().map(|b| b != 0).collect()
    }

    fn send(&self, to: usize, tag: Tag, bytes: &[u8]) {
        self.world
            .process_at_rank(to as i32)
            .send_with_tag(bytes, tag);
    }

    fn try_receive(&self, from: Option<usize>) -> Option<(usize, Tag, Vec<u8>)> {
        let probe = match from {
            Some(r) => self
                .world
                .process_at_rank(r as i32)
                .immediate_matched_probe(),
            None => self.world.any_process().immediate_matched_probe(),
        };
        let (bytes, status) = probe?.matched_receive_vec::<u8>();
        Some((status.source_rank() as usize, status.tag(), bytes))
    }
}
