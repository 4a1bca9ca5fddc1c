"""A query whose words no page holds all of falls back on pages holding some of them, says so,
keeps its syntax (phrases, NOT, OR, prefixes) and never matches on stop words alone; fused lists
break ties by rank, not by the printed form of their keys."""

from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.hybrid import keyword_first, rrf
from pdfdesk.tools import call_tool

PAGES = [
    "Crop marks are printed at each corner of the frame so the printer can trim the margins.",
    "The graphic is scaled to the width of the text block and centred on the page.",
    "Each chapter opens on a right-hand page with the title set in bold.",
    "The of and the with a to in is: a page of nothing but function words and more words.",
    "Margins are trimmed by four lengths around every frame graphic before printing.",
]


@pytest.fixture
def pages_pdf(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    for text in PAGES:
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 300), text, fontsize=11)
    path = tmp_path / "pages.pdf"
    doc.save(path)
    return path


def _pdf(folder: Path, texts: list[str], bottom: float = 300) -> Path:
    """A PDF of one page per text."""
    doc = pymupdf.open()
    for text in texts:
        doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, bottom), text, fontsize=10)
    path = folder / "pages.pdf"
    doc.save(path)
    return path


def _search(path: Path, query: str, indexed: bool = True) -> dict:
    if indexed:
        with open_pdf(str(path)) as opened:
            build_index(Target(opened.source, None, opened.fingerprint))
    result = call_tool("pdf_search", {"path": str(path), "query": query, "mode": "keyword"})
    assert not result.is_error, result.text
    return result.details


@pytest.mark.parametrize("indexed", [True, False], ids=["index", "scan"])
def test_own_words_find_the_page_with_most_of_them(pages_pdf, indexed):
    details = _search(pages_pdf, "cut away the margins of each frame graphic by four lengths", indexed)
    assert details["keyword_match"] == "partial" and "some of them" in details["note"]
    assert details["matches"][0]["page"] == 5
    assert all(m["keyword_match"] == "partial" for m in details["matches"])
    assert 4 not in [m["page"] for m in details["matches"]]  # stop words alone never make a match


def test_all_words_first_then_some(pages_pdf):
    details = _search(pages_pdf, "trim margins")
    pages = [(m["page"], m.get("keyword_match")) for m in details["matches"]]
    assert pages[0] == (1, None)  # the one page holding both words, not marked
    assert (5, "partial") in pages and details["keyword_match"] == "partial"


def test_enough_pages_with_every_word_are_not_relaxed(pages_pdf):
    details = _search(pages_pdf, "page")
    assert "keyword_match" not in details and all("keyword_match" not in m for m in details["matches"])


def test_syntax_keeps_its_meaning_when_relaxed(pages_pdf):
    excluded = [m["page"] for m in _search(pages_pdf, "margins frame chapter NOT crop")["matches"]]
    assert 1 not in excluded and 5 in excluded
    phrase = _search(pages_pdf, '"frame graphic" chapter')
    assert [m["page"] for m in phrase["matches"]][:1] == [5]
    assert 2 not in [m["page"] for m in phrase["matches"]]  # "graphic" alone is not the phrase
    either = _search(pages_pdf, "chapter OR graphic")
    assert "keyword_match" not in either and sorted(m["page"] for m in either["matches"]) == [2, 3, 5]


def test_ties_keep_the_first_lists_order():
    assert [item for item, _ in rrf([[("page", 12), ("page", 3)], [("page", 9), ("page", 4)]])] == [
        ("page", 12), ("page", 9), ("page", 3), ("page", 4)]


def test_below_the_full_keyword_hits_a_page_scores_its_words_paragraphs_and_meaning():
    # a holds every word; b has the best words and stands out in meaning; c and e are found by
    # meaning alone, c standing out, e not; d holds a few words scattered over the page
    fused = keyword_first(["a"], [("b", 4.0), ("d", 3.0)], ["c", "b", "e"], 5,
                          standout={"a": 0.5, "b": 3.5, "c": 4.0, "d": 0.0, "e": 1.0}, together={"d": 0.1})
    assert fused == [("a", "keyword"), ("b", "both"), ("c", "semantic"), ("d", "keyword"), ("e", "semantic")]


def test_a_model_that_cannot_tell_the_pages_apart_leaves_the_words_order():
    # nothing stands out by two spreads (a language the model does not know), no paragraph says more
    fused = keyword_first([], [("x", 3.0), ("y", 2.0), ("z", 1.0)], ["z", "y", "x"], 5,
                          standout={"x": 1.2, "y": 1.9, "z": 1.95})
    assert [item for item, _ in fused] == ["x", "y", "z"]
    assert all(found_by == "keyword" for _, found_by in fused)


