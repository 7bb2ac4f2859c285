"""Grades a scripted text player on a Kalah and an Awari set, as a language model would be
graded: the player sees only the prompt of `mancala.text` and answers in words.

Run: `python python/examples/text_player.py` (with the package installed).
"""

import re

import mancala
from mancala import text


def scripted(prompt: str) -> str:
    """Stands in for a language model: sows the last legal move the prompt lists, saying so
    in a sentence (and, once in a while, not naming any move at all)."""
    moves = re.search(r"Your legal moves: (.*)\.", prompt).group(1).split(", ")
    if "could not be played" not in prompt and len(moves) % 4 == 0:
        return "Let me think about the board a little longer."
    return f"Counting the seeds, I will sow house {moves[-1]}."


def main() -> None:
    kalah = mancala.generate_positions("kalah(4,3)", 12, seed=11, min_seeds=4, max_seeds=14)
    report = text.grade(scripted, kalah, retries=1)
    print(f"Kalah(4,3): {report.positions} positions, optimal {report.optimal:.2f}, "
          f"{report.total_loss} seeds lost, {report.unreadable} unreadable and "
          f"{report.illegal} illegal replies, {report.failed} failed")
    db = mancala.Database.build("awari", 8)
    awari = mancala.generate_positions("awari", 12, seed=11, min_seeds=4, max_seeds=8)
    report = text.grade(scripted, awari, retries=1, database=db)
    print(f"Awari: {report.positions} positions, optimal {report.optimal:.2f}, "
          f"{report.total_loss} seeds lost, {report.unreadable} unreadable and "
          f"{report.illegal} illegal replies, {report.failed} failed")


if __name__ == "__main__":
    main()
