"""Out of memory in the batched games: `MemoryError`, never an abort or a panic.

Each case runs in a child Python whose address space is limited (RLIMIT_AS) to what it
already uses plus a margin, so that the call under test cannot get its memory. Before each
limited call the child measures its own address space (/proc/self/statm), so the margins
do not depend on the machine. A process that aborts (the allocator's failure in Rust) or a
`PanicException` (not a `MemoryError`) fails the case.
"""

from __future__ import annotations

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


def run_child(body: str) -> str:
    """Runs PRELUDE then `body` in a child Python; its standard output. Fails on an abort
    (a negative status: a signal), a non-zero status, or a panic's text on standard error."""
    done = subprocess.run(
        [sys.executable, "-c", PRELUDE + textwrap.dedent(body)],
        capture_output=True,
        text=True,
        timeout=600,
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
