"""Synonyms from installed thesauri: compiling the MyThes format, choosing files by script, and what a
synonym counts for when `auto` orders pages a model cannot read."""

import os
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.index import paragraphs, thesaurus
from pdfdesk.index.analysis import analyze
from pdfdesk.tools import call_tool
from tests.index.test_semantic import build

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
DEBIAN_RUSSIAN = Path("/usr/share/mythes/th_ru_RU_v2.dat")

RUSSIAN = """UTF-8
залог|2
(синоним)|заклад|обеспечение|брать в наем
(сходный термин)|гарантия
договор|1
(синоним)|соглашение|контракт
"""
ENGLISH = """UTF-8
pledge|1
(noun)|deposit|security
"""


def term(word: str) -> str:
    (only,) = analyze(word)
    return only


@pytest.fixture
def thesauri(tmp_path, monkeypatch) -> Path:
    """A folder of thesauri in place of the system's, and no thesaurus compiled in this process."""
    folder = tmp_path / "mythes"
    folder.mkdir()
    monkeypatch.setenv("PDFDESK_THESAURI", str(folder))
    monkeypatch.setattr(thesaurus, "_compiled", {})
    return folder


def test_compiling_keeps_single_words_as_index_terms():
    compiled = thesaurus.compile_mythes(RUSSIAN)
    assert compiled[term("залог")] == sorted({term("заклад"), term("обеспечение"), term("гарантия")})
    assert compiled[term("договор")] == sorted({term("соглашение"), term("контракт")})
    assert all(" " not in synonym for synonyms in compiled.values() for synonym in synonyms)  # no phrase


def test_vowelled_arabic_synonyms_are_words_not_letters():
    compiled = thesaurus.compile_mythes("UTF-8\nسقّم|1\n(فعل)|مَرَض|اِعْتَلَّ\n")
    (synonyms,) = compiled.values()
    assert all(len(synonym) >= 3 for synonym in synonyms) and term("مرض") in synonyms


def test_damaged_entries_are_skipped_not_fatal():
    text = "UTF-8\nзалог|x\n(синоним)|заклад\nдоговор|99999999\n(синоним)|соглашение\n|\n"
    compiled = thesaurus.compile_mythes(text)
    assert compiled == {term("договор"): [term("соглашение")]}


def test_files_are_chosen_by_script_and_by_what_the_model_cannot_read(thesauri, monkeypatch):
    (thesauri / "th_ru_RU_v2.dat").write_text(RUSSIAN, encoding="utf-8")
    (thesauri / "th_en_US_v2.dat").write_text(ENGLISH, encoding="utf-8")
    (thesauri / "th_ru_RU_copy.dat").symlink_to(thesauri / "th_ru_RU_v2.dat")  # one file under two names
    os.mkfifo(thesauri / "waiting.dat")  # never opened: a FIFO would block the search forever
    with open(thesauri / "huge.dat", "wb") as huge:  # no line ends: never read (it would be read whole)
        huge.truncate(thesaurus.MAX_FILE_BYTES + 1)
    asked: list[str] = []
    sniffed: list[str] = []
    head_words = thesaurus._head_words
    monkeypatch.setattr(thesaurus, "_head_words", lambda path: sniffed.append(path.name) or head_words(path))

    def wanted(sample: str) -> bool:
        asked.append(sample)
        return True

    found = thesaurus.related_terms([term("залог"), term("торгах")], "CYRILLIC", wanted)
    assert found == {term("залог"): frozenset({term("заклад"), term("обеспечение"), term("гарантия")})}
    assert len(asked) == 1  # the symlink is the same file; the English one is of another script
    assert sorted(sniffed) == ["th_en_US_v2.dat", "th_ru_RU_v2.dat"]
    assert thesaurus.related_terms([term("pledge")], "LATIN", lambda sample: False) == {}
    compiled = {path.name.split("-")[0] for path in (Path(os.environ["PDFDESK_HOME"]) / "thesauri").iterdir()}
    assert compiled == {"th_ru_RU_v2"}  # a declined file is never compiled


def test_a_compiled_thesaurus_is_read_back_and_made_again_when_the_file_changes(thesauri, monkeypatch):
    source = thesauri / "th_ru_RU_v2.dat"
    source.write_text(RUSSIAN, encoding="utf-8")
    thesaurus.related_terms([term("залог")], "CYRILLIC", lambda sample: True)
    calls: list[int] = []
    real = thesaurus.compile_mythes
    monkeypatch.setattr(thesaurus, "compile_mythes", lambda text: calls.append(1) or real(text))
    monkeypatch.setattr(thesaurus, "_compiled", {})
    assert thesaurus.related_terms([term("залог")], "CYRILLIC", lambda sample: True)
    assert calls == []  # read from the compiled copy
    source.write_text(RUSSIAN.replace("заклад|", "ручательство|"), encoding="utf-8")
    os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 1_000_000_000))
    monkeypatch.setattr(thesaurus, "_compiled", {})
    found = thesaurus.related_terms([term("залог")], "CYRILLIC", lambda sample: True)
    assert term("ручательство") in found[term("залог")]
    assert calls == [1]


