//! Opaque handles: boxed Rust values handed to C as pointers, with a registry of the live
//! ones so that a freed, foreign or wrongly typed handle is refused with
//! `MANCALA_STATUS_INVALID_HANDLE` instead of being dereferenced.
//!
//! The registry maps the address of every live handle to its type. It is consulted before a
//! handle is dereferenced and updated by `_new`/`_free`, so a handle is never read after it
//! was freed (unlike a magic tag inside freed memory). Limits: a freed address that the
//! allocator hands out again to a new handle of the same type is indistinguishable from it.

use std::collections::BTreeMap;
use std::sync::RwLock;

use std::ffi::c_char;

use crate::io;
use crate::status::{guard, Error, MancalaStatus, Result};

/// The type of a handle, as recorded in the registry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Rules,
    Game,
    Kalah,
    Bao,
    Solver,
    Egdb,
    Engine,
    AwariDb,
    Db,
}

impl Kind {
    fn c_name(self) -> &'static str {
        match self {
            Kind::Rules => "MancalaRules",
            Kind::Game => "MancalaGame",
            Kind::Kalah => "MancalaKalah",
            Kind::Bao => "MancalaBao",
            Kind::Solver => "MancalaSolver",
            Kind::Egdb => "MancalaEgdb",
            Kind::Engine => "MancalaEngine",
            Kind::AwariDb => "MancalaAwariDb",
            Kind::Db => "MancalaDb",
        }
    }
}

/// A Rust type handed out as an opaque handle.
pub(crate) trait Handle: Sized {
    /// Its registry tag.
    const KIND: Kind;
}

/// Live handles, keyed by [`key`] of their address.
static LIVE: RwLock<BTreeMap<usize, Kind>> = RwLock::new(BTreeMap::new());

/// The registry key of a handle: its address with every bit flipped, so that the registry
/// holds no pointer to the handle and leak checkers (valgrind, LeakSanitizer) still report a
/// handle the caller forgot to free as lost.
fn key<T>(p: *const T) -> usize {
    !(p as usize)
}

fn check_live<T: Handle>(p: *const T, arg: &str) -> Result<()> {
    let live = LIVE.read().unwrap_or_else(|e| e.into_inner());
    match live.get(&key(p)) {
        Some(&k) if k == T::KIND => Ok(()),
        Some(&k) => Err(Error::new(
            MancalaStatus::InvalidHandle,
            format!(
                "argument `{arg}` is a {} handle, not a {}",
                k.c_name(),
                T::KIND.c_name()
            ),
        )),
        None => Err(Error::new(
            MancalaStatus::InvalidHandle,
            format!(
                "argument `{arg}` is not a live {} handle (already freed, or not made by this library)",
                T::KIND.c_name()
            ),
        )),
    }
}

/// Boxes `value` and registers it; the caller owns the returned handle.
pub(crate) fn into_handle<T: Handle>(value: T) -> *mut T {
    let p = Box::into_raw(Box::new(value));
    LIVE.write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(key(p), T::KIND);
    p
}

/// Borrows a live handle.
///
/// # Safety
/// No other thread may be mutating or freeing the handle during `'a` (the documented
/// thread-safety contract of the API).
pub(crate) unsafe fn get<'a, T: Handle>(p: *const T, arg: &str) -> Result<&'a T> {
    if p.is_null() {
        return Err(Error::null(arg));
    }
    check_live(p, arg)?;
    // SAFETY: registered, so it came from `Box::into_raw` and was not freed.
    Ok(unsafe { &*p })
}

/// Borrows a live handle mutably.
///
/// # Safety
/// As [`get`], and no other reference to the handle may be in use.
pub(crate) unsafe fn get_mut<'a, T: Handle>(p: *mut T, arg: &str) -> Result<&'a mut T> {
    if p.is_null() {
        return Err(Error::null(arg));
    }
    check_live(p, arg)?;
    // SAFETY: registered, so it came from `Box::into_raw` and was not freed.
    Ok(unsafe { &mut *p })
}

