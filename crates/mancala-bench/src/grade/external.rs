//! The external player ([`ExternalPlayer`]): a program speaking the line protocol
//! (`docs/line-protocol.md`), the grader being the side that sends positions and reads moves.
//! Each program runs in its own process group (on Linux under a keeper, module `keeper`, that
//! kills every process it started, those that left the group included, and dies with the
//! grader), with a reader thread for its replies, a cap on a reply's length, a start-up limit
//! outside the move's clock, and everything it started killed on a timeout and on the
//! grader's own signals ([`kill_programs`]).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use mancala_core::{Game, GameRecord};

#[cfg(target_os = "linux")]
use super::keeper;
use super::{Answer, Budget, Player};

/// Longest reply line read from an external program, bytes (the newline excluded); a longer
/// line is a failure and the program is stopped.
pub(crate) const MAX_REPLY_BYTES: usize = 4096;

/// How long a program's keeper (Linux, module `keeper`) may take to kill the program and
/// every process it started, and end, once told to; then its process group is killed.
#[cfg(target_os = "linux")]
const KEEPER_LIMIT: Duration = Duration::from_secs(5);

/// How long a freshly started external program may take to start and answer its first
/// `position` request; the clock of the move starts at that `ok` reply.
pub(crate) const STARTUP_LIMIT: Duration = Duration::from_secs(10);

/// Characters of a program's text a message quotes ([`shown`]): its last line on standard
/// error ([`Running::explain`]), the reason of an `error …` reply.
const SHOWN_CHARS: usize = 200;

/// How long a failure's message waits for the program's standard error to end (the program
/// ended, but its last words may still be on their way), milliseconds.
const STDERR_WAIT: Duration = Duration::from_millis(200);

/// The last non-blank line a program wrote on standard error (at most [`SHOWN_CHARS`]
/// characters kept), and whether its standard error has ended.
#[derive(Default)]
struct StderrTail {
    last: Option<String>,
    ended: bool,
}

/// Lines of a program read but not yet taken by the grader: when they are there, the reader
/// waits, and so does a program that writes more (a program writing lines without end holds
/// no more than this many in the grader's memory).
const QUEUED_LINES: usize = 256;

/// A line read from the program.
enum Line {
    /// A complete line (invalid UTF-8 replaced by U+FFFD).
    Text(String),
    /// A line longer than [`MAX_REPLY_BYTES`]: reading stopped there.
    TooLong,
}

/// CPU time (user + system) the threads reading external programs' output have spent in
/// this process, nanoseconds ([`ReaderClock`]): set aside from the CPU time of a player that
/// computes in this process ([`in_process_seconds`]).
static READERS_NANOS: AtomicU64 = AtomicU64::new(0);

/// The CPU clock of a thread that reads a program's standard output or error: what the
/// thread spends is added to [`READERS_NANOS`] at every [`ReaderClock::credit`] and when the
/// clock is dropped (the thread's end).
struct ReaderClock {
    /// The thread's CPU time at the last credit, whole nanoseconds (`None` where it cannot
    /// be read).
    last: Option<u64>,
}

impl ReaderClock {
    /// The clock of the calling thread, from now.
    fn start() -> ReaderClock {
        ReaderClock {
            last: ReaderClock::now(),
        }
    }

    /// The calling thread's CPU time, whole nanoseconds: the clock's seconds rounded (exact
    /// below 10^6 s, where an `f64` holds every nanosecond), so that the credits, each a
    /// difference of two such readings, add up to the thread's time without a rounding
    /// error a credit.
    fn now() -> Option<u64> {
        mancala_solver::usage::thread_seconds().map(|s| (s * 1e9).round() as u64)
    }

    /// Adds the thread's CPU time since the last credit to [`READERS_NANOS`].
    fn credit(&mut self) {
        let (Some(last), Some(now)) = (self.last, ReaderClock::now()) else {
            return;
        };
        READERS_NANOS.fetch_add(now.saturating_sub(last), Ordering::Relaxed);
        self.last = Some(now);
    }
}

impl Drop for ReaderClock {
    fn drop(&mut self) {
        self.credit();
    }
}

/// The CPU time (user + system), seconds, this process has spent so far on everything but
/// reading external programs' output: [`mancala_solver::usage::process_seconds`] less the
/// time of the reader threads ([`READERS_NANOS`], counted to within one read of each).
/// `None` where the system does not tell.
pub(crate) fn in_process_seconds() -> Option<f64> {
    let all = mancala_solver::usage::process_seconds()?;
    Some(all - READERS_NANOS.load(Ordering::Relaxed) as f64 * 1e-9)
}