def test_a_garbled_compiled_copy_or_a_symlink_loop_is_not_fatal(thesauri):
    (thesauri / "loop.dat").symlink_to(thesauri / "loop.dat")
    (thesauri / "th_ru_RU_v2.dat").write_text(RUSSIAN, encoding="utf-8")
    thesaurus.related_terms([term("залог")], "CYRILLIC", lambda sample: True)
    (compiled,) = (Path(os.environ["PDFDESK_HOME"]) / "thesauri").iterdir()
    compiled.write_text('{"' + term("залог") + '": "обеспечение"}', encoding="utf-8")  # a string, not a list
    thesaurus._compiled.clear()
    found = thesaurus.related_terms([term("залог")], "CYRILLIC", lambda sample: True)
    assert found[term("залог")] == {term("заклад"), term("обеспечение"), term("гарантия")}  # compiled again


def test_no_thesaurus_installed_gives_no_synonyms(thesauri):
    assert thesaurus.related_terms([term("залог")], "CYRILLIC", lambda sample: True) == {}


def test_the_installed_russian_thesaurus_is_read():
    """The real Debian file (mythes-ru, which the set-up installs)."""
    if not DEBIAN_RUSSIAN.is_file():
        pytest.fail(f"{DEBIAN_RUSSIAN} is missing: scripts/bootstrap.sh installs mythes-ru")
    thesaurus._compiled.pop("CYRILLIC", None)
    found = thesaurus.related_terms([term("залог")], "CYRILLIC", lambda sample: True)
    assert term("обеспечение") in found[term("залог")]


def test_a_synonym_counts_for_a_word_the_document_lacks_and_never_for_more_than_the_word():
    terms = [term("залог"), term("торгах")]
    synonyms = {term("залог"): frozenset({term("обеспечение"), term("гарантия")})}
    frequencies = {term("торгах"): 3, term("обеспечение"): 1, term("гарантия"): 20}
    weights, credit = paragraphs.weights_and_credit(20, frequencies, terms, synonyms, reads=0.0)
    assert term("залог") in weights  # on no page, yet the question's: it stands for its synonyms
    rare, common = credit[term("залог")][term("обеспечение")], credit[term("залог")][term("гарантия")]
    assert 0 < common < rare <= weights[term("залог")]
    assert paragraphs.question_synonyms("какой залог", terms, reads=0.9) == {}  # a model that reads it decides


@pytest.fixture
def tenders_pdf(tmp_path) -> Path:
    """Two pages alike but for one word: the second says what the question calls a "залог" in
    another word; the rest of the regulation is about other things."""
    lines = ["Для участия в торгах участник вносит уведомление до начала подачи заявок.",
             "Для участия в торгах участник вносит обеспечение до начала подачи заявок.",
             "Комиссия рассматривает заявки в течение десяти рабочих дней.",
             "Протокол подписывают все члены комиссии и размещают на сайте.",
             "Договор заключают не ранее чем через десять дней после протокола."]
    doc = pymupdf.open()
    for line in lines:
        page = doc.new_page()
        page.insert_font(fontname="dv", fontfile=str(DEJAVU))
        page.insert_text((72, 100), line, fontname="dv", fontsize=11)
    path = tmp_path / "tenders.pdf"
    doc.save(path)
    return path


def test_auto_brings_up_the_page_that_says_the_question_in_other_words(builtin_model, tenders_pdf, thesauri):
    """The built-in model cannot read Russian; the thesaurus lifts the page holding a synonym of the
    question's word above its twin. Without the thesaurus the twins stay in keyword order."""
    build(tenders_pdf)
    query = "какой залог нужно внести, чтобы участвовать в торгах"
    ask = {"path": str(tenders_pdf), "query": query}
    keyword = [m["page"] for m in call_tool("pdf_search", {**ask, "mode": "keyword"}).details["matches"]]
    assert keyword[:2] == [1, 2]
    assert [m["page"] for m in call_tool("pdf_search", ask).details["matches"]][:2] == [1, 2]
    (thesauri / "th_ru_RU_v2.dat").write_text(RUSSIAN, encoding="utf-8")
    thesaurus._compiled.clear()
    auto = call_tool("pdf_search", ask).details
    assert auto["mode_used"] == "hybrid" and [m["page"] for m in auto["matches"]][:2] == [2, 1]
    first = auto["matches"][0]
    assert first["found_by"] == "keyword"  # found by words and their synonyms, not by meaning
    # the synonym that decided it is shown: named, and highlighted on the page with the question's words
    assert first["related_words"] == ["обеспечение"]
    by_keyword = next(m for m in call_tool("pdf_search", {**ask, "mode": "keyword"}).details["matches"]
                      if m["page"] == 2)
    assert len(first["rects"]) == len(by_keyword["rects"]) + 1 and "related_words" not in by_keyword
    assert "related_words" not in auto["matches"][1]  # its twin holds no synonym


