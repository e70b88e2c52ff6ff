"""One seat against built-in bots, as a Gymnasium environment (for single-agent learners).

``SingleAgent(players=2, rules="traditional", opponents="basic", seat=0, ...)``: every step is
one move of the learner's seat; the bots' moves in between are played inside ``step``. The
observation and action spaces are those of ``raw_env``: a dict with ``"observation"`` and
``"action_mask"``, and ``Discrete(2368)``. The reward is the seat's reward from ``raw_env`` (at
the deal's end). A deal that ends before the learner's first move (a bot goes out at once) is
dealt again, so ``reset`` always returns a position where the learner is to move.

An illegal number follows PettingZoo's convention for masked games (``TerminateIllegalWrapper``):
the episode ends at once with reward -1 (``illegal_reward``) and ``info["illegal"] = True``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import gymnasium

from ..bots import get_bot
from ..engine.rules import Rules
from ..errors import RuleError
from .rummy import RewardFn, raw_env

#: Deals tried before ``reset`` gives up on reaching a move of the learner's seat.
REDEALS = 100


class SingleAgent(gymnasium.Env):
    """The learner plays ``seat``; the other seats are bots (names from the ladder or objects
    with ``act(observation)``)."""

    metadata: ClassVar[dict] = {"render_modes": ["ansi", "html"]}

    def __init__(
        self,
        players: int = 2,
        rules: str | Rules = "traditional",
        opponents: str | Sequence[object] = "basic",
        seat: int = 0,
        seed: int | None = None,
        render_mode: str | None = None,
        reward: str | RewardFn = "win",
        lang: str = "en",
        max_moves: int | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        self.illegal_reward = float(illegal_reward)
        self.aec = raw_env(players, rules, seed, render_mode, reward, lang, max_moves)
        need = players - 1
        if isinstance(opponents, str):
            opponents = [opponents] * need
        if len(opponents) != need:
            raise RuleError("env_opponents", lang, players=players, need=need, count=len(opponents))
        if not isinstance(seat, int) or not 0 <= seat < players:
            raise RuleError("bad_player", lang, player=seat)
        self.seat = seat
        self.agent = self.aec.possible_agents[seat]
        others = [s for s in range(players) if s != seat]
        self.bots = {
            s: get_bot(b, seed=s) if isinstance(b, str) else b
            for s, b in zip(others, opponents, strict=True)
        }
        self.observation_space = self.aec.observation_space(self.agent)
        self.action_space = self.aec.action_space(self.agent)
        self.render_mode = render_mode

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        self.aec.reset(seed=seed, options=options)
        for _ in range(REDEALS):
            if self._bots_play():
                break
            self.aec.reset()
        else:  # only a max_moves too small for the bots' opening moves gets here
            raise ValueError(f"the learner's seat got no move in {REDEALS} deals (max_moves?)")
        return self.aec.observe(self.agent), {}

    def step(self, action):
        if int(action) not in self.aec.legal_moves():
            observation = self.aec.observe(self.agent)
            return observation, self.illegal_reward, True, False, {"illegal": True}
        self.aec.step(action)
        self._bots_play()
        aec = self.aec
        reward = aec._cumulative_rewards.get(self.agent, 0.0)
        aec._cumulative_rewards[self.agent] = 0.0
        terminated = aec.terminations.get(self.agent, False)
        truncated = aec.truncations.get(self.agent, False)
        return aec.observe(self.agent), float(reward), terminated, truncated, {}

    def _bots_play(self) -> bool:
        """Play the bots' moves until the learner is to move; False if the deal ended."""
        aec, game = self.aec, self.aec.game
        while game.phase != "over" and not aec.truncations[aec.agent_selection]:
            seat = game.current_player
            if seat == self.seat:
                return True
            aec.play(self.bots[seat].act(game.observation(seat)))
        return False

    def render(self):
        return self.aec.render()

    def close(self) -> None:
        self.aec.close()
