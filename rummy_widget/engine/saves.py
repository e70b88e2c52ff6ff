"""Reading a saved game: the whole save is checked before any game is built from it.

``Game.to_dict`` writes the starting position and every move; ``read_save`` checks that form
field by field (types, seats, every card exactly once, melds that are melds, rules in range)
and gives back the parts ``Game.from_dict`` builds from, or raises ``RuleError("bad_save")``
saying what is wrong. Whether the moves can be played is checked by replaying them.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ..errors import Reason, RuleError
from ..i18n import LANGUAGES
from .actions import Action
from .cards import DECK, DECK_SIZE, Card
from .inputs import excerpt, is_whole
from .melds import Meld
from .rules import Rules

SAVE_FORMAT = "rummy_widget.game"
SAVE_VERSION = 1
_PILES = ("stock", "discard", "out_of_play")


@dataclass
class Save:
    """A checked save: its piles list their top card first, as the save writes them."""

    rules: Rules
    players: list[str]
    seed: int
    lang: str
    hands: list[list[Card]]
    stock: list[Card]
    discard: list[Card]
    melds: list[Meld]
    out_of_play: list[Card]
    dealer: int
    current_player: int
    has_melded: list[bool]
    history: list[tuple[int, Action]]


def read_save(data: object, lang: str) -> Save:
    """The checked parts of a save, or ``RuleError("bad_save")`` in ``lang``."""
    if (
        not isinstance(data, dict)
        or data.get("format") != SAVE_FORMAT
        or data.get("version") != SAVE_VERSION
    ):
        reason = Reason("save_format", format=SAVE_FORMAT, version=SAVE_VERSION)
        raise RuleError("bad_save", lang, reason=reason)
    save_lang, rules, players = _heading(data, lang)
    count = len(players)
    seed = data.get("seed")
    _need(is_whole(seed) and seed >= 0, lang, "seed", seed)
    init = data.get("initial")
    _need(isinstance(init, dict), lang, "initial", init)
    for name in ("dealer", "current_player"):
        value = init.get(name)
        _need(is_whole(value) and 0 <= value < count, lang, f"initial.{name}", value)
    melded = init.get("has_melded")
    _need(
        isinstance(melded, list)
        and len(melded) == count
        and all(isinstance(m, bool) for m in melded),
        lang,
        "initial.has_melded",
        melded,
    )
    hands = init.get("hands")
    _need(isinstance(hands, list) and len(hands) == count, lang, "initial.hands", hands)
    hands = [_ids(h, lang, f"initial.hands[{i}]") for i, h in enumerate(hands)]
    _need(all(hands), lang, "initial.hands", init.get("hands"))
    piles = {name: _ids(init.get(name), lang, f"initial.{name}") for name in _PILES}
    melds, meld_ids = _table(init.get("melds"), rules, count, lang)
    _check_every_card_once([i for ids in [*hands, *piles.values(), meld_ids] for i in ids], lang)
    return Save(
        rules=rules,
        players=list(players),
        seed=seed,
        lang=save_lang,
        hands=[[DECK[i] for i in h] for h in hands],
        stock=[DECK[i] for i in piles["stock"]],
        discard=[DECK[i] for i in piles["discard"]],
        melds=melds,
        out_of_play=[DECK[i] for i in piles["out_of_play"]],
        dealer=init["dealer"],
        current_player=init["current_player"],
        has_melded=list(melded),
        history=_history(data.get("history"), count, lang),
    )


def _heading(data: dict, lang: str) -> tuple[str, Rules, list]:
    """A save's language, rules and players' names, checked."""
    save_lang = data.get("lang", "en")
    _need(save_lang in LANGUAGES, lang, "lang", save_lang)
    try:
        rules = Rules.from_dict(data.get("rules"))
    except RuleError as err:
        reason = Reason("save_rules", why=err.localized(lang))
        raise RuleError("bad_save", lang, reason=reason) from err
    players = data.get("players")
    _need(
        isinstance(players, list)
        and all(isinstance(p, str) for p in players)
        and rules.min_players <= len(players) <= rules.max_players,
        lang,
        "players",
        players,
    )
    return save_lang, rules, players


def _table(table: object, rules: Rules, count: int, lang: str) -> tuple[list[Meld], list[int]]:
    """The melds on the table of a save's starting position, and their card ids."""
    _need(isinstance(table, list), lang, "initial.melds", table)
    melds, meld_ids = [], []
    for i, item in enumerate(table):
        where = f"initial.melds[{i}]"
        _need(isinstance(item, dict), lang, where, item)
        owner = item.get("owner")
        _need(is_whole(owner) and 0 <= owner < count, lang, f"{where}.owner", owner)
        ids = _ids(item.get("cards"), lang, f"{where}.cards")
        made = Meld.make([DECK[i] for i in ids], rules, owner)
        _need(made is not None, lang, f"{where}.cards", item.get("cards"))
        melds.append(made)
        meld_ids += ids
    return melds, meld_ids


def _history(steps: object, count: int, lang: str) -> list[tuple[int, Action]]:
    _need(isinstance(steps, list), lang, "history", steps)
    out = []
    for number, step in enumerate(steps):
        where = f"history[{number}]"
        _need(isinstance(step, dict), lang, where, step)
        player = step.get("player")
        _need(is_whole(player) and 0 <= player < count, lang, f"{where}.player", player)
        try:
            action = Action.from_json(step.get("action"))
        except RuleError:
            raise _bad(lang, f"{where}.action", step.get("action")) from None
        out.append((player, action))
    return out


def _ids(value: object, lang: str, field: str) -> list[int]:
    """A list of card ids 0..103."""
    _need(
        isinstance(value, list) and all(is_whole(i) and 0 <= i < DECK_SIZE for i in value),
        lang,
        field,
        value,
    )
    return value


def _check_every_card_once(ids: list[int], lang: str) -> None:
    counts = Counter(ids)
    for i in range(DECK_SIZE):
        if counts[i] != 1:
            reason = Reason("save_card_count", card=f"{DECK[i]} ({i})", count=counts[i])
            raise RuleError("bad_save", lang, reason=reason)


def _need(ok: bool, lang: str, field: str, value: object) -> None:
    if not ok:
        raise _bad(lang, field, value)


def _bad(lang: str, field: str, value: object) -> RuleError:
    return RuleError(
        "bad_save", lang, reason=Reason("save_field", field=field, value=excerpt(value))
    )
