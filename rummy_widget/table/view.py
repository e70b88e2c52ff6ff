"""The card table as one seat sees it: the only game state the widget syncs to the browser.

Anything synced to the front end can be read in the browser's devtools and saved into the
notebook, so the view is built from ``game.observation(seat)`` (never another hand or the
stock's order) plus extras that are public or the seat's own: a revision number, the hand's
penalty, the scoreboard, a hint, a message, the rules table and the bots' moves to animate.
Only ``reveal=True`` (the teacher's open-hands demo) adds the other hands.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache

from ..display.log_words import worded
from ..engine.actions import Action
from ..engine.cards import Card
from ..engine.game import Game
from ..engine.rules import Rules
from ..i18n import t, you_text
from ..solver import best_arrangement


@dataclass
class Extras:
    """What the widget adds to an observation: all of it public or the seat's own."""

    rev: int = 0
    mode: str = "play"  # "play" or "replay"
    reveal: bool = False
    message: dict | None = None  # {"id", "kind", "text"}, already localized
    hint: dict | None = None  # {"action": ..., "text": ..., "why": ...}, already localized
    steps: list[dict] = field(default_factory=list)  # bots' moves since the learner's
    replay: dict | None = None  # {"step", "total"}
    take_back: bool | None = None  # None: not offered; else whether it is allowed now
    review: dict | None = None  # {"summary", "items"}: the seat's review, localized


def table_snapshot(obs: dict) -> dict:
    """The public part of the table, small enough to send once per animated bot move."""
    pile = obs["discard_pile"]
    return {
        "players": [
            {"hand_size": p["hand_size"], "has_melded": p["has_melded"]} for p in obs["players"]
        ],
        "current_player": obs["current_player"],
        "stock_size": obs["stock_size"],
        "discard_top": pile[0] if pile else None,
        "discard_size": len(pile),
        "melds": obs["melds"],
    }


def step_view(obs: dict, events: list, actor: int, hands: list | None = None) -> dict:
    """One move to animate: who moved, its public events and the public table after it.

    ``hands`` (every hand, only for the teacher's open-hands demo) keeps open hands face up
    at every frame of the animation.
    """
    table = table_snapshot(obs)
    if hands is not None:
        table["hands"] = [[c.to_json() for c in hand] for hand in hands]
    return {"actor": actor, "events": list(events), "table": table}


def drawn_message(rev: int, card: Card, source: str) -> dict:
    """The card a seat just drew, sent to that seat's screen ahead of its view.

    The view (built, sent and drawn after this) takes the table a few milliseconds more; the
    learner's eyes are on the hand, so the card goes there first (docs/widget.md, "The drawn
    card first"). Only the seat's own card: this goes nowhere else.
    """
    return {"type": "drawn", "rev": rev, "card": card.to_json(), "source": source}


def cards_penalty(hand: Sequence[Card], rules: Rules) -> int | None:
    """The same from the cards themselves (a classroom seat has only its observation)."""
    try:
        return int(best_arrangement(hand, rules).penalty)
    except Exception:  # a solver bug must not break the table
        return None


def action_view(action: Action) -> dict:
    """An action with whole cards (not bare ids), for the hint; only the seat's own cards."""
    data: dict = {"type": action.kind}
    if action.kind == "draw":
        data["source"] = action.source
    elif action.kind == "meld":
        data["cards"] = [c.to_json() for c in action.cards]
    else:
        data["card"] = action.card.to_json()
        if action.kind == "lay_off":
            data["meld_index"] = action.meld_index
    return data


def hint_view(hint: dict | None, rev: int, lang: str) -> dict | None:
    """A stored hint in ``lang`` while the position it was given for is on screen, else None.

    ``hint`` holds the action, the position's ``rev`` and its texts as functions of the language,
    so a language switch rewords it."""
    if hint is None or hint["rev"] != rev:
        return None
    return {
        "action": action_view(hint["action"]),
        "text": hint["text"](lang),
        "why": hint["why"](lang),
    }


def rules_view(rules: Rules, lang: str) -> dict:
    """The rules table in ``lang``: a new dict each time, its texts made once per rules and
    language (every view carries it, and the learner's move waits for the view)."""
    return dict(_rules_table(rules, lang))


@lru_cache(maxsize=32)
def _rules_table(rules: Rules, lang: str) -> dict:
    description = rules.describe(lang)
    # The keyboard help rides with the rules table (synced only when the language changes),
    # so its long text is not in the front end's bundle.
    return {
        "name": rules.name,
        "title": description.title,
        "rows": tuple(tuple(row) for row in description.rows),
        "keys": t("ui.keys", lang),
    }


