"""The games of this library as OpenSpiel games (``pyspiel`` Python games).

Importing this module registers the games with OpenSpiel, after which its algorithms
(MCTS, minimax, CFR, the game API checks) play them by name; ``import mancala`` imports it
when ``pyspiel`` is installed::

    import pyspiel
    import mancala  # registers the games

    game = pyspiel.load_game("mancala_kalah(houses=6,seeds=6,empty_capture=true)")
    state = game.new_initial_state()

| name | parameters (defaults) | actions |
|---|---|---|
| ``mancala_kalah`` | ``houses`` (6), ``seeds`` (4), ``empty_capture``, ``end_when_no_move``, ``discard_remaining``, ``pie_rule``, ``no_first_move_bonus`` (all false), ``returns`` (``"margin"``), ``max_moves`` (1000) | house ``h`` is action ``h - 1``; the pie-rule swap is action ``houses`` |
| ``mancala_oware`` | ``rules`` (``"oware"``: any Oware/Awari rule set of ``docs/notation.md``, without its board size), ``houses``, ``seeds`` (0: the rule set's, 6 and 4; the game string shows the size played), ``returns`` (``"margin"``), ``max_moves`` (1000) | house ``h`` is action ``h - 1`` |
| ``mancala_bao`` | ``rules`` (``"bao-la-kete"``, with any options), ``max_moves`` (300) | the index of the move in :func:`mancala.bao_moves` (432 moves in notation) |
| ``mancala_togyz`` | ``rules`` (``"togyz-kumalak"``: any Togyz Kumalak rule set without a board size, ``togyz-ludii``, ``bestemshe``), ``returns`` (``"margin"``), ``max_moves`` (1000) | house ``h`` is action ``h - 1`` |

Player 0 is South, who moves first; after a Kalah pie-rule swap player 0 plays North's
seeds (the players exchange sides, not turns). ``returns="margin"``: each player's return
is their final seed margin (their store minus the other's, Kalah, Oware and Togyz Kumalak,
in seeds);
``returns="win"``: +1, -1 or 0. Bao la Kete has no seed count: its returns are +1/-1 (no
draw, K-10.3). In a game string a rule set's options are written ``name:value`` (the
string takes no ``=`` or parentheses in a value): ``mancala_oware(rules=awari+move_limit:200,
houses=4,seeds=3)``, ``mancala_bao(rules=bao-la-kete+safari:choice)``. A game still on after ``max_moves`` moves (OpenSpiel needs a bound on a
game's length; the games' own rules have none for Kalah and Bao la Kete, and a Togyz Kumalak
game can cycle forever) ends there: its
returns are then the store margin so far (Kalah, Oware, Togyz Kumalak; its sign under ``"win"``), or 0
(Bao la Kete). Oware's own history rules (repetition, move limit) apply as in
:class:`mancala.Oware`.

The observation string is the position's notation. The observation tensor (the same for
both players) is laid out as OpenSpiel's native games lay theirs, so that a model fits both
where the games coincide (``mancala_oware(rules=oware-openspiel)`` and ``oware``;
``mancala_kalah`` and ``mancala``):

* ``mancala_oware``: South's houses 1..h, North's houses 1..h, South's and North's captured
  seeds, each divided by the seeds on the board at the start (``2hs``): native ``oware``'s
  14 values divided by 48.
* ``mancala_kalah``: North's store, South's houses 1..m, South's store, North's houses 1..m
  (in seeds), then the player to move (0 or 1; 0 once the game is over) and the moves
  played: native ``mancala``'s 16 values.
* ``mancala_bao``: the ``board`` counts and the two reserves, then a one-hot of the side
  to move (zeros once over).
* ``mancala_togyz``: the ``board`` counts (houses and kazans) and both tuzdyks (the house
  number each player owns, 0 for none), then a one-hot of the side to move. States carry a :class:`mancala.Game` (``state.game``), so this library's
solver and engine can be used on them.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional

import numpy as np
# OpenSpiel ships no type information (and a type check may run where it is not installed).
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]
from open_spiel.python.observation import (  # type: ignore[import-not-found, import-untyped, unused-ignore]
    IIGObserverForPublicInfoGame,
)

from . import _mancala
from ._mancala import Bao, Kalah, Oware, Side, Togyz
from .errors import RulesError

__all__ = [
    "KALAH",
    "OWARE",
    "BAO",
    "TOGYZ",
    "register",
    "KalahGame",
    "OwareGame",
    "BaoGame",
    "TogyzGame",
    "MancalaState",
]

#: The names of the games registered.
KALAH = "mancala_kalah"
OWARE = "mancala_oware"
BAO = "mancala_bao"
TOGYZ = "mancala_togyz"

_KALAH_OPTIONS = (
    "empty_capture",
    "end_when_no_move",
    "discard_remaining",
    "pie_rule",
    "no_first_move_bonus",
)


def _game_type(short: str, long: str, params: Dict[str, Any]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short,
        long_name=long,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.DETERMINISTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


_KALAH_TYPE = _game_type(
    KALAH,
    "Kalah(m,n) (mancala library)",
    {
        "houses": 6,
        "seeds": 4,
        **{o: False for o in _KALAH_OPTIONS},
        "returns": "margin",
        "max_moves": 1000,
    },
)
_OWARE_TYPE = _game_type(
    OWARE,
    "Oware / Awari (mancala library)",
    {"rules": "oware", "houses": 0, "seeds": 0, "returns": "margin", "max_moves": 1000},
)
_BAO_TYPE = _game_type(
    BAO, "Bao la Kete (mancala library)", {"rules": "bao-la-kete", "max_moves": 300}
)
_TOGYZ_TYPE = _game_type(
    TOGYZ,
    "Togyz Kumalak (mancala library)",
    {"rules": "togyz-kumalak", "returns": "margin", "max_moves": 1000},
)


_BAO_MOVES: List[str] = list(_mancala.bao_moves())
_BAO_INDEX: Dict[str, int] = {m: i for i, m in enumerate(_BAO_MOVES)}


def _rules_text(value: Any) -> str:
    """A rule set given in an OpenSpiel game string, where a value can hold no `=`: an
    option is written `name:value` there (`oware+grand_slam:forbidden`), and read here as
    the notation's `name=value`."""
    return str(value).replace(":", "=")


