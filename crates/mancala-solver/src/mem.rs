//! Large zeroed buffers of atomics in anonymous memory, backed by transparent huge pages when
//! the system allows (`madvise(MADV_HUGEPAGE)`): the transposition table and the database are
//! read at random, and 2 MiB pages remove most of the TLB misses that 4 KiB pages cause.
//! Also the cache [`prefetch`] hint that the tables, the search and the database build read
//! them with, and [`MAX_THREADS`], the most threads a solve or a database build starts.

use std::marker::PhantomData;
use std::sync::atomic::{AtomicU64, AtomicU8};

use thiserror::Error;

/// The most threads a solve ([`crate::Solver`]) or a database build ([`crate::Egdb::build`])
/// starts; more are refused with a typed error before any thread starts (the command line
/// allows 256). Without the cap, rayon starts threads until the system refuses (seen: 2,738
/// threads for a request of 2^40 from Python, the machine unusable for minutes).
pub const MAX_THREADS: usize = 1024;

/// Memory for a table or a database could not be had: neither an anonymous map nor the heap
/// gave `bytes` bytes, or (`refused`) the library refused before allocating because `bytes`
/// is more than the memory available. Returned instead of aborting the process (what a
/// failed `Vec` allocation would do), so that a caller, a C program among them, can retry
/// with less.
///
/// Shown on one line: "out of memory: cannot allocate 4294967296 bytes (4.0 GiB)" for a
/// failed allocation, followed by what was available when it failed where that is known
/// ("; 2147483648 bytes (2.0 GiB) left under the address-space limit (`ulimit -v`)"); for a
/// refusal, "out of memory: cannot allocate 8589934592 bytes (8.0 GiB), more than the
/// 4294967296 bytes (4.0 GiB) of memory available" (units as [`readable_bytes`] gives them;
/// the bound as [`AvailableMemory`] says it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub struct OutOfMemory {
    /// The size asked for, bytes.
    pub bytes: usize,
    /// The memory the process had available ([`crate::available_memory`]): for a refusal,
    /// what `bytes` exceeds; for a failed allocation, what was left when it failed. `None`
    /// where it was not read (a size beyond the address space) or cannot be.
    pub available: Option<AvailableMemory>,
    /// `true` when the library refused before allocating (`bytes` is more than
    /// `available`), `false` when an allocation itself failed.
    pub refused: bool,
}

impl OutOfMemory {
    /// A failed allocation of `bytes` bytes, without a figure of what was available (a size
    /// that does not fit the address space, where the figure says nothing).
    #[must_use]
    pub const fn failed(bytes: usize) -> OutOfMemory {
        OutOfMemory {
            bytes,
            available: None,
            refused: false,
        }
    }

    /// A failed allocation of `bytes` bytes, with the memory available read now
    /// ([`crate::available_memory`]), just after the failure.
    #[must_use]
    pub fn failed_now(bytes: usize) -> OutOfMemory {
        OutOfMemory {
            bytes,
            available: crate::available_memory(),
            refused: false,
        }
    }

    /// The refusal, before any allocation, of `bytes` bytes, more than `available`.
    #[must_use]
    pub const fn refused(bytes: usize, available: AvailableMemory) -> OutOfMemory {
        OutOfMemory {
            bytes,
            available: Some(available),
            refused: true,
        }
    }
}

impl std::fmt::Display for OutOfMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "out of memory: cannot allocate {} bytes ({})",
            self.bytes,
            readable_bytes(self.bytes as u64)
        )?;
        match self.available {
            Some(available) if self.refused => write!(f, ", more than the {available}"),
            Some(available) => write!(f, "; {available}"),
            None => Ok(()),
        }
    }
}

/// Which bound the memory available ([`crate::available_memory`]) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MemoryBound {
    /// The machine's: `MemAvailable` of Linux's `/proc/meminfo`.
    Machine,
    /// The room left under this process's address-space limit (`RLIMIT_AS`, `ulimit -v`):
    /// the limit less the process's virtual size, smaller than the machine's memory.
    AddressSpace,
}

