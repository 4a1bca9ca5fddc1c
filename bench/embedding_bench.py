"""Embedding models compared: retrieval quality, speed and peak memory, as pdfdesk uses them.

Each model runs in its own child process (its peak RSS is the child's ru_maxrss from wait4), through
`pdfdesk.index.embedding.embed` and the passage splitting of `pdfdesk.index.semantic`, so the
figures are the app's. Two measurements per model:
  retrieval   the pages of bench/embedding_corpus.py (an English manual; Russian, Chinese and
              Arabic ones), every page cut into passages, each query ranked against the pages of
              its language (a page scores its best passage); page MRR@10 and hit@1, separately for
              known-item queries (words from the page) and paraphrases (other words)
  manual      a generated 300-page English manual (about 380 words a page): seconds, pages/s,
              passages/s and peak RSS for embedding every passage, in chunks of 256 as the index
              builder does (the budget: <= 60 s and <= 1 GB on 2 cores)

Models: the built-in static model, MiniLM through fastembed at 256 tokens (the shared offline copy,
if present), and any `--static NAME=FOLDER` (e.g. distillation variants) or `--model NAME=FOLDER`.

Usage: python bench/embedding_bench.py [--static NAME=DIR ...] [--model NAME=DIR ...] [--no-minilm] [--pages 300]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED_MINILM = ROOT.parent / "shared" / "models" / "all-MiniLM-L6-v2-int8"
BUNDLED = "bundled"
CHUNK = 256
KINDS = ("known", "para")
BUDGET_S, BUDGET_MB = 60.0, 1024


# -- child side ------------------------------------------------------------------------------
def _setup(model: str) -> None:
    os.environ["PDFDESK_HOME"] = tempfile.mkdtemp(prefix="pdfdesk-embedding-bench-")
    os.environ["HF_HUB_OFFLINE"] = "1"
    if model != BUNDLED:
        os.environ["PDFDESK_EMBEDDING_MODEL_PATH"] = model
    sys.path.insert(0, str(ROOT))
    from pdfdesk.core.config import Config, set_config

    set_config(Config(semantic=True))


def _rank_pages(query_vector, vectors, pages: list[int]) -> list[int]:
    """Pages by their best passage's cosine similarity, best first."""
    best: dict[int, float] = {}
    for page, score in zip(pages, (vectors @ query_vector).tolist(), strict=False):
        best[page] = max(score, best.get(page, -2.0))
    return sorted(best, key=lambda p: -best[p])


def child_retrieval(model: str) -> dict:
    _setup(model)
    from bench.embedding_corpus import CORPORA
    from pdfdesk.index import embedding
    from pdfdesk.index.semantic import passage_shape, passages_of_page

    started = time.perf_counter()
    embedding.embed(["warm up"])
    load_s = time.perf_counter() - started
    scores: dict[str, dict[str, float]] = {}
    embedded, embed_s = 0, 0.0
    shape = passage_shape()
    for script, entries in CORPORA.items():
        passages = [p for number, (text, _k, _p) in enumerate(entries, 1)
                    for p in passages_of_page(number, text, shape)]
        started = time.perf_counter()
        vectors = embedding.embed([p.text for p in passages])
        embed_s += time.perf_counter() - started
        embedded += len(passages)
        pages = [p.page for p in passages]
        for kind_index, kind in enumerate(KINDS):
            queries = [entry[1 + kind_index] for entry in entries]
            query_vectors = embedding.embed(queries)
            reciprocal, hits = 0.0, 0
            for wanted, query_vector in enumerate(query_vectors, 1):
                ranking = _rank_pages(query_vector, vectors, pages)[:10]
                if wanted in ranking:
                    reciprocal += 1.0 / (ranking.index(wanted) + 1)
                    hits += ranking[0] == wanted
            scores[f"{script} {kind}"] = {"mrr": reciprocal / len(entries), "hit1": hits / len(entries)}
    return {"load_s": load_s, "scores": scores, "passages": embedded, "passages_per_s": embedded / embed_s}


def manual_pages(count: int, seed: int = 3) -> list[str]:
    """Pages of about 380 words made of the English manual's sentences, with section headings."""
    from bench.embedding_corpus import ENGLISH

    sentences = [s.strip() + "." for text, _k, _p in ENGLISH for s in text.split(". ") if s.strip()]
    rng = random.Random(seed)
    pages = []
    for number in range(1, count + 1):
        words: list[str] = [f"{number // 10 + 1}.{number % 10 + 1}", "Section", str(number)]
        while len(words) < 380:
            words.extend(rng.choice(sentences).split())
        pages.append(" ".join(words))
    return pages


