"""The tutorial notebooks come in pairs: the same lessons in English and Finnish, cell for cell.

Strict nbval (``make test``) checks that each notebook's saved outputs match a fresh run; these
tests check what nbval cannot: that the two languages stay paired, that every notebook was saved
from a clean top-to-bottom run, and that the Finnish lessons use the rules text's words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

TUTORIALS = Path(__file__).resolve().parent.parent / "tutorials"
LANGS = ("en", "fi")
LANG_TAG = "lang-setup"
#: The lessons issue 8 asks for, by number; each needs a notebook in both languages.
LESSONS = range(1, 10)


def notebook_names(lang: str) -> list[str]:
    return sorted(p.name for p in (TUTORIALS / lang).glob("*.ipynb"))


def load(lang: str, name: str) -> dict:
    return json.loads((TUTORIALS / lang / name).read_text("utf-8"))


def tags(cell: dict) -> list[str]:
    return list(cell.get("metadata", {}).get("tags", []))


def source(cell: dict) -> str:
    text = cell["source"]
    return "".join(text) if isinstance(text, list) else text


NAMES = notebook_names("en")
PAIRS = [pytest.param(name, id=name) for name in NAMES]


def test_both_languages_have_the_same_numbered_notebooks():
    assert notebook_names("fi") == NAMES
    numbers = sorted(int(name[:2]) for name in NAMES)
    assert all(re.fullmatch(r"\d\d_[a-z0-9_]+\.ipynb", name) for name in NAMES), NAMES
    assert set(LESSONS) <= set(numbers), f"missing lessons: {set(LESSONS) - set(numbers)}"
    assert len(numbers) == len(set(numbers)), "two notebooks share a number"


@pytest.mark.parametrize("name", PAIRS)
def test_cells_are_paired(name: str):
    en, fi = load("en", name), load("fi", name)
    assert len(en["cells"]) == len(fi["cells"])
    for a, b in zip(en["cells"], fi["cells"], strict=True):
        where = f"{name} cell {a.get('id')}"
        assert a["cell_type"] == b["cell_type"], where
        assert a.get("id") and a.get("id") == b.get("id"), where
        assert tags(a) == tags(b), where
        if a["cell_type"] == "code" and LANG_TAG not in tags(a):
            assert source(a) == source(b), f"{where}: code differs between the languages"


@pytest.mark.parametrize("name", PAIRS)
def test_one_language_cell_sets_the_language(name: str):
    for lang in LANGS:
        cells = [c for c in load(lang, name)["cells"] if LANG_TAG in tags(c)]
        assert len(cells) == 1, f"{lang}/{name}: exactly one {LANG_TAG} cell"
        assert cells[0]["cell_type"] == "code"
        assert source(cells[0]).strip() == f'LANG = "{lang}"'


@pytest.mark.parametrize("name", PAIRS)
def test_markdown_is_translated(name: str):
    en, fi = load("en", name), load("fi", name)
    for a, b in zip(en["cells"], fi["cells"], strict=True):
        if a["cell_type"] == "markdown":
            assert source(a) != source(b), f"{name} cell {a['id']} is not translated"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", PAIRS)
def test_saved_from_a_clean_top_to_bottom_run(lang: str, name: str):
    """Every code cell executed, in order from 1; errors only where a cell is meant to raise."""
    cells = [c for c in load(lang, name)["cells"] if c["cell_type"] == "code"]
    counts = [c.get("execution_count") for c in cells]
    assert counts == list(range(1, len(cells) + 1)), f"{lang}/{name}: {counts}"
    for cell in cells:
        errors = [o for o in cell.get("outputs", []) if o["output_type"] == "error"]
        raises = "raises-exception" in tags(cell)
        assert bool(errors) == raises, f"{lang}/{name} cell {cell['id']}"
        for output in cell.get("outputs", []):
            assert not (output["output_type"] == "stream" and output["name"] == "stderr"), (
                f"{lang}/{name} cell {cell['id']} wrote to stderr"
            )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", PAIRS)
def test_outputs_hold_no_machine_specific_text(lang: str, name: str):
    """No absolute paths, memory addresses or saved widget state: the files stay portable."""
    nb = load(lang, name)
    assert "widgets" not in nb.get("metadata", {})
    text = json.dumps([c.get("outputs", []) for c in nb["cells"]])
    assert "/work/" not in text and "/home/" not in text and "/tmp/" not in text
    assert not re.search(r" object at 0x[0-9a-f]+", text)


ENGLISH_CARD_NAME = re.compile(r" of (spades|hearts|diamonds|clubs)")


def html_outputs(lang: str, name: str) -> list[str]:
    outputs = [o for c in load(lang, name)["cells"] for o in c.get("outputs", [])]
    found = [o["data"]["text/html"] for o in outputs if "text/html" in o.get("data", {})]
    return ["".join(h) if isinstance(h, list) else h for h in found]


@pytest.mark.parametrize("name", PAIRS)
def test_pictures_speak_the_notebooks_language(name: str):
    """Saved cards are named for screen readers in the lesson's language, not in English."""
    for lang in LANGS:
        for html in html_outputs(lang, name):
            if "<svg" in html:
                assert f'lang="{lang}"' in html, f"{lang}/{name}"
    assert not any(ENGLISH_CARD_NAME.search(h) for h in html_outputs("fi", name)), name


