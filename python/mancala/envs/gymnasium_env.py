"""A single-agent Gymnasium environment: the agent plays one side of a game of any kind
(Kalah, Bao la Kete, Oware), the environment plays the other (a random mover, the engine at
a level, or any function). Observations and actions: :mod:`mancala.envs._codec`."""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, SupportsFloat, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

from .. import Engine, Side
from .. import Game
from .._mancala import VectorGames
from ._codec import (
    action_index,
    checked_agent_first,
    checked_game,
    checked_illegal_reward,
    checked_max_moves,
    checked_reward,
    checked_time_ms,
    codec,
    margin,
    opponent_level,
    player_side,
)

#: What the environment's opponent may be: ``"random"`` (a legal move drawn uniformly),
#: an engine level 1..10, a :class:`mancala.Engine`, or a function from the game to a move.
Opponent = Union[str, int, Engine, Callable[[Game], Union[int, str]]]


class MancalaEnv(gymnasium.Env):
    """A game of ``rules`` against an opponent, seen by the agent.

    Arguments:

    * ``rules``: a rule-set text of any game (``"standard"``, ``"kalah(6,3)+pie_rule"``,
      ``"bao-la-kete"``, ``"oware"``).
    * ``opponent``: ``"random"`` (default), an engine level ``1..10`` (any integer, ``int`` or
      ``numpy.int64``: a :class:`mancala.Engine` with a small table, reseeded at each
      ``reset``; another level raises :class:`mancala.EngineError`, as ``Engine(level=...)``
      does), an :class:`Engine`, or a
      function ``f(game) -> move`` given a copy of the game.
    * ``opponent_time_ms``: the engine's time a move in milliseconds, 0..=86400000 (one
      day, the ``mancala`` command's limit; ``ValueError`` beyond). Levels 1-9 are
      depth-limited and usually finish far sooner; level 10 uses it all. 0 is no time
      limit, as for :meth:`Engine.search`: levels 1-9 search to their depth however long it
      takes (level 9, 14 plies: well under a second a move in Kalah, Oware and Bao la Kete,
      seconds in Togyz Kumalak; Ctrl-C stops it), and level 10, which has no depth limit,
      raises ``ValueError`` ("level 10 needs a budget: give opponent_time_ms above 0"), an
      int level or an :class:`Engine` of level 10 alike.
    * ``agent_first``: ``True`` (default) the agent is the first player (South in Kalah),
      ``False`` the second, ``None`` drawn at each ``reset``. Under the pie rule the players
      may exchange sides; the observation is always from the agent's side.
    * ``reward``: ``"win"`` (default) +1 for a won game, -1 for a lost one, 0 for a draw, at
      the end only (0 at a truncation); ``"margin"`` the agent's store minus the opponent's,
      in seeds (Kalah; Oware: captured seeds; Togyz Kumalak: kazans): the final one at the
      end, the one so far at a truncation. Bao la Kete has no margin: ``"margin"`` raises
      ``ValueError``.
    * ``illegal_reward``: the reward of an action the mask forbids, which ends the episode
      (``info["illegal_move"]`` is then ``True``).
    * ``max_moves``: truncate the episode after this many plies, the moves of both players
      (the opponent's included; ``None``: never; Kalah games always end, a Bao la Kete game
      almost surely).
    * ``render_mode``: ``"ansi"`` (``render()`` returns the board as text) or ``"human"``
      (prints it).
    * ``game``: the class name of the game ``rules`` must be of (``"Kalah"``, ``"Bao"``,
      ``"Oware"``, ``"Togyz"``; ``None``: any). The registered id ``"mancala/<class>-v0"``
      sets it, so ``gymnasium.make("mancala/Kalah-v0", rules="oware")`` raises
      ``ValueError`` naming the id to use (``"mancala/Oware-v0"``).

    Spaces: ``action_space = Discrete(A)`` and ``observation_space = Box(0, high, (N,),
    int64)`` as in :mod:`mancala.envs._codec` (Kalah(6,4): A = 6, N = 14).
    ``info["action_mask"]`` (``int8``, shape ``(A,)``) marks the legal actions of the
    returned observation, also given by :meth:`action_masks` (the name MaskablePPO of
    sb3-contrib looks for). ``info["game"]`` is a copy of the game, and so is :attr:`game`.

    Against ``"random"`` the game and its opponent are stepped in Rust (one
    :class:`mancala.VectorGames` game: the same observations, rewards and ends, the
    opponent's moves drawn from the game's own generator, seeded by ``reset(seed=...)``);
    against an engine level, an :class:`Engine` or a function, in Python.
    """

    metadata = {"render_modes": ["ansi", "human"], "render_fps": 4}

    def __init__(
        self,
        rules: str = "standard",
        opponent: Opponent = "random",
        opponent_time_ms: int = 100,
        agent_first: Optional[bool] = True,
        reward: str = "win",
        illegal_reward: float = -1.0,
        max_moves: Optional[int] = None,
        render_mode: Optional[str] = None,
        game: Optional[str] = None,
    ) -> None:
        checked_game(rules, game)
        self.codec = codec(rules)
        checked_reward(reward, self.codec.new_game())
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']} or None, not {render_mode!r}")
        as_level = opponent_level(opponent)
        if as_level is not None:
            # The library's check, exception and words (a level too long to write out is
            # named by its size), as Engine(level=...) and VectorGames raise.
            Engine(level=as_level, tt_mb=1)
            opponent = as_level
        elif isinstance(opponent, (bool, np.bool_)) or not (
            (isinstance(opponent, str) and opponent == "random") or isinstance(opponent, Engine) or callable(opponent)
        ):
            raise ValueError(f'opponent must be "random", a level 1..10, a mancala.Engine or a function, not {opponent!r}')
        self.opponent = opponent
        self.opponent_time_ms = checked_time_ms(opponent_time_ms)
        level = opponent.level if isinstance(opponent, Engine) else opponent
        if isinstance(level, int) and level == 10 and self.opponent_time_ms == 0:
            # As the engine's search and VectorGames refuse it, when the environment is made
            # rather than at the engine's first move.
            raise ValueError("level 10 needs a budget: give opponent_time_ms above 0")
        self.agent_first = checked_agent_first(agent_first)
        self.reward_kind = reward
        self.illegal_reward = checked_illegal_reward(illegal_reward)
        self.max_moves = checked_max_moves(max_moves)
        self.render_mode = render_mode
        self.action_space = spaces.Discrete(self.codec.actions)
        self.observation_space = spaces.Box(
            low=0, high=self.codec.high, shape=(self.codec.observation_size,), dtype=np.int64
        )
        self._game: Game = self.codec.new_game()
        self._first_side: Side = self._game.side_to_move or Side.SOUTH
        # The game and its random or engine opponent stepped in Rust (None: in Python).
        self._vec: Optional[VectorGames] = None
        if isinstance(opponent, str) and opponent == "random":
            self._vec = VectorGames(
                rules,
                num_envs=1,
                seed=0,
                opponent=opponent,
                agent_first=self.agent_first,
                reward=reward,
                illegal_reward=self.illegal_reward,
                max_moves=self.max_moves,
                opponent_time_ms=self.opponent_time_ms,
            )
        self._mask = np.zeros(self.codec.actions, dtype=np.int8)
        self._agent_is_first = True
        self._engine: Optional[Engine] = opponent if isinstance(opponent, Engine) else None
        self._moves = 0
        self._done = True
        self._has_reset = False

    @property
    def game(self) -> Game:
        """The game now (a copy when it is stepped in Rust)."""
        if self._vec is not None:
            return self._vec.game(0)
        return self._game

    # The agent's side now (it changes at a pie-rule swap).
    def _agent_side(self) -> Side:
        if self._vec is not None:
            return self._vec.agent_side(0)
        return player_side(self._game, self._agent_is_first, self._first_side)

    def _agent_to_move(self) -> bool:
        return self._game.side_to_move == self._agent_side()

    def action_masks(self) -> np.ndarray:
        """The legal actions of the agent now (``int8``, shape ``(A,)``; all zeros when the
        episode is over)."""
        if self._vec is not None:
            return self._mask.copy()
        if self._done or not self._agent_to_move():
            return np.zeros(self.codec.actions, dtype=np.int8)
        return self.codec.mask(self._game)

    def _opponent_move(self) -> Union[int, str]:
        if self.opponent == "random":
            moves = self._game.legal_moves()
            return moves[int(self.np_random.integers(len(moves)))]
        if self._engine is not None:
            return self._engine.best_move(self._game, time_ms=self.opponent_time_ms)
        assert callable(self.opponent)
        return self.opponent(self._game.copy())

    def _play_opponent(self) -> None:
        """Plays the opponent's moves until the agent is to move or the game ends."""
        while not self._game.is_over() and not self._agent_to_move() and not self._truncated():
            self.codec.play(self._game, self._opponent_move())
            self._moves += 1

    def _truncated(self) -> bool:
        return self.max_moves is not None and self._moves >= self.max_moves

    def _final_reward(self, truncated: bool = False) -> float:
        """The agent's reward after a step: the final one once the game is over; at a
        truncation the margin so far under ``"margin"``, else 0; 0 while the game goes on."""
        side = self._agent_side()
        m = margin(self._game, side) if self.reward_kind == "margin" else None
        if not self._game.is_over():
            return m if truncated and m is not None else 0.0
        if m is not None:
            return m
        winner = self._game.winner()
        if winner is None:
            return 0.0
        return 1.0 if winner == side else -1.0

    def _observation(self) -> Tuple[np.ndarray, Dict[str, Any]]:
        obs = self.codec.observe(self._game, self._agent_side())
        info: Dict[str, Any] = {
            "action_mask": self.action_masks(),
            "side": self._agent_side(),
            "game": self._game.copy(),
        }
        return obs, info

    def _vec_result(self, out: Tuple[Any, ...]) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]:
        """The single game's step result out of the batch's arrays."""
        assert self._vec is not None
        obs, rewards, terminated, truncated, masks = out
        self._mask = masks[0]
        info: Dict[str, Any] = {
            "action_mask": self._mask.copy(),
            "side": self._vec.agent_side(0),
            "game": self._vec.game(0),
        }
        return obs[0], float(rewards[0]), bool(terminated[0]), bool(truncated[0]), info

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts a new game; the opponent moves first when it is the first player."""
        super().reset(seed=seed)
        self._has_reset = True
        if self._vec is not None:
            obs, _, terminated, truncated, info = self._vec_result(self._vec.reset(seed=seed))
            self._done = terminated or truncated
            if self.render_mode == "human":
                self.render()
            return obs, info
        self._game = self.codec.new_game()
        self._first_side = self._game.side_to_move or Side.SOUTH
        if self.agent_first is None:
            self._agent_is_first = bool(self.np_random.integers(2))
        else:
            self._agent_is_first = bool(self.agent_first)
        if isinstance(self.opponent, int) and not isinstance(self.opponent, bool):
            self._engine = Engine(level=self.opponent, tt_mb=4, seed=int(self.np_random.integers(2**63)))
        self._moves = 0
        self._done = False
        self._play_opponent()
        self._done = self._game.is_over() or self._truncated()
        obs, info = self._observation()
        if self.render_mode == "human":
            self.render()
        return obs, info

    def step(self, action: Any) -> Tuple[np.ndarray, SupportsFloat, bool, bool, Dict[str, Any]]:
        """Plays the agent's ``action``, then the opponent's moves until it is the agent's
        turn again or the game ends.

        Raises ``gymnasium.error.ResetNeeded`` before the first :meth:`reset` (as Gymnasium's
        ``OrderEnforcing`` wrapper, which ``gymnasium.make`` adds, does), ``RuntimeError``
        once the episode is over."""
        if not self._has_reset:
            raise ResetNeeded("MancalaEnv.step() called before reset(): call reset() first")
        if self._done:
            raise RuntimeError("the episode is over: call reset()")
        a = action if type(action) is int else action_index(action)
        if self._vec is not None:
            legal = 0 <= a < self.codec.actions and self._mask[a] != 0
            # An action that is not legal ends the game in Rust as here (-1: no action).
            obs, reward, terminated, truncated, self._mask = self._vec.step_one(a if legal else -1)
            info: Dict[str, Any] = {
                "action_mask": self._mask.copy(),
                "side": self._vec.agent_side(0),
                "game": self._vec.game(0),
            }
            self._done = terminated or truncated
            if not legal:
                info["illegal_move"] = True
            elif self.render_mode == "human":
                self.render()
            return obs, reward, terminated, truncated, info
        if not 0 <= a < self.codec.actions or self.codec.mask(self._game)[a] == 0:
            self._done = True
            obs, info = self._observation()
            info["illegal_move"] = True
            return obs, self.illegal_reward, True, False, info
        self.codec.play(self._game, self.codec.move(a))
        self._moves += 1
        self._play_opponent()
        terminated = self._game.is_over()
        truncated = not terminated and self._truncated()
        self._done = terminated or truncated
        reward = self._final_reward(truncated)
        obs, info = self._observation()
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

    def render(self) -> Optional[str]:
        """The board as text (``"ansi"``), or printed (``"human"``)."""
        if self.render_mode == "ansi":
            return str(self.game)
        if self.render_mode == "human":
            print(self.game, end="\n\n")
        return None
