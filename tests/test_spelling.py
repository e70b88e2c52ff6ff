"""Finnish a teacher would sign: Voikko checks every Finnish string and tutorial paragraph.

Voikko is the Finnish spell checker of LibreOffice and Firefox: Debian's ``libvoikko1`` and
``voikko-fi`` (installed by ``.ci/run``) through the ``libvoikko`` binding of the [dev] extra.
Words it does not know but that are right (pöytäys, botti, names) are in
tests/spelling_accepted.txt. Under CI a missing Voikko fails: the check must not go quiet.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path

import pytest

from rummy_widget.i18n import table

ROOT = Path(__file__).resolve().parent.parent
ACCEPTED_FILE = Path(__file__).with_name("spelling_accepted.txt")
WORD = re.compile(r"[A-Za-zÅÄÖåäöÉé]+(?:-[A-Za-zÅÄÖåäöÉé]+)*")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")
# "95 %:n", "7:n": a case ending after a number or a sign is no word of its own.
NUMBER_ENDING = re.compile(r"[\d%]+:[a-zäö]+")
CODE_CALL = re.compile(r"\b\w+\([^()]*\)")  # act(observation), dict(...)
CODE_NAME = re.compile(r"\b\w+_\w+\b")  # action_mask, max_turns: a name in code, not a word


def _load_voikko():
    try:
        import libvoikko

        return libvoikko.Voikko("fi")
    except Exception:  # the binding, the C library or the Finnish dictionary is missing
        return None


@pytest.fixture(scope="module")
def voikko():
    checker = _load_voikko()
    if checker is None:
        message = (
            "Voikko is missing: apt-get install libvoikko1 voikko-fi, and "
            "pip install -e '.[dev]' (the libvoikko binding)"
        )
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    yield checker
    checker.terminate()


def accepted_entries() -> list[str]:
    lines = ACCEPTED_FILE.read_text("utf-8").splitlines()
    return [line.strip().lower() for line in lines if line.strip() and not line.startswith("#")]


def _accepted(word: str) -> bool:
    word = word.lower()
    return any(
        word.startswith(entry[:-1]) if entry.endswith("*") else word == entry
        for entry in accepted_entries()
    )


def misspelled(checker, words) -> set[str]:
    """The words neither Voikko nor the accepted list knows (a compound of known parts is
    known, as is a hyphenated word whose parts are)."""
    spell = cache(lambda w: bool(checker.spell(w)) or _accepted(w))

    def known(word: str) -> bool:
        if spell(word) or all(spell(part) for part in word.split("-") if part):
            return True
        return any(spell(word[:i]) and spell(word[i:]) for i in range(3, len(word) - 2))

    return {w for w in words if not known(w)}


def words_in(text: str) -> list[str]:
    text = PLACEHOLDER.sub(" ", text)
    text = NUMBER_ENDING.sub(" ", text)
    text = CODE_CALL.sub(" ", text)
    text = CODE_NAME.sub(" ", text)
    return WORD.findall(text)


def markdown_prose(source: str) -> str:
    """A Finnish notebook's markdown without code, English glosses (``(*hearts*)``,
    ``englanniksi *ring game*``), menu paths and the glossary's column of English words."""
    source = re.sub(r"```.*?```", " ", source, flags=re.S)
    source = re.sub(r"`[^`]*`", " ", source)
    source = re.sub(r"https?://\S+", " ", source)
    source = re.sub(r"\(\*[^*]+\*\)", " ", source)  # (*hearts*): the English word, glossed
    source = re.sub(r"englanniksi \*[^*]+\*", " ", source)  # "englanniksi *ring game*"
    source = re.sub(r"\*[^*]*▸[^*]*\*", " ", source)  # *Run ▸ Run All Cells*: a menu
    lines = []
    english_column = None
    for line in source.splitlines():
        cells = line.strip().strip("|").split("|") if line.lstrip().startswith("|") else None
        if cells is None:
            english_column = None
            lines.append(line)
            continue
        names = [c.strip().lower() for c in cells]
        if "englanniksi" in names:  # the glossary's column of English words
            english_column = names.index("englanniksi")
        if english_column is not None and english_column < len(cells):
            cells.pop(english_column)
        lines.append(" ".join(cells))
    return "\n".join(lines)