def test_lessons_with_cards_show_them_as_pictures():
    """Readable where no kernel runs (GitHub, nbviewer): cards are saved as SVG in the HTML."""
    for name in NAMES:
        if name.startswith(("01", "02", "03", "04", "05", "06", "08")):
            for lang in LANGS:
                assert any("<svg" in h for h in html_outputs(lang, name)), f"{lang}/{name}"


def test_finnish_glossary_uses_the_rules_texts_words():
    glossary = next(n for n in NAMES if "glossary" in n)
    text = " ".join(source(c) for c in load("fi", glossary)["cells"]).lower()
    words = ["nostopakka", "poistopakka", "pöytäys", "setti", "suora", "sakkopisteet", "ulosmeno"]
    words += ["rummy-ulosmeno", "umpipakka", "avopakka", "värisuora", "etukäsi"]
    assert [w for w in words if w not in text] == []


def test_exercises_start_unanswered():
    """Answer cells run as committed: the learner's answer starts as None."""
    found = 0
    for lang in LANGS:
        for name in NAMES:
            for cell in load(lang, name)["cells"]:
                if cell["cell_type"] == "code" and source(cell).startswith("answer = None"):
                    found += 1
                    assert "checks." in source(cell)
    assert found >= 2 * 10


def markdown(lang: str, name: str) -> str:
    return "\n".join(source(c) for c in load(lang, name)["cells"] if c["cell_type"] == "markdown")


def numbered(number: int) -> str:
    return next(name for name in NAMES if name.startswith(f"{number:02d}"))


#: Lessons 1-10; lesson 11 is checked with its own review tests.
OWN_LESSONS = [name for name in NAMES if int(name[:2]) <= 10]

#: Finnish a teacher corrected (issue 40): (lesson, wrong, right).
FINNISH_FIXES = [
    (2, "Rummya", "Rummyä"),
    (4, "saat pöytää", "saat pöydätä"),
    (5, "sen saa myös pöytää", "sen saa myös pöydätä"),
    (5, "hän saa pöytää", "hän saa pöydätä"),
    (6, "valinnut pöytäyksen pöydästä", "valinnut pöytäyksen pöydältä"),
    (6, "pöytäyksensä kädessä", "valmiit setit ja suorat kädessä"),
    (6, "**Pöytää**", "**Tee pöytäys**"),
    (6, "| M / L / D | pöytää", "Kirjainnäppäimet ovat englanninkielisten sanojen alkukirjaimia"),
    (8, "pöydässä jo olevat", "pöydällä jo olevat"),
    (8, "kysyy luokalta", "Kysymys luokalle:"),
    (8, "takariviinkin", "takariviltäkin"),
    (8, "oppitunnin kielinen nimi", "nimi oppitunnin kielellä"),
    (8, "Pöytä alkaa", "Peli alkaa, kun pöytä on täynnä"),
    (9, "pöydässä olevaan pöytäykseen", "pöydällä olevaan pöytäykseen"),
    (3, "vähintään kolme samanarvoista", "kolme tai neljä samanarvoista korttia, kaikki eri"),
    (9, "vähintään kolme samanarvoista", "kolme tai neljä samanarvoista korttia, kaikki eri"),
    (2, "Korttien arvot", "Korttien pistearvot"),
    (5, "pisteen arvoi", "pistearvo"),
]


@pytest.mark.parametrize(("number", "wrong", "right"), FINNISH_FIXES)
def test_finnish_lessons_say_it_as_a_finnish_teacher_would(number: int, wrong: str, right: str):
    text = markdown("fi", numbered(number))
    assert wrong not in text
    assert right in text


#: Words the Finnish lessons leave to the rules text's own: the discard is "poisto", the game
#: is Rummy, a pupil is "oppilas" ("oppija" is lesson 10's learning program), and "pöytää" after
#: saada is the partitive of pöytä, not the verb pöydätä.
FINNISH_NEVER = re.compile(r"poisheit|\brommi|\boppij|\bsaa\w* pöytää\b|pisteen arvoi", re.I)


