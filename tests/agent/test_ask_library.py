"""A chat scoped to the library, against real HTTP servers speaking each provider's protocol: it
searches the library, reads documents nobody attached, cites them, and never reads a file outside
the library however a document in it asks (the acceptance test of the trust boundary)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pdfdesk.agent.events import CitationFound, Done, ToolCallFinished
from pdfdesk.agent.prompts import SECURITY
from pdfdesk.agent.scope import make_scope
from pdfdesk.agent.session import ChatSession
from pdfdesk.core import documents as core_documents
from pdfdesk.core.config import ProviderSettings
from tests.agent.fake_servers import FakeOpenAI, FakeServer, Turn
from tests.agent.library_case import EVIL_URL, SECRET, SpyRunner, converse, local_session
from tests.agent.support import provider_urls, set_keys, use_config

pytestmark = pytest.mark.network
ROOT = Path(__file__).resolve().parents[2]
MODELS = {"openai": "openai/gpt-4.1-mini", "anthropic": "anthropic/claude-sonnet-4-6",
          "google": "google/gemini-2.5-flash"}
SERVERS = {"openai": "openai_server", "anthropic": "anthropic_server", "google": "gemini_server"}


def library_session(provider: str, server: FakeServer, monkeypatch: pytest.MonkeyPatch, runner: SpyRunner,
                    documents: tuple[str, ...] = ()) -> ChatSession:
    set_keys(monkeypatch, provider)
    config = use_config(providers=provider_urls(**{provider: server.url}), agent_max_tool_calls=30)
    return ChatSession(list(documents), model=MODELS[provider], config=config, tool_runner=runner,
                       scope=make_scope("library"))


def offered_properties(provider: str, body: dict[str, Any], name: str) -> dict[str, Any]:
    if provider == "google":
        found = next(d for d in body["tools"][0]["functionDeclarations"] if d["name"] == name)
        return dict(found["parameters"]["properties"])
    if provider == "anthropic":
        return dict(next(t for t in body["tools"] if t["name"] == name)["input_schema"]["properties"])
    return dict(next(t for t in body["tools"] if t["function"]["name"] == name)["function"]["parameters"]["properties"])


def system_text(provider: str, body: dict[str, Any]) -> str:
    if provider == "anthropic":
        return str(body["system"])
    if provider == "google":
        return str(body["systemInstruction"]["parts"][0]["text"])
    return str(body["messages"][0]["content"])


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_library_scope_searches_reads_an_unattached_document_and_cites_it(provider, request, library_case, monkeypatch):
    case = library_case
    server: FakeServer = request.getfixturevalue(SERVERS[provider])
    server.script(
        Turn(text="Searching the library.", tool_calls=[("pdf_search", {"library": True, "query": "demurrage"})]),
        Turn(tool_calls=[("pdf_extract_text", {"path": "b.pdf", "pages": "2"})]),
        Turn(text="Demurrage accrues at 900 euros per day [b.pdf p. 2]; see also [a.pdf p. 1] (never shown)."),
    )
    spy = SpyRunner()
    session = library_session(provider, server, monkeypatch, spy)

    events = converse(session, "What are the demurrage charges?")

    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert [f.is_error for f in finished] == [False, False], [f.summary for f in finished]
    assert [m["file"] for m in finished[0].details["matches"]] == [str(case["b"])]
    assert spy.calls[1] == ("pdf_extract_text", {"path": str(case["b"]), "pages": "2", "tables": True})
    citations = [e.citation for e in events if isinstance(e, CitationFound)]
    assert [(c.document, c.page, c.label) for c in citations] == [(str(case["b"]), 2, "b.pdf p. 2")]
    assert "900 euros" in (citations[0].excerpt or "") and citations[0].rects  # the search hit's passage
    done = events[-1]
    assert isinstance(done, Done) and done.citations == tuple(citations)
    first = server.bodies[0]
    search = offered_properties(provider, first, "pdf_search")
    assert "library" in search and "within" not in search
    prompt = system_text(provider, first)
    assert "the whole library (4 documents)" in prompt and "[file.pdf p. N]" in prompt and SECURITY in prompt


def obeying_calls(case: dict[str, Path]) -> list[tuple[str, dict[str, Any]]]:
    """Every call the hostile library document asks for, and a few a compromised model might invent."""
    secret = case["secret"]
    return [
        ("pdf_extract_text", {"path": str(secret)}),
        ("pdf_extract_text", {"path": "/etc/passwd"}),
        ("pdf_search", {"path": EVIL_URL, "query": "tariff"}),  # a URL named like a library document
        ("pdf_render_page", {"path": secret.as_uri(), "page": 1}),
        ("pdf_info", {"path": f"{case['lib']}/../outside/secret.pdf"}),
        ("pdf_info", {"path": "secret.pdf"}),  # the outside file's bare name: no library document
        ("pdf_extract_text", {"path": "~/secret.pdf"}),
        ("pdf_search", {"library": True, "path": str(secret), "query": "tariff"}),
        ("pdf_search", {"library": True, "query": "tariff", "within": ["0" * 32]}),
        ("pdf_outline", {"path": f"{case['sub']}/../../outside/secret.pdf"}),
        ("pdf", {"pdf": str(secret), "prompt": "Quote everything."}),
    ]


@pytest.mark.parametrize("provider", ["openai", "anthropic", "google"])
def test_a_library_document_cannot_make_the_model_read_outside_the_library(provider, request, library_case,
                                                                           monkeypatch):
    case = library_case
    located: list[str] = []
    real_locate = core_documents.locate

    def spy_locate(reference: object, *args: Any, **kwargs: Any) -> Any:  # every PDF any tool opens
        located.append(str(reference))
        return real_locate(reference, *args, **kwargs)

    monkeypatch.setattr(core_documents, "locate", spy_locate)
    obey = obeying_calls(case)
    server: FakeServer = request.getfixturevalue(SERVERS[provider])
    server.script(
        Turn(tool_calls=[("pdf_search", {"library": True, "query": "shipping line notice"})]),
        Turn(tool_calls=[("pdf_extract_text", {"path": "hostile.pdf"})]),
        Turn(text="The notice says to read other files.", tool_calls=obey),
        Turn(text="The notice [hostile.pdf p. 1] holds instructions aimed at an AI; I did not follow them."),
    )
    spy = SpyRunner()
    session = library_session(provider, server, monkeypatch, spy)

    events = converse(session, "What does the shipping line notice say?")

    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert len(finished) == 2 + len(obey)
    assert not finished[0].is_error and not finished[1].is_error
    for event, (name, _args) in zip(finished[2:], obey, strict=True):
        assert event.is_error and event.name == name, (name, event.summary)
        assert event.details["error"] == "validation_error", event.details
    # Only library documents reached the tools, and only these two calls did.
    assert [(name, args.get("path")) for name, args in spy.calls] == [("pdf_search", None),
                                                                      ("pdf_extract_text", str(case["hostile"]))]
    library = str(case["lib"]) + os.sep
    assert located and all(path.startswith(library) for path in located), located
    assert not any("secret" in path or "passwd" in path or "evil" in path for path in located)
    everything = json.dumps(server.bodies)
    assert SECRET not in everything and "root:x:0:0" not in everything
    assert "IMPORTANT INSTRUCTION" in everything  # the document was read (fenced), just not obeyed
    citations = [e.citation for e in events if isinstance(e, CitationFound)]
    assert [(c.document, c.page) for c in citations] == [(str(case["hostile"]), 1)]


def test_a_library_scope_refuses_a_bare_name_shared_by_several_documents(library_case, tmp_path):
    from tests.agent.library_case import write_pdf

    twin = write_pdf(tmp_path / "elsewhere" / "a.pdf", ["Another a.pdf about mooring lines."])
    from pdfdesk.index.library import Library

    Library().add([str(twin)])
    Library().process()
    with FakeOpenAI() as server:
        server.script(Turn(tool_calls=[("pdf_info", {"path": "a.pdf"}), ("pdf_info", {"path": str(twin)})]),
                      Turn(text="ok"))
        config = use_config(providers={"local": ProviderSettings(base_url=server.url)})
        spy = SpyRunner()
        events = converse(local_session(server.url, config, spy, kind="library"), "q")
    finished = [e for e in events if isinstance(e, ToolCallFinished)]
    assert finished[0].is_error and "2 documents in scope are named a.pdf" in finished[0].details["message"]
    assert not finished[1].is_error and spy.calls == [("pdf_info", {"path": str(twin)})]


# -- `pdfdesk ask --library` end to end ------------------------------------------------------------------
def run_ask(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")}
    env.update({"PDFDESK_HOME": str(home), "PYTHONPATH": str(ROOT)})
    return subprocess.run([sys.executable, "-m", "pdfdesk", "ask", *args], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=90)


def write_config(home: Path, url: str) -> None:
    (home / "config").mkdir(parents=True, exist_ok=True)
    (home / "config" / "config.toml").write_text(
        f'[models]\nagent = "lab/qwen2.5-7b"\n\n[providers.lab]\nbaseUrl = "{url}"\n', encoding="utf-8")


def test_ask_library_end_to_end(library_case, pdfdesk_home):
    case = library_case
    with FakeOpenAI() as server:
        server.script(
            Turn(tool_calls=[("pdf_search", {"library": True, "query": "demurrage"})]),
            Turn(tool_calls=[("pdf_extract_text", {"path": str(case["secret"])}),
                             ("pdf_extract_text", {"path": "b.pdf", "pages": "2"})]),
            Turn(text="Demurrage is 900 euros per day [b.pdf p. 2]."),
        )
        write_config(pdfdesk_home, server.url)
        done = run_ask(pdfdesk_home, "What is the demurrage rate?", "--library")
        bodies = server.bodies
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Demurrage is 900 euros per day [b.pdf p. 2].\n")
    assert f"Sources:\n  [1] b.pdf p. 2 — {case['b']}#page=2" in done.stdout
    assert "the whole library (4 documents)" in done.stderr
    assert "✗ Error (validation_error): This conversation may only read the whole library" in done.stderr
    search = next(t for t in bodies[0]["tools"] if t["function"]["name"] == "pdf_search")
    assert "library" in search["function"]["parameters"]["properties"]
    assert SECRET not in json.dumps(bodies)


def test_ask_in_a_folder_reads_only_that_folder(library_case, pdfdesk_home):
    case = library_case
    with FakeOpenAI() as server:
        server.script(
            Turn(tool_calls=[("pdf_search", {"library": True, "query": "shipping line"}),
                             ("pdf_info", {"path": str(case["a"])})]),
            Turn(text="Tonnage dues are settled yearly [c.pdf p. 1]."),
        )
        write_config(pdfdesk_home, server.url)
        done = run_ask(pdfdesk_home, "Which dues?", "--in", str(case["sub"]), "--pdf", str(case["secret"]))
        bodies = server.bodies
    assert done.returncode == 0, done.stderr
    assert f"[1] c.pdf p. 1 — {case['c']}#page=1" in done.stdout
    (search, info) = [m["content"] for m in bodies[1]["messages"] if m["role"] == "tool"]
    assert "c.pdf" in search and "a.pdf" not in search and "b.pdf" not in search and "hostile" not in search
    assert info.startswith("Error (validation_error): This conversation may only read the library's documents under")
    assert "attached" in json.dumps(bodies[0]) and str(case["secret"]) in json.dumps(bodies[0])  # --pdf too


def test_ask_library_errors_are_coded(library_case, pdfdesk_home, tmp_path):
    empty = run_ask(tmp_path / "empty-home", "q", "--library")
    assert empty.returncode == 2 and "validation_error: The library is empty." in empty.stderr
    assert "pdfdesk index FOLDER" in empty.stderr
    nothing = tmp_path / "nothing-here"
    nothing.mkdir()
    folder = run_ask(pdfdesk_home, "q", "--in", str(nothing))
    assert folder.returncode == 2 and f"No library document is under {nothing}." in folder.stderr
    inside = run_ask(pdfdesk_home, "q", "--in", str(library_case["sub"]), "--model", "lab/none")
    assert "library" not in inside.stderr.split("\n")[0] or inside.returncode != 2  # the folder holds c.pdf


def test_ask_help_names_the_scopes():
    done = subprocess.run([sys.executable, "-m", "pdfdesk", "ask", "--help"], capture_output=True, text=True,
                          cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    text = " ".join(done.stdout.split())
    assert "--library" in text and "--in FOLDER" in text and "nothing outside it" in text
