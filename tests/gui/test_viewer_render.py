"""The render helper process: same pixels as the shared render path, errors, crash recovery."""

from __future__ import annotations

import os
import signal
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pymupdf
import pytest
from PySide6.QtGui import QImage

from pdfdesk.core.documents import open_pdf
from pdfdesk.core.render import render_pixmap
from pdfdesk.gui.viewer import render_process, threads
from pdfdesk.gui.viewer.render_process import HELPER, RenderFailed

WAIT_MS = 15_000


@pytest.fixture
def helper(qtbot):
    if not HELPER.enabled:
        pytest.skip("render helper disabled (PDFDESK_RENDER_PROCESS=0 or a frozen build)")
    HELPER.start()
    qtbot.waitUntil(HELPER.ready, timeout=WAIT_MS)
    return HELPER


@pytest.fixture
def odd_pdf(tmp_path: Path) -> Path:
    """A page whose width in pixels is not a multiple of 4 (rows need padding for QImage)."""
    doc = pymupdf.open()
    page = doc.new_page(width=301, height=211)
    page.insert_text((20, 40), "Odd sized page with some text", fontsize=14)
    page.draw_rect(pymupdf.Rect(10, 60, 200, 150), color=(1, 0, 0), fill=(0, 0, 1))
    path = tmp_path / "odd.pdf"
    doc.save(path)
    doc.close()
    return path


def source_of(path: Path):
    with open_pdf(str(path)) as opened:
        return opened.source


def same_pixels(image: QImage, pixmap: pymupdf.Pixmap) -> bool:
    assert (image.width(), image.height()) == (pixmap.width, pixmap.height)
    for y in range(0, pixmap.height, 7):
        for x in range(0, pixmap.width, 5):
            colour = image.pixelColor(x, y)
            if (colour.red(), colour.green(), colour.blue()) != pixmap.pixel(x, y):
                return False
    return True


def test_helper_pixels_match_the_shared_render_path(helper, odd_pdf):
    source = source_of(odd_pdf)
    with open_pdf(str(odd_pdf)) as opened:
        page = opened.doc.load_page(0)
        whole = render_pixmap(page, 1.0)
        clipped = render_pixmap(page, 2.0, clip=pymupdf.Rect(10, 50, 150, 160))
    assert whole.width % 4 != 0, "exercises the row padding"
    assert same_pixels(helper.render(source, None, 0, 1.0, None), whole)
    assert same_pixels(helper.render(source, None, 0, 2.0, (10, 50, 150, 160)), clipped)


def test_helper_reports_a_page_it_cannot_render(helper, odd_pdf):
    with pytest.raises(RenderFailed, match="Page 5 cannot be displayed"):
        helper.render(source_of(odd_pdf), None, 4, 1.0, None)
    assert helper.ready(), "an error does not cost the helper"


def test_encrypted_document_renders_with_its_password(helper, aes_pdf):
    with open_pdf(str(aes_pdf), "user-secret") as opened:
        source = opened.source
    image = helper.render(source, "user-secret", 0, 1.0, None)
    assert not image.isNull()
    with pytest.raises(RenderFailed):
        helper.render(source, None, 0, 1.0, None)


def test_a_dead_helper_is_restarted(qtbot, helper, odd_pdf):
    source = source_of(odd_pdf)
    os.kill(helper.pid(), signal.SIGKILL)
    with pytest.raises((RenderFailed, render_process.HelperUnavailable)):
        helper.render(source, None, 0, 1.0, None)
    qtbot.waitUntil(helper.ready, timeout=WAIT_MS)
    assert not helper.render(source, None, 0, 1.0, None).isNull()


def test_the_view_renders_through_the_helper(qtbot, helper, long_pdf):
    from pdfdesk.gui.viewer import DocumentView

    view = DocumentView()
    qtbot.addWidget(view)
    view.resize(600, 500)
    view.show()
    with qtbot.waitSignal(view.documentOpened, timeout=WAIT_MS):
        view.open_document(str(long_pdf))
    for page in (40, 80):  # the first render happens in the worker thread (the document is open there)
        view.go_to_page(page)
        qtbot.waitUntil(lambda: all(view.page_fully_rendered(p) for p in view.visible_pages()), timeout=WAIT_MS)
    assert view._worker.helper_renders >= 1, "pages after the first come from the helper"
    view.close_document()
    assert threads.join_all(WAIT_MS)
