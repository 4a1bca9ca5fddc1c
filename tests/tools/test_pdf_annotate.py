"""pdf_annotate: every action, every refusal, re-anchoring through a revision, the PDF's own
annotations read-only, the response budget, and annotation text kept as fenced data."""

from __future__ import annotations

import json
from pathlib import Path

import pymupdf
import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.documents import close_all
from pdfdesk.review.store import close_stores
from pdfdesk.tools import call_tool
from tests.hardening.hostile import (
    ATTACK,
    assert_text_keeps_outside_strings_as_data,
    outside_fences,
)
from tests.machine_faults import read_only
from tests.tools.review_support import (
    INJECTION,
    annotated_pdf,
    contract_pdf,
    refusal,
    words_box,
)
from tests.tools.test_details_schema import assert_declared


def annotate(**args) -> dict:
    return assert_declared("pdf_annotate", args)


def refused(code: str, **args) -> dict:
    return refusal("pdf_annotate", code, args)


@pytest.fixture
def contract(tmp_path: Path) -> Path:
    return contract_pdf(tmp_path / "contract.pdf")


def test_add_highlights_the_quote_where_it_is(contract):
    added = annotate(action="add", path=str(contract), page=3, quote="arbitration in Geneva", note="Seat?",
                     tags=["legal", "legal", " risk "], color="blue")["annotation"]
    assert added["kind"] == "highlight" and added["page"] == 3 and added["status"] == "anchored"
    assert added["color"] == "#64b5f6" and added["tags"] == ["legal", "risk"] and added["note"] == "Seat?"
    assert added["source"] == "pdfdesk" and added["id"].startswith("a-") and added["file"] == "contract.pdf"
    (rect,) = added["rects"]
    assert pymupdf.Rect(rect).contains(words_box(contract, 3, "arbitration in Geneva") * 0.999 + (1, 1, -1, -1))
    assert added["prefix"].endswith("go to ") and added["suffix"].startswith(".")


def test_rects_choose_which_occurrence_is_meant(contract):
    second = words_box(contract, 2, "Late fees")  # the second line holds the second "thirty days net"
    near = [[second.x0, second.y0, second.x1 + 200, second.y1]]
    chosen = annotate(action="add", path=str(contract), page=2, quote="thirty days net", rects=near)["annotation"]
    default = annotate(action="add", path=str(contract), page=2, quote="thirty days net")["annotation"]
    assert chosen["rects"][0][1] > default["rects"][0][1] + 20  # the lower line, not the first one


def test_area_page_note_and_pinned_answer(contract):
    box = words_box(contract, 1, "Definitions apply")
    area = annotate(action="add", path=str(contract), page=1, rect=[box.x0 - 2, box.y0 - 2, box.x1 + 2, box.y1 + 2])
    assert area["annotation"]["kind"] == "area" and area["annotation"]["quote"] == "Definitions apply"
    note = annotate(action="add", path=str(contract), page=2, note="Ask finance about this page.")["annotation"]
    assert note["kind"] == "note" and note["rects"] == [] and note["quote"] == ""
    answer = {"question": "Where is the seat?", "text": "Geneva [p. 3].",
              "citations": [{"file": "contract.pdf", "page": 3}]}
    pinned = annotate(action="add", path=str(contract), page=3, answer=answer)["annotation"]
    assert pinned["kind"] == "answer" and pinned["answer"] == answer


def test_list_merges_the_files_own_annotations_read_only_in_page_order(tmp_path):
    pdf = annotated_pdf(tmp_path / "annotated.pdf")
    annotate(action="add", path=str(pdf), page=3, quote="Signatures follow", note="mine")
    annotate(action="add", path=str(pdf), page=1, note="first page note")
    listed = annotate(action="list", path=str(pdf))
    items = listed["annotations"]
    assert [(i["page"], i["source"]) for i in items] == [(1, "pdfdesk"), (2, "pdf"), (3, "pdf"), (3, "pdfdesk")] or \
        [(i["page"], i["source"]) for i in items] == [(1, "pdfdesk"), (2, "pdf"), (3, "pdfdesk"), (3, "pdf")]
    assert listed["count"] == 4 and listed["file_annotations"] == 2
    own = next(i for i in items if i["page"] == 2)
    assert own["id"].startswith("pdf-2-") and own["note"] == INJECTION and own["quote"] == "Payment is due"
    result = call_tool("pdf_annotate", {"action": "list", "path": str(pdf)})
    assert INJECTION in result.text and INJECTION not in outside_fences(result.text)  # fenced as data
    assert "read-only" in result.text
    alone = annotate(action="list", path=str(pdf), include_file_annotations=False)
    assert [i["source"] for i in alone["annotations"]] == ["pdfdesk", "pdfdesk"]
    for action in ("update", "delete", "restore"):
        details = refused("validation_error", action=action, id=own["id"], note="changed")
        assert "belongs to the PDF file itself" in details["message"]


