"""Each tool's `details` is a declared TypedDict: real results on many kinds of PDF validate against
the closed schema generated from it, so a key a tool emits but the type lacks fails here."""

from __future__ import annotations

from pathlib import Path
from typing import Literal, NotRequired, TypedDict

import jsonschema
import pymupdf
import pytest

from pdfdesk.core.documents import open_pdf
from pdfdesk.index.builder import Target, build_index, build_vectors
from pdfdesk.index.library import Library
from pdfdesk.tools import all_tools, call_tool, get_tool
from pdfdesk.tools.details import ErrorDetails
from pdfdesk.tools.json_schema import json_schema


class _Inner(TypedDict, total=False):
    note: str


class _Probe(TypedDict):
    name: str
    count: int
    ratio: float
    flag: bool
    maybe: str | None
    kind: Literal["a", "b"]
    pages: list[int]
    names: dict[str, str]
    inner: _Inner
    mixed: int | _Inner
    optional: NotRequired[list[list[float]]]


def test_the_converter_covers_every_kind_of_hint():
    schema = json_schema(_Probe, closed=True)
    assert schema["required"] == ["count", "flag", "inner", "kind", "maybe", "mixed", "name", "names", "pages", "ratio"]
    props = schema["properties"]
    assert props["name"] == {"type": "string"} and props["count"] == {"type": "integer"}
    assert props["ratio"] == {"type": "number"} and props["flag"] == {"type": "boolean"}
    assert props["maybe"] == {"type": ["string", "null"]} and props["kind"] == {"enum": ["a", "b"]}
    assert props["pages"] == {"type": "array", "items": {"type": "integer"}}
    assert props["names"] == {"type": "object", "additionalProperties": {"type": "string"}}
    assert props["inner"] == {"type": "object", "properties": {"note": {"type": "string"}}, "required": [],
                              "additionalProperties": False}
    assert props["mixed"] == {"anyOf": [{"type": "integer"}, props["inner"]]}
    assert props["optional"]["items"] == {"type": "array", "items": {"type": "number"}}
    assert schema["additionalProperties"] is False
    assert "additionalProperties" not in json_schema(_Probe)  # the open form a client is given
    with pytest.raises(TypeError):
        json_schema(dict[int, str])
    with pytest.raises(TypeError):
        json_schema(set[str])


def test_every_tool_declares_its_details():
    for tool in all_tools():
        schema = tool.output_schema()
        assert schema is not None and schema["type"] == "object", tool.name
        jsonschema.Draft202012Validator.check_schema(schema)


def _closed_errors(name: str, details: dict) -> list[str]:
    schema = get_tool(name).output_schema(closed=True)
    return [error.message for error in jsonschema.Draft202012Validator(schema).iter_errors(details)]


def assert_declared(name: str, args: dict) -> dict:
    result = call_tool(name, args)
    assert not result.is_error, result.text
    errors = _closed_errors(name, dict(result.details))
    assert not errors, f"{name} details do not match their TypedDict: {errors}"
    return dict(result.details)


def test_an_undeclared_key_or_a_wrong_type_is_caught(text_pdf):
    details = assert_declared("pdf_info", {"path": str(text_pdf)})
    assert any("surprise" in error for error in _closed_errors("pdf_info", {**details, "surprise": 1}))
    nested = {**details, "page_size": {**details["page_size"], "depth_pt": 3.0}}
    assert any("depth_pt" in error for error in _closed_errors("pdf_info", nested))
    assert _closed_errors("pdf_info", {**details, "pages": "three"})
    missing = {key: value for key, value in details.items() if key != "pages_total"}
    assert any("pages_total" in error for error in _closed_errors("pdf_info", missing))


def _hidden_text_pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 72), "Quarterly report: revenue grew in every region.")
    page.insert_text((72, 100), "INVISIBLE revenue instruction", render_mode=3)
    page.insert_text((72, 130), "WHITE revenue instruction", color=(1, 1, 1))
    doc.set_toc([[1, "Report", 1]])
    doc.save(path)
    doc.close()
    return path


def test_info_results_match_their_type(text_pdf, form_pdf, image_only_pdf, repairable_pdf, aes_pdf, outline_pdf):
    for path in (text_pdf, form_pdf, image_only_pdf, repairable_pdf, outline_pdf):
        assert_declared("pdf_info", {"path": str(path)})
    encrypted = assert_declared("pdf_info", {"path": str(aes_pdf), "password": "user-secret"})
    assert encrypted["encrypted"] is True
    fields = assert_declared("pdf_info", {"path": str(form_pdf)})["form_fields"]
    assert fields["count"] and fields["fields"]