def child_manual(model: str, page_count: int) -> dict:
    _setup(model)
    from pdfdesk.index import embedding
    from pdfdesk.index.semantic import passage_shape, passages_of_page

    pages = manual_pages(page_count)
    started = time.perf_counter()
    embedding.embed(["warm up"])
    load_s = time.perf_counter() - started
    started = time.perf_counter()
    passages = [p for number, text in enumerate(pages, 1) for p in passages_of_page(number, text, passage_shape())]
    for start in range(0, len(passages), CHUNK):
        embedding.embed([p.text for p in passages[start:start + CHUNK]])
    seconds = time.perf_counter() - started
    return {"load_s": load_s, "seconds": seconds, "pages": len(pages), "passages": len(passages),
            "pages_per_s": len(pages) / seconds, "passages_per_s": len(passages) / seconds}


# -- parent side -----------------------------------------------------------------------------
def run_child(task: str, model: str, pages: int) -> dict:
    """Run one measurement in a fresh process; adds its peak RSS (MB) as `peak_mb`."""
    command = [sys.executable, __file__, "--child", task, "--child-model", model, "--pages", str(pages)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.stdout.read(), proc.stderr.read()  # type: ignore[union-attr]
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode != 0:
        return {"error": (err.strip().splitlines() or ["failed"])[-1][:120]}
    result = json.loads(out.strip().splitlines()[-1])
    result["peak_mb"] = usage.ru_maxrss / 1024  # kilobytes on Linux
    return result


def _verdict(result: dict, pages: int) -> str:
    """Against the budget for vectors: 300 pages in <= 60 s at <= 1 GB peak (scaled to `pages`)."""
    limit_s = BUDGET_S * pages / 300
    ok = result["seconds"] + result["load_s"] <= limit_s and result["peak_mb"] <= BUDGET_MB
    return f"{'ok' if ok else 'OVER'} (<= {limit_s:.0f} s, <= {BUDGET_MB} MB)"


def _named(values: list[str]) -> list[tuple[str, str]]:
    return [tuple(v.split("=", 1)) if "=" in v else (Path(v).name, v) for v in values]  # type: ignore[misc]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--static", action="append", default=[], metavar="NAME=DIR", help="another static model")
    parser.add_argument("--model", action="append", default=[], metavar="NAME=DIR", help="a transformer (model.onnx)")
    parser.add_argument("--no-minilm", action="store_true", help="skip MiniLM through fastembed")
    parser.add_argument("--no-manual", action="store_true", help="skip the 300-page manual")
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--child", choices=("retrieval", "manual"), help=argparse.SUPPRESS)
    parser.add_argument("--child-model", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.child:
        result = child_retrieval(options.child_model) if options.child == "retrieval" \
            else child_manual(options.child_model, options.pages)
        print(json.dumps(result))
        return
    models = [("static (built-in)", BUNDLED), *_named(options.static)]
    if not options.no_minilm and (SHARED_MINILM / "model.onnx").is_file():
        models.append(("MiniLM fastembed 256", str(SHARED_MINILM)))
    models += _named(options.model)
    print(f"{os.cpu_count()} cores; page MRR@10 / hit@1 per language and query kind "
          "(known = words from the page, para = paraphrase)\n")
    columns = [f"{script} {kind}" for script in ("en", "ru", "zh", "ar") for kind in KINDS]
    print(f"{'model':<24}" + "".join(f"{c:>13}" for c in columns) + f"{'load s':>8}{'pass/s':>9}{'peak MB':>9}")
    for label, model in models:
        result = run_child("retrieval", model, options.pages)
        if "error" in result:
            print(f"{label:<24} failed: {result['error']}")
            continue
        cells = "".join(f"{result['scores'][c]['mrr']:>7.2f}/{result['scores'][c]['hit1']:.2f}" for c in columns)
        print(f"{label:<24}{cells}{result['load_s']:>8.2f}{result['passages_per_s']:>9.0f}{result['peak_mb']:>9.0f}",
              flush=True)
    if options.no_manual:
        return
    print(f"\n{options.pages}-page manual, every passage embedded (chunks of {CHUNK}, as the index builder does)\n")
    print(f"{'model':<24}{'passages':>9}{'seconds':>9}{'pages/s':>9}{'pass/s':>9}{'load s':>8}{'peak MB':>9}  budget")
    for label, model in models:
        result = run_child("manual", model, options.pages)
        if "error" in result:
            print(f"{label:<24} failed: {result['error']}")
            continue
        print(f"{label:<24}{result['passages']:>9}{result['seconds']:>9.2f}{result['pages_per_s']:>9.0f}"
              f"{result['passages_per_s']:>9.0f}{result['load_s']:>8.2f}{result['peak_mb']:>9.0f}  "
              f"{_verdict(result, options.pages)}", flush=True)


if __name__ == "__main__":
    main()
