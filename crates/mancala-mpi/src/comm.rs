//! The ranks of a job and what they say to each other: the [`Comm`] trait, its one-process
//! implementation [`Single`], and (feature `mpi`) the MPI one in `mpi_comm`.
//!
//! Only what the build and the solve use: collectives on bytes (broadcast, all-gather of
//! shares of different sizes, gather to rank 0, agreement on failure) and tagged byte
//! messages between two ranks, received by polling so that an idle rank sleeps instead of
//! spinning on a core another rank needs.

/// A tag of a point-to-point message (the solve protocol's message types, crate docs).
pub type Tag = i32;

/// The ranks of a job, seen from one of them. Every collective must be called by every rank
/// in the same order (as in MPI); the byte counts may be of any size (implementations cut
/// what exceeds MPI's `int` counts into rounds).
pub trait Comm {
    /// This process's rank, `0..size()`.
    fn rank(&self) -> usize;
    /// Ranks in the job.
    fn size(&self) -> usize;
    /// Ranks of the job on this machine (this one included), to share its cores.
    fn ranks_on_node(&self) -> usize;
    /// Rank `root`'s `buf` (any length) to every rank: the others' `buf` is replaced.
    fn broadcast(&self, root: usize, buf: &mut Vec<u8>);
    /// Every rank's `mine` to every rank, in rank order: `counts[r]` is rank r's length (the
    /// same `counts` on every rank), `out` holds their sum.
    fn all_gather(&self, mine: &[u8], counts: &[usize], out: &mut [u8]);
    /// Every rank's `mine` (one length on every rank) to rank 0, in rank order; `None` on the
    /// other ranks.
    fn gather_f64(&self, mine: &[f64]) -> Option<Vec<f64>>;
    /// Every rank's flag to every rank, in rank order.
    fn all_flags(&self, mine: bool) -> Vec<bool>;
    /// Sends `bytes` with `tag` to rank `to` (returns once the bytes may be reused).
    fn send(&self, to: usize, tag: Tag, bytes: &[u8]);
    /// A message from rank `from` (any rank when `None`) if one has arrived: (sender, tag,
    /// bytes). Never waits.
    fn try_receive(&self, from: Option<usize>) -> Option<(usize, Tag, Vec<u8>)>;
}

/// The job of one process: rank 0 of 1. Collectives copy or do nothing, and no message is
/// ever sent (there is no other rank to send one to). The command uses it when built
/// without MPI; with MPI only the tests do.
#[cfg_attr(all(feature = "mpi", not(test)), allow(dead_code))]
#[derive(Debug, Default, Clone, Copy)]
pub struct Single;

impl Comm for Single {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn ranks_on_node(&self) -> usize {
        1
    }
    fn broadcast(&self, _root: usize, _buf: &mut Vec<u8>) {}
    fn all_gather(&self, mine: &[u8], _counts: &[usize], out: &mut [u8]) {
        out.copy_from_slice(mine);
    }
    fn gather_f64(&self, mine: &[f64]) -> Option<Vec<f64>> {
        Some(mine.to_vec())
    }
    fn all_flags(&self, mine: bool) -> Vec<bool> {
        vec![mine]
    }
    fn send(&self, to: usize, _tag: Tag, _bytes: &[u8]) {
        unreachable!("a one-process job has no rank {to} to send to");
    }
    fn try_receive(&self, _from: Option<usize>) -> Option<(usize, Tag, Vec<u8>)> {
        None
    }
}

/// Why a collective step failed: on this rank (with the message to print), or on another
/// rank (which printed its own).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// This rank failed; the one-line reason.
    Here(String),
    /// Other ranks failed (their ranks); they printed their reasons.
    Elsewhere(Vec<usize>),
    /// Rank `.0` failed for the reason `.1`, which this rank (rank 0) prints.
    Of(usize, String),
}

