"""Asking the whole library, offline: known items and "which documents ..." over several hundred documents.

The library (bench/collection_corpus.py: contracts in English, German and Russian, invoices, site
inspection reports, machine manuals; 500 documents, about 1,900 pages by default) is added to a
fresh data folder and indexed by pdfdesk's own library index. No model: the questions go to the
offline answerer (a ChatSession scoped to the library) and to the tools it stands on.

  known item       the first citation of the offline answer is the right document and page
                   (target >= 0.9); MRR@10 of `pdf_search library=true` with the question, for reference
  which documents  recall and precision of the listed documents against the generator's complete
                   answer set (targets >= 0.98 / >= 0.95), through `pdf_search group_by="document"`
                   with the term (paged to the end) and through the offline answerer's list

Every figure is printed for the "tune" and the "report" half (rankings may be tuned on "tune"
only); --check exits 1 unless the targets hold on both halves. Timings: corpus, index build, and
p50/p95 per question for each path. A path the build does not offer yet is reported as "not
available" (and fails --check).

Usage: python bench/collection_bench.py [--docs 500] [--root DIR] [--quick] [--check]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.collection_corpus import KnownItem, WhichDocs, build  # noqa: E402

TARGET_FIRST = 0.9
TARGET_RECALL = 0.98
TARGET_PRECISION = 0.95
QUICK_DOCS = 60
KEY_VARS = ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY")
HALVES = ("tune", "report")


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def timings(label: str, seconds: Sequence[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return f"{label:44} p50 {percentile(ms, 0.5):7.1f} ms  p95 {percentile(ms, 0.95):7.1f} ms  ({len(ms)} questions)"


# -- the tool path --------------------------------------------------------------------------------
def search_rank(item: KnownItem) -> tuple[int | None, float]:
    """Where `pdf_search library=true` puts the known item's page among its first 10 results."""
    from pdfdesk.tools import call_tool

    started = time.perf_counter()
    result = call_tool("pdf_search", {"library": True, "query": item.question, "max_results": 10})
    spent = time.perf_counter() - started
    if result.is_error:
        return None, spent
    for rank, match in enumerate(result.details.get("matches") or [], start=1):
        if Path(str(match.get("file"))).name == item.file and match.get("page") == item.page:
            return rank, spent
    return None, spent


SEARCHED: dict[str, str] = {}  # question -> what the offline answerer listed documents for


class NotAvailable(Exception):
    """The build does not offer this path yet."""


def listed_by_tool(term: str) -> list[str]:
    """Every document `pdf_search` group_by "document" lists for the term, paging to the end."""
    from pdfdesk.tools import call_tool

    names: list[str] = []
    offset: int | None = 0
    while offset is not None:
        result = call_tool("pdf_search", {"library": True, "query": term, "group_by": "document",
                                          "max_results": 1000, "offset": offset})
        documents = None if result.is_error else result.details.get("documents")
        if documents is None:
            raise NotAvailable(f"pdf_search group_by document: {result.text[:200]}")
        names += [Path(str(d["file"])).name for d in documents]
        following = result.details.get("next_offset")
        offset = following if isinstance(following, int) and following > offset else None
    return names


# -- the offline answerer -------------------------------------------------------------------------
def library_session() -> Any:
    """A ChatSession scoped to the library, with no model (the offline answerer replies)."""
    from pdfdesk.agent.session import ChatSession
    from pdfdesk.core.config import get_config

    try:
        from pdfdesk.agent.scope import make_scope
    except ImportError as exc:
        raise NotAvailable("no library scope for the chat (pdfdesk.agent.scope)") from exc
    session = ChatSession(config=get_config(), scope=make_scope("library"), setup_advice=False)
    if not session.offline:
        raise SystemExit("a model is configured (an API key in the environment or the key store): "
                         "this benchmark measures the offline answerer")
    return session


def ask(session: Any, question: str) -> tuple[list[Any], Any, float]:
    """One question, a fresh history each time (questions are independent); events, Done, seconds."""
    session.reset()

    async def collect() -> list[Any]:
        return [event async for event in session.send(question)]

    started = time.perf_counter()
    events = asyncio.run(collect())
    return events, events[-1], time.perf_counter() - started


