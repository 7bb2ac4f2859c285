//! The C ABI's string and buffer inputs, called through the `extern "C"` functions of
//! `mancala-ffi` (as a Rust library) against a model made of the Rust API.
// The deprecated database calls (kept until 0.4.0) are fuzzed until they go.
#![allow(deprecated)]

use std::ffi::{c_char, c_int, CStr, CString};
use std::ptr;

use arbitrary::Unstructured;
use mancala::{
    bao::*, egdb::*, io::mancala_last_error, kalah::*, rules::*, status::*, MancalaBao,
    MancalaEgdb, MancalaKalah, MancalaRules, MancalaStatus,
};
use mancala_core::bao::{BaoMove, BaoPosition};
use mancala_core::kalah::{KalahMove, KalahPosition};
use mancala_core::Rules;

/// Calls made at most per input.
const MAX_CALLS: usize = 64;
/// A byte the library must never write into a buffer it was not allowed to write.
const FILL: c_char = 0x5A;

struct KalahGame {
    handle: *mut MancalaKalah,
    positions: Vec<KalahPosition>,
    moves: Vec<KalahMove>,
}

struct BaoGame {
    handle: *mut MancalaBao,
    positions: Vec<BaoPosition>,
    moves: Vec<BaoMove>,
}

/// A non-NULL pointer value stored in an out-pointer before a call: it must still be there
/// when the call fails.
fn sentinel<T>() -> *mut T {
    ptr::NonNull::dangling().as_ptr()
}

/// Handles made by the input, live and freed, with their Rust models.
#[derive(Default)]
struct State {
    rules: Vec<(*mut MancalaRules, Rules)>,
    kalah: Vec<KalahGame>,
    bao: Vec<BaoGame>,
    /// Freed handles (any type), kept to be passed again: they must be refused.
    freed: Vec<usize>,
}

/// Target `ffi_strings`: a sequence of up to 64 (`MAX_CALLS`) C ABI calls chosen by the input,
/// with strings made of arbitrary bytes (invalid UTF-8 included) or NULL, caller buffers of
/// arbitrary length (zero and NULL included), and handles that are live, freed, of the wrong
/// type, NULL or made up. Each call's status must be what the Rust API says about the same
/// input (`OK` exactly when it accepts it, the documented code otherwise); outputs must be
/// written exactly on success (the size needed on `BUFFER_TOO_SMALL`), never a byte past the
/// length given, and the printed texts must equal the Rust API's; a failure must leave a
/// message for `mancala_last_error`. No call may panic (`MANCALA_STATUS_PANIC`) or crash.
/// Every handle made is freed at the end.
///
/// # Panics
/// When one of those properties fails.
pub fn ffi_strings(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let mut state = State::default();
    for _ in 0..MAX_CALLS {
        if u.is_empty() || step(&mut u, &mut state).is_err() {
            break;
        }
    }
    // SAFETY: every handle below is live and owned by this function.
    unsafe {
        for (h, _) in state.rules {
            assert_eq!(mancala_rules_free(h), MancalaStatus::Ok);
        }
        for g in state.kalah {
            assert_eq!(mancala_kalah_free(g.handle), MancalaStatus::Ok);
        }
        for g in state.bao {
            assert_eq!(mancala_bao_free(g.handle), MancalaStatus::Ok);
        }
    }
}

thread_local! {
    /// The codes [`check_status_name`] was called with on this thread.
    static CODES_CHECKED: std::cell::RefCell<std::collections::BTreeSet<c_int>> =
        const { std::cell::RefCell::new(std::collections::BTreeSet::new()) };
}

/// The status codes [`check_status_name`] checked on this thread since the last call (the
/// set is emptied), in increasing order: the replay asks which codes the committed
/// `ffi_strings` inputs draw.
pub fn status_codes_checked() -> Vec<c_int> {
    CODES_CHECKED.with(|c| std::mem::take(&mut *c.borrow_mut()).into_iter().collect())
}

