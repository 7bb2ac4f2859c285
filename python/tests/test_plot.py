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