def first_citation(session: Any, item: KnownItem) -> tuple[bool, float]:
    _events, done, spent = ask(session, item.question)
    if not done.citations:
        return False, spent
    first = done.citations[0]
    return Path(str(first.document)).name == item.file and first.page == item.page, spent


def listed_by_answerer(session: Any, question: WhichDocs) -> tuple[list[str], float]:
    """The documents the offline answer lists: its DocumentList event (the complete list), else
    the documents it cites."""
    from pdfdesk.agent.events import DocumentList

    events, done, spent = ask(session, question.question)
    lists = [e for e in events if isinstance(e, DocumentList)]
    SEARCHED[question.question] = lists[-1].query if lists else "(no document list)"
    if lists:
        return [Path(str(d["file"])).name for d in lists[-1].documents], spent
    return list(dict.fromkeys(Path(str(c.document)).name for c in done.citations)), spent


# -- figures --------------------------------------------------------------------------------------
def recall_precision(listed: Sequence[str], truth: Sequence[str]) -> tuple[float, float]:
    found, true = set(listed), set(truth)
    hit = len(found & true)
    return hit / max(len(true), 1), (hit / len(found) if found else (1.0 if not true else 0.0))


def which_table(label: str, questions: list[WhichDocs], lister: Callable[[WhichDocs], tuple[list[str], float]],
                misses: list[str], show_worst: int) -> None:
    """Recall and precision per half (micro over documents, and the worst question) for one path."""
    rows = []
    for question in questions:
        listed, spent = lister(question)
        recall, precision = recall_precision(listed, question.files)
        rows.append((question, listed, recall, precision, spent))
    print(timings(f"which documents, {label}", [r[4] for r in rows]))
    largest = max(rows, key=lambda r: len(r[0].files))
    print(f"  the largest answer: {len(largest[0].files)} documents, {len(set(largest[1]))} listed in "
          f"{largest[4] * 1000:.0f} ms ({largest[0].question!r})")
    for half in HALVES:
        group = [r for r in rows if r[0].half == half]
        true = sum(len(r[0].files) for r in group)
        found = sum(len(set(r[1])) for r in group)
        hit = sum(len(set(r[1]) & set(r[0].files)) for r in group)
        recall, precision = hit / max(true, 1), hit / max(found, 1)
        exact = sum(1 for r in group if r[2] == 1.0 and r[3] == 1.0)
        print(f"  {half:7} {len(group):3} questions, {true:5} true documents: recall {recall:.3f}  precision "
              f"{precision:.3f}  (exact lists {exact}/{len(group)}; worst recall {min(r[2] for r in group):.2f}, "
              f"worst precision {min(r[3] for r in group):.2f})")
        if recall < TARGET_RECALL or precision < TARGET_PRECISION:
            misses.append(f"which documents ({label}), {half}: recall {recall:.3f} / precision {precision:.3f} "
                          f"< {TARGET_RECALL} / {TARGET_PRECISION}")
    for question, listed, recall, precision, _spent in sorted(rows, key=lambda r: r[2] + r[3])[:show_worst]:
        if recall < 1.0 or precision < 1.0:
            print(f"    {question.half:6} R {recall:.2f} P {precision:.2f}  {question.question!r} "
                  f"(term {question.term!r}: {len(question.files)} true, {len(set(listed))} listed"
                  + (f"; the answerer listed {SEARCHED[question.question]!r})" if question.question in SEARCHED
                     else ")"))


