"""Observations and actions of the mancala environments, shared by the Gymnasium and the
PettingZoo ones. Every observation is seen from one player: its own side first.

Kalah(m, n), with ``m`` houses a row (``2m + 2`` slots):

* observation: ``int64`` array of shape ``(2m + 2,)`` (``(2m + 3,)`` under ``pie_rule``):
  the player's houses 1..m (from its own left), its store, the opponent's houses 1..m (from
  the opponent's left), the opponent's store; under ``pie_rule`` a last entry, 1 while the
  swap is offered to the player to move, else 0. Values ``0..2mn``.
* action: ``Discrete(m)`` (``Discrete(m + 1)`` under ``pie_rule``): action ``a < m`` sows
  house ``a + 1``; action ``m`` is the swap.

Bao la Kete:

* observation: ``int64`` array of shape ``(39,)``: the player's front row F1..F8 and back
  row B1..B8, the opponent's front and back rows (each row from its owner's left), the
  player's and the opponent's reserves, whether the player's and the opponent's kuu stands
  (1/0), the player's and the opponent's front pit reserved by hizi zetu (1..8, 0 for none),
  and the blocked turns still to come (``Bao.block_turns_left``). Values ``0..64``.
* action: ``Discrete(432)``: the index of the move in :func:`mancala._mancala.bao_moves`
  (every possible move text); the action mask says which are legal.

The action mask is an ``int8`` array over the actions, 1 for each legal move.
"""

from __future__ import annotations

from typing import Dict, List, Union

import numpy as np

from .. import Bao, Kalah, Side, new_game
from .._mancala import bao_moves

Game = Union[Kalah, Bao]

#: The observation length of a Bao la Kete game.
BAO_OBSERVATION = 39


class Codec:
    """The observation and action encoding of one rule set (module docs)."""

    def __init__(self, rules: str) -> None:
        game = new_game(rules)
        self.rules = game.rules
        self.is_bao = isinstance(game, Bao)
        if self.is_bao:
            self.moves: List[Union[int, str]] = list(bao_moves())
            self.observation_size = BAO_OBSERVATION
            self.high = 64
            self.pie = False
            self.houses = 0
        else:
            assert isinstance(game, Kalah)
            m = game.houses
            self.houses = m
            self.pie = "pie_rule" in game.options
            self.moves = list(range(1, m + 1)) + (["swap"] if self.pie else [])
            self.observation_size = 2 * m + 2 + (1 if self.pie else 0)
            self.high = 2 * m * game.seeds
        self.index: Dict[Union[int, str], int] = {mv: i for i, mv in enumerate(self.moves)}
        self.actions = len(self.moves)

    def new_game(self) -> Game:
        """A game of these rules from the start."""
        return new_game(self.rules)

    def observe(self, game: Game, side: Side) -> np.ndarray:
        """The observation of ``game`` for the player on ``side``."""
        if isinstance(game, Kalah):
            b = game.board
            half = self.houses + 1
            if side == Side.NORTH:
                b = np.concatenate((b[half:], b[:half]))
            if self.pie:
                b = np.append(b, 1 if game.swap_offered else 0)
            return b.astype(np.int64, copy=False)
        s = int(side)
        board = game.board
        reserves = game.reserves
        kuu = game.kuu_stands
        reserved = game.reserved
        own_reserved = reserved[1] if reserved is not None and int(reserved[0]) == s else 0
        opp_reserved = reserved[1] if reserved is not None and int(reserved[0]) != s else 0
        tail = [
            reserves[s],
            reserves[1 - s],
            int(kuu[s]),
            int(kuu[1 - s]),
            own_reserved,
            opp_reserved,
            game.block_turns_left,
        ]
        return np.concatenate((board[s].ravel(), board[1 - s].ravel(), np.array(tail, dtype=np.int64)))

    def mask(self, game: Game) -> np.ndarray:
        """The action mask of the player to move (all zeros once the game is over)."""
        mask = np.zeros(self.actions, dtype=np.int8)
        for mv in game.legal_moves():
            mask[self.index[mv]] = 1
        return mask

    def move(self, action: int) -> Union[int, str]:
        """The move of ``action`` (an index ``0 <= action < self.actions``)."""
        return self.moves[int(action)]

    def play(self, game: Game, move: Union[int, str]) -> None:
        """Plays ``move`` (one of ``self.moves``) on ``game``."""
        if isinstance(game, Bao):
            game.play(str(move))
        else:
            game.play(move)


def player_side(game: Game, first: bool, first_side: Side) -> Side:
    """The side the first player (``first``) or the second one plays now in ``game``: the
    first player starts on ``first_side`` (the side to move at the start: South in Kalah, as
    the rules say in Bao la Kete), and the players change sides at a pie-rule swap."""
    swapped = isinstance(game, Kalah) and game.swapped
    return first_side if first != swapped else first_side.opponent()