/// The process groups of the external programs running now (Unix), killed by
/// [`kill_programs`]: each is the id of the process the grader started (on Linux the
/// program's keeper, module `keeper`).
#[cfg(unix)]
static GROUPS: std::sync::Mutex<Vec<i32>> = std::sync::Mutex::new(Vec::new());

#[cfg(unix)]
fn groups() -> std::sync::MutexGuard<'static, Vec<i32>> {
    GROUPS
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Stops every external program an [`ExternalPlayer`] is running now, with every process it
/// started: what a grader calls on Ctrl-C or SIGTERM before it exits, so that nothing it
/// started is left running. On Linux each program's keeper is told to stop (SIGTERM): it
/// kills the program and all its descendants, those that left its process group or session
/// included, and exits, whether or not the grader is still there; elsewhere on Unix the
/// program's process group is killed (SIGKILL); elsewhere than Unix, nothing. It returns at
/// once, without waiting for them to end.
pub fn kill_programs() {
    #[cfg(unix)]
    for &g in groups().iter() {
        // SAFETY: kill(2) of a process (the keeper) or, with a negative pid, of a process
        // group; no memory is shared.
        #[cfg(target_os = "linux")]
        unsafe {
            libc::kill(g, libc::SIGTERM)
        };
        #[cfg(not(target_os = "linux"))]
        unsafe {
            libc::kill(-g, libc::SIGKILL)
        };
    }
}

/// A running external program (the leader of its own process group on Unix) and the lines
/// it writes.
struct Running {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    /// Whether no `position` request was answered yet (the start-up limit applies).
    fresh: bool,
    /// The rule set this program was told (`rules …`, answered either way), if any.
    told: Option<String>,
    /// Its last line on standard error, kept by a thread that reads and drops the rest.
    stderr: Arc<Mutex<StderrTail>>,
}

impl Running {
    /// Drops the lines read but not taken (left over from an earlier exchange), at most
    /// [`QUEUED_LINES`] of them: a program writing without end cannot keep the grader here.
    fn drop_queued(&self) {
        for _ in 0..QUEUED_LINES {
            if self.lines.try_recv().is_err() {
                break;
            }
        }
    }

