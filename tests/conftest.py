"""Shared fixtures: an isolated app data folder per test and every kind of test PDF."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.documents import close_all
from tests import pdf_factory as make

os.environ["HF_HUB_OFFLINE"] = "1"  # no test reaches a model hub
# One-shot calls start no detached background indexer in tests: a test that wants the queue run
# calls `run_index_queue()`; the tests of the background owner turn it back on.
os.environ["PDFDESK_BACKGROUND_INDEXING"] = "0"
for _var in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
    os.environ.pop(_var, None)


@pytest.fixture(autouse=True, scope="session")
def _clipboard_emptied_at_the_end() -> Iterator[None]:
    """Qt's offscreen platform crashes the process at exit when its clipboard still owns a QMimeData
    a test put there ("Copy table" puts text and HTML); a desktop platform hands it to the clipboard
    manager instead. The session leaves the clipboard empty."""
    yield
    if "PySide6.QtWidgets" in sys.modules:
        from PySide6.QtWidgets import QApplication

        if QApplication.instance() is not None:
            QApplication.clipboard().clear()


@pytest.fixture(autouse=True)
def pdfdesk_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own app data folder and default config, and leaves no open documents."""
    home = tmp_path / "pdfdesk-home"
    monkeypatch.setenv("PDFDESK_HOME", str(home))
    set_config(Config(semantic=False))  # semantic tests turn it on with the offline model
    yield home
    if "pdfdesk.index.owner" in sys.modules:  # a window's or server's owner ends with its test
        # waited for in full: a stage still running would write into the next test's folder
        sys.modules["pdfdesk.index.owner"].default_owner().stop(60)
    close_all()
    set_config(None)


@pytest.fixture
def builtin_model(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Semantic search on, with the embedding model shipped inside pdfdesk."""
    from pdfdesk.index import embedding

    monkeypatch.delenv(embedding.MODEL_PATH_ENV, raising=False)
    set_config(Config(semantic=True))
    embedding.reset_model()
    yield
    embedding.reset_model()


def run_index_queue() -> list:
    """Work through the indexing queue now, as the window's or the server's owner would."""
    from pdfdesk.index.owner import default_owner

    return default_owner().drain(wait=True)


@pytest.fixture(scope="session")
def pdf_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("pdfs")


@pytest.fixture(scope="session")
def text_pdf(pdf_dir: Path) -> Path:
    return make.text_pdf(pdf_dir / "text.pdf")


@pytest.fixture(scope="session")
def outline_pdf(pdf_dir: Path) -> Path:
    return make.outline_pdf(pdf_dir / "outline.pdf")


@pytest.fixture(scope="session")
def image_only_pdf(pdf_dir: Path) -> Path:
    return make.image_only_pdf(pdf_dir / "scan.pdf")


@pytest.fixture(scope="session")
def aes_pdf(pdf_dir: Path) -> Path:
    return make.encrypted_pdf(pdf_dir / "aes256.pdf", pymupdf.PDF_ENCRYPT_AES_256)


@pytest.fixture(scope="session")
def rc4_pdf(pdf_dir: Path) -> Path:
    return make.encrypted_pdf(pdf_dir / "rc4.pdf", pymupdf.PDF_ENCRYPT_RC4_128)


@pytest.fixture(scope="session")
def owner_only_pdf(pdf_dir: Path) -> Path:
    """Encrypted with an owner password only: opens without a password, permissions limited."""
    return make.encrypted_pdf(pdf_dir / "owner-only.pdf", pymupdf.PDF_ENCRYPT_AES_256, user_pw="")


@pytest.fixture(scope="session")
def cjk_pdf(pdf_dir: Path) -> Path:
    return make.cjk_pdf(pdf_dir / "cjk.pdf")


@pytest.fixture(scope="session")
def rtl_pdf(pdf_dir: Path) -> Path:
    return make.rtl_pdf(pdf_dir / "rtl.pdf")


@pytest.fixture(scope="session")
def form_pdf(pdf_dir: Path) -> Path:
    return make.form_pdf(pdf_dir / "form.pdf")


@pytest.fixture(scope="session")
def long_pdf(pdf_dir: Path) -> Path:
    return make.many_pages_pdf(pdf_dir / "long-1500.pdf", 1500)


@pytest.fixture(scope="session")
def zero_pages_pdf(pdf_dir: Path) -> Path:
    return make.zero_pages_pdf(pdf_dir / "zero.pdf")


@pytest.fixture(scope="session")
def truncated_pdf(pdf_dir: Path, outline_pdf: Path) -> Path:
    return make.truncated_pdf(outline_pdf, pdf_dir / "truncated.pdf")


@pytest.fixture(scope="session")
def garbled_pdf(pdf_dir: Path, text_pdf: Path) -> Path:
    return make.garbled_pdf(text_pdf, pdf_dir / "garbled.pdf")


@pytest.fixture(scope="session")
def repairable_pdf(pdf_dir: Path, text_pdf: Path) -> Path:
    return make.broken_xref_pdf(text_pdf, pdf_dir / "broken-xref.pdf")


@pytest.fixture(scope="session")
def not_pdf(pdf_dir: Path) -> Path:
    path = pdf_dir / "letter.pdf"
    path.write_text("Dear reviewer,\nthis is a plain text file with a .pdf name.\n")
    return path


@pytest.fixture(scope="session")
def empty_pdf(pdf_dir: Path) -> Path:
    path = pdf_dir / "empty.pdf"
    path.write_bytes(b"")
    return path


os.environ.pop("PDFDESK_TEAM_DATABASE", None)  # no test reaches a team database it did not start


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[object]:
    """The session's own PostgreSQL server (started on first use, removed at the end)."""
    from tests.pg_cluster import Cluster

    cluster = Cluster()
    yield cluster
    cluster.close()


@pytest.fixture
def team_db(pg_cluster: object, monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """A fresh database with the team schema, set up by the superuser; pdfdesk logs in as alice
    (PDFDESK_TEAM_DATABASE) unless a test switches the login with `team_db.login(name)`."""
    from tests.team_fixture import TeamDatabase

    database = TeamDatabase(pg_cluster, monkeypatch)
    yield database
    database.close()