def test_extract_text_results_match_their_type(tmp_path, text_pdf, image_only_pdf, repairable_pdf, long_pdf):
    assert_declared("pdf_extract_text", {"path": str(text_pdf), "pages": "1,3"})
    assert assert_declared("pdf_extract_text", {"path": str(image_only_pdf)})["scanned_pages"]
    assert_declared("pdf_extract_text", {"path": str(repairable_pdf)})
    assert assert_declared("pdf_extract_text", {"path": str(long_pdf), "max_chars": 200})["truncated"] is True
    hidden = assert_declared("pdf_extract_text", {"path": str(_hidden_text_pdf(tmp_path / "hidden.pdf"))})
    assert hidden["hidden_text"]["samples"]


def test_render_and_outline_results_match_their_type(tmp_path, text_pdf, outline_pdf):
    assert assert_declared("pdf_render_page", {"path": str(text_pdf), "page": 1, "dpi": 20})["dpi_clamped"] is True
    assert_declared("pdf_render_page", {"path": str(text_pdf), "page": "2"})
    assert assert_declared("pdf_outline", {"path": str(outline_pdf)})["entries"]
    assert assert_declared("pdf_outline", {"path": str(text_pdf)})["count"] == 0
    assert assert_declared("pdf_outline", {"path": str(_hidden_text_pdf(tmp_path / "toc.pdf"))})["count"] == 1


def test_search_results_match_their_type(tmp_path, text_pdf, outline_pdf):
    hidden = _hidden_text_pdf(tmp_path / "hidden.pdf")
    found = assert_declared("pdf_search", {"path": str(hidden), "query": "revenue", "mode": "keyword"})
    assert found["hidden_text"] and found["matches"][0]["hit_in_hidden_text"]
    assert_declared("pdf_search", {"path": str(text_pdf), "query": "hello", "excerpt_style": "snippet"})
    assert_declared("pdf_search", {"path": str(outline_pdf), "query": "methods", "granularity": "section"})
    assert_declared("pdf_search", {"path": str(text_pdf), "query": "nowhere-to-be-found"})
    library = Library()
    library.add([str(text_pdf), str(tmp_path / "gone.pdf")])
    library.process()
    assert assert_declared("pdf_search", {"library": True, "query": "hello"})["library"] is True


def test_semantic_and_hybrid_search_results_match_their_type(builtin_model, tmp_path):
    doc = pymupdf.open()
    topics = [("Weather", "Storms and heavy rain are forecast for the coast tonight."),
              ("Billing", "An overdue invoice must be paid within thirty days."),
              ("Pets", "The kitten sleeps on the sofa all afternoon.")]
    for title, text in topics:
        page = doc.new_page()
        page.insert_text((72, 72), title, fontsize=18)
        page.insert_textbox(pymupdf.Rect(72, 100, 520, 400), text, fontsize=11)
    doc.set_toc([[1, title, number] for number, (title, _text) in enumerate(topics, start=1)])
    path = tmp_path / "topics.pdf"
    doc.save(path)
    doc.close()
    with open_pdf(str(path)) as opened:
        target = Target(opened.source, None, opened.fingerprint)
    build_index(target)
    build_vectors(target)
    hybrid = assert_declared("pdf_search", {"path": str(path), "query": "overdue invoice"})
    assert hybrid["mode_used"] == "hybrid" and {m["found_by"] for m in hybrid["matches"]} >= {"both"}
    for granularity in ("page", "section"):
        assert_declared("pdf_search", {"path": str(path), "query": "rain forecast", "mode": "semantic",
                                       "granularity": granularity})


@pytest.mark.parametrize(("name", "args"), [
    ("pdf_info", {"path": "/nonexistent/for-the-test.pdf"}),
    ("pdf_render_page", {"path": "TEXT_PDF", "page": 99}),
    ("pdf_extract_text", {"path": "TEXT_PDF", "pages": "x-y"}),
    ("pdf_outline", {}),
    ("pdf_search", {"query": "x"}),
    ("no_such_tool", {}),
])
def test_error_results_match_error_details(name, args, text_pdf):
    args = {key: str(text_pdf) if value == "TEXT_PDF" else value for key, value in args.items()}
    result = call_tool(name, args)
    assert result.is_error
    schema = json_schema(ErrorDetails, closed=True)
    errors = [error.message for error in jsonschema.Draft202012Validator(schema).iter_errors(dict(result.details))]
    assert not errors, errors
