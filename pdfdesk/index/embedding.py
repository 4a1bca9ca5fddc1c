"""The embedding model: the one place that knows which model turns text into vectors, and how.

The default is the static model shipped inside the package (`BUNDLED_NAME`): a table of token
vectors distilled from all-MiniLM-L6-v2, loaded by model2vec in a fraction of a second and small
enough that semantic search works offline from the first start. Transformer models (fastembed,
the optional `semantic` extra) and other static models (e.g. a multilingual one) are opt-in: a
local folder (`embedding_model_path`, or `PDFDESK_EMBEDDING_MODEL_PATH`), or a named model the
user downloaded into `<app data>/models/<name>` with `pdfdesk model fetch` or the Settings
button. Nothing here ever reaches the network: a model that is not on disk is reported, not
downloaded, so a tool call can never hang on a download.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdfdesk.core import paths
from pdfdesk.core.config import BUILTIN_EMBEDDING_MODEL, Config, get_config
from pdfdesk.index.model_fetch import fetch_model, model_folder  # noqa: F401 - fetch_model is part of this API

if TYPE_CHECKING:  # numpy loads with the model: checking status or a label needs none of it
    import numpy as np

BUNDLED_NAME = BUILTIN_EMBEDDING_MODEL
BUNDLED_FOLDER = ("models", "minilm-static-256")  # under the package pdfdesk.resources
# sha256 of the shipped model.safetensors (scripts/distill_static_model.py prints it)
BUNDLED_SHA256 = "98f31b266d422b4c735763686a0894730f689d59058564e24b986f9ef2351f87"
MODEL_PATH_ENV = "PDFDESK_EMBEDDING_MODEL_PATH"
# Transformers read 512 tokens from their tokenizer config; 256 with batches of 8 keeps a 300-page
# document within a gigabyte (512 tokens at batch 32 peaked at 5 GB) and barely changes retrieval.
TRANSFORMER_MAX_LENGTH = 256
TRANSFORMER_BATCH = 8
STATIC_FILES = ("config.json", "model.safetensors", "tokenizer.json")
ONNX_FILES = ("model.onnx", "onnx/model.onnx", "model_optimized.onnx", "model_quantized.onnx")
FETCH_HINT = "run `pdfdesk model fetch {name}` or press Download model… under Settings › Search"


class EmbeddingUnavailable(RuntimeError):
    """No usable embedding model; `reason` says why in one line a user understands."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class ModelSource:
    """Where the configured model lives and what kind it is; `problem` is why it cannot be used."""

    name: str
    kind: str               # "static" (model2vec) or "transformer" (fastembed)
    folder: Path
    problem: str = ""

    @property
    def key(self) -> tuple[str, str, str]:
        return self.name, self.kind, str(self.folder)


def bundled_folder() -> Path:
    return paths.resources_dir().joinpath(*BUNDLED_FOLDER)


def _kind_of(folder: Path) -> str | None:
    if any((folder / name).is_file() for name in ONNX_FILES):
        return "transformer"
    if all((folder / name).is_file() for name in STATIC_FILES):
        return "static"
    return None


def resolve(config: Config | None = None) -> ModelSource:
    """The configured model, found on disk only (cheap: a few stat calls and one cached hash)."""
    config = config or get_config()
    name = config.embedding_model
    local = os.environ.get(MODEL_PATH_ENV) or config.embedding_model_path
    if local:
        folder = Path(local).expanduser()
        kind = _kind_of(folder) if folder.is_dir() else None
        shown = name if name != BUNDLED_NAME else f"local/{folder.name}"
        if kind is None:
            problem = (f"the embedding model folder {folder} does not exist" if not folder.is_dir() else
                       f"the embedding model folder {folder} holds neither model.onnx nor model.safetensors")
            return ModelSource(shown, "static", folder, problem)
        return ModelSource(shown, kind, folder)
    if name == BUNDLED_NAME:
        folder = bundled_folder()
        return ModelSource(name, "static", folder, _bundled_problem(folder))
    folder = model_folder(name)
    kind = _kind_of(folder) if folder.is_dir() else None
    if kind is None:
        return ModelSource(name, "static", folder,
                           f"the embedding model {name} is not downloaded: {FETCH_HINT.format(name=name)}")
    return ModelSource(name, kind, folder)


