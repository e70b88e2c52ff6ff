"""The felt table in real JupyterLab: it fits the screen, the bots can be watched, cards can be
dragged, illegal melds say why, a teacher can replay. Screenshots go to test-artifacts/.

Like test_browser.py, a machine without Chromium skips this module with one line (an error
under CI=true).
"""

from __future__ import annotations

import pytest
from browser_support import browser_missing, in_ci, open_notebook, run_cell, screenshot

if browser_missing():
    if in_ci():
        raise RuntimeError(f"CI=true, and the browser tests need {browser_missing()}")
    pytest.skip(f"browser tests need {browser_missing()}", allow_module_level=True)

from browser_support import serious_violations
from playwright.sync_api import expect
from table_driver import Shadow, TablePage, table_args, table_cell

from rummy_widget.engine.cards import Card, card_name
from rummy_widget.i18n import t

#: The parts of the table that must be on screen without scrolling.
PARTS = (".rw-hand", ".rw-piles", ".rw-actions", ".rw-line")

BOXES_JS = """parts => Object.fromEntries(parts.map(sel => {
  const r = document.querySelector(".rw-root " + sel).getBoundingClientRect();
  return [sel, [r.left, r.top, r.right, r.bottom]];
}))"""


def open_cell(page, server, name: str, source: str, lang: str = "en") -> TablePage:
    server.write_notebook(name, [source])
    open_notebook(page, server, name)
    run_cell(page, 0)
    table = TablePage(page, lang)
    table.wait_rendered()
    return table


