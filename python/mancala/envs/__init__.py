"""Reinforcement-learning environments of every game (optional: ``pip install
"mancala[envs]"`` brings ``gymnasium`` and ``pettingzoo``).

* :class:`MancalaEnv` (``mancala.envs.gymnasium_env``): Gymnasium, one agent against an
  opponent (random, an engine level, any function); registered as ``"mancala/<class>-v0"``
  for every game of ``mancala.GAME_KINDS`` with its class's default rule set
  (``"mancala/Kalah-v0"``, ``"mancala/Bao-v0"``, ``"mancala/Oware-v0"``,
  ``"mancala/Togyz-v0"``), other rules through
  ``gymnasium.make("mancala/Kalah-v0", rules="kalah(6,3)+pie_rule")``.
* :class:`MancalaVectorEnv` (``mancala.envs.vector_env``): Gymnasium's vector API, N games
  stepped in Rust (``gymnasium.make_vec(id, num_envs=N, vectorization_mode="vector_entry_point")``).
* :func:`aec_env` / :class:`raw_env` (``mancala.envs.pettingzoo_env``): PettingZoo AEC,
  two agents.

Observations (from the observing player's side) and actions (house numbers or all Bao la
Kete move texts, with action masks): :mod:`mancala.envs._codec` and ``docs/python.md``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MancalaEnv", "MancalaVectorEnv", "aec_env", "raw_env"]


def __getattr__(name: str) -> Any:
    # Each environment imports its framework only when asked for, so that either works
    # without the other installed.
    if name == "MancalaEnv":
        from .gymnasium_env import MancalaEnv

        return MancalaEnv
    if name == "MancalaVectorEnv":
        from .vector_env import MancalaVectorEnv

        return MancalaVectorEnv
    if name == "aec_env":
        from .pettingzoo_env import env

        return env
    if name == "raw_env":
        from .pettingzoo_env import raw_env

        return raw_env
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _register() -> None:
    """Registers the Gymnasium ids, when gymnasium is installed."""
    try:
        import gymnasium
    except ImportError:  # pragma: no cover - gymnasium is optional
        return
    from .. import GAME_KINDS

    # One id a game: "mancala/<class>-v0", with the class's default rule set.
    for _, cls, rules in GAME_KINDS:
        env_id = f"mancala/{cls}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="mancala.envs.gymnasium_env:MancalaEnv",
                vector_entry_point="mancala.envs.vector_env:MancalaVectorEnv",
                # `game`: a rule set of another game is refused, naming its own id.
                kwargs={"rules": rules, "game": cls},
            )


_register()
