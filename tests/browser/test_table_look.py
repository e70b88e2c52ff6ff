"""The felt table in real JupyterLab: it fits the screen, the bots can be watched, cards can be
dragged, illegal melds say why, a teacher can replay. Screenshots go to test-artifacts/.

Like test_browser.py, a machine without Chromium skips this module with one line (an error
under CI=true).
"""

from __future__ import annotations

import re

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
#: Screens the project guide names: laptop, projector, a narrow screen, a laptop at 150% zoom
#: (1366×768 at 150%: a CSS viewport of about 911×512, 1.5 device pixels to a CSS pixel).
LAPTOP, PROJECTOR, NARROW, ZOOMED = (1366, 768), (1920, 1080), (700, 900), (911, 512)

BOXES_JS = """([parts, index]) => Object.fromEntries(parts.map(sel => {
  const root = document.querySelectorAll(".rw-root")[index];
  const r = root.querySelector(sel).getBoundingClientRect();
  return [sel, [r.left, r.top, r.right, r.bottom]];
}))"""

#: Texts a learner reads, each of which must be whole: not cut by its own box or by a box
#: around it that hides what overflows. Seats, piles, melds and cards stay inside the table.
LABELS = (
    ".rw-seat-head > *, .rw-pile-name, .rw-caption, .rw-title > *, .rw-mine-head > *,"
    " .rw-owner-name, .rw-btn, .rw-drawer > summary, .rw-why > summary"
)
CLIPPED_JS = """labels => {
  const cut = [];
  for (const root of document.querySelectorAll(".rw-root")) {
    for (const el of root.querySelectorAll(labels)) {
      if (!el.getClientRects().length) continue;  // not shown (display: none)
      const r = el.getBoundingClientRect();
      const own = getComputedStyle(el).display !== "inline" && el.scrollWidth > el.clientWidth + 1;
      let outside = false;
      for (let a = el.parentElement; a && a !== root.parentElement; a = a.parentElement) {
        if (getComputedStyle(a).overflowX === "visible") continue;
        const b = a.getBoundingClientRect();
        outside ||= r.left < b.left - 1 || r.right > b.right + 1;
      }
      if (own || outside) cut.push(`${el.className || el.tagName}: ${el.textContent.trim()}`);
    }
    const edge = root.getBoundingClientRect();
    for (const el of root.querySelectorAll(".rw-seat, .rw-pile, .rw-meld, .rw-hand .rw-card")) {
      const r = el.getBoundingClientRect();
      if (r.left < edge.left || r.right > edge.right) cut.push(`${el.className} beyond the table`);
    }
  }
  return cut;
}"""


def open_cell(page, server, name: str, source: str, lang: str = "en") -> TablePage:
    server.write_notebook(name, [source])
    open_notebook(page, server, name)
    run_cell(page, 0)
    table = TablePage(page, lang)
    table.wait_rendered()
    return table


def assert_on_screen(page, width: int, height: int, index: int = 0) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.locator(".rw-root").nth(index).scroll_into_view_if_needed()
    page.wait_for_function(f"() => window.innerWidth === {width}")
    boxes = page.evaluate(BOXES_JS, [list(PARTS), index])
    for part, (left, top, right, bottom) in boxes.items():
        assert left >= 0 and right <= width and top >= 0 and bottom <= height, (part, boxes)


def clipped_labels(page) -> list[str]:
    """The labels of every table on the page that are cut off (none, on a good table)."""
    return page.evaluate(CLIPPED_JS, LABELS)


def set_in_drawer(table: TablePage, setting: str, value: str | bool) -> None:
    """Change a setting in the table's drawer (a choice or a tick), then close the drawer."""
    table.root.locator(".rw-drawer > summary").click()
    field = table.root.locator(f"[data-rw-set={setting}]")
    if isinstance(value, bool):
        field.set_checked(value)
    else:
        field.select_option(value)
    table.root.locator(".rw-drawer > summary").click()
    expect(table.root.locator(".rw-drawer-body")).to_be_hidden()


