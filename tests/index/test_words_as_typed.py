"""Words as people type them: joined runs, letter/digit and camelCase parts, case folding, NFKC and
Arabic text set in presentation forms without spaces, found through the index and through the
scan that answers before a page is indexed, with hit rectangles on the words."""

from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.index.analysis import analyze, fold
from pdfdesk.index.builder import Target, build_index
from pdfdesk.index.query_terms import parse_terms
from pdfdesk.index.scan import _needles, score_text
from pdfdesk.tools import call_tool

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

# (page text, queries that must find that page)
PAGES = [
    ("Colours are set with palette=orange,teal,red in the style file.", ["teal", "orange,teal,red", "red"]),
    ("The origin is given by xOrig,yOrig in points.", ["yOrig", "xOrig", "yorig", "xOrig,yOrig"]),
    ("Thread table: major_diam and minor_diam are in millimetres.", ["diam", "major_diam", "major diam"]),
    ("Mirrors are listed at www.uoregon.edu for download.", ["uoregon", "www.uoregon.edu"]),
    ("The l3kernel package needs an ARMv6 build on this board.", ["l3kernel", "kernel", "ARMv6", "armv6"]),
    ("Die Buße wird am Ende des Monats fällig.", ["busse", "BUSSE", "Buße"]),
    ("Η ΟΔΟΣ οδηγεί στην πόλη.", ["οδοσ", "ΟΔΟΣ"]),
    ("The ﬁnancial statements are audited each year.", ["financial", "ﬁnancial"]),
]
# A Persian sentence as XeTeX writes it into a PDF: presentation forms, no spaces between words.
PERSIAN = "ﯾﮏﺳﯿﺴﺘﻢﺣﺮوف"
PERSIAN_QUERIES = ["سیستم", "یک", "سيستم"]  # Farsi yeh, and the Arabic yeh a keyboard may give


def _pdf(tmp_path: Path) -> Path:
    doc = pymupdf.open()
    for text, _ in PAGES:
        page = doc.new_page()
        page.insert_font(fontname="dv", fontfile=str(DEJAVU))
        page.insert_text((72, 100), text, fontname="dv", fontsize=11)
    page = doc.new_page()
    page.insert_font(fontname="dv", fontfile=str(DEJAVU))
    # glyphs placed right to left, as a right-to-left typesetter places them: MuPDF reads them back
    # in logical order
    page.insert_text((72, 100), PERSIAN[::-1], fontname="dv", fontsize=14)
    path = tmp_path / "words.pdf"
    doc.save(path)
    return path


@pytest.fixture
def words_pdf(tmp_path: Path) -> Path:
    if not DEJAVU.exists():
        pytest.skip("DejaVu Sans is not installed")
    return _pdf(tmp_path)


def _cases() -> list[tuple[str, int]]:
    cases = [(query, number) for number, (_, queries) in enumerate(PAGES, start=1) for query in queries]
    return cases + [(query, len(PAGES) + 1) for query in PERSIAN_QUERIES]


def test_split_parts_and_the_joined_form():
    assert analyze("orange,teal,red") == ["orang", "teal", "red", "orange,teal,red"]
    assert analyze("xOrig,yOrig") == ["x", "orig", "y", "orig", "xorig", "yorig", "xorig,yorig"]
    assert analyze("ARMv6") == ["arm", "v", "6", "armv6"]
    assert analyze("XMLParser") == ["xml", "parser", "xmlparser"]
    assert analyze("major_diam", query=True) == ["major", "diam", "major_diam"]  # parts, then joined
    assert analyze("word") == ["word"]


def test_case_folding_is_not_lowercasing():
    assert fold("Buße") == "busse"
    assert fold("ΟΔΟΣ") == fold("οδος") == "οδοσ"  # a final sigma folds to σ
    assert fold("ﬁ") == "fi"


def test_presentation_forms_are_cut_into_words():
    assert analyze(PERSIAN)[:3] == [fold("یک"), fold("سیستم"), fold("حروف")]


def test_every_case_found_in_the_index_with_rects(words_pdf):
    with open_pdf(str(words_pdf)) as opened:
        build_index(Target(opened.source, None, opened.fingerprint))
    missed = []
    for query, page in _cases():
        result = call_tool("pdf_search", {"path": str(words_pdf), "query": query, "mode": "keyword"})
        assert not result.is_error, result.text
        matches = result.details["matches"]
        if not matches or matches[0]["page"] != page or not matches[0]["rects"]:
            missed.append((query, page, [(m["page"], len(m["rects"])) for m in matches]))
    assert not missed


def test_every_case_found_by_the_scan(words_pdf):
    with open_pdf(str(words_pdf)) as opened:
        texts = [opened.doc.load_page(i).get_text() for i in range(opened.page_count)]
    for query, page in _cases():
        required, excluded = _needles(parse_terms(query))
        scores = [score_text(text, required, excluded, False) for text in texts]
        assert scores[page - 1] > 0, query
        assert sum(1 for s in scores if s > 0) == 1, (query, scores)


def test_a_split_word_does_not_match_a_longer_number():
    required, excluded = _needles(parse_terms("Keyword42"))
    assert score_text("see Keyword42 here", required, excluded, False) > 0
    assert score_text("see keyword 42 here", required, excluded, False) > 0
    assert score_text("see Keyword420 here", required, excluded, False) == 0


