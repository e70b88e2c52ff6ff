"""Playing the card table in a real page, checked move by move against Python.

The test process keeps a *shadow* table: a ``RummyTable`` with the same arguments as the one in
the kernel. Tables are seeded, so both deal the same cards and their bots make the same moves.
Each learner move is decided on the shadow, made on the page with the mouse (or the keyboard),
then applied to the shadow; the page must then show exactly what the shadow's view says. The
learner plays like the basic bot, except that it lays off whenever a lay-off is legal.
"""

from __future__ import annotations

import json

from rummy_widget.bots import get_bot
from rummy_widget.engine.actions import Action
from rummy_widget.engine.cards import Card, card_name
from rummy_widget.i18n import t
from rummy_widget.table.widget import RummyTable

#: A seed whose deal is short (12 learner moves) and has the learner meld twice, lay off
#: twice and go out: every kind of move, with the basic bot as the opponent.
PLAY_SEED = 19
#: How long one move may take to show on the page (Python round trip plus bots).
MOVE_TIMEOUT_MS = 15_000

#: What the page shows now, read from the DOM only.
SNAPSHOT_JS = """root => {
  const text = sel => (root.querySelector(sel)?.textContent ?? "").trim();
  const all = sel => [...root.querySelectorAll(sel)];
  const captions = all(".rw-pile .rw-caption").map(e => e.textContent.trim());
  return {
    hand: all(".rw-hand [data-card]").map(e => +e.dataset.card).sort((a, b) => a - b),
    melds: root.querySelectorAll(".rw-meld").length,
    stock: captions[0] ?? "",
    pile: captions[1] ?? "",
    status: text(".rw-status"),
  };
}"""


def table_args(lang: str = "en", seed: int = PLAY_SEED, **extra: object) -> dict:
    return {"opponents": ["basic"], "seed": seed, "bot_speed": "instant", "lang": lang, **extra}


def table_cell(args: dict) -> str:
    call = ", ".join(f"{k}={v!r}" for k, v in args.items())
    return f"from rummy_widget.table.widget import RummyTable\n\ntable = RummyTable({call})\ntable"


#: Prints the Python side of the table, for comparison with the page.
STATE_CELL = """g = table.game
print("phase", g.phase)
print("rev", table.view["rev"])
print("moves", len(g.history))
print("hand", *sorted(c.id for c in g.hand(0)))
if g.result is not None:
    print("winner", g.result.winner)
    print("penalties", *g.result.penalties)
    print("totals", *table.match.totals)"""


class Shadow:
    """The test's own copy of the kernel's table, and the learner's policy."""

    def __init__(self, args: dict) -> None:
        self.table = RummyTable(**args)
        self.lang = args.get("lang", "en")
        self.policy = get_bot("basic", seed=999)
        self.kinds: list[str] = []

    @property
    def game(self):
        return self.table.game

    def next_action(self) -> Action:
        """The basic bot's move, but lay off whenever a lay-off is legal."""
        action = self.policy.act(self.game.observation(0))
        if not isinstance(action, Action):
            action = Action.from_json(action)
        if action.kind == "discard":
            lay_offs = [a for a in self.game.legal_actions() if a.kind == "lay_off"]
            if lay_offs:
                return lay_offs[0]
        return action

    def apply(self, action: Action) -> None:
        intent = {"type": "action", "rev": self.table.view["rev"], "action": action.to_json()}
        assert self.table.handle_intent(intent), self.table.view["message"]
        self.kinds.append(action.kind)

    def refuse(self, action: Action) -> str:
        """Offer an illegal move to the shadow: it must refuse; return the message it shows."""
        rev = self.table.view["rev"]
        intent = {"type": "action", "rev": rev, "action": action.to_json()}
        assert not self.table.handle_intent(intent), f"{action} was not refused"
        assert self.table.view["rev"] == rev
        return self.table.view["message"]["text"]

    def illegal_meld(self) -> Action:
        """Three cards of the hand that do not make a meld."""
        legal = {frozenset(a.cards) for a in self.game.legal_actions() if a.kind == "meld"}
        hand = list(self.game.hand(0))
        for i, a in enumerate(hand):
            for j in range(i + 1, len(hand)):
                for b in hand[j + 1 :]:
                    trio = frozenset((a, hand[j], b))
                    if len(trio) == 3 and trio not in legal:
                        return Action("meld", cards=tuple(sorted(trio)))
        raise AssertionError("every three cards of the hand make a meld")

    def expected(self) -> dict:
        """The snapshot the page must show for the shadow's current view."""
        view, lang = self.table.view, self.lang
        top = view["discard_pile"][0] if view["discard_pile"] else None
        if view["phase"] == "over":
            status = t("ui.turn.over", lang)
        elif view["current_player"] != 0:
            name = view["players"][view["current_player"]]["name"]
            status = t("ui.turn.other", lang, name=name)
        else:
            status = t("ui.turn.draw" if view["phase"] == "draw" else "ui.turn.play", lang)
        return {
            "hand": sorted(c["id"] for c in view["hand"]),
            "melds": len(view["melds"]),
            "stock": t("ui.stock_count", lang, n=view["stock_size"]),
            "pile": t("ui.discard_top", lang, card=card_name(Card(top["id"]), lang))
            if top
            else t("ui.pile_empty", lang),
            "status": status,
        }


