"""A two-player PettingZoo AEC environment of any game (Kalah, Bao la Kete, Oware): the
agents ``"player_0"`` (the first player: South in Kalah) and ``"player_1"``, taking turns as
the rules say (a Kalah extra turn keeps the same agent selected). Observations and actions:
:mod:`mancala.envs._codec`."""

from __future__ import annotations

from typing import Any, Dict, Optional

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]
from pettingzoo.utils.env_logger import EnvLogger  # type: ignore[import-untyped]

from .. import Side
from .. import Game
from ._codec import action_index, checked_max_moves, checked_reward, codec, margin, player_side

AGENTS = ["player_0", "player_1"]
RENDER_MODES = ["ansi", "human"]


def env(**kwargs: Any) -> AECEnv:
    """The environment :class:`raw_env` (same arguments) in PettingZoo's usual wrappers, as
    its classic games are: an illegal action ends the game with reward -1 for the player who
    made it and 0 for the other, not zero-sum, both agents terminated and truncated
    (``TerminateIllegalWrapper``'s convention), an action out of range is an error, and the
    calls must come in order (``reset`` first)."""
    e: AECEnv = raw_env(**kwargs)
    e = wrappers.TerminateIllegalWrapper(e, illegal_reward=-1)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


class raw_env(AECEnv):  # type: ignore[misc]
    """Two players, ``"player_0"`` and ``"player_1"``, playing ``rules``.

    Arguments: ``rules`` (a rule-set text of any game), ``reward`` (``"win"``: +1 to the
    winner and -1 to the loser at the end, 0 each for a draw, 0 at a truncation; ``"margin"``:
    each player's store minus the other's in seeds, Kalah, Oware (captured seeds) and Togyz
    Kumalak (kazans), the final one at the end and the one so far at a truncation; Bao la
    Kete has none and refuses it with ``ValueError``), ``max_moves`` (truncate after this
    many plies, the moves of both players; ``None``: never), ``render_mode`` (``"ansi"`` or
    ``"human"``). ``step`` before the first ``reset`` raises ``AssertionError`` ("reset()
    needs to be called before step."), and ``observe`` ``AssertionError`` ("reset() needs to be
    called before observe."), as PettingZoo's ``OrderEnforcingWrapper`` does.

    ``observe(agent)`` is a dict: ``"observation"`` the board seen from that agent's side
    (``int64``, as in :mod:`mancala.envs._codec`) and ``"action_mask"`` (``int8``, 1 for
    each legal action, all zeros when the agent is not to move). An illegal action raises
    ``ValueError`` here; :func:`env` turns it into a lost game instead.
    """

    metadata = {
        "render_modes": RENDER_MODES,
        "name": "mancala_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        rules: str = "standard",
        reward: str = "win",
        max_moves: Optional[int] = None,
        render_mode: Optional[str] = None,
    ) -> None:
        super().__init__()
        self.codec = codec(rules)
        checked_reward(reward, self.codec.new_game())
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode must be one of {RENDER_MODES} or None, not {render_mode!r}")
        self.reward_kind = reward
        self.max_moves = checked_max_moves(max_moves)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        obs = spaces.Box(low=0, high=self.codec.high, shape=(self.codec.observation_size,), dtype=np.int64)
        mask = spaces.Box(low=0, high=1, shape=(self.codec.actions,), dtype=np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": obs, "action_mask": mask}) for a in AGENTS
        }
        self.action_spaces = {a: spaces.Discrete(self.codec.actions) for a in AGENTS}
        self.game: Game = self.codec.new_game()
        self._first_side: Side = self.game.side_to_move or Side.SOUTH
        self._moves = 0
        self._has_reset = False

    def observation_space(self, agent: str) -> gymnasium.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.Space[Any]:
        return self.action_spaces[agent]

    def _side(self, agent: str) -> Side:
        if agent not in AGENTS:
            raise KeyError(f"no agent {agent!r}: the agents are {list(AGENTS)}")
        return player_side(self.game, agent == AGENTS[0], self._first_side)

    def _agent_on(self, side: Side) -> str:
        return AGENTS[0] if self._side(AGENTS[0]) == side else AGENTS[1]

    def observe(self, agent: str) -> Dict[str, np.ndarray]:
        if not self._has_reset:
            # PettingZoo's own refusal (its OrderEnforcingWrapper calls it): AssertionError.
            EnvLogger.error_observe_before_reset()
        observation = self.codec.observe(self.game, self._side(agent))
        if agent == self.agent_selection and not self.game.is_over():
            mask = self.codec.mask(self.game)
        else:
            mask = np.zeros(self.codec.actions, dtype=np.int8)
        return {"observation": observation, "action_mask": mask}

    def reset(self, seed: Optional[int] = None, options: Optional[Dict[str, Any]] = None) -> None:
        self.game = self.codec.new_game()
        self._first_side = self.game.side_to_move or Side.SOUTH
        self._moves = 0
        self._has_reset = True
        self.agents = list(AGENTS)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: Dict[str, Dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self._agent_on(self._first_side)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            # PettingZoo's own refusal (its OrderEnforcingWrapper calls it): AssertionError.
            EnvLogger.error_step_before_reset()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        a = action_index(action)
        if not 0 <= a < self.codec.actions or self.codec.mask(self.game)[a] == 0:
            raise ValueError(f"illegal action {a} for {agent}: legal are {np.flatnonzero(self.codec.mask(self.game)).tolist()}")
        self._cumulative_rewards[agent] = 0.0
        self.codec.play(self.game, self.codec.move(a))
        self._moves += 1
        self.rewards = {x: 0.0 for x in self.agents}
        if self.game.is_over():
            for x in self.agents:
                self.rewards[x] = self._final_reward(x)
            self.terminations = {x: True for x in self.agents}
            # Both agents then see the end (each is stepped with None once).
            self.agent_selection = AGENTS[1] if agent == AGENTS[0] else AGENTS[0]
        else:
            if self.max_moves is not None and self._moves >= self.max_moves:
                self.truncations = {x: True for x in self.agents}
                for x in self.agents:
                    self.rewards[x] = self._final_reward(x)
            side = self.game.side_to_move
            assert side is not None
            self.agent_selection = self._agent_on(side)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _final_reward(self, agent: str) -> float:
        """``agent``'s reward at the end of the game or at a truncation: its margin (so far)
        under ``"margin"``; under ``"win"`` +1, -1 or 0 at the end, 0 at a truncation."""
        side = self._side(agent)
        if self.reward_kind == "margin":
            m = margin(self.game, side)
            if m is not None:
                return m
        if not self.game.is_over():
            return 0.0
        winner = self.game.winner()
        if winner is None:
            return 0.0
        return 1.0 if winner == side else -1.0

    def render(self) -> Optional[str]:
        """The board as text (``"ansi"``), or printed (``"human"``)."""
        if self.render_mode == "ansi":
            return str(self.game)
        if self.render_mode == "human":
            print(self.game, end="\n\n")
        elif self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode")
        return None

    def close(self) -> None:
        pass