def set_large(table: TablePage, large: bool) -> None:
    """size="large" on or off, from the drawer as a teacher would."""
    set_in_drawer(table, "size", large)
    expect(table.root).to_have_class(re.compile(r"\brw-large\b" if large else r"^(?!.*rw-large)"))


def switch_language(table: TablePage, lang: str) -> None:
    """Choose the table's language in its drawer."""
    set_in_drawer(table, "lang", lang)
    table.lang = lang
    expect(table.root).to_have_attribute("lang", lang)
    expect(table.button("ui.stock")).to_have_count(1)


@pytest.mark.parametrize(
    ("front_end", "players", "theme"),
    [
        ("lab", 4, "JupyterLab Light"),
        ("lab", 4, "JupyterLab Dark"),
        ("lab", 2, "JupyterLab Light"),
        ("lab", 2, "JupyterLab Dark"),
        ("notebook7", 4, "JupyterLab Dark"),
        ("notebook7", 2, "JupyterLab Light"),
    ],
)
def test_the_table_fits_every_screen_in_both_languages(front_end, players, theme, request, browser):
    """Hand, piles, actions and the message line are on screen at 1366×768 and 1920×1080
    without scrolling the notebook; every label is whole at 700 px and at 150% zoom; axe finds
    nothing serious; in English and Finnish. Screenshots of each: table-4p-1366-dark-fi.png."""
    server = request.getfixturevalue(front_end)
    context = browser.new_context(viewport={"width": LAPTOP[0], "height": LAPTOP[1]})
    page = context.new_page()
    shade = "dark" if "Dark" in theme else "light"
    where = "" if front_end == "lab" else "-nb7"
    try:
        args = table_args(opponents=["basic"] * (players - 1), seed=5)
        with server.theme(theme):
            name = f"fit-{players}-{shade}.ipynb"
            table = open_cell(page, server, name, table_cell(args))
            expect(page.locator("body")).to_have_attribute(
                "data-jp-theme-light", "false" if shade == "dark" else "true"
            )
            for lang in ("en", "fi"):
                if lang != table.lang:
                    page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
                    switch_language(table, lang)
                shot = f"table-{players}p-{{}}-{shade}-{lang}{where}"
                for width, height in (LAPTOP, PROJECTOR):
                    assert_on_screen(page, width, height)
                    assert clipped_labels(page) == [], (width, lang)
                    screenshot(page, shot.format(width))
                    if width == LAPTOP[0]:
                        assert serious_violations(page) == [], lang
                if players == 4:  # a teacher's projector: size="large" from the drawer
                    set_large(table, True)
                    assert_on_screen(page, *PROJECTOR)
                    assert clipped_labels(page) == [], ("large", lang)
                    screenshot(page, shot.format("1920-large"))
                    set_large(table, False)
                page.set_viewport_size({"width": NARROW[0], "height": NARROW[1]})
                page.wait_for_function(f"() => window.innerWidth === {NARROW[0]}")
                expect(table.root.locator(".rw-hand")).to_be_visible()
                box = table.root.locator(".rw-actions").bounding_box()
                assert box and box["x"] + box["width"] <= NARROW[0]
                assert clipped_labels(page) == [], ("700 px", lang)
                table.root.scroll_into_view_if_needed()
                screenshot(page, shot.format(NARROW[0]))
    finally:
        context.close()


#: For a part of the table: the points of its box (corners and centre) where something else is
#: on top, or that are off the screen; none, when the learner sees the whole part.
COVERED_JS = """el => {
  const r = el.getBoundingClientRect();
  const points = [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3],
                  [r.right - 3, r.bottom - 3], [(r.left + r.right) / 2, (r.top + r.bottom) / 2]];
  return points.filter(([x, y]) => {
    const hit = document.elementFromPoint(x, y);
    return !(hit && el.contains(hit));
  }).map(p => p.map(Math.round));
}"""


