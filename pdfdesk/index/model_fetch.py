"""Downloading an embedding model: the one explicit act that reaches a model hub.

Only the user starts it (`pdfdesk model fetch NAME`, or the Settings button); searches and tool
calls never download. Files land in a temporary folder beside the target and are renamed into
`<app data>/models/<name>` only once every file is complete, so an interrupted or failed download
leaves the previous copy (or nothing) and never a half-written model that would fail later.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pdfdesk.core import paths
from pdfdesk.core.config import EMBEDDING_MODEL_NAME
from pdfdesk.core.errors import FETCH_FAILED, VALIDATION_ERROR, PdfDeskError

HUB_ENV = "PDFDESK_MODEL_HUB"  # another hub address (a mirror; tests use a local server)
TOKENIZER_FILES = ("tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "config.json")
STATIC_FILES = ("config.json", "model.safetensors", "tokenizer.json", "README.md")
ONNX_NAMES = ("model.onnx", "onnx/model.onnx")
CHUNK = 1 << 20

Progress = Callable[[int, int], None]


def models_dir() -> Path:
    return paths.app_data_dir() / "models"


def model_folder(name: str) -> Path:
    """Where a downloaded model named `org/model` lives."""
    return models_dir().joinpath(*name.split("/"))


def hub_address() -> str:
    configured = os.environ.get(HUB_ENV)
    if configured:
        return configured.rstrip("/")
    from huggingface_hub import constants  # honours HF_ENDPOINT

    return constants.ENDPOINT.rstrip("/")


def _fastembed_description(name: str) -> dict[str, Any] | None:
    """fastembed's own entry for a model name (its ONNX export lives in another repository)."""
    try:
        from fastembed import TextEmbedding
    except ImportError:
        return None
    for entry in TextEmbedding.list_supported_models():
        if entry["model"].lower() == name.lower() and str(entry.get("model_file", "")).endswith(".onnx"):
            return entry
    return None


def _plan(client: Any, hub: str, name: str) -> tuple[str, list[tuple[str, int | None]]]:
    """The repository to read and the files to fetch with their sizes (None: unknown)."""
    described = _fastembed_description(name)
    repo = (described.get("sources") or {}).get("hf") if described else None
    repo = repo or name
    response = client.get(f"{hub}/api/models/{repo}/revision/main", params={"blobs": "true"})
    if response.status_code in (401, 404):
        raise PdfDeskError(FETCH_FAILED, f"There is no model named {name} on the model hub.",
                           "Check the name (org/model, as on the hub's model page).")
    response.raise_for_status()
    siblings = {s["rfilename"]: s.get("size") for s in response.json().get("siblings", [])
                if isinstance(s, dict) and isinstance(s.get("rfilename"), str)}
    if described:
        wanted = [described["model_file"], *described.get("additional_files", []), *TOKENIZER_FILES]
    elif any(onnx in siblings for onnx in ONNX_NAMES):
        onnx = next(o for o in ONNX_NAMES if o in siblings)
        wanted = [onnx, f"{onnx}_data", *TOKENIZER_FILES]
    elif "model.safetensors" in siblings:
        wanted = list(STATIC_FILES)
    else:
        raise PdfDeskError(FETCH_FAILED, f"{name} is neither a static (model2vec) model nor an ONNX export.",
                           "Choose a model that has model.safetensors in the model2vec format, or model.onnx.")
    files = [(f, siblings.get(f)) for f in dict.fromkeys(wanted) if f in siblings]
    for file, _size in files:
        if file.startswith("/") or ".." in file.split("/"):
            raise PdfDeskError(FETCH_FAILED, f"{name} lists a file outside its folder ({file!r}).", "")
    return repo, files


def fetch_model(name: str, progress: Progress | None = None, cancel: Callable[[], bool] | None = None,
                *, timeout: float = 30.0) -> Path:
    """Download `name` into `<app data>/models/<name>` and return that folder.

    `progress(done_bytes, total_bytes)` is called as data arrives (total 0 while unknown);
    `cancel()` returning True stops the download. Raises PdfDeskError (fetch_failed) on failure,
    leaving any earlier copy in place.
    """
    import httpx

    if not EMBEDDING_MODEL_NAME.match(name or "") or ".." in name:
        raise PdfDeskError(VALIDATION_ERROR, f"{name!r} is not a model name.",
                           "Use org/model, e.g. minishlab/potion-multilingual-128M.")
    hub, target = hub_address(), model_folder(name)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=".partial-", dir=target.parent))
    try:
        with httpx.Client(timeout=timeout, follow_redirects=True) as client:
            repo, files = _plan(client, hub, name)
            total = sum(size or 0 for _f, size in files)
            done = 0
            for file, _size in files:
                destination = partial / file
                destination.parent.mkdir(parents=True, exist_ok=True)
                with client.stream("GET", f"{hub}/{repo}/resolve/main/{file}") as response:
                    response.raise_for_status()
                    with open(destination, "wb") as handle:
                        for block in response.iter_bytes(CHUNK):
                            if cancel is not None and cancel():
                                raise PdfDeskError(FETCH_FAILED, f"The download of {name} was cancelled.", "")
                            handle.write(block)
                            done += len(block)
                            if progress is not None:
                                progress(done, max(total, done))
        _check_complete(name, partial)
        _install(partial, target)
    except httpx.HTTPError as exc:
        raise PdfDeskError(FETCH_FAILED, f"Downloading {name} failed: {type(exc).__name__}: {exc}"[:300],
                           "Check the network connection and try again.") from exc
    except OSError as exc:
        raise PdfDeskError(FETCH_FAILED, f"Saving {name} failed: {exc}", "Check the free disk space.") from exc
    finally:
        shutil.rmtree(partial, ignore_errors=True)
    return target


def _check_complete(name: str, folder: Path) -> None:
    """Refuse a download pdfdesk could not load (a PyTorch-only repository, a missing tokenizer)."""
    if not (folder / "tokenizer.json").is_file():
        raise PdfDeskError(FETCH_FAILED, f"{name} has no tokenizer.json; pdfdesk cannot use it.",
                           "Choose another model.")
    if any(folder.glob("*.onnx")) or any(folder.glob("onnx/*.onnx")):
        return
    try:
        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        config = {}
    if config.get("model_type") != "model2vec" or not (folder / "model.safetensors").is_file():
        raise PdfDeskError(FETCH_FAILED, f"{name} is neither a static (model2vec) model nor an ONNX export.",
                           "Choose a model that has model.safetensors in the model2vec format, or model.onnx.")


def _install(partial: Path, target: Path) -> None:
    """Swap the complete download in for any earlier copy (two renames; the old copy goes last)."""
    old = None
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=".old-", dir=target.parent))
        os.replace(target, old / "model")
    os.replace(partial, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
