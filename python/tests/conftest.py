"""Shared fixtures: the `mancala` command (the Rust library's own front end), against which
the package's results are checked."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import List

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _find_cli() -> Path:
    """The `mancala` binary: $MANCALA_CLI, else the workspace's release or test build, else
    built now with cargo (the command the README gives)."""
    env = os.environ.get("MANCALA_CLI")
    if env:
        return Path(env)
    for profile in ("release", "debug"):
        p = ROOT / "target" / profile / "mancala"
        if p.exists():
            return p
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.fail("the `mancala` command is needed: set MANCALA_CLI or build it with cargo")
    subprocess.run([cargo, "build", "--quiet", "-p", "mancala-cli"], cwd=ROOT, check=True)
    return ROOT / "target" / "debug" / "mancala"


class Cli:
    """Runs the `mancala` command."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def run(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(self.path), *args], capture_output=True, text=True, timeout=300)

    def ok(self, *args: str) -> str:
        r = self.run(*args)
        assert r.returncode == 0, f"mancala {' '.join(args)}: {r.stderr}"
        return r.stdout

    def replay(self, rules: str, moves: List[str], position: str | None = None) -> List[str]:
        """Every position of the game, in notation, as `mancala replay` prints them."""
        args = ["replay", "--rules", rules, "--moves", ",".join(moves)]
        if position is not None:
            args += ["--position", position]
        return self.ok(*args).splitlines()

    def perft(self, rules: str, depth: int) -> int:
        # One JSON line a depth, 1..depth: the last is the count asked for.
        lines = self.ok("perft", "--rules", rules, "--depth", str(depth), "--json").splitlines()
        last = json.loads(lines[-1])
        assert last["depth"] == depth
        return int(last["nodes"])

    def error(self, *args: str) -> str:
        """The one-line message of a command that must fail, without the `mancala: ` prefix."""
        r = self.run(*args)
        assert r.returncode != 0, f"mancala {' '.join(args)} succeeded"
        line = r.stderr.strip().splitlines()[-1]
        line = line.removeprefix("mancala: ").removeprefix("error: ")
        # A usage error ends by naming the help to read: not part of the reason.
        return re.sub(r" \(see `mancala [a-z ]*--help`\)$", "", line)


@pytest.fixture(scope="session")
def cli() -> Cli:
    return Cli(_find_cli())
