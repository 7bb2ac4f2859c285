"""Out of memory in the batched games and the engine: `MemoryError`, never an abort or a
panic.

Each case runs in a child Python whose address space is limited (RLIMIT_AS) to what it
already uses plus a margin, so that the call under test cannot get its memory. Before each
limited call the child measures its own address space (/proc/self/statm), so the margins
do not depend on the machine. A process that aborts (the allocator's failure in Rust) or a
`PanicException` (not a `MemoryError`) fails the case.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="needs RLIMIT_AS and /proc/self/statm"
)

PRELUDE = textwrap.dedent(
    """
    import gc, resource
    import numpy as np
    import mancala

    HARD = resource.getrlimit(resource.RLIMIT_AS)[1]
    MiB = 1 << 20

    def vsz():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * resource.getpagesize()

    def limited(call, extra):
        # `call()` with the address space limited to what is used now plus `extra` bytes:
        # its result, or the MemoryError it raised (one line).
        gc.collect()
        resource.setrlimit(resource.RLIMIT_AS, (vsz() + extra, HARD))
        try:
            return call()
        except MemoryError as e:
            assert "\\n" not in str(e), repr(str(e))
            return e
        finally:
            resource.setrlimit(resource.RLIMIT_AS, (HARD, HARD))
    """
)


def run_child(body: str, env: dict[str, str] | None = None) -> str:
    """Runs PRELUDE then `body` in a child Python (with `env` added to its environment);
    its standard output. Fails on an abort (a negative status: a signal), a non-zero
    status, or a panic's text on standard error."""
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(body)],
        capture_output=True,
        text=True,
        timeout=600,
        env=None if env is None else {**os.environ, **env},
    )
    assert done.returncode == 0, (done.returncode, done.stdout, done.stderr[-2000:])
    assert "panicked" not in done.stderr and "PanicException" not in done.stderr, done.stderr
    return done.stdout


def test_construction_out_of_memory_raises_memory_error() -> None:
    # Batches of growing size under a 256 MiB margin: the small ones are made, the large
    # ones raise MemoryError, including those whose array of games fits but whose games'
    # records do not (the sizes grow by 5%, finer than the records' share of a game).
    out = run_child(
        """
        n, made, refused = 1 << 16, 0, 0
        while n < 1 << 20:
            r = limited(lambda: mancala.VectorGames("togyz-kumalak", num_envs=n), 256 * MiB)
            if isinstance(r, MemoryError):
                refused += 1
                assert "do not fit in memory" in str(r), str(r)
            else:
                made += 1
            del r
            n = int(n * 1.05)
        print(made, refused)
        """
    )
    made, refused = map(int, out.split())
    assert made > 0 and refused > 0, out


@pytest.mark.parametrize("opponent", ["random", 1])
def test_reset_and_step_out_of_memory_raise_memory_error(opponent: object) -> None:
    # Margins growing by 8 MiB until the call succeeds: below that it raises MemoryError
    # (its arrays, the room for the moves, against an engine the copy kept for Ctrl-C), and
    # the batch stays usable: the same call succeeds once there is room.
    out = run_child(
        f"""
        v = mancala.VectorGames("togyz-kumalak", num_envs=1 << 18, opponent={opponent!r},
                                agent_first=True, opponent_time_ms=1)
        def until_done(call):
            refused, extra = 0, 0
            while True:
                r = limited(call, extra)
                if not isinstance(r, MemoryError):
                    return refused, r
                refused += 1
                extra += 8 * MiB
        refused_reset, r = until_done(lambda: v.reset(seed=1))
        assert r[0].shape == (1 << 18, 22) and (r[4].sum(axis=1) == 9).all()
        del r
        print(refused_reset)
        """
    )
    assert int(out.split()[0]) > 0, out


