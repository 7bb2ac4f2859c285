//! The Awari database built by several parts together (`AwariDb::build_shared`, the method
//! `mancala-mpi` runs between ranks) equals the one-process build on every board, whatever
//! the number of parts. The parts run here on threads, talking over channels: one channel a
//! pair of parts, so that each part reads each other part's messages in the order they were
//! sent, as MPI's point-to-point and collective operations deliver them.

use std::sync::mpsc::{channel, Receiver, Sender};

use mancala_solver::awari::{split, AwariDb, Exchange};

enum Message {
    /// A round's messages to the receiver, and how many the sender sent in all.
    Round(Vec<u64>, u64),
    /// The sender's share of a level.
    Share(Vec<u8>),
}

struct ThreadExchange {
    part: usize,
    /// `to[q]`: the channel to part q (none to itself).
    to: Vec<Option<Sender<Message>>>,
    /// `from[q]`: the channel from part q.
    from: Vec<Option<Receiver<Message>>>,
}

/// The exchanges of `parts` parts, connected pairwise.
fn exchanges(parts: usize) -> Vec<ThreadExchange> {
    let mut to: Vec<Vec<Option<Sender<Message>>>> = (0..parts)
        .map(|_| (0..parts).map(|_| None).collect())
        .collect();
    let mut from: Vec<Vec<Option<Receiver<Message>>>> = (0..parts)
        .map(|_| (0..parts).map(|_| None).collect())
        .collect();
    for a in 0..parts {
        for b in 0..parts {
            if a != b {
                let (s, r) = channel();
                to[a][b] = Some(s);
                from[b][a] = Some(r);
            }
        }
    }
    to.into_iter()
        .zip(from)
        .enumerate()
        .map(|(part, (to, from))| ThreadExchange { part, to, from })
        .collect()
}

impl Exchange for ThreadExchange {
    fn parts(&self) -> usize {
        self.to.len()
    }

    fn part(&self) -> usize {
        self.part
    }

    fn exchange(&mut self, out: &[Vec<u64>]) -> (Vec<u64>, u64) {
        assert!(out[self.part].is_empty(), "a message to itself");
        let sent: u64 = out.iter().map(|o| o.len() as u64).sum();
        for (q, to) in self.to.iter().enumerate() {
            if let Some(to) = to {
                to.send(Message::Round(out[q].clone(), sent)).unwrap();
            }
        }
        let mut inbox = Vec::new();
        let mut total = sent;
        for from in self.from.iter().flatten() {
            match from.recv().unwrap() {
                Message::Round(m, s) => {
                    inbox.extend(m);
                    total += s;
                }
                Message::Share(_) => panic!("a share where a round was expected"),
            }
        }
        (inbox, total)
    }

    fn gather(&mut self, mine: &[u8], shares: &[usize]) -> Vec<u8> {
        assert_eq!(mine.len(), shares[self.part]);
        for to in self.to.iter().flatten() {
            to.send(Message::Share(mine.to_vec())).unwrap();
        }
        let mut all = Vec::new();
        for (q, from) in self.from.iter().enumerate() {
            match from {
                None => all.extend_from_slice(mine),
                Some(from) => match from.recv().unwrap() {
                    Message::Share(s) => {
                        assert_eq!(s.len(), shares[q]);
                        all.extend(s);
                    }
                    Message::Round(..) => panic!("a round where a share was expected"),
                },
            }
        }
        all
    }
}

#[test]
fn ranges_cover_each_level_in_order() {
    for n in [0, 1, 5, 13] {
        for parts in 1..=7 {
            let r = split(n, parts).unwrap();
            assert_eq!(r.len(), parts);
            assert_eq!(r[0].start, 0);
            for w in r.windows(2) {
                assert_eq!(w[0].end, w[1].start);
            }
            assert_eq!(
                r[parts - 1].end,
                mancala_solver::awari::rank::level_len(n).unwrap()
            );
        }
    }
    assert!(split(3, 0).is_none());
}

#[test]
fn a_shared_build_equals_the_one_process_build() {
    const N: u32 = 12;
    let one = AwariDb::build(N, 2).unwrap();
    for parts in [1, 3, 5] {
        let dbs: Vec<AwariDb> = std::thread::scope(|s| {
            let handles: Vec<_> = exchanges(parts)
                .into_iter()
                .map(|mut ex| {
                    s.spawn(move || AwariDb::build_shared(N, 1, &mut ex, |_| {}).unwrap())
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (p, db) in dbs.iter().enumerate() {
            for n in 0..=N {
                assert_eq!(
                    db.level_stats(n),
                    one.level_stats(n),
                    "{parts} parts, part {p}"
                );
                let len = mancala_solver::awari::rank::level_len(n).unwrap();
                let differ = (0..len)
                    .filter(|&i| db.value_at(n, i) != one.value_at(n, i))
                    .count();
                assert_eq!(differ, 0, "{parts} parts, part {p}, level {n}");
            }
        }
    }
}