class _Spec:
    """What a game's states need of it: the start, the action mapping, the returns and the
    length bound. Shared, never copied (OpenSpiel deep-copies a Python state to clone it,
    and a copied pyspiel game would lose its Python attributes)."""

    def __init__(self, kind: str, start: Any, returns_kind: str, max_moves: int) -> None:
        self.kind = kind
        self.start = start
        self.returns_kind = returns_kind
        self.max_moves = max_moves
        self.houses = int(getattr(start, "houses", 0))
        self.tensor_size = len(self.tensor(start))

    def __deepcopy__(self, memo: Dict[int, Any]) -> "_Spec":
        return self

    def num_actions(self) -> int:
        if self.kind == "bao":
            return len(_BAO_MOVES)
        if self.kind == "kalah" and "pie_rule" in self.start.options:
            return self.houses + 1
        return self.houses

    def total_seeds(self) -> int:
        return 0 if self.kind == "bao" else 2 * self.houses * int(self.start.seeds)

    def action_of(self, move: Any) -> int:
        if self.kind == "bao":
            return _BAO_INDEX[str(move)]
        if move == "swap":
            return self.houses
        return int(move) - 1

    def move_of(self, action: int) -> Any:
        if self.kind == "bao":
            return _BAO_MOVES[action]
        if self.kind == "kalah" and action == self.houses:
            return "swap"
        return action + 1

    def tensor(self, game: Any) -> List[float]:
        """The observation tensor of ``game`` (the module's docs): native ``oware``'s layout
        for Oware, native ``mancala``'s for Kalah, counts and the side to move for Bao la Kete and Togyz Kumalak."""
        if self.kind == "oware":
            b = [float(x) for x in game.board]
            h = self.houses
            total = float(self.total_seeds())
            return [x / total for x in b[:h] + b[h + 1 : 2 * h + 1] + [b[h], b[2 * h + 1]]]
        if self.kind == "kalah":
            b = [float(x) for x in game.board]
            h = self.houses
            stm = game.side_to_move
            mover = 0.0 if stm is None or (stm == Side.SOUTH) != bool(game.swapped) else 1.0
            return [b[2 * h + 1]] + b[: h + 1] + b[h + 1 : 2 * h + 1] + [mover, float(len(game.moves))]
        c = [float(x) for x in np.ravel(game.board)]
        if self.kind == "bao":
            c += [float(x) for x in np.ravel(game.reserves)]
        if self.kind == "togyz":
            c += [float(game.tuzdyk(side) or 0) for side in (Side.SOUTH, Side.NORTH)]
        stm = game.side_to_move
        return c + [1.0 if stm == Side.SOUTH else 0.0, 1.0 if stm == Side.NORTH else 0.0]


#: The OpenSpiel game of each class of this library.
_GAME_OF_CLASS = {"Kalah": KALAH, "Oware": OWARE, "Bao": BAO, "Togyz": TOGYZ}


def _openspiel_named(error: RulesError, params: Dict[str, Any]) -> RulesError:
    """``error`` with its advice to use a class of this library (a rule set of another
    game: ``use mancala.Kalah``) replaced by the OpenSpiel game that plays that rule set
    (``use mancala_kalah``); any other error as it is."""
    text = str(error)
    found = _mancala.game_class(_rules_text(params.get("rules", "")))
    tail = f": use mancala.{found}"
    if found in _GAME_OF_CLASS and text.endswith(tail):
        return RulesError(text[: -len(tail)] + f": load the OpenSpiel game {_GAME_OF_CLASS[found]}")
    return error