def wears_its_sheet(board) -> bool:
    """The table's own style sheet applies to this board (js/src/styles.ts adopts it): the
    board is a flex column, which it is not unstyled."""
    return board.evaluate("b => getComputedStyle(b).flexDirection") == "column"


class TablePage:
    """The table as rendered in a page, found by the widget's root element."""

    def __init__(self, page, lang: str = "en") -> None:
        self.page = page
        self.lang = lang
        self.root = page.locator(".rw-root").first

    def wait_rendered(self, timeout: int = MOVE_TIMEOUT_MS) -> None:
        """The table is drawn and wears its own style sheet (adopted by the page or, in marimo,
        by the shadow root: js/src/styles.ts): the board is a flex column."""
        board = self.root.locator(".rw-board")
        board.wait_for(timeout=timeout)
        assert wears_its_sheet(board)

    def button(self, key: str):
        """A control by its accessible name, from the translation table."""
        return self.root.get_by_role("button", name=t(key, self.lang), exact=True)

    def card(self, card_id: int):
        return self.root.locator(f'.rw-hand [data-card="{card_id}"]')

    def meld(self, index: int):
        return self.root.locator(f'.rw-meld[data-meld="{index}"]')

    def alert(self):
        return self.root.get_by_role("alert")

    def snapshot(self) -> dict:
        return self.root.evaluate(SNAPSHOT_JS)

    def hand_order(self) -> list[int]:
        return self.root.locator(".rw-hand [data-card]").evaluate_all(
            "els => els.map(e => +e.dataset.card)"
        )

    def wait_for(self, expected: dict) -> None:
        """Wait until the page shows ``expected``; fail with both sides if it never does."""
        handle = self.root.element_handle()
        try:
            self.page.wait_for_function(
                f"([root, want]) => JSON.stringify(({SNAPSHOT_JS})(root)) === want",
                arg=[handle, json.dumps(expected, separators=(",", ":"), ensure_ascii=False)],
                timeout=MOVE_TIMEOUT_MS,
            )
        except Exception as err:
            raise AssertionError(
                f"page never showed the Python side's table\n"
                f"  expected: {expected}\n  page:     {self.snapshot()}"
            ) from err

    def click_move(self, action: Action) -> None:
        """Make one move with the mouse: select cards, pick a meld, press the button."""
        if action.kind == "draw":
            self.button("ui.stock" if action.source == "stock" else "ui.discard_pile").click()
            return
        cards = action.cards if action.kind == "meld" else (action.card,)
        for c in cards:
            self.card(c.id).first.click()
        if action.kind == "meld":
            self.button("ui.meld").click()
        elif action.kind == "lay_off":
            self.meld(action.meld_index).click()
            self.button("ui.lay_off").click()
        else:
            self.button("ui.discard").click()

    # --- keyboard ---------------------------------------------------------------------------

    def focused(self) -> dict:
        return self.page.evaluate(
            """() => { const e = document.activeElement;
                       return {card: e?.dataset?.card ?? null, meld: e?.dataset?.meld ?? null}; }"""
        )

    def key_to_card(self, card_id: int) -> None:
        """Move the focus along the hand with the arrow keys until it is on ``card_id``."""
        order = self.hand_order()
        here = self.focused()["card"]
        assert here is not None, "the focus is not on a card of the hand"
        steps = order.index(card_id) - order.index(int(here))
        for _ in range(abs(steps)):
            self.page.keyboard.press("ArrowRight" if steps > 0 else "ArrowLeft")
        assert self.focused()["card"] == str(card_id)

    def key_select(self, card_id: int) -> None:
        from playwright.sync_api import expect

        self.key_to_card(card_id)
        self.page.keyboard.press("Space")
        expect(self.card(card_id)).to_have_attribute("aria-pressed", "true")

    def key_move(self, action: Action) -> None:
        """Make one move with the keyboard alone, as docs/widget.md describes."""
        keys = self.page.keyboard
        if action.kind == "draw":
            keys.press("s" if action.source == "stock" else "p")
            return
        cards = action.cards if action.kind == "meld" else (action.card,)
        for c in cards:
            self.key_select(c.id)
        if action.kind == "meld":
            keys.press("m")
        elif action.kind == "discard":
            keys.press("d")
        else:  # lay off: back from the hand (Shift+Tab) to the target meld, Space, then L
            for _ in range(40):
                if self.focused()["meld"] == str(action.meld_index):
                    break
                keys.press("Shift+Tab")
            assert self.focused()["meld"] == str(action.meld_index)
            keys.press("Space")
            keys.press("l")

    def play_deal(self, shadow: Shadow, max_moves: int = 200) -> None:
        """Play the learner's moves with the mouse until the deal is over."""
        self.wait_for(shadow.expected())
        for _ in range(max_moves):
            if shadow.game.phase == "over":
                return
            action = shadow.next_action()
            self.click_move(action)
            shadow.apply(action)
            self.wait_for(shadow.expected())
        raise AssertionError(f"the deal did not end in {max_moves} learner moves")