def test_step_out_of_memory_raises_memory_error() -> None:
    out = run_child(
        """
        v = mancala.VectorGames("togyz-kumalak", num_envs=1 << 18, seed=3)
        v.reset(seed=3)
        a = v.sample_actions()
        refused, extra = 0, 0
        while True:
            r = limited(lambda: v.step(a), extra)
            if not isinstance(r, MemoryError):
                break
            refused += 1
            extra += 8 * MiB
        # One move played by each side in every game: 162 kumalaks still, 2 moves recorded.
        assert (r[0][:, :20].sum(axis=1) == 162).all()
        assert all(len(v.game(i).moves) == 2 for i in (0, 1, (1 << 18) - 1))
        print(refused)
        """
    )
    assert int(out.split()[0]) > 0, out


def test_vector_env_out_of_memory_raises_memory_error() -> None:
    # The Gymnasium vector environment steps its games with the same code.
    out = run_child(
        """
        import gymnasium
        import mancala.envs
        env = gymnasium.make_vec("mancala/Togyz-v0", num_envs=1 << 18,
                                 vectorization_mode="vector_entry_point")
        refused, extra = 0, 0
        while isinstance(limited(lambda: env.reset(seed=1), extra), MemoryError):
            refused += 1
            extra += 8 * MiB
        print(refused)
        """
    )
    assert int(out.split()[0]) > 0, out


def test_engine_opponent_table_out_of_memory_raises_memory_error() -> None:
    # The engine opponent's 4 MiB table is taken at its first search, inside a step: under
    # margins from 0 (growing by 1 MiB) that step raises MemoryError and leaves the games as
    # before the call (the engine's move was not played, so the opponent had not moved and
    # the games were stuck), then succeeds once the table fits.
    out = run_child(
        """
        v = mancala.VectorGames("standard", num_envs=4, opponent=5, agent_first=True,
                                opponent_time_ms=1)
        v.reset(seed=2)
        a = np.full(4, 2)  # house 3: four seeds, the last one in the store (an extra turn)
        b = np.full(4, 0)  # then house 1
        v.step(a)
        refused, extra = 0, 0
        while True:
            r = limited(lambda: v.step(b), extra)
            if not isinstance(r, MemoryError):
                break
            assert "engine's transposition table (4 MiB)" in str(r), str(r)
            assert "the games are as before the call" in str(r), str(r)
            # As before: the agent's two moves not played again, so still one move each.
            assert all(len(v.game(i).moves) == 1 for i in range(4))
            refused += 1
            extra += 1 << 20
        # Played: the agent's second move, then the engine's reply (one move or more).
        assert all(len(v.game(i).moves) >= 3 for i in range(4))
        assert all(v.agent_side(i) == v.game(i).side_to_move for i in range(4))
        print(refused)
        """
    )
    assert int(out.split()[0]) > 0, out


def test_engine_search_out_of_memory_raises_memory_error() -> None:
    # `Engine.search` takes its table (here 1 GiB) at the first search: under a 64 MiB margin
    # it raises MemoryError (it was an EngineError), and a later search with room succeeds.
    out = run_child(
        """
        e = mancala.Engine(level=3, tt_mb=1024)
        g = mancala.Kalah()
        r = limited(lambda: e.search(g, time_ms=0), 64 * MiB)
        assert isinstance(r, MemoryError), repr(r)
        assert "transposition table does not fit in memory" in str(r), str(r)
        print(e.search(g, time_ms=0).move in g.legal_moves())
        """
    )
    assert out.split() == ["True"], out


def bao_actions_to_many_legal_moves() -> list[int]:
    """The actions of a self-play game of Bao la Kete, from the start, to a position with
    more than 16 legal moves (found in random self-play, seeded: always the same)."""
    import numpy as np

    import mancala

    v = mancala.VectorGames("bao-la-kete", num_envs=4096, seed=5, opponent=None)
    r = v.reset(seed=5)
    history: list[list[int]] = [[] for _ in range(4096)]
    for _ in range(2000):
        done = r[2] | r[3]
        acts = v.sample_actions()
        r = v.step(acts)
        for i in range(4096):
            history[i] = [] if done[i] else history[i] + [int(acts[i])]
        many = np.flatnonzero(r[4].sum(axis=1) > 16)
        if len(many):
            return history[many[0]]
    raise AssertionError("no position with more than 16 legal moves in 2000 steps")


