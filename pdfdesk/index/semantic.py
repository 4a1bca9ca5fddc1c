"""Meaning-based search: passages of each page and their vectors, stored beside the Whoosh index.

Pages are cut into overlapping passages, so a hit points at a passage rather than a whole page
and no passage outgrows what a model reads. How long they are depends on the kind of model: a
static model averages its words' vectors, and over a long passage of a dense page the few words
that answer a question drown in the rest, so its passages are short; a transformer reads words in
their context, and pays for every passage it reads, so its passages are long. Vectors are written
in numbered chunk files, each complete before it is renamed into place, so an interrupted run
resumes at the next chunk and a reader never sees half a chunk. Every reader checks what it loads
(numbering without gaps, pages that follow on, shapes that agree); a store that fails is not used
and is reported for the builder to redo. Which model makes the vectors is `embedding`'s business.
"""

from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pdfdesk.index import embedding
from pdfdesk.index.analysis import word_spans

# On the hybrid bench's real-looking documents (tune half) the static model's passages of 30 words
# found the answering page by meaning about twice as often as passages of 120 (MRR@10 0.22 against
# 0.14 in Latin); for a transformer 30-word passages would read twice the words, at 80 passages/s.
STATIC_PASSAGE = (30, 15)        # (words, words shared with the next passage)
TRANSFORMER_PASSAGE = (120, 30)
# Chinese and Japanese have no spaces to count words by: a line is one run, and counted as a word
# a passage of 30 held a whole page (a transformer read only its first 256 tokens). Their runs are
# counted in pieces of two characters, about a word, the index's own unit (bigrams). On the hybrid
# bench's tune half (a Chinese thesis), meaning found the answering page at MRR@10 0.13 against 0.05.
UNSPACED_WORD = 2
_SPACES = re.compile(r"\s+")
SETTLED_NS = 2_000_000_000  # a chunk folder unchanged this long is known by its time alone (`_settled_signature`)
CHUNK_PASSAGES = 1024  # about a third of a second of the static model's embedding: the unit a stopped run resumes at
SEMANTIC_DIR = "semantic"


@dataclass(frozen=True)
class Passage:
    page: int
    text: str


def vectors_label() -> str:
    """What stored vectors must have been made with to be used: the model, and how pages were cut
    into passages (vectors of other passages are made again)."""
    size, overlap = passage_shape()
    return f"{embedding.model_label()} | passages {size}/{overlap}, unspaced words of {UNSPACED_WORD}"


@dataclass(frozen=True)
class Nearest:
    """The passages nearest a query, best first, and how near the query each page is (its best
    passage) against the document's own pages: `typical` is the median page's similarity and
    `spread` the pages' typical distance from it (1.4826 × median absolute deviation, a standard
    deviation that a few pages near the query do not inflate). Similarities of a static model
    crowd differently in every document and language; a page counts by how many spreads it stands
    above the typical page, never by a fixed amount of cosine."""

    passages: list[tuple[Passage, float]]
    typical: float = 0.0
    spread: float = 0.0
    pages: dict[int, float] = field(default_factory=dict)  # page -> its best passage's similarity

    def standout(self, page: int) -> float:
        """How many spreads the page stands above the typical page (0 for a page without text,
        or when every page is as near as every other)."""
        similarity = self.pages.get(page)
        if similarity is None or self.spread <= 0.0:
            return 0.0
        return (similarity - self.typical) / self.spread


def passage_shape() -> tuple[int, int]:
    """(words, overlap) of the configured model's passages."""
    return TRANSFORMER_PASSAGE if embedding.resolve().kind == "transformer" else STATIC_PASSAGE


def passages_of_page(number: int, text: str, shape: tuple[int, int] = STATIC_PASSAGE) -> list[Passage]:
    """Overlapping word windows of a page, each the page's own text with its spaces made single;
    short pages are one passage, empty pages none."""
    words = word_spans(text, UNSPACED_WORD)
    if not words:
        return []
    size, overlap = shape
    return [Passage(number, _SPACES.sub(" ", text[words[start][0]:words[min(start + size, len(words)) - 1][1]]))
            for start in range(0, max(len(words) - overlap, 1), size - overlap)]


