"""`pdfdesk model list|fetch NAME|check`: see, download and test embedding models from a terminal.

Downloading is an explicit act here (and in Settings), never a side effect of a search, so the
command shows progress and tells the user how to switch to the model once it is on disk.
"""

from __future__ import annotations

import sys
import time

from pdfdesk.core.config import get_config
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.index import embedding, model_fetch

# Downloads worth offering: (name, what it is). Static models need nothing more; transformers need
# the `semantic` extra.
SUGGESTED = (
    ("minishlab/potion-multilingual-128M", "static, 101 languages, ~0.5 GB download (MIT)"),
    ("minishlab/potion-base-8M", "static, English, ~30 MB download (MIT)"),
    ("sentence-transformers/all-MiniLM-L6-v2", "transformer, English; needs pdfdesk[semantic] (Apache-2.0)"),
    ("sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2",
     "transformer, 50 languages; needs pdfdesk[semantic] (Apache-2.0)"),
)
EXIT_OK, EXIT_FAILED = 0, 1


def downloaded() -> list[str]:
    """Names of the models in `<app data>/models` (org/model folders holding a model)."""
    root = model_fetch.models_dir()
    if not root.is_dir():
        return []
    return sorted(f"{org.name}/{model.name}" for org in root.iterdir() if org.is_dir() and not org.name.startswith(".")
                  for model in org.iterdir() if model.is_dir() and not model.name.startswith("."))


def list_models() -> int:
    current = get_config().embedding_model

    def mark(name: str) -> str:
        return "*" if name == current else " "

    print(f"{mark(embedding.BUNDLED_NAME)} {embedding.BUNDLED_NAME:<58} built in (static, English)")
    for name in downloaded():
        print(f"{mark(name)} {name:<58} downloaded ({model_fetch.model_folder(name)})")
    have = set(downloaded())
    for name, about in SUGGESTED:
        if name not in have:
            print(f"{mark(name)} {name:<58} not downloaded: {about}")
    print("\n* = in use ([search] embeddingModel in config.toml). Download one with: pdfdesk model fetch NAME")
    return EXIT_OK


def fetch(name: str) -> int:
    def progress(done: int, total: int) -> None:
        shown = f"{done / 1e6:.1f} of {total / 1e6:.1f} MB" if total else f"{done / 1e6:.1f} MB"
        sys.stderr.write(f"\rdownloading {name}: {shown}   ")
        sys.stderr.flush()

    try:
        folder = model_fetch.fetch_model(name, progress)
    except PdfDeskError as exc:
        sys.stderr.write(f"\npdfdesk model fetch: {exc.message} {exc.hint}".rstrip() + "\n")
        return EXIT_FAILED
    embedding.reset_model()
    sys.stderr.write("\n")
    print(f"{name} is in {folder}.\nUse it: set embeddingModel = \"{name}\" under [search] in config.toml "
          "(or in Settings › Search); existing indexes then rebuild their vectors.")
    return EXIT_OK


def check() -> int:
    config = get_config()
    available, reason = embedding.model_status(config)
    print(f"model: {embedding.model_label(config)}")
    if not available:
        print(f"not usable: {reason}")
        return EXIT_FAILED
    started = time.perf_counter()
    try:
        vectors = embedding.embed(["How do I clean the filters?", "Filters should be washed every two weeks."])
    except embedding.EmbeddingUnavailable as exc:
        print(f"not usable: {exc.reason}")
        return EXIT_FAILED
    print(f"usable: {vectors.shape[1]} dimensions, loaded and embedded in {time.perf_counter() - started:.2f} s, "
          f"similarity of a question and its answer {float(vectors[0] @ vectors[1]):.2f}")
    return EXIT_OK


def model_command(action: str, name: str | None) -> int:
    if action == "list":
        return list_models()
    if action == "check":
        return check()
    if not name:
        sys.stderr.write("pdfdesk model fetch: name the model, "
                         "e.g. pdfdesk model fetch minishlab/potion-multilingual-128M\n")
        return 2
    return fetch(name)