/// The memory a process may still take, bytes, and which bound that is
/// ([`crate::available_memory`]). Shown as the end of a refusal ("more than the …"):
/// "4294967296 bytes (4.0 GiB) of memory available" for the machine's memory,
/// "4294967296 bytes (4.0 GiB) left under the address-space limit (`ulimit -v`)" for the
/// room under the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AvailableMemory {
    /// Bytes.
    pub bytes: u64,
    /// Which bound it is.
    pub bound: MemoryBound,
}

impl std::fmt::Display for AvailableMemory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} bytes ({}) ", self.bytes, readable_bytes(self.bytes))?;
        f.write_str(match self.bound {
            MemoryBound::Machine => "of memory available",
            MemoryBound::AddressSpace => "left under the address-space limit (`ulimit -v`)",
        })
    }
}

/// The refusal of a transposition table of `mb` MiB (`--tt-mb MB`) larger than the memory
/// this process may still take ([`available_memory`]), in the words every command gives it:
/// `--tt-mb MB: B bytes (R), more than the <available>` (bytes and a readable size of both);
/// `None` when the table fits or the memory available cannot be read (then nothing is
/// checked).
#[must_use]
pub fn tt_mb_refusal(mb: u64) -> Option<String> {
    let tt_bytes = mb.saturating_mul(1 << 20);
    let avail = available_memory()?;
    (tt_bytes > avail.bytes).then(|| {
        format!(
            "--tt-mb {mb}: {tt_bytes} bytes ({}), more than the {avail}",
            readable_bytes(tt_bytes)
        )
    })
}

/// Memory this process may still take, in bytes: the smaller of `MemAvailable` of
/// `/proc/meminfo` (Linux) and, under a limit of the address space (`RLIMIT_AS`, `ulimit
/// -v`), the room left below it (the soft limit less the process's virtual size now, the
/// first field of `/proc/self/statm`); either alone where the other cannot be read or there
/// is no limit, `None` where neither can be (then callers check nothing).
#[must_use]
pub fn available_memory_bytes() -> Option<u64> {
    available_memory().map(|a| a.bytes)
}

/// [`available_memory_bytes`] with the bound it is: the machine's memory
/// ([`MemoryBound::Machine`]) or the room left under the address-space limit
/// ([`MemoryBound::AddressSpace`]) when that is the smaller (or the only one read), as the
/// refusals say it. `None` where neither can be read.
///
/// [`MemoryBound::Machine`]: MemoryBound::Machine
/// [`MemoryBound::AddressSpace`]: MemoryBound::AddressSpace
#[must_use]
pub fn available_memory() -> Option<AvailableMemory> {
    let machine = machine_available_bytes().map(|bytes| AvailableMemory {
        bytes,
        bound: MemoryBound::Machine,
    });
    let room = address_space_room().map(|bytes| AvailableMemory {
        bytes,
        bound: MemoryBound::AddressSpace,
    });
    match (machine, room) {
        (Some(m), Some(r)) => Some(if r.bytes < m.bytes { r } else { m }),
        (m, r) => m.or(r),
    }
}

/// `MemAvailable` of `/proc/meminfo`, bytes: memory the machine can give without swapping.
fn machine_available_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib.saturating_mul(1024))
}

/// The room left under this process's limit of its address space, bytes: the soft limit
/// `RLIMIT_AS` (`ulimit -v`) less the virtual size the process has now (the first field of
/// `/proc/self/statm`, in pages; taken as 0 where it cannot be read). `None` without a limit
/// (`RLIM_INFINITY`) or where it cannot be read; 0 when the process is at or above it. A
/// mapping or allocation larger than this fails, whatever memory the machine has free.
fn address_space_room() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: `getrlimit` writes only the `rlimit` it is given, which lives for the call.
        if unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut limit) } != 0
            || limit.rlim_cur == libc::RLIM_INFINITY
        {
            return None;
        }
        // `rlim_t` is `u64` on Linux; the conversion is for the systems where it is not.
        #[allow(clippy::useless_conversion)]
        let limit = u64::try_from(limit.rlim_cur).ok()?;
        Some(limit.saturating_sub(virtual_size_bytes().unwrap_or(0)))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// This process's virtual size now, bytes: the first field of `/proc/self/statm` (pages)
