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
    /// A step every rank took together failed ([`agree`]): every rank has the reasons of
    /// the ranks that failed, each once with the ranks that gave it (in rank order; none
    /// for a check rank 0 alone makes, [`agree_at_root`]), and rank 0 alone prints them
    /// ([`Failure::reasons`]).
    Agreed(Vec<(Vec<usize>, String)>),
    /// A check rank 0 alone makes after the other ranks are done (the final save) refused
    /// the job: rank 0 prints the reason as the job's, without a rank.
    Job(String),
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
            Failure::Job(m) => (rank == 0).then(|| m.clone()),
            Failure::Agreed(_) => {
                let lines = self.reasons(rank, size);
                (!lines.is_empty()).then(|| lines.join("\n"))
            }
        }
    }

    /// The lines rank `rank` of `size` prints for [`Failure::Agreed`]: on rank 0 one line a
    /// reason, the reason alone when every rank gave it, when it is of a check rank 0 alone
    /// makes (no ranks: [`agree_at_root`]) or the job has one rank, else
    /// after the ranks that gave it (`rank 2: …`, `ranks 1, 2: …`); nothing on the other
    /// ranks, nor for the other failures.
    #[must_use]
    pub fn reasons(&self, rank: usize, size: usize) -> Vec<String> {
        let Failure::Agreed(reasons) = self else {
            return Vec::new();
        };
        if rank != 0 {
            return Vec::new();
        }
        reasons
            .iter()
            .map(|(ranks, m)| {
                if size <= 1 || ranks.is_empty() || ranks.len() == size {
                    m.clone()
                } else if let [r] = ranks[..] {
                    format!("rank {r}: {m}")
                } else {
                    let list: Vec<String> = ranks.iter().map(ToString::to_string).collect();
                    format!("ranks {}: {m}", list.join(", "))
                }
            })
            .collect()
    }
}

/// Every rank's outcome of one step to every rank (a collective): `Ok` on every rank when
/// every rank succeeded; otherwise every rank gets the same [`Failure::Agreed`], the
/// reasons of the ranks that failed (each reason once, with the ranks that gave it), so that
/// all stop together, no rank waits in a later collective for one that left, and rank 0
/// alone says why: once, however many ranks found the same reason.
///
/// # Errors
/// As said: when any rank's `outcome` is an error.
pub fn agree<C: Comm + ?Sized, T>(comm: &C, outcome: Result<T, String>) -> Result<T, Failure> {
    let flags = comm.all_flags(outcome.is_err());
    if !flags.contains(&true) {
        return outcome.map_err(Failure::Here);
    }
    // Some rank failed (every rank knows it): every rank's reason to every rank, the
    // lengths first.
    let mine = outcome.as_ref().err().map_or(&[][..], |m| m.as_bytes());
    let size = flags.len();
    let mut lengths = vec![0u8; 8 * size];
    comm.all_gather(
        &(mine.len() as u64).to_le_bytes(),
        &vec![8; size],
        &mut lengths,
    );
    let counts: Vec<usize> = lengths
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes")) as usize)
        .collect();
    let mut all = vec![0u8; counts.iter().sum()];
    comm.all_gather(mine, &counts, &mut all);
    let mut reasons: Vec<(Vec<usize>, String)> = Vec::new();
    let mut at = 0;
    for (rank, &n) in counts.iter().enumerate() {
        let text = String::from_utf8_lossy(&all[at..at + n]).into_owned();
        at += n;
        if !flags[rank] {
            continue;
        }
        match reasons.iter_mut().find(|(_, m)| *m == text) {
            Some((ranks, _)) => ranks.push(rank),
            None => reasons.push((vec![rank], text)),
        }
    }
    Err(Failure::Agreed(reasons))
}

/// [`agree`] of a step only rank 0 takes (the output path, the partial file, the save),
/// the other ranks' `outcome` being `Ok`: a refusal is the job's, said by rank 0 in the
/// words of one process (no `rank 0: ` before it), as `mancala` says it.
///
/// # Errors
/// As [`agree`]; rank 0's reason is given with no ranks.
pub fn agree_at_root<C: Comm + ?Sized, T>(
    comm: &C,
    outcome: Result<T, String>,
) -> Result<T, Failure> {
    agree(comm, outcome).map_err(|f| match f {
        Failure::Agreed(reasons) => Failure::Agreed(
            reasons
                .into_iter()
                .map(|(ranks, m)| {
                    if ranks == [0] {
                        (Vec::new(), m)
                    } else {
                        (ranks, m)
                    }
                })
                .collect(),
        ),
        f => f,
    })
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
        let f = agree(&Single, Err::<(), _>("no".to_string())).unwrap_err();
        assert_eq!(f, Failure::Agreed(vec![(vec![0], "no".to_string())]));
        assert_eq!(f.message(0, 1).unwrap(), "no");
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

    #[test]
    fn rank_0_says_each_agreed_reason_once() {
        let same = Failure::Agreed(vec![(vec![0, 1], "K = 99 is too many".to_string())]);
        assert_eq!(same.reasons(0, 2), ["K = 99 is too many"]);
        assert_eq!(same.reasons(1, 2), Vec::<String>::new());
        assert_eq!(same.message(1, 2), None);
        let some = Failure::Agreed(vec![
            (vec![1, 3], "no database".to_string()),
            (vec![2], "no memory".to_string()),
        ]);
        assert_eq!(
            some.reasons(0, 4),
            ["ranks 1, 3: no database", "rank 2: no memory"]
        );
        assert_eq!(
            some.message(0, 4).unwrap(),
            "ranks 1, 3: no database\nrank 2: no memory"
        );
        assert!(some.reasons(3, 4).is_empty());
        assert!(Failure::Here("x".into()).reasons(0, 2).is_empty());
        // Rank 0's own check alone, with other ranks in the job: but a refusal of the job.
        let job = Failure::Agreed(vec![(vec![], "occupied".to_string())]);
        assert_eq!(job.reasons(0, 3), ["occupied"]);
        assert!(job.reasons(1, 3).is_empty());
        assert_eq!(
            Failure::Job("occupied".into()).message(0, 3).unwrap(),
            "occupied"
        );
        assert_eq!(Failure::Job("occupied".into()).message(1, 3), None);
    }
}