def scoreboard_view(game: Game, match=None) -> dict | None:
    """Penalties of the finished deal and, in a match, the running totals."""
    result = game.result
    if result is None:
        return None
    board = result_board(result.winner, result.rummy, result.void, result.penalties, game.rules)
    if match is not None:  # the widget records each finished deal in the match at once
        board.update(
            deal=match.deal_number, deals=match.deals, totals=match.totals, match_over=match.over
        )
    return board


def result_board(
    winner: int | None, rummy: bool, void: bool, penalties: Sequence[int], rules: Rules
) -> dict:
    """One finished deal's scoreboard, as if it were the whole match."""
    return {
        "winner": winner,
        "rummy": rummy,
        "void": void,
        "bonus": rules.rummy_bonus if rummy else 0,
        "penalties": list(penalties),
        "deal": 1,
        "deals": 1,
        "totals": list(penalties),
        "match_over": True,
    }


def score_texts(board: dict, names: Sequence[str], you: int, lang: str) -> dict:
    """The scoreboard's sentences, so the front end's bundle carries none of them."""
    winner = board["winner"]
    if board["void"]:
        outcome = t("ui.result.void", lang)
    else:
        key = "ui.result.rummy" if board["rummy"] else "ui.result.out"
        outcome = you_text(key, lang, winner == you, name=names[winner or 0], bonus=board["bonus"])
    standing = None
    if board["match_over"]:
        totals = board["totals"]
        leader = totals.index(min(totals))
        standing = you_text("ui.match_over", lang, leader == you, name=names[leader])
    return {"outcome": outcome, "standing": standing}


def deal_view(match=None) -> dict:
    """Which deal of the match this is (a lesson or a replay is deal 1 of 1)."""
    if match is None:
        return {"number": 1, "total": 1}
    return {"number": match.deal_number, "total": match.deals}


def build_view(
    game: Game,
    seat: int,
    lang: str,
    extras: Extras,
    match=None,
    names: Sequence[str] | None = None,
) -> dict:
    """The JSON-ready view the widget syncs for ``seat``."""
    hands = None
    if extras.reveal:
        hands = [[c.to_json() for c in game.hand(i)] for i in range(game.players)]
    return observation_view(
        game.observation(seat),
        game.rules,
        lang,
        extras,
        scoreboard_view(game, match),
        deal_view(match),
        names,
        hands,
    )


def observation_view(
    obs: dict,
    rules: Rules,
    lang: str,
    extras: Extras,
    board: dict | None,
    deal: dict,
    names: Sequence[str] | None = None,
    hands: list[list[dict]] | None = None,
) -> dict:
    """The view from one seat's observation alone: a local table's and a classroom seat's
    (``table/remote.py``) are built the same way. ``hands`` only for the open-hands demo."""
    seat = obs["seat"]
    players = obs["players"]
    if names is not None:
        players = [dict(p, name=n) for p, n in zip(players, names, strict=True)]
    if hands is not None:
        players = [dict(p, hand=hands[i]) if i != seat else p for i, p in enumerate(players)]
    you = seat if extras.mode == "play" else -1
    shown = list(names) if names is not None else [p["name"] for p in obs["players"]]
    if board is not None:
        board.update(score_texts(board, shown, you, lang))
    hand = [Card(c["id"]) for c in obs["hand"]]
    return {
        "mode": extras.mode,
        "rev": extras.rev,
        "seat": seat,
        "reveal": extras.reveal,
        "players": players,
        "dealer": obs["dealer"],
        "current_player": obs["current_player"],
        "phase": obs["phase"],
        "hand": obs["hand"],
        "penalty": cards_penalty(hand, rules),
        "stock_size": obs["stock_size"],
        "discard_pile": obs["discard_pile"],
        "melds": obs["melds"],
        "taken_from_discard": obs["taken_from_discard"],
        # The whole log, each move numbered as the review and the replay number it: the
        # drawer shows every move of the deal (docs/widget.md, "One move numbering").
        "log": worded(obs["log"], shown, lang, you, moves_before=0),
        "result": obs["result"],
        "scoreboard": board,
        "deal": deal,
        "rules": rules_view(rules, lang),
        "hint": extras.hint,
        "message": extras.message,
        "steps": [
            dict(step, events=worded(step["events"], shown, lang, you)) for step in extras.steps
        ],
        "replay": extras.replay,
        "take_back": extras.take_back,
        "review": extras.review,
        "pass": None,
    }