#: The parts' boxes in the table's own coordinates (scrolling moves them all alike).
IN_TABLE_JS = """(root, parts) => {
  const at = root.getBoundingClientRect();
  return Object.fromEntries(parts.map(sel => {
    const r = root.querySelector(sel).getBoundingClientRect();
    return [sel, [r.left - at.left, r.top - at.top, r.right - at.left, r.bottom - at.top]];
  }));
}"""


def assert_reachable(table: TablePage) -> None:
    """Each of hand, piles, message line and actions scrolls into view whole and uncovered; none
    overlaps another, and the message line sits right above the actions."""
    for part in PARTS:
        found = table.root.locator(part)
        found.scroll_into_view_if_needed()
        assert found.evaluate(COVERED_JS) == [], part
    boxes = table.root.evaluate(IN_TABLE_JS, list(PARTS))
    names = list(boxes)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            (l1, t1, r1, b1), (l2, t2, r2, b2) = boxes[a], boxes[b]
            assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, (a, b, boxes)
    line, actions = boxes[".rw-line"], boxes[".rw-actions"]
    assert 0 <= actions[1] - line[3] <= 16, (line, actions)


@pytest.mark.parametrize(
    ("front_end", "theme"),
    [("lab", "JupyterLab Light"), ("lab", "JupyterLab Dark"), ("notebook7", "JupyterLab Light")],
)
def test_at_150_percent_zoom_everything_is_reachable_and_a_turn_plays(
    front_end, theme, request, browser
):
    """1366×768 at 150% zoom: hand, piles, message line and actions each scroll into view whole,
    none covers another, no label is cut, in English and Finnish; then a whole turn with the
    mouse, checked against Python. Screenshots: table-4p-150pct-light-fi.png."""
    server = request.getfixturevalue(front_end)
    context = browser.new_context(
        viewport={"width": ZOOMED[0], "height": ZOOMED[1]}, device_scale_factor=1.5
    )
    page = context.new_page()
    shade = "dark" if "Dark" in theme else "light"
    where = "" if front_end == "lab" else "-nb7"
    try:
        args = table_args(opponents=["basic"] * 3, seed=5)
        with server.theme(theme):
            table = open_cell(page, server, f"zoom-{shade}.ipynb", table_cell(args))
            assert page.evaluate("devicePixelRatio") == 1.5
            for lang in ("en", "fi"):
                if lang != table.lang:
                    switch_language(table, lang)
                assert clipped_labels(page) == [], lang
                assert_reachable(table)
                table.root.locator(".rw-actions").scroll_into_view_if_needed()
                screenshot(page, f"table-4p-150pct-{shade}-{lang}{where}")
            shadow = Shadow(args)
            shadow.lang = shadow.table.lang = "fi"
            table.wait_for(shadow.expected())
            for _ in range(20):
                action = shadow.next_action()
                table.click_move(action)
                shadow.apply(action)
                table.wait_for(shadow.expected())
                if action.kind == "discard":
                    break
            assert shadow.kinds[0] == "draw" and shadow.kinds[-1] == "discard", shadow.kinds
            assert len(shadow.game.history) > len(shadow.kinds)  # the bots played too
    finally:
        context.close()