def indexed_arabic_pdf(path: Path, lines: tuple[str, ...]) -> Path:
    """A page per line of Arabic, glyphs placed right to left as a typesetter places them (MuPDF
    reads them back in logical order), indexed."""
    if not DEJAVU.exists():
        pytest.skip("DejaVu Sans is not installed")
    doc = pymupdf.open()
    for text in lines:
        page = doc.new_page()
        page.insert_font(fontname="dv", fontfile=str(DEJAVU))
        page.insert_text((72, 100), text[::-1], fontname="dv", fontsize=14)
    doc.save(path)
    with open_pdf(str(path)) as opened:
        build_index(Target(opened.source, None, opened.fingerprint))
    return path


def test_arabic_words_glued_to_a_clitic_or_a_neighbour_are_found(tmp_path):
    # "and the ink cartridge" with the conjunction joined, then words run together after a letter
    # that never joins to the left (nothing in the shapes marks where those words end)
    path = indexed_arabic_pdf(tmp_path / "glued.pdf", ("وخرطوشة الحبر جديدة", "راهنماقواعدصفحه", "كلمات أخرى هنا"))
    for query, page in (("خرطوشة", 1), ("قواعد", 2), ("راهنما", 2)):
        result = call_tool("pdf_search", {"path": str(path), "query": query, "mode": "keyword"})
        assert [m["page"] for m in result.details["matches"]][:1] == [page], query
        assert "keyword_match" not in result.details, query


@pytest.mark.parametrize(("typed", "printed"), [("ξέχασα", "ξεχάσετε"), ("ΤΡΑΠΕΖΑ", "τράπεζας"),
                                               ("λογαριασμό", "λογαριασμού")])
def test_greek_forms_of_a_word_share_one_term_whatever_their_accent_and_case(typed, printed):
    assert analyze(typed, query=True) == analyze(printed)


def test_greek_words_the_stemmer_would_empty_stay_whole():
    assert analyze("όταν έως") == ["οταν", "εωσ"]


def test_a_letter_before_a_hamza_does_not_end_the_word_in_presentation_forms():
    """Before a hamza a letter takes its final shape inside the word ("الدفء"), so that shape
    alone must not cut the word in two when a typesetter left the spaces out."""
    import unicodedata

    from pdfdesk.index.analysis import analyze, space_presentation_words, tokens

    shaped = "ﻣﺆﺳﺴﺔ ﺍﻟﺪﻑﺀ ﻷﻧﻈﻤﺔ ﺍﻟﺘﺪﻓﺌﺔ"  # "مؤسسة الدفء لأنظمة التدفئة" as a PDF's text layer gives it
    assert unicodedata.normalize("NFKC", space_presentation_words(shaped)).split()[1] == "الدفء"
    assert analyze("الدفء", query=True)[0] in {term for term, *_ in tokens(shaped)}
    glued = "ﻛﺘﺎﺏﺍﻟﺪﻑﺀ"  # two words with no space ("كتاب الدفء"): still cut where the first one ends
    assert unicodedata.normalize("NFKC", space_presentation_words(glued)).split() == ["كتاب", "الدفء"]


@pytest.mark.parametrize(("typed", "printed"), [("وظيفة", "الوظيفة"), ("وثيقة", "للوثيقة"), ("وزارة", "بالوزارة"),
                                               ("وظيفة", "والوظيفة"), ("الوقت", "وقت")])
def test_an_arabic_word_beginning_with_waw_is_one_term_with_or_without_the_article(typed, printed):
    """A light stemmer cannot tell a word's own first "و" from the conjunction, and drops it from
    the bare word: after the article it must go too, or "وظيفة" never finds "الوظيفة"."""
    assert analyze(typed, query=True)[0] == analyze(printed)[0]


def test_a_question_without_the_article_finds_the_page_with_it(tmp_path):
    path = indexed_arabic_pdf(tmp_path / "contract.pdf", ("يحدد العقد مهام الوظيفة وساعات العمل",
                                                          "يحدد العقد مكان العمل وساعات الدوام"))
    result = call_tool("pdf_search", {"path": str(path), "query": "مهام وظيفة", "mode": "keyword"})
    assert [m["page"] for m in result.details["matches"]] == [1]
    assert "keyword_match" not in result.details  # the page holds every word, not some of them


def test_a_question_mark_ends_a_question_and_is_no_wildcard(tmp_path):
    """"can a command return?" asks for "return": Whoosh read "return?" as "return" and one more
    letter, and no page then held every word of a question ending in a question mark."""
    doc = pymupdf.open()
    doc.new_page().insert_text((72, 100), "Any command can return an exit status from 0 to 255.", fontsize=11)
    doc.new_page().insert_text((72, 100), "The shell reads commands from a file or a terminal.", fontsize=11)
    path = tmp_path / "question.pdf"
    doc.save(path)
    with open_pdf(str(path)) as opened:
        build_index(Target(opened.source, None, opened.fingerprint))
    for query in ("what exit status can a command return?", "exit status, return?? ", '"command can return?"'):
        result = call_tool("pdf_search", {"path": str(path), "query": query, "mode": "keyword"})
        first = result.details["matches"][0]
        assert first["page"] == 1 and first.get("keyword_match") != "partial", (query, result.details)
