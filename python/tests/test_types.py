"""The type information: the stubs of the extension module match it at run time
(mypy's stubtest), and the package type-checks under ``mypy --strict`` (the installed
package, as a user's type checker sees it through ``py.typed``)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("mypy")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, timeout=600)


def test_stubs_match_the_extension_module():
    r = run("mypy.stubtest", "mancala._mancala")
    assert r.returncode == 0, r.stdout + r.stderr


def test_the_package_type_checks_strictly():
    r = run("mypy", "--strict", "--no-incremental", "-p", "mancala")
    assert r.returncode == 0, r.stdout + r.stderr


def test_dir_lists_the_public_names_only():
    # What a user sees with dir(mancala) or tab completion: the names of __all__ (each of
    # them importable), none of the modules and typing helpers the package imports for its
    # own use.
    import mancala

    public = [name for name in dir(mancala) if not name.startswith("_")]
    assert sorted(public) == sorted(n for n in mancala.__all__ if not n.startswith("_"))
    assert "__version__" in dir(mancala)
    for name in ("os", "Optional", "Union", "annotations"):
        assert name not in dir(mancala)
    for name in mancala.__all__:
        assert hasattr(mancala, name), name
