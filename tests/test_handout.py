"""The printable rules handout: each preset's rules in each language's words, on one page.

tests/browser/test_handout_print.py prints it in Chromium and counts the A4 pages.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import replace

import pytest

from rummy_widget import RuleError, Rules
from rummy_widget.engine.rules import PRESETS
from rummy_widget.i18n import LANGUAGES, t
from rummy_widget.teaching import handout


def page_text(html: str) -> str:
    root = ET.fromstring(html.removeprefix("<!DOCTYPE html>\n"))
    return " ".join("".join(root.find("body").itertext()).split())


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_handout_is_a_page_of_the_presets_rules_in_its_language(preset, lang):
    html = handout(preset, lang)
    assert html.startswith('<!DOCTYPE html>\n<html lang="' + lang + '">')
    assert re.search(r"@page \{ size: A4;", html)
    text = page_text(html)  # well-formed: the markup helpers write XML
    rules = Rules.preset(preset)
    described = rules.describe(lang)
    assert described.title in text
    payout = t("rules.row.payout", lang)
    for rule, value in described.rows:
        if rule == payout:
            assert rule not in text and value not in text  # no money in a school handout
        else:
            assert rule in text and value in text, rule
    for key in ("handout.turn.draw", "handout.turn.meld", "handout.turn.discard"):
        assert t(key, lang) in text
    penalty = t("handout.penalty", lang, ace=rules.ace_points, face=rules.face_points)
    assert penalty in text
    assert t("handout.rummy", lang, bonus=rules.rummy_bonus) in text
    assert f"rummy-widget handout --rules {preset} --lang {lang}" in text


def test_the_finnish_handout_speaks_the_finnish_rules_texts_words():
    text = page_text(handout("rummy_royal", "fi")).lower()
    for word in (
        "nosto:",
        "pöytäykset:",
        "poisto:",
        "nostopakan",
        "poistopakan",
        "setti:",
        "suora:",
        "rummy-ulosmeno",
        "sakkopist",
        "pistearvo",
        "ässä 11",
    ):
        assert word in text, word
    for english in ("meld", "stock", "discard", "penalty", "poisheit", "rommi", "potti"):
        assert english not in text, english


def test_the_presets_differ_where_their_texts_differ():
    royal, traditional = (page_text(handout(p, "en")) for p in ("rummy_royal", "traditional"))
    assert t("handout.out.discard", "en") in royal and t("handout.out.any", "en") not in royal
    assert t("handout.out.any", "en") in traditional
    assert "Ace 11," in royal and "Ace 1," in traditional
    assert "all suits different" in royal and "suits may repeat" in traditional


def test_changed_rules_print_their_own_switches_and_no_preset_command():
    house = replace(Rules.preset("traditional"), discard_taken_card=True, rummy_bonus=10)
    text = page_text(handout(house, "en"))
    assert t("handout.turn.taken", "en") not in text
    assert "then scores 10 extra penalty points" in text
    assert "rummy-widget handout" not in text
    assert t("handout.turn.taken", "en") in page_text(handout("traditional", "en"))


def test_bad_rules_or_language_are_refused_clearly():
    with pytest.raises(RuleError, match="Tuntemattomat säännöt royal; valitse"):
        handout("royal", "fi")
    with pytest.raises(ValueError, match="unknown language 'sv'"):
        handout("traditional", "sv")