    /// Stops the program at once ([`Running::stop`]) and returns `why` a request failed,
    /// with the program's last line on standard error when it wrote one (`…; its standard
    /// error ended with "Traceback: …"`): once every process holding it is gone, its
    /// standard error ends; the line is waited for up to [`STDERR_WAIT`].
    fn stop_explained(self, why: String) -> String {
        let stderr = Arc::clone(&self.stderr);
        self.stop(false);
        let start = Instant::now();
        loop {
            let tail = stderr.lock().unwrap_or_else(PoisonError::into_inner);
            if tail.ended || start.elapsed() >= STDERR_WAIT {
                return match &tail.last {
                    Some(line) => format!("{why}; its standard error ended with \"{line}\""),
                    None => why,
                };
            }
            drop(tail);
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Whether the program has ended, without reaping it (so its pid, the id of its process
    /// group, stays reserved until [`Running::reap`]).
    #[cfg(unix)]
    fn ended(&self) -> bool {
        let Ok(pid) = libc::pid_t::try_from(self.child.id()) else {
            return true;
        };
        // SAFETY: `info` is a writable local; waitid with WNOWAIT only inspects the child.
        unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOHANG | libc::WNOWAIT,
            );
            r == 0 && info.si_pid() != 0
        }
    }

    #[cfg(not(unix))]
    fn ended(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// Kills the program and every process it started, then reaps the process started. On
    /// Linux the keeper is told to (SIGTERM) and given [`KEEPER_LIMIT`] to do it and end;
    /// then (elsewhere at once) the whole process group is killed (the program and every
    /// process it started that stayed in its group).
    fn reap(mut self) {
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(self.child.id()) {
            #[cfg(target_os = "linux")]
            {
                // SAFETY: kill(2) of our unreaped child (its id cannot have been reused).
                unsafe { libc::kill(pid, libc::SIGTERM) };
                let start = Instant::now();
                while !self.ended() && start.elapsed() < KEEPER_LIMIT {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            // SAFETY: kill(2) on the group whose leader is our unreaped child (its id cannot
            // have been reused).
            unsafe { libc::kill(-pid, libc::SIGKILL) };
            groups().retain(|&g| g != pid);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Stops the program: when `polite`, `quit` and up to 100 ms to end; then its process
    /// group is killed (it is never left running, nor are its children).
    fn stop(mut self, polite: bool) {
        if polite {
            let _ = writeln!(self.stdin, "quit");
            let _ = self.stdin.flush();
            for _ in 0..20 {
                if self.ended() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        }
        self.reap();
    }
}

/// An external program as a player, speaking the line protocol of `mancala agent line`
/// (`docs/line-protocol.md`, "Grading a program"): after each start of the program, and
/// whenever the rule set of the positions changes, the grader writes `rules <rule set>` (the
/// positions' rules in the rule-set notation) and reads one line within 10 s (`ok …`, or `error …`: the program refused it and is graded all the same,
/// [`Player::rules_refused`]; no reply or another one is a failure); for each position it writes
/// `position <position>` and reads one line (`ok …`; `error …` is a failure), then writes
/// `go time <ms>` (with ` nodes <n>` when the budget has a node budget) and reads
/// `bestmove <move> …` (the words after the move are not read). The whole exchange must end
/// within [`Budget::deadline`] from the moment `position` is sent — for a program just
/// started, from its `ok` reply, the start-up and that reply having 10 s. Lines
/// left over from an earlier exchange are discarded before `position` is sent, and a
/// `bestmove` line read in reply to `position` is skipped as stale. A reply line longer
/// than 4,096 bytes is a failure. A program that does not answer in time is killed,
/// one that ends or answers otherwise is a failure; either way it is started again for the
/// next position. On Unix the program runs in its own process group with an empty signal
/// mask, and the whole group is killed when it is stopped (and by [`kill_programs`]). On
/// Linux, moreover, every process the program started, directly or not, is killed when the
/// program stops or ends, those that left its process group or session (`setsid`) included,
/// and the program and all of them die when the grader ends, however it ends (SIGKILL
/// included): the process started is a keeper that starts the program (module `keeper`). Its
/// standard error is read by a thread that keeps only its last line: a failure's reason
/// quotes it (`…; its standard error ended with "…"`).
pub struct ExternalPlayer {
    command: Vec<String>,
    running: Option<Running>,
    /// The program's reason for refusing the last rule set it was told.
    refused: Option<String>,
    /// The `depth <plies>` of the last `bestmove` reply, when it held one.
    depth: Option<u32>,
    /// The move word of the last `bestmove` reply, as the program wrote it.
    text: Option<String>,
    /// Asked every [`POLL`] while a reply is awaited: `true` stops the wait (the program is
    /// killed and the answer is a failure).
    stop: Option<Stop>,
}

/// The stop test of an [`ExternalPlayer`] ([`ExternalPlayer::stop_when`]).
type Stop = Box<dyn FnMut() -> bool + Send>;

/// How often an [`ExternalPlayer`] with a stop test ([`ExternalPlayer::stop_when`]) asks it
/// while it waits for a reply.
pub const POLL: Duration = Duration::from_millis(50);

/// The failure text of an answer cut short by the stop test of [`ExternalPlayer::stop_when`].
pub(crate) const STOPPED: &str = "stopped while waiting for the program's reply";

impl ExternalPlayer {
    /// The program `command[0]` with the arguments `command[1..]` (not started yet: it
    /// starts with the first position, and again after a failure).
    #[must_use]
    pub fn new(command: Vec<String>) -> ExternalPlayer {
        ExternalPlayer {
            command,
            running: None,
            refused: None,
            depth: None,
            text: None,
            stop: None,
        }
    }

    /// The same player, asking `stop` every [`POLL`] while it waits for a reply of the
    /// program (a signal handler's flag, a Python `check_signals`): when it returns `true`,
    /// the wait ends at once, the program's process group is killed and the answer is a
    /// failure (`stopped while waiting for the program's reply`); the caller then ends the
    /// run (the grader's callback).
    #[must_use]
    pub fn stop_when(mut self, stop: impl FnMut() -> bool + Send + 'static) -> ExternalPlayer {
        self.stop = Some(Box::new(stop));
        self
    }

    /// Starts the program now if it is not running (e.g. to check that it can start before
    /// a long run).
    ///
    /// # Errors
    /// Why the program cannot start (no such program, no permission, …).
    pub fn start_now(&mut self) -> Result<(), String> {
        if self.running.is_none() {
            self.running = Some(self.start()?);
        }
        Ok(())
    }

    fn start(&self) -> Result<Running, String> {
        let (program, args) = self
            .command
            .split_first()
            .ok_or_else(|| "no program given".to_string())?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
            // A grader may block signals in its threads (for a signal-waiting thread); the
            // program must start with none blocked. On Linux the keeper sees to it.
            #[cfg(target_os = "linux")]
            keeper::keep(&mut command);
            // SAFETY: between fork and exec only async-signal-safe calls: sigemptyset and
            // sigprocmask on a local set.
            #[cfg(not(target_os = "linux"))]
            unsafe {
                command.pre_exec(|| {
                    let mut set: libc::sigset_t = std::mem::zeroed();
                    libc::sigemptyset(&mut set);
                    libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut());
                    Ok(())
                });
            }
        }
        let mut child = command.spawn().map_err(|e| {
            format!(
                "cannot start {}: {e}",
                mancala_core::ShortenedPath(std::path::Path::new(program))
            )
        })?;
        #[cfg(unix)]
        if let Ok(pid) = i32::try_from(child.id()) {
            groups().push(pid);
        }
        let stdin = child.stdin.take().ok_or("no standard input")?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let stderr_pipe = child.stderr.take().ok_or("no standard error")?;
        let (tx, lines) = mpsc::sync_channel(QUEUED_LINES);
        std::thread::Builder::new()
            .name("grade-reader".into())
            .spawn(move || read_lines(stdout, &tx))
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        let stderr = Arc::new(Mutex::new(StderrTail::default()));
        let tail = Arc::clone(&stderr);
        std::thread::Builder::new()
            .name("grade-stderr".into())
            .spawn(move || read_stderr(stderr_pipe, &tail))
            .map_err(|e| format!("cannot start a reader thread: {e}"))?;
        Ok(Running {
            child,
            stdin,
            lines,
            fresh: true,
            told: None,
            stderr,
        })
    }

    /// Starts the program if it is not running and tells it the rule set `rules` (the
    /// request `rules <rules>`), as the grader does before the first position of a run and
    /// after every start; the answer must come within 10 s. Returns `None` when
    /// the program accepted it (`ok …`), the reason when it refused it (`error <reason>`:
    /// it is graded all the same, and must then know the rule set from its own options).
    ///
    /// # Errors
    /// Why the program cannot start, or did not answer the request (no reply in time, a
    /// reply other than `ok …` or `error …`, the program ended): it is then stopped.
    pub fn tell_rules(&mut self, rules: &str) -> Result<Option<String>, String> {
        self.start_now()?;
        let mut run = self.running.take().ok_or("the program is not running")?;
        match Self::send_rules(&mut run, rules, &mut self.stop) {
            Ok(refused) => {
                self.running = Some(run);
                self.refused.clone_from(&refused);
                Ok(refused)
            }
            Err(Answer::TimedOut) => {
                run.stop(false);
                Err(format!(
                    "the program did not answer `rules {rules}` within {} s (every request gets one reply line, docs/line-protocol.md)",
                    STARTUP_LIMIT.as_secs()
                ))
            }
            Err(Answer::Failed(why)) => Err(run.stop_explained(why)),
            Err(_) => {
                run.stop(false);
                Err("unexpected".to_string())
            }
        }
    }

    /// Sends `rules <rules>` and reads the reply within [`STARTUP_LIMIT`] (a stale
    /// `bestmove` line skipped): `Ok(None)` for `ok …`, `Ok(Some(reason))` for `error …`.
    fn send_rules(
        run: &mut Running,
        rules: &str,
        stop: &mut Option<Stop>,
    ) -> Result<Option<String>, Answer<()>> {
        run.drop_queued();
        let sent = Instant::now();
        let reply = Self::exchange(
            run,
            &format!("rules {rules}"),
            sent + STARTUP_LIMIT,
            is_bestmove_line,
            stop,
        )?;
        run.told = Some(rules.to_string());
        let first = reply.split_whitespace().next().unwrap_or("");
        if first.eq_ignore_ascii_case("ok") {
            Ok(None)
        } else if first.eq_ignore_ascii_case("error") {
            let why = reply[first.len()..].trim();
            Ok(Some(shown(why)))
        } else {
            Err(Answer::Failed(format!(
                "expected `ok …` or `error …` in reply to `rules {rules}`, got \"{}\"",
                mancala_core::Shortened(&reply)
            )))
        }
    }

    /// Sends `request` and waits until `deadline` for the next non-blank line that `stale`
    /// does not reject.
    fn exchange(
        run: &mut Running,
        request: &str,
        deadline: Instant,
        stale: impl Fn(&str) -> bool,
        stop: &mut Option<Stop>,
    ) -> Result<String, Answer<()>> {
        writeln!(run.stdin, "{request}")
            .and_then(|()| run.stdin.flush())
            .map_err(|e| {
                Answer::Failed(if e.kind() == std::io::ErrorKind::BrokenPipe {
                    // The program closed its standard input: it ended (or will) before the
                    // request, whichever of the two the system saw first.
                    "the program ended or closed its standard input".to_string()
                } else {
                    format!("writing to the program: {e}")
                })
            })?;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                // Checked here, not only when no line comes: a program writing blank or stale
                // lines without end is out of time all the same.
                return Err(Answer::TimedOut);
            }
            let wait = match stop {
                Some(_) => left.min(POLL),
                None => left,
            };
            match run.lines.recv_timeout(wait) {
                Err(RecvTimeoutError::Timeout) if wait < left => {
                    if stop.as_mut().is_some_and(|s| s()) {
                        return Err(Answer::Failed(STOPPED.to_string()));
                    }
                }
                Ok(Line::Text(line)) if line.trim().is_empty() || stale(line.trim()) => {}
                Ok(Line::Text(line)) => return Ok(line.trim().to_string()),
                Ok(Line::TooLong) => {
                    return Err(Answer::Failed(format!(
                        "a reply line longer than {MAX_REPLY_BYTES} bytes"
                    )))
                }
                Err(RecvTimeoutError::Timeout) => return Err(Answer::TimedOut),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Answer::Failed(
                        "the program ended (no reply line)".to_string(),
                    ))
                }
            }
        }
    }
}

/// How [`read_line`] stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LineEnd {
    /// At the line's newline.
    Newline,
    /// At the end of the input (or a read error): the line is what came before it.
    End,
    /// Past the bytes kept, when told to stop there: the rest of the line is not read.
    TooLong,
}

