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


def test_a_user_script_type_checks_with_every_encoding_the_run_time_accepts(tmp_path):
    # Each call is one the run time accepts: Database.build takes "compact" for Oware (and
    # refuses it for Kalah with a DatabaseError, a value no stub can tell), build_egdb (Kalah
    # only) "byte" and "packed", convert all three.
    script = tmp_path / "user.py"
    script.write_text(
        "import mancala\n"
        "from typing import Literal\n"
        "db = mancala.Database.build('awari', 4, encoding='compact')\n"
        "db = mancala.Database.build('standard', 4, encoding='packed')\n"
        "db = mancala.Database.build('awari', 4, threads=1, encoding='byte')\n"
        "e = mancala.build_egdb('standard', 4, encoding='packed')\n"
        "c = db.convert('compact')\n"
        "name: Literal['byte', 'packed', 'compact'] = c.encoding\n"
    )
    r = run("mypy", "--strict", "--no-incremental", str(script))
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
