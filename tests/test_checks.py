"""The exercise self-checks and lesson helpers: right, wrong and unanswered, in both languages."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from rummy_widget import Action, Card, Game
from rummy_widget.bots import legal_actions
from rummy_widget.i18n import t
from rummy_widget.teaching import checks, lessons

LANGS = ("en", "fi")


@pytest.mark.parametrize("lang", LANGS)
def test_none_means_not_answered_yet(lang):
    calls = [
        checks.hand_points("7H QS", None, lang=lang),
        checks.meld_kind("7H 8H 9H", None, lang=lang),
        checks.lay_off("7H 8H 9H", "10H", None, lang=lang),
        checks.best_penalty("7H 8H 9H KS", None, lang=lang),
        checks.deal_penalty("KS", None, rummy=True, lang=lang),
        checks.payout(10_000, [0, 30], None, lang=lang),
    ]
    for feedback in calls:
        assert feedback.ok is None and not feedback
        assert feedback.text == t("check.not_answered", lang)


@pytest.mark.parametrize("lang", LANGS)
def test_hand_points_right_and_wrong(lang):
    right = checks.hand_points("AS KH 7D", 18, lang=lang)
    assert right.ok is True and "18" in right.text
    assert checks.hand_points("AS KH 7D", "18", lang=lang).ok is True
    assert checks.hand_points("AS KH 7D", 28, rules="rummy_royal", lang=lang).ok is True
    wrong = checks.hand_points("AS KH 7D", 28, lang=lang)
    assert wrong.ok is False
    assert t("check.too_high", lang) in wrong.text
    assert checks.hand_points("AS KH 7D", 8, lang=lang).text.count(t("check.too_low", lang)) == 1


@pytest.mark.parametrize("answer", ["eighteen", 18.5, True, [18]])
def test_unreadable_answers_are_explained_not_marked_wrong(answer):
    feedback = checks.hand_points("AS KH 7D", answer)
    assert feedback.ok is None
    assert repr(answer) in feedback.text


@pytest.mark.parametrize(
    ("cards", "rules", "kind"),
    [
        ("7H 8H 9H", "traditional", "run"),
        ("QS KS AS", "traditional", "none"),
        ("QS KS AS", "rummy_royal", "run"),
        ("KS AS 2S", "rummy_royal", "none"),
        ("7S 7S 7H", "traditional", "set"),
        ("7S 7S 7H", "rummy_royal", "none"),
        ("7S 7H 7D 7C 7H", "rummy_royal", "none"),
        ("5C 6C 8C", "traditional", "none"),
    ],
)
def test_meld_kind_accepts_the_right_word_in_either_language(cards, rules, kind):
    words = {"set": ("set", "setti"), "run": ("run", "Suora"), "none": ("none", "ei", False)}
    for word in words[kind]:
        assert checks.meld_kind(cards, word, rules=rules).ok is True
    for other in {"set", "run", "none"} - {kind}:
        assert checks.meld_kind(cards, other, rules=rules).ok is False


@pytest.mark.parametrize(
    ("cards", "rules", "reason"),
    [
        ("7H 8H", "traditional", "too_few"),
        ("QS KS AS", "traditional", "ace_low_only"),
        ("KS AS 2S", "rummy_royal", "corner"),
        ("7S 7S 7H", "rummy_royal", "suit_repeats"),
        ("7S 7H 7D 7C 7H", "rummy_royal", "set_too_big"),
        ("5C 5C 6C", "traditional", "rank_twice"),
        ("5C 6C 8C", "traditional", "gap"),
        ("7H 8S 9D", "traditional", "mixed"),
    ],
)
def test_a_wrong_meld_answer_says_which_rule_the_cards_break(cards, rules, reason):
    for lang in LANGS:
        feedback = checks.meld_kind(cards, "run", rules=rules, lang=lang)
        key = f"check.why.{reason}"
        expected = t(key, lang, cards="X", min=3, max=4).split("X", 1)[1]
        assert expected in feedback.text


def test_meld_kind_rejects_an_unknown_word():
    feedback = checks.meld_kind("7H 8H 9H", "straight", lang="fi")
    assert feedback.ok is None and "'straight'" in feedback.text


@pytest.mark.parametrize("lang", LANGS)
def test_lay_off(lang):
    assert checks.lay_off("7H 8H 9H", "10H", True, lang=lang).ok is True
    assert checks.lay_off("7H 8H 9H", "6H", "kyllä", lang=lang).ok is True
    assert checks.lay_off("7H 8H 9H", "JH", False, lang=lang).ok is True
    assert checks.lay_off("7H 8H 9H", "JH", True, lang=lang).ok is False
    assert checks.lay_off("4S 4D 4C", "4D", False, rules="rummy_royal", lang=lang).ok is True
    assert checks.lay_off("4S 4D 4C", "4D", True, lang=lang).ok is True
    assert checks.lay_off("7H 8H 9H", "10H", "maybe", lang=lang).ok is None


def test_best_penalty_explains_the_arrangement():
    right = checks.best_penalty("2C 3C 4C 5C 9H 9S 9D JD QD AS", 21)
    assert right.ok is True and "21" in right.text and "J♦" in right.text
    assert checks.best_penalty("2C 3C 4C 5C 9H 9S 9D JD QD AS", 49).ok is False
    alone = checks.best_penalty("7H 9D", 16, lang="fi")
    assert alone.ok is True and alone.text.endswith(t("check.best.no_melds", "fi", points=16))


def test_deal_penalty_counts_the_rummy_bonus():
    assert checks.deal_penalty("KS QH 5D", 50, rummy=True).ok is True
    forgot = checks.deal_penalty("KS QH 5D", 25, rummy=True, lang="fi")
    assert forgot.ok is False and t("check.deal.hint_rummy", "fi", bonus=25) in forgot.text
    assert checks.deal_penalty("AS AH 7C", 29, rules="rummy_royal").ok is True
    assert checks.deal_penalty("AS AH 7C", 9).ok is True


def test_payout_checks_every_share():
    assert checks.payout(10_000, [0, 30, 45, 80], [7500, 2000, 500, 0]).ok is True
    short = checks.payout(10_000, [0, 30, 45, 80], [7500, 2000, 400, 0])
    assert short.ok is False and "9900" in short.text
    assert checks.payout(10_000, [0, 30, 45, 80], [7400, 2000, 600, 0]).ok is False
    assert checks.payout(10_000, [0, 30, 45, 80], [7500, 2500]).ok is None


class LastLegal:
    """Always the last legal move: legal, if not clever."""

    def act(self, observation):
        return legal_actions(observation)[-1]


class ThrowsBack:
    """Takes the discard and throws that very card back: illegal (rule 13)."""

    def act(self, observation):
        if observation["phase"] == "draw":
            return Action.draw("discard")
        return Action.discard(Card(observation["taken_from_discard"]["id"]))


class Crashes:
    def act(self, observation):
        raise ZeroDivisionError("oops")


class Mumbles:
    def act(self, observation):
        return "draw, please"


@pytest.mark.parametrize("lang", LANGS)
def test_my_bot_reports_a_legal_bot_and_its_wins(lang):
    feedback = checks.my_bot(LastLegal(), lang=lang)
    assert feedback.ok is True
    assert feedback.text.startswith(t("check.bot.ok", lang, games=4, wins=0)[:12])


@pytest.mark.parametrize("lang", LANGS)
def test_my_bot_names_the_illegal_move_and_the_rule(lang):
    feedback = checks.my_bot(ThrowsBack(), lang=lang)
    assert feedback.ok is False
    card = Game(2, seed=0).discard_pile[0]
    assert t("error.taken_card", lang, card=card) in feedback.text


def test_my_bot_reports_errors_and_non_moves_instead_of_crashing():
    crashed = checks.my_bot(Crashes(), lang="fi")
    assert crashed.ok is False and "ZeroDivisionError: oops" in crashed.text
    mumbled = checks.my_bot(Mumbles())
    assert mumbled.ok is False and "'draw, please'" in mumbled.text
    assert checks.my_bot(object()).text == t("check.bot.no_act", "en")


def test_feedback_shows_a_word_and_a_symbol_not_colour_alone():
    for feedback in (
        checks.hand_points("7H", 7, lang="fi"),
        checks.hand_points("7H", 8, lang="fi"),
        checks.hand_points("7H", None, lang="fi"),
    ):
        html = feedback._repr_html_()
        root = ET.fromstring(html)
        assert root.get("lang") == "fi" and root.get("role") == "status"
        assert feedback.text in "".join(root.itertext())
        assert repr(feedback).endswith(feedback.text)


def test_feedback_escapes_the_learners_answer():
    html = checks.meld_kind("7H 8H 9H", "<b>run</b>")._repr_html_()
    assert "<b>" not in html and "&lt;b&gt;" in html


# --- lessons ----------------------------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_show_draws_every_kind_of_object_in_the_language(lang):
    game = Game(["Aino", "Eero"], seed=1, lang="en")
    from rummy_widget import Meld, Rules, best_arrangement

    rules = Rules.preset("traditional")
    objects = [
        Card.parse("QH"),
        "7H 8H 9H",
        Meld.make(list(map(Card.parse, ["7S", "7H", "7D"])), rules, 0),
        best_arrangement("7H 8H 9H KS", rules),
        rules.describe("en"),
        game,
    ]
    name = t("card.name", lang, rank=t("card.rank.12", lang), suit=t("card.suit.H", lang))
    for obj in objects:
        snippet = lessons.show(obj, lang)
        ET.fromstring(snippet._repr_html_())
        assert f'lang="{lang}"' in snippet._repr_html_()
        assert " at 0x" not in repr(snippet)
    assert name in lessons.show("QH", lang)._repr_html_()


def test_show_gives_a_result_in_the_language():
    game = Game.from_layout(hands=["8H 8S 8D 2C", "KS QH"], stock="8C", discard="JD")
    game.draw("stock")
    game.meld("8H 8S 8D 8C")
    game.discard("2C")
    snippet = lessons.show(game.result, "fi")
    assert t("display.result.rummy", "fi", name=game.names[0]) in snippet._repr_html_()
    assert repr(snippet).endswith(" 45")  # K 10 + Q 10 + the Rummy bonus 25


def test_tables_have_text_and_html_in_the_language():
    melds = lessons.meld_table(["QS KS AS", "7H 8H 9H"], "fi")
    lines = repr(melds).splitlines()
    assert lines[0] == t("lesson.melds_caption", "fi")
    assert "kyllä" in lines[2] and "kyllä" not in lines[3]
    points = lessons.points_table("AS KH", "fi")
    assert repr(points).splitlines()[-1].split()[-2:] == ["11", "21"]
    differences = repr(lessons.rules_differences("en")).splitlines()
    assert len(differences) == 2 + 4  # caption, header, ace runs, ace points, set, final discard
    for snippet in (melds, points, lessons.card_names("fi")):
        ET.fromstring(snippet._repr_html_())


def test_payout_table_matches_the_worked_example():
    table = lessons.payout_table(1_000, {"Ann": 20, "Bo": 35, "Cy": 60, "Di": 71}, "fi")
    rows = [line.split()[-1] for line in repr(table).splitlines()[-4:]]
    assert rows == ["751", "194", "55", "0"]  # whole tokens: no money for minors
    assert lessons.money(7501, "en") == "75.01" and lessons.money(5, "fi") == "0,05"


def test_describe_numbers_melds_as_the_call_and_the_picture_do():
    """One numbering from 0: ``lay_off(card, 0)``, the picture's "Meld 0" and the words agree."""
    game = Game.from_layout(
        hands=["7H 8H 9H 2C", "10H 3S 4S 5D"], stock="KD QS", discard="4C", players=["A", "B"]
    )
    game.draw("stock")
    game.meld("7H 8H 9H")
    game.discard("2C")
    game.draw("stock")
    game.lay_off("10H", 0)
    # The table, the lessons and the API number melds alike, from 0 (docs/display.md).
    lines = repr(lessons.moves(game, "en")).splitlines()
    assert lines[0] == t("log.deal", "en", name="B")  # a deal is no move: no number
    assert lines[-1] == "5. " + t("log.lay_off", "en", name="B", card_gen="10♥", index=0)
    assert lessons.describe(Action.lay_off(Card.parse("10H"), 0), "fi") == t(
        "ui.hint_action.lay_off", "fi", card="10♥", index=0
    )
    label = t("display.meld_label", "fi", index=0, kind=t("lesson.kind.run", "fi"))
    assert label in lessons.show(game, "fi")._repr_html_()
    for lang in LANGS:
        assert lessons.describe(Action.lay_off(Card.parse("10H"), 0), lang) == t(
            "ui.hint_action.lay_off", lang, card="10♥", index=0
        )


