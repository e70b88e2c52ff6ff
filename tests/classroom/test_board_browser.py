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