def test_filters(contract):
    annotate(action="add", path=str(contract), page=2, quote="Payment is due", color="green", tags=["money"])
    annotate(action="add", path=str(contract), page=3, quote="Geneva", note="Seat of arbitration", tags=["legal"])
    def pages(**wanted) -> list[int]:
        return [i["page"] for i in annotate(action="list", path=str(contract), filter=wanted)["annotations"]]
    assert pages(text="SEAT") == [3] and pages(text="payment") == [2]
    assert pages(color="green") == [2] and pages(color="#ffd54f") == [3]
    assert pages(tag="Legal") == [3] and pages(page=2) == [2] and pages(status="orphaned") == []
    refused("validation_error", action="list", path=str(contract), filter={"color": "mauve"})


def test_update_delete_restore(contract):
    ident = annotate(action="add", path=str(contract), page=1, quote="Recitals")["annotation"]["id"]
    updated = annotate(action="update", id=ident, note="New note", color="#ABCDEF", tags=["x"])["annotation"]
    assert (updated["note"], updated["color"], updated["tags"]) == ("New note", "#abcdef", ["x"])
    deleted = annotate(action="delete", id=ident)
    assert deleted["annotation"]["deleted"] is True
    assert annotate(action="list", path=str(contract))["count"] == 0
    annotate(action="restore", id=ident)
    assert [i["note"] for i in annotate(action="list", path=str(contract))["annotations"]] == ["New note"]
    refused("validation_error", action="update", id=ident)  # nothing to change
    for action in ("update", "delete", "restore"):
        assert "no annotation" in refused("validation_error", action=action, id="a-nope", note="x")["message"]


def test_list_of_every_document(tmp_path, contract):
    other = contract_pdf(tmp_path / "other.pdf")
    annotate(action="add", path=str(contract), page=1, quote="Recitals")
    annotate(action="add", path=str(other), page=3, quote="Geneva")
    annotate(action="add", path=str(other), page=2, note="n")
    listed = annotate(action="list")
    assert sorted((d["file"], d["count"]) for d in listed["documents"]) == [("contract.pdf", 1), ("other.pdf", 2)]
    assert {i["path"] for i in listed["annotations"]} == {str(contract), str(other)}
    set_config(Config(semantic=False, workspace_only=True, roots=(str(tmp_path / "nowhere"),)))
    (tmp_path / "nowhere").mkdir()
    hidden = annotate(action="list")
    assert hidden["count"] == 0 and hidden["documents_outside_roots"] == 2


@pytest.mark.parametrize(("args", "needle"), [
    ({"action": "add", "page": 1, "quote": "x"}, "'path'"),
    ({"action": "add", "path": "PDF", "quote": "x"}, "'page'"),
    ({"action": "add", "path": "PDF", "page": 1, "quote": "Recitals", "color": "mauve"}, "colour"),
    ({"action": "add", "path": "PDF", "page": 1, "quote": "not on this page"}, "not on page 1"),
    ({"action": "add", "path": "PDF", "page": 1, "kind": "highlight", "note": "x"}, "needs 'quote'"),
    ({"action": "add", "path": "PDF", "page": 1, "quote": "Recitals", "rect": [1, 2, 3, 4]}, "not both"),
    ({"action": "add", "path": "PDF", "page": 1, "rect": [10, 10, 10, 50]}, "no area"),
    ({"action": "add", "path": "PDF", "page": 1, "note": "x" * 20_001}, "20,000"),
    ({"action": "add", "path": "PDF", "page": 1, "note": "x", "tags": ["t"] * 1 + [f"t{i}" for i in range(32)]},
     "at most 32"),
    ({"action": "add", "path": "PDF", "page": 1, "note": "x", "tags": ["y" * 65]}, "at most 64"),
    ({"action": "update"}, "'id'"),
    ({"action": "scribble", "path": "PDF"}, "Parameter action"),
    ({"path": "PDF"}, "'action'"),
])
def test_bad_parameters(contract, args, needle):
    args = {k: str(contract) if v == "PDF" else v for k, v in args.items()}
    assert needle in refused("validation_error", **args)["message"]