/// Reads the next line of `reader` (to its newline, not kept, or the end of the input) into
/// `kept`, emptied first, keeping its first `keep` bytes. A longer line is read to its end
/// and the rest dropped, or with `stop_when_long` left unread ([`LineEnd::TooLong`], as soon
/// as more than `keep` bytes were seen). The one line reader of a program's standard output
/// ([`read_lines`]) and standard error ([`read_stderr`]). Before each read the thread's CPU
/// time so far is credited to `clock`, so that reading never counts as a player's thinking.
fn read_line(
    reader: &mut impl BufRead,
    kept: &mut Vec<u8>,
    keep: usize,
    stop_when_long: bool,
    clock: &mut ReaderClock,
) -> LineEnd {
    kept.clear();
    loop {
        clock.credit();
        let buf = match reader.fill_buf() {
            Ok([]) | Err(_) => return LineEnd::End,
            Ok(b) => b,
        };
        let (used, newline) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (buf.len(), false),
        };
        let len = used - usize::from(newline);
        let room = keep.saturating_sub(kept.len());
        kept.extend_from_slice(&buf[..len.min(room)]);
        reader.consume(used);
        if stop_when_long && len > room {
            return LineEnd::TooLong;
        }
        if newline {
            return LineEnd::Newline;
        }
    }
}