def assert_on_screen(page, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.locator(".rw-root").first.scroll_into_view_if_needed()
    page.wait_for_function(f"() => window.innerWidth === {width}")
    boxes = page.evaluate(BOXES_JS, list(PARTS))
    for part, (left, top, right, bottom) in boxes.items():
        assert left >= 0 and right <= width and top >= 0 and bottom <= height, (part, boxes)


@pytest.mark.parametrize(
    ("players", "theme", "lang"),
    [(2, "JupyterLab Light", "en"), (4, "JupyterLab Dark", "fi"), (4, "JupyterLab Light", "en")],
)
def test_the_table_fits_laptop_and_projector_screens(lab, browser, players, theme, lang):
    """Hand, piles, actions and the message line are on screen at 1366×768 and 1920×1080
    inside JupyterLab without scrolling the notebook; axe finds nothing serious."""
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    try:
        args = table_args(lang=lang, opponents=["basic"] * (players - 1), seed=5)
        with lab.theme(theme):
            table = open_cell(page, lab, f"fit-{players}-{lang}.ipynb", table_cell(args), lang)
            shade = "dark" if "Dark" in theme else "light"
            for width, height in ((1366, 768), (1920, 1080)):
                assert_on_screen(page, width, height)
                screenshot(page, f"table-{players}p-{width}x{height}-{shade}-{lang}")
            assert serious_violations(page) == []
            page.set_viewport_size({"width": 700, "height": 900})
            expect(table.root.locator(".rw-hand")).to_be_visible()
            box = table.root.locator(".rw-actions").bounding_box()
            assert box and box["x"] + box["width"] <= 700
            screenshot(page, f"table-{players}p-700-{shade}-{lang}")
    finally:
        context.close()


#: Starts recording every frame until the bots' animation is over; read window.__frames.
WATCH_JS = """root => { window.__frames = new Promise(resolve => {
  const frames = [];
  let moved = false;
  const tick = () => {
    const state = root.dataset.rwState;
    frames.push({
      state,
      backs: root.querySelectorAll(".rw-seat .rw-back").length,
      log: root.querySelectorAll(".rw-log li").length,
      status: root.querySelector(".rw-status")?.textContent ?? "",
      hand: Math.round(root.querySelector(".rw-hand").getBoundingClientRect().top),
      actions: Math.round(root.querySelector(".rw-actions").getBoundingClientRect().top),
    });
    moved ||= state === "animating";
    if ((moved && state === "idle") || frames.length > 3000) resolve(frames);
    else requestAnimationFrame(tick);
  };
  tick();
}); }"""


def test_bots_are_watchable_open_hands_stay_up_and_the_log_never_runs_ahead(lab, page):
    args = {"opponents": ["basic", "basic"], "seed": 3, "reveal": True, "bot_speed": "fast"}
    table = open_cell(page, lab, "watch.ipynb", table_cell(args))
    shadow = Shadow(args)
    table.root.get_by_text(t("ui.menu", "en"), exact=True).click()  # the log is in the drawer
    expect(table.root).to_have_attribute("data-rw-state", "idle")
    base = table.root.locator(".rw-log li").count()
    table.button("ui.stock").click()
    shadow.apply(draw := shadow.next_action())
    assert draw.kind == "draw"
    expect(table.root).to_have_attribute("data-rw-state", "idle")
    base += 1
    discard = next(a for a in shadow.game.legal_actions() if a.kind == "discard")
    table.card(discard.card.id).first.click()
    table.root.evaluate(WATCH_JS)
    table.button("ui.discard").click()
    frames = page.evaluate("() => window.__frames")
    shadow.apply(discard)
    steps = shadow.table.view["steps"]
    assert len(steps) >= 4  # both bots draw and discard
    animated = [f for f in frames if f["state"] == "animating"]
    assert animated, frames[:5]
    assert all(f["backs"] == 0 for f in frames), "an open hand went face down"
    # No layout jumps while the bots play: the hand and the actions stay where they are.
    assert len({f["hand"] for f in frames}) == 1, sorted({f["hand"] for f in frames})
    assert len({f["actions"] for f in frames}) == 1, sorted({f["actions"] for f in frames})
    # While step k is captioned, the log holds the moves up to step k and no further.
    names = [p["name"] for p in shadow.table.view["players"]]
    shown_through = {}
    count = base + 1  # the learner's discard
    for step in steps:
        count += len(step["events"])
        shown_through.setdefault(caption(step, names), count)
    for frame in animated:
        if frame["status"] in shown_through:
            assert frame["log"] == min(shown_through[frame["status"]], frame["log"]), frame
            assert frame["log"] <= shown_through[frame["status"]], frame
    assert {f["status"] for f in animated} & set(shown_through)
    expect(table.root.locator(".rw-status")).to_have_text(t("ui.turn.draw", "en"))


def caption(step: dict, names: list[str]) -> str:
    """The English caption the front end shows for a bot's move (board.ts captionText)."""
    from rummy_widget.engine.cards import Card

    parts = []
    for e in step["events"]:
        name = names[step["actor"]]
        if e["type"] == "draw":
            if e["source"] == "discard":
                card = str(Card(e["card"]["id"]))
                parts.append(t("ui.caption.draw_discard", "en", name=name, card=card))
            else:
                parts.append(t("ui.caption.draw_stock", "en", name=name))
        elif e["type"] == "discard":
            card = str(Card(e["card"]["id"]))
            parts.append(t("ui.caption.discard", "en", name=name, card=card))
        elif e["type"] == "meld":
            cards = " ".join(str(Card(c["id"])) for c in e["cards"])
            parts.append(t("ui.caption.meld", "en", name=name, cards=cards))
        elif e["type"] == "lay_off":
            card = str(Card(e["card"]["id"]))
            index = e["meld_index"] + 1
            parts.append(t("ui.caption.lay_off", "en", name=name, card=card, index=index))
    return " · ".join(parts)


LESSON = """from rummy_widget import Game
from rummy_widget.table.widget import RummyTable

game = Game.from_layout(
    hands=["7H 8H 9H 5C KS 2D 4S", "3D 4D 5D 6C 6S 9S 10S"],
    stock="QC JD 10C",
    discard="9C",
    melds=[("2C 3C 4C", 1)],
)
table = RummyTable(game=game, opponents=["basic"], bot_speed="instant")
table"""


def drag(page, source, target, touch: bool = False, at: float = 0.5) -> None:
    """Press on ``source``, move past the threshold in steps, release over ``target`` (``at``
    of its width from the left: hand cards overlap, so their left part is what shows)."""
    a, b = source.bounding_box(), target.bounding_box()
    x0, y0 = a["x"] + a["width"] * 0.3, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] * at, b["y"] + b["height"] / 2
    if not touch:
        page.mouse.move(x0, y0)
        page.mouse.down()
        for i in range(1, 9):
            page.mouse.move(x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8)
        page.mouse.up()
        return
    cdp = page.context.new_cdp_session(page)

    def touch_event(kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y, "id": 1}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch_event("touchStart", x0, y0)
    for i in range(1, 9):
        touch_event("touchMove", x0 + (x1 - x0) * i / 8, y0 + (y1 - y0) * i / 8)
    touch_event("touchEnd", x1, y1)
    cdp.detach()


