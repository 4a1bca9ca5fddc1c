"""The embedding model layer: the built-in static model works offline and is verified, every
reason a model cannot be used is reported, and the opt-in transformer path still works."""

from __future__ import annotations

import shutil
import socket
from pathlib import Path

import numpy as np
import pytest

from pdfdesk.core.config import Config, set_config
from pdfdesk.index import embedding
from pdfdesk.index.model_fetch import model_folder
from tests.index.model_hub import tiny_static_model

SHARED_MINILM = Path(__file__).resolve().parents[3] / "shared" / "models" / "all-MiniLM-L6-v2-int8"

# (query, a passage that answers it, a passage about something else)
RELATED = [
    ("How often should I clean the air filters?",
     "Wash the dust filters every two weeks in lukewarm water and let them dry.",
     "The warranty covers the compressor for five years from the date of purchase."),
    ("The invoice has not been paid yet",
     "Overdue bills accrue a late fee and the supplier may stop deliveries until payment arrives.",
     "Heavy rain and strong winds are expected along the coast tonight."),
    ("my dog needs a walk",
     "Pets such as cats and dogs need exercise, food and attention from their owners every day.",
     "Quarterly revenue rose by twelve percent, driven by strong sales in Europe."),
]


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    """Any attempt to open a connection fails the test: models load from local files only."""
    def refuse(self, address):
        raise AssertionError(f"network access attempted: {address!r}")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    monkeypatch.delenv(embedding.MODEL_PATH_ENV, raising=False)
    set_config(Config(semantic=True))
    embedding.reset_model()
    yield
    embedding.reset_model()


def tampered_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "minilm-static-256"
    shutil.copytree(embedding.bundled_folder(), copy)
    weights = copy / "model.safetensors"
    data = bytearray(weights.read_bytes())
    data[-100] ^= 0xFF  # one flipped byte inside the vectors: it would still load, silently wrong
    weights.write_bytes(bytes(data))
    return copy


def test_the_built_in_model_loads_offline_with_normalised_vectors():
    assert embedding.model_status() == (True, "")
    vectors = embedding.embed(["Replace the batteries of the remote control.", "Ersatzteile", "手机"])
    assert vectors.dtype == np.float32 and vectors.shape == (3, 256) == (3, embedding.dimensions())
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert not embedding.embed(["电池"]).any()  # characters the vocabulary lacks: no direction at all
    assert embedding.embed([]).shape == (0, 256)
    assert embedding.model_label() == f"pdfdesk/minilm-static-256@{embedding.BUNDLED_SHA256[:12]}"


def test_related_texts_score_higher_than_unrelated_ones():
    for query, answer, other in RELATED:
        q, a, o = embedding.embed([query, answer, other])
        assert float(q @ a) > float(q @ o) + 0.1, (query, float(q @ a), float(q @ o))


def test_a_tampered_model_fails_its_hash_check_and_is_not_used(tmp_path, monkeypatch):
    copy = tampered_copy(tmp_path)
    monkeypatch.setattr(embedding, "bundled_folder", lambda: copy)
    available, reason = embedding.model_status()
    assert not available and "damaged" in reason and "sha256" in reason and "reinstall" in reason
    with pytest.raises(embedding.EmbeddingUnavailable) as caught:
        embedding.embed(["anything"])
    assert caught.value.reason == reason


def test_the_hash_is_computed_once_per_file_version(monkeypatch):
    embedding.model_status()
    calls = []
    real = embedding.hashlib.sha256
    monkeypatch.setattr(embedding.hashlib, "sha256", lambda *a: calls.append(1) or real(*a))
    for _ in range(3):
        assert embedding.model_status() == (True, "")
    assert calls == []


def test_status_reasons(tmp_path, monkeypatch):
    set_config(Config(semantic=False))
    assert embedding.model_status() == (False, "semantic search is turned off in settings")

    set_config(Config(semantic=True, embedding_model="minishlab/potion-multilingual-128M"))
    available, reason = embedding.model_status()
    assert not available and "not downloaded" in reason
    assert "pdfdesk model fetch minishlab/potion-multilingual-128M" in reason
    assert "Settings" in reason

    set_config(Config(semantic=True, embedding_model_path=str(tmp_path / "nowhere")))
    assert "does not exist" in embedding.model_status()[1]
    set_config(Config(semantic=True, embedding_model_path=str(tmp_path)))
    assert "neither model.onnx nor model.safetensors" in embedding.model_status()[1]

    onnx_folder = tmp_path / "onnx-model"
    onnx_folder.mkdir()
    (onnx_folder / "model.onnx").write_bytes(b"not really")
    set_config(Config(semantic=True, embedding_model_path=str(onnx_folder)))
    real_find_spec = embedding.importlib.util.find_spec
    monkeypatch.setattr(embedding.importlib.util, "find_spec",
                        lambda name, *a: None if name == "fastembed" else real_find_spec(name, *a))
    available, reason = embedding.model_status()
    assert not available and "semantic` extra (fastembed)" in reason and "pip install" in reason

    set_config(Config(semantic=True))
    monkeypatch.setattr(embedding, "bundled_folder", lambda: tmp_path / "missing")
    available, reason = embedding.model_status()
    assert not available and "missing from this installation" in reason