def test_pages_holding_every_word_keep_their_order_whatever_the_meaning():
    fused = keyword_first(["p", "q"], [("r", 9.0)], ["r", "q"], 5, standout={"q": 8.0, "r": 9.0},
                          together={"r": 1.0})
    assert fused == [("p", "keyword"), ("q", "both"), ("r", "both")]


def test_a_page_singled_out_by_meaning_outranks_one_holding_a_word_of_the_question():
    fused = keyword_first([], [("x", 2.0), ("y", 1.2)], ["y", "x"], 5, standout={"y": 5.0, "x": 0.3})
    assert [item for item, _ in fused] == ["y", "x"]


def test_the_words_of_a_question_in_one_paragraph_outrank_the_same_words_apart():
    # x scores higher by its words, but y holds the question's two rarest words in one paragraph
    fused = keyword_first([], [("x", 3.0), ("y", 2.6)], [], 5, together={"x": 0.3, "y": 0.9})
    assert [item for item, _ in fused] == ["y", "x"]


def test_stop_words_never_rank_pages_holding_only_some_of_the_words(tmp_path):
    # page 2 is long and full of the question's function words; page 1 holds two of its words
    path = _pdf(tmp_path, ["Lines take their colours from the colour cycle.",
                           "Do the same steps as before, have a look at the list of options, and do not change "
                           "the rest. " * 8 + "The colour of the frame is set once."], bottom=760)
    details = _search(path, "why do my lines repeat the same colours once I have many of them")
    assert details["keyword_match"] == "partial" and [m["page"] for m in details["matches"]] == [1, 2]


def test_a_hyphenated_word_is_also_found_by_its_parts_apart_when_relaxed(tmp_path):
    path = _pdf(tmp_path, ["It runs on a small board computer with a single core.",
                           "Computers of any kind are supported."])
    details = _search(path, "tiny single-board computer")
    assert [m["page"] for m in details["matches"]][:1] == [1]
    # a phrase the user quoted keeps its meaning: its words apart do not make it
    quoted = _search(path, '"single board" computer')
    assert 1 not in [m["page"] for m in quoted["matches"] if m.get("keyword_match") != "partial"]


def test_stop_words_are_optional_when_every_other_word_is_there(pages_pdf):
    # "nothing" is on page 4 only; "which" is on no page: it must not stop the page from matching
    details = _search(pages_pdf, "which nothing")
    assert [m["page"] for m in details["matches"]] == [4] and "keyword_match" not in details


def test_a_page_missing_one_word_ranks_above_pages_with_fewer(tmp_path):
    path = _pdf(tmp_path, ["The gasket seals the valve housing against the flange. "
                           + "Other parts are listed later on. " * 30,
                           "Valve and flange. " * 40,
                           "Valve and flange, " * 30 + "gasket."], bottom=700)
    details = _search(path, "gasket seals valve flange washer")  # no page has "washer"
    assert details["keyword_match"] == "partial" and next(m["page"] for m in details["matches"]) == 1


@pytest.fixture
def inflected_pdf(tmp_path: Path) -> Path:
    """Greek and German (stemmed as if English) pages whose words are in other forms than a
    question would type them."""
    doc = pymupdf.open()
    font = pymupdf.Font("cjk")  # has Greek and the umlauts
    for text in ("Αν ξεχάσετε τον κωδικό, η επαναφορά του συνθηματικού γίνεται από την αρχική οθόνη.",
                 "Die Überweisung ist innerhalb Europas gebührenfrei und dauert einen Werktag.",
                 "Το συνθηματικό δεν αποστέλλεται ποτέ με μήνυμα.",
                 "Kontoauszüge werden monatlich erstellt."):
        page = doc.new_page()
        page.insert_font(fontname="F0", fontbuffer=font.buffer)
        page.insert_textbox(pymupdf.Rect(72, 72, 520, 300), text, fontsize=11, fontname="F0")
    path = tmp_path / "inflected.pdf"
    doc.save(path)
    return path


def test_a_relaxed_query_also_finds_other_forms_of_its_long_words(inflected_pdf):
    details = _search(inflected_pdf, "ξέχασα το συνθηματικού μου στοιχεία")
    pages = [m["page"] for m in details["matches"]]
    assert details["keyword_match"] == "partial" and pages[:1] in ([1], [3])
    assert {1, 3} <= set(pages) and 2 not in pages and 4 not in pages
    german = _search(inflected_pdf, "welche Gebühren kostet eine Überweisung ins Ausland")
    assert german["matches"][0]["page"] == 2 and german["keyword_match"] == "partial"


