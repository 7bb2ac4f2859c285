"""A Gymnasium vector environment stepped in Rust: ``num_envs`` games of one rule set
(any game), each against a random opponent or the engine at a level, in one
:class:`mancala.VectorGames`.
Observations and actions are those of :class:`mancala.envs.MancalaEnv`
(:mod:`mancala.envs._codec`), batched. ``gymnasium.make_vec(id, num_envs=N,
vectorization_mode="vector_entry_point")`` makes one for every ``mancala/...`` id."""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode
from gymnasium.vector.utils import batch_space

from .._mancala import VectorGames
from ._codec import checked_agent_first, checked_game, checked_max_moves, opponent_level


class MancalaVectorEnv(gymnasium.vector.VectorEnv):
    """``num_envs`` games of ``rules`` against an opponent, stepped together in Rust.

    Arguments as :class:`mancala.envs.MancalaEnv` (``rules``, ``agent_first``, ``reward``,
    ``illegal_reward``, ``max_moves``, ``opponent_time_ms``, ``game``), and ``num_envs``;
    ``opponent`` is ``"random"`` or an engine level 1..10 (any integer, ``int`` or
    ``numpy.int64``; another level raises
    :class:`mancala.EngineError`; the :class:`mancala.Engine` and
    function opponents of the single environment are not batched). Game ``i`` draws its
    random moves from a generator seeded ``seed + i`` (``reset(seed=...)``; 0 when never
    given).

    ``opponent_time_ms`` is 0..=86400000 (one day; 0: no time limit). Level 9 with no time
    limit searches 14 plies however long it takes: seconds a move in Togyz Kumalak, and a
    step waits for every game's moves; Ctrl-C stops a step or a reset, which then did not
    happen (one whose engine budget, the time a move times the games, is at most 250 ms is
    stopped when it ends, and undone all the same).

    Autoreset is Gymnasium's ``NEXT_STEP``: the step after a game ends restarts it (its
    action is ignored, its reward 0). ``infos["action_mask"]`` (``int8``, shape
    ``(num_envs, A)``) marks each game's legal actions, all zeros for a game that has just
    ended; :meth:`action_masks` gives the last ones.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}

    def __init__(
        self,
        num_envs: int = 1,
        rules: str = "standard",
        opponent: Union[str, int] = "random",
        agent_first: Optional[bool] = True,
        reward: str = "win",
        illegal_reward: float = -1.0,
        max_moves: Optional[int] = None,
        render_mode: Optional[str] = None,
        opponent_time_ms: int = 100,
        game: Optional[str] = None,
    ) -> None:
        checked_game(rules, game)
        level = opponent_level(opponent)
        if level is not None:
            # Any integer (numpy.int64 too); VectorGames checks its range.
            opponent = level
        elif not (isinstance(opponent, str) and opponent == "random"):
            raise ValueError(
                f'the vector environment plays opponent="random" or an engine level 1..10, not {opponent!r}: '
                'use gymnasium.make_vec(..., vectorization_mode="sync") for the others'
            )
        if render_mode is not None:
            raise ValueError(f"the vector environment does not render, render_mode={render_mode!r}")
        self.games = VectorGames(
            rules=rules,
            num_envs=num_envs,
            seed=0,
            opponent=opponent,
            agent_first=checked_agent_first(agent_first),
            reward=reward,
            illegal_reward=illegal_reward,
            max_moves=checked_max_moves(max_moves),
            opponent_time_ms=opponent_time_ms,
        )
        self.num_envs = num_envs
        self.rules = rules
        self.render_mode = None
        self.single_action_space = spaces.Discrete(self.games.num_actions)
        self.single_observation_space = spaces.Box(
            low=0, high=self.games.high, shape=(self.games.observation_size,), dtype=np.int64
        )
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self._masks = np.zeros((num_envs, self.games.num_actions), dtype=np.int8)
        self._has_reset = False

    def _info(self, masks: np.ndarray) -> Dict[str, Any]:
        self._masks = masks
        return {"action_mask": masks, "_action_mask": np.ones(self.num_envs, dtype=bool)}

    def action_masks(self) -> np.ndarray:
        """The legal actions of each game now (``int8``, shape ``(num_envs, A)``)."""
        return self._masks

    def reset(
        self, *, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None
    ) -> Tuple[np.ndarray, Dict[str, Any]]:
        """Starts every game anew; ``seed`` reseeds game ``i`` with ``seed + i``. Against an
        engine, Ctrl-C stops it (``KeyboardInterrupt``) and leaves the games as before the
        call, as :meth:`step` (a first reset so stopped does not count)."""
        super().reset(seed=seed)
        obs, _, _, _, masks = self.games.reset(seed=seed)
        self._has_reset = True
        return obs, self._info(masks)

    def step(self, actions: Any) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]:
        """Plays ``actions`` (shape ``(num_envs,)``) and the opponents' replies. Raises
        ``gymnasium.error.ResetNeeded`` before the first :meth:`reset`, as Gymnasium's
        ``OrderEnforcing`` wrapper does for a single environment. Against an engine, Ctrl-C
        stops it (``KeyboardInterrupt``) and the step did not happen for any game: the games
        and their masks are as before it (:class:`mancala.VectorGames`)."""
        if not self._has_reset:
            raise ResetNeeded("MancalaVectorEnv.step() called before reset(): call reset() first")
        obs, rewards, terminated, truncated, masks = self.games.step(actions)
        return obs, rewards, terminated, truncated, self._info(masks)
