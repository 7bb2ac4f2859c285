"""Long calls release the GIL and stop on Ctrl-C (KeyboardInterrupt).

Ctrl-C is simulated with ``_thread.interrupt_main()``, which raises SIGINT's Python-level
flag in the main thread exactly as the default SIGINT handler does.

``interrupt_main`` does nothing when SIGINT is not handled by Python: a process started with
SIGINT ignored (a command run with ``&`` by a shell without job control, as CI scripts and
``nohup``-style launchers do) starts with ``SIG_IGN`` and would never see the simulated
Ctrl-C, leaving a call that runs for minutes. So every test here installs Python's default
handler first and puts the inherited one back afterwards."""

from __future__ import annotations

import _thread
import os
import signal
import sys
import threading
import time
from typing import Iterator

import pytest

import mancala
from mancala import Engine, Kalah
from conftest import ROOT

BOT = ROOT / "crates" / "mancala-bench" / "tests" / "bots" / "kalah_bot.sh"
# North to move: kalah_bot.sh `hang` never answers `go` there.
NORTH = "1,0,0,8,0,1,1,7 N"

@pytest.fixture(autouse=True)
def python_handles_sigint() -> Iterator[None]:
    """SIGINT handled by Python's default handler (``KeyboardInterrupt``) during the test,
    whatever the process inherited (module docs)."""
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, inherited)


# Every call below would run for minutes (or forever) if it were not stopped.
LONG_CALLS = {
    "solve": lambda: mancala.solve("standard", threads=1, tt_mb=16),
    "analyse": lambda: mancala.analyse("standard", threads=2, tt_mb=16),
    "engine": lambda: Engine(level=10, tt_mb=4).search(Kalah("kalah(7,10)"), time_ms=600_000),
    "engine-bao": lambda: Engine(level=10, tt_mb=4).search(mancala.Bao(), time_ms=600_000),
    "build_egdb": lambda: mancala.build_egdb("standard", 19, threads=1),
    "random_playouts": lambda: mancala.random_playouts(10**8),
    "grade_values": lambda: mancala.grade(
        1, [Kalah("standard")], solver=mancala.Solver(threads=1, tt_mb=16)
    ),
    # The program never answers `go`: the wait would last the move's 20 s.
    "grade_program": lambda: mancala.grade(
        ["sh", str(BOT), "hang"], [Kalah("kalah(3,3)", NORTH)], time=20
    ),
    # Each of these positions takes the solver seconds to minutes.
    "generate_positions": lambda: mancala.generate_positions(
        "kalah(6,5)", 500, min_seeds=40, max_seeds=50, solver=mancala.Solver(threads=1, tt_mb=16)
    ),
}


@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_ctrl_c_stops_a_long_call_and_the_gil_is_free_meanwhile(name):
    ticks = 0
    stop = threading.Event()

    def count():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    counter = threading.Thread(target=count)
    counter.start()
    timer = threading.Timer(0.5, _thread.interrupt_main)
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            LONG_CALLS[name]()
            # Not reached when the call is interrupted; a call that ended by itself would
            # leave the interrupt pending: wait for it here, so the test fails cleanly.
            time.sleep(5)
    finally:
        timer.cancel()
        stop.set()
        counter.join()
    elapsed = time.monotonic() - t0
    assert elapsed < 5.0, f"{name} took {elapsed:.1f} s to stop"
    # The other thread ran while the call held no GIL (about 500 ticks of 1 ms).
    assert ticks > 50, f"only {ticks} ticks of the other thread during {name}"


