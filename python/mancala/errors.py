"""The exceptions of the ``mancala`` package.

Every error of the library reaches Python as one of these, with the library's own message
(the text the ``mancala`` command prints after ``mancala:``). Each class derives from
:class:`MancalaError`, and the ones about bad input also from :class:`ValueError`, so
``except ValueError`` catches them as it catches any bad argument.
"""

from __future__ import annotations

__all__ = [
    "MancalaError",
    "RulesError",
    "NotationError",
    "IllegalMoveError",
    "SolveError",
    "DatabaseError",
    "DatabaseExistsError",
    "EngineError",
]


class MancalaError(Exception):
    """Base class of every error the library reports."""


class RulesError(MancalaError, ValueError):
    """A rule-set text the parser refused (``"kalah(9,4)"``, an unknown option), or a rule
    set of the other game (``Kalah("bao-la-kete")``)."""


class NotationError(MancalaError, ValueError):
    """A position or move text that cannot be read, or a position that cannot exist under
    the rules (wrong number of slots, seeds in houses after the end, ...)."""


class IllegalMoveError(MancalaError, ValueError):
    """A move the rules do not allow in the current position (the game is unchanged); the
    message gives the reason (an empty house, a house past m, the game is over, for Bao la
    Kete the rule broken with its id)."""


class SolveError(MancalaError):
    """The exact solver could not start: too many seeds to solve exactly, the search
    threads or the transposition table's memory could not be had."""


class DatabaseError(MancalaError):
    """An endgame database could not be built, saved, opened or used: a missing, truncated
    or corrupt file, another format version, a database of other rules, K too large."""


class DatabaseExistsError(DatabaseError, FileExistsError):
    """A save that does not overwrite (``Database.save`` without ``overwrite=True``,
    ``build_egdb(..., path=...)``) found a file at its path that holds another database, or
    no database: nothing was written, and the message names the file and what it holds.
    A :class:`DatabaseError`, so ``except DatabaseError`` catches it as before, and a
    ``FileExistsError`` made as ``FileExistsError(errno.EEXIST, message, path)`` would be:
    ``errno`` is ``errno.EEXIST``, ``strerror`` the message and ``filename`` the path; its
    ``str`` is the one-line message alone."""

    def __str__(self) -> str:
        # OSError's own form would be "[Errno 17] message: 'path'": the message names the
        # file already.
        if self.strerror is not None:
            return str(self.strerror)
        return super().__str__()


class EngineError(MancalaError, ValueError):
    """The playing engine refused the request (a level outside 1..10, wherever a level is
    given: ``Engine``, ``best_move``, the ``opponent`` of ``VectorGames`` and of the
    environments; no memory for its table is a ``MemoryError``), or an external player of
    ``grade`` cannot be graded: it cannot start, ends, or does not answer the ``rules``
    request with ``ok`` or ``error`` within 10 s. A ``ValueError`` too, as a bad level is a
    bad argument, so ``except ValueError`` catches it as before."""