class _MancalaGame(pyspiel.Game):  # type: ignore[misc]
    """What the games share: a start position, actions, returns and the observer."""

    def __init__(self, game_type: pyspiel.GameType, params: Optional[Dict[str, Any]]) -> None:
        merged = dict(game_type.parameter_specification)
        merged.update(params or {})
        returns_kind = str(merged.get("returns", "win"))
        if returns_kind not in ("margin", "win"):
            raise ValueError(f"returns: \"margin\" or \"win\", not {returns_kind!r}")
        max_moves = int(merged["max_moves"])
        if max_moves < 1:
            raise ValueError("max_moves: at least 1")
        try:
            spec = self._spec(merged, returns_kind, max_moves)
        except RulesError as e:
            raise _openspiel_named(e, merged) from None
        seeds = spec.total_seeds()
        bound = float(seeds) if returns_kind == "margin" and seeds else 1.0
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_actions(),
            max_chance_outcomes=0,
            num_players=2,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=max_moves,
        )
        super().__init__(game_type, info, self._shown(dict(params or {}), spec))
        self.spec = spec

    def _shown(self, params: Dict[str, Any], spec: _Spec) -> Dict[str, Any]:
        """The parameters the game string shows (``str(game)``, ``get_parameters()``)."""
        return params

    def _spec(self, params: Dict[str, Any], returns_kind: str, max_moves: int) -> _Spec:
        raise NotImplementedError

    def action_of(self, move: Any) -> int:
        """The OpenSpiel action of a move of this library (a house number, ``"swap"``, a
        Bao la Kete move in notation)."""
        return self.spec.action_of(move)

    def move_of(self, action: int) -> Any:
        """The move of this library of an OpenSpiel action."""
        return self.spec.move_of(action)

    def new_initial_state(self, state: Any = None) -> "MancalaState":
        return MancalaState(self)

    def state_at(self, game: Any) -> "MancalaState":
        """A state at the current position of ``game`` (a :class:`mancala.Game` of this
        game's rules, copied with its record: the moves played, a Kalah swap, Oware's
        repetitions and move limit carry on), to run an OpenSpiel algorithm on a position of
        a set (as the grading example does). OpenSpiel's own ``history()`` of the state is
        empty (the moves before it are not OpenSpiel actions of this state); its
        information-state string is the game's start position and every move played, so
        states of different positions or histories differ."""
        if game.rules != self.spec.start.rules:
            raise ValueError(f"a game of {game.rules}, not of {self.spec.start.rules}")
        state = MancalaState(self)
        state.game = game.copy()
        state._truncated = not state.game.is_over() and len(state.game.moves) >= self.spec.max_moves
        return state

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Any:
        if iig_obs_type is None or (iig_obs_type.public_info and not iig_obs_type.perfect_recall):
            return _BoardObserver(self.spec, params)
        if iig_obs_type.perfect_recall:
            return _RecordObserver(params)
        return IIGObserverForPublicInfoGame(iig_obs_type, params)


class KalahGame(_MancalaGame):
    """``mancala_kalah``: Kalah(houses, seeds) with the options given as booleans."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(_KALAH_TYPE, params)

    def _spec(self, params: Dict[str, Any], returns_kind: str, max_moves: int) -> _Spec:
        rules = f"kalah({int(params['houses'])},{int(params['seeds'])})"
        for o in _KALAH_OPTIONS:
            if params.get(o):
                rules += "+" + o
        return _Spec("kalah", Kalah(rules), returns_kind, max_moves)


class OwareGame(_MancalaGame):
    """``mancala_oware``: an Oware or Awari rule set by name."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(_OWARE_TYPE, params)

    def _spec(self, params: Dict[str, Any], returns_kind: str, max_moves: int) -> _Spec:
        rules = _rules_text(params["rules"])
        houses, seeds = int(params.get("houses", 0)), int(params.get("seeds", 0))
        if houses or seeds:
            # OpenSpiel's game strings take no parentheses in a value: the board size is
            # given apart and put after the rule set's head (`awari(4,3)+…`).
            default = Oware(rules)
            head, plus, rest = rules.partition("+")
            if "(" in head:
                raise ValueError("give the board size in `rules` or as houses/seeds, not both")
            h = houses or int(default.houses)
            n = seeds or int(default.seeds)
            rules = f"{head.strip()}({h},{n}){plus}{rest}"
        return _Spec("oware", Oware(rules), returns_kind, max_moves)

    def _shown(self, params: Dict[str, Any], spec: _Spec) -> Dict[str, Any]:
        # The board size the game has, not 0 ("the rule set's"), unless `rules` gives it.
        if "(" not in _rules_text(params.get("rules", "oware")).partition("+")[0]:
            params["houses"] = int(spec.start.houses)
            params["seeds"] = int(spec.start.seeds)
        return params