def test_the_solver_is_usable_after_an_interrupt():
    solver = mancala.Solver(threads=1, tt_mb=16)
    timer = threading.Timer(0.3, _thread.interrupt_main)
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solver.solve(Kalah("standard"))
        time.sleep(5)
    timer.cancel()
    assert solver.solve(Kalah("kalah(6,2)")).value == 6


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc; the keeper")
def test_ctrl_c_while_a_program_is_awaited_kills_it_and_its_children(tmp_path):
    # `hangkids` ignores SIGINT, SIGTERM and SIGHUP and waits for two children, one in a
    # session of its own (`setsid`): only a SIGKILL of each ends them.
    pidfile = tmp_path / "pid"
    timer = threading.Timer(1.0, _thread.interrupt_main)
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            mancala.grade(
                ["sh", str(BOT), "hangkids", str(pidfile)],
                [Kalah("kalah(3,3)", NORTH)],
                time=20,
            )
            time.sleep(5)
    finally:
        timer.cancel()
    assert time.monotonic() - t0 < 5.0
    ids = [int(pidfile.read_text().split()[0])]
    ids += [int(line) for line in (tmp_path / "pid.kids").read_text().split()]
    assert len(ids) == 3
    # None of them is left running (each is killed and reaped by the program's keeper).
    for _ in range(500):
        if not running(ids):
            break
        time.sleep(0.02)
    else:
        left = running(ids)
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        pytest.fail(f"left running: {left}")


def running(ids: list[int]) -> list[int]:
    """The processes of `ids` still running (Linux: /proc): not zombies, with the command
    line of the test bot or of its `sleep 1003` children (not an id reused since)."""
    live = []
    for pid in ids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        # pid (comm) state ...: comm may hold spaces, so read after its ")".
        state = stat[stat.rindex(")") + 2]
        if state != "Z" and (b"kalah_bot" in cmdline or b"1003" in cmdline):
            live.append(pid)
    return live


def _ctrl_c_undoes_a_step(batch, n: int, after: float) -> None:
    """Steps a batch made by ``batch()`` (``n`` games, reset) with a Ctrl-C ``after`` seconds
    in, and checks that the step raised ``KeyboardInterrupt`` and did not happen for any game:
    the games, their masks and the batch's generator are as before it (the next draw is a
    twin's, which never stepped)."""
    games, twin = batch(), batch()
    actions = games.sample_actions()
    assert (twin.sample_actions() == actions).all()
    before = [games.game(i).to_dict() for i in range(n)]
    timer = threading.Timer(after, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            games.step(actions)
            # Reached only when the step ran to its end with no interrupt raised: the
            # pending interrupt is raised here, and the games have moved on.
            time.sleep(5)
    finally:
        timer.cancel()
    assert [games.game(i).to_dict() for i in range(n)] == before
    assert (games.sample_actions() == twin.sample_actions()).all()


def test_ctrl_c_stops_a_vector_step_against_the_engine_and_the_step_does_not_happen():
    # Level 9 with no time limit searches 14 plies in each Togyz Kumalak game: seconds a
    # move, so the step of four games runs for many seconds unless Ctrl-C stops it.
    def batch():
        games = mancala.VectorGames("togyz-kumalak", num_envs=4, opponent=9, opponent_time_ms=0)
        games.reset(seed=0)
        return games

    _ctrl_c_undoes_a_step(batch, 4, 0.5)


def test_ctrl_c_during_a_short_vector_step_undoes_it_when_it_ends():
    # Two games at 120 ms a move: a budget of 240 ms, within which a step runs without the
    # watcher's helper thread. Level 10 searches until its time is up, so the step lasts at
    # least 240 ms, and the Ctrl-C of 10 ms in comes while it runs; it is handled when the
    # step ends, and the step is undone as a watched one is.
    def batch():
        games = mancala.VectorGames(
            "standard", num_envs=2, opponent=10, opponent_time_ms=120, seed=1
        )
        games.reset(seed=3)
        return games

    _ctrl_c_undoes_a_step(batch, 2, 0.01)


def test_ctrl_c_stops_a_first_vector_reset_against_the_engine_and_it_does_not_count():
    # The engine moves first in each game (agent_first=False): seconds a move at level 9.
    games = mancala.VectorGames(
        "togyz-kumalak", num_envs=2, opponent=9, opponent_time_ms=0, agent_first=False
    )
    timer = threading.Timer(0.5, _thread.interrupt_main)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            games.reset(seed=0)
            time.sleep(5)
    finally:
        timer.cancel()
    # The reset did not happen: the games are at the start, and a step still needs one.
    assert all(games.game(i).moves == [] for i in range(2))
    with pytest.raises(RuntimeError, match="call reset"):
        games.step([0, 0])