def test_a_load_failure_is_remembered_until_reset(tmp_path):
    broken = tmp_path / "broken-static"
    broken.mkdir()
    for name in ("config.json", "tokenizer.json"):
        shutil.copy(embedding.bundled_folder() / name, broken / name)
    (broken / "model.safetensors").write_bytes(b"garbage")
    set_config(Config(semantic=True, embedding_model_path=str(broken)))
    assert embedding.model_status() == (True, "")  # status does not load
    with pytest.raises(embedding.EmbeddingUnavailable):
        embedding.embed(["x"])
    available, reason = embedding.model_status()
    assert not available and "could not be loaded" in reason
    embedding.reset_model()
    assert embedding.model_status() == (True, "")


def test_a_downloaded_static_model_loads_by_name():
    folder = model_folder("test-org/tiny-static")
    folder.mkdir(parents=True)
    for name, data in tiny_static_model().items():
        (folder / name).write_bytes(data)
    set_config(Config(semantic=True, embedding_model="test-org/tiny-static"))
    assert embedding.model_status() == (True, "")
    assert embedding.model_label() == "test-org/tiny-static"
    vectors = embedding.embed(["hello world"])
    assert vectors.shape == (1, 8) and abs(float(np.linalg.norm(vectors[0])) - 1.0) < 1e-5


@pytest.mark.skipif(not (SHARED_MINILM / "model.onnx").is_file(), reason="the shared offline MiniLM is not present")
def test_the_transformer_path_still_works(monkeypatch):
    pytest.importorskip("fastembed")
    monkeypatch.setenv(embedding.MODEL_PATH_ENV, str(SHARED_MINILM))
    assert embedding.model_status() == (True, "")
    assert embedding.model_label().endswith(f"({SHARED_MINILM}) max_length=256")
    query, answer, other = RELATED[0]
    vectors = embedding.embed([query, answer, other, "word " * 2000])
    assert vectors.shape == (4, 384) and np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert float(vectors[0] @ vectors[1]) > float(vectors[0] @ vectors[2])
    _source, model = embedding._model(embedding.get_config())
    assert model.model.tokenizer.truncation["max_length"] == embedding.TRANSFORMER_MAX_LENGTH


def test_installers_ship_every_file_of_the_built_in_model():
    import fnmatch
    import tomllib

    root = Path(__file__).resolve().parents[2]
    setuptools = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    assert "pdfdesk.resources.models" in setuptools["packages"]
    patterns = setuptools["package-data"]["pdfdesk.resources.models"]
    spec = (root / "packaging" / "pdfdesk.spec").read_text(encoding="utf-8")
    shipped = [p.relative_to(root / "resources" / "models").as_posix()
               for p in embedding.bundled_folder().iterdir() if p.is_file()]
    assert {"config.json", "model.safetensors", "tokenizer.json"} <= {Path(p).name for p in shipped}
    for path in shipped:
        assert any(fnmatch.fnmatch(path, pattern) for pattern in patterns), path
        assert any(fnmatch.fnmatch(f"models/{path}", pattern) for pattern in
                   ("models/*/*.json", "models/*/*.safetensors", "models/*/*.md")) and "models/*/*.safetensors" in spec


def test_how_much_of_a_question_the_model_reads_as_words(tmp_path, monkeypatch):
    """English whole, German in pieces, Chinese by the characters the vocabulary knows, Russian and
    Arabic letter by letter; a model whose tokenizer cannot be read is not judged."""
    assert embedding.reads("how do I keep backups from running while people are at work") > 0.8
    assert 0.3 < embedding.reads("wie verhindere ich, dass die Versicherung kürzt") < 0.8
    assert 0.0 < embedding.reads("能不能把网关直接插到墙上") < 0.5  # most of these characters are [UNK] to it
    for question in ("можно ли купить что-то напрямую", "كم مدة إجازة الأم بعد أن تلد"):
        assert embedding.reads(question) == 0.0
    assert embedding.reads("1234 ...") == 1.0  # nothing to read: nothing held against the model
    folder = tmp_path / "no-tokenizer"
    shutil.copytree(embedding.bundled_folder(), folder)
    (folder / "tokenizer.json").write_text("not json", encoding="utf-8")
    monkeypatch.setenv(embedding.MODEL_PATH_ENV, str(folder))
    assert embedding.reads("можно ли купить") == 1.0