class BaoGame(_MancalaGame):
    """``mancala_bao``: Bao la Kete, a rule set with its options."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(_BAO_TYPE, params)

    def _spec(self, params: Dict[str, Any], returns_kind: str, max_moves: int) -> _Spec:
        return _Spec("bao", Bao(_rules_text(params["rules"])), "win", max_moves)


class TogyzGame(_MancalaGame):
    """``mancala_togyz``: a Togyz Kumalak rule set by name (with its board size)."""

    def __init__(self, params: Optional[Dict[str, Any]] = None) -> None:
        super().__init__(_TOGYZ_TYPE, params)

    def _spec(self, params: Dict[str, Any], returns_kind: str, max_moves: int) -> _Spec:
        return _Spec("togyz", Togyz(_rules_text(params["rules"])), returns_kind, max_moves)


class MancalaState(pyspiel.State):  # type: ignore[misc]
    """A state: a :class:`mancala.Game` (``game``) and the moves played (OpenSpiel keeps
    the actions in ``history()``)."""

    def __init__(self, game: _MancalaGame) -> None:
        super().__init__(game)
        self._spec = game.spec
        self.game = game.spec.start.copy()
        self._truncated = False

    # Who is who: player 0 is South, exchanged by a Kalah pie-rule swap.
    def _player_of(self, side: Side) -> int:
        p = 0 if side == Side.SOUTH else 1
        if getattr(self.game, "swapped", False):
            p = 1 - p
        return p

    def current_player(self) -> int:
        if self.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        return self._player_of(self.game.side_to_move)

    def _legal_actions(self, player: int) -> List[int]:
        return sorted(self._spec.action_of(m) for m in self.game.legal_moves())

    def _apply_action(self, action: int) -> None:
        self.game.play(self._spec.move_of(action))
        if not self.game.is_over() and len(self.game.moves) >= self._spec.max_moves:
            self._truncated = True

    def _action_to_string(self, player: int, action: int) -> str:
        return str(self._spec.move_of(action))

    def is_terminal(self) -> bool:
        return self._truncated or self.game.is_over()

    def _south_margin(self) -> float:
        """South's margin: the final score, or the stores so far after a truncation."""
        if self._spec.kind == "bao":
            if self.game.is_over():
                return 1.0 if self.game.winner() == Side.SOUTH else -1.0
            return 0.0
        if self.game.is_over():
            return float(self.game.score())
        return float(self.game.store(Side.SOUTH)) - float(self.game.store(Side.NORTH))

    def returns(self) -> List[float]:
        if not self.is_terminal():
            return [0.0, 0.0]
        south = self._south_margin()
        if self._spec.returns_kind == "win":
            south = float(np.sign(south))
        player0 = south if self._player_of(Side.SOUTH) == 0 else -south
        # `+ 0.0` makes a negated zero 0.0: a draw's returns print as 0.0, not -0.0.
        return [player0 + 0.0, -player0 + 0.0]

    def __str__(self) -> str:
        return str(self.game.notation())


class _RecordObserver:
    """The information state (perfect recall, public information): the game's start position
    and every move played, as a string (`state_at` states keep the moves before them)."""

    def __init__(self, params: Any) -> None:
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        self.tensor = np.zeros(0, np.float32)
        self.dict: Dict[str, Any] = {}

    def set_from(self, state: "MancalaState", player: int) -> None:
        pass

    def string_from(self, state: "MancalaState", player: int) -> str:
        moves = " ".join(str(m) for m in state.game.moves)
        return f"{state.game.start_notation()} moves {moves}".rstrip()


class _BoardObserver:
    """The position as a string (notation) and a tensor (``_Spec.tensor``)."""

    def __init__(self, spec: _Spec, params: Any) -> None:
        if params:
            raise ValueError(f"Observation parameters not supported; passed {params}")
        self.tensor = np.zeros(spec.tensor_size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: MancalaState, player: int) -> None:
        self.tensor[:] = state._spec.tensor(state.game)

    def string_from(self, state: MancalaState, player: int) -> str:
        return str(state.game.notation())


_REGISTERED = False


def register() -> None:
    """Registers the games with OpenSpiel (done once, on import)."""
    global _REGISTERED
    if _REGISTERED:
        return
    pyspiel.register_game(_KALAH_TYPE, KalahGame)
    pyspiel.register_game(_OWARE_TYPE, OwareGame)
    pyspiel.register_game(_BAO_TYPE, BaoGame)
    pyspiel.register_game(_TOGYZ_TYPE, TogyzGame)
    _REGISTERED = True


register()
