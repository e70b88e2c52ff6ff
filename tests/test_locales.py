"""The translation tables: same keys, no empty values, placeholders that match."""

import json
import re
from pathlib import Path

from rummy_widget.i18n import LANGUAGES, count, inflect_card, inflect_cards, t, table

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


#: Forms a Finnish teacher corrected in fi.json (issue 40), each with the reason. None may
#: come back: the rules text's words, cards "on" the table, points as "pistearvo".
FINNISH_CORRECTED = {
    r"\bperumista\b": "nothing to take back is 'peruttavaa'",
    r"\bpöydä(ssä|stä)\b": "cards lie on the table: pöydällä, pöydältä",
    r"poisheit": "the rules text's noun is poisto",
    r"\barvoi(nen|sia|sen)\b": "points are a pistearvo; arvo is the rank",
    r"pöytäyks\w* kädessä|kädessä\w* pöytäyks": "a pöytäys is on the table",
    r"\brommi": "the game is Rummy",
    r"\boppija": "a pupil is an oppilas",
    r"\bpelaajan \{name\}": "'Pelaajan Pelaaja 1' doubles the word",
    r"englanninkielinen teksti\b|suomenkielinen teksti\b": "the rules have Finnish names",
}


def test_finnish_has_none_of_the_corrected_forms():
    found = {
        (key, why)
        for key, text in table("fi").items()
        for pattern, why in FINNISH_CORRECTED.items()
        if re.search(pattern, text, re.I)
    }
    assert found == set()


def test_finnish_fixes_read_as_a_teacher_wrote_them():
    fi = table("fi")
    assert fi["error.nothing_to_take_back"].startswith("Ei ole mitään peruttavaa")
    for key in ("display.no_melds", "ui.no_melds"):
        assert fi[key].startswith("Pöydällä ei ole")
    assert fi["ui.melds"] == "Pöytäykset pöydällä"
    assert "pöytäys pöydältä" in fi["ui.error.choose_meld"]
    assert fi["rules.row.final_discard"] == "Ulosmeno päättyy aina poistoon"
    assert fi["rules.row.ace_points"] == "Ässän pistearvo"
    assert "pistearvo" in fi["rules.row.other_points"] and "pistearvo" in fi["check.points.hint"]
    for key in ("bot.advise.expert_hold", "bot.explain.expert_hold"):
        assert "valmiit setit ja suorat kädessä" in fi[key]
    assert "Rummyssä" in fi["ui.reason.ace_low"]
    assert fi["ui.meld"] == "Tee pöytäys"
    assert "M tee pöytäys" in fi["ui.keys"] and "englanninkielisten sanojen" in fi["ui.keys"]
    player = t("common.player_n", "fi", n=1)
    assert t("display.hand_of", "fi", name=player) == "Pelaaja 1: käsi"
    assert t("ui.hand_of", "fi", name=player) == "Pelaaja 1: käsi"
    assert t("rules.title", "fi", preset=fi["rules.preset.traditional"]).startswith(
        "Säännöt: Perinteinen Rummy"
    )


def test_the_stock_rebuild_has_one_name_in_finnish():
    """ "Nostopakan uusiminen", the glossary's word: the log and the rules table say it too."""
    fi = table("fi")
    assert "nostopakan uusiminen" in fi["rules.value.rebuilds"]
    assert fi["log.rebuild"].startswith("Nostopakka uusittiin")
    others = [k for k, v in fi.items() if re.search(r"pakka\w* (uudistet|uudelleen)", v)]
    assert others == []


def test_bot_names_in_finnish_are_all_bots():
    """ "Perus" alone is no name: every built-in bot is a ...botti, as on the classroom board."""
    from rummy_widget.bots import BOT_NAMES

    fi = table("fi")
    names = [fi[f"bot.name.{name}"] for name in BOT_NAMES]
    assert fi["bot.name.basic"] == "Perusbotti"
    assert all(name.endswith("botti") for name in names), names
    for name in BOT_NAMES:
        seat = fi[f"classroom.bot_seat.{name}"]
        assert seat.startswith(fi[f"bot.name.{name}"].lower()), (name, seat)