/// times the page size; `None` where that cannot be read (not Linux).
#[cfg(unix)]
fn virtual_size_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = text.split_whitespace().next()?.parse().ok()?;
    // SAFETY: `sysconf` has no preconditions.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let page = u64::try_from(page).ok().filter(|&p| p > 0)?;
    Some(pages.saturating_mul(page))
}

/// `bytes` in the unit a person reads, as the `mancala` command's messages give sizes:
/// "512 B", "16 KiB", "215 MiB", "6.4 GiB", "32.0 TiB" (binary units; GiB and TiB with one
/// decimal, the others rounded to a whole number).
#[must_use]
pub fn readable_bytes(bytes: u64) -> String {
    const KIB: f64 = 1024.0;
    const MIB: f64 = 1024.0 * KIB;
    const GIB: f64 = 1024.0 * MIB;
    const TIB: f64 = 1024.0 * GIB;
    let b = bytes as f64;
    // Each unit from where its figure would round to 1024 of the unit below ("1024.0 GiB"
    // is "1.0 TiB", "1024 MiB" is "1.0 GiB").
    if b >= TIB - 0.05 * GIB {
        format!("{:.1} TiB", b / TIB)
    } else if b >= GIB - 0.5 * MIB {
        format!("{:.1} GiB", b / GIB)
    } else if b >= MIB - 0.5 * KIB {
        format!("{:.0} MiB", b / MIB)
    } else if b >= KIB {
        format!("{:.0} KiB", b / KIB)
    } else {
        format!("{bytes} B")
    }
}

/// Marker for the atomic integer types a [`ZeroedBuf`] may hold: all-zero bytes are a valid
/// value and the alignment divides a page.
///
/// # Safety
/// Implement only for types whose all-zero bit pattern is valid and whose alignment is at
/// most 4096.
pub(crate) unsafe trait ZeroValid {}
// SAFETY: 0 is a valid AtomicU64 / AtomicU8; alignments 8 and 1.
unsafe impl ZeroValid for AtomicU64 {}
// SAFETY: as above.
unsafe impl ZeroValid for AtomicU8 {}

/// `len` zeroed `A`s in an anonymous memory map (heap fallback when mapping fails).
pub(crate) struct ZeroedBuf<A: ZeroValid> {
    map: Option<memmap2::MmapMut>,
    heap: Vec<A>,
    /// The first value, in the map or on the heap: kept so that [`ZeroedBuf::as_slice`], on
    /// the path of every table probe, needs no branch.
    first: std::ptr::NonNull<A>,
    len: usize,
    _marker: PhantomData<A>,
}

// SAFETY: a `ZeroedBuf` owns its map or its vector as those types would (`first` points into
// them and is never handed out but as a shared slice of `A`), and `A` is an atomic type, so
// sharing and sending it is as safe as sharing or sending the map or a `Vec<A>`.
unsafe impl<A: ZeroValid + Send + Sync> Send for ZeroedBuf<A> {}
// SAFETY: as above.
unsafe impl<A: ZeroValid + Send + Sync> Sync for ZeroedBuf<A> {}

impl<A: ZeroValid> ZeroedBuf<A> {
    /// A buffer of no value (allocates nothing).
    pub(crate) fn empty() -> ZeroedBuf<A> {
        ZeroedBuf {
            map: None,
            heap: Vec::new(),
            first: std::ptr::NonNull::dangling(),
            len: 0,
            _marker: PhantomData,
        }
    }