def test_why_beside_the_hint_gives_the_reason_in_both_languages(lab, page):
    """Hint, then Why?: the bot's detailed reason opens in the message line, under the hint,
    covering nothing (over the hand it hid the cards it talks about): the hand, the piles and
    the line's top stay, the buttons move down; it follows the table's language; an error
    hides it."""
    args = table_args(opponents=["basic"] * 3, seed=5)
    table = open_cell(page, lab, "why.ipynb", table_cell(args))
    shadow = Shadow(args)
    table.wait_for(shadow.expected())
    table.button("ui.hint").click()
    assert shadow.table.handle_intent({"type": "hint", "rev": shadow.table.view["rev"]})
    hint = shadow.table.view["hint"]
    line = table.root.locator(".rw-line")
    expect(line.locator(".rw-hint")).to_have_text(hint["text"])
    why, reason = line.locator(".rw-why > summary"), line.locator(".rw-why > p")
    expect(why).to_have_text(t("ui.why", "en"))
    expect(reason).to_be_hidden()
    before = page.evaluate(BOXES_JS, [list(PARTS), 0])
    why.click()
    expect(reason).to_have_text(hint["why"])
    after = page.evaluate(BOXES_JS, [list(PARTS), 0])
    for part in (".rw-hand", ".rw-piles"):
        assert after[part] == before[part], (part, before, after)
    assert after[".rw-line"][1] == before[".rw-line"][1]
    assert reason.evaluate(COVERED_JS) == []  # whole, nothing over it
    box, hint_at = reason.bounding_box(), line.locator(".rw-hint").bounding_box()
    assert box["y"] >= hint_at["y"] + hint_at["height"], (box, hint_at)
    assert box["y"] + box["height"] <= after[".rw-actions"][1], (box, after)
    assert serious_violations(page) == []
    screenshot(page, "table-why-en", table.root)
    switch_language(table, "fi")
    shadow.table.lang = "fi"
    hint = shadow.table.view["hint"]
    expect(why).to_have_text(t("ui.why", "fi"))
    expect(reason).to_have_text(hint["why"])  # still open, now in Finnish
    expect(line.locator(".rw-hint")).to_have_text(hint["text"])
    screenshot(page, "table-why-fi", table.root)
    table.button("ui.discard").click(force=True)  # before drawing: an error takes the line
    expect(table.alert()).to_have_text(t("error.draw_first", "fi"))
    expect(why).to_be_hidden()
    expect(reason).to_be_hidden()


#: Tables of 2, 3 and 4 players whose opponents have all melded (the longest seat labels), in
#: both languages and in the large size, shown in one cell.
LABEL_TABLES = """from IPython.display import display
from rummy_widget import Game
from rummy_widget.table.widget import RummyTable

HANDS = ["7H 8H 9H 5C KS 2D 4S", "AS 2S 3S 5S 6S 7S 8S 9S 10S JS",
         "AD 3D 4D 5D 6D 7D 8D 9D 10D JD", "AC 2C 3C 4C 6C 7C 8C 9C 10C JC"]
MELDS = [("KH KD KC", 1), ("4H 5H 6H", 2), ("AH 2H 3H", 3)]


def table(players, lang, size="normal"):
    game = Game.from_layout(hands=HANDS[:players], stock="QD QH QS", discard="QC",
                            melds=MELDS[:players - 1])
    return RummyTable(game=game, opponents=["basic"] * (players - 1), lang=lang, size=size)


display(*[table(n, lang) for n in (2, 3, 4) for lang in ("en", "fi")],
        table(4, "en", "large"), table(4, "fi", "large"))"""


def test_no_label_is_cut_at_700_px(lab, browser):
    """At 700 px (JupyterLab's file browser open beside the notebook), seat names, card counts,
    "has melded", pile names and captions and the buttons are whole: 2, 3 and 4 players, both
    languages, normal and large."""
    # Opened wide: at 700 px JupyterLab's status bar hides the kernel's status open_notebook
    # waits on.
    context = browser.new_context(viewport={"width": LAPTOP[0], "height": NARROW[1]})
    page = context.new_page()
    try:
        lab.write_notebook("labels.ipynb", [LABEL_TABLES])
        open_notebook(page, lab, "labels.ipynb")
        run_cell(page, 0)
        expect(page.locator(".rw-root .rw-board")).to_have_count(8)
        page.set_viewport_size({"width": NARROW[0], "height": NARROW[1]})
        page.wait_for_function(f"() => window.innerWidth === {NARROW[0]}")
        notes = page.locator(".rw-seat .rw-note")
        expect(notes.filter(has_text=t("ui.player_melded", "fi"))).to_have_count(1 + 2 + 3 + 3)
        assert clipped_labels(page) == []
        screenshot(page, "table-4p-700-large-fi", page.locator(".rw-root").last)
        screenshot(page, "table-3p-700-fi", page.locator(".rw-root").nth(3))
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


