"""Downloading a model (against a hub on 127.0.0.1): progress, an atomic install, coded errors,
and nothing half-written after a failure or a cancel."""

from __future__ import annotations

import ipaddress
import socket
from pathlib import Path

import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.core.errors import FETCH_FAILED, VALIDATION_ERROR, PdfDeskError
from pdfdesk.index import embedding, model_fetch
from pdfdesk.index.cli_model import model_command
from tests.index.model_hub import model_hub, tiny_static_model
import itertools

pytestmark = pytest.mark.network
NAME = "test-org/tiny-static"


@pytest.fixture(autouse=True)
def loopback_only(monkeypatch):
    """Connections may reach the test hub on 127.0.0.1 and nothing else."""
    real_connect = socket.socket.connect

    def connect(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if not ipaddress.ip_address(host).is_loopback:
            raise AssertionError(f"network access outside this machine: {address!r}")
        return real_connect(self, address)

    monkeypatch.setattr(socket.socket, "connect", connect)
    yield
    embedding.reset_model()


@pytest.fixture
def files():
    return tiny_static_model()


def leftovers() -> list[str]:
    root = model_fetch.models_dir()
    return sorted(str(p.relative_to(root)) for p in root.rglob("*")) if root.exists() else []


def test_a_model_downloads_with_progress_and_loads(monkeypatch, files):
    seen: list[tuple[int, int]] = []
    with model_hub({NAME: files}) as hub:
        monkeypatch.setenv(model_fetch.HUB_ENV, hub.url)
        folder = model_fetch.fetch_model(NAME, lambda done, total: seen.append((done, total)))
    assert folder == model_fetch.model_folder(NAME)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files
    total = sum(len(b) for b in files.values())
    assert seen[-1] == (total, total) and all(a[0] <= b[0] for a, b in itertools.pairwise(seen))
    assert not [p for p in leftovers() if ".partial-" in p or ".old-" in p]
    set_config(Config(semantic=True, embedding_model=NAME))
    embedding.reset_model()
    assert embedding.model_status() == (True, "")
    assert embedding.embed(["downloaded"]).shape == (1, 8)


def test_a_download_that_breaks_off_leaves_nothing_behind(monkeypatch, files):
    with model_hub({NAME: files}, fail_after=1000) as hub:
        monkeypatch.setenv(model_fetch.HUB_ENV, hub.url)
        with pytest.raises(PdfDeskError) as caught:
            model_fetch.fetch_model(NAME)
    assert caught.value.code == FETCH_FAILED and "failed" in caught.value.message
    assert leftovers() == ["test-org"]  # the org folder, empty: no model, no partial files


def test_a_failed_update_keeps_the_copy_already_there(monkeypatch, files):
    with model_hub({NAME: files}) as hub:
        monkeypatch.setenv(model_fetch.HUB_ENV, hub.url)
        model_fetch.fetch_model(NAME)
    with model_hub({NAME: files}, fail_after=10) as hub:
        monkeypatch.setenv(model_fetch.HUB_ENV, hub.url)
        with pytest.raises(PdfDeskError):
            model_fetch.fetch_model(NAME)
    folder = model_fetch.model_folder(NAME)
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == files
    assert leftovers() == ["test-org", "test-org/tiny-static"] + [f"test-org/tiny-static/{n}" for n in sorted(files)]


def test_cancel_unknown_names_and_foreign_repositories(monkeypatch, files):
    not_a_model = {"config.json": b"{}", "pytorch_model.bin": b"weights"}
    with model_hub({NAME: files, "test-org/pytorch-only": not_a_model}) as hub:
        monkeypatch.setenv(model_fetch.HUB_ENV, hub.url)
        with pytest.raises(PdfDeskError) as cancelled:
            model_fetch.fetch_model(NAME, cancel=lambda: True)
        assert cancelled.value.code == FETCH_FAILED and "cancelled" in cancelled.value.message
        with pytest.raises(PdfDeskError) as unknown:
            model_fetch.fetch_model("test-org/no-such-model")
        assert "no model named test-org/no-such-model" in unknown.value.message
        with pytest.raises(PdfDeskError) as foreign:
            model_fetch.fetch_model("test-org/pytorch-only")
        assert "neither a static" in foreign.value.message
    for bad in ("../etc", "a/b/c", "org/..", ""):
        with pytest.raises(PdfDeskError) as invalid:
            model_fetch.fetch_model(bad)
        assert invalid.value.code == VALIDATION_ERROR
    assert not [p for p in leftovers() if "tiny-static" in p or ".partial-" in p]


def test_the_model_command(monkeypatch, files, capsys):
    with model_hub({NAME: files}) as hub:
        monkeypatch.setenv(model_fetch.HUB_ENV, hub.url)
        assert model_command("fetch", NAME) == 0
    out = capsys.readouterr()
    assert "downloading test-org/tiny-static" in out.err and f'embeddingModel = "{NAME}"' in out.out
    assert model_command("list", None) == 0
    listed = capsys.readouterr().out
    assert "* pdfdesk/minilm-static-256" in listed and f"{NAME}" in listed and "downloaded" in listed
    set_config(Config(semantic=True))
    assert model_command("check", None) == 0
    assert "usable: 256 dimensions" in capsys.readouterr().out
    set_config(Config(semantic=True, embedding_model="test-org/not-fetched"))
    assert model_command("check", None) == 1
    assert "pdfdesk model fetch test-org/not-fetched" in capsys.readouterr().out


SHARED_MINILM = Path(__file__).resolve().parents[3] / "shared" / "models" / "all-MiniLM-L6-v2-int8"


@pytest.mark.skipif(not (SHARED_MINILM / "model.onnx").is_file(), reason="the shared offline MiniLM is not present")
def test_a_transformer_fetched_by_its_fastembed_name_loads_from_its_folder(monkeypatch):
    pytest.importorskip("fastembed")
    name = "sentence-transformers/all-MiniLM-L6-v2"  # fastembed keeps its ONNX export in another repository
    files = {p.name: p.read_bytes() for p in SHARED_MINILM.iterdir() if p.suffix in (".onnx", ".json")}
    with model_hub({"Qdrant/all-MiniLM-L6-v2-onnx": files}) as hub:
        monkeypatch.setenv(model_fetch.HUB_ENV, hub.url)
        folder = model_fetch.fetch_model(name)
    assert (folder / "model.onnx").is_file() and (folder / "tokenizer_config.json").is_file()
    set_config(Config(semantic=True, embedding_model=name))
    embedding.reset_model()
    assert embedding.model_status() == (True, "")
    assert embedding.model_label() == f"{name} max_length=256"
    assert embedding.embed(["a sentence"]).shape == (1, 384)