@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
def test_drag_and_drop_reorders_melds_lays_off_and_discards(lab, browser, touch):
    context = browser.new_context(viewport={"width": 1366, "height": 900}, has_touch=touch)
    page = context.new_page()
    try:
        table = open_cell(page, lab, f"drag-{touch}.ipynb", LESSON)
        ids = {code: card_id(code) for code in ("7H", "8H", "9H", "5C", "KS", "2D", "4S")}
        order = table.hand_order()
        first, last = order[0], order[-1]
        drag(page, table.card(last), table.card(first), touch, at=0.15)  # reorder the hand
        new = table.hand_order()
        assert new[0] == last and new[1:] == order[:-1], (order, new)
        table.button("ui.stock").click()
        expect(table.root.locator(".rw-hand [data-card]")).to_have_count(8)
        for code in ("7H", "8H", "9H"):
            table.card(ids[code]).click()
        drag(page, table.card(ids["8H"]), table.root.locator(".rw-melds"), touch)  # meld
        expect(table.root.locator(".rw-meld")).to_have_count(2)
        drag(page, table.card(ids["5C"]), table.meld(0), touch, at=0.8)  # lay off
        expect(table.root.locator(".rw-hand [data-card]")).to_have_count(4)
        drag(page, table.card(ids["KS"]), table.button("ui.discard_pile"), touch)  # discard
        expect(table.root.locator(".rw-pile .rw-caption").nth(1)).not_to_have_text(
            t("ui.discard_top", "en", card="9 of clubs")
        )
        expect(table.card(ids["KS"])).to_have_count(0)
        screenshot(page, f"table-dragged-{'touch' if touch else 'mouse'}")
    finally:
        context.close()


def card_id(code: str) -> int:
    from rummy_widget.engine.cards import Card

    return Card.parse(code).id


ROYAL = """from rummy_widget import Game
from rummy_widget.table.widget import RummyTable

game = Game.from_layout(
    hands=["KS KD KD QH KH AH 2C", "5C 6C 7C 8S 9S 10S 2S"],
    stock="9D 3C", discard="4H", rules="{rules}",
)
table = RummyTable(game=game, opponents=["basic"], bot_speed="instant", lang="{lang}")
table"""


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_an_illegal_meld_names_the_rule_in_the_tables_language(lab, page, lang):
    source = ROYAL.format(rules="rummy_royal", lang=lang)
    table = open_cell(page, lab, f"reason-{lang}.ipynb", source, lang)
    table.button("ui.stock").click()
    hand = table.root.locator(".rw-hand [data-card]")
    expect(hand).to_have_count(8)
    kings = table.root.locator(".rw-hand").get_by_role(
        "button", name=card_name(Card.parse("KD"), lang), exact=True
    )
    table.card(card_id("KS")).click()
    kings.first.click()
    table.button("ui.meld").click(force=True)  # two cards: Python names the rule
    expect(table.alert()).to_contain_text(t("ui.reason.too_few", lang, n=3))
    kings.nth(1).click()
    table.button("ui.meld").click()
    expect(table.alert()).to_contain_text(t("ui.reason.set_suits", lang))
    screenshot(page, f"table-reason-{lang}", table.root)
    other = "fi" if lang == "en" else "en"
    table.root.get_by_text(t("ui.menu", lang), exact=True).click()
    table.root.locator("[data-rw-set=lang]").select_option(other)
    expect(table.alert()).to_contain_text(t("ui.reason.set_suits", other))


