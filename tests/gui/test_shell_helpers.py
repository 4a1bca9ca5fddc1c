"""The shell's Qt-light helpers: safe rich text, config.toml merging, recent files, the outline
model and the worker pool's error delivery."""

from __future__ import annotations

import threading
import tomllib

import pytest
from PySide6.QtGui import QStandardItemModel

from pdfdesk.core.config import ConfigError, config_path
from pdfdesk.core.errors import FILE_NOT_FOUND, PdfDeskError
from pdfdesk.gui import config_file, recent, workers
from pdfdesk.gui.outline_panel import PAGE_ROLE, build_model
from pdfdesk.gui.richtext import citation_href, highlight_terms, markdown_html, parse_citation_href


# -- rich text ------------------------------------------------------------------------------------
def test_markdown_renders_the_common_constructs_and_escapes_everything_else():
    html = markdown_html("# Fees\nThe fee is **due** in *30 days* and `code<x>`.\n\n- one\n- two\n\n1. first\n"
                         "<img src=x onerror=alert(1)>\n```\na < b\n```")
    assert "<h3>Fees</h3>" in html and "<b>due</b>" in html and "<i>30 days</i>" in html
    assert "<code>code&lt;x&gt;</code>" in html and "<ul><li>one</li><li>two</li></ul>" in html
    assert "<ol><li>first</li></ol>" in html and "&lt;img src=x" in html and "<pre>a &lt; b</pre>" in html
    assert "<img" not in html


def test_citations_become_links_through_the_resolver():
    seen = []

    def resolve(name, page):
        seen.append((name, page))
        return citation_href("/docs/report 1.pdf", page) if page != 9 else None

    html = markdown_html("See [p. 3], [report 1.pdf p. 4], [Report 1.pdf, pp. 5-6] and [p. 9].", resolve)
    assert seen == [(None, 3), ("report 1.pdf", 4), ("Report 1.pdf", 5), (None, 9)]
    assert html.count('<a href="pdfdesk://open?doc=%2Fdocs%2Freport%201.pdf&amp;page=') == 3
    assert "[p. 9]" in html and "page=9" not in html


def test_only_web_links_are_made_from_markdown_links():
    html = markdown_html("[ok](https://example.org/a) [bad](javascript:alert(1)) [pdf](pdfdesk://open?doc=/x&page=1)")
    assert '<a href="https://example.org/a">ok</a>' in html
    assert "javascript" in html and 'href="javascript' not in html and 'href="pdfdesk' not in html


def test_citation_hrefs_round_trip_and_reject_junk():
    href = citation_href("/a/b&c d.pdf", 12, "3-1")
    assert parse_citation_href(href) == ("/a/b&c d.pdf", 12, "3-1")
    assert parse_citation_href("pdfdesk://open?doc=x.pdf&page=0") is None
    assert parse_citation_href("pdfdesk://open?page=2") is None
    assert parse_citation_href("https://open?doc=x&page=2") is None


def test_hit_words_are_bold_and_stemmed_forms_too():
    html = highlight_terms("Contracts <and> the contract; NOT void.", 'contract "the contract" -void')
    assert "<b>Contracts</b>" in html and "<b>the contract</b>" in html and "&lt;and&gt;" in html
    assert "<b>void</b>" not in html


# -- config.toml ----------------------------------------------------------------------------------
def test_merge_keeps_unknown_keys_and_deletes_on_request():
    raw = {"limits": {"maxFileMb": 10, "maxDownloadMb": 5}, "mine": {"x": 1}}
    merged = config_file.merge(raw, {"limits": {"maxFileMb": config_file.DELETE, "pdfMaxPages": 3},
                                     "files": {"roots": config_file.DELETE}})
    assert merged == {"limits": {"maxDownloadMb": 5, "pdfMaxPages": 3}, "mine": {"x": 1}}
    assert raw["limits"]["maxFileMb"] == 10  # the input is not modified


def test_dump_round_trips_through_tomllib():
    data = {"a": {"text": 'quote " back \\ newline \n tab \t bell \x07 ünï', "n": 1.5, "flag": True,
                  "items": ["x", "y"], "sub": {"k": 1}},
            "providers": {"my-server": {"baseUrl": "http://h/v1"}, "dotted.name": {"baseUrl": "http://x/v1"}}}
    assert tomllib.loads(config_file.dump_toml(data)) == data


