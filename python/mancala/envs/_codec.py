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

Oware and Awari, with ``h`` houses a row:

* observation: ``int64`` array of shape ``(2h + 2,)``: the player's houses 1..h (from its
  own left) and captured count, then the opponent's houses and captured count. Values
  ``0..2hs`` for ``s`` seeds a house at the start.
* action: ``Discrete(h)``: action ``a`` sows house ``a + 1``.

Togyz Kumalak, with ``h`` houses a row:

* observation: ``int64`` array of shape ``(2h + 4,)``: the player's houses 1..h (from its own
  left) and kazan, the opponent's houses and kazan, then the player's tuzdyk and the
  opponent's (the number of the house of the other row each owns, 0 for none). Values
  ``0..2hs``.
* action: ``Discrete(h)``: action ``a`` sows house ``a + 1``.

The action mask is an ``int8`` array over the actions, 1 for each legal move.
"""

from __future__ import annotations

import math
import numbers
import operator
from typing import Any, Dict, List, Optional, Union

import numpy as np

from .. import Bao, Game, Kalah, Oware, Side, Togyz, new_game
from .. import _mancala
from .._mancala import bao_moves
from ..state import _shown

#: The observation length of a Bao la Kete game.
BAO_OBSERVATION = 39


def action_index(action: Any) -> int:
    """``action`` as an ``int``: an integer of any type (``int``, ``numpy.int64``: what
    ``operator.index`` reads). A float, a bool, a string or ``None`` is no action: ``TypeError``
    (``int(action)`` would turn ``5.9`` into 5 and ``"3"`` into 3 without a word)."""
    if isinstance(action, (bool, np.bool_)):
        raise TypeError(f"an action is an integer, not a bool ({action!r})")
    try:
        return operator.index(action)
    except TypeError:
        raise TypeError(f"an action is an integer, not {type(action).__name__} ({action!r})") from None


def opponent_level(opponent: Any) -> Optional[int]:
    """``opponent`` as an ``int`` when it is an integer of any type (``int``, ``numpy.int64``:
    what ``operator.index`` reads), else ``None`` (a bool is no level). Its range is left to
    ``Engine(level=...)`` and ``VectorGames``, whose check raises :class:`mancala.EngineError`
    ("level 11 is out of range: levels are 1..=10") for a level outside 1..10, however long."""
    if isinstance(opponent, (bool, np.bool_)):
        return None
    try:
        return operator.index(opponent)
    except TypeError:
        return None


def checked_max_moves(max_moves: Optional[int]) -> Optional[int]:
    """``max_moves`` if it is ``None`` or a whole number of at least 1, else ``ValueError``
    (``TypeError`` for a non-integer, a bool included: a bool is no integer here, as for
    ``VectorGames``)."""
    if max_moves is None:
        return None
    if isinstance(max_moves, bool):
        raise TypeError(f"max_moves must be None or an integer, not a bool ({max_moves!r})")
    try:
        n = operator.index(max_moves)
    except TypeError:
        raise TypeError(f"max_moves must be None or an integer, not {max_moves!r}") from None
    if n < 1:
        raise ValueError(f"max_moves must be None or at least 1, not {max_moves!r}")
    return n


#: The longest time a move of an environment's engine opponent, in milliseconds: one day,
#: the ``mancala`` command's limit on ``--time-ms`` (and ``VectorGames``'s).
MAX_TIME_MS = 86_400_000


def checked_time_ms(time_ms: Any, name: str = "opponent_time_ms") -> int:
    """``time_ms`` if it is a whole number of milliseconds in 0..=:data:`MAX_TIME_MS` (one
    day, as the ``mancala`` command and ``VectorGames`` take; 0 is no time limit), else
    ``ValueError`` naming ``name`` and the range (``TypeError`` for a non-integer, a bool or
    a float included), so that a bad budget is refused when the environment is made rather
    than at the engine's first move, under the engine's own argument name."""
    if isinstance(time_ms, (bool, np.bool_)):
        raise TypeError(f"{name} must be an integer of milliseconds, not a bool ({time_ms!r})")
    try:
        n = operator.index(time_ms)
    except TypeError:
        raise TypeError(f"{name} must be an integer of milliseconds, not {time_ms!r}") from None
    if not 0 <= n <= MAX_TIME_MS:
        raise ValueError(f"{name} must be in 0..={MAX_TIME_MS} (one day; 0: no time limit), got {_shown(n)}")
    return n


def checked_illegal_reward(illegal_reward: Any) -> float:
    """``illegal_reward`` as a ``float`` if it is a finite real number (an ``int``, a
    ``float``, a NumPy number: a ``numbers.Real``; not a bool, not a ``str``), else ``TypeError`` or
    ``ValueError`` naming it, whatever the opponent: the check and the messages of
    :class:`mancala.VectorGames`, which :class:`MancalaEnv` needs of its own for the engine
    and function opponents it plays without one (``MancalaVectorEnv`` leaves the check to
    ``VectorGames``). NaN, ±inf and an integer too large for a float are a ``ValueError``; a
    ``numbers.Real`` whose ``float()`` raises (other than ``OverflowError``) a ``TypeError``
    naming what it raised. The value is shown as ``_shown`` shows it (``10**5000`` as "an
    integer of at least 5000 digits"), as ``VectorGames`` shows it."""
    if isinstance(illegal_reward, (bool, np.bool_)) or not isinstance(illegal_reward, numbers.Real):
        raise TypeError(f"illegal_reward must be a number, not {_shown(illegal_reward)}")
    try:
        value = float(illegal_reward)
    except OverflowError:
        value = math.inf
    except Exception as e:
        raise TypeError(
            f"illegal_reward must be a number float() takes, not {_shown(illegal_reward)}"
            f" (float() raised {type(e).__name__})"
        ) from None
    if not math.isfinite(value):
        raise ValueError(f"illegal_reward must be finite, not {_shown(illegal_reward)}")
    return value


def checked_agent_first(agent_first: Any) -> Optional[bool]:
    """``agent_first`` if it is ``True``, ``False`` or ``None`` (a NumPy bool as a ``bool``),
    else ``TypeError`` naming it (``"yes"`` would be taken as true)."""
    if agent_first is None:
        return None
    if not isinstance(agent_first, (bool, np.bool_)):
        raise TypeError(f"agent_first must be True, False or None, not {agent_first!r}")
    return bool(agent_first)


def checked_game(rules: str, game: Optional[str]) -> None:
    """Refuses (``ValueError``) a rule set ``rules`` of another game than ``game`` (a class
    name, ``"Kalah"``, …, as the registered id ``"mancala/<class>-v0"`` gives it; ``None``:
    any game), naming the id to use."""
    if game is None:
        return
    cls = _mancala.game_class(rules)
    if cls != game:
        def a(name: str) -> str:
            return ("an " if name[0] in "AEIOU" else "a ") + name

        raise ValueError(
            f"rules {rules!r} are {a(cls)} rule set, not {a(game)} one: "
            f'use the id "mancala/{cls}-v0" (gymnasium.make or gymnasium.make_vec)'
        )


#: The games that have a store margin (``reward="margin"``).
MARGIN_GAMES = "Kalah, Oware, Togyz Kumalak"

#: The kinds of reward the environments give.
REWARDS = ("win", "margin")


def checked_reward(reward: str, game: Game) -> str:
    """``reward`` if it is ``"win"``, or ``"margin"`` for a game with stores (:func:`margin`
    is not ``None``); else ``ValueError`` naming the games that have a margin."""
    if reward not in REWARDS:
        raise ValueError(f'reward must be "win" or "margin", not {reward!r}')
    if reward == "margin" and margin(game, Side.SOUTH) is None:
        raise ValueError(
            f'reward="margin" needs a game with stores ({MARGIN_GAMES}); {game.rules} has no margin: use reward="win"'
        )
    return reward


def margin(game: Game, side: Side) -> Optional[float]:
    """``side``'s store minus the opponent's in seeds (Kalah; Oware: captured seeds; Togyz
    Kumalak: kazans), the final one (the game's ``score()`` seen from ``side``) once the game
    is over, the one so far before; ``None`` for a game without stores (Bao la Kete)."""
    if not isinstance(game, (Kalah, Oware, Togyz)):
        return None
    return float(game.store(side)) - float(game.store(side.opponent()))


class Codec:
    """The observation and action encoding of one rule set (module docs): what every game
    shares; :func:`codec` picks the class of the rule set's game."""

    #: Every move of the game in a fixed order: the action space.
    moves: List[Union[int, str]]
    #: The observation's length and the largest count in it.
    observation_size: int
    high: int

    def __init__(self, game: Game) -> None:
        self.rules = game.rules
        self.index: Dict[Union[int, str], int] = {mv: i for i, mv in enumerate(self.moves)}
        self.actions = len(self.moves)

    def new_game(self) -> Game:
        """A game of these rules from the start."""
        return new_game(self.rules)

    def observe(self, game: Game, side: Side) -> np.ndarray:
        """The observation of ``game`` for the player on ``side``."""
        raise NotImplementedError

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
        game.play(move)


class KalahCodec(Codec):
    """Kalah: the houses and stores seen from the player, and the pie-rule offer."""

    def __init__(self, game: Game) -> None:
        assert isinstance(game, Kalah)
        m = game.houses
        self.houses = m
        self.pie = "pie_rule" in game.options
        self.moves = list(range(1, m + 1)) + (["swap"] if self.pie else [])
        self.observation_size = 2 * m + 2 + (1 if self.pie else 0)
        self.high = 2 * m * game.seeds
        super().__init__(game)

    def observe(self, game: Game, side: Side) -> np.ndarray:
        assert isinstance(game, Kalah)
        b = game.board
        half = self.houses + 1
        if side == Side.NORTH:
            b = np.concatenate((b[half:], b[:half]))
        if self.pie:
            b = np.append(b, 1 if game.swap_offered else 0)
        return b.astype(np.int64, copy=False)


class BaoCodec(Codec):
    """Bao la Kete: both players' pits, reserves, kuus and reserved pit, seen from the player."""

    def __init__(self, game: Game) -> None:
        self.moves = list(bao_moves())
        self.observation_size = BAO_OBSERVATION
        self.high = 64
        super().__init__(game)

    def observe(self, game: Game, side: Side) -> np.ndarray:
        assert isinstance(game, Bao)
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

    def play(self, game: Game, move: Union[int, str]) -> None:
        game.play(str(move))


class OwareCodec(Codec):
    """Oware: the houses and both captured counts seen from the player."""

    def __init__(self, game: Game) -> None:
        assert isinstance(game, Oware)
        h = game.houses
        self.houses = h
        self.moves = list(range(1, h + 1))
        self.observation_size = 2 * h + 2
        self.high = 2 * h * game.seeds
        super().__init__(game)

    def observe(self, game: Game, side: Side) -> np.ndarray:
        assert isinstance(game, Oware)
        b = game.board
        half = self.houses + 1
        if side == Side.NORTH:
            b = np.concatenate((b[half:], b[:half]))
        return b.astype(np.int64, copy=False)


class TogyzCodec(Codec):
    """Togyz Kumalak: the houses, both kazans and both tuzdyks seen from the player."""

    def __init__(self, game: Game) -> None:
        assert isinstance(game, Togyz)
        h = game.houses
        self.houses = h
        self.moves = list(range(1, h + 1))
        self.observation_size = 2 * h + 4
        self.high = 2 * h * game.seeds
        super().__init__(game)

    def observe(self, game: Game, side: Side) -> np.ndarray:
        assert isinstance(game, Togyz)
        b = game.board
        half = self.houses + 1
        if side == Side.NORTH:
            b = np.concatenate((b[half:], b[:half]))
        tuzdyks = [game.tuzdyk(side) or 0, game.tuzdyk(side.opponent()) or 0]
        return np.concatenate((b, np.array(tuzdyks, dtype=np.int64))).astype(np.int64, copy=False)


#: The codec of each game's class.
CODECS = {Kalah: KalahCodec, Bao: BaoCodec, Oware: OwareCodec, Togyz: TogyzCodec}


def codec(rules: str) -> Codec:
    """The codec of the rule set ``rules`` (of the class of its game)."""
    game = new_game(rules)
    return CODECS[type(game)](game)


def player_side(game: Game, first: bool, first_side: Side) -> Side:
    """The side the first player (``first``) or the second one plays now in ``game``: the
    first player starts on ``first_side`` (the side to move at the start: South in Kalah, as
    the rules say in Bao la Kete), and the players change sides at a pie-rule swap."""
    swapped = bool(getattr(game, "swapped", False))
    return first_side if first != swapped else first_side.opponent()