#: Each rank's Finnish name with its genitive and partitive (Kielitoimiston sanakirja's forms;
#: tests/test_spelling.py asks Voikko for each compound's case).
FINNISH_RANKS = {
    1: ("ässä", "ässän", "ässää"),
    2: ("kakkonen", "kakkosen", "kakkosta"),
    3: ("kolmonen", "kolmosen", "kolmosta"),
    4: ("nelonen", "nelosen", "nelosta"),
    5: ("viitonen", "viitosen", "viitosta"),
    6: ("kuutonen", "kuutosen", "kuutosta"),
    7: ("seiska", "seiskan", "seiskaa"),
    8: ("kahdeksikko", "kahdeksikon", "kahdeksikkoa"),
    9: ("yhdeksikkö", "yhdeksikön", "yhdeksikköä"),
    10: ("kymppi", "kympin", "kymppiä"),
    11: ("sotilas", "sotilaan", "sotilasta"),
    12: ("kuningatar", "kuningattaren", "kuningatarta"),
    13: ("kuningas", "kuninkaan", "kuningasta"),
}


def test_a_finnish_card_name_inflects_at_its_rank_for_all_13_ranks():
    from rummy_widget import Card, card_name

    suits = {"S": "pata", "H": "hertta", "D": "ruutu", "C": "risti"}
    for rank, (nom, gen, part) in FINNISH_RANKS.items():
        for suit, word in suits.items():
            name = card_name(Card.of(rank, suit), "fi")
            assert name == word + nom
            assert inflect_card(name, "nom", "fi") == word + nom
            assert inflect_card(name, "gen", "fi") == word + gen
            assert inflect_card(name, "part", "fi") == word + part


def test_a_card_in_symbols_or_in_english_keeps_its_name():
    assert inflect_card("Q♥", "gen", "fi") == "kortin Q♥"
    assert inflect_card("10♣", "part", "fi") == "korttia 10♣"
    for name in ("queen of hearts", "Q♥", "10 of clubs"):
        assert inflect_card(name, "gen", "en") == name
    try:
        inflect_card("herttasotilas", "illative", "fi")
    except ValueError as error:
        assert "gen" in str(error)
    else:
        raise AssertionError("an unknown case must raise")


def test_a_list_of_cards_is_inflected_and_joined():
    names = ["herttasotilas", "ruutusotilas", "ristisotilas"]
    assert inflect_cards(names, "gen", "fi") == "herttasotilaan, ruutusotilaan ja ristisotilaan"
    assert inflect_cards(names[:1], "gen", "fi") == "herttasotilaan"
    spoken = ["jack of hearts", "jack of diamonds", "jack of clubs"]
    assert inflect_cards(spoken, "gen", "en") == ", ".join(spoken)


def test_the_logs_sentences_inflect_the_cards_they_name():
    from rummy_widget import parse_cards
    from rummy_widget.display.log_words import event_text

    jacks = [c.to_json() for c in parse_cards("JH JD JC")]
    melded = {"type": "meld", "player": 0, "cards": jacks}
    names = ["Sinä", "Aino"]
    assert event_text(melded, names, "fi", you=0) == (
        "Pöytäsit herttasotilaan, ruutusotilaan ja ristisotilaan."
    )
    assert event_text(melded, names, "fi", you=0, short=True) == "Pöytäsit J♥ J♦ J♣."
    taken = {"type": "draw", "player": 0, "source": "discard", "card": jacks[0]}
    assert event_text(taken, names, "fi", you=0) == "Otit poistopakasta herttasotilaan."
    assert event_text(taken, names, "fi", you=0, short=True) == "Otit poistopakasta kortin J♥."
    thrown = {"type": "discard", "player": 1, "card": parse_cards("KS")[0].to_json()}
    assert event_text(thrown, names, "fi") == "Aino heitti pois patakuninkaan."
    laid = {"type": "lay_off", "player": 1, "card": parse_cards("QD")[0].to_json(), "meld_index": 0}
    assert event_text(laid, names, "fi") == "Aino lisäsi ruutukuningattaren pöytäykseen 0."
    assert event_text(taken, ["You", "Aino"], "en", you=0) == (
        "You took jack of hearts from the discard pile."
    )