REPLAY = """from rummy_widget import Game
from rummy_widget.bots import get_bot
from rummy_widget.table.widget import RummyTable

game = Game(2, seed=4)
bots = [get_bot("basic", seed=1), get_bot("basic", seed=2)]
while game.phase != "over":
    seat = game.current_player
    game.apply(bots[seat].act(game.observation(seat)), player=seat)
replay = RummyTable.replay(game, seat=1, bot_speed="fast")
print(len(game.history))
replay"""


def test_replay_controls_for_a_teacher(lab, page):
    lab.write_notebook("replay.ipynb", [REPLAY])
    open_notebook(page, lab, "replay.ipynb")
    run_cell(page, 0)
    table = TablePage(page)
    table.wait_rendered()
    total = int(page.locator(".jp-OutputArea-output pre").first.inner_text().strip())
    root = table.root
    expect(root.get_by_role("slider", name="Move")).to_have_attribute("max", str(total))
    for name in ("Meld", "Lay off", "Discard", "Hint"):
        expect(root.get_by_role("button", name=name, exact=True)).to_have_count(0)
    expect(root.get_by_text("Player 2's hand")).to_be_visible()
    nxt = root.get_by_role("button", name=t("ui.replay.next", "en"), exact=True)
    for _ in range(6):  # rapid clicks: none is dropped
        nxt.click()
    expect(root.locator(".rw-replay-pos")).to_have_text(t("ui.replay.step", "en", n=6, total=total))
    root.get_by_role("button", name=t("ui.replay.last", "en"), exact=True).click()
    expect(root.locator(".rw-replay-pos")).to_have_text(
        t("ui.replay.step", "en", n=total, total=total)
    )
    root.get_by_role("button", name=t("ui.replay.first", "en"), exact=True).click()
    expect(root.locator(".rw-replay-pos")).to_have_text(t("ui.replay.step", "en", n=0, total=total))
    root.get_by_role("button", name=t("ui.replay.play", "en"), exact=True).click()
    expect(root.locator(".rw-replay-pos")).to_have_text(t("ui.replay.step", "en", n=3, total=total))
    screenshot(page, "table-replay", table.root)


GO_OUT = """from rummy_widget import Game
from rummy_widget.table.widget import RummyTable

game = Game.from_layout(hands=["7H 8H 9H", "3D 4D 5D 6C 6S"], stock="QC JD 10S", discard="9C")
table = RummyTable(game=game, opponents=["basic"], bot_speed="instant")
table"""


def test_after_going_out_the_focus_stays_in_the_table(lab, page):
    """The last card leaves the hand: the focus moves to the end-of-deal button (Next deal or
    Play again), not to the page, so the keyboard goes on at once."""
    table = open_cell(page, lab, "go-out.ipynb", GO_OUT)
    table.button("ui.stock").click()
    expect(table.root.locator(".rw-hand [data-card]")).to_have_count(4)
    for code in ("7H", "8H", "9H"):
        table.card(card_id(code)).click()
    table.button("ui.meld").click()
    expect(table.root.locator(".rw-hand [data-card]")).to_have_count(1)
    table.card(card_id("QC")).focus()
    page.keyboard.press("Space")
    page.keyboard.press("d")
    again = table.button("ui.play_again")
    expect(again).to_be_focused()
    expect(table.root.locator(".rw-celebrate")).to_have_count(1)
    screenshot(page, "table-went-out", table.root)
    page.keyboard.press("Escape")  # ends the celebration early
    expect(table.root.locator(".rw-celebrate")).to_have_count(0)
    page.keyboard.press("Enter")  # Play again: the lesson starts over
    expect(table.root.locator(".rw-hand [data-card]")).to_have_count(3)