def finnish_notebook_prose() -> dict[str, str]:
    texts = {}
    for path in sorted((ROOT / "tutorials" / "fi").glob("*.ipynb")):
        cells = json.loads(path.read_text("utf-8"))["cells"]
        for i, cell in enumerate(cells):
            if cell["cell_type"] == "markdown":
                texts[f"{path.name} cell {i}"] = markdown_prose("".join(cell["source"]))
    return texts


def test_every_finnish_string_is_spelled_right(voikko):
    wrong = {
        key: sorted(bad)
        for key, text in table("fi").items()
        if (bad := misspelled(voikko, words_in(text)))
    }
    assert wrong == {}


def test_the_finnish_tutorials_are_spelled_right(voikko):
    texts = finnish_notebook_prose()
    assert len(texts) > 40
    wrong = {
        where: sorted(bad)
        for where, text in texts.items()
        if (bad := misspelled(voikko, words_in(text)))
    }
    assert wrong == {}


def test_the_check_finds_a_misspelling_and_knows_the_kits_words(voikko):
    text = "Heitä pois ristikuningas, pöytää pataseiska ja lisää herttaässä pöytäykseen."
    assert misspelled(voikko, words_in(text)) == set()
    assert misspelled(voikko, words_in("Heitä poiss poistopaka {card}.")) == {"poiss", "poistopaka"}
    assert misspelled(voikko, words_in("perusbottia, Rummy-ulosmenon, 95 %:n")) == set()


def test_every_accepted_word_is_one_voikko_does_not_know(voikko):
    """The list stays short: nothing on it that Voikko already accepts."""
    entries = accepted_entries()
    assert len(entries) <= 50
    assert [e for e in entries if not e.endswith("*") and voikko.spell(e)] == []


SPLIT_CARD_NAME = re.compile(
    r"\b(pata|hertta|ruutu|risti) (\d|ässä|sotila|kuningat|kunink|kuningas|jätkä|rouva)", re.I
)


def test_finnish_names_cards_as_compounds_and_never_deletes_a_card():
    """ "herttaseiska", not "hertta 7"; discarding is "heittää pois", never "poistaa" (delete):
    the only "poist-" words are the rules text's noun poisto (the discard, the turn's last
    step) and the discard pile's name, poistopakka."""
    texts = {f"fi.json {k}": v for k, v in table("fi").items()} | finnish_notebook_prose()
    assert {w: t for w, t in texts.items() if SPLIT_CARD_NAME.search(t)} == {}
    deleting = {
        key: word
        for key, text in table("fi").items()
        for word in words_in(text)
        if word.lower().startswith("poist") and not word.lower().startswith("poisto")
    }
    assert deleting == {}


def test_a_replay_is_toisto_never_uusinta():
    """ "Uusinta" is a rematch; watching a game again is "toisto" (the replay's controls)."""
    texts = {f"fi.json {k}": v for k, v in table("fi").items()} | finnish_notebook_prose()
    assert {w: t for w, t in texts.items() if re.search(r"\buusin", t, re.I)} == {}


def test_voikko_reads_each_inflected_card_name_in_its_case(voikko):
    """The card names the log inflects (i18n.inflect_card) are the cases Voikko finds."""
    from rummy_widget import Card, card_name
    from rummy_widget.i18n import inflect_card

    cases = {"gen": "omanto", "part": "osanto"}
    for rank in range(1, 14):
        for suit in "SHDC":
            name = card_name(Card.of(rank, suit), "fi")
            for case, voikko_case in cases.items():
                word = inflect_card(name, case, "fi")
                readings = {(a.get("BASEFORM"), a.get("SIJAMUOTO")) for a in voikko.analyze(word)}
                assert (name, voikko_case) in readings, (word, readings)
