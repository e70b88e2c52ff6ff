"""
# Rummy (two decks, 2-4 players)

A PettingZoo AEC environment of Traditional Rummy as rummy_widget plays it, in both presets:
`"traditional"` (the English rules text) and `"rummy_royal"` (the Finnish one). Two 52-card
decks, ten cards each, sets and runs, lay-offs onto any meld, penalty points for the cards left.

| Import             | `from rummy_widget.env import env, raw_env`             |
|--------------------|---------------------------------------------------------|
| Actions            | Discrete                                                |
| Parallel API       | No (turn-based)                                         |
| Agents             | `agents= ['player_0', ..., 'player_{players-1}']`       |
| Agents             | 2, 3 or 4                                               |
| Action Shape       | Discrete(2368)                                          |
| Observation Shape  | (3016,)                                                 |
| Observation Values | [0, 104]                                                |

```python
from rummy_widget.env import env

game = env(players=3, rules="rummy_royal", seed=1)
game.reset()
for agent in game.agent_iter():
    observation, reward, termination, truncation, info = game.last()
    action = None if termination or truncation else (
        game.action_space(agent).sample(observation["action_mask"])
    )
    game.step(action)
```

### Arguments

`env(players=2, rules="traditional", seed=None, render_mode=None, reward="win", lang="en",
max_moves=None)`

* `players`: 2 to 4 seats, `player_0` plays first (the last seat deals).
* `rules`: `"traditional"`, `"rummy_royal"` or a `rummy_widget.Rules`.
* `seed`: the first deal's shuffle; each later `reset()` without a seed deals the next shuffle
  of the same sequence, and `reset(seed=s)` starts a new sequence.
* `reward`: `"win"` (default), `"penalty"`, `"both"` or a function `f(result, seat) -> float`
  of the `DealResult`; see Rewards.
* `render_mode`: `"ansi"` (text) or `"html"` (the static table of `rummy_widget.display`), both
  from the seat to move.
* `max_moves`: truncate the deal after this many moves (all seats together); `None` leaves it
  to the rules, which void a deal after 1,000 turns or a fourth rebuild of the stock.

`reset(options={"game": game})` starts from a prepared `rummy_widget.Game` (a copy of it), e.g.
a lesson's position from `Game.from_layout`.

### Observation space

A dict: `"observation"`, a flat `int8` array of 3,016 numbers built from the seat's
`Game.observation(seat)` alone (never another hand or the stock's order), and
`"action_mask"`, `int8`, 1 for every legal move. Seats are counted from the observer (0 = self,
1 = next to play, ...); cards by face, index `suit * 13 + rank - 1` (suits ♠ ♥ ♦ ♣, ace = 1).

| Index       | Description                                                                  |
|-------------|------------------------------------------------------------------------------|
| 0-51        | own hand (count of each face, 0-2)                                           |
| 52-103      | the whole discard pile                                                       |
| 104-155     | the discard pile's top card                                                  |
| 156-207     | the card taken from the pile this turn (it may not be discarded at once)     |
| 208-259     | cards in melds on the table                                                  |
| 260-415     | cards seats 1, 2, 3 are known to hold (taken from the pile, not played since)|
| 416-467     | cards the seat cannot place (in the stock or unseen in another hand)         |
| 468-1050    | 11 hand slots × (52 face bits + "taken this turn" bit), the hand sorted by face |
| 1051-2988   | 34 meld places × (52 face counts + "run" bit + 4 owner bits)                 |
| 2989-3003   | phase (draw, play, over), my turn, current seat (4), dealer (4), players 2/3/4 |
| 3004-3015   | hand sizes (4), has melded (4), stock size, pile size, rebuilds, Rummy Royal |

### Action space

`Discrete(2368)`; moves name **hand slots** (the hand sorted by face, twins side by side):

| Number      | Move                                                                          |
|-------------|-------------------------------------------------------------------------------|
| 0           | draw from the stock                                                           |
| 1           | draw from the discard pile                                                    |
| 2-1982      | meld: one number per set of 3 to 11 slots (sizes ascending, then lexicographic)|
| 1983-2356   | lay off: `1983 + slot * 34 + meld_index`                                      |
| 2357-2367   | discard: `2357 + slot`                                                        |

Why this size: a hand holds at most `hand_size + 1 = 11` cards when a move is chosen, so 11
slots name every card a move can use; every subset of three or more slots is one meld number
(C(11,3) + ... + C(11,11) = 1,981), so any meld of any length, with any choice of copies, has
a number. The table holds at most `(104 - 2) // 3 = 34` melds. Naming slots rather than faces
keeps the two copies of a card apart, so distinct legal moves always have distinct numbers.

### Legal actions mask

`action_mask` is exactly `Game.legal_actions()` through the numbering above, all zeros for a
seat not to move. `step(n)` plays the listed legal move with number `n`. An illegal number
(or one out of range) ends the deal as in PettingZoo's classic games: reward -1 for the seat
that made it, 0 for the others, every seat terminated and truncated, as
`TerminateIllegalWrapper` does. `raw_env` raises `RuleError` instead and changes nothing,
unless made with `illegal="terminate"` (what `env()` does).

### Rewards

Given to every seat when the deal ends; a void deal (no winner) gives 0 to all.

| `reward`    | winner | every other seat                              |
|-------------|--------|-----------------------------------------------|
| `"win"`     | +1     | -1                                            |
| `"penalty"` | 0      | -(its penalty points, the Rummy bonus included) |
| `"both"`    | +1     | -1 - penalty points / 100                     |
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from ..display import table_html, table_text
from ..engine.actions import Action
from ..engine.cards import DECK, Card, Cards
from ..engine.game import DealResult, Game
from ..engine.rules import Rules
from ..errors import RuleError
from ..i18n import check_lang
from .encoding import (
    ActionCodec,
    KnownCards,
    ObservationEncoder,
    hand_slots,
    slot_order,
    sorted_hand,
)

#: Hand slots the numbering allows (2**slots meld numbers): the presets use 11.
MOST_SLOTS = 16

RewardFn = Callable[[DealResult, int], float]


def _win(result: DealResult, seat: int) -> float:
    return 1.0 if result.winner == seat else -1.0


def _penalty(result: DealResult, seat: int) -> float:
    return -float(result.penalties[seat])


def _both(result: DealResult, seat: int) -> float:
    return _win(result, seat) + _penalty(result, seat) / 100


REWARDS: dict[str, RewardFn] = {"win": _win, "penalty": _penalty, "both": _both}


def env(**kwargs: object) -> AECEnv:
    """The environment as PettingZoo's classic games come: an illegal move ends the deal with
    -1 for its maker and 0 for the others, and the API's order is enforced.

    The ending is ``raw_env(illegal="terminate")``: what ``TerminateIllegalWrapper`` does (a
    test plays both side by side), without two wrapper layers that every attribute read of a
    step passes through (a fifth of a step's time)."""
    kwargs.setdefault("illegal", "terminate")
    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class raw_env(AECEnv, EzPickle):
    """One deal per episode; every seat an agent. See the module's docstring."""

    metadata: ClassVar[dict] = {
        "render_modes": ["ansi", "html"],
        "name": "rummy_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        players: int = 2,
        rules: str | Rules = "traditional",
        seed: int | None = None,
        render_mode: str | None = None,
        reward: str | RewardFn = "win",
        lang: str = "en",
        max_moves: int | None = None,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
    ) -> None:
        EzPickle.__init__(
            self,
            players,
            rules,
            seed,
            render_mode,
            reward,
            lang,
            max_moves,
            illegal,
            illegal_reward,
        )
        super().__init__()
        self.lang = check_lang(lang)
        self.rules = Rules.preset(rules)
        Game(players, self.rules, seed=0, lang=self.lang)  # checks the count in the learner's words
        if hand_slots(self.rules) > MOST_SLOTS:
            raise RuleError("env_hand_size", self.lang, most=MOST_SLOTS, cards=self.rules.hand_size)
        if isinstance(reward, str):
            if reward not in REWARDS:
                raise RuleError(
                    "env_reward", self.lang, name=repr(reward), choices=", ".join(REWARDS)
                )
            reward = REWARDS[reward]
        elif not callable(reward):
            raise RuleError("env_reward", self.lang, name=repr(reward), choices=", ".join(REWARDS))
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        if illegal not in ("raise", "terminate"):
            raise ValueError('illegal must be "raise" or "terminate"')
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.reward_fn: RewardFn = reward
        self.render_mode = render_mode
        self.max_moves = max_moves
        self.codec = ActionCodec(self.rules)
        self.encoder = ObservationEncoder(self.rules)
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        self.agents = self.possible_agents[:]
        space = spaces.Dict(
            {
                "observation": spaces.Box(0, self.encoder.high, dtype=np.int8),
                "action_mask": spaces.Box(0, 1, (self.codec.size,), dtype=np.int8),
            }
        )
        self.observation_spaces = {
            a: space if i == 0 else _copy(space) for i, a in enumerate(self.possible_agents)
        }
        self.action_spaces = {a: spaces.Discrete(self.codec.size) for a in self.possible_agents}
        self._deals = random.Random(seed)
        self.game: Game | None = None

    # --- the AEC API -----------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            self._deals = random.Random(seed)
        game = (options or {}).get("game")
        if isinstance(game, Game):
            self.game = Game.from_dict(game.to_dict())
        else:
            shuffle = self._deals.randrange(2**32)
            self.game = Game(list(self.possible_agents), self.rules, seed=shuffle, lang=self.lang)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.moves = 0
        self._known = KnownCards(len(self.agents))
        self._seen: dict[str, tuple[tuple[int, bool], np.ndarray, np.ndarray]] = {}
        self._legal: tuple[int, dict[int, Action]] | None = None
        self.agent_selection = self.agents[self.game.current_player]

    def observe(self, agent: str) -> dict:
        """The seat's encoded observation and, for the seat to move, its action mask (new
        arrays on every call: a caller may keep or change them)."""
        done = self.terminations.get(agent, True) or self.truncations.get(agent, True)
        key = (self.moves, done)  # a seat that is done has no move, whoever ended the deal
        cached = self._seen.get(agent)
        if cached is None or cached[0] != key:
            seat = self._seats[agent]
            seen = self.game.observation(seat)
            hand = sorted_hand(seen["hand"])
            observation = self.encoder.encode(seen, self._known.update(seen["log"]), hand)
            to_move = not done and seat == seen["current_player"] and seen["phase"] != "over"
            mask = self.codec.mask_of(self.legal_moves(hand) if to_move else ())
            cached = self._seen[agent] = (key, observation, mask)
        return {"observation": cached[1].copy(), "action_mask": cached[2].copy()}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        move = None if action is None else self.legal_moves().get(int(action))
        if move is None:
            if self.illegal == "raise":
                raise RuleError("env_illegal_action", self.lang, number=action)
            self._end_for_illegal_move(agent)
            return
        self.play(move)

    def _end_for_illegal_move(self, agent: str) -> None:
        """PettingZoo's ``TerminateIllegalWrapper``, step for step: every seat is done, the
        mover gets ``illegal_reward``, the others 0."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0.0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self.illegal_reward
        self._accumulate_rewards()
        self._deads_step_first()

    # --- beyond the API --------------------------------------------------------------------

    def legal_moves(self, hand: list[Card] | None = None) -> dict[int, Action]:
        """The seat to move's legal moves by number: ``Game.legal_actions()`` encoded (``hand``:
        that seat's hand in slot order, when the caller has it)."""
        if self._legal is not None and self._legal[0] == self.moves:
            return self._legal[1]
        game = self.game
        if hand is None:
            hand = slot_order(game.hand(game.current_player))
        moves = self.codec.numbers(game.legal_actions(), hand)
        self._legal = (self.moves, moves)
        return moves

    def play(self, move: Action) -> None:
        """Play an engine ``Action`` (a bot's, say) as the move of the seat to play: the same
        bookkeeping as ``step``. An illegal one raises ``RuleError`` and changes nothing."""
        agent = self.agent_selection
        game = self.game
        game.apply(move, player=game.current_player)
        self.moves += 1
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if game.phase == "over":
            result = game.result
            if not result.void:
                self.rewards = {
                    a: float(self.reward_fn(result, i)) for i, a in enumerate(self.agents)
                }
            self.terminations = dict.fromkeys(self.agents, True)
        elif self.max_moves is not None and self.moves >= self.max_moves:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = self.agents[game.current_player]
        self._accumulate_rewards()
        self._deads_step_first()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.game.current_player
        seen = self.game.observation(seat)
        if self.render_mode == "html":
            return table_html(seen, lang=self.lang)
        melds = [
            f"  {m['index']}: {Cards(DECK[c['id']] for c in m['cards'])}" for m in seen["melds"]
        ]
        return "\n".join([table_text(seen, lang=self.lang), *melds])

    def close(self) -> None:
        pass

    def __str__(self) -> str:
        return self.metadata["name"]


def _copy(space: spaces.Dict) -> spaces.Dict:
    """The same space as a new object: each agent's space is seeded on its own."""
    return spaces.Dict({k: spaces.Box(v.low, v.high, dtype=v.dtype) for k, v in space.items()})