@pytest.mark.parametrize("front_end", ["lab", "notebook7"])
def test_bots_are_watchable_open_hands_stay_up_and_the_log_never_runs_ahead(
    front_end, request, page
):
    server = request.getfixturevalue(front_end)
    args = {"opponents": ["basic", "basic"], "seed": 3, "reveal": True, "bot_speed": "fast"}
    table = open_cell(page, server, f"watch-{front_end}.ipynb", table_cell(args))
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
            elif e.get("card"):  # open hands name the card drawn from the stock
                card = str(Card(e["card"]["id"]))
                parts.append(t("ui.caption.draw_stock_card", "en", name=name, card=card))
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


@pytest.mark.parametrize("front_end", ["lab", "notebook7"])
@pytest.mark.parametrize("touch", [False, True], ids=["mouse", "touch"])
def test_drag_and_drop_reorders_melds_lays_off_and_discards(front_end, request, browser, touch):
    server = request.getfixturevalue(front_end)
    context = browser.new_context(viewport={"width": 1366, "height": 900}, has_touch=touch)
    page = context.new_page()
    try:
        table = open_cell(page, server, f"drag-{touch}.ipynb", LESSON)
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
        where = "" if front_end == "lab" else "-nb7"
        screenshot(page, f"table-dragged-{'touch' if touch else 'mouse'}{where}")
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


@pytest.mark.parametrize(("front_end", "lang"), [("lab", "en"), ("lab", "fi"), ("notebook7", "fi")])
def test_an_illegal_meld_names_the_rule_in_the_tables_language(front_end, request, page, lang):
    """The reasons in the table's language, then in the other one after switching: both
    languages in each front end."""
    server = request.getfixturevalue(front_end)
    source = ROYAL.format(rules="rummy_royal", lang=lang)
    table = open_cell(page, server, f"reason-{lang}.ipynb", source, lang)
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
    screenshot(page, f"table-reason-{lang}{'' if front_end == 'lab' else '-nb7'}", table.root)
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


@pytest.mark.parametrize("front_end", ["lab", "notebook7"])
def test_replay_controls_for_a_teacher(front_end, request, page):
    server = request.getfixturevalue(front_end)
    server.write_notebook("replay.ipynb", [REPLAY])
    open_notebook(page, server, "replay.ipynb")
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
    # The bar names the move at hand: after 6 moves, move 7 (docs/widget.md, "One move numbering").
    position = root.locator(".rw-replay-pos")
    expect(position).to_have_text(t("ui.replay.step", "en", n=7, total=total))
    root.get_by_role("button", name=t("ui.replay.last", "en"), exact=True).click()
    expect(position).to_have_text(t("ui.replay.end", "en", total=total))
    root.get_by_role("button", name=t("ui.replay.first", "en"), exact=True).click()
    expect(position).to_have_text(t("ui.replay.step", "en", n=1, total=total))
    root.get_by_role("button", name=t("ui.replay.play", "en"), exact=True).click()
    expect(position).to_have_text(t("ui.replay.step", "en", n=4, total=total))
    screenshot(page, f"table-replay{'' if front_end == 'lab' else '-nb7'}", table.root)


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


