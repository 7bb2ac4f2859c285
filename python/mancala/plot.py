"""Figures of grading reports, drawn with matplotlib (an optional extra:
``pip install "mancala-engine[plot]"``; this module imports it when called, so that
``import mancala.plot`` works without it).

:func:`seeds_lost` draws the seeds each graded move gave away against its number, so that
where a player goes wrong (the opening, the middle game, the endgame) is seen at a glance."""

from __future__ import annotations

from typing import Any, Optional

from .results import GradeReport


def seeds_lost(report: GradeReport, ax: Optional[Any] = None, title: Optional[str] = None) -> Any:
    """Draws the seeds lost by each move of ``report`` (a :class:`mancala.GradeReport`: the
    ``loss`` of each of its ``moves``) against the move's number, 1 for the first graded
    (the order of the set; a game's move number when the set is whole games), as bars: a
    move that found a best move loses 0 seeds, a failed one (illegal, unreadable, timed out)
    is drawn in another colour with the loss it was scored. Draws on ``ax`` (a matplotlib
    ``Axes``) or on a new figure's, titled ``title`` (default: the player and its share of
    best moves), and returns the ``Axes``. Raises ``ImportError`` with the way to install
    matplotlib when it is missing."""
    try:
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
        from matplotlib.ticker import MaxNLocator  # type: ignore[import-not-found, unused-ignore]
    except ImportError as e:
        raise ImportError(
            'mancala.plot needs matplotlib: pip install matplotlib (or "mancala-engine[plot]")'
        ) from e
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3))
    numbers = [i + 1 for i in range(len(report.moves))]
    losses = [m.loss for m in report.moves]
    colours = ["tab:red" if m.failed else "tab:blue" for m in report.moves]
    ax.bar(numbers, losses, color=colours, width=0.8)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("move number")
    ax.set_ylabel("seeds lost")
    ax.set_xlim(0.5, max(len(numbers), 1) + 0.5)
    ax.set_ylim(bottom=0)
    if title is None:
        title = f"{report.player}: {report.optimal:.0%} best moves, {report.total_loss} seeds lost"
    ax.set_title(title)
    return ax