@pytest.mark.parametrize("name", [n for n in NAMES if not n.startswith("10")])
def test_finnish_lessons_use_the_rules_texts_terms(name: str):
    assert FINNISH_NEVER.findall(markdown("fi", name)) == []


MONEY = re.compile(r"\bcents?\b|\bmoney\b|\bsentt|\braha", re.I)


@pytest.mark.parametrize("lang", LANGS)
def test_no_money_for_minors(lang: str):
    """Lesson 5 shares a pool of tokens; the lessons never count money (``payout`` keeps its
    smallest unit, a cent, for grown-ups' code)."""
    for name in OWN_LESSONS:
        nb = load(lang, name)
        text = markdown(lang, name) + json.dumps([c.get("outputs", []) for c in nb["cells"]])
        assert MONEY.findall(text) == [], name


def test_lesson_1_lists_every_lesson():
    for lang in LANGS:
        listed = re.findall(r"^\| (\d+) \| `(\w+)`", markdown(lang, numbered(1)), re.M)
        assert [f"{n.zfill(2)}" for n, _ in listed] == [name[:2] for name in NAMES]
        assert [f"{name}.ipynb" for _, name in listed] == NAMES


#: The core path, one 45-minute period each; the other lessons are extensions.
CORE = {1, 2, 3, 4, 5, 6, 8}
PLAN = {
    "en": (r"\*\*Goals\*\*", r"\*\*Time:\*\* (\d+) minutes · \*\*(Core|Extension)\*\*"),
    "fi": (r"\*\*Tavoitteet\*\*", r"\*\*Aika:\*\* (\d+) minuuttia · \*\*(Perusosa|Lisäosa)\*\*"),
}


@pytest.mark.parametrize("name", [pytest.param(n, id=n) for n in NAMES])
def test_each_lesson_opens_with_its_goals_time_and_place_in_the_path(name: str):
    plans = []
    for lang in LANGS:
        first = load(lang, name)["cells"][0]
        assert first["cell_type"] == "markdown"
        goals, time = PLAN[lang]
        text = source(first)
        assert re.search(goals + r"\n\n(- .+\n)+", text), f"{lang}/{name}: no list of goals"
        found = re.search(time, text)
        assert found, f"{lang}/{name}: no time"
        plans.append((int(found.group(1)), found.group(2) in ("Core", "Perusosa")))
    assert plans[0] == plans[1], name
    minutes, core = plans[0]
    assert core == (int(name[:2]) in CORE), name
    assert not core or minutes <= 45, name


