//! Reading arguments from C and writing results back: NULL checks, UTF-8 checks, and the
//! caller-buffer protocol (write on success, report the size needed when too small).

use std::ffi::{c_char, CStr};

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
/// `*count`. Too small: `*count` = the count needed, `buf` untouched, `BUFFER_TOO_SMALL`.
/// `buf` may be NULL when `len` is 0.
///
/// # Safety
/// `buf` must be NULL or point to `len` writable elements; `count` NULL or writable.
pub(crate) unsafe fn write_slice<T: Copy>(
    items: &[T],
    buf: *mut T,
    len: usize,
    count: *mut usize,
    what: &str,
) -> Result<()> {
    let count = out_ptr(count, if what == "string" { "needed" } else { "count" })?;
    if buf.is_null() && len > 0 {
        return Err(Error::null("buffer"));
    }
    if len < items.len() {
        // SAFETY: checked non-NULL; writable by contract.
        unsafe { count.write(items.len()) };
        return Err(Error::new(
            MancalaStatus::BufferTooSmall,
            format!(
                "buffer of {len} {what} elements is too small: {} needed",
                items.len()
            ),
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

/// Copies `s` and a terminating NUL into the caller's buffer; `*needed` = bytes with the NUL.
///
/// # Safety
/// As [`write_slice`].
pub(crate) unsafe fn write_str(
    s: &str,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> Result<()> {
    let mut bytes = Vec::with_capacity(s.len() + 1);
    bytes.extend(s.bytes().map(|b| b as c_char));
    bytes.push(0);
    // SAFETY: the caller's contract.
    unsafe { write_slice(&bytes, buf, len, needed, "string") }
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
