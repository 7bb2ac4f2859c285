//! # mancala-mpi
//!
//! Endgame databases (Kalah and Awari) and exact Kalah solves shared between the processes (*ranks*) of an MPI
//! job, for machines beyond one: the library behind the `mancala-mpi` command.
//!
//! ```sh
//! mpirun -np 4 mancala-mpi egdb build --rules standard --max-seeds 26 --out egdb/
//! mpirun -np 4 mancala-mpi solve --rules standard --egdb egdb/ --json
//! ```
//!
//! The MPI transport is the cargo feature `mpi` (rsmpi over the system's MPI library, Open
//! MPI in this project's CI); without it the command runs as one process, a job of one rank,
//! so that the workspace builds and tests without MPI. See `docs/mpi.md` for the design.
//!
//! # Ranks and messages
//!
//! Everything between ranks goes through [`comm::Comm`]. MPI is started at the funneled
//! thread level: only each process's main thread calls MPI; the build and search threads
//! never do.
//!
//! **Database build** ([`egdb_build`]): collectives only, every rank calling the same ones
//! in the same order. For each layer: a broadcast of the cuts of every level (rank 0's cost
//! model, [`balance`]); for each level an all-gather of the shares' entries (bytes in the
//! build's walk order); after the layer a gather of the ranks' timings to rank 0 and an
//! agreement on rank 0's write of the layer to the partial file. A resumed build starts
//! with a broadcast of each finished layer read back by rank 0.
//!
//! **Awari database build** ([`awari_build`]): collectives only. For each level and each
//! threshold, rounds of two all-gathers (each rank's update counts for each rank, then the
//! updates), until a round with no update; after each level an all-gather of the level's
//! values; at the end an agreement on rank 0's save.
//!
//! **Solve** ([`solve`]): rank 0 is the coordinator (and also runs a worker on threads of its
//! own, which talk to it through channels, not MPI); ranks 1.. are workers. Rank 0 runs
//! MTD(f) over its tree ([`tree`]) and hands out leaf searches, each with the window it
//! must answer. Messages are tagged byte strings:
//!
//! | tag | from → to | contents |
//! |---|---|---|
//! | [`solve::TAG_TASK`] | 0 → worker | a leaf's number, its moves from the root, and what to answer: an open window `a,b` or `full` |
//! | [`solve::TAG_RESULT`] | worker → 0 | the leaf's number, what was asked, the proven bounds, and for `full` the leaf's best moves, variation and swap choice (JSON) |
//! | [`solve::TAG_ERROR`] | worker → 0 | a one-line reason the worker cannot go on |
//! | [`solve::TAG_STOP`] | 0 → worker | the job is over (done, or failed elsewhere) |
//!
//! A worker has at most one task at a time; the coordinator sends a task only to a worker
//! with none, and a result whose bounds do not answer its window is an error of that
//! worker. Waiting ranks poll every millisecond and sleep in between (an idle rank takes no
//! core from a busy one).
//!
//! # Termination and errors
//!
//! Every step that can fail on some rank only (a command line, opening the partial file or
//! the database, memory for the entries or the table, writing a layer) ends in an agreement
//! ([`comm::agree`]): an all-gather of one flag a rank. A rank that failed prints its
//! one-line reason (`mancala-mpi: rank 2: …`), rank 0 prints which ranks stopped the job, and
//! every rank leaves with status 1 — no rank is left waiting in a collective. In the solve a
//! worker that fails on a leaf sends [`solve::TAG_ERROR`]; rank 0 prints it, sends
//! [`solve::TAG_STOP`] to every worker (one in the middle of a leaf sees it within a tenth
//! of a second and stops searching) and all leave with status 1. A rank that dies (killed,
//! or a panic: the command's panic hook aborts the process instead of unwinding into
//! `MPI_Finalize`, which would wait for the others) makes `mpirun` end the whole job; the
//! partial file or the journal then lets the next run skip the work already done.
#![deny(missing_docs)]

pub mod awari_build;
pub mod balance;
pub mod checkpoint;
pub mod comm;
pub mod cpu;
pub mod egdb_build;
pub mod journal;
#[cfg(feature = "mpi")]
pub mod mpi_comm;
pub mod solve;
pub mod tree;
