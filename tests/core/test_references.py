import os
import shutil
from pathlib import Path

import pytest

from pdfdesk.core.config import Config
from pdfdesk.core.errors import (
    EMPTY_FILE, FILE_NOT_FOUND, NOT_A_PDF, OUTSIDE_WORKSPACE, PERMISSION_DENIED, TOO_LARGE,
    UNSUPPORTED_PDF_REFERENCE, VALIDATION_ERROR, PdfDeskError,
)
from pdfdesk.core.references import display_name, normalise_reference, reference_to_path, resolve_reference


def code_of(reference, config=None, **kwargs):
    with pytest.raises(PdfDeskError) as err:
        resolve_reference(reference, config or Config(), **kwargs)
    return err.value.code


def test_plain_relative_and_absolute_paths(text_pdf: Path, monkeypatch):
    assert resolve_reference(str(text_pdf), Config()).path == text_pdf
    monkeypatch.chdir(text_pdf.parent)
    source = resolve_reference(text_pdf.name, Config())
    assert source.path == text_pdf and source.name == "text.pdf" and source.size == text_pdf.stat().st_size


def test_home_tilde_is_expanded(text_pdf: Path, tmp_path: Path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(text_pdf, home / "mine.pdf")
    monkeypatch.setenv("HOME", str(home))
    assert resolve_reference("~/mine.pdf", Config()).path == home / "mine.pdf"


def test_file_urls_with_escapes(text_pdf: Path, tmp_path: Path):
    spaced = tmp_path / "with space ü.pdf"
    shutil.copy(text_pdf, spaced)
    url = "file://" + str(spaced).replace(" ", "%20").replace("ü", "%C3%BC")
    assert resolve_reference(url, Config()).path == spaced
    assert resolve_reference("file://localhost" + str(text_pdf), Config()).path == text_pdf


def test_file_url_on_another_host_is_unsupported():
    assert code_of("file://fileserver/share/x.pdf") == UNSUPPORTED_PDF_REFERENCE


@pytest.mark.parametrize("ref", ["ftp://example.org/x.pdf", "data:application/pdf;base64,JVBERi0=",
                                 "javascript:alert(1)", "smb://host/x.pdf", "s3://bucket/x.pdf"])
def test_other_schemes_are_unsupported(ref):
    assert code_of(ref) == UNSUPPORTED_PDF_REFERENCE


def test_windows_drive_letters_are_paths_not_schemes():
    assert reference_to_path("C:/docs/x.pdf").name == "x.pdf"


@pytest.mark.parametrize("ref", ["", "   ", None, 42, ["a.pdf"]])
def test_missing_reference_is_validation_error(ref):
    assert code_of(ref) == VALIDATION_ERROR


def test_missing_file(tmp_path):
    assert code_of(str(tmp_path / "nope.pdf")) == FILE_NOT_FOUND


def test_folder_is_not_a_pdf(tmp_path):
    assert code_of(str(tmp_path)) == NOT_A_PDF


def test_empty_file(empty_pdf):
    assert code_of(str(empty_pdf)) == EMPTY_FILE


def test_byte_cap(text_pdf):
    size = text_pdf.stat().st_size
    assert code_of(str(text_pdf), max_bytes=size - 1) == TOO_LARGE
    assert code_of(str(text_pdf), Config(max_file_mb=size / 1048576 / 2)) == TOO_LARGE
    assert resolve_reference(str(text_pdf), Config(), max_bytes=size).size == size


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file regardless of its mode")
def test_unreadable_file_permission_denied(text_pdf, tmp_path):
    locked = tmp_path / "locked.pdf"
    shutil.copy(text_pdf, locked)
    locked.chmod(0)
    from pdfdesk.core.documents import open_pdf

    with pytest.raises(PdfDeskError) as err, open_pdf(str(locked)):
        pass
    assert err.value.code == PERMISSION_DENIED


def test_workspace_policy(text_pdf: Path, tmp_path: Path):
    root = tmp_path / "workspace"
    (root / "sub").mkdir(parents=True)
    inside = root / "sub" / "ok.pdf"
    shutil.copy(text_pdf, inside)
    config = Config(workspace_only=True, roots=(str(root),))
    assert resolve_reference(str(inside), config).path == inside
    assert code_of(str(text_pdf), config) == OUTSIDE_WORKSPACE
    # `..` that climbs out of the root, and a symlink inside the root that points outside it
    climbing = root / "sub" / ".." / ".." / ".." / text_pdf.parent.name / text_pdf.name
    assert code_of(str(climbing), config) == OUTSIDE_WORKSPACE
    assert resolve_reference(str(root / ".." / "workspace" / "sub" / "ok.pdf"), config).path == inside
    link = root / "link.pdf"
    link.symlink_to(text_pdf)
    assert code_of(str(link), config) == OUTSIDE_WORKSPACE
    # a sibling folder whose name merely starts with the root's name is outside
    sibling = tmp_path / "workspace-evil"
    sibling.mkdir()
    shutil.copy(text_pdf, sibling / "x.pdf")
    assert code_of(str(sibling / "x.pdf"), config) == OUTSIDE_WORKSPACE
    # with no roots at all, nothing is allowed
    assert code_of(str(inside), Config(workspace_only=True)) == OUTSIDE_WORKSPACE


@pytest.mark.parametrize(("reference", "name"), [
    ("file:///tmp/a%20b.pdf", "a b.pdf"),
    ("file://localhost/tmp/r%C3%A9sum%C3%A9.pdf", "résumé.pdf"),
    ("https://example.org/docs/annual%20report.pdf?download=1#page=2", "annual report.pdf"),
    ("https://example.org/files/", "files"),
    ("https://example.org", "example.org"),
    ("/home/me/contract.pdf", "contract.pdf"),
    ("/home/me/100%20sure.pdf", "100%20sure.pdf"),  # a local name is what it is: nothing to decode
    ("/home/me/what?.pdf", "what?.pdf"),
    ("~/notes.pdf", "notes.pdf"),
    ("report.pdf", "report.pdf"),
])
def test_display_names(reference, name):
    assert display_name(reference) == name


def test_normalising_gives_one_spelling_per_document(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    target = str(tmp_path / "a b.pdf")
    spellings = ["a b.pdf", "~/a b.pdf", "file://" + str(tmp_path).replace(" ", "%20") + "/a%20b.pdf",
                 f"{tmp_path}/./a b.pdf", f"  {target}  "]
    assert {normalise_reference(s) for s in spellings} == {target}
    assert normalise_reference("https://example.org/a%20b.pdf") == "https://example.org/a%20b.pdf"
    assert normalise_reference("ftp://example.org/x.pdf") == "ftp://example.org/x.pdf"  # not a local path
