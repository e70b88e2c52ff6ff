"""Static display: well-formed, accessible in both languages, hiding what a seat may not see."""

from __future__ import annotations

import re
import string
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from types import SimpleNamespace

import pytest

from rummy_widget.display import (
    FOUR_COLOURS,
    RANK_PATHS,
    SUIT_PATHS,
    Snippet,
    arrangement_html,
    card_back_html,
    card_html,
    cards_html,
    meld_html,
    result_html,
    rules_html,
    scoreboard_html,
    scoreboard_text,
    table_html,
    table_view,
)
from rummy_widget.engine.cards import (
    CARD_NAME_FORMS,
    RANK_TEXT,
    SUITS,
    Card,
    Cards,
    card_name,
    parse_cards,
)
from rummy_widget.engine.melds import Meld
from rummy_widget.engine.rules import Rules
from rummy_widget.i18n import LANGUAGES, t, table

LANGS = list(LANGUAGES)
EVIL = "<script>alert(1)</script>"


# --- helpers -------------------------------------------------------------------------------


class _Checker(HTMLParser):
    """Fails on a closing tag that does not match the open one (html.parser is lenient)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        pass

    def handle_endtag(self, tag):
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
        self.stack.pop()


def parse(markup: str) -> ET.Element:
    """Parse as HTML (balanced tags) and as XML (well-formed); return the XML tree."""
    checker = _Checker()
    checker.feed(markup)
    checker.close()
    assert checker.stack == []
    return ET.fromstring(f"<root>{markup}</root>")


def svgs(root: ET.Element, kind: str) -> list[ET.Element]:
    return [e for e in root.iter("svg") if f"rw-s-{kind}" in e.get("class", "").split()]


def names_to_faces(lang: str) -> dict[str, tuple[int, str]]:
    faces = [Card.of(rank, suit) for suit in SUITS for rank in range(1, 14)]
    return {card_name(c, lang): c.face for c in faces}


def faces_shown(markup: str, lang: str) -> list[tuple[int, str]]:
    """Read the card faces back from the accessible labels, in page order."""
    lookup = names_to_faces(lang)
    return [lookup[svg.get("aria-label")] for svg in svgs(parse(markup), "face")]


def text_of(root: ET.Element) -> str:
    return " ".join("".join(root.itertext()).split())


def J(text: str) -> list[dict]:
    return [c.to_json() for c in parse_cards(text)]


SEAT1_HAND = "KH QH JH 10C 9C 8C 4D 4S 2H 2D"


def observation(seat: int = 0, phase: str = "draw", result: dict | None = None, **extra) -> dict:
    """An observation for seat 0 of three, following docs/ARCHITECTURE.md."""
    obs = {
        "seat": seat,
        "rules": "traditional",
        "players": [
            {"name": "Ann", "hand_size": 7, "has_melded": True},
            {"name": "Bo", "hand_size": 10, "has_melded": False},
            {"name": "Cy", "hand_size": 4, "has_melded": True},
        ],
        "dealer": 2,
        "current_player": 1,
        "phase": phase,
        "hand": J("AS 2S 3S 9H 10H JD KC"),
        "stock_size": 60,
        "discard_pile": J("5C 6D"),
        "melds": [
            {"index": 0, "owner": 0, "kind": "run", "cards": J("4H 5H 6H")},
            {"index": 1, "owner": 2, "kind": "set", "cards": J("QS QC QD")},
            {"index": 2, "owner": 0, "kind": "set", "cards": J("7S 7H 7C")},
        ],
        "taken_from_discard": None,
        "rebuilds": 0,
        "log": [],
        "result": result,
    }
    obs.update(extra)
    return obs


def every_output(lang: str) -> list[str]:
    """One of everything the module draws, for checks that hold for all of it."""
    names = ["Ann", "Bo", "Cy"]
    arr = SimpleNamespace(
        melds=(tuple(parse_cards("AS 2S 3S")),),
        lay_offs=((Card.parse("8H"), 0),),
        leftover=tuple(parse_cards("KC")),
        penalty=10,
    )
    res = {"winner": 1, "rummy": False, "void": False, "penalties": [23, 0, 12], "hands": []}
    return [
        card_html(Card.parse("7H"), lang),
        card_back_html(lang),
        cards_html(parse_cards("AS 10H"), lang, label="x"),
        meld_html(Meld(tuple(parse_cards("4H 5H 6H")), "run", 0), lang),
        rules_html(Rules.preset("rummy_royal").describe(lang)),
        arrangement_html(arr, lang),
        result_html(res, names, lang),
        scoreboard_html(names, [[23, 0, 12]], [23, 0, 12], lang),
        table_html(observation(), lang=lang),
        table_html(observation(), lang=lang, size="large", four_color=True),
    ]


# --- one card ------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_has_its_spoken_name_as_label_and_title(lang):
    for card in [Card(i) for i in range(104)]:
        (svg,) = svgs(parse(card_html(card, lang)), "face")
        name = card_name(card, lang)
        assert svg.get("role") == "img"
        assert svg.get("aria-label") == name
        assert svg[0].tag == "title" and svg[0].text == name


@pytest.mark.parametrize("lang", LANGS)
def test_spoken_names_tell_every_face_apart(lang):
    assert len(names_to_faces(lang)) == 52


def test_spoken_names_follow_each_language():
    card = Card.parse("7H")
    assert svgs(parse(card_html(card, "en")), "face")[0].get("aria-label") == "7 of hearts"
    assert svgs(parse(card_html(card, "fi")), "face")[0].get("aria-label") == "herttaseiska"


def test_finnish_card_names_are_compounds_inflected_whole():
    """A Finnish teacher writes "pataässä", "kaksi pataseiskaa", "ristikuninkaan"."""
    name = {code: card_name(Card.parse(code), "fi") for code in ("AS", "QH", "KC", "JD", "7S")}
    assert name == {
        "AS": "pataässä",
        "QH": "herttakuningatar",
        "KC": "ristikuningas",
        "JD": "ruutusotilas",
        "7S": "pataseiska",
    }
    assert card_name(Card.parse("KC"), "fi", "gen") == "ristikuninkaan"
    assert card_name(Card.parse("JH"), "fi", "gen") == "herttasotilaan"
    assert card_name(Card.parse("QD"), "fi", "gen") == "ruutukuningattaren"
    assert card_name(Card.parse("7S"), "fi", "part") == "pataseiskaa"
    assert card_name(Card.parse("7S"), "en", "part") == "7 of spades"
    assert all(" " not in card_name(Card(i), "fi", f) for i in range(52) for f in CARD_NAME_FORMS)
    with pytest.raises(ValueError):
        card_name(Card.parse("7S"), "fi", "dative")


def test_card_face_shows_rank_twice_and_suit_three_times():
    for card in parse_cards("10D AS QC"):
        rank = RANK_TEXT[card.rank]
        root = parse(card_html(card))
        paths = [e.get("d") for e in root.iter("path")]
        assert paths.count(RANK_PATHS[rank][1]) == 2
        assert paths.count(SUIT_PATHS[card.suit]) == 3
        assert len(paths) == 5


def test_card_text_is_only_its_name():
    """A sanitizer that strips <svg> (untrusted JupyterLab output) leaves just the name."""
    for lang in LANGS:
        root = parse(cards_html(parse_cards("7H KS"), lang))
        assert list(root.iter("text")) == []
        assert (
            text_of(root)
            == f"{card_name(Card.parse('7H'), lang)} {card_name(Card.parse('KS'), lang)}"
        )


def test_card_accepts_observation_json_ids_and_codes():
    card = Card.parse("QS")
    assert card_html(card.to_json()) == card_html(card) == card_html(card.id) == card_html("QS")


def test_sizes_change_only_the_pixel_size():
    normal = svgs(parse(card_html(Card.parse("7H"))), "face")[0]
    large = svgs(parse(card_html(Card.parse("7H"), size="large")), "face")[0]
    assert (normal.get("width"), normal.get("height")) == ("56", "80")
    assert (large.get("width"), large.get("height")) == ("84", "120")
    assert normal.get("viewBox") == large.get("viewBox") == "0 0 56 80"
    back = svgs(parse(card_back_html(size="large")), "back")[0]
    assert (back.get("width"), back.get("height")) == ("84", "120")


def test_unknown_size_or_language_is_refused():
    with pytest.raises(ValueError, match="large"):
        card_html(Card.parse("7H"), size="huge")
    with pytest.raises(ValueError, match="fi"):
        card_html(Card.parse("7H"), lang="sv")


def ink(markup: str) -> set[str]:
    """The colours the rank and suit shapes are drawn in."""
    paths = list(parse(markup).iter("path"))
    return ({e.get("fill") for e in paths} | {e.get("stroke") for e in paths}) - {"none", None}


def test_two_colour_deck_is_red_and_black():
    assert ink(card_html(Card.parse("7H"))) == {"#c62828"}
    assert ink(card_html(Card.parse("7D"))) == {"#c62828"}
    assert ink(card_html(Card.parse("7S"))) == {"#1a1a1a"}
    assert ink(card_html(Card.parse("7C"))) == {"#1a1a1a"}


def test_four_colour_deck_gives_each_suit_its_colour():
    for suit, colour in {"S": "#1a1a1a", "H": "#c62828", "D": "#1565c0", "C": "#2e7d32"}.items():
        assert ink(card_html(Card.of(7, suit), four_color=True)) == {colour}
    assert set(FOUR_COLOURS.values()) == {"#1a1a1a", "#c62828", "#1565c0", "#2e7d32"}


# --- face-down cards -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_back_says_only_that_it_is_face_down(lang):
    markup = card_back_html(lang)
    root = parse(markup)
    (svg,) = svgs(root, "back")
    label = t("card.face_down", lang)
    assert svg.get("aria-label") == label
    assert text_of(root) == label
    assert list(root.iter("text")) == []
    shapes = set(SUIT_PATHS.values()) | {d for _, d in RANK_PATHS.values()}
    for path in root.iter("path"):
        assert path.get("d") not in shapes
    attributes = {name for e in root.iter() for name in e.attrib}
    assert not attributes & {"id", "data-id", "data-code", "data-card"}
    for words in (SUIT_NAME_WORDS, RANK_WORDS):
        assert not any(re.search(rf"\b{re.escape(w)}\b", markup, re.I) for w in words)


SUIT_NAME_WORDS = [t(f"card.suit.{s}", lang) for s in SUITS for lang in LANGS] + [
    "♠",
    "♥",
    "♦",
    "♣",
]
RANK_WORDS = [t(f"card.rank.{r}", lang) for r in (1, 11, 12, 13) for lang in LANGS]


# --- groups of cards -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_rendered_hand_matches_the_cards_given(lang):
    hand = parse_cards("KC 7H 7H#1 AS 10D 2C QS")
    markup = cards_html(hand, lang)
    assert faces_shown(markup, lang) == [c.face for c in hand]
    group = next(e for e in parse(markup).iter("div") if e.get("role") == "group")
    assert group.get("aria-label") == t("display.card_count", lang, n=7)


def test_empty_hand_says_none():
    root = parse(cards_html([], "fi"))
    assert svgs(root, "face") == []
    assert t("display.none", "fi") in text_of(root)


def test_labelled_hand_shows_the_label_once_escaped():
    markup = cards_html(parse_cards("AS"), label=EVIL)
    assert "<script" not in markup
    assert "&lt;script&gt;" in markup


@pytest.mark.parametrize("lang", LANGS)
def test_meld_from_engine_or_observation_reads_the_same(lang):
    meld = Meld(tuple(parse_cards("4H 5H 6H")), "run", 1)
    engine = parse(meld_html(meld, lang, index=3))
    json = parse(meld_html({"index": 3, "owner": 1, "kind": "run", "cards": J("4H 5H 6H")}, lang))
    assert ET.tostring(engine) == ET.tostring(json)
    run = t("display.kind.run", lang)
    assert t("display.meld_label", lang, index=3, kind=run) in text_of(engine)
    assert faces_shown(meld_html(meld, lang), lang) == [c.face for c in meld.cards]


def test_arrangement_lists_melds_lay_offs_leftover_and_penalty():
    arr = SimpleNamespace(
        melds=(tuple(parse_cards("AS 2S 3S")), tuple(parse_cards("9H 9D 9C"))),
        lay_offs=((Card.parse("7D"), 1),),
        leftover=tuple(parse_cards("KC 2H")),
        penalty=12,
    )
    markup = arrangement_html(arr, "fi")
    assert faces_shown(markup, "fi") == [c.face for c in parse_cards("AS 2S 3S 9H 9D 9C 7D KC 2H")]
    text = text_of(parse(markup))
    assert "Suora" in text and "Setti" in text
    assert t("display.arr.lay_off", "fi", card="ruutuseiska", index=1) in text
    assert t("display.arr.penalty", "fi", n=12) in text


# --- tables --------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_rules_table_has_every_row_of_the_description(lang):
    description = Rules.preset("traditional").describe(lang)
    root = parse(rules_html(description))
    assert root.find("table/caption").text == description.title
    body_rows = root.findall("table/tbody/tr")
    assert [(r[0].text, r[1].text) for r in body_rows] == description.rows
    assert root.find("table").get("lang") == lang


def test_result_names_the_winner_and_shows_every_hand_and_penalty():
    res = {
        "winner": 1,
        "rummy": True,
        "void": False,
        "penalties": [48, 0, 37],
        "hands": [J("KS 3D"), [], J("2C 10S")],
    }
    markup = result_html(res, ["Ann", "Bo", "Cy"], "en")
    root = parse(markup)
    assert "Bo went Rummy!" in text_of(root)
    assert faces_shown(markup, "en") == [c.face for c in parse_cards("KS 3D 2C 10S")]
    rows = root.findall(".//tbody/tr")
    assert [r[-1].text for r in rows] == ["48", "0", "37"]


def test_result_from_engine_object_and_void_deal():
    res = SimpleNamespace(
        winner=0, rummy=False, void=False, penalties=[0, 5], hands=[[], [Card.parse("5H")]]
    )
    assert t("display.result.out", "fi", name="Ann") in text_of(
        parse(result_html(res, ["Ann", "Bo"], "fi"))
    )
    void = SimpleNamespace(winner=None, rummy=False, void=True, penalties=[0, 0], hands=[[], []])
    assert t("display.result.void", "en") in text_of(parse(result_html(void, ["Ann", "Bo"])))


def test_scoreboard_marks_the_lowest_total_and_shares_a_tie():
    marker = "★ " + t("display.score.leader", "en")
    root = parse(scoreboard_html(["Ann", "Bo", "Cy"], [[10, 0, 5], [0, 10, 5]], [10, 10, 10]))
    totals = root.find(".//tr[@class='rw-s-totals']")
    assert all(marker in text_of(cell) for cell in totals[1:])
    root = parse(scoreboard_html(["Ann", "Bo", "Cy"], [[10, 0, 5], [0, 20, 3]], [10, 20, 8]))
    totals = root.find(".//tr[@class='rw-s-totals']")
    assert [marker in text_of(cell) for cell in totals[1:]] == [False, False, True]
    assert len(root.findall(".//tbody/tr")) == 3
    assert t("display.score.leading", "en", names="Cy") in text_of(root)


def test_scoreboard_marks_nobody_before_the_first_deal():
    root = parse(scoreboard_html(["Ann", "Bo"], [], [0, 0], "fi"))
    assert "★" not in text_of(root)


# --- a game from one seat ------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_table_shows_own_hand_up_and_others_down(lang):
    markup = table_html(observation(), lang=lang)
    root = parse(markup)
    faces = faces_shown(markup, lang)
    hand = [c.face for c in parse_cards("AS 2S 3S 9H 10H JD KC")]
    assert faces[-len(hand) :] == hand
    public = parse_cards("5C 4H 5H 6H 7S 7H 7C QS QC QD")
    assert sorted(faces[: -len(hand)]) == sorted(c.face for c in public)
    # Bo holds 10, Cy 4: face down; the stock is one more back.
    assert len(svgs(root, "back")) == 10 + 4 + 1
    fans = [e for e in root.iter("div") if "rw-s-fan" in e.get("class", "")]
    assert [len(svgs(f, "back")) for f in fans] == [10, 4]
    assert [f.get("aria-label") for f in fans] == [
        t("display.hidden_hand", lang, name="Bo", n=10),
        t("display.hidden_hand", lang, name="Cy", n=4) + f" ({t('display.dealer', lang)})",
    ]
    text = text_of(root)
    assert t("display.stock", lang, n=60) in text
    assert t("display.discard_pile", lang, n=2) in text
    assert t("display.turn", lang, name="Bo") in text
    assert t("display.phase.draw", lang) in text
    assert t("display.melds_of", lang, name="Ann") in text
    assert t("display.melds_of", lang, name="Cy") in text
    assert t("display.melds_of", lang, name="Bo") not in text


def test_table_never_shows_another_seats_cards():
    obs = observation()
    markup = table_html(obs)
    shown = set(faces_shown(markup, "en"))
    assert not shown & {c.face for c in parse_cards(SEAT1_HAND)}
    for lang in LANGS:
        lookup = names_to_faces(lang)
        secret = {
            name
            for name, face in lookup.items()
            if face in {c.face for c in parse_cards(SEAT1_HAND)}
        }
        assert not any(name in table_html(obs, lang=lang) for name in secret)


def test_open_hands_turn_the_others_face_up():
    hands = [J("AS 2S 3S 9H 10H JD KC"), J(SEAT1_HAND), J("AC 2C 3C 4C")]
    markup = table_html(observation(), hands=hands)
    shown = faces_shown(markup, "en")
    assert shown[: 10 + 4] == [c.face for c in parse_cards(SEAT1_HAND + " AC 2C 3C 4C")]
    assert len(svgs(parse(markup), "back")) == 1  # only the stock


def test_table_groups_melds_by_owner_with_their_numbers():
    root = parse(table_html(observation()))
    owners = [e for e in root.iter("div") if "rw-s-owner" in e.get("class", "").split()]
    labels = [[e.text for e in o.iter("div") if e.get("class") == "rw-s-label"] for o in owners]
    assert labels == [
        ["Melds of Ann", "Meld 0: run", "Meld 2: set"],
        ["Melds of Cy", "Meld 1: set"],
    ]


def test_table_with_empty_piles_and_no_melds():
    obs = observation(stock_size=0, discard_pile=[], melds=[])
    root = parse(table_html(obs, lang="fi"))
    assert len(svgs(root, "empty")) == 2
    assert t("display.no_melds", "fi") in text_of(root)
    assert len(svgs(root, "back")) == 14


def test_table_shows_the_card_taken_from_the_discard_pile():
    obs = observation(phase="play", current_player=0, taken_from_discard=J("8S")[0])
    text = text_of(parse(table_html(obs, lang="fi")))
    assert t("display.taken", "fi", card="patakahdeksikko") in text
    assert t("display.phase.play", "fi") in text


def test_finished_deal_shows_the_result():
    res = {
        "winner": 0,
        "rummy": False,
        "void": False,
        "penalties": [0, 56, 21],
        "hands": [[], J(SEAT1_HAND), J("AC 2C 3C 4C")],
    }
    obs = observation(phase="over", result=res, hand=[])
    markup = table_html(obs)
    text = text_of(parse(markup))
    assert "Ann went out." in text
    assert t("display.phase.over", "en") in text
    assert set(c.face for c in parse_cards(SEAT1_HAND)) <= set(faces_shown(markup, "en"))


def test_large_four_colour_table_changes_every_card():
    root = parse(table_html(observation(), size="large", four_color=True))
    cards = svgs(root, "face") + svgs(root, "back")
    assert {(e.get("width"), e.get("height")) for e in cards} == {("84", "120")}
    inks = {e.get("stroke") for svg in svgs(root, "face") for e in svg.iter("path")} - {None}
    assert inks == {"#1a1a1a", "#c62828", "#1565c0", "#2e7d32"}


def test_names_are_escaped_everywhere():
    names = [EVIL, "Bo & <i>", "Cy"]
    res = {
        "winner": 0,
        "rummy": False,
        "void": False,
        "penalties": [0, 1, 2],
        "hands": [[], [], []],
    }
    outputs = [
        table_html(observation(), names=names),
        table_html(
            observation(players=[{"name": EVIL, "hand_size": 7}, *observation()["players"][1:]])
        ),
        result_html(res, names),
        scoreboard_html(names, [[0, 1, 2]], [0, 1, 2]),
        repr(table_view(observation(), names=names)),
    ]
    for markup in outputs[:-1]:
        assert "<script" not in markup and "<i>" not in markup
        assert "&lt;script&gt;" in markup
        assert EVIL in text_of(parse(markup))


@pytest.mark.parametrize("lang", LANGS)
def test_no_script_no_urls_no_ids(lang):
    for markup in every_output(lang):
        parse(markup)
        assert "<script" not in markup.lower()
        assert "http" not in markup.lower()
        assert " id=" not in markup
        attributes = {name for e in parse(markup).iter() for name in e.attrib}
        assert not [name for name in attributes if name.startswith("on")]


@pytest.mark.parametrize("lang", LANGS)
def test_output_is_deterministic(lang):
    assert every_output(lang) == every_output(lang)


# --- wrappers and the lower layers' reprs --------------------------------------------------


def test_table_view_has_a_short_stable_text_form():
    view = table_view(observation())
    assert isinstance(view, Snippet)
    assert view._repr_html_() == table_html(observation())
    text = repr(view)
    assert text == str(view) == repr(table_view(observation()))
    assert "\n" not in text and not re.search(r"0x[0-9a-f]+", text)
    assert "[A♠ 2♠ 3♠ 9♥ 10♥ J♦ K♣]" in text
    assert table_view(observation()) == table_view(observation())


def test_lower_layers_display_through_this_module():
    card = Card.parse("7H")
    assert card._repr_html_() == card_html(card)
    hand = Cards(parse_cards("AS 2S 3S"))
    assert hand._repr_html_() == cards_html(hand)
    meld = Meld(tuple(parse_cards("4H 5H 6H")), "run", 0)
    assert meld._repr_html_() == meld_html(meld)
    description = Rules.preset("traditional").describe("fi")
    assert description._repr_html_() == rules_html(description)


def test_display_keys_exist_in_both_languages_with_the_same_placeholders():
    fields = string.Formatter()

    def holes(text):
        return {name for _, name, _, _ in fields.parse(text) if name}

    en = {k: v for k, v in table("en").items() if k.startswith("display.")}
    fi = {k: v for k, v in table("fi").items() if k.startswith("display.")}
    assert en.keys() == fi.keys() and en
    assert all(holes(en[k]) == holes(fi[k]) for k in en)


# --- with the real engine ------------------------------------------------------------------


def play(game, steps: int | None = None):
    """A fixed, simple policy: meld or lay off when possible, draw from the stock, else first."""
    n = 0
    while game.phase != "over" and (steps is None or n < steps):
        actions = game.legal_actions()
        action = (
            next((a for a in actions if a.kind in ("meld", "lay_off")), None)
            or next((a for a in actions if a.kind == "draw" and a.source == "stock"), None)
            or actions[0]
        )
        game.apply(action)
        n += 1
    return game


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_engine_table_for_seat_0_holds_no_card_of_seat_1(seed):
    from rummy_widget import Game

    game = play(Game(["Ann", "Bo"], seed=seed), steps=30)
    assert game.phase != "over"
    obs = game.observation(0)
    public = [*game.hand(0), *[c for m in game.melds for c in m.cards]]
    public += game.discard_pile[:1]
    secret = {c.face for c in game.hand(1)} - {c.face for c in public}
    assert secret
    for lang in LANGS:
        markup = table_html(obs, lang=lang)
        assert sorted(faces_shown(markup, lang)) == sorted(c.face for c in public)
        assert len(svgs(parse(markup), "back")) == len(game.hand(1)) + 1
        lookup = names_to_faces(lang)
        assert not [n for n, face in lookup.items() if face in secret and n in markup]


def test_engine_show_and_finished_deal():
    from rummy_widget import Game

    game = play(Game(["Ann", "Bo"], seed=2, lang="fi"))
    view = game.show(1)
    assert isinstance(view, Snippet) and "0x" not in repr(view)
    text = text_of(parse(view._repr_html_()))
    result = game.result
    winner = ["Ann", "Bo"][result.winner]
    assert t("display.result.out", "fi", name=winner) in text
    leftover = [c.face for hand in result.hands for c in hand]
    assert set(leftover) <= set(faces_shown(view._repr_html_(), "fi"))
    assert winner in text_of(parse(result._repr_html_()))


def test_match_scoreboard_view_marks_the_leader():
    from rummy_widget import Match

    match = Match(["Ann", "Bo"], seed=1, deals=2, lang="fi")
    play(match.game)
    match.next_deal()
    play(match.game)
    match.record()
    view = match.scoreboard()
    totals = match.totals
    leader = ", ".join(
        n for n, total in zip(["Ann", "Bo"], totals, strict=True) if total == min(totals)
    )
    assert repr(view) == scoreboard_text(["Ann", "Bo"], match.deal_penalties, totals, "fi")
    assert t("display.score.leading", "fi", names=leader) in repr(view)
    root = parse(view._repr_html_())
    assert len(root.findall(".//tbody/tr")) == 3


def test_design_document_carries_every_path_and_colour():
    """docs/display.md is the design the front end copies: it must match the code."""
    from pathlib import Path

    from rummy_widget.display import faces

    doc = Path(__file__).resolve().parent.parent.joinpath("docs", "display.md").read_text("utf-8")
    for path in SUIT_PATHS.values():
        assert f"`{path}`" in doc
    for rank, (width, path) in RANK_PATHS.items():
        assert f"| {rank} | {width} | `{path}` |" in doc
    colours = [faces.CARD_FILL, faces.CARD_STROKE, faces.RED, faces.BLACK, faces.BACK_FILL]
    for colour in [*colours, faces.EMPTY_STROKE, *FOUR_COLOURS.values()]:
        assert colour in doc
    assert 'viewBox="0 0 56 80"' in doc and "84 × 120" in doc


@pytest.mark.parametrize("lang", LANGS)
def test_class_names_stay_clear_of_the_widgets_stylesheet(lang):
    """The widget's CSS is global on the page (.rw-card, .rw-back, ...): static output uses
    its own rw-s- prefix so that stylesheet never restyles it."""
    for markup in every_output(lang):
        classes = {c for e in parse(markup).iter() for c in e.get("class", "").split()}
        assert classes and all(c.startswith("rw-s-") for c in classes)


# --- in a real browser ---------------------------------------------------------------------

CHROMIUM = "/usr/bin/chromium"


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_no_accessibility_violations(lang):
    """Everything the module draws, on one page in headless Chromium, audited by axe-core."""
    from pathlib import Path

    if not Path(CHROMIUM).exists():
        pytest.skip("needs Debian's chromium (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    axe = pytest.importorskip("axe_playwright_python.sync_playwright")

    body = "".join(
        f"<section aria-label='{i}'>{m}</section>" for i, m in enumerate(every_output(lang))
    )
    page_html = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>display</title>'
        f"</head><body><main><h1>display</h1>{body}</main></body></html>"
    )
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        try:
            page = browser.new_page()
            page.set_content(page_html)
            response = axe.Axe().run(page).response
            cards = page.locator("svg[role=img]").count()
        finally:
            browser.close()
    assert cards > 30
    assert [v["id"] for v in response["violations"]] == []


def test_solver_arrangement_displays_its_melds_chain_of_lay_offs_and_leftover():
    from rummy_widget.solver import best_arrangement

    rules = Rules.preset("traditional")
    table_melds = [Meld.make(parse_cards("5H 6H 7H"), rules, 1)]
    arr = best_arrangement(parse_cards("AS 2S 3S 8H 9H KC"), rules, table_melds)
    markup = arr._repr_html_()
    assert markup == arrangement_html(arr)
    assert faces_shown(markup, "en") == [c.face for c in parse_cards("AS 2S 3S 8H 9H KC")]
    text = text_of(parse(markup))
    assert "8 of hearts onto meld 0" in text and "9 of hearts onto meld 0" in text
    assert t("display.arr.penalty", "en", n=10) in text