/// Reads `stdout` line by line into `tx` until the end, an error, or a line longer than
/// [`MAX_REPLY_BYTES`] (sent as [`Line::TooLong`], then reading stops); a last line without
/// its newline is not sent.
fn read_lines(stdout: impl std::io::Read, tx: &mpsc::SyncSender<Line>) {
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    let mut clock = ReaderClock::start();
    loop {
        let sent = match read_line(&mut reader, &mut line, MAX_REPLY_BYTES, true, &mut clock) {
            LineEnd::End => return,
            LineEnd::TooLong => {
                let _ = tx.send(Line::TooLong);
                return;
            }
            LineEnd::Newline => tx.send(Line::Text(String::from_utf8_lossy(&line).into_owned())),
        };
        if sent.is_err() {
            return;
        }
    }
}

/// A text of the program (a reason it gave, its standard error) for a message: its first
/// [`SHOWN_CHARS`] characters and `…` when longer (a reason of a few words stays whole, a
/// line of a megabyte does not), control characters escaped ([`mancala_core::ShortenedTo`]).
fn shown(text: &str) -> String {
    mancala_core::ShortenedTo(text, SHOWN_CHARS).to_string()
}

/// Reads the program's standard error to its end, keeping its last non-blank line (its first
/// [`SHOWN_CHARS`] characters, control characters escaped) in `tail`, and marks the end.
/// Everything is read, so a program that writes much there never waits for the grader.
fn read_stderr(stderr: impl std::io::Read, tail: &Mutex<StderrTail>) {
    let mut reader = BufReader::new(stderr);
    let mut kept = Vec::new();
    let mut clock = ReaderClock::start();
    loop {
        // A line of any length is read, but only its first bytes are kept (the characters
        // shown, four bytes each at most).
        let end = read_line(&mut reader, &mut kept, 4 * SHOWN_CHARS, false, &mut clock);
        let text = String::from_utf8_lossy(&kept);
        let text = text.trim();
        if !text.is_empty() {
            tail.lock().unwrap_or_else(PoisonError::into_inner).last = Some(shown(text));
        }
        if end == LineEnd::End {
            tail.lock().unwrap_or_else(PoisonError::into_inner).ended = true;
            return;
        }
    }
}