    /// `len` zeroed values, or [`OutOfMemory`] when neither a map nor the heap has room.
    pub(crate) fn new(len: usize) -> Result<ZeroedBuf<A>, OutOfMemory> {
        let Some(bytes) = len.checked_mul(std::mem::size_of::<A>()) else {
            return Err(OutOfMemory::failed(usize::MAX));
        };
        // Miri cannot map memory: the heap fallback serves it.
        if bytes >= 1 << 21 && !cfg!(miri) {
            if let Ok(map) = memmap2::MmapMut::map_anon(bytes) {
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                let first = std::ptr::NonNull::new(map.as_ptr().cast::<A>().cast_mut())
                    .unwrap_or(std::ptr::NonNull::dangling());
                return Ok(ZeroedBuf {
                    map: Some(map),
                    heap: Vec::new(),
                    first,
                    len,
                    _marker: PhantomData,
                });
            }
        }
        let mut heap = Vec::new();
        heap.try_reserve_exact(len)
            .map_err(|_| OutOfMemory::failed_now(bytes))?;
        // SAFETY: `ZeroValid` promises that all-zero bytes are a valid `A`.
        heap.extend((0..len).map(|_| unsafe { std::mem::zeroed::<A>() }));
        let first = std::ptr::NonNull::new(heap.as_ptr().cast_mut())
            .unwrap_or(std::ptr::NonNull::dangling());
        Ok(ZeroedBuf {
            map: None,
            heap,
            first,
            len,
            _marker: PhantomData,
        })
    }

    /// Asks the system for ordinary (4 KiB) pages, not huge ones, for the map's bytes from
    /// `from` (rounded up to a 2 MiB boundary, so that no huge page already taken is split)
    /// to its end: each first touch there then costs the zeroing of 4 KiB, not of 2 MiB (and,
    /// when the system's memory is fragmented, a compaction to find them). A buffer on the
    /// heap, or a system that does not take the advice, is left as it is (no effect on
    /// values).
    pub(crate) fn small_pages_from(&self, from: usize) {
        const HUGE_PAGE: usize = 2 << 20;
        #[cfg(target_os = "linux")]
        if let Some(map) = &self.map {
            let start = from.div_ceil(HUGE_PAGE).saturating_mul(HUGE_PAGE);
            if start < map.len() {
                let _ = map.advise_range(memmap2::Advice::NoHugePage, start, map.len() - start);
            }
        }
        #[cfg(not(target_os = "linux"))]
        let _ = (from, HUGE_PAGE);
    }

    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[A] {
        // SAFETY: `first` is the start of the map or of the vector's buffer, neither of which
        // moves while `self` lives (a move of `self` moves only the handles). The map is
        // page-aligned (so aligned for `A`), `len · size_of::<A>()` bytes long and
        // zero-initialised (valid by `ZeroValid`); the vector holds `len` values. Either is
        // only ever accessed through this shared slice of atomics. For `len` 0 `first` is
        // dangling but aligned, which an empty slice allows.
        unsafe { std::slice::from_raw_parts(self.first.as_ptr().cast_const(), self.len) }
    }
}

impl ZeroedBuf<AtomicU8> {
    /// Ends the atomic phase: the bytes, read-only from now on.
    pub(crate) fn freeze(self) -> FrozenBytes {
        match self.map {
            Some(map) => FrozenBytes {
                map: Some(map),
                heap: Vec::new(),
                len: self.len,
            },
            None => FrozenBytes {
                map: None,
                heap: self.heap.into_iter().map(AtomicU8::into_inner).collect(),
                len: self.len,
            },
        }
    }
}

impl ZeroedBuf<AtomicU64> {
    /// Ends the atomic phase: the first `len` bytes of the words (at most `8 · len()`), in
    /// memory order, read-only from now on.
    pub(crate) fn freeze_bytes(self, len: usize) -> FrozenBytes {
        let len = len.min(self.len * 8);
        match self.map {
            Some(map) => FrozenBytes {
                map: Some(map),
                heap: Vec::new(),
                len,
            },
            None => {
                let mut heap: Vec<u8> = self
                    .heap
                    .into_iter()
                    .flat_map(|w| w.into_inner().to_ne_bytes())
                    .collect();
                heap.truncate(len);
                FrozenBytes {
                    map: None,
                    heap,
                    len,
                }
            }
        }
    }
}