/// `mancala_status_name(code)`: every status of the library's own list
/// (`mancala::status::all_statuses`, so a status added later is checked without an edit here)
/// has its header name; any other code is refused with `MANCALA_STATUS_INVALID_ARGUMENT` and
/// `out` untouched.
pub fn check_status_name(code: c_int) {
    CODES_CHECKED.with(|c| c.borrow_mut().insert(code));
    let mut out: *const c_char = sentinel::<c_char>().cast_const();
    // SAFETY: `out` writable.
    let st = unsafe { mancala_status_name(code, &mut out) };
    let known = mancala::status::all_statuses()
        .iter()
        .find(|&&s| s as c_int == code);
    if let Some(&status) = known {
        assert_eq!(
            st,
            MancalaStatus::Ok,
            "status_name({code}): {}",
            last_error()
        );
        // SAFETY: a static NUL-terminated name.
        let name = unsafe { CStr::from_ptr(out) };
        assert_eq!(name, status.name(), "{code}");
    } else {
        expect("status_name", st, Err(MancalaStatus::InvalidArgument));
        assert_eq!(
            out,
            sentinel::<c_char>().cast_const(),
            "out written on failure"
        );
    }
}

/// A valid rule set of a game of the library's list ([`GameKind::ALL`](mancala_core::GameKind::ALL), through the fuzzed
/// games' table [`crate::GAMES`]), drawn from that game's own tables as its move target draws
/// them, so that a game or an option added to the library is offered without an edit here.
pub(crate) fn arbitrary_rules(u: &mut Unstructured<'_>) -> arbitrary::Result<Rules> {
    let (_, _, rules) = u.choose(&crate::GAMES)?;
    rules(u)
}

/// The status the C ABI documents for each database error (`mancala_egdb_load`): written
/// out variant by variant, with no catch-all, so that an error added to the library must be
/// given its status here before the body compiles.
fn egdb_status(e: mancala_solver::EgdbError) -> MancalaStatus {
    use mancala_solver::EgdbError as E;
    match e {
        E::Io { .. } | E::Changed(_) | E::NotFound { .. } => MancalaStatus::IoError,
        E::Occupied { .. } => MancalaStatus::FileExists,
        E::BadMagic(_)
        | E::Version { .. }
        | E::Truncated { .. }
        | E::TooLong { .. }
        | E::Header(_)
        | E::Checksum { .. }
        | E::BadEntry { .. }
        | E::Padding { .. }
        | E::BadBlock { .. } => MancalaStatus::CorruptFile,
        E::RulesMismatch { .. } | E::Unserved(_) | E::WrongGame { .. } => {
            MancalaStatus::DatabaseMismatch
        }
        E::Unsupported { .. }
        | E::MoreSeedsThanTheGame { .. }
        | E::NoDatabase { .. }
        | E::NoSuchEncoding { .. } => MancalaStatus::InvalidArgument,
        E::OutOfMemory(_) => MancalaStatus::OutOfMemory,
        E::Cancelled => MancalaStatus::Cancelled,
        E::Threads(_) => MancalaStatus::SolveFailed,
    }
}

/// An arbitrary C string: `None` for NULL, else bytes up to the first NUL.
fn c_string(u: &mut Unstructured<'_>) -> arbitrary::Result<Option<CString>> {
    if u.ratio(1, 16)? {
        return Ok(None);
    }
    let bytes: Vec<u8> = u.arbitrary()?;
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    Ok(Some(CString::new(&bytes[..end]).expect("no NUL inside")))
}

fn ptr_of(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(ptr::null(), |s| s.as_ptr())
}

/// What the library must answer for a string argument before looking at its contents.
fn text_of(s: &Option<CString>) -> Result<&str, MancalaStatus> {
    match s {
        None => Err(MancalaStatus::NullPointer),
        Some(c) => c.to_str().map_err(|_| MancalaStatus::InvalidUtf8),
    }
}