/// Unregisters and drops a handle. NULL is a no-op.
///
/// # Safety
/// No other thread may be using the handle.
pub(crate) unsafe fn free<T: Handle>(p: *mut T, arg: &str) -> Result<()> {
    if p.is_null() {
        return Ok(());
    }
    {
        let mut live = LIVE.write().unwrap_or_else(|e| e.into_inner());
        match live.get(&key(p)) {
            Some(&k) if k == T::KIND => {
                live.remove(&key(p));
            }
            _ => {
                drop(live);
                return check_live(p, arg);
            }
        }
    }
    // SAFETY: it was registered (made by `into_handle`) and is now unregistered, so this is
    // the only free.
    drop(unsafe { Box::from_raw(p) });
    Ok(())
}

// The shared bodies of the handle entry points (the model is rustls-ffi's small layer of
// helpers over its handle types): each `mancala_*_free`, `_clone`, `_print` and the
// `*out = new handle` of each constructor is one call here, so that the NULL checks, the
// registry look-up, the panic guard and the caller-buffer protocol are written once.

/// The body of every `mancala_*_free`: NULL is a no-op; a live handle of type `T` is
/// unregistered and dropped; anything else is `MANCALA_STATUS_INVALID_HANDLE`, with nothing
/// freed.
///
/// # Safety
/// As [`free`]: no other thread may be using the handle.
pub(crate) unsafe fn free_entry<T: Handle>(p: *mut T, arg: &str) -> MancalaStatus {
    // SAFETY: the registry refuses handles that are not live; the caller's contract (as
    // `free`'s) says no other thread uses this one.
    guard(|| unsafe { free(p, arg) })
}

/// Writes a new handle owning `value` to the out-pointer `out` (checked non-NULL first; on
/// NULL nothing is allocated).
///
/// # Safety
/// `out` must be NULL or writable (the entry point's documented contract).
pub(crate) unsafe fn write_new<T: Handle>(out: *mut *mut T, arg: &str, value: T) -> Result<()> {
    let out = io::out_ptr(out, arg)?;
    // SAFETY: checked non-NULL; writable by the caller's contract.
    unsafe { out.write(into_handle(value)) };
    Ok(())
}

/// The body of a `mancala_*_clone`: a new handle holding `copy(&*p)` in `*out`.
///
/// # Safety
/// `out` must be NULL or writable; no other thread may be mutating or freeing `p`.
pub(crate) unsafe fn clone_entry<T: Handle>(
    p: *const T,
    arg: &str,
    out: *mut *mut T,
    copy: impl FnOnce(&T) -> T,
) -> MancalaStatus {
    guard(|| {
        io::out_ptr(out, "out")?;
        // SAFETY: registry-checked handle, only read; the caller's thread-safety contract.
        let value = copy(unsafe { get(p, arg) }?);
        // SAFETY: the caller's contract on `out`.
        unsafe { write_new(out, "out", value) }
    })
}

/// The body of a call that prints something of a live handle into a caller buffer
/// (`mancala_kalah_print`, …): `text(&*p)` written by the caller-buffer protocol of
/// [`io::write_str`].
///
/// # Safety
/// `buf` must be NULL or point to `len` writable bytes; `needed` NULL or writable; no other
/// thread may be mutating or freeing `p`.
pub(crate) unsafe fn print_entry<T: Handle>(
    p: *const T,
    arg: &str,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
    text: impl FnOnce(&T) -> String,
) -> MancalaStatus {
    guard(|| {
        // SAFETY: registry-checked handle, only read; the caller's thread-safety contract.
        let text = text(unsafe { get(p, arg) }?);
        // SAFETY: the caller's buffer contract on `buf`, `len` and `needed`.
        unsafe { io::write_str(&text, buf, len, needed, "buf") }
    })
}
