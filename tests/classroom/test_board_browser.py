"""The teacher's board in headless Chromium: live tables, open hands on request, axe clean.

Screenshots for the projector go to test-artifacts/ as
``classroom-board-<state>-<width>-<theme>-<lang>.png``, at 1366x768 and 1920x1080, light and
dark: ``start`` (one table playing, one waiting, no deal finished; Finnish), ``deal2`` (three
tables of four in their second deal, the first deal's results, the standings; Finnish and
English), and one each of ``open-hands`` (1366, light) and ``finished`` (1920, light).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "browser"))
from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    browser_missing,
    in_ci,
    serious_violations,
)

from rummy_widget.classroom import Classroom, connect
from rummy_widget.i18n import t

from .players import play_all

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
pytestmark = pytest.mark.browser
#: The projector's sizes: a common laptop and a full-HD projector.
SIZES = {1366: {"width": 1366, "height": 768}, 1920: {"width": 1920, "height": 1080}}


def board(key: str, lang: str = "fi", **params) -> str:
    return t(f"classroom.board.{key}", lang, **params)


@pytest.fixture(scope="module")
def browser():
    missing = browser_missing()
    if missing:
        if in_ci():
            pytest.fail(f"the board's browser test needs {missing} (CI=true: not skipping)")
        pytest.skip(f"the board's browser test needs {missing}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=SIZES[1366])
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


def open_board(page, server, lang: str, dark: bool = False) -> None:
    page.emulate_media(color_scheme="dark" if dark else "light")
    page.goto(f"{server.url}/board?lang={lang}#key={server.key}")
    page.locator("article").first.wait_for()
    page.wait_for_function("document.body.dataset.updated")


def shoot(page, state: str, width: int, dark: bool, lang: str) -> None:
    page.emulate_media(color_scheme="dark" if dark else "light")
    page.set_viewport_size(SIZES[width])
    ARTIFACTS.mkdir(exist_ok=True)
    theme = "dark" if dark else "light"
    name = f"classroom-board-{state}-{width}-{theme}-{lang}.png"
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def columns(page) -> int:
    """How many table cards stand side by side (distinct left edges)."""
    return page.locator("article").evaluate_all(
        "cards => new Set(cards.map(c => Math.round(c.getBoundingClientRect().left))).size"
    )


def test_the_board_shows_every_table_live_and_passes_axe(server_factory, page):
    server = server_factory()
    Classroom(server.url, server.key).create_room("KETTU", players=2, deals=1)
    ann, bo = connect(server.url, "KETTU", "Ann"), connect(server.url, "KETTU", "Bo")
    connect(server.url, "KETTU", "Cy")  # table 2 waits for a second learner
    ann.wait(lambda s: s["view"] is not None)
    open_board(page, server, "fi")
    tables = page.locator("article")
    tables.nth(1).wait_for()
    assert tables.count() == 2
    assert "Ann" in tables.nth(0).inner_text()
    assert "Odotetaan pelaajia" in tables.nth(1).inner_text()
    assert page.locator("article li .card").count() == 0  # no hand shown without asking
    # No deal has finished: the standings say so instead of an empty table.
    panel = page.locator(".standings-panel")
    assert panel.get_by_role("heading", name=board("standings")).count() == 1
    assert panel.inner_text().endswith(board("no_results"))
    assert page.locator("table.standings").count() == 0
    # Nothing melded yet: the melds' line says so.
    melds = tables.nth(0).locator(".melds")
    assert melds.inner_text() == board("melds_none") and melds.locator(".card").count() == 0
    # The player to move: a badge in words and aria-current, on that seat only.
    mover, other = (ann, bo) if ann.my_turn() else (bo, ann)
    moving = tables.nth(0).locator("li[aria-current='true']")
    assert moving.count() == 1
    assert moving.locator(".to-move").inner_text().endswith(board("to_move"))
    assert mover.name in moving.inner_text() and other.name not in moving.inner_text()
    assert tables.nth(1).locator("li[aria-current]").count() == 0  # a waiting table: nobody
    for width in SIZES:
        for dark in (False, True):
            shoot(page, "start", width, dark, "fi")
            assert serious_violations(page, "main") == [], (width, dark)
    mover.act({"type": "draw", "source": "stock"})
    page.locator("article").first.get_by_text("siirrot 1").wait_for()  # live, by polling
    # The move log speaks the table's words, inside a <details> that stays open on refresh.
    log = tables.nth(0).locator("details.log")
    assert log.locator("summary").inner_text() == f"{board('log')} (1)"
    log.locator("summary").click()
    drew = t("log.draw_stock", "fi", name=mover.name)
    assert log.locator("li").all_inner_texts() == [drew]
    # The next move redraws the board: the log stays open with the focus on it, and the
    # marker moves to the other player.
    log.locator("summary").focus()
    hand = mover.wait(lambda s: s["move"] == 1)["view"]["hand"]
    mover.act({"type": "discard", "card": hand[0]["id"]})
    log.locator("summary").get_by_text(f"{board('log')} (2)").wait_for()
    assert page.evaluate("document.activeElement.textContent") == f"{board('log')} (2)"
    assert log.evaluate("d => d.open") and log.locator("li").count() == 2
    assert other.name in moving.inner_text() and mover.name not in moving.inner_text()
    page.get_by_label("Näytä kaikki kädet").check()
    assert page.locator("#open-warning").is_visible()
    page.wait_for_function("document.querySelectorAll('article li .card').length >= 20")
    assert log.evaluate("d => d.open")  # redrawn with the hands, and still open
    # Cards as the table shows them: rank and suit symbol, hearts and diamonds red, and the
    # Finnish card name for a screen reader.
    shown = page.locator("article li .card").evaluate_all(
        "cards => cards.map(c => [c.textContent, c.getAttribute('aria-label'),"
        " getComputedStyle(c).color])"
    )
    hands = Classroom(server.url, server.key).rooms(open_hands=True)[0]["tables"][0]["view"]
    codes = [c["code"] for hand in hands["hands"] for c in hand]
    symbols = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    assert [text for text, _, _ in shown] == [c[:-1] + symbols[c[-1]] for c in codes]
    red = {text for text, _, colour in shown if colour == "rgb(198, 40, 40)"}
    assert red == {text for text, _, _ in shown if text[-1] in "♥♦"}
    names = {label for _, label, _ in shown}
    assert all(label and label[0].islower() and " " not in label for label in names), names
    assert any(label.startswith(("pata", "hertta", "ruutu", "risti")) for label in names)
    shoot(page, "open-hands", 1366, False, "fi")
    assert serious_violations(page, "main") == []
    page.get_by_label("Näytä kaikki kädet").uncheck()
    page.wait_for_function("document.querySelectorAll('article li .card').length === 0")
    assert not page.locator("#open-warning").is_visible()
    page.get_by_role("button", name="Aloita nyt (botit tyhjille paikoille)").click()
    page.locator("article").nth(1).get_by_text("botti").first.wait_for()
    assert page.get_by_role("button", name=board("start")).count() == 0


def result_line(result: dict, lang: str) -> str:
    """What the board says of a finished deal, from the stored result."""
    deal = result["deal"] + 1
    if result["void"]:
        return board("result.void", lang, deal=deal)
    key = "result.rummy" if result["rummy"] else "result.out"
    out = board(key, lang, deal=deal, name=result["names"][result["winner"]])
    pairs = zip(result["names"], result["penalties"], strict=True)
    points = ", ".join(f"{name} {points}" for name, points in pairs)
    return f"{out} {board('result.penalties', lang, list=points)}"


def test_the_board_in_a_second_deal_shows_the_first_deals_results_and_the_standings(
    server_factory, page
):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("ILVES", players=4, deals=2)
    names = ("Aino", "Bo", "Cy", "Di", "Eetu", "Fanni", "Gia", "Heikki", "Iida")
    seats = [connect(server.url, "ILVES", name) for name in names]
    teacher.start("ILVES")  # table 3: Iida and three bots
    # Deal 1 to its end at every table, then a few moves of deal 2.
    play_all(seats, until=lambda s: s["deal"] == 1 and s["move"] >= 8)
    rooms = teacher.rooms()
    assert len(rooms[0]["tables"]) == 3
    for lang in ("fi", "en"):
        open_board(page, server, lang)
        tables = page.locator("article")
        for i, record in enumerate(rooms[0]["tables"]):
            card = tables.nth(i)
            meta = f"{board('deal', lang)} 2/2 · {board('moves', lang)}"
            assert card.locator(".meta").inner_text().lower().startswith(meta)
            # The first deal's result, in words, while the second is played.
            (done,) = record["results"]
            results = card.locator(".results")
            assert results.get_by_role("heading").inner_text() == board("results", lang)
            assert results.locator("li").all_inner_texts() == [result_line(done, lang)]
            assert card.locator("li[aria-current='true'] .to-move").count() == 1
        # The standings: a table, fewest penalty points per deal first, ranked.
        assert page.locator(".standings-panel").get_by_text(board("no_results", lang)).count() == 0
        table = page.get_by_role("table", name=board("standings", lang))
        expected = [s["name"] for s in rooms[0]["standings"]]
        assert table.locator("tbody th[scope='row']").all_inner_texts() == expected
        rows = [r.split("\t") for r in table.locator("tbody tr").all_inner_texts()]
        ranks = [int(r[0]) for r in rows]
        points = [int(r[4]) for r in rows]
        assert ranks[0] == 1 and ranks == sorted(ranks) and len(rows) == 12
        assert points == sorted(points)  # one deal each: fewest points first
        assert sum(points) == sum(sum(r["results"][0]["penalties"]) for r in rooms[0]["tables"])
        for width in SIZES:
            for dark in (False, True):
                shoot(page, "deal2", width, dark, lang)
                # The grid uses the width: two tables side by side at 1366, three at 1920.
                assert columns(page) == (2 if width == 1366 else 3), (width, columns(page))
                assert serious_violations(page, "main") == [], (lang, width, dark)
    # The dark theme is a real one: a dark page, light text.
    page.emulate_media(color_scheme="dark")
    colours = page.evaluate(
        "[getComputedStyle(document.body).backgroundColor, getComputedStyle(document.body).color]"
    )
    assert colours == ["rgb(15, 19, 17)", "rgb(238, 242, 239)"]
    # The type grows with the screen.
    sizes = {}
    for width in SIZES:
        page.set_viewport_size(SIZES[width])
        sizes[width] = page.evaluate(
            "parseFloat(getComputedStyle(document.documentElement).fontSize)"
        )
    assert 17 <= sizes[1366] < sizes[1920] and sizes[1920] >= 21


def test_the_board_without_the_key_shows_only_an_error(server_factory, page):
    server = server_factory()
    page.goto(f"{server.url}/board#key=wrong-key-wrong-key")
    page.get_by_role("alert").get_by_text("The teacher key is not valid.").wait_for()
    assert page.locator("article").count() == 0
    assert "key" not in page.url and page.get_by_label("Teacher key").is_visible()


def test_the_board_asks_for_the_key_once_and_keeps_it_out_of_the_address_bar(server_factory, page):
    server = server_factory("--room", "KETTU")
    connect(server.url, "KETTU", "Ann")
    page.goto(f"{server.url}/board?lang=fi")
    field = page.get_by_label(board("key_label"))
    field.wait_for()
    assert page.locator("article").count() == 0
    assert "--rotate-key" in page.locator("#key-help").inner_text()  # how to get a new one
    for dark in (False, True):
        shoot(page, "key", 1366, dark, "fi")
        assert serious_violations(page, "main") == []
    field.fill("wrong-key-wrong-key")
    field.press("Enter")
    page.get_by_role("alert").get_by_text("Opettajan avain ei kelpaa.").wait_for()
    field.fill(server.key)
    page.get_by_role("button", name=board("key_open")).click()
    page.locator("article").first.get_by_text("Ann", exact=True).wait_for()
    assert page.evaluate("sessionStorage.getItem('rummy-classroom-key')") == server.key
    page.reload()  # the same tab keeps the key: not asked again
    page.locator("article").first.get_by_text("Ann", exact=True).wait_for()
    assert not field.is_visible()
    # An address with the key in it (an old bookmark) opens the board and loses the key at
    # once: not in the address bar, not in the history entry, not in a reload.
    fresh = page.context.new_page()
    fresh.goto(f"{server.url}/board?lang=en#key={server.key}")
    fresh.locator("article").first.get_by_text("Ann", exact=True).wait_for()
    assert fresh.url == f"{server.url}/board?lang=en"
    assert fresh.evaluate("location.hash") == "" and server.key not in fresh.evaluate(
        "JSON.stringify(history.state) + location.href"
    )
    shoot(fresh, "key-taken", 1366, False, "en")
    fresh.close()


def test_the_projector_needs_no_key_and_shows_no_card_and_no_control(server_factory, page):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("KETTU", players=2, deals=1)
    ann, _bo = connect(server.url, "KETTU", "Ann"), connect(server.url, "KETTU", "Bo")
    connect(server.url, "KETTU", "Cy")
    ann.wait(lambda s: s["view"] is not None)
    for lang, width, dark in (("fi", 1920, True), ("en", 1366, False)):
        page.emulate_media(color_scheme="dark" if dark else "light")
        page.goto(f"{server.url}/projector?lang={lang}")
        page.locator("article").nth(1).wait_for()
        page.wait_for_function("document.body.dataset.updated")
        assert page.locator("h1").inner_text() == board("projector_title", lang)
        assert page.locator(".card").count() == 0  # no hand, no pile, no meld
        assert page.get_by_role("button").count() == 0  # no start, remove or close
        assert page.get_by_role("checkbox").count() == 0  # no "show every hand"
        assert page.locator("#key-form").is_hidden()
        assert board("projector_note", lang) in page.locator("#projector-note").inner_text()
        text = page.locator("article").nth(0).inner_text()
        assert "Ann" in text and board("playing", lang) in text
        shoot(page, "projector", width, dark, lang)
        assert serious_violations(page, "main") == []


def test_the_teacher_makes_a_room_removes_a_learner_and_closes_the_room_on_the_board(
    server_factory, page
):
    server = server_factory("--players", "2")
    page.on("dialog", lambda dialog: dialog.accept())  # the "are you sure?" questions
    open_board_empty(page, server, "fi")
    page.get_by_label(board("new_room")).fill("ILVES")
    page.get_by_role("button", name=board("create")).click()
    page.get_by_role("status").get_by_text(board("created", room="ILVES")).wait_for()
    page.get_by_role("heading", name=f"{board('room')} ILVES").wait_for()
    ann, bo = connect(server.url, "ILVES", "Ann"), connect(server.url, "ILVES", "Bo", "fi")
    bo.wait(lambda s: s["view"] is not None)
    remove = page.get_by_role("button", name=board("remove", name="Bo"))
    remove.click()
    page.locator("article").get_by_text(f"({board('control.removed')})").wait_for()
    (room,) = Classroom(server.url, server.key).rooms()
    assert room["tables"][0]["seats"][1]["control"] == "removed"
    shoot(page, "manage", 1366, False, "fi")
    page.get_by_role("button", name=board("close_room")).click()
    page.locator(".closed-mark").get_by_text(board("closed")).wait_for()
    assert page.get_by_role("button", name=board("close_room")).count() == 0
    assert Classroom(server.url, server.key).rooms()[0]["closed"]
    assert serious_violations(page, "main") == []
    ann.close()


def open_board_empty(page, server, lang: str) -> None:
    """The board of a server with no room yet (it says how to make one)."""
    page.goto(f"{server.url}/board?lang={lang}#key={server.key}")
    page.get_by_text(board("new_room", lang)).first.wait_for()
    page.wait_for_function("document.body.dataset.updated")


def test_the_board_keeps_two_learners_of_one_name_apart_by_their_table(server_factory, page):
    server = server_factory()
    teacher = Classroom(server.url, server.key)
    teacher.create_room("NIMET", players=2, deals=1)
    seats = [connect(server.url, "NIMET", name) for name in ("Alex", "Bo", "Alex", "Cy")]
    play_all(seats[:2])
    play_all(seats[2:])
    open_board(page, server, "fi")
    standings = page.locator("table.standings")
    standings.get_by_text("Alex (pöytä 2)").wait_for()
    names = standings.locator("tbody th[scope='row']").all_inner_texts()
    assert sorted(names) == ["Alex (pöytä 1)", "Alex (pöytä 2)", "Bo", "Cy"]
    tables = page.locator("article")
    for i in range(2):
        assert tables.nth(i).locator(".status").inner_text() == board("finished")
        assert tables.nth(i).locator("li[aria-current]").count() == 0  # the deal is over
    shoot(page, "finished", 1920, False, "fi")
    assert serious_violations(page, "main") == []
