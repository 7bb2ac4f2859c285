"""mancala: fast exact rules, an exact solver and a playing engine for Kalah(m,n),
Bao la Kete and Oware (Abapa, Awari), from the Rust library of the same name.

>>> import mancala
>>> game = mancala.Kalah("kalah(6,4)")
>>> game.play(3)                     # the last seed lands in the store: an extra turn
>>> game.notation()
'4,4,0,5,5,5,1,4,4,4,4,4,4,0 S'
>>> mancala.solve("kalah(6,1)").value
2

The API is documented in ``docs/python.md`` of the repository; the environments for
reinforcement learning are in :mod:`mancala.envs` (Gymnasium and PettingZoo, optional).
"""

from __future__ import annotations

import os
from typing import Optional, Union

try:
    from . import _mancala
except ImportError:
    _here = os.path.dirname(os.path.abspath(__file__))
    if not any(name.startswith("_mancala.") and not name.endswith(".pyi") for name in os.listdir(_here)):
        # Python found the package's source folder (`python/mancala` of the repository, when
        # run from `python/`), which has no compiled extension, instead of the installed one;
        # without this, Python's text would speak of a circular import.
        raise ImportError(
            f"mancala's compiled extension (mancala._mancala) is not in {_here}: this is the "
            "package's source folder, which shadows an installed mancala when Python runs "
            "from the folder that holds it (python/ of the repository). Build the extension "
            "there with `maturin develop`, or run Python from another folder to use the "
            "installed package."
        ) from None
    raise

from . import errors, results
from ._mancala import (
    GAME_KINDS,
    AwariDb,
    Bao,
    Database,
    Egdb,
    Engine,
    Game,
    Kalah,
    Oware,
    Side,
    Solver,
    VectorGames,
    Togyz,
    __version__,
    build_egdb,
    game_class,
    generate_positions,
    grade,
    names_bao,
    random_playouts,
)
from .errors import (
    DatabaseError,
    DatabaseExistsError,
    EngineError,
    IllegalMoveError,
    MancalaError,
    NotationError,
    RulesError,
    SolveError,
)
from .state import from_dict, from_json
from .results import (
    Analysis,
    BuildProgress,
    Move,
    MoveValue,
    SearchResult,
    Solution,
    SwapChoice,
    GradedMove,
    GradeReport,
    SeedGroup,
)

__all__ = [
    "Game",
    "Kalah",
    "Bao",
    "Oware",
    "Togyz",
    "Side",
    "new_game",
    "Solver",
    "solve",
    "analyse",
    "Database",
    "Egdb",
    "AwariDb",
    "build_egdb",
    "Engine",
    "best_move",
    "random_playouts",
    "from_dict",
    "from_json",
    "VectorGames",
    "grade",
    "generate_positions",
    "GradeReport",
    "GradedMove",
    "SeedGroup",
    "names_bao",
    "game_class",
    "GAME_KINDS",
    "Move",
    "Solution",
    "SwapChoice",
    "Analysis",
    "MoveValue",
    "SearchResult",
    "BuildProgress",
    "MancalaError",
    "RulesError",
    "NotationError",
    "IllegalMoveError",
    "SolveError",
    "DatabaseError",
    "DatabaseExistsError",
    "EngineError",
    "errors",
    "results",
    "__version__",
]

def __dir__() -> list[str]:
    """The public names only (PEP 562): ``dir(mancala)`` lists ``__all__``, not the
    modules and typing helpers this file imports for its own use."""
    return sorted(__all__)


