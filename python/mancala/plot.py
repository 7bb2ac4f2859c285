"""Figures of grading reports, drawn with matplotlib (an optional extra:
``pip install "mancala-engine[plot]"``; this module imports it when called, so that
``import mancala.plot`` works without it).

:func:`seeds_lost` draws the seeds each graded move gave away against its number, so that
where a player goes wrong (the opening, the middle game, the endgame) is seen at a glance."""

from __future__ import annotations

from typing import Any, Optional

from .results import GradeReport


def seeds_lost(report: GradeReport, ax: Optional[Any] = None, title: Optional[str] = None) -> Any:
    """Draws the seeds lost by each move of ``report`` (a :class:`mancala.GradeReport`, or a
    :class:`mancala.text.TextGradeReport`: the ``loss`` of each of its ``moves``) against
    the move's number, 1 for the first graded (the order of the set; a game's move number
    when the set is whole games), as bars: a move that found a best move loses 0 seeds, a
    failed one (illegal, unreadable, timed out) is drawn in red with the loss it was scored
    and marked with a red ``x`` on its bar, so that a failure scored 0 is seen too; a legend
    says which colour is which. Draws on ``ax`` (a matplotlib ``Axes``) or on a new figure's
    (laid out so that a saved image holds the axis labels whole), titled ``title`` (default:
    the player as the report names it and its share of best moves), and returns the
    ``Axes``. Raises ``ImportError`` with the way to install matplotlib when it is
    missing."""
    try:
        import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]
        from matplotlib.patches import Patch  # type: ignore[import-not-found, unused-ignore]
        from matplotlib.ticker import MaxNLocator  # type: ignore[import-not-found, unused-ignore]
    except ImportError as e:
        raise ImportError(
            'mancala.plot needs matplotlib: pip install matplotlib (or "mancala-engine[plot]")'
        ) from e
    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3), layout="constrained")
    numbers = [i + 1 for i in range(len(report.moves))]
    losses = [m.loss for m in report.moves]
    colours = [FAILED if m.failed else PLAYED for m in report.moves]
    ax.bar(numbers, losses, color=colours, width=0.8)
    failed = [(n, m.loss) for n, m in zip(numbers, report.moves) if m.failed]
    if failed:
        ax.plot([n for n, _ in failed], [loss for _, loss in failed], linestyle="none",
                marker="x", color=FAILED, markersize=8, clip_on=False)
    handles = [Patch(color=PLAYED, label="move played")]
    if failed:
        handles.append(Patch(color=FAILED, label="failed (x): illegal, unreadable or timed out"))
    ax.legend(handles=handles, loc="best", fontsize="small")
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("move number")
    ax.set_ylabel("seeds lost")
    ax.set_xlim(0.5, max(len(numbers), 1) + 0.5)
    ax.set_ylim(bottom=0)
    if title is None:
        title = f"{report.player}: {report.optimal:.0%} best moves, {report.total_loss} seeds lost"
    ax.set_title(title)
    return ax


#: The colours of :func:`seeds_lost`'s bars: a move played, a failed move.
PLAYED = "tab:blue"
FAILED = "tab:red"