def test_bao_legal_actions_out_of_memory_raise_memory_error() -> None:
    # A position of Bao la Kete with more than 16 legal moves, reached in every game of a
    # self-play batch: the step that reaches it makes each game's list of legal actions
    # outgrow its 16 inline entries. Margins from 0 growing by 256 KiB: the step's arrays
    # (NumPy's MemoryError) fit first, then its records' room, then the lists; a step
    # refused for the lists leaves the games to be reset, and `reset` starts them anew.
    # (The actions are found here, not in the child, whose heap then holds no memory freed
    # by the search that the lists could take.)
    found = bao_actions_to_many_legal_moves()
    out = run_child(
        f"""
        found = {found!r}
        n = 1 << 15
        v = mancala.VectorGames("bao-la-kete", num_envs=n, opponent=None)
        v.reset(seed=0)
        for act in found[:-1]:
            v.step(np.full(n, act))
        """
        + """
        last = np.full(n, found[-1])
        kinds, extra = [], 0
        while True:
            r = limited(lambda: v.step(last), extra)
            if not isinstance(r, MemoryError):
                break
            kind = "lists" if "legal actions of a game" in str(r) else "other"
            kinds.append(kind)
            if kind == "lists":
                assert "must be started anew with reset()" in str(r), str(r)
                break
            extra += 256 << 10
        assert kinds and kinds[-1] == "lists", (kinds, r[4].sum(axis=1).min())
        try:
            v.step(last)
            raise AssertionError("step ran on games left part-way")
        except RuntimeError as e:
            assert "call reset() first" in str(e), str(e)
        r = v.reset(seed=0)
        assert (r[4].sum(axis=1) == 4).all()  # the start: four legal moves
        print(len(kinds))
        """
    )
    assert int(out.split()[0]) > 0, out


def test_copies_of_a_game_out_of_memory_raise_memory_error() -> None:
    # `Game.copy`, `Game.moves` and `VectorGames.game(i)` of games of over 50 plies, with
    # no memory left to take: every allocator block is held by Python objects (Python's
    # own allocator turned off, so that its objects hold the C allocator's blocks), but for
    # a few of 48 and 64 bytes, room for the call's small Python objects and not for the
    # copy of a record or a list of its moves. Each raises MemoryError (the process
    # aborted), then works once the memory is back.
    out = run_child(
        """
        import random

        def starved(call):
            gc.collect()
            hold = [None] * (1 << 21)
            sizes = tuple(1 << k for k in range(20, 2, -1))
            spares = {size: [None] * 8 for size in sizes}
            slots = tuple(range(8))
            n = 0
            resource.setrlimit(resource.RLIMIT_AS, (vsz(), HARD))
            try:
                for size in sizes:
                    spare = spares[size]
                    try:
                        for j in slots:
                            spare[j] = bytes(size)
                        while n < len(hold):
                            hold[n] = bytes(size)
                            n += 1
                    except MemoryError:
                        pass
                spares[8].clear()
                spares[16].clear()
                try:
                    return call()
                except MemoryError as e:
                    return e
            finally:
                resource.setrlimit(resource.RLIMIT_AS, (HARD, HARD))
                del hold, spares

        rng = random.Random(1)
        g = mancala.Togyz("togyz-kumalak")
        while not g.is_over():
            g.play(rng.choice(g.legal_moves()))
        v = mancala.VectorGames("togyz-kumalak", num_envs=1, seed=3, opponent=None)
        v.reset(seed=3)
        for _ in range(100):
            r = v.step(v.sample_actions())
            if r[2][0] or r[3][0]:
                break
        plies = len(v.game(0).moves)
        assert len(g.moves) > 100 and plies > 50, (len(g.moves), plies)
        calls = [("copy", g.copy, g), ("moves", lambda: g.moves, g.moves),
                 ("game", lambda: v.game(0), v.game(0))]
        for name, call, whole in calls:
            r = starved(call)
            assert isinstance(r, MemoryError), (name, r)
            assert "no memory left for " in str(r), str(r)
            assert call() == whole, name
            print(name, r)
        """,
        env={"PYTHONMALLOC": "malloc"},
    )
    assert out.count("no memory left") == 3, out