/// Read-only bytes in anonymous (huge-page) memory or on the heap.
pub(crate) struct FrozenBytes {
    map: Option<memmap2::MmapMut>,
    heap: Vec<u8>,
    len: usize,
}

impl FrozenBytes {
    /// A copy of `data` in anonymous huge-page memory (on the heap when mapping fails), or
    /// [`OutOfMemory`].
    pub(crate) fn copy_of(data: &[u8]) -> Result<FrozenBytes, OutOfMemory> {
        // Miri cannot map memory: the heap fallback serves it.
        if data.len() >= 1 << 21 && !cfg!(miri) {
            if let Ok(mut map) = memmap2::MmapMut::map_anon(data.len()) {
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                // In pieces on the rayon threads (a K = 26 database is 2.7 GB).
                use rayon::prelude::*;
                map.par_chunks_mut(1 << 22)
                    .zip(data.par_chunks(1 << 22))
                    .for_each(|(to, from)| to.copy_from_slice(from));
                return Ok(FrozenBytes {
                    map: Some(map),
                    heap: Vec::new(),
                    len: data.len(),
                });
            }
        }
        let mut heap = Vec::new();
        heap.try_reserve_exact(data.len())
            .map_err(|_| OutOfMemory::failed_now(data.len()))?;
        heap.extend_from_slice(data);
        Ok(FrozenBytes {
            map: None,
            heap,
            len: data.len(),
        })
    }

    /// `len` bytes in anonymous huge-page memory (on the heap when mapping fails), filled in
    /// pieces of `piece` bytes on the rayon threads: `fill(offset, piece)` writes the bytes
    /// `offset..offset + piece.len()` and returns a value; the values come back in the order
    /// of the pieces. The first error of `fill` (or [`OutOfMemory`], converted) is returned
    /// and the memory freed.
    pub(crate) fn filled_in_pieces<T, E>(
        len: usize,
        piece: usize,
        fill: impl Fn(usize, &mut [u8]) -> Result<T, E> + Sync,
    ) -> Result<(FrozenBytes, Vec<T>), E>
    where
        T: Send,
        E: Send + From<OutOfMemory>,
    {
        use rayon::prelude::*;
        let piece = piece.max(1);
        let run = |bytes: &mut [u8]| -> Result<Vec<T>, E> {
            // `collect` keeps the values in the order of the pieces.
            bytes
                .par_chunks_mut(piece)
                .enumerate()
                .map(|(i, chunk)| fill(i * piece, chunk))
                .collect()
        };
        // Miri cannot map memory: the heap fallback serves it.
        if len >= 1 << 21 && !cfg!(miri) {
            if let Ok(mut map) = memmap2::MmapMut::map_anon(len) {
                #[cfg(target_os = "linux")]
                let _ = map.advise(memmap2::Advice::HugePage);
                let values = run(&mut map[..])?;
                return Ok((
                    FrozenBytes {
                        map: Some(map),
                        heap: Vec::new(),
                        len,
                    },
                    values,
                ));
            }
        }
        let mut heap = Vec::new();
        heap.try_reserve_exact(len)
            .map_err(|_| E::from(OutOfMemory::failed_now(len)))?;
        heap.resize(len, 0);
        let values = run(&mut heap)?;
        Ok((
            FrozenBytes {
                map: None,
                heap,
                len,
            },
            values,
        ))
    }

    /// The bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        match &self.map {
            Some(map) => &map[..self.len],
            None => &self.heap,
        }
    }
}

/// Hints the cache that the byte at `p` will be read soon (no effect on results). Any address
/// may be given, in bounds or not: a prefetch reads nothing and never faults; this lets a
/// caller choose between two addresses without a branch.
#[inline(always)]
pub(crate) fn prefetch_ptr(p: *const u8) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: SSE is part of the x86_64 baseline, and a prefetch of any address is only a
    // hint: it dereferences nothing and never faults.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast());
    }
    #[cfg(any(not(target_arch = "x86_64"), miri))]
    let _ = p;
}