/// The message of the last failure on this thread.
fn last_error() -> String {
    let mut needed = 0usize;
    // SAFETY: a size query (NULL buffer, length 0) with a writable `needed`.
    let st = unsafe { mancala_last_error(ptr::null_mut(), 0, &mut needed) };
    assert!(matches!(
        st,
        MancalaStatus::Ok | MancalaStatus::BufferTooSmall
    ));
    let mut buf = vec![FILL; needed];
    // SAFETY: `buf` has `needed` writable bytes.
    let st = unsafe { mancala_last_error(buf.as_mut_ptr(), buf.len(), &mut needed) };
    assert_eq!(st, MancalaStatus::Ok);
    // SAFETY: the library wrote a NUL-terminated string into `buf`.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_str()
        .expect("UTF-8 message")
        .to_string()
}

/// Checks the status of a call against what the model expects, and that a failure left a
/// message.
fn expect(call: &str, got: MancalaStatus, expected: Result<(), MancalaStatus>) {
    assert_ne!(got, MancalaStatus::Panic, "{call}: panic: {}", last_error());
    let expected = match expected {
        Ok(()) => MancalaStatus::Ok,
        Err(s) => s,
    };
    assert_eq!(got, expected, "{call}: {}", last_error());
    if got != MancalaStatus::Ok {
        assert!(
            !last_error().is_empty(),
            "{call}: failure without a message"
        );
    }
}

/// Calls a `(buf, len, needed)` printing function with a buffer of arbitrary length (or
/// NULL) and checks the caller-buffer protocol against the expected text.
fn check_print(
    u: &mut Unstructured<'_>,
    call: &str,
    expected: Result<&str, MancalaStatus>,
    f: impl FnOnce(*mut c_char, usize, *mut usize) -> MancalaStatus,
) -> arbitrary::Result<()> {
    let len = u.int_in_range(0..=80usize)?;
    let null_buf = u.ratio(1, 8)?;
    let null_needed = u.ratio(1, 16)?;
    let mut buf = vec![FILL; len + 8];
    let mut needed = usize::MAX;
    let bp = if null_buf {
        ptr::null_mut()
    } else {
        buf.as_mut_ptr()
    };
    let np = if null_needed {
        ptr::null_mut()
    } else {
        &mut needed as *mut usize
    };
    let st = f(bp, len, np);
    assert_ne!(st, MancalaStatus::Panic, "{call}: panic: {}", last_error());
    let untouched = buf.iter().all(|&b| b == FILL);
    let text = match expected {
        Err(e) => {
            assert_eq!(st, e, "{call}: {}", last_error());
            assert!(
                untouched && needed == usize::MAX,
                "{call}: output written on failure"
            );
            return Ok(());
        }
        Ok(t) => t,
    };
    let size = text.len() + 1;
    if null_needed || (null_buf && len > 0) {
        assert_eq!(st, MancalaStatus::NullPointer, "{call}");
        assert!(
            untouched && needed == usize::MAX,
            "{call}: output written on failure"
        );
    } else if len < size {
        assert_eq!(st, MancalaStatus::BufferTooSmall, "{call}");
        assert!(untouched, "{call}: buffer written when too small");
        assert_eq!(needed, size, "{call}: size needed");
    } else {
        assert_eq!(st, MancalaStatus::Ok, "{call}: {}", last_error());
        assert_eq!(needed, size, "{call}");
        let written: Vec<u8> = buf[..size].iter().map(|&b| b as u8).collect();
        assert_eq!(&written[..text.len()], text.as_bytes(), "{call}");
        assert_eq!(written[text.len()], 0, "{call}: no NUL");
        assert!(
            buf[size..].iter().all(|&b| b == FILL),
            "{call}: wrote past the text"
        );
    }
    Ok(())
}

