"""`mancala.plot.seeds_lost`: the bars of a grading report are the losses of its moves, by
move number, a failed move coloured apart (run where matplotlib is installed)."""

from __future__ import annotations

import pytest

import mancala

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")  # no display

from mancala.plot import seeds_lost  # noqa: E402

# Kalah(3,3) positions whose move values are traced by hand (tests/test_grade.py): the first
# legal move loses 4, 0 and 4 seeds.
POSITIONS = ["0,1,1,7,1,0,0,8 S", "1,0,1,7,0,1,0,8 S", "1,0,0,8,0,1,1,7 N"]


def test_bars_are_the_losses_by_move_number():
    calls = []

    def player(game):
        calls.append(1)
        return 7 if len(calls) == 2 else game.legal_moves()[0]  # the second answer is illegal

    report = mancala.grade(player, [mancala.Kalah("kalah(3,3)", p) for p in POSITIONS])
    ax = seeds_lost(report)
    bars = ax.patches
    assert [b.get_x() + b.get_width() / 2 for b in bars] == [1, 2, 3]
    assert [b.get_height() for b in bars] == [4, 0, 4]  # the illegal answer scored as the worst move: 0 here
    colours = [b.get_facecolor() for b in bars]
    assert colours[0] == colours[2] != colours[1]
    assert ax.get_xlabel() == "move number" and ax.get_ylabel() == "seeds lost"
    assert "player" in ax.get_title()
    matplotlib.pyplot.close("all")


def test_a_saved_figure_holds_its_labels_marks_failures_and_names_the_player(tmp_path):
    """The default figure keeps the axis labels inside the saved image; a failed move
    scored 0 (no bar to see) is marked; the legend names both colours; a text player's
    report is titled with the player's name, as the report names it."""
    from mancala import text

    replies = iter(["Move: 3", "I pass", "Move: 2"])  # the second reply names no move
    report = text.grade(lambda p: next(replies), [mancala.Kalah("kalah(3,3)", p) for p in POSITIONS])
    assert [m.failed for m in report.moves] == [False, True, False]
    assert report.moves[1].loss == 0  # every legal move of the second position is a best one
    ax = seeds_lost(report)
    fig = ax.figure
    fig.savefig(tmp_path / "losses.png")
    renderer = fig.canvas.get_renderer()
    frame = fig.bbox
    for label in (ax.xaxis.label, ax.yaxis.label, ax.title):
        box = label.get_window_extent(renderer)
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1 and frame.y0 <= box.y0 and box.y1 <= frame.y1, label
    marks = [tuple(zip(*line.get_data())) for line in ax.lines]
    assert marks == [((2, 0),)]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend[0] == "move played" and legend[1].startswith("failed")
    assert ax.get_title().startswith("text player <lambda>:")
    assert report.player == "text player <lambda>"
    matplotlib.pyplot.close("all")