def test_page_out_of_range_and_encryption(contract, aes_pdf):
    assert refused("invalid_page", action="add", path=str(contract), page=4, note="x")["page_count"] == 3
    refused("password_required", action="add", path=str(aes_pdf), page=1, note="x")
    refused("password_required", action="list", path=str(aes_pdf))
    refused("wrong_password", action="list", path=str(aes_pdf), password="guess")
    annotate(action="add", path=str(aes_pdf), page=1, note="x", password="user-secret")
    assert annotate(action="list", path=str(aes_pdf), password="user-secret")["count"] == 1


def test_writes_need_permission_listing_does_not(contract):
    ident = annotate(action="add", path=str(contract), page=1, quote="Recitals")["annotation"]["id"]
    set_config(Config(semantic=False, annotate_writes=False))
    for args in ({"action": "add", "path": str(contract), "page": 1, "note": "x"},
                 {"action": "update", "id": ident, "note": "y"}, {"action": "delete", "id": ident},
                 {"action": "restore", "id": ident}):
        assert "--allow-annotate" in refused("permission_denied", **args)["hint"]
    assert annotate(action="list", path=str(contract))["count"] == 1


def test_outside_the_workspace(contract, tmp_path):
    ident = annotate(action="add", path=str(contract), page=1, quote="Recitals")["annotation"]["id"]
    root = tmp_path / "root"
    root.mkdir()
    set_config(Config(semantic=False, workspace_only=True, roots=(str(root),)))
    refused("outside_workspace", action="add", path=str(contract), page=1, note="x")
    refused("outside_workspace", action="list", path=str(contract))
    refused("outside_workspace", action="delete", id=ident)


def test_a_store_folder_that_cannot_be_written(contract, pdfdesk_home):
    annotate(action="add", path=str(contract), page=1, quote="Recitals")
    close_stores()  # an open connection keeps writing through its descriptor: start as a new process would
    with read_only(pdfdesk_home / "review"):
        details = refused("permission_denied", action="add", path=str(contract), page=2, note="x")
        assert "review" in details["message"]


def test_a_revision_moves_notes_and_orphans_the_gone_ones(tmp_path):
    pdf = contract_pdf(tmp_path / "contract.pdf")
    moved = annotate(action="add", path=str(pdf), page=3, quote="arbitration in Geneva")["annotation"]
    gone = annotate(action="add", path=str(pdf), page=2, quote="Late fees apply", note="keep me")["annotation"]
    close_all()
    contract_pdf(pdf, insert_first="Cover page inserted in version two.", drop="Late fees apply after thirty days net.")
    listed = annotate(action="list", path=str(pdf))
    by_id = {item["id"]: item for item in listed["annotations"]}
    assert by_id[moved["id"]]["status"] == "moved" and by_id[moved["id"]]["page"] == 4
    assert pymupdf.Rect(by_id[moved["id"]]["rects"][0]).intersects(words_box(pdf, 4, "arbitration in Geneva"))
    assert by_id[gone["id"]]["status"] == "orphaned" and by_id[gone["id"]]["note"] == "keep me"
    assert listed["moved"] == 1 and listed["orphaned"] == 1
    assert "orphaned" in call_tool("pdf_annotate", {"action": "list", "path": str(pdf)}).text


def test_the_text_stays_within_64_kb_whatever_the_count(contract):
    for number in range(12):
        annotate(action="add", path=str(contract), page=1 + number % 3, note=f"note {number} " + "é" * 19_000)
    result = call_tool("pdf_annotate", {"action": "list", "path": str(contract)})
    assert len(result.text.encode("utf-8")) <= 64_000
    assert result.details["count"] == 12 and result.details["text_omitted"] > 0
    assert "left out" in result.text
    assert all(len(item["note"]) > 19_000 for item in result.details["annotations"])  # details keep the whole


def test_hostile_note_text_stays_inside_the_fence(tmp_path):
    pdf = annotated_pdf(tmp_path / "annotated.pdf", hostile=True)
    added = call_tool("pdf_annotate", {"action": "add", "path": str(pdf), "page": 1, "note": f"mine{ATTACK}",
                                       "tags": [f"tag{ATTACK}"[:60]]})
    assert not added.is_error, added.text
    listed = call_tool("pdf_annotate", {"action": "list", "path": str(pdf)})
    for result in (added, listed):
        assert_text_keeps_outside_strings_as_data(result.text)
        assert result.details["untrusted_content"] is True
    body = listed.text.split(">>>\n", 1)[1]
    entries = [line for line in body.splitlines() if line.startswith("[")]
    assert len(entries) == 3  # a note's line breaks cannot start an entry of their own
    json.dumps(listed.details)
