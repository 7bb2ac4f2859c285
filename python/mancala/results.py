"""The results of the solver and the engine, as frozen dataclasses.

Values are in seeds and seen from the **player to move** in the position solved, as in the
library: ``value`` is the store difference that player can still gain with perfect play on
both sides (future seeds into their store minus into the opponent's, the final sweep
included), ``score`` their final margin (their store minus the opponent's at the end).
Moves are house numbers ``1..m`` (from the mover's left) or ``"swap"``; Bao la Kete moves
are move notation (``"F6>"``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple, Union

__all__ = [
    "Move",
    "SwapChoice",
    "Solution",
    "MoveValue",
    "Analysis",
    "SearchResult",
    "BuildProgress",
    "GradedMove",
    "SeedGroup",
    "GradeReport",
]

#: A move: a Kalah house number ``1..m`` or ``"swap"``, or a Bao la Kete move in notation.
Move = Union[int, str]


@dataclass(frozen=True)
class SwapChoice:
    """The pie-rule decision where the swap is offered (values for the deciding player).

    ``stay_value`` is ``None`` when the player has no house move (the swap is then the only
    move)."""

    swap_value: int
    stay_value: Optional[int]
    swap_is_better: bool


@dataclass(frozen=True)
class Solution:
    """The result of :func:`mancala.solve` / :meth:`mancala.Solver.solve`.

    ``value`` is exact when ``exact``; after a time or node limit it is ``lower`` and
    ``lower <= true value <= upper``, and ``best_moves``, ``pv`` are empty and ``swap`` is
    ``None``. For a finished game ``value`` is 0 and ``score`` is South's store minus
    North's. ``nodes``: positions searched (all threads); ``seconds``: wall time."""

    value: int
    lower: int
    upper: int
    exact: bool
    score: int
    best_moves: List[Union[int, str]] = field(default_factory=list)
    pv: List[Union[int, str]] = field(default_factory=list)
    swap: Optional[SwapChoice] = None
    nodes: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class MoveValue:
    """One legal move with its value for the player to move (exact when ``exact``, else
    ``lower``, with ``lower <= value <= upper``)."""

    move: Union[int, str]
    value: int
    lower: int
    upper: int
    exact: bool


@dataclass(frozen=True)
class Analysis:
    """The result of :func:`mancala.analyse`: every legal move, in ``legal_moves()`` order,
    with its value; nodes and wall time."""

    moves: List[MoveValue]
    nodes: int
    seconds: float

    @property
    def exact(self) -> bool:
        """Whether every move's value is exact."""
        return all(m.exact for m in self.moves)

    @property
    def best_moves(self) -> List[Union[int, str]]:
        """The moves of the highest value (meaningful when ``exact``)."""
        if not self.moves:
            return []
        best = max(m.value for m in self.moves)
        return [m.move for m in self.moves if m.value == best]


@dataclass(frozen=True)
class SearchResult:
    """The result of :meth:`mancala.Engine.search`.

    ``move`` is the move to play; ``search_move`` the search's own best move (they differ
    only when ``weaker``: levels 1-4 sometimes play a weaker move on purpose). ``score`` is
    the search's score of its best move for the player to move, in engine units: for Kalah
    hundredths of a seed of final store difference (``score_seeds`` in seeds; exact when
    ``exact``); for Bao la Kete heuristic units, or +-(1,000,000 - plies) for a forced win or
    loss (``score_seeds`` is ``None``). ``depth``: plies of the last completed iteration;
    ``pv``: the expected line; ``nodes``; ``seconds``: wall time."""

    move: Union[int, str]
    weaker: bool
    search_move: Union[int, str]
    score: int
    score_seeds: Optional[float]
    depth: int
    pv: List[Union[int, str]]
    nodes: int
    exact: bool
    seconds: float


@dataclass(frozen=True)
class BuildProgress:
    """A snapshot of an endgame-database build, given to ``build_egdb``'s ``progress``
    callback: entries (positions) done, entries in all, seconds so far."""

    done: int
    total: int
    seconds: float

    @property
    def fraction(self) -> float:
        """``done / total``, 0..1."""
        return self.done / self.total if self.total else 1.0


@dataclass(frozen=True)
class GradedMove:
    """One position graded by :func:`mancala.grade`.

    ``position`` in notation, ``seeds`` on the board outside the stores, ``move`` the move
    played (``None`` when the player failed), ``verdict`` how it was scored (``"played"``,
    ``"illegal move …"``, ``"failed: …"``, ``"timed out"``), ``loss`` the seeds given away
    (``best`` minus the value of the move played; the worst legal move's when ``failed``),
    ``values`` every legal move with its exact value, ``seconds`` the answer's wall time."""

    index: int
    position: str
    seeds: int
    move: Optional[Union[int, str]]
    verdict: str
    failed: bool
    loss: int
    best: int
    best_moves: List[Union[int, str]]
    values: List[Tuple[Union[int, str], int]]
    seconds: float


@dataclass(frozen=True)
class SeedGroup:
    """The losses of the positions with ``min_seeds..=max_seeds`` seeds on the board."""

    min_seeds: int
    max_seeds: int
    positions: int
    optimal: float
    mean_loss: float
    worst_loss: int


@dataclass(frozen=True)
class GradeReport:
    """The result of :func:`mancala.grade`: ``optimal`` is the share (0..1) of positions where
    the move played was a best one, ``mean_loss`` / ``worst_loss`` / ``total_loss`` the seeds
    given away, ``moves`` one :class:`GradedMove` per position in order, ``worst`` the
    largest losses, ``by_seeds`` the losses grouped by seeds on the board."""

    player: str
    positions: int
    optimal: float
    mean_loss: float
    worst_loss: int
    total_loss: int
    moves: List[GradedMove]
    worst: List[GradedMove]
    by_seeds: List[SeedGroup]
    #: An external program's reason for refusing the ``rules`` request that told it the
    #: set's rule set (``error …``; it was graded all the same), ``None`` when it accepted it
    #: or for another player.
    rules_refused: Optional[str] = None
    #: For Oware positions valued by another rule set's database (Abapa's by its neighbour
    #: without the majority end, cycles split evenly), the line saying so; ``None`` when the
    #: values are the set's own rule set's.
    caveat: Optional[str] = None
    #: For Oware positions, where their exact values come from, as the ``database`` line of
    #: ``mancala grade`` says it: ``built in memory for this run (levels 0..=12, not kept)``
    #: for the database ``grade`` built, ``the database given (levels 0..=18)`` for
    #: ``database=`` (its file is not known to ``grade``); ``None`` for Kalah positions,
    #: valued by the solver (``mancala grade`` has no such line for them).
    database: Optional[str] = None

    @property
    def failures(self) -> List[GradedMove]:
        """The positions where the player failed (illegal move, error, timeout)."""
        return [m for m in self.moves if m.failed]