def test_the_library_credits_synonyms_the_same_way(tmp_path, thesauri):
    """Across documents too: the page of the document that says "обеспечение" comes above its twin
    in another document once the thesaurus is there, as it did not before."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index.library import Library
    from pdfdesk.index.library_backend import library_backend
    from pdfdesk.index.library_search import rank

    other = ["Комиссия рассматривает заявки в течение десяти рабочих дней.",
             "Протокол подписывают все члены комиссии и размещают на сайте."]
    paths = []
    for name, line in (("notice.pdf", "Для участия в торгах участник вносит уведомление о торгах."),
                       ("security.pdf", "Для участия в торгах участник вносит обеспечение.")):
        doc = pymupdf.open()
        for text in [line, *other]:
            page = doc.new_page()
            page.insert_font(fontname="dv", fontfile=str(DEJAVU))
            page.insert_text((72, 100), text, fontname="dv", fontsize=11)
        doc.save(tmp_path / name)
        paths.append(tmp_path / name)
    Library().add([str(path) for path in paths])
    Library().process()
    names = {}
    for path in paths:
        with open_pdf(str(path)) as opened:
            names[opened.fingerprint] = path.name

    query = "какой залог нужно внести в торгах"

    def first_two() -> list[str]:
        hits = rank(query, 10, backend=library_backend(), by_evidence=True).hits
        return [names[hit.fingerprint] for hit in hits if hit.page == 1][:2]

    assert first_two() == ["notice.pdf", "security.pdf"]  # it says "торгах" twice
    (thesauri / "th_ru_RU_v2.dat").write_text(RUSSIAN, encoding="utf-8")
    thesaurus._compiled.clear()
    assert first_two() == ["security.pdf", "notice.pdf"]
    found = call_tool("pdf_search", {"library": True, "query": query}).details["matches"]
    assert [m.get("related_words") for m in found if m["page"] == 1] == [["обеспечение"], None]


def test_indexing_a_russian_document_prepares_its_thesaurus_before_the_first_question(tenders_pdf, thesauri,
                                                                                       tmp_path):
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index.builder import Target, build_index
    from tests.pdf_factory import text_pdf

    (thesauri / "th_ru_RU_v2.dat").write_text(RUSSIAN, encoding="utf-8")
    (thesauri / "th_en_US_v2.dat").write_text(ENGLISH, encoding="utf-8")
    compiled = Path(os.environ["PDFDESK_HOME"]) / "thesauri"
    english = text_pdf(tmp_path / "english.pdf", words="The pledge for page {n} is paid before the tender opens.")
    for path in (english, tenders_pdf):
        with open_pdf(str(path)) as opened:
            build_index(Target(opened.source, None, opened.fingerprint))
        if path == english:
            assert not compiled.exists()  # the model reads English: no thesaurus is wanted
    assert [entry.name.split("-")[0] for entry in compiled.iterdir()] == ["th_ru_RU_v2"]


def test_a_document_opening_in_another_language_still_prepares_its_thesaurus(thesauri, tmp_path):
    """A Russian report whose title page and abstract are in English (a page's worth of letters
    before the first Russian word): the pages sampled are spread over the document, and each
    script holding a good share of them is prepared, so its first Russian question waits for no
    compile."""
    from pdfdesk.core.documents import open_pdf
    from pdfdesk.index.builder import Target, build_index

    (thesauri / "th_ru_RU_v2.dat").write_text(RUSSIAN, encoding="utf-8")
    english = "Test report on centrifugal pumps. Abstract: the pumps were run for two thousand hours. " * 8
    russian = "Насосы испытаны на стенде; залог качества — протокол испытаний и подписи комиссии. " * 8
    doc = pymupdf.open()
    for text in (english, english, russian, russian, russian):
        page = doc.new_page()
        page.insert_font(fontname="dv", fontfile=str(DEJAVU))
        page.insert_textbox(pymupdf.Rect(72, 72, 520, 760), text, fontname="dv", fontsize=10)
    path = tmp_path / "report.pdf"
    doc.save(path)
    with open_pdf(str(path)) as opened:
        build_index(Target(opened.source, None, opened.fingerprint))
    assert thesaurus.prepared("CYRILLIC") and not thesaurus.prepared("LATIN")


def test_each_script_holding_a_good_share_of_a_text_is_told_apart():
    scripts = thesaurus.scripts_of("Договор о поставке — Supply agreement между сторонами")
    assert list(scripts) == ["CYRILLIC", "LATIN"]
    assert "Supply" not in scripts["CYRILLIC"] and "Договор" in scripts["CYRILLIC"]
    assert list(thesaurus.scripts_of("Договор о поставке между сторонами, see p. 1")) == ["CYRILLIC"]
