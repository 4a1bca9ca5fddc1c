"""Meaning-based and hybrid search: the built-in static model, and the opt-in transformer (the
small offline MiniLM in ../shared/models)."""

import itertools
import re
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.documents import open_pdf
from pdfdesk.index import analysis, embedding, semantic
from pdfdesk.index.excerpts import passage_hits
from pdfdesk.index.builder import Target, build_index, build_vectors, vectors_pending
from pdfdesk.index.store import DocumentIndex
from pdfdesk.tools import call_tool
from tests.pdf_factory import field_trial_pdf

MODEL_DIR = Path(__file__).resolve().parents[3] / "shared" / "models" / "all-MiniLM-L6-v2-int8"

TOPICS = [
    ("Animals", ("The cat slept all afternoon on the warm windowsill while the dog chased a ball in the garden. "
                 "Pets need food, water and attention from their owners every day.")),
    ("Finance", ("Quarterly revenue rose by twelve percent, driven by strong sales in Europe. Operating margin "
                 "improved and the board approved a higher dividend for shareholders.")),
    ("Billing", ("Each invoice must be settled within thirty days of receipt. Overdue amounts accrue a late fee "
                 "and the supplier may suspend deliveries until the balance is cleared.")),
    ("Weather", ("Heavy rain and strong winds are expected over the coast tonight, with snow on higher ground. "
                 "Temperatures will fall sharply after midnight.")),
]


@pytest.fixture(params=["built-in", "transformer"])
def semantic_on(request, monkeypatch):
    """Semantic search on, with the model shipped inside pdfdesk or with the offline MiniLM."""
    if request.param == "transformer":
        if not (MODEL_DIR / "model.onnx").is_file():
            pytest.skip(f"offline test model not found at {MODEL_DIR}")
        monkeypatch.setenv(embedding.MODEL_PATH_ENV, str(MODEL_DIR))
    else:
        monkeypatch.delenv(embedding.MODEL_PATH_ENV, raising=False)
    set_config(Config(semantic=True))
    embedding.reset_model()
    yield request.param
    embedding.reset_model()


@pytest.fixture
def topics_pdf(tmp_path) -> Path:
    doc = pymupdf.open()
    toc = []
    for number, (title, text) in enumerate(TOPICS, start=1):
        page = doc.new_page()
        page.insert_text((72, 72), title, fontsize=18)
        page.insert_textbox(pymupdf.Rect(72, 100, 520, 400), text, fontsize=11)
        toc.append([1, title, number])
    doc.set_toc(toc)
    path = tmp_path / "topics.pdf"
    doc.save(path)
    return path


def build(path: Path):
    """Both stages, in this process: keyword, then vectors."""
    with open_pdf(str(path)) as opened:
        target = Target(opened.source, None, opened.fingerprint)
    build_index(target)
    return build_vectors(target), target


def test_passages_overlap_and_cover_the_page():
    words = [f"w{i}" for i in range(300)]
    passages = semantic.passages_of_page(7, " ".join(words))
    assert all(p.page == 7 for p in passages)
    size, overlap = semantic.STATIC_PASSAGE
    assert all(len(p.text.split()) <= size for p in passages)
    for before, after in itertools.pairwise(passages):  # each passage picks up where the last leaves off
        assert before.text.split()[-overlap:] == after.text.split()[:overlap]
    assert len(semantic.passages_of_page(7, " ".join(words), semantic.TRANSFORMER_PASSAGE)) == 3
    covered = {w for p in passages for w in p.text.split()}
    assert covered == set(words)
    assert semantic.passages_of_page(1, "   ") == []
    assert len(semantic.passages_of_page(1, "short page")) == 1


CHINESE_LINES = [f"第{i}条规定水稻病害识别系统的数据采集方法与模型训练过程以及部署要求" for i in range(24)]