/// A handle argument: a live one of the right type (when there is one), or a freed one, one
/// of another type, NULL or a made-up address. Returns the pointer and its index when live.
fn pick<T>(
    u: &mut Unstructured<'_>,
    live: &[*mut T],
    state_other: &[usize],
) -> arbitrary::Result<(*mut T, Option<usize>)> {
    if !live.is_empty() && u.ratio(7, 8)? {
        let i = u.choose_index(live.len())?;
        return Ok((live[i], Some(i)));
    }
    let p = match u.int_in_range(0..=2u8)? {
        0 => ptr::null_mut(),
        1 if !state_other.is_empty() => *u.choose(state_other)? as *mut T,
        // A made-up address: the registry refuses it without dereferencing it.
        _ => (usize::from(u.arbitrary::<u16>()?) * 16 + 0x1000) as *mut T,
    };
    Ok((p, None))
}

fn bad_handle<T>(p: *mut T) -> MancalaStatus {
    if p.is_null() {
        MancalaStatus::NullPointer
    } else {
        MancalaStatus::InvalidHandle
    }
}

fn step(u: &mut Unstructured<'_>, s: &mut State) -> arbitrary::Result<()> {
    let rules_live: Vec<*mut MancalaRules> = s.rules.iter().map(|r| r.0).collect();
    let kalah_live: Vec<*mut MancalaKalah> = s.kalah.iter().map(|g| g.handle).collect();
    let bao_live: Vec<*mut MancalaBao> = s.bao.iter().map(|g| g.handle).collect();
    // The allocator may hand a freed address out again: such an address is live, not freed.
    let live: Vec<usize> = (rules_live.iter().map(|&p| p as usize))
        .chain(kalah_live.iter().map(|&p| p as usize))
        .chain(bao_live.iter().map(|&p| p as usize))
        .collect();
    s.freed.retain(|a| !live.contains(a));
    // Freed handles and handles of the other types, as wrong arguments.
    let mut others: Vec<usize> = s.freed.clone();
    match u.int_in_range(0..=11u8)? {
        // mancala_rules_new
        0 => {
            // A valid rule set half of the time, so that games get made and played.
            let text = if u.arbitrary()? {
                Some(CString::new(arbitrary_rules(u)?.to_string()).expect("no NUL"))
            } else {
                c_string(u)?
            };
            let mut out: *mut MancalaRules = sentinel();
            let null_out = u.ratio(1, 16)?;
            let outp = if null_out {
                ptr::null_mut()
            } else {
                &mut out as *mut _
            };
            // SAFETY: `text` NULL or NUL-terminated; `outp` NULL or writable.
            let st = unsafe { mancala_rules_new(ptr_of(&text), outp) };
            let model = if null_out {
                Err(MancalaStatus::NullPointer)
            } else {
                // The library's own reading of a rule-set text of any game (`Rules`, which
                // asks `GameKind::of_rules` which parser to use).
                text_of(&text).and_then(|t| t.parse::<Rules>().map_err(|_| MancalaStatus::BadRules))
            };
            expect("rules_new", st, model.map(|_| ()));
            match model {
                Ok(r) => s.rules.push((out, r)),
                Err(_) => assert_eq!(out, sentinel(), "out written on failure"),
            }
        }
        // mancala_rules_print
        1 => {
            others.extend(kalah_live.iter().map(|&p| p as usize));
            let (h, i) = pick(u, &rules_live, &others)?;
            let expected = i.map(|i| s.rules[i].1.to_string());
            let expected = expected.as_deref().ok_or(bad_handle(h));
            // SAFETY: buffer contract kept by `check_print`.
            check_print(u, "rules_print", expected, |b, l, n| unsafe {
                mancala_rules_print(h, b, l, n)
            })?;
        }
        // mancala_kalah_new / mancala_kalah_parse
        2 => {
            others.extend(bao_live.iter().map(|&p| p as usize));
            let (h, i) = pick(u, &rules_live, &others)?;
            let parse = u.arbitrary::<bool>()?;
            // A position that parses half of the time: the start, or a game's current one.
            let valid = match i.and_then(|i| s.rules[i].1.kalah()) {
                Some(r) if parse && u.arbitrary()? => {
                    let mut texts = vec![KalahPosition::start(r).to_string()];
                    texts.extend(
                        s.kalah
                            .iter()
                            .map(|g| g.positions.last().expect("start").to_string()),
                    );
                    Some(CString::new(u.choose(&texts)?.as_str()).expect("no NUL"))
                }
                _ => None,
            };
            let text = match valid {
                Some(t) => Some(t),
                None if parse => c_string(u)?,
                None => None,
            };
            let mut out: *mut MancalaKalah = sentinel();
            // SAFETY: as for `mancala_rules_new`.
            let st = unsafe {
                if parse {
                    mancala_kalah_parse(h, ptr_of(&text), &mut out)
                } else {
                    mancala_kalah_new(h, &mut out)
                }
            };
            // Rules of any other game than Kalah are refused (`INVALID_ARGUMENT`).
            let model = match i.map(|i| s.rules[i].1) {
                None => Err(bad_handle(h)),
                Some(r) => match r.kalah() {
                    None => Err(MancalaStatus::InvalidArgument),
                    Some(r) if parse => text_of(&text).and_then(|t| {
                        KalahPosition::parse(r, t).map_err(|_| MancalaStatus::BadPosition)
                    }),
                    Some(r) => Ok(KalahPosition::start(r)),
                },
            };
            expect(
                "kalah_new/parse",
                st,
                model.as_ref().map(|_| ()).map_err(|e| *e),
            );
            match model {
                Ok(p) => s.kalah.push(KalahGame {
                    handle: out,
                    positions: vec![p],
                    moves: Vec::new(),
                }),
                Err(_) => assert_eq!(out, sentinel(), "out written on failure"),
            }
        }
        // mancala_bao_new / mancala_bao_parse
        3 => {
            others.extend(kalah_live.iter().map(|&p| p as usize));
            let (h, i) = pick(u, &rules_live, &others)?;
            let parse = u.arbitrary::<bool>()?;
            let valid = match i.and_then(|i| s.rules[i].1.bao()) {
                Some(r) if parse && u.arbitrary()? => {
                    let mut texts = vec![BaoPosition::start(r).to_string()];
                    texts.extend(
                        s.bao
                            .iter()
                            .map(|g| g.positions.last().expect("start").to_string()),
                    );
                    Some(CString::new(u.choose(&texts)?.as_str()).expect("no NUL"))
                }
                _ => None,
            };
            let text = match valid {
                Some(t) => Some(t),
                None if parse => c_string(u)?,
                None => None,
            };
            let mut out: *mut MancalaBao = sentinel();
            // SAFETY: as for `mancala_rules_new`.
            let st = unsafe {
                if parse {
                    mancala_bao_parse(h, ptr_of(&text), &mut out)
                } else {
                    mancala_bao_new(h, &mut out)
                }
            };
            // Rules of any other game than Bao are refused (`INVALID_ARGUMENT`).
            let model = match i.map(|i| s.rules[i].1) {
                None => Err(bad_handle(h)),
                Some(r) => match r.bao() {
                    None => Err(MancalaStatus::InvalidArgument),
                    Some(r) if parse => text_of(&text).and_then(|t| {
                        BaoPosition::parse(r, t).map_err(|_| MancalaStatus::BadPosition)
                    }),
                    Some(r) => Ok(BaoPosition::start(r)),
                },
            };
            expect(
                "bao_new/parse",
                st,
                model.as_ref().map(|_| ()).map_err(|e| *e),
            );
            match model {
                Ok(p) => s.bao.push(BaoGame {
                    handle: out,
                    positions: vec![p],
                    moves: Vec::new(),
                }),
                Err(_) => assert_eq!(out, sentinel(), "out written on failure"),
            }
        }
        // mancala_kalah_play / undo
        4 => {
            others.extend(rules_live.iter().map(|&p| p as usize));
            let (h, i) = pick(u, &kalah_live, &others)?;
            if u.ratio(1, 4)? {
                // SAFETY: registry-checked handle, used by this thread only.
                let st = unsafe { mancala_kalah_undo(h) };
                let model = match i {
                    None => Err(bad_handle(h)),
                    Some(i) if s.kalah[i].moves.pop().is_some() => {
                        s.kalah[i].positions.pop();
                        Ok(())
                    }
                    Some(_) => Err(MancalaStatus::NothingToUndo),
                };
                expect("kalah_undo", st, model);
            } else {
                let mv: u8 = u.arbitrary()?;
                // SAFETY: as above.
                let st = unsafe { mancala_kalah_play(h, mv) };
                let kmv = if mv == MANCALA_KALAH_SWAP {
                    KalahMove::Swap
                } else {
                    KalahMove::House(mv)
                };
                let model = match i {
                    None => Err(bad_handle(h)),
                    Some(i) => {
                        let g = &mut s.kalah[i];
                        let p = *g.positions.last().expect("a start position");
                        match p.play(kmv) {
                            Ok(q) => {
                                g.positions.push(q);
                                g.moves.push(kmv);
                                Ok(())
                            }
                            Err(_) => Err(MancalaStatus::IllegalMove),
                        }
                    }
                };
                expect("kalah_play", st, model);
            }
        }
        // mancala_bao_play / undo
        5 => {
            others.extend(kalah_live.iter().map(|&p| p as usize));
            let (h, i) = pick(u, &bao_live, &others)?;
            if u.ratio(1, 4)? {
                // SAFETY: registry-checked handle, used by this thread only.
                let st = unsafe { mancala_bao_undo(h) };
                let model = match i {
                    None => Err(bad_handle(h)),
                    Some(i) if s.bao[i].moves.pop().is_some() => {
                        s.bao[i].positions.pop();
                        Ok(())
                    }
                    Some(_) => Err(MancalaStatus::NothingToUndo),
                };
                expect("bao_undo", st, model);
            } else {
                // A legal move's text most of the time, else arbitrary bytes.
                let legal = i.map(|i| s.bao[i].positions.last().expect("start").legal_moves());
                let text = match legal {
                    Some(l) if !l.is_empty() && u.ratio(3, 4)? => {
                        Some(CString::new(l[u.choose_index(l.len())?].to_string()).expect("text"))
                    }
                    _ => c_string(u)?,
                };
                // SAFETY: as above; `text` NULL or NUL-terminated.
                let st = unsafe { mancala_bao_play(h, ptr_of(&text)) };
                let model = match i {
                    None => Err(bad_handle(h)),
                    Some(i) => text_of(&text).and_then(|t| {
                        let g = &mut s.bao[i];
                        let p = *g.positions.last().expect("a start position");
                        let mv: BaoMove = t.parse().map_err(|_| MancalaStatus::IllegalMove)?;
                        let q = p.play(mv).map_err(|_| MancalaStatus::IllegalMove)?;
                        g.positions.push(q);
                        g.moves.push(mv);
                        Ok(())
                    }),
                };
                expect("bao_play", st, model);
            }
        }
        // mancala_kalah_print / record_print
        6 => {
            others.extend(bao_live.iter().map(|&p| p as usize));
            let (h, i) = pick(u, &kalah_live, &others)?;
            let record = u.arbitrary::<bool>()?;
            let expected = i.map(|i| {
                let g = &s.kalah[i];
                if record {
                    let moves: Vec<String> = g.moves.iter().map(ToString::to_string).collect();
                    moves.join(",")
                } else {
                    g.positions.last().expect("start").to_string()
                }
            });
            let expected = expected.as_deref().ok_or(bad_handle(h));
            // SAFETY: buffer contract kept by `check_print`.
            check_print(u, "kalah_print", expected, |b, l, n| unsafe {
                if record {
                    mancala_kalah_record_print(h, b, l, n)
                } else {
                    mancala_kalah_print(h, b, l, n)
                }
            })?;
        }
        // mancala_bao_print / record_print / legal_moves
        7 => {
            others.extend(kalah_live.iter().map(|&p| p as usize));
            let (h, i) = pick(u, &bao_live, &others)?;
            let which = u.int_in_range(0..=2u8)?;
            let expected = i.map(|i| {
                let g = &s.bao[i];
                let p = g.positions.last().expect("start");
                let join = |v: &[BaoMove], sep: &str| {
                    v.iter()
                        .map(ToString::to_string)
                        .collect::<Vec<_>>()
                        .join(sep)
                };
                match which {
                    0 => p.to_string(),
                    1 => join(&g.moves, ","),
                    _ => join(&p.legal_moves(), " "),
                }
            });
            let n_legal = i.map(|i| {
                s.bao[i]
                    .positions
                    .last()
                    .expect("start")
                    .legal_moves()
                    .len()
            });
            let expected = expected.as_deref().ok_or(bad_handle(h));
            let mut count = usize::MAX;
            // SAFETY: buffer contract kept by `check_print`; `count` writable.
            check_print(u, "bao_print", expected, |b, l, n| unsafe {
                match which {
                    0 => mancala_bao_print(h, b, l, n),
                    1 => mancala_bao_record_print(h, b, l, n),
                    _ => mancala_bao_legal_moves(h, b, l, n, &mut count),
                }
            })?;
            if which == 2 && count != usize::MAX {
                assert_eq!(Some(count), n_legal, "bao_legal_moves count");
            }
        }
        // mancala_kalah_board / legal_moves: element buffers
        8 => {
            others.extend(rules_live.iter().map(|&p| p as usize));
            let (h, i) = pick(u, &kalah_live, &others)?;
            let board = u.arbitrary::<bool>()?;
            let expected: Option<Vec<u8>> = i.map(|i| {
                let p = s.kalah[i].positions.last().expect("start");
                if board {
                    p.slots().to_vec()
                } else {
                    p.legal_moves()
                        .iter()
                        .map(|&m| match m {
                            KalahMove::House(h) => h,
                            KalahMove::Swap => MANCALA_KALAH_SWAP,
                        })
                        .collect()
                }
            });
            let len = u.int_in_range(0..=20usize)?;
            let null_buf = u.ratio(1, 8)?;
            let mut buf = vec![0xA5u8; len + 4];
            let mut count = usize::MAX;
            let bp = if null_buf {
                ptr::null_mut()
            } else {
                buf.as_mut_ptr()
            };
            // SAFETY: `bp` NULL or `len` writable bytes; `count` writable.
            let st = unsafe {
                if board {
                    mancala_kalah_board(h, bp, len, &mut count)
                } else {
                    mancala_kalah_legal_moves(h, bp, len, &mut count)
                }
            };
            let untouched = buf.iter().all(|&b| b == 0xA5);
            match expected {
                None => {
                    expect("kalah_board/legal_moves", st, Err(bad_handle(h)));
                    assert!(untouched && count == usize::MAX);
                }
                Some(_) if null_buf && len > 0 => {
                    expect(
                        "kalah_board/legal_moves",
                        st,
                        Err(MancalaStatus::NullPointer),
                    );
                    assert!(untouched && count == usize::MAX);
                }
                Some(v) if len < v.len() => {
                    expect(
                        "kalah_board/legal_moves",
                        st,
                        Err(MancalaStatus::BufferTooSmall),
                    );
                    assert!(untouched && count == v.len());
                }
                Some(v) => {
                    expect("kalah_board/legal_moves", st, Ok(()));
                    assert_eq!((count, &buf[..v.len()]), (v.len(), &v[..]));
                    assert!(
                        buf[v.len()..].iter().all(|&b| b == 0xA5),
                        "wrote past the end"
                    );
                }
            }
        }
        // mancala_egdb_load: arbitrary file contents, or an arbitrary path under a folder that
        // does not exist (never a real file of the machine).
        9 => {
            let from_file = u.arbitrary::<bool>()?;
            let path = if from_file {
                let bytes: Vec<u8> = u.arbitrary()?;
                let p = std::env::temp_dir().join(format!(
                    "mancala-fuzz-ffi-{}-{:?}.egdb",
                    std::process::id(),
                    std::thread::current().id()
                ));
                std::fs::write(&p, &bytes).expect("write the temporary file");
                Some(CString::new(p.to_str().expect("UTF-8 temp dir")).expect("path"))
            } else {
                let mut bytes = b"/nonexistent-mancala-fuzz/".to_vec();
                let tail: Vec<u8> = u.arbitrary()?;
                bytes.extend(tail.into_iter().filter(|&b| b != 0));
                Some(CString::new(bytes).expect("no NUL"))
            };
            let mut out: *mut MancalaEgdb = sentinel();
            // SAFETY: `path` NUL-terminated; `out` writable.
            let st = unsafe { mancala_egdb_load(ptr_of(&path), &mut out) };
            let loaded = match text_of(&path) {
                Err(e) => Err(e),
                Ok(t) => mancala_solver::Egdb::load(std::path::Path::new(t)).map_err(egdb_status),
            };
            let description = loaded.as_ref().ok().map(mancala_solver::Egdb::description);
            let model = loaded.map(|_| ());
            if from_file {
                let _ = std::fs::remove_file(text_of(&path).expect("UTF-8"));
            }
            expect("egdb_load", st, model);
            if st == MancalaStatus::Ok {
                // mancala_egdb_describe into any buffer: the Rust description.
                let expected = description.as_deref().ok_or(MancalaStatus::Panic);
                // SAFETY: buffer contract kept by `check_print`; `out` is live.
                check_print(u, "egdb_describe", expected, |b, l, n| unsafe {
                    mancala_egdb_describe(out, b, l, n)
                })?;
                // SAFETY: a live handle just made.
                assert_eq!(unsafe { mancala_egdb_free(out) }, MancalaStatus::Ok);
                s.freed.push(out as usize);
            } else {
                assert_eq!(out, sentinel(), "out written on failure");
            }
        }
        // mancala_status_name / mancala_last_error with any buffer
        10 => {
            // A code of the library's status list or next to its ends most of the time (so
            // that every status, a later one too, gets drawn), else any `int`.
            let statuses = mancala::status::all_statuses();
            let code: c_int = if u.ratio(3, 4)? {
                let last = c_int::try_from(statuses.len()).expect("a few statuses") + 1;
                u.int_in_range(-2..=last)?
            } else {
                u.arbitrary()?
            };
            check_status_name(code);
            let message = last_error();
            // SAFETY: buffer contract kept by `check_print`.
            check_print(u, "last_error", Ok(&message), |b, l, n| unsafe {
                mancala_last_error(b, l, n)
            })?;
        }
        // Free a handle (live, or again: a double free must be refused).
        _ => {
            let kind = u.int_in_range(0..=2u8)?;
            macro_rules! free {
                ($live:expr, $list:expr, $free:ident, $h:expr) => {{
                    let (h, i) = pick(u, &$live, &others)?;
                    // SAFETY: registry-checked handle; no other use of it follows.
                    let st = unsafe { $free(h) };
                    match i {
                        Some(i) => {
                            expect("free", st, Ok(()));
                            let gone = $list.swap_remove(i);
                            s.freed.push($h(gone) as usize);
                        }
                        None if h.is_null() => expect("free", st, Ok(())),
                        None => expect("free", st, Err(MancalaStatus::InvalidHandle)),
                    }
                }};
            }
            match kind {
                0 => free!(rules_live, s.rules, mancala_rules_free, |r: (
                    *mut MancalaRules,
                    Rules
                )| {
                    r.0
                }),
                1 => free!(kalah_live, s.kalah, mancala_kalah_free, |g: KalahGame| g
                    .handle),
                _ => free!(bao_live, s.bao, mancala_bao_free, |g: BaoGame| g.handle),
            }
        }
    }
    Ok(())
}