OPEN_HANDS = """from IPython.display import display
from rummy_widget import Game
from rummy_widget.table.widget import RummyTable

# The opponents hold 11, 12 and 14 cards: a bot's hand just after its draw, and more.
HANDS = ["2S 3S 4S 5S 6S 7S 8S 9S 10S JS", "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH",
         "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC 10D"]


def table(players, size):
    game = Game.from_layout(hands=HANDS[:players], stock="KS QS", discard="AS")
    bots = ["basic", "expert", "master"][: players - 1]
    return RummyTable(game=game, opponents=bots, size=size, reveal=True)


display(*[table(n, size) for size in ("normal", "large") for n in (2, 3, 4)])"""

#: The cards of an open hand that are not wholly inside their seat's box, seat by seat.
CARDS_OUT_JS = """() => [...document.querySelectorAll(".rw-seat")].map((seat) => {
  const s = seat.getBoundingClientRect();
  const cards = [...seat.querySelectorAll(".rw-fan .rw-card")];
  const out = cards.filter((c) => {
    const r = c.getBoundingClientRect();
    return r.left < s.left - 0.5 || r.right > s.right + 0.5
      || r.top < s.top || r.bottom > s.bottom + 0.5;
  });
  return [cards.length, out.length, Math.round(cards[0]?.getBoundingClientRect().width ?? 0)];
})"""


def test_every_card_of_an_open_hand_is_inside_its_seat(lab, browser):
    """reveal=True on the projector cut each opponent's fan at its seat's edge (the tenth card
    half hidden, the eleventh invisible). 2, 3 and 4 players, normal and large, 1366, 1920 and
    700 px wide: every card of every open hand is inside its seat."""
    context = browser.new_context(viewport={"width": PROJECTOR[0], "height": PROJECTOR[1]})
    page = context.new_page()
    try:
        lab.write_notebook("open-hands.ipynb", [OPEN_HANDS])
        open_notebook(page, lab, "open-hands.ipynb")
        run_cell(page, 0)
        expect(page.locator(".rw-root .rw-board")).to_have_count(6)
        for width, height in (PROJECTOR, LAPTOP, NARROW):
            page.set_viewport_size({"width": width, "height": height})
            page.wait_for_function(f"() => window.innerWidth === {width}")
            for index in range(6):
                page.locator(".rw-root").nth(index).scroll_into_view_if_needed()
            seats = page.evaluate(CARDS_OUT_JS)
            assert [n for n, _, _ in seats] == [11, 11, 12, 11, 12, 14] * 2, seats
            assert [out for _, out, _ in seats] == [0] * 12, (width, seats)
            if width == PROJECTOR[0]:
                normal, large = seats[3][2], seats[6][2]
                assert large >= normal * 1.4, seats  # the back row reads the large table
            name = f"table-open-hands-4p-large-{width}"
            screenshot(page, name, page.locator(".rw-root").last)
        page.set_viewport_size({"width": LAPTOP[0], "height": LAPTOP[1]})
        screenshot(page, "table-open-hands-4p-1366", page.locator(".rw-root").nth(2))
    finally:
        context.close()


MANY_MELDS = """from rummy_widget import Game
from rummy_widget.table.widget import RummyTable

game = Game.from_layout(
    hands=["QS QH QD 5C 6C 7C 9S 9H 9C 2D 3D 4D JH", "5S 6S 7S 8C JC 10C 2C"],
    melds=[("KH KD KC", 1), ("4H 5H 6H", 1), ("AS 2S 3S", 1), ("8D 9D 10D", 1)],
    stock="4C 3C 8H", discard="KS",
)
table = RummyTable(game=game, opponents=["basic"], bot_speed="instant")
table"""

#: Where the hand and the buttons are, from the table's top (the notebook may scroll).
HAND_AT_JS = """root => ["rw-mine", "rw-line", "rw-actions"].map((c) => Math.round(
  root.querySelector("." + c).getBoundingClientRect().top - root.getBoundingClientRect().top))"""