def test_a_chinese_page_is_cut_into_passages_of_words_not_of_whole_lines():
    text = "\n".join(CHINESE_LINES)  # each line is one run without spaces
    single_spaced = re.sub(r"\s+", " ", text)
    size, overlap = semantic.STATIC_PASSAGE
    passages = semantic.passages_of_page(4, text)
    # counted by lines, 24 of them made one passage; counted by pieces of two characters, many
    assert len(passages) > 10
    for passage in passages:
        assert passage.text in single_spaced  # the page's own text: no space put between characters
        assert len(analysis.word_spans(passage.text, semantic.UNSPACED_WORD)) <= size
    assert single_spaced.startswith(passages[0].text) and single_spaced.endswith(passages[-1].text)
    for before, after in itertools.pairwise(passages):  # each picks up where the last leaves off
        assert before.text[-overlap:] == after.text[:overlap] or after.text[:overlap] in before.text
    # a transformer reads 256 tokens: its passages of Chinese must fit, not run to a whole page
    longest = max(len(p.text) for p in semantic.passages_of_page(4, text, semantic.TRANSFORMER_PASSAGE))
    assert longest <= semantic.TRANSFORMER_PASSAGE[0] * semantic.UNSPACED_WORD + len(CHINESE_LINES)


def test_a_meaning_match_starting_inside_a_chinese_line_highlights_where_it_starts(tmp_path):
    doc = pymupdf.open()
    page = doc.new_page()
    for row, line in enumerate(CHINESE_LINES[:12]):
        page.insert_text((40, 60 + 22 * row), line, fontname="china-s", fontsize=11)
    doc.save(tmp_path / "zh.pdf")
    with pymupdf.open(tmp_path / "zh.pdf") as reopened:
        page = reopened[0]
        passages = semantic.passages_of_page(1, page.get_text())
        inside = next(p for p in passages[1:] if not any(p.text.startswith(line) for line in CHINESE_LINES))
        hits = passage_hits(page, inside.text, "snippet", 80)
        first_line = next(row for row, line in enumerate(CHINESE_LINES) if line.endswith(inside.text.split()[0]))
        assert hits.rects, "the passage's opening words are highlighted"
        assert hits.rects[0][1] == pytest.approx(60 + 22 * first_line - 11, abs=6)  # on the line it starts in


def test_nearest_passages_come_with_how_far_each_page_stands_out(tmp_path, monkeypatch):
    import numpy as np

    store = semantic.SemanticStore(tmp_path)
    # page 1 has two passages, and its best one is what the page scores
    passages = [semantic.Passage(1, "a"), semantic.Passage(1, "b"), semantic.Passage(2, "c"), semantic.Passage(3, "d")]
    store.write_chunk(passages, np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0], [0.8, 0.6]]), 1, 3)
    monkeypatch.setattr(embedding, "embed", lambda texts: np.array([[0.0, 1.0]], dtype=np.float32))
    nearest = store.search("query", 2)
    assert [(p.page, round(similarity, 2)) for p, similarity in nearest.passages] == [(2, 1.0), (1, 0.8)]
    assert nearest.typical == pytest.approx(0.8, abs=1e-3)  # pages score 0.8, 1.0 and 0.6
    assert nearest.spread == pytest.approx(0.2 * 1.4826, abs=1e-3)  # each 0.2 from the median page
    assert nearest.standout(2) == pytest.approx(1 / 1.4826, abs=1e-2)  # vectors are stored as float16
    assert nearest.standout(3) == pytest.approx(-1 / 1.4826, abs=1e-2)
    assert nearest.standout(9) == 0.0  # a page without passages stands nowhere


