"""Reinforcement-learning environments of every game (optional: ``pip install
"mancala[envs]"`` brings ``gymnasium`` and ``pettingzoo``).

* :class:`MancalaEnv` (``mancala.envs.gymnasium_env``): Gymnasium, one agent against an
  opponent (random, an engine level, any function); registered as ``"mancala/Kalah-v0"``
  (standard Kalah(6,4)), ``"mancala/Bao-v0"`` (Bao la Kete) and ``"mancala/Oware-v0"``
  (Oware Abapa), other rules through
  ``gymnasium.make("mancala/Kalah-v0", rules="kalah(6,3)+pie_rule")``.
* :func:`aec_env` / :class:`raw_env` (``mancala.envs.pettingzoo_env``): PettingZoo AEC,
  two agents.

Observations (from the observing player's side) and actions (house numbers or all Bao la
Kete move texts, with action masks): :mod:`mancala.envs._codec` and ``docs/python.md``.
"""

from __future__ import annotations

from typing import Any

__all__ = ["MancalaEnv", "aec_env", "raw_env"]


def __getattr__(name: str) -> Any:
    # Each environment imports its framework only when asked for, so that either works
    # without the other installed.
    if name == "MancalaEnv":
        from .gymnasium_env import MancalaEnv

        return MancalaEnv
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
    for env_id, rules in (
        ("mancala/Kalah-v0", "standard"),
        ("mancala/Bao-v0", "bao-la-kete"),
        ("mancala/Oware-v0", "oware"),
    ):
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="mancala.envs.gymnasium_env:MancalaEnv",
                kwargs={"rules": rules},
            )


_register()