def test_save_validates_before_writing():
    path = config_path()
    path.write_text("[limits]\nmaxFileMb = 5\n")
    with pytest.raises(ConfigError, match=r"limits\.maxFileMb"):
        config_file.save({"limits": {"maxFileMb": -1}})
    assert path.read_text() == "[limits]\nmaxFileMb = 5\n"
    config = config_file.save({"limits": {"maxFileMb": 7}})
    assert config.max_file_mb == 7 and tomllib.loads(path.read_text()) == {"limits": {"maxFileMb": 7}}


# -- recent files ---------------------------------------------------------------------------------
def test_recent_files_are_newest_first_unique_and_bounded(tmp_path):
    for n in range(recent.MAX_RECENT + 3):
        recent.add_recent(str(tmp_path / f"{n}.pdf"))
    recent.add_recent(str(tmp_path / "3.pdf"))
    items = recent.load_recent()
    assert len(items) == recent.MAX_RECENT and items[0] == str(tmp_path / "3.pdf") and items.count(items[0]) == 1
    recent.add_recent("https://example.org/a.pdf")
    assert recent.load_recent()[0] == "https://example.org/a.pdf"
    recent.remove_recent("https://example.org/a.pdf")
    assert "https://example.org/a.pdf" not in recent.load_recent()


def test_a_corrupt_recent_file_reads_as_empty():
    from pdfdesk.core.paths import app_data_dir

    (app_data_dir() / recent.RECENT_FILE).write_text("{not json")
    assert recent.load_recent() == []


# -- outline model --------------------------------------------------------------------------------
def test_outline_model_nests_by_level_and_disables_entries_without_a_page(qapp):
    model = QStandardItemModel()
    entries = [{"level": 1, "title": "Intro", "page": 1}, {"level": 2, "title": "Scope", "page": 2},
               {"level": 4, "title": "Deep jump", "page": 3}, {"level": 1, "title": "Web", "page": None},
               {"level": 1, "title": "End", "page": 9}]
    assert build_model(entries, model) == 5
    root = model.invisibleRootItem()
    assert [root.child(i).text() for i in range(root.rowCount())] == ["Intro", "Web", "End"]
    assert root.child(0).child(0).child(0).text() == "Deep jump"
    assert root.child(2).data(PAGE_ROLE) == 9 and not root.child(1).isEnabled()


# -- workers --------------------------------------------------------------------------------------
def test_worker_errors_arrive_as_details_on_the_ui_thread(qtbot):
    main = threading.get_ident()
    got = {}

    def fail():
        raise PdfDeskError(FILE_NOT_FOUND, "No file at x.", "Check the path.")

    workers.submit(fail, on_error=lambda d: got.update(d, thread=threading.get_ident()))
    qtbot.waitUntil(lambda: "error" in got, timeout=5000)
    assert got["error"] == FILE_NOT_FOUND and got["hint"] == "Check the path." and got["thread"] == main
    crash = {}
    workers.submit(lambda: 1 / 0, on_error=crash.update)
    qtbot.waitUntil(lambda: bool(crash), timeout=5000)
    assert crash["error"] == "internal_error" and "ZeroDivisionError" in crash["message"]


def test_worker_results_are_dropped_when_the_owner_is_gone(qtbot):
    from PySide6.QtCore import QObject

    owner = QObject()
    seen = []
    started = threading.Event()

    def slow():
        started.wait(5)
        return 1

    workers.submit(slow, owner=owner, on_done=seen.append)
    owner.deleteLater()
    qtbot.wait(50)
    started.set()
    assert workers.wait_idle(5000)
    qtbot.wait(50)
    assert seen == []


def test_cancelled_jobs_see_the_flag_and_report_progress(qtbot):
    progress = []
    done = []

    def work(job, progress):
        for n in range(3):
            progress(n)
        return job.cancelled

    workers.submit(work, with_job=True, on_progress=progress.append, on_done=done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=5000)
    assert progress == [0, 1, 2] and done == [False]


def test_a_synonym_that_counted_is_bold_with_the_query_words():
    html = highlight_terms("Участник вносит обеспечение до торгов.", "какой залог внести до торгов", ["обеспечение"])
    assert "<b>обеспечение</b>" in html and "<b>торгов</b>" in html and "<b>Участник</b>" not in html
    assert "<b>обеспечение</b>" not in highlight_terms("Участник вносит обеспечение.", "какой залог внести")