def test_semantic_mode_finds_meaning_without_shared_words(semantic_on, topics_pdf):
    state, _ = build(topics_pdf)
    assert state.semantic_complete and state.semantic_model == semantic.vectors_label()
    result = call_tool("pdf_search", {"path": str(topics_pdf), "query": "when do I have to pay the bill",
                                      "mode": "semantic"})
    assert not result.is_error, result.text
    top = result.details["matches"][0]
    assert top["page"] == 3 and result.details["mode"] == "semantic"
    assert top["rects"] and "invoice" in top["excerpt"].lower()
    pets = call_tool("pdf_search", {"path": str(topics_pdf), "query": "kitten sleeping", "mode": "semantic"})
    assert pets.details["matches"][0]["page"] == 1


def test_auto_is_hybrid_and_flags_semantic_only_matches(semantic_on, topics_pdf):
    build(topics_pdf)
    result = call_tool("pdf_search", {"path": str(topics_pdf), "query": "overdue invoice"})
    details = result.details
    assert details["mode"] == "hybrid" and "semantic_unavailable" not in details
    assert details["mode_requested"] == "auto" and details["mode_used"] == "hybrid" and "mode_reason" not in details
    by_page = {m["page"]: m for m in details["matches"]}
    assert details["matches"][0]["page"] == 3 and by_page[3]["found_by"] == "both"
    others = [m for m in details["matches"] if m["page"] != 3]
    assert others and all(m.get("low_confidence") and m["found_by"] == "semantic" for m in others)


def test_hybrid_keeps_the_keyword_ranking_first(builtin_model, topics_pdf):
    """Words a user remembers reading rank as in a keyword search; meaning only adds below them."""
    build(topics_pdf)
    for query in ("dividend", "snow", "late fee", "windowsill"):
        keyword = call_tool("pdf_search", {"path": str(topics_pdf), "query": query, "mode": "keyword"}).details
        hybrid = call_tool("pdf_search", {"path": str(topics_pdf), "query": query}).details
        assert hybrid["mode"] == "hybrid"
        keyword_pages = [m["page"] for m in keyword["matches"]]
        assert keyword_pages and [m["page"] for m in hybrid["matches"]][:len(keyword_pages)] == keyword_pages


def test_paraphrase_finds_no_page_with_every_word_but_auto_finds_it_by_meaning(builtin_model, topics_pdf):
    build(topics_pdf)
    keyword = call_tool("pdf_search", {"path": str(topics_pdf), "query": "stormy forecast tonight", "mode": "keyword"})
    assert all(m["keyword_match"] == "partial" for m in keyword.details["matches"])
    auto = call_tool("pdf_search", {"path": str(topics_pdf), "query": "stormy forecast tonight"}).details
    # the page meaning points at comes first; it also holds one of the words ("tonight")
    assert auto["matches"][0]["page"] == 4 and auto["matches"][0]["found_by"] in ("semantic", "both")


def test_auto_is_keyword_with_a_reason_until_vectors_exist(builtin_model, topics_pdf):
    with open_pdf(str(topics_pdf)) as opened:
        target = Target(opened.source, None, opened.fingerprint)
    build_index(target)
    details = call_tool("pdf_search", {"path": str(topics_pdf), "query": "invoice"}).details
    assert details["mode_used"] == "keyword" and "not built yet" in details["mode_reason"]
    build_vectors(target)
    assert call_tool("pdf_search", {"path": str(topics_pdf), "query": "invoice"}).details["mode_used"] == "hybrid"


def test_sections_rank_by_keywords_unless_semantic_is_asked(builtin_model, topics_pdf):
    build(topics_pdf)
    details = call_tool("pdf_search", {"path": str(topics_pdf), "query": "invoice", "granularity": "section"}).details
    assert details["mode_used"] == "keyword" and "sections rank by their words" in details["mode_reason"]
    assert [m["title"] for m in details["matches"]] == ["Billing"]  # no related-in-meaning noise
    meaning = call_tool("pdf_search", {"path": str(topics_pdf), "query": "invoice", "granularity": "section",
                                       "mode": "semantic"}).details
    assert meaning["mode_used"] == "semantic" and meaning["matches"][0]["title"] == "Billing"
    assert all(m["similarity"] > 0 for m in meaning["matches"])


