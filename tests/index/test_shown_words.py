"""Only the words that decide a match are shown: not every "to", "a" and "and" of a plain question."""

from __future__ import annotations

import pymupdf

from pdfdesk.index.query_terms import parse_terms
from pdfdesk.tools import call_tool

PAGE = ("To read data from a file, open the file and read it line by line. A file is a sequence of "
        "bytes; the data in it is read into a buffer, and a buffer is emptied when it is full.")


def page_pdf(path):
    doc = pymupdf.open()
    doc.new_page().insert_textbox(pymupdf.Rect(72, 72, 520, 400), PAGE, fontsize=11)
    doc.save(path)
    return path


def highlighted_words(path, query):
    result = call_tool("pdf_search", {"path": str(path), "query": query, "mode": "keyword"})
    assert not result.is_error, result.text
    match = result.details["matches"][0]
    with pymupdf.open(path) as doc:
        page = doc[match["page"] - 1]
        return [page.get_textbox(pymupdf.Rect(r)).strip(" ,.;").lower() for r in match["rects"]]


def test_a_plain_question_highlights_its_words_not_its_stop_words(tmp_path):
    words = highlighted_words(page_pdf(tmp_path / "files.pdf"), "how to read data from a file")
    assert words and set(words) <= {"read", "data", "file"}
    assert words.count("file") == 3 and words.count("read") == 3  # every "read", none of the "a"s


def test_a_query_of_only_stop_words_still_shows_them():
    assert parse_terms("the and").deciding_words == ["the", "and"]
    assert parse_terms("to be or").stems  # shown, since nothing else decides the match


def test_a_quoted_phrase_shows_its_words_but_not_its_stop_words_alone():
    terms = parse_terms('"the buffer" empty')
    assert "buffer" in terms.stems and "the" not in terms.stems


def test_the_search_panel_bolds_only_the_deciding_words():
    from pdfdesk.gui.richtext import highlight_terms

    html = highlight_terms("To read data from a file, open a file.", "how to read data from a file")
    assert "<b>read</b>" in html and "<b>data</b>" in html and html.count("<b>file</b>") == 2
    assert "<b>a</b>" not in html and "<b>To</b>" not in html and "<b>from</b>" not in html


def test_a_russian_questions_pronouns_in_any_form_are_not_shown():
    """Whoosh's Russian list has "какой" but not "которые", "наших" or "почему"; the stemmer does
    not bring those to the forms it has."""
    terms = parse_terms("почему наших серверов которые стоят в стойке не видно")
    assert set(terms.deciding_words) == {"серверов", "стоят", "стойке", "видно"}


def test_an_arabic_questions_question_words_are_not_shown():
    """As "how", "when" and "can" are not, in English: "هل يمكن" ("can one") is how a question
    begins, and "يمكن" is on every other page of a regulation."""
    terms = parse_terms("هل يمكن الوثوق بنتائج التحاليل ومتى كم")
    assert set(terms.deciding_words) == {"الوثوق", "بنتائج", "التحاليل"}
    assert set(parse_terms("آیا چرا گزارش").deciding_words) == {"گزارش"}


def test_the_question_words_of_other_languages_are_not_shown_either():
    assert set(parse_terms("combien est payé le patron").deciding_words) == {"payé", "patron"}
    assert set(parse_terms("wann darf ich kündigen").deciding_words) == {"kündigen"}
    assert set(parse_terms("cuándo puedo cancelar el pedido").deciding_words) == {"cancelar", "pedido"}
    assert set(parse_terms("сколько нужно ждать ответа").deciding_words) == {"ждать", "ответа"}


def test_a_reviewer_searching_for_comments_still_finds_the_word():
    """French "comment" asks how, but it is also the English word a PDF's comments are found by."""
    assert "comment" in parse_terms("how do I reply to a comment").deciding_words


def test_a_question_mark_or_comma_after_a_word_does_not_hide_it():
    from pdfdesk.gui.richtext import highlight_terms

    assert "<b>file</b>" in highlight_terms("Open the file with care.", "how do I open a file?")
    assert "<b>file</b>" in highlight_terms("Open the file with care.", "where is the file, and who opens it?")
    assert parse_terms("¿cuándo cancelo el contrato?").deciding_words == ["cancelo", "contrato"]
    assert parse_terms("ما هو الحل؟").deciding_words == ["الحل"]
    assert parse_terms("orange,teal,red e.g. conf*?").words == ["orange,teal,red", "e.g"]
    assert parse_terms("conf*?").prefixes == ["conf"]
