"""Meaning-based search: passages embedded with fastembed, vectors stored beside the Whoosh index.

Pages are cut into overlapping passages of about `PASSAGE_WORDS` words (a whole page would be
truncated at the model's 512 tokens). Vectors are written in numbered chunk files, each complete
before it is renamed into place, so an interrupted embedding run resumes at the next chunk and a
reader never sees half a chunk. The model is optional (extra `semantic`): when it cannot be loaded,
`status()` says why and search falls back to keywords.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pdfdesk.core import paths
from pdfdesk.core.config import Config, get_config

PASSAGE_WORDS = 120
OVERLAP_WORDS = 30
CHUNK_PASSAGES = 256
SEMANTIC_DIR = "semantic"
MODEL_PATH_ENV = "PDFDESK_EMBEDDING_MODEL_PATH"


@dataclass(frozen=True)
class Passage:
    page: int
    text: str


def passages_of_page(number: int, text: str) -> list[Passage]:
    """Overlapping word windows of a page; short pages are one passage, empty pages none."""
    words = text.split()
    if not words:
        return []
    step = PASSAGE_WORDS - OVERLAP_WORDS
    passages = []
    for start in range(0, max(len(words) - OVERLAP_WORDS, 1), step):
        passages.append(Passage(number, " ".join(words[start:start + PASSAGE_WORDS])))
    return passages


# -- the model ---------------------------------------------------------------------------------
class _ModelHolder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.model: Any = None
        self.key: tuple[str, str | None] | None = None
        self.failure: str | None = None
        self.loaded = threading.Event()  # set when the current key's load finished (either way)


_holder = _ModelHolder()
LOADING = "the embedding model is still loading (the first use may download it)"


def _model_source(config: Config) -> tuple[str, str | None]:
    return config.embedding_model, os.environ.get(MODEL_PATH_ENV) or config.embedding_model_path


def model_label(config: Config | None = None) -> str:
    name, path = _model_source(config or get_config())
    return f"{name} ({path})" if path else name


# ONNX Runtime's threads run outside the GIL; the window's builds run in a child process at low
# priority, so every core can embed (measured: 24 passages/s on one thread, 45 on two).
EMBED_THREADS = None


def _construct(name: str, local: str | None) -> Any:
    from fastembed import TextEmbedding

    try:  # fastembed logs download retries through loguru; pdfdesk reports failures itself
        from loguru import logger

        logger.disable("fastembed")
    except ImportError:
        pass
    if local:
        if not Path(local, "model.onnx").is_file():
            raise FileNotFoundError(f"no model.onnx in {local}")
        return TextEmbedding(name, specific_model_path=local, threads=EMBED_THREADS)
    return TextEmbedding(name, cache_dir=str(paths.app_data_dir() / "models"), threads=EMBED_THREADS)


def _load(key: tuple[str, str | None], done: threading.Event) -> None:
    model, failure = None, None
    try:
        model = _construct(*key)
    except Exception as exc:  # offline with no cached model, a broken folder, an unknown name
        failure = f"the embedding model {key[0]} could not be loaded ({type(exc).__name__}: {str(exc)[:200]})"
    with _holder.lock:
        if _holder.key == key:
            _holder.model, _holder.failure = model, failure
    done.set()


def status(config: Config | None = None, wait: float | None = 0.0) -> tuple[bool, str]:
    """(available, reason if not). Starts loading the model in the background on first call and
    waits at most `wait` seconds for it (None: until it is loaded or has failed)."""
    config = config or get_config()
    if not config.semantic:
        return False, "semantic search is turned off in settings"
    if importlib.util.find_spec("fastembed") is None:
        return False, "the optional `semantic` extra (fastembed) is not installed: pip install 'pdfdesk[semantic]'"
    key = _model_source(config)
    with _holder.lock:
        if _holder.key != key:
            _holder.key, _holder.model, _holder.failure = key, None, None
            _holder.loaded = threading.Event()
            threading.Thread(target=_load, args=(key, _holder.loaded), name="embedding-model", daemon=True).start()
        done = _holder.loaded
    done.wait(wait)
    with _holder.lock:
        if _holder.key == key and _holder.model is not None:
            return True, ""
        if _holder.key == key and _holder.failure:
            return False, _holder.failure
    return False, LOADING


def load_model(config: Config | None = None) -> Any:
    """The embedding model, waiting for it to load; raises RuntimeError with the reason."""
    available, reason = status(config, wait=None)
    if not available:
        raise RuntimeError(reason)
    return _holder.model


def reset_model() -> None:
    """Forget the loaded model and any remembered failure (settings changed)."""
    with _holder.lock:
        _holder.key, _holder.model, _holder.failure = None, None, None
        _holder.loaded = threading.Event()


def embed(texts: list[str]) -> Any:
    """L2-normalised float32 vectors, one row per text."""
    import numpy as np

    model = load_model()
    vectors = np.asarray(list(model.embed(texts, batch_size=32)), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)


# -- the stored vectors ------------------------------------------------------------------------
class SemanticStore:
    """Chunk files `chunk-00001.npy` + `chunk-00001.json` (page and text of each passage)."""

    def __init__(self, index_folder: Path) -> None:
        self.folder = index_folder / SEMANTIC_DIR
        self._cache: tuple[int, Any, list[Passage]] | None = None

    def chunk_count(self) -> int:
        return len(list(self.folder.glob("chunk-*.npy"))) if self.folder.exists() else 0

    def pages_done(self) -> int:
        """The last page whose passages are all stored (recorded in the newest chunk)."""
        # Only committed chunks count: the .json is renamed into place before its .npy.
        chunks = sorted(p for p in self.folder.glob("chunk-*.json") if p.with_suffix(".npy").exists()) \
            if self.folder.exists() else []
        if not chunks:
            return 0
        try:
            return int(json.loads(chunks[-1].read_text(encoding="utf-8"))["through_page"])
        except (OSError, ValueError, KeyError):
            return 0

    def write_chunk(self, passages: list[Passage], vectors: Any, through_page: int) -> None:
        import numpy as np

        self.folder.mkdir(parents=True, exist_ok=True)
        number = self.chunk_count() + 1
        stem = self.folder / f"chunk-{number:05d}"
        tmp_json, tmp_npy = stem.with_suffix(".json.tmp"), stem.with_suffix(".npy.tmp")
        tmp_json.write_text(json.dumps({"through_page": through_page,
                                        "passages": [[p.page, p.text] for p in passages]}), encoding="utf-8")
        with open(tmp_npy, "wb") as handle:
            np.save(handle, vectors.astype(np.float16))
        os.replace(tmp_json, stem.with_suffix(".json"))  # the .npy rename commits the chunk
        os.replace(tmp_npy, stem.with_suffix(".npy"))

    def load(self) -> tuple[Any, list[Passage]]:
        """All committed vectors (float32 matrix) and their passages; cached until chunks change."""
        import numpy as np

        count = self.chunk_count()
        if self._cache is not None and self._cache[0] == count:
            return self._cache[1], self._cache[2]
        matrices, passages = [], []
        for npy in sorted(self.folder.glob("chunk-*.npy")):
            meta = json.loads(npy.with_suffix(".json").read_text(encoding="utf-8"))
            matrices.append(np.load(npy).astype(np.float32))
            passages.extend(Passage(int(page), text) for page, text in meta["passages"])
        matrix = np.vstack(matrices) if matrices else np.zeros((0, 384), dtype=np.float32)
        self._cache = (count, matrix, passages)
        return matrix, passages

    def search(self, query: str, limit: int) -> list[tuple[Passage, float]]:
        """The passages nearest the query by cosine similarity, best first."""
        import numpy as np

        matrix, passages = self.load()
        if not passages:
            return []
        scores = matrix @ embed([query])[0]
        top = np.argsort(-scores)[: max(limit, 1)]
        return [(passages[i], float(scores[i])) for i in top]


def clean_text(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()