def _pages_pdf(tmp_path: Path, name: str, texts: list[str]) -> Path:
    doc = pymupdf.open()
    font = pymupdf.Font("cjk")  # has Greek and the umlauts
    for text in texts:
        page = doc.new_page()
        page.insert_font(fontname="F0", fontbuffer=font.buffer)
        page.insert_textbox(pymupdf.Rect(72, 72, 520, 300), text, fontsize=11, fontname="F0")
    path = tmp_path / name
    doc.save(path)
    return path


def test_the_word_as_typed_outranks_a_page_with_only_its_first_letters(tmp_path):
    path = _pages_pdf(tmp_path, "transfer.pdf", ["Die Überweisungsgebühr beträgt zwei Euro.",
                                                 "Eine Überweisung dauert einen Werktag."])
    details = _search(path, "Überweisung kosten")
    assert [m["page"] for m in details["matches"]] == [2, 1]  # page 1 shares only "überw"


def test_short_words_the_document_holds_are_not_truncated(tmp_path):
    path = _pages_pdf(tmp_path, "account.pdf", ["Das Konto wird online geführt.", "Die Kontonummer steht oben rechts.",
                                                "Zahlungen sind kostenlos."])
    details = _search(path, "konto abheben")  # "Kontonummer" shares "konto", a word the document has
    assert [m["page"] for m in details["matches"]] == [1]


def test_a_word_the_document_lacks_is_read_as_the_start_of_longer_words(inflected_pdf):
    details = _search(inflected_pdf, "monat kodex")  # the document has "monatlich", never "monat"
    assert [m["page"] for m in details["matches"]] == [4] and details["keyword_match"] == "partial"


def test_inflected_greek_forms_meet_whatever_their_accent(inflected_pdf):
    details = _search(inflected_pdf, "ξέχασα συνθηματικό")  # page 1: "ξεχάσετε", "συνθηματικού"
    assert [m["page"] for m in details["matches"]][:1] == [1]
    assert "keyword_match" not in details["matches"][0]  # every word found, in another form


def test_greek_function_words_never_decide_a_match(inflected_pdf):
    details = _search(inflected_pdf, "πώς το στέλνω μου")  # nothing but function words and a word no page has
    assert details["matches"] == []


def test_compound_words_are_found_by_their_parts(tmp_path):
    path = _pages_pdf(tmp_path, "descale.pdf", [("Entkalken Sie das Gerät mit dem Entkalker des Herstellers; "
                                                 "Essig greift die Dichtungen an."),
                                                "Füllen Sie den Wassertank mit frischem Wasser.",
                                                "Ein Wasserfilter verringert Kalkablagerungen."])
    details = _search(path, "darf ich Haushaltsessig nehmen")  # the pages say "Essig"
    assert [m["page"] for m in details["matches"]][:1] == [1] and details["keyword_match"] == "partial"
    details = _search(path, "Kalk Filter")  # "Kalkablagerungen", "Wasserfilter": neither word stands alone
    assert [m["page"] for m in details["matches"]][:1] == [3]


def test_a_page_holding_more_of_the_words_ranks_first_whatever_the_forms_of_one(tmp_path):
    path = _pages_pdf(tmp_path, "coordination.pdf", [
        "Printers printing printed prints: the printer prints, printing printed pages for printers.",
        "The printer jams when the tray is loaded with damp paper.",
    ])
    details = _search(path, "printer paper humidity")  # page 1 holds one word in many forms, page 2 two words
    assert [m["page"] for m in details["matches"]][:2] == [2, 1]


def test_only_one_word_in_the_document_still_ranks_pages_by_it(tmp_path):
    path = _pages_pdf(tmp_path, "oneword.pdf", [("The leaflet in the box, with the other papers that came with the "
                                                 "product, mentions the warranty once among many other things."),
                                                "Nothing here.", "Warranty: the warranty covers parts."])
    details = _search(path, "warranty zyxwvut")
    matches = details["matches"]
    assert [m["page"] for m in matches] == [3, 1] and all(m["score"] > 0 for m in matches)


def test_a_model_that_cannot_read_the_question_only_fills_places_the_words_leave():
    # a model spelling the question letter by letter singles pages out at random: weight 0
    fused = keyword_first([], [("x", 3.0), ("y", 2.0)], ["z", "y"], 5, standout={"y": 9.0, "z": 9.0},
                          meaning_weight=0.0)
    assert fused == [("x", "keyword"), ("y", "keyword"), ("z", "semantic")]
