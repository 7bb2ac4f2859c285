//! # mancala-mpi
//!
//! Endgame databases and exact Kalah solves shared between the processes (*ranks*) of an MPI
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
//! # Termination and errors
//!
//! Every step that can fail on some rank only (opening the partial file or the database,
//! memory for the entries or the table, writing a layer) ends in an agreement
//! ([`comm::agree`]): an all-gather of one flag a rank. A rank that failed prints its
//! one-line reason (`mancala-mpi: rank 2: …`), rank 0 prints which ranks stopped the job, and
//! every rank leaves with status 1 — no rank is left waiting in a collective.
//! A rank that dies
//! (killed, or a panic, which aborts the process) makes `mpirun` end the whole job; the
//! partial file or the journal then lets the next run skip the work already done.
#![deny(missing_docs)]

pub mod balance;
pub mod checkpoint;
pub mod comm;
pub mod cpu;
pub mod egdb_build;
#[cfg(feature = "mpi")]
pub mod mpi_comm;