impl Drop for ExternalPlayer {
    fn drop(&mut self) {
        if let Some(r) = self.running.take() {
            r.stop(true);
        }
    }
}

impl<G: Game> Player<G> for ExternalPlayer {
    fn name(&self) -> String {
        self.command.join(" ")
    }

    fn times_itself(&self) -> bool {
        true
    }

    fn rules_refused(&self) -> Option<String> {
        self.refused.clone()
    }

    fn answer(&mut self, position: &G, budget: &Budget) -> Answer<G::Move> {
        self.ask(position, &format!("position {position}"), budget)
    }

    /// As [`Player::answer`] on the current position, except that under rules with a history
    /// rule ([`Game::history_rules`]: Oware's repetitions and move limit, Togyz Kumalak's
    /// move limit) a game with moves played is sent as `position <start> moves <m1> <m2> …`
    /// (the line protocol's form, `docs/line-protocol.md`), so that the program sees the
    /// history the rules count.
    fn answer_game(&mut self, game: &GameRecord<G>, budget: &Budget) -> Answer<G::Move> {
        let position = game.position();
        if position.history_rules().is_none() || game.moves().is_empty() {
            return self.answer(position, budget);
        }
        let moves: Vec<String> = game.moves().iter().map(ToString::to_string).collect();
        let request = format!("position {} moves {}", game.start(), moves.join(" "));
        self.ask(position, &request, budget)
    }

    fn last_depth(&self) -> Option<u32> {
        self.depth
    }

    fn answer_text(&self) -> Option<String> {
        self.text.clone()
    }

    /// On Linux the CPU time (user + system) of the program and of every process it
    /// started, seconds since the program started (module `cpu`, from /proc: a 10 ms tick on
    /// most systems); time spent between answers (thinking on the opponent's time) counts
    /// too, but a match counts only the difference across each answer. `None` while no
    /// program is running, before its first answer (its start-up is no move's time), and
    /// off Linux.
    fn cpu_seconds(&self) -> Option<f64> {
        #[cfg(target_os = "linux")]
        {
            let run = self.running.as_ref().filter(|r| !r.fresh)?;
            super::cpu::tree_seconds(run.child.id())
        }
        #[cfg(not(target_os = "linux"))]
        {
            None
        }
    }
}