@pytest.mark.parametrize("size", [PROJECTOR, LAPTOP])
def test_melds_filling_the_felt_never_move_the_hand(lab, browser, size):
    """The table grew as melds wrapped (738 to 936 px at 1920×1080 with 8 melds), moving the
    hand and the buttons 200 px down mid-deal. Four melds to eight: they stay where they were,
    and every meld is on the felt."""
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    try:
        table = open_cell(page, lab, f"melds-{size[0]}.ipynb", MANY_MELDS)
        table.root.scroll_into_view_if_needed()
        before = table.root.evaluate(HAND_AT_JS)
        table.button("ui.stock").click()
        melds = table.root.locator(".rw-meld")
        for n, codes in enumerate(["QS QH QD", "5C 6C 7C", "9S 9H 9C", "2D 3D 4D"], start=5):
            for code in codes.split():
                table.card(card_id(code)).click()
            table.button("ui.meld").click()
            expect(melds).to_have_count(n)
            assert table.root.evaluate(HAND_AT_JS) == before, (n, before)
        felt = table.root.locator(".rw-middle").bounding_box()
        for box in (m.bounding_box() for m in melds.all()):
            assert felt["y"] <= box["y"] and box["y"] + box["height"] <= felt["y"] + felt["height"]
        screenshot(page, f"table-8-melds-{size[0]}", table.root)
    finally:
        context.close()


FINISHED = """from rummy_widget import Game
from rummy_widget.bots import get_bot
from rummy_widget.table.widget import RummyTable

game = Game(players=4, seed=11, lang="fi")
bot = get_bot("basic", seed=1)
while game.phase != "over":
    game.apply(bot.act(game.observation(game.current_player)), player=game.current_player)
table = RummyTable(game=game, opponents=["basic"] * 3, lang="fi", deals=3)
table"""

#: Scoreboard cells outside the table, and melds the scoreboard lies over.
SCORE_JS = """root => {
  const edge = root.getBoundingClientRect();
  const score = root.querySelector(".rw-score").getBoundingClientRect();
  const cut = [...root.querySelectorAll(".rw-score th, .rw-score td")].filter((c) => {
    const r = c.getBoundingClientRect();
    return r.right > edge.right || r.left < edge.left || c.scrollWidth > c.clientWidth + 1;
  }).map((c) => c.textContent);
  const covered = [...root.querySelectorAll(".rw-meld")].filter((m) => {
    const r = m.getBoundingClientRect();
    return r.left < score.right && r.right > score.left
      && r.top < score.bottom && r.bottom > score.top;
  }).length;
  return {cut, covered};
}"""


@pytest.mark.parametrize("size", [NARROW, LAPTOP, PROJECTOR])
def test_the_scoreboard_fits_beside_the_final_melds_and_closes(lab, browser, size):
    """The end-of-deal scoreboard lay over the final melds, could not be closed, and at 700 px
    its "Match total" column was cut. Four players in Finnish (the longest headers): every
    cell inside the table, no meld under it; its heading closes it and opens it again."""
    context = browser.new_context(viewport={"width": LAPTOP[0], "height": size[1]})
    page = context.new_page()
    try:
        table = open_cell(page, lab, f"score-{size[0]}.ipynb", FINISHED, "fi")
        page.set_viewport_size({"width": size[0], "height": size[1]})
        page.wait_for_function(f"() => window.innerWidth === {size[0]}")
        board = table.root.get_by_role("region", name=t("ui.scoreboard", "fi"))
        expect(board.locator("tbody tr")).to_have_count(4)
        expect(board.get_by_text(t("ui.score.total", "fi"))).to_be_visible()
        assert table.root.evaluate(SCORE_JS) == {"cut": [], "covered": 0}
        table.root.scroll_into_view_if_needed()
        screenshot(page, f"table-scoreboard-{size[0]}-fi", table.root)
        board.locator("summary").click()
        expect(board.locator("table")).to_be_hidden()
        board.locator("summary").click()
        expect(board.locator("table")).to_be_visible()
    finally:
        context.close()