# -- the stored vectors ------------------------------------------------------------------------
@dataclass(frozen=True)
class StoreCheck:
    """What a look at the chunk files found: how far they reach, and whether they can be used."""

    usable: bool
    pages_done: int = 0
    problem: str | None = None


class SemanticStore:
    """Chunk files `chunk-00001.npy` (vectors) + `chunk-00001.json` (pages covered, and the page
    and text of each passage)."""

    def __init__(self, index_folder: Path) -> None:
        self.folder = index_folder / SEMANTIC_DIR
        self._cache: tuple[tuple[tuple[str, int, int], ...], Any, list[Passage]] | None = None
        self._through = 0  # the last page the cached chunks cover
        self._starts: tuple[list[Passage], Any, list[int]] | None = None  # first row of each page, and its page
        self._settled: tuple[int, int] | None = None  # the folder's (inode, mtime) when the cache was checked

    def _chunks(self) -> list[Path]:
        """Committed chunks: the .json is renamed into place before its .npy (one listing of the
        folder, no look-up per file: every query asks)."""
        try:
            names = set(os.listdir(self.folder))
        except OSError:
            return []
        return [self.folder / name for name in sorted(names)
                if name.startswith("chunk-") and name.endswith(".npy") and name[:-4] + ".json" in names]

    def _signature(self, chunks: list[Path]) -> tuple[tuple[str, int, int], ...]:
        found = []
        for path in chunks:
            try:
                info = path.stat()
            except OSError:
                continue
            found.append((path.name, info.st_size, info.st_mtime_ns))
        return tuple(found)

    def pages_done(self) -> int:
        """The last page whose passages are all stored (0 when the store is unusable)."""
        return self.check().pages_done

    def check(self) -> StoreCheck:
        """Read every chunk's header and metadata: gaps in the numbering, pages that do not follow
        on, unreadable or truncated files and row counts that disagree all make the store unusable."""
        try:
            self._load()
        except _Damaged as exc:
            return StoreCheck(False, 0, str(exc))
        return StoreCheck(True, self._through)

    def clear(self) -> None:
        """Drop every chunk (a builder holding the document's build lock redoes them)."""
        import shutil

        shutil.rmtree(self.folder, ignore_errors=True)
        self._cache = None

    def write_chunk(self, passages: list[Passage], vectors: Any, first_page: int, through_page: int) -> None:
        import numpy as np

        self.folder.mkdir(parents=True, exist_ok=True)
        number = len(self._chunks()) + 1
        stem = self.folder / f"chunk-{number:05d}"
        tmp_json, tmp_npy = stem.with_suffix(".json.tmp"), stem.with_suffix(".npy.tmp")
        tmp_json.write_text(json.dumps({"first_page": first_page, "through_page": through_page,
                                        "passages": [[p.page, p.text] for p in passages]}), encoding="utf-8")
        with open(tmp_npy, "wb") as handle:
            matrix = np.asarray(vectors, dtype=np.float16)
            if matrix.ndim != 2:  # a page without text has no passage: (0, width) stays as it is
                matrix = matrix.reshape(len(passages), -1) if passages else np.zeros((0, 1), dtype=np.float16)
            np.save(handle, matrix)
        os.replace(tmp_json, stem.with_suffix(".json"))  # the .npy rename commits the chunk
        os.replace(tmp_npy, stem.with_suffix(".npy"))

    def _load(self) -> tuple[Any, list[Passage]]:
        """All committed vectors (float32 matrix) and their passages, checked; cached until a chunk
        file changes. Raises _Damaged."""
        import numpy as np

        folder = self._folder_signature()
        if self._cache is not None and folder is not None and folder == self._settled:
            return self._cache[1], self._cache[2]
        chunks = self._chunks()
        signature = self._signature(chunks)
        if self._cache is not None and self._cache[0] == signature:
            self._settled = self._settled_signature(folder)
            return self._cache[1], self._cache[2]
        matrices, passages, through, width = [], [], 0, None
        for position, npy in enumerate(chunks, start=1):
            if npy.name != f"chunk-{position:05d}.npy":
                raise _Damaged(f"chunk {position} is missing")
            try:
                meta = json.loads(npy.with_suffix(".json").read_text(encoding="utf-8"))
                matrix = np.load(npy, allow_pickle=False)
                first, last = int(meta.get("first_page", through + 1)), int(meta["through_page"])
                rows = [Passage(int(page), str(text)) for page, text in meta["passages"]]
            except (OSError, ValueError, KeyError, TypeError, EOFError) as exc:
                raise _Damaged(f"{npy.name} cannot be read ({type(exc).__name__})") from None
            if matrix.ndim != 2 or matrix.shape[0] != len(rows) or first != through + 1 or last < through:
                raise _Damaged(f"{npy.name} does not match its passages or pages")
            if rows and width is not None and matrix.shape[1] != width:
                raise _Damaged(f"{npy.name} has vectors of another size")
            if rows:
                width = matrix.shape[1]
                matrices.append(matrix.astype(np.float32))
            passages.extend(rows)
            through = last
        merged = np.vstack(matrices) if matrices else np.zeros((0, 1), dtype=np.float32)
        self._cache, self._through = (signature, merged, passages), through
        self._settled = self._settled_signature(folder)
        return merged, passages

    def _folder_signature(self) -> tuple[int, int] | None:
        try:
            info = os.stat(self.folder)
        except OSError:
            return None
        return info.st_ino, info.st_mtime_ns

    @staticmethod
    def _settled_signature(folder: tuple[int, int] | None) -> tuple[int, int] | None:
        """The folder's signature, when it is old enough to be trusted. Chunks are only ever
        added, renamed into place, or all removed, and each of those changes the folder's time, so
        an unchanged folder spares every query a listing and a look at each chunk. A folder changed
        within the last SETTLED_NS is not trusted: its time is kept to the clock's tick, and a
        second change within one tick would leave it as it was (git treats its index the same way)."""
        if folder is None or time.time_ns() - folder[1] < SETTLED_NS:
            return None
        return folder

    def load(self) -> tuple[Any, list[Passage]]:
        """The checked vectors and passages; StoreDamaged when they cannot be used."""
        try:
            return self._load()
        except _Damaged as exc:
            raise StoreDamaged(str(exc)) from None

    def search(self, query: str, limit: int) -> Nearest:
        """The passages nearest the query by cosine similarity, best first."""
        import numpy as np

        matrix, passages = self.load()
        if not passages:
            return Nearest([])
        query_vector = embedding.embed([query])[0]
        if query_vector.shape[0] != matrix.shape[1]:
            raise StoreDamaged("the stored vectors were made by another model")
        scores = matrix @ query_vector
        count = min(max(limit, 1), len(passages))
        top = np.argpartition(-scores, count - 1)[:count]
        top = top[np.argsort(-scores[top])]
        # passages are stored in page order: each page's first row starts a run of its passages
        starts, numbers = self._page_starts(passages)
        best = np.maximum.reduceat(scores, starts)
        typical = float(np.median(best))
        spread = float(np.median(np.abs(best - typical))) * 1.4826
        return Nearest([(passages[i], float(scores[i])) for i in top], typical, spread,
                       dict(zip(numbers, best.tolist(), strict=True)))

    def _page_starts(self, passages: list[Passage]) -> tuple[Any, list[int]]:
        """The row where each page's passages start, and those pages' numbers."""
        import numpy as np

        if self._starts is None or self._starts[0] is not passages:
            pages = np.fromiter((p.page for p in passages), dtype=np.int64, count=len(passages))
            starts = np.flatnonzero(np.r_[True, pages[1:] != pages[:-1]])
            self._starts = (passages, starts, pages[starts].tolist())
        return self._starts[1], self._starts[2]


class _Damaged(Exception):
    pass


class StoreDamaged(Exception):
    """The vector files cannot be used; the reason says which and why."""
