//! Reading arguments from C and writing results back: NULL checks, UTF-8 checks, and the
//! caller-buffer protocol (write on success, report the size needed when too small), and
//! `mancala_last_error`, the entry point that is nothing but that protocol.

use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use mancala_core::words;

use crate::status::{Error, MancalaStatus, Result};

/// Checks that an out-pointer is not NULL.
pub(crate) fn out_ptr<T>(p: *mut T, arg: &str) -> Result<*mut T> {
    if p.is_null() {
        Err(Error::null(arg))
    } else {
        Ok(p)
    }
}

/// Reads a NUL-terminated UTF-8 string argument.
///
/// # Safety
/// `p` must be NULL or point to a NUL-terminated string that outlives `'a`.
pub(crate) unsafe fn in_str<'a>(p: *const c_char, arg: &str) -> Result<&'a str> {
    if p.is_null() {
        return Err(Error::null(arg));
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's contract.
    let c = unsafe { CStr::from_ptr(p) };
    c.to_str().map_err(|e| {
        Error::new(
            MancalaStatus::InvalidUtf8,
            format!(
                "argument `{arg}` is not valid UTF-8 (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
    })
}

/// Copies `items` into the caller's buffer `buf` of `len` elements and the element count into
/// `*count`. Too small: `*count` = the count needed, `buf` untouched, `BUFFER_TOO_SMALL`,
/// with a message counting the elements in `unit`, its singular and plural (`("slot",
/// "slots")`, singular for exactly one; [`write_str`] counts bytes). `buf` may be NULL when
/// `len` is 0; NULL with `len` > 0 is `NULL_POINTER`, naming the argument `buf_arg` (the
/// name the header gives the buffer).
///
/// # Safety
/// `buf` must be NULL or point to `len` writable elements; `count` NULL or writable.
pub(crate) unsafe fn write_slice<T: Copy>(
    items: &[T],
    buf: *mut T,
    len: usize,
    count: *mut usize,
    buf_arg: &str,
    unit: (&str, &str),
) -> Result<()> {
    let text = unit == TEXT_BYTES;
    let count = out_ptr(count, if text { "needed" } else { "count" })?;
    if buf.is_null() && len > 0 {
        return Err(Error::null(buf_arg));
    }
    if len < items.len() {
        // SAFETY: checked non-NULL; writable by contract.
        unsafe { count.write(items.len()) };
        return Err(Error::new(
            MancalaStatus::BufferTooSmall,
            if text {
                format!(
                    "buffer of {} is too small: {} needed (the text and its NUL)",
                    words::count(len, "byte", "bytes"),
                    words::count(items.len(), "byte", "bytes")
                )
            } else {
                format!(
                    "buffer of {} is too small: {} needed",
                    words::count(len, unit.0, unit.1),
                    items.len()
                )
            },
        ));
    }
    if !items.is_empty() {
        // SAFETY: `buf` is non-NULL here (len >= items.len() > 0) and has `len` elements.
        unsafe { std::ptr::copy_nonoverlapping(items.as_ptr(), buf, items.len()) };
    }
    // SAFETY: as above.
    unsafe { count.write(items.len()) };
    Ok(())
}

/// The unit of [`write_slice`] for text: bytes, the NUL included, into `*needed`.
const TEXT_BYTES: (&str, &str) = ("byte of text", "bytes of text");

/// Copies `s` and a terminating NUL into the caller's buffer `buf` (the argument the header
/// names `buf_arg`); `*needed` = bytes with the NUL.
///
/// # Safety
/// As [`write_slice`].
pub(crate) unsafe fn write_str(
    s: &str,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    buf_arg: &str,
) -> Result<()> {
    let mut bytes = Vec::with_capacity(s.len() + 1);
    bytes.extend(s.bytes().map(|b| b as c_char));
    bytes.push(0);
    // SAFETY: the caller's contract.
    unsafe { write_slice(&bytes, buf, len, needed, buf_arg, TEXT_BYTES) }
}

/// Copies the last-error message of the calling thread into `buf` as a NUL-terminated
/// string.
///
/// The message describes the most recent `mancala_*` call on this thread that failed (the
/// empty string when none has). The errno rule, the same for every function of the API: a
/// call that fails replaces the message; a call that succeeds never touches it, whatever it
/// does (`mancala_game_free`, `mancala_rules_free`, a `_free` of NULL, a getter such as
/// `mancala_game_side_to_move`, printing or drawing into a big enough buffer,
/// `mancala_status_name`, `mancala_version`, and also a successful play, solve or load).
/// So an error handler may free handles and call anything that succeeds, in any order,
/// before reading the message. This function never changes it either, not even when it
/// fails itself (a buffer too small, a NULL `needed`), so it can be read again with a
/// bigger buffer. Read it only after a call returned a status other than
/// `MANCALA_STATUS_OK`: after a success it still describes an older failure.
///
/// A message has no upper bound on its length: it may quote the caller's text (a rule set, a
/// file name, a move) and lists the choices when a name is unknown (the message for an
/// unknown rule set, which names every game, is longer than 256 bytes). So ask the size
/// first: `mancala_last_error(NULL, 0, &needed)` returns `MANCALA_STATUS_BUFFER_TOO_SMALL`
/// with `*needed` = bytes, NUL included (at least 1); then read it into a buffer of `needed`
/// bytes, as the programs in `examples/c` and `examples/cpp` do. A fixed buffer gets
/// `MANCALA_STATUS_BUFFER_TOO_SMALL` and nothing of a longer message.
///
/// Ownership: `buf` belongs to the caller; nothing is allocated.
/// Thread safety: the message is per thread; safe to call from any thread.
///
/// Returns:
/// - `MANCALA_STATUS_OK`: the message and its NUL were written; `*needed` = bytes written,
///   NUL included.
/// - `MANCALA_STATUS_BUFFER_TOO_SMALL`: `len` < the size needed; `*needed` = size needed, NUL
///   included; `buf` untouched. `buf` may be NULL when `len` is 0 (a size query).
/// - `MANCALA_STATUS_NULL_POINTER`: `needed` is NULL, or `buf` is NULL with `len` > 0.
/// - `MANCALA_STATUS_PANIC`: internal error.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` must be NULL or point to a
/// writable `size_t`.
#[no_mangle]
pub unsafe extern "C" fn mancala_last_error(
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> MancalaStatus {
    let message = crate::status::last_error();
    match catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's contract on `buf`, `len` and `needed`.
        unsafe { write_str(&message, buf, len, needed, "buf") }
    })) {
        Ok(Ok(())) => MancalaStatus::Ok,
        Ok(Err(e)) => e.status,
        Err(_) => MancalaStatus::Panic,
    }
}

/// A table size given in a config (`tt_bytes`, a `uint64_t`) as this machine's `usize`, or
/// `MANCALA_STATUS_INVALID_ARGUMENT` when it does not fit the address space.
pub(crate) fn table_bytes(bytes: u64) -> Result<usize> {
    usize::try_from(bytes).map_err(|_| {
        Error::new(
            MancalaStatus::InvalidArgument,
            "tt_bytes does not fit this machine's address space",
        )
    })
}