#: What may name an endgame database: an :class:`Egdb` already loaded, or the path of a
#: database file or of a folder of them.
EgdbSource = Union[Egdb, str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def new_game(rules: str = "standard", position: Optional[str] = None) -> Game:
    """A new game of the rules ``rules``, of the class of the game the rule set names
    (:func:`game_class`: a :class:`Bao` for ``bao-la-kete…``, an :class:`Oware` for
    ``oware…`` and ``awari…``, else a :class:`Kalah`); from
    ``position`` (notation) when given. Raises :class:`RulesError`, :class:`NotationError`."""
    cls: type = getattr(_mancala, game_class(rules))
    game: Game = cls(rules, position)
    return game


def _kalah(rules: Union[str, Kalah], position: Optional[str]) -> Kalah:
    """The Kalah game ``solve`` and ``analyse`` work on."""
    if isinstance(rules, Kalah):
        if position is not None:
            raise TypeError("give either a Kalah game or a rule set and a position, not both")
        return rules
    if isinstance(rules, Game) or (isinstance(rules, str) and game_class(rules) != "Kalah"):
        game = rules if isinstance(rules, Game) else new_game(rules)
        hint = (
            "; the exact values of Oware positions come from a mancala.Database of Oware"
            if isinstance(game, Oware)
            else ""
        )
        raise SolveError(f"the exact solver solves Kalah positions, not {game.kind} ones{hint}")
    if not isinstance(rules, str):
        raise TypeError(f"rules must be a rule-set text or a mancala.Kalah game, not {type(rules).__name__}")
    return Kalah(rules, position)


def _egdb(egdb: Optional[EgdbSource], rules: str) -> Optional[Egdb]:
    """The database ``egdb`` names for ``rules``: itself, or the largest one serving the
    rules in a folder (``Egdb.find``), or the file at a path."""
    if egdb is None or isinstance(egdb, Egdb):
        return egdb
    if isinstance(egdb, (str, bytes, os.PathLike)):
        return Egdb.find(os.fsdecode(egdb), rules)
    raise TypeError(f"egdb must be a mancala.Egdb or a path (str, bytes or os.PathLike), not {type(egdb).__name__}")


def solve(
    rules: Union[str, Kalah] = "standard",
    position: Optional[str] = None,
    egdb: Optional[EgdbSource] = None,
    threads: Optional[int] = None,
    max_seconds: Optional[float] = None,
    max_nodes: Optional[int] = None,
    tt_mb: Optional[int] = None,
) -> Solution:
    """Solves a Kalah position exactly.

    ``rules`` is a rule-set text (the start position, or ``position`` in notation) or a
    :class:`Kalah` game (its current position). ``egdb``: an :class:`Egdb`, or the path of a
    database file or of a folder holding some (the largest serving the rules is used, as
    ``mancala solve --egdb`` does); none by default. ``threads``: search threads (``None``:
    every core). ``max_seconds`` / ``max_nodes``: limits after which the bounds proven so far
    come back (``exact=False``). ``tt_mb``: transposition table, MiB (``None``: sized to
    the position, at most 64 MiB).

    Returns a :class:`Solution` (values in seeds for the player to move). The GIL is
    released while the search runs; Ctrl-C raises ``KeyboardInterrupt`` within a fraction
    of a second. Raises :class:`RulesError`, :class:`NotationError`, :class:`SolveError`,
    :class:`DatabaseError`, ``ValueError`` for bad limits.

    Kalah(6,4) from the start takes minutes without a database; with one of K = 20 about
    ten seconds (``docs/python.md``)."""
    game = _kalah(rules, position)
    db = _egdb(egdb, game.rules)
    return Solver(threads=threads, tt_mb=tt_mb, egdb=db, max_seconds=max_seconds, max_nodes=max_nodes).solve(game)


def analyse(
    rules: Union[str, Kalah] = "standard",
    position: Optional[str] = None,
    egdb: Optional[EgdbSource] = None,
    threads: Optional[int] = None,
    max_seconds: Optional[float] = None,
    max_nodes: Optional[int] = None,
    tt_mb: Optional[int] = None,
) -> Analysis:
    """The exact value of every legal move of a Kalah position: an :class:`Analysis`.
    Arguments, limits and errors as :func:`solve`."""
    game = _kalah(rules, position)
    db = _egdb(egdb, game.rules)
    return Solver(threads=threads, tt_mb=tt_mb, egdb=db, max_seconds=max_seconds, max_nodes=max_nodes).analyse(game)


def best_move(
    game: Game,
    time_ms: int = 1000,
    level: int = 10,
    egdb: Optional[EgdbSource] = None,
    seed: int = 0,
    max_nodes: Optional[int] = None,
) -> Move:
    """The playing engine's move in the current position of ``game`` (a :class:`Kalah`, a
    :class:`Bao` or an :class:`Oware`), searched within ``time_ms`` milliseconds at strength ``level`` 1..10
    (see :class:`Engine`; ``seed`` draws the weaker moves of levels 1-4). A ``time_ms`` or
    ``max_nodes`` of 0 is no limit of that kind (:meth:`Engine.search`): level 10 needs one
    above 0; ``time_ms`` is at most 86400000 (one day). ``egdb`` (Kalah only): a database for exact endgames, as in :func:`solve`.

    Each call makes a new engine; to play a whole game keep an :class:`Engine`, whose
    table carries over from move to move. Raises :class:`IllegalMoveError` when the game is
    over, :class:`EngineError` for a bad level, :class:`DatabaseError`, ``ValueError`` for
    a ``time_ms`` outside 0..=86400000 and for level 10 without a budget (``time_ms=0`` and
    no ``max_nodes`` above 0)."""
    db = _egdb(egdb, game.rules) if isinstance(game, Kalah) else None
    return Engine(level=level, seed=seed, egdb=db).best_move(game, time_ms=time_ms, max_nodes=max_nodes)


def _register_frameworks() -> None:
    """Registers the Gymnasium ids (:mod:`mancala.envs`) and the OpenSpiel games
    (:mod:`mancala.openspiel`) with the frameworks that are installed, so that
    ``gymnasium.make("mancala/Kalah-v0")`` and ``pyspiel.load_game("mancala_kalah")`` work
    after ``import mancala``. A framework that is missing is left out without a word."""
    from importlib.util import find_spec

    if find_spec("gymnasium") is not None:
        from . import envs  # noqa: F401  (registers the ids)
    if find_spec("pyspiel") is not None:
        from . import openspiel  # noqa: F401  (registers the games)


_register_frameworks()