impl ExternalPlayer {
    /// The program's move in `position`, asked with the request `position_request` (a
    /// `position …` line that sets the program's game to `position`), then `go`: the
    /// exchange of [`Player::answer`].
    fn ask<G: Game>(
        &mut self,
        position: &G,
        position_request: &str,
        budget: &Budget,
    ) -> Answer<G::Move> {
        self.depth = None;
        self.text = None;
        let mut run = match self.running.take() {
            Some(r) => r,
            None => match self.start() {
                Ok(r) => r,
                Err(e) => return Answer::Failed(e),
            },
        };
        // The rule set of the position, told before the first position and after every
        // start (not part of the move's time: it has the start-up limit).
        let rules = position.rules().to_string();
        if run.told.as_deref() != Some(rules.as_str()) {
            match Self::send_rules(&mut run, &rules, &mut self.stop) {
                Ok(refused) => self.refused = refused,
                Err(failure) => {
                    return match failure {
                        Answer::TimedOut => {
                            run.stop(false);
                            Answer::Failed(format!(
                                "no reply to `rules {rules}` within {} s",
                                STARTUP_LIMIT.as_secs()
                            ))
                        }
                        Answer::Failed(why) => Answer::Failed(run.stop_explained(why)),
                        Answer::Move(()) | Answer::Unreadable(_) => {
                            run.stop(false);
                            Answer::Failed("unexpected".to_string())
                        }
                    };
                }
            }
        }
        // Lines left from an earlier exchange (an extra reply) are not answers to this one.
        run.drop_queued();
        let mut go = format!("go time {}", budget.time.as_millis().max(1));
        if let Some(n) = budget.nodes {
            go.push_str(&format!(" nodes {n}"));
        }
        let stop = &mut self.stop;
        let result = (|| {
            let fresh = std::mem::replace(&mut run.fresh, false);
            let sent = Instant::now();
            let limit = if fresh {
                STARTUP_LIMIT.max(budget.deadline())
            } else {
                budget.deadline()
            };
            let ok = Self::exchange(
                &mut run,
                position_request,
                sent.checked_add(limit).unwrap_or(sent + STARTUP_LIMIT),
                is_bestmove_line,
                stop,
            )?;
            // The clock: from the `position` request, or from the `ok` of a program just
            // started.
            let from = if fresh { Instant::now() } else { sent };
            let deadline = from
                .checked_add(budget.deadline())
                .unwrap_or(from + Duration::from_secs(86_400 * 365));
            if let Some(why) = ok.strip_prefix("error") {
                return Err(Answer::Failed(format!("position refused:{}", shown(why))));
            }
            if !ok.starts_with("ok") {
                return Err(Answer::Failed(format!(
                    "expected `ok …`, got \"{}\"",
                    mancala_core::Shortened(&ok)
                )));
            }
            let reply = Self::exchange(&mut run, &go, deadline, |_| false, stop)?;
            let mut words = reply.split_whitespace();
            match (words.next(), words.next()) {
                (Some("bestmove"), Some(mv)) => Ok((mv.to_string(), reported_depth(&reply))),
                (Some("error"), _) => Err(Answer::Failed(format!("go refused: {}", shown(&reply)))),
                _ => Err(Answer::Failed(format!(
                    "expected `bestmove <move> …`, got \"{}\"",
                    mancala_core::Shortened(&reply)
                ))),
            }
        })();
        match result {
            Ok((text, depth)) => {
                self.running = Some(run);
                self.depth = depth;
                match text.parse::<G::Move>() {
                    Ok(mv) => {
                        self.text = Some(text);
                        Answer::Move(mv)
                    }
                    // Cut, not escaped: the verdict's quotes escape it once.
                    Err(_) => Answer::Unreadable(super::cut(&text)),
                }
            }
            Err(failure) => {
                // A program that failed is stopped (at once: it has had its time) and started
                // again for the next position.
                match failure {
                    Answer::Failed(why) => Answer::Failed(run.stop_explained(why)),
                    Answer::TimedOut => {
                        run.stop(false);
                        Answer::TimedOut
                    }
                    Answer::Move(()) | Answer::Unreadable(_) => {
                        run.stop(false);
                        Answer::Failed("unexpected".to_string())
                    }
                }
            }
        }
    }
}

/// Whether a reply line is a `bestmove` reply (any letter case), which a `rules` or
/// `position` request skips as the stale answer of an earlier `go`.
fn is_bestmove_line(line: &str) -> bool {
    line.split_whitespace()
        .next()
        .is_some_and(|w| w.eq_ignore_ascii_case("bestmove"))
}