def answer_cells(lang: str, name: str) -> list[str]:
    return [
        source(c)
        for c in load(lang, name)["cells"]
        if c["cell_type"] == "code" and source(c).startswith("answer = None")
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_each_core_lesson_ends_with_a_self_checking_quiz(lang: str):
    heading = {"en": "## Quiz", "fi": "## Pikatesti"}[lang]
    for number in CORE:
        cells = load(lang, numbered(number))["cells"]
        starts = [i for i, c in enumerate(cells) if source(c).startswith(heading)]
        assert len(starts) == 1, f"{lang}/{number}"
        quiz = [source(c) for c in cells[starts[0] :] if c["cell_type"] == "code"]
        assert len(quiz) >= 2 and all(q.startswith("answer = None") for q in quiz), number
        assert all("checks." in q for q in quiz)


@pytest.mark.parametrize("lang", LANGS)
def test_the_answer_key_answers_every_exercise_and_quiz(lang: str):
    """Lesson 8 ends with the key: for each lesson an entry per check cell (and per open task)."""
    words = {"en": ("Lesson", "Exercise", "Quiz"), "fi": ("Oppitunti", "Tehtävä", "Pikatesti")}
    lesson_word, exercise, quiz = words[lang]
    key = next(source(c) for c in load(lang, numbered(8))["cells"] if c.get("id") == "n08-key")
    sections = dict(re.findall(rf"^### {lesson_word} (\d+)\n(.*?)(?=^### |\Z)", key, re.M | re.S))
    for name in OWN_LESSONS:
        checked = len(answer_cells(lang, name))
        if checked == 0:
            continue
        entries = re.findall(
            rf"^- (?:{exercise}|{quiz})\b", sections.get(str(int(name[:2])), ""), re.M
        )
        assert len(entries) >= checked, f"{lang}/{name}: {len(entries)} answers, {checked} checks"


def test_the_answer_key_is_right():
    """The key's numbers are the checkers' own answers (each lesson's rules)."""
    from rummy_widget.teaching import checks

    key = {lang: source(load(lang, numbered(8))["cells"][-1]) for lang in LANGS}
    for lang, rules, aces in (("en", "traditional", 2), ("fi", "rummy_royal", 22)):
        assert checks.hand_points("AD AC", aces, rules=rules)
        assert re.search(rf"Pikatesti 2: {aces} |Quiz 2: {aces} ", key[lang])
    assert checks.best_penalty("2C 3C 4C 5C 9H 9S 9D JD QD AS", 21, rules="traditional")
    assert "- Exercise 4: 21." in key["en"] and "- Tehtävä 4: 31." in key["fi"]
    assert checks.payout(1_000, [0, 30, 45, 80], [750, 200, 50, 0])
    assert all("[750, 200, 50, 0]" in text for text in key.values())


EVERYDAY_WORDS = {
    "en": ["hand", "turn", "deck", "shuffle", "face up", "face down", "jack", "queen", "king"],
    "fi": ["käsi", "vuoro", "pakka", "sekoittaa", "kuvapuoli ylöspäin", "kuvapuoli alaspäin"],
}


def test_the_glossary_gives_everyday_card_words_in_both_languages():
    """Each glossary row has its word in bold and the other language's word beside it."""
    for lang in LANGS:
        rows = [r for r in markdown(lang, numbered(9)).splitlines() if r.startswith("| **")]
        bold = " ".join(r.split("|")[1] for r in rows)
        other = " ".join(r.split("|")[-2] for r in rows)
        other_lang = "fi" if lang == "en" else "en"
        assert [w for w in EVERYDAY_WORDS[lang] if f"**{w}**" not in bold] == []
        assert [w for w in EVERYDAY_WORDS[other_lang] if w not in other] == []
    faces = {"en": ["jack", "queen", "king"], "fi": ["sotilas", "kuningatar", "kuningas"]}
    for lang in LANGS:
        assert all(f"**{w}**" in markdown(lang, numbered(9)) for w in faces[lang])


def prose_units(text: str) -> list[str]:
    """A markdown cell's headings, table cells, list items and paragraphs, code blocks left out."""
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    units: list[str] = []
    paragraph: list[str] = []
    for line in [*text.splitlines(), ""]:
        line = line.strip()
        starts_item = re.match(r"([-*]|\d+\.) ", line)
        if not line or line.startswith(("#", "|")) or starts_item:
            units.append(" ".join(paragraph))
            paragraph = []
        if line.startswith("|"):
            units += line.strip("|").split("|")
        elif line.startswith("#"):
            units.append(line.lstrip("# "))
        elif line:
            paragraph.append(line)
    return [u for u in units if u.strip()]


def sentences(text: str) -> list[str]:
    return [s for unit in prose_units(text) for s in re.split(r"(?<=[.!?])\s+(?=[A-Z(*`\"])", unit)]


def words(sentence: str) -> list[str]:
    """Words, not figures: "K 10 + Q 10 = 20" is no 25-word sentence."""
    return [w for w in sentence.split() if re.search(r"[a-z]", w)]


@pytest.mark.parametrize("number", range(1, 7))
def test_lessons_1_to_6_speak_in_sentences_of_25_words_at_most(number: int):
    cells = [
        source(c) for c in load("en", numbered(number))["cells"] if c["cell_type"] == "markdown"
    ]
    long = [s for cell in cells for s in sentences(cell) if len(words(s)) > 25]
    assert long == []


def test_sentences_split_where_a_reader_stops():
    text = "# Title\n\nOne two. Three four!\n\n- an item\n  goes on\n\n| a | b c |\n```\ncode\n```"
    assert sentences(text) == [
        "Title",
        "One two.",
        "Three four!",
        "- an item goes on",
        " a ",
        " b c ",
    ]
    assert words("K 10 + Q 10 + A 1 = 21 under the English rules") == [
        "under",
        "the",
        "English",
        "rules",
    ]


def test_lessons_1_to_6_use_no_jargon_they_do_not_explain():
    """Engine, executor, duplicate deals and confidence intervals wait for lesson 7; a seed and
    a preset are explained where lesson 1 first names them."""
    for number in range(1, 7):
        text = markdown("en", numbered(number)).lower()
        assert re.findall(r"\bengine|executor|duplicate deal|confidence|interval", text) == []
    first = markdown("en", numbered(1))
    assert "The *seed* is a number that fixes the shuffle" in first
    assert "The rules come in two versions (*presets*)" in first


def test_the_finnish_rules_table_says_poydata():
    """docs/rules.md's Finnish table: the verb is pöydätä ("saa pöydätä"), not pöytää."""
    rules = (TUTORIALS.parent / "docs" / "rules.md").read_text("utf-8")
    row = next(line for line in rules.splitlines() if line.startswith("| 11 | pöytäyksiä"))
    assert "saa pöydätä" in row and "saa pöytää" not in rules


#: A top-level ``game.lay_off(card, n)`` call in a lesson's code (not one inside a function).
LAY_OFF_CALL = re.compile(r'^(\w+)\.lay_off\(("[^"]+"|\w+), (\d+)\)', re.M)
GAME_MADE = re.compile(r"^(\w+) = Game[.(]", re.M)
MELD_GROUP = re.compile(r'class="rw-s-group rw-s-meld".*?(?=class="rw-s-group|$)', re.S)


def picture_melds(html: str) -> dict[int, list[str]]:
    """The melds a saved table picture shows: the number in each meld's label, its cards' names."""
    melds = {}
    for group in MELD_GROUP.findall(html):
        label = re.search(r'class="rw-s-label"[^>]*>([^<]*)<', group).group(1)
        melds[int(re.search(r"\d+", label).group())] = re.findall(r"<title>([^<]*)</title>", group)
    return melds


def log_lay_off_numbers(text: str, lang: str) -> list[int]:
    """The meld numbers of the lay-offs a saved record of moves (``moves(...)``) names."""
    from rummy_widget.i18n import table

    template = re.escape(table(lang)["log.lay_off"])
    pattern = re.sub(r"\\\{index\\\}", r"(\\d+)", template)
    pattern = re.sub(r"\\\{\w+\\\}", ".+?", pattern)
    return [int(n) for n in re.findall(pattern, text)]


def plain_outputs(cell: dict) -> str:
    texts = [o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", [])]
    return "\n".join("".join(t) if isinstance(t, list) else t for t in texts)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", PAIRS)
def test_a_lay_off_names_the_meld_the_picture_and_the_record_show(lang: str, name: str):
    """One numbering (from 0) for the calls, the pictures' labels, the record and the prose:
    a learner never translates between two."""
    from rummy_widget import Card, card_name

    calls: dict[str, list[int]] = {}
    prose = ""
    for cell in load(lang, name)["cells"]:
        text = source(cell)
        if cell["cell_type"] == "markdown":
            prose = text
            continue
        for game in GAME_MADE.findall(text):
            calls[game] = []
        for game, card, number in LAY_OFF_CALL.findall(text):
            calls.setdefault(game, []).append(int(number))
            if card.startswith('"'):
                drawn = card_name(Card.parse(card.strip('"')), lang)
                html = "".join(html_outputs_of(cell))
                if "rw-s-meld" in html:
                    assert drawn in picture_melds(html).get(int(number), []), (name, card, number)
            words = re.findall(r"(?:meld|pöytäys) (\d+)\)", prose)
            assert all(int(n) == int(number) for n in words), (name, card, words, number)
        shown = re.search(r"^moves\((\w+)", text, re.M)
        if shown and calls.get(shown.group(1)):
            numbers = log_lay_off_numbers(plain_outputs(cell), lang)
            assert numbers == calls[shown.group(1)], (name, numbers, calls[shown.group(1)])


def html_outputs_of(cell: dict) -> list[str]:
    found = [
        o["data"]["text/html"] for o in cell.get("outputs", []) if "text/html" in o.get("data", {})
    ]
    return ["".join(h) if isinstance(h, list) else h for h in found]


#: A word of the game, and where lessons 1-6 define it (in bold or italics).
DEFINED_WORDS = {
    r"\bdeals?\b": "**deal**",
    r"\bgo(es|ing)? out\b|\bwent out\b|\bgone out\b": "**goes out**",
    r"\bmatch(es)?\b": "**match**",
    r"\bconsecutive\b": "*consecutive*",
}


@pytest.mark.parametrize("pattern", DEFINED_WORDS)
def test_lessons_1_to_6_define_a_word_before_they_use_it(pattern: str):
    """The first time lessons 1-6 use the word, in reading order, is where they define it."""
    definition = DEFINED_WORDS[pattern]
    for number in range(1, 7):
        for cell in load("en", numbered(number))["cells"]:
            text = source(cell) if cell["cell_type"] == "markdown" else ""
            first = re.search(pattern, text.replace("*", ""), re.I)
            if first:
                defined = text.replace("*", "").find(definition.strip("*"))
                assert definition in text and defined == first.start(), (number, cell["id"])
                return
    pytest.fail(f"{definition} is never used")
