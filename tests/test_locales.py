"""The translation tables: same keys, no empty values, placeholders that match."""

import json
import re
from pathlib import Path

from rummy_widget.i18n import LANGUAGES, count, t, table

LOCALES = Path(__file__).resolve().parent.parent / "rummy_widget" / "locales"
PLACEHOLDER = re.compile(r"\{(\w*)(?::\w+)?\}")
COUNT = re.compile(r"\{\w+:(\w+)\}")


def test_tables_have_the_same_keys_and_no_empty_values():
    en, fi = table("en"), table("fi")
    assert set(en) == set(fi)
    assert all(isinstance(v, str) and v.strip() for v in [*en.values(), *fi.values()])


def test_placeholders_match_between_languages():
    en, fi = table("en"), table("fi")
    for key in en:
        assert set(PLACEHOLDER.findall(en[key])) == set(PLACEHOLDER.findall(fi[key])), key


def test_counts_have_both_forms_and_stay_out_of_the_front_end():
    """``{n:unit}`` needs ``plural.unit.one``/``.other``; the front end's formatter does not
    know the form, so none of the keys its bundle keeps (js/build.mjs) may use it."""
    build = (LOCALES.parent.parent / "js" / "build.mjs").read_text("utf-8")
    front_end = re.compile(re.search(r"FRONT_END_KEYS = /(.+)/;", build)[1])
    for lang in LANGUAGES:
        texts = table(lang)
        units = {u for text in texts.values() for u in COUNT.findall(text)}
        assert units >= {"points", "penalty_points"}
        for unit in units:
            assert {f"plural.{unit}.one", f"plural.{unit}.other"} <= set(texts), unit
        assert not [k for k, v in texts.items() if front_end.search(k) and COUNT.search(v)]


def test_a_count_takes_its_units_singular_or_plural():
    assert t("check.points.right", "en", cards="A♠", total=1) == "A♠ score 1 penalty point."
    assert t("check.points.right", "en", cards="K♠", total=10) == "K♠ score 10 penalty points."
    assert t("check.points.right", "fi", cards="A♠", total=1) == "Korteista A♠ tulee 1 sakkopiste."
    assert count(7, "points", "fi") == "7 pistettä" and count(1, "points", "en") == "1 point"


def test_files_are_sorted_json_without_duplicates():
    for lang in LANGUAGES:
        pairs = json.loads(
            (LOCALES / f"{lang}.json").read_text("utf-8"), object_pairs_hook=lambda p: p
        )
        keys = [k for k, _ in pairs]
        assert len(keys) == len(set(keys))


def test_finnish_uses_the_rules_texts_words():
    fi = " ".join(table("fi").values()).lower()
    for word in [
        "nostopakka",
        "poistopakka",
        "pöytäys",
        "setti",
        "suora",
        "sakkopisteet",
        "ulosmeno",
        "rummy-ulosmeno",
    ]:
        assert word in fi, word


def test_every_error_code_raised_in_the_engine_has_a_message():
    source = "\n".join(p.read_text("utf-8") for p in (LOCALES.parent).rglob("*.py"))
    codes = set(re.findall(r'RuleError\(\s*"(\w+)"', source))
    assert codes, "the engine raises coded errors"
    en = table("en")
    assert {c for c in codes if f"error.{c}" not in en} == set()


def test_every_bot_explanation_has_advice_for_the_hint_button():
    en, fi = table("en"), table("fi")
    explains = {k for k in en if k.startswith("bot.explain.")}
    assert explains
    for key in explains:
        advice = key.replace("bot.explain.", "bot.advise.")
        assert advice in en and advice in fi, advice
        why = key.replace("bot.explain.", "bot.why.")  # the detailed reason under the hint
        assert why in en and why in fi, why
        assert set(PLACEHOLDER.findall(en[advice])) <= set(PLACEHOLDER.findall(en[key]))