def test_semantic_sections(semantic_on, topics_pdf):
    build(topics_pdf)
    result = call_tool("pdf_search", {"path": str(topics_pdf), "query": "storm forecast", "mode": "semantic",
                                      "granularity": "section", "excerpt_style": "snippet"})
    top = result.details["matches"][0]
    assert top["granularity"] == "section" and top["title"] == "Weather" and top["excerpt_style"] == "snippet"


def test_interrupted_embedding_resumes(semantic_on, topics_pdf, monkeypatch):
    import pdfdesk.index.builder as builder

    monkeypatch.setattr(builder, "LOCK_SLICE", 1)
    monkeypatch.setattr(semantic, "CHUNK_PASSAGES", 1)  # one page per chunk
    real_write = semantic.SemanticStore.write_chunk
    written = []

    def write_then_fail(self, passages, vectors, first_page, through_page):
        real_write(self, passages, vectors, first_page, through_page)
        written.append(through_page)
        if through_page == 2:
            raise KeyboardInterrupt("killed")

    monkeypatch.setattr(semantic.SemanticStore, "write_chunk", write_then_fail)
    with pytest.raises(KeyboardInterrupt):
        build(topics_pdf)
    monkeypatch.setattr(semantic.SemanticStore, "write_chunk", real_write)
    state, target = build(topics_pdf)
    store = semantic.SemanticStore(DocumentIndex(target.fingerprint).folder)
    assert state.semantic_complete and store.pages_done() == 4 and len(list(store.folder.glob("chunk-*.npy"))) == 4
    _matrix, passages = store.load()
    assert [p.page for p in passages] == [1, 2, 3, 4]  # nothing embedded twice


def test_model_change_rebuilds_vectors(builtin_model, topics_pdf, monkeypatch):
    _state, target = build(topics_pdf)
    index = DocumentIndex(target.fingerprint)
    assert not vectors_pending(index.read_state())
    monkeypatch.setenv(embedding.MODEL_PATH_ENV, str(MODEL_DIR))
    embedding.reset_model()
    assert vectors_pending(index.read_state())


def test_unavailable_model(topics_pdf, monkeypatch, tmp_path):
    monkeypatch.setenv(embedding.MODEL_PATH_ENV, str(tmp_path / "no-model-here"))
    set_config(Config(semantic=True))
    embedding.reset_model()
    result = call_tool("pdf_search", {"path": str(topics_pdf), "query": "invoice", "mode": "semantic"})
    assert result.details["error"] == "semantic_unavailable"
    auto = call_tool("pdf_search", {"path": str(topics_pdf), "query": "invoice"})
    assert auto.details["mode"] == "keyword" and "semantic_unavailable" in auto.details
    assert [m["page"] for m in auto.details["matches"]] == [3]
    embedding.reset_model()


@pytest.mark.parametrize("mode", ["keyword", "semantic", "auto"])
@pytest.mark.parametrize("granularity", ["page", "section"])
@pytest.mark.parametrize("style", ["paragraph", "snippet"])
def test_every_mode_granularity_and_excerpt_style(semantic_on, topics_pdf, mode, granularity, style):
    build(topics_pdf)
    result = call_tool("pdf_search", {"path": str(topics_pdf), "query": "invoice", "mode": mode,
                                      "granularity": granularity, "excerpt_style": style, "context_chars": 30})
    assert not result.is_error, result.text
    details = result.details
    expected = {"auto": "keyword" if granularity == "section" else "hybrid"}.get(mode, mode)
    assert details["mode"] == expected and details["granularity"] == granularity
    top = details["matches"][0]
    assert top["page"] == 3 and top["rects"] and top["excerpt"]
    assert top["granularity"] == granularity
    if granularity == "section":
        assert top["title"] == "Billing" and (top["start_page"], top["end_page"]) == (3, 3)
    if style == "snippet":
        assert (top["excerpt_style"] == "snippet" and len(top["excerpt"]) <= 2 * 30 + 2) or mode == "semantic"
    else:
        assert top["excerpt_style"] in ("paragraph", "snippet")


