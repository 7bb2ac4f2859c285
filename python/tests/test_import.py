"""Importing the package from its source folder (``python/`` of the repository), where
the compiled extension is not, says so and what to do, not Python's "circular import"."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import mancala


def test_the_source_folder_without_the_extension_says_what_happened(tmp_path: Path):
    # A copy of the package's Python files alone, as the source folder holds them, found
    # first because Python runs from the folder that holds it.
    source = Path(mancala.__file__).parent
    copy = tmp_path / "mancala"
    shutil.copytree(source, copy, ignore=shutil.ignore_patterns("_mancala.*[!i]", "__pycache__"))
    assert not [p for p in copy.iterdir() if p.name.startswith("_mancala.") and p.suffix != ".pyi"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    r = subprocess.run(
        [sys.executable, "-c", "import mancala"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert r.returncode != 0
    assert "maturin develop" in r.stderr and "source folder" in r.stderr, r.stderr
    assert "circular import" not in r.stderr, r.stderr