def test_checks_and_lesson_tables_read_a_face_named_twice_as_both_copies():
    assert checks.hand_points("7H 7H", 14)
    assert checks.meld_kind("7S 7S 7H", "set", rules="traditional")
    assert checks.best_penalty("3D 3D 3S KC", 10, rules="traditional")
    # beside a table meld holding 7♥, the hand's 7♥ is the other copy (it does not fit the run)
    assert checks.best_penalty("7H 2C", 9, table_melds=["7H 8H 9H"])
    assert "14" in lessons.points_table("7H 7H").text
    assert "set" in lessons.meld_table(["7S 7S 7H"], presets=["traditional"]).text


@pytest.mark.parametrize("lang", LANGS)
def test_lesson_7s_hint_reads_every_opening_hand_with_the_top_card(lang):
    """The exercise's pieces (the hand and the top card by id) feed ``best_arrangement`` for
    any deal: codes named one copy for both twins, and the solver refused the hand."""
    import json
    from pathlib import Path

    from rummy_widget import Rules, best_arrangement

    path = Path(__file__).parent.parent / "tutorials" / lang / "07_your_own_bot.ipynb"
    cell = next(
        "".join(c["source"])
        for c in json.loads(path.read_text("utf-8"))["cells"]
        if "class Better" in "".join(c["source"])
    )
    pieces = [
        line.strip() for line in cell.splitlines() if line.strip().startswith(("hand =", "top ="))
    ]
    assert len(pieces) == 2
    for seed in range(60):
        observation = Game(2, seed=seed).observation(0)
        found = {"Card": Card, "observation": observation}
        for line in pieces:
            exec(line, found)
        cards = [*found["hand"], found["top"]]
        assert best_arrangement(cards, Rules.preset("traditional")).penalty >= 0


def test_each_languages_lessons_play_the_rules_text_in_that_language():
    assert lessons.lesson_rules("en") == "traditional"
    assert lessons.lesson_rules("fi") == "rummy_royal"
    with pytest.raises(ValueError):
        lessons.lesson_rules("sv")