def test_response_byte_cap_reports_omitted_matches(long_pdf, monkeypatch):
    import pdfdesk.tools.pdf_search as tool

    monkeypatch.setattr(tool, "MAX_RESPONSE_BYTES", 3000)
    result = call_tool("pdf_search", {"path": str(long_pdf), "query": "supplier", "max_results": 50,
                                      "mode": "keyword"})
    details = result.details
    assert details["matches_omitted"] > 0 and details["count"] + details["matches_omitted"] == 50
    assert "omitted" in result.text


def _age(folder: Path, seconds: float) -> int:
    """Set the folder's time `seconds` back; returns it (ns)."""
    import os
    import time

    when = time.time_ns() - int(seconds * 1e9)
    os.utime(folder, ns=(when, when))
    return when


def test_a_settled_vector_folder_is_read_again_when_a_chunk_arrives(tmp_path):
    import numpy as np

    store_ = semantic.SemanticStore(tmp_path)
    store_.write_chunk([semantic.Passage(1, "a")], np.ones((1, 4), dtype=np.float32), first_page=1, through_page=5)
    _age(store_.folder, 60)
    assert store_.pages_done() == 5 and store_.pages_done() == 5  # the second look trusts the folder's time
    store_.write_chunk([semantic.Passage(6, "b")], np.ones((1, 4), dtype=np.float32), first_page=6, through_page=9)
    assert store_.pages_done() == 9


def test_a_folder_changed_within_a_clock_tick_is_never_trusted_by_its_time(tmp_path):
    """Two changes inside one tick of the file system's clock leave the folder's time as it was:
    a folder changed a moment ago is listed again on every look."""
    import os

    import numpy as np

    store_ = semantic.SemanticStore(tmp_path)
    store_.write_chunk([semantic.Passage(1, "a")], np.ones((1, 4), dtype=np.float32), first_page=1, through_page=5)
    moment = _age(store_.folder, 0.1)
    assert store_.pages_done() == 5
    store_.write_chunk([semantic.Passage(6, "b")], np.ones((1, 4), dtype=np.float32), first_page=6, through_page=9)
    os.utime(store_.folder, ns=(moment, moment))  # as if the second chunk came within the same tick
    assert store_.pages_done() == 9



@pytest.fixture
def trial_pdf(tmp_path) -> Path:
    return field_trial_pdf(tmp_path / "trial.pdf")


def test_pages_missing_the_same_one_word_are_weighed_not_ranked_first_when_many(builtin_model, trial_pdf):
    """No page says "thirsty": every page then holds all the question's words but one, and those
    pages, kept first in keyword order, buried the one page about it; weighed by their words,
    paragraphs and meaning, it comes first."""
    build(trial_pdf)
    question = "how did you measure how thirsty the plants were"
    keyword = call_tool("pdf_search", {"path": str(trial_pdf), "query": question, "mode": "keyword"}).details
    assert keyword["matches"][0]["page"] != 17
    for shown in (10, 50, 1):  # the agent's first page, the search panel's 50: the same page first
        auto = call_tool("pdf_search", {"path": str(trial_pdf), "query": question, "max_results": shown}).details
        assert auto["mode"] == "hybrid"
        first = auto["matches"][0]
        assert first["page"] == 17 and first["keyword_match"] == "partial" and first["found_by"] == "both", shown
    # a passage typed with one word misremembered ("gauge"): the one page holding the others leads
    typed = "we read leaf water potential with a pressure gauge at noon"
    assert call_tool("pdf_search", {"path": str(trial_pdf), "query": typed}).details["matches"][0]["page"] == 17