/// Hints the cache that `x` will be read soon (no effect on results).
#[inline(always)]
pub(crate) fn prefetch<X>(x: &X) {
    // (Not under Miri, which does not implement the intrinsic; a prefetch changes no result.)
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: SSE is part of the x86_64 baseline and a prefetch never faults.
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
            (x as *const X).cast(),
        );
    }
    #[cfg(any(not(target_arch = "x86_64"), miri))]
    let _ = x;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn an_allocation_that_failed_names_its_size_in_bytes_and_in_a_unit() {
        // 4 GiB = 4 · 2^30 bytes.
        assert_eq!(
            OutOfMemory::failed(4usize << 30).to_string(),
            "out of memory: cannot allocate 4294967296 bytes (4.0 GiB)"
        );
        // With the figure of what was left, and a refusal, by each bound.
        let limit = AvailableMemory {
            bytes: 2 << 30,
            bound: MemoryBound::AddressSpace,
        };
        let machine = AvailableMemory {
            bytes: 2 << 30,
            bound: MemoryBound::Machine,
        };
        let failed = OutOfMemory {
            available: Some(limit),
            ..OutOfMemory::failed(4usize << 30)
        };
        assert_eq!(
            failed.to_string(),
            "out of memory: cannot allocate 4294967296 bytes (4.0 GiB); 2147483648 bytes \
             (2.0 GiB) left under the address-space limit (`ulimit -v`)"
        );
        assert_eq!(
            OutOfMemory::refused(4usize << 30, limit).to_string(),
            "out of memory: cannot allocate 4294967296 bytes (4.0 GiB), more than the \
             2147483648 bytes (2.0 GiB) left under the address-space limit (`ulimit -v`)"
        );
        assert_eq!(
            OutOfMemory::refused(4usize << 30, machine).to_string(),
            "out of memory: cannot allocate 4294967296 bytes (4.0 GiB), more than the \
             2147483648 bytes (2.0 GiB) of memory available"
        );
        // 3 MiB and 5 KiB, whole.
        assert_eq!(readable_bytes(3 << 20), "3 MiB");
        assert_eq!(readable_bytes(5 << 10), "5 KiB");
        assert_eq!(readable_bytes(1000), "1000 B");
    }

    /// Sizes of a terabyte and more are in TiB (2^40 bytes), with one decimal, as GiB are:
    /// 32 · 2^40 bytes is "32.0 TiB", not "32768.0 GiB"; just under 2^40 is still GiB.
    #[test]
    fn a_size_of_a_tebibyte_and_more_is_in_tib() {
        assert_eq!(readable_bytes(32u64 << 40), "32.0 TiB");
        assert_eq!(readable_bytes(3u64 << 39), "1.5 TiB");
        assert_eq!(readable_bytes(1u64 << 40), "1.0 TiB");
        assert_eq!(readable_bytes((1u64 << 40) - (1 << 30)), "1023.0 GiB");
    }

    /// Just under a unit, a size that would round to 1024 of the unit below is said in the
    /// unit: 2^40 − 2^20 bytes (a `--tt-mb` of 1048575) is "1.0 TiB", not "1024.0 GiB".
    #[test]
    fn no_size_is_1024_of_a_unit() {
        assert_eq!(readable_bytes((1u64 << 40) - (1 << 20)), "1.0 TiB");
        assert_eq!(readable_bytes((1u64 << 30) - (1 << 10)), "1.0 GiB");
        assert_eq!(readable_bytes((1u64 << 20) - 1), "1 MiB");
        assert_eq!(readable_bytes((1u64 << 30) - (1 << 20)), "1023 MiB");
        assert_eq!(readable_bytes((1u64 << 20) - (1 << 10)), "1023 KiB");
    }
}