_verified: dict[str, tuple[int, int, str]] = {}  # path -> (size, mtime_ns, sha256) already hashed


def _bundled_problem(folder: Path) -> str:
    """Why the shipped model cannot be used ("" when it can); hashed once per file version."""
    weights = folder / "model.safetensors"
    missing = [name for name in STATIC_FILES if not (folder / name).is_file()]
    if missing:
        return (f"the built-in embedding model is missing from this installation ({folder / missing[0]}); "
                "reinstall pdfdesk")
    stat = weights.stat()
    seen = _verified.get(str(weights))
    if seen is None or seen[:2] != (stat.st_size, stat.st_mtime_ns):
        digest = hashlib.sha256()
        with open(weights, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
        seen = (stat.st_size, stat.st_mtime_ns, digest.hexdigest())
        _verified[str(weights)] = seen
    if seen[2] != BUNDLED_SHA256:
        return (f"the built-in embedding model is damaged ({weights.name} has sha256 {seen[2][:12]}…, "
                f"expected {BUNDLED_SHA256[:12]}…); reinstall pdfdesk")
    return ""


def model_label(config: Config | None = None) -> str:
    """The identity stored with vectors: it changes whenever the vectors would."""
    config = config or get_config()
    local = os.environ.get(MODEL_PATH_ENV) or config.embedding_model_path
    if not local and config.embedding_model == BUNDLED_NAME:
        return f"{BUNDLED_NAME}@{BUNDLED_SHA256[:12]}"
    source = resolve(config)
    label = f"{source.name} ({source.folder})" if local else source.name
    return f"{label} max_length={TRANSFORMER_MAX_LENGTH}" if source.kind == "transformer" else label


# -- loading -----------------------------------------------------------------------------------
class _Holder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.key: tuple[str, str, str] | None = None
        self.model: Any = None
        self.failures: dict[tuple[str, str, str], str] = {}  # remembered until reset_model()
        # model2vec re-sets its tokenizer's truncation on every call: one caller at a time (a call
        # takes milliseconds, so a search never waits long behind an index build)
        self.encoding = threading.Lock()


_holder = _Holder()


def model_status(config: Config | None = None) -> tuple[bool, str]:
    """(True, "") when the configured model can be used from local files right now, else (False,
    why). Never loads a model, never touches the network."""
    config = config or get_config()
    if not config.semantic:
        return False, "semantic search is turned off in settings"
    source = resolve(config)
    if source.problem:
        return False, source.problem
    if source.kind == "transformer" and importlib.util.find_spec("fastembed") is None:
        return False, (f"the embedding model {source.name} needs the optional `semantic` extra (fastembed), "
                       "which is not installed: pip install 'pdfdesk[semantic]'")
    failure = _holder.failures.get(source.key)
    return (False, failure) if failure else (True, "")


def _load_static(folder: Path) -> Any:
    from model2vec import StaticModel

    return StaticModel.from_pretrained(folder, force_download=False)


def _load_transformer(source: ModelSource) -> Any:
    from fastembed import TextEmbedding

    try:  # fastembed logs through loguru; pdfdesk reports failures itself
        from loguru import logger

        logger.disable("fastembed")
    except ImportError:
        pass
    name = source.name
    known = {m["model"].lower() for m in TextEmbedding.list_supported_models()}
    if name.lower() not in known:  # an ONNX export fastembed has no description of: mean pooling
        from fastembed.common.model_description import ModelSource as Sources, PoolingType

        model_file = next(f for f in ONNX_FILES if (source.folder / f).is_file())
        TextEmbedding.add_custom_model(name, PoolingType.MEAN, True, Sources(hf=name), _hidden_size(source.folder),
                                       model_file=model_file)
    model = TextEmbedding(name, specific_model_path=str(source.folder), local_files_only=True)
    tokenizer = model.model.tokenizer  # type: ignore[attr-defined]  # the ONNX model has one; its base does not say
    limit = (tokenizer.truncation or {}).get("max_length") or TRANSFORMER_MAX_LENGTH
    tokenizer.enable_truncation(max_length=min(limit, TRANSFORMER_MAX_LENGTH))
    return model


def _hidden_size(folder: Path) -> int:
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        return int(config.get("hidden_size") or config.get("hidden_dim") or 384)
    except (OSError, ValueError):
        return 384


def _model(config: Config) -> tuple[ModelSource, Any]:
    available, reason = model_status(config)
    if not available:
        raise EmbeddingUnavailable(reason)
    source = resolve(config)
    with _holder.lock:
        if _holder.key != source.key:
            _holder.key, _holder.model = None, None
            try:
                model = _load_static(source.folder) if source.kind == "static" else _load_transformer(source)
            except Exception as exc:  # a broken folder, an incompatible file, an unknown format
                reason = (f"the embedding model {source.name} could not be loaded "
                          f"({type(exc).__name__}: {str(exc)[:200]})")
                _holder.failures[source.key] = reason
                raise EmbeddingUnavailable(reason) from exc
            _holder.key, _holder.model = source.key, model
        return source, _holder.model


def embed(texts: list[str]) -> np.ndarray:
    """One float32 L2-normalised row per text (all zeros for a text with no known token).

    Loads the configured model on first use, from local files only; raises EmbeddingUnavailable.
    """
    import numpy as np

    source, model = _model(get_config())
    if not texts:
        return np.zeros((0, dimensions()), dtype=np.float32)
    if source.kind == "static":
        with _holder.encoding:
            vectors = np.asarray(model.encode(list(texts), use_multiprocessing=False, normalize=False),
                                 dtype=np.float32)
    else:
        vectors = np.asarray(list(model.embed(list(texts), batch_size=TRANSFORMER_BATCH)), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    unit: np.ndarray = vectors / np.maximum(norms, 1e-12)
    return unit


def dimensions() -> int:
    """The length of the configured model's vectors (loads it)."""
    source, model = _model(get_config())
    if source.kind == "static":
        return int(model.dim)
    return len(next(iter(model.embed(["dimensions"], batch_size=1))))


# A piece of a word the model has in its vocabulary "reads" when it is at least this many letters
# long; in Chinese, Japanese and Korean one character is already a unit of meaning, and a
# vocabulary that knows it reads it (one it does not know becomes [UNK]).
READ_PIECE_LETTERS = 3
READ_PIECE_CJK = 1
_CJK = re.compile("[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")
UNKNOWN_TOKENS = frozenset({"[UNK]", "<unk>", "<UNK>"})  # what tokenizers put for what they do not know
_tokenizers: dict[Path, Any] = {}
_tokenizers_lock = threading.Lock()


def reads(text: str) -> float:
    """The share of `text`'s letters that the configured model's tokenizer reads in pieces of a
    word, rather than letter by letter or as unknown: all-MiniLM-L6-v2 (and the static model made
    from it) reads English as whole words, German and French in pieces, Chinese and Japanese by
    the characters its vocabulary holds, and spells Russian and Arabic one letter at a time, which
    is how it confidently ranks pages it cannot read. 1.0 when
    the model's tokenizer cannot be read (the model is then trusted as before)."""
    tokenizer = _tokenizer(resolve(get_config()).folder)
    if tokenizer is None:
        return 1.0
    encoded = tokenizer.encode(text, add_special_tokens=False)
    letters = read = 0
    for piece, (start, end) in zip(encoded.tokens, encoded.offsets, strict=False):
        count = sum(ch.isalpha() for ch in text[start:end])
        letters += count
        wanted = READ_PIECE_CJK if _CJK.search(text[start:end]) else READ_PIECE_LETTERS
        if count >= wanted and piece not in UNKNOWN_TOKENS:
            read += count
    return read / letters if letters else 1.0


def _tokenizer(folder: Path) -> Any:
    """The model folder's tokenizer.json, loaded once (None when it is missing or unreadable)."""
    with _tokenizers_lock:
        if folder not in _tokenizers:
            try:
                from tokenizers import Tokenizer

                _tokenizers[folder] = Tokenizer.from_file(str(folder / "tokenizer.json"))
            except Exception:  # a missing or foreign file: the model is not judged
                _tokenizers[folder] = None
        return _tokenizers[folder]


def reset_model() -> None:
    """Forget the loaded model and remembered failures (settings changed, a model was downloaded)."""
    with _holder.lock:
        _holder.key, _holder.model = None, None
        _holder.failures.clear()