/// The plies after the word `depth` in a `bestmove` reply (`bestmove 3 score 12 depth 9 …`,
/// the reply of `mancala agent line`), `None` when the reply has none.
fn reported_depth(reply: &str) -> Option<u32> {
    let mut words = reply.split_whitespace();
    words.find(|w| w.eq_ignore_ascii_case("depth"))?;
    words.next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader that gives at most 7 bytes a read, so that lines cross the reads.
    struct Trickle<'a>(&'a [u8]);

    impl std::io::Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.0.len().min(buf.len()).min(7);
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    /// The lines `read_lines` sends for `input`, `None` for [`Line::TooLong`].
    fn lines(input: &[u8]) -> Vec<Option<String>> {
        let (tx, rx) = mpsc::sync_channel(QUEUED_LINES);
        read_lines(Trickle(input), &tx);
        drop(tx);
        rx.iter()
            .map(|l| match l {
                Line::Text(t) => Some(t),
                Line::TooLong => None,
            })
            .collect()
    }

    #[test]
    fn standard_output_is_read_line_by_line_up_to_the_cap() {
        let s = |t: &str| Some(t.to_string());
        // A last line without its newline is not a reply.
        assert_eq!(
            lines(b"bestmove 3\n\n  ok  \nno newline"),
            [s("bestmove 3"), s(""), s("  ok  ")]
        );
        assert_eq!(lines(b"\xff2\n"), [s("\u{fffd}2")]);
        // A line of the cap is read; one byte more stops the reading there.
        let mut at_cap = vec![b'x'; MAX_REPLY_BYTES];
        at_cap.extend_from_slice(b"\ny\n");
        let x = "x".repeat(MAX_REPLY_BYTES);
        assert_eq!(lines(&at_cap), [Some(x), s("y")]);
        let mut over = vec![b'x'; MAX_REPLY_BYTES + 1];
        over.extend_from_slice(b"\ny\n");
        assert_eq!(lines(&over), [None]);
    }

    /// What `read_stderr` keeps of `input`: the last non-blank line, and whether it ended.
    fn stderr_tail(input: &[u8]) -> (Option<String>, bool) {
        let tail = Mutex::new(StderrTail::default());
        read_stderr(Trickle(input), &tail);
        let t = tail.into_inner().unwrap();
        (t.last, t.ended)
    }

    #[test]
    fn standard_error_is_read_to_its_end_keeping_the_last_line() {
        let last = |t: &str| (Some(t.to_string()), true);
        assert_eq!(stderr_tail(b""), (None, true));
        assert_eq!(stderr_tail(b"first\n second \n\n  \n"), last("second"));
        assert_eq!(stderr_tail(b"first\nlast words"), last("last words"));
        // A long line is read whole (the next one is found) and shown cut.
        let mut long = vec![b'e'; 10_000];
        long.extend_from_slice(b"\nafter\n");
        assert_eq!(stderr_tail(&long), last("after"));
        long.truncate(10_000);
        let shown_long = shown(&"e".repeat(10_000));
        assert_eq!(stderr_tail(&long), (Some(shown_long), true));
    }

    /// Lines of 99 `x`s without end, until the reading thread has spent `cpu` seconds of its
    /// own CPU time (none at all where the thread's time cannot be read).
    struct Flood {
        start: Option<f64>,
        cpu: f64,
    }

    impl std::io::Read for Flood {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let Some(now) = mancala_solver::usage::thread_seconds() else {
                return Ok(0);
            };
            if now - *self.start.get_or_insert(now) >= self.cpu {
                return Ok(0);
            }
            for (i, b) in buf.iter_mut().enumerate() {
                *b = if i % 100 == 99 { b'\n' } else { b'x' };
            }
            Ok(buf.len())
        }
    }

    #[test]
    fn reading_a_program_is_not_this_process_s_thinking() {
        let (Some(all0), Some(own0)) = (
            mancala_solver::usage::process_seconds(),
            in_process_seconds(),
        ) else {
            return;
        };
        // A reader thread busy 0.1 s of its own CPU time on a program's standard error,
        // while this thread waits for it.
        let tail = Arc::new(Mutex::new(StderrTail::default()));
        let theirs = Arc::clone(&tail);
        std::thread::spawn(move || {
            read_stderr(
                Flood {
                    start: None,
                    cpu: 0.1,
                },
                &theirs,
            );
        })
        .join()
        .unwrap();
        assert!(tail.lock().unwrap().ended);
        let all = mancala_solver::usage::process_seconds().unwrap() - all0;
        let own = in_process_seconds().unwrap() - own0;
        // The process counted the reader's 0.1 s; the figure of a player computing in this
        // process left all of it out (other tests' readers may leave out more), to within
        // the microsecond of `getrusage`'s figures.
        assert!(all >= 0.1 - 1e-6, "the process spent {all} s");
        assert!(
            all - own >= 0.1 - 1e-6,
            "the reader's 0.1 s counted as this process's own: {own} s of {all} s"
        );
    }
}