def known_table(known: list[KnownItem], session: Any | None, misses: list[str], show_worst: int) -> None:
    ranks: list[tuple[KnownItem, int | None]] = []
    spent = []
    for item in known:
        rank, seconds = search_rank(item)
        ranks.append((item, rank))
        spent.append(seconds)
    print(timings("known item, pdf_search library=true", spent))
    firsts: dict[str, list[bool]] = {half: [] for half in HALVES}
    wrong: list[KnownItem] = []
    if session is not None:
        spent = []
        for item in known:
            right, seconds = first_citation(session, item)
            firsts[item.half].append(right)
            spent.append(seconds)
            if not right:
                wrong.append(item)
        print(timings("known item, offline answerer", spent))
    for half in HALVES:
        group = [(i, r) for i, r in ranks if i.half == half]
        mrr = sum(1.0 / r for _i, r in group if r and r <= 10) / max(len(group), 1)
        at1 = sum(1 for _i, r in group if r == 1) / max(len(group), 1)
        line = f"  {half:7} {len(group):3} questions: search MRR@10 {mrr:.3f}, first result right {at1:.3f}"
        if session is not None:
            share = sum(firsts[half]) / max(len(firsts[half]), 1)
            line += f"; offline answer's first citation right {share:.3f}"
            if share < TARGET_FIRST:
                misses.append(f"known item, {half}: first citation right {share:.3f} < {TARGET_FIRST}")
        print(line)
    if session is None:
        misses.append("known item: the offline answerer over the library is not available")
    by_kind: dict[str, list[int | None]] = {}
    for item, rank in ranks:
        by_kind.setdefault(item.kind, []).append(rank)
    print("  search MRR@10 by kind: " + ", ".join(
        f"{kind} {sum(1.0 / r for r in rs if r and r <= 10) / len(rs):.2f} ({len(rs)})"
        for kind, rs in sorted(by_kind.items())))
    for item in wrong[:show_worst]:
        print(f"    {item.half:6} wrong first citation: {item.question!r} (want {item.file} p. {item.page})")


def run(args: argparse.Namespace) -> list[str]:
    misses: list[str] = []
    docs = QUICK_DOCS if args.quick else args.docs
    folder = args.root / f"collection-{docs}"
    started = time.perf_counter()
    known, which = build(folder, docs)
    count = sum(1 for _ in folder.glob("*.pdf"))
    print(f"library: {count} documents, {len(known)} known-item and {len(which)} which-documents questions "
          f"(corpus ready in {time.perf_counter() - started:.1f} s)", flush=True)
    from bench.indexing import add_to_library
    from pdfdesk.core.config import Config, set_config
    from pdfdesk.index.library import Library

    set_config(Config(semantic=False))  # keyword ranking: no embedding model, as on a machine without one
    started = time.perf_counter()
    add_to_library(folder)
    indexed = len(Library().indexed())
    print(f"index build (add + library index): {time.perf_counter() - started:.1f} s, {indexed} documents indexed",
          flush=True)
    if indexed != count:
        misses.append(f"only {indexed} of {count} documents indexed")
    session: Any | None = None
    try:
        session = library_session()
    except NotAvailable as exc:
        print(f"offline answerer over the library: not available ({exc})")
    print("\nKnown item (answer: one page of one document)")
    known_table(known, session, misses, args.show)
    print("\nWhich documents (answer: the complete set)")
    try:
        which_table("pdf_search group_by document", which,
                    lambda q: _timed(listed_by_tool, q.term), misses, args.show)
    except NotAvailable as exc:
        print(f"which documents, pdf_search group_by document: not available ({exc})")
        misses.append("which documents: pdf_search group_by document is not available")
    if session is not None:
        which_table("offline answerer", which, lambda q: listed_by_answerer(session, q), misses, args.show)
    else:
        misses.append("which documents: the offline answerer over the library is not available")
    return misses


def _timed(function: Callable[[str], list[str]], term: str) -> tuple[list[str], float]:
    started = time.perf_counter()
    found = function(term)
    return found, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--docs", type=int, default=500, help="documents in the library (default 500)")
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "pdfdesk-collection-bench",
                        help="where generated libraries are kept between runs")
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_DOCS} documents (for the tests)")
    parser.add_argument("--show", type=int, default=8, help="failed questions shown per table")
    parser.add_argument("--check", action="store_true", help="exit 1 unless every target holds on both halves")
    args = parser.parse_args(argv)
    for name in KEY_VARS:  # offline: no model, whatever the environment holds
        os.environ.pop(name, None)
    home = Path(tempfile.mkdtemp(prefix="pdfdesk-collection-home-"))
    os.environ["PDFDESK_HOME"] = str(home)
    os.environ["PDFDESK_BACKGROUND_INDEXING"] = "0"
    started = time.perf_counter()
    try:
        misses = run(args)
    finally:
        from pdfdesk.core.documents import close_all

        close_all()
        shutil.rmtree(home, ignore_errors=True)
    print(f"\ntotal {time.perf_counter() - started:.0f} s; targets: "
          + ("all met" if not misses else "MISSED:\n  " + "\n  ".join(misses)))
    return 1 if misses and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