impl Failure {
    /// The line to print on standard error, if this rank should print one: its own reason,
    /// or on rank 0 which ranks stopped the job.
    #[must_use]
    pub fn message(&self, rank: usize, size: usize) -> Option<String> {
        match self {
            Failure::Here(m) if size > 1 => Some(format!("rank {rank}: {m}")),
            Failure::Here(m) => Some(m.clone()),
            Failure::Elsewhere(ranks) if rank == 0 => {
                let list: Vec<String> = ranks.iter().map(ToString::to_string).collect();
                let (ranks, reasons) = if list.len() == 1 {
                    ("rank", "reason")
                } else {
                    ("ranks", "reasons")
                };
                Some(format!(
                    "stopped: {ranks} {} failed ({reasons} above)",
                    list.join(", ")
                ))
            }
            Failure::Elsewhere(_) => None,
            Failure::Of(r, m) => Some(format!("rank {r}: {m}")),
        }
    }
}

/// Every rank's outcome of one step to every rank (a collective): `Ok` on every rank when
/// every rank succeeded; otherwise each failed rank gets [`Failure::Here`] with its reason
/// and the others [`Failure::Elsewhere`] with the failed ranks, so that all stop together
/// and no rank waits in a later collective for one that left.
///
/// # Errors
/// As said: when any rank's `outcome` is an error.
pub fn agree<C: Comm + ?Sized, T>(comm: &C, outcome: Result<T, String>) -> Result<T, Failure> {
    let flags = comm.all_flags(outcome.is_err());
    match outcome {
        Err(m) => Err(Failure::Here(m)),
        Ok(v) => {
            let failed: Vec<usize> = (0..flags.len()).filter(|&r| flags[r]).collect();
            if failed.is_empty() {
                Ok(v)
            } else {
                Err(Failure::Elsewhere(failed))
            }
        }
    }
}

/// The largest piece one MPI call moves (its counts are C `int`s): 1 GiB.
#[cfg(feature = "mpi")]
pub const MAX_PIECE: usize = 1 << 30;

/// The rounds of an all-gather of shares of `counts` bytes when one call moves at most
/// `piece` bytes a rank: for each round, each rank's `(offset in its share, length)`.
#[cfg(any(feature = "mpi", test))]
#[must_use]
pub fn gather_rounds(counts: &[usize], piece: usize) -> Vec<Vec<(usize, usize)>> {
    let rounds = counts
        .iter()
        .map(|&c| c.div_ceil(piece))
        .max()
        .unwrap_or(0)
        .max(1);
    (0..rounds)
        .map(|i| {
            counts
                .iter()
                .map(|&c| {
                    let from = (i * piece).min(c);
                    (from, (c - from).min(piece))
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounds_cover_every_share_once() {
        let counts = [10, 0, 25, 7];
        let rounds = gather_rounds(&counts, 8);
        assert_eq!(rounds.len(), 4);
        for (r, &c) in counts.iter().enumerate() {
            let mut at = 0;
            for round in &rounds {
                let (from, len) = round[r];
                assert!(len <= 8);
                if len > 0 {
                    assert_eq!(from, at);
                }
                at += len;
            }
            assert_eq!(at, c);
        }
        assert_eq!(gather_rounds(&[0, 0], 8).len(), 1);
        assert_eq!(gather_rounds(&[3, 5], 8).len(), 1);
    }

    #[test]
    fn a_single_rank_agrees_with_itself() {
        assert_eq!(agree(&Single, Ok::<_, String>(3)), Ok(3));
        assert_eq!(
            agree(&Single, Err::<(), _>("no".to_string())),
            Err(Failure::Here("no".to_string()))
        );
        let f = Failure::Elsewhere(vec![2]);
        assert_eq!(f.message(1, 3), None);
        assert_eq!(
            f.message(0, 3).unwrap(),
            "stopped: rank 2 failed (reason above)"
        );
        assert_eq!(
            Failure::Elsewhere(vec![1, 2]).message(0, 3).unwrap(),
            "stopped: ranks 1, 2 failed (reasons above)"
        );
        assert_eq!(
            Failure::Here("x".into()).message(2, 3).unwrap(),
            "rank 2: x"
        );
    }
}
