"""The team library (PostgreSQL) against the embedded library index (SQLite FTS5): ranking and speed.

1. Ranking: the library corpus of bench/library_corpus.py (known-item queries in Latin, Cyrillic,
   CJK and Arabic scripts, tune and report halves by document); every page's text goes into both
   indexes, and each query is asked through the library search (`library_search.rank`, relaxed
   when few pages hold every word) of each: MRR@10 per half, for every ranking machinery of the
   team library (TeamLibrary ranking=...):
     bm25        BM25 (k1 1.2, b 0.75, FTS5's idf) over the visible pages; df counted with the GIN
                 index at query time; a word's count on a page recovered from ts_rank of that word
     bm25_exact  the same, the best 200 pages rescored with counts read from their tsvectors
     ts_rank     PostgreSQL's ts_rank (normalisation 1)
     ts_rank_cd  PostgreSQL's cover density ranking (normalisation 1)
2. Speed: SCALE pages (default 100,000) generated from the corpus' own pages (sentences of pages of
   one script shuffled into new pages, so words keep their real frequencies), added with COPY;
   queries of 1-4 words drawn from the pages (common and rare words), asked through
   `library_search.rank` and grouped by document (`search_documents`): p50 / p95 ms, with each
   word's page count counted afresh for every query (no statistics cache).

Targets (--check): team MRR@10 >= embedded - 0.03 (report half and all); p95 <= 300 ms at SCALE.
A throwaway PostgreSQL cluster is started as tests/pg_cluster.py does (Debian's server programs).

Figures on this 2-core machine (PostgreSQL 15, other jobs running beside it):

  --documents 1000 (11,217 pages, 130 queries)      all     tune    report
    embedded FTS5                                   1.000   1.000   1.000
    team bm25 / bm25_exact / ts_rank / ts_rank_cd   0.996 / 1.000 / 0.996 / 1.000 (report 0.993 / 1.000 / 1.000 / 1.000)
  --documents 10000 (112,238 pages, 1,000 queries)
    embedded FTS5                                   0.997   0.998   0.996
    team bm25                                       0.993   0.993   0.994
    team ts_rank                                    0.995   0.997   0.993
    team ts_rank_cd                                 0.997   0.997   0.997
    team bm25_exact                                 0.998   0.999   0.996
  Every machinery is within 0.003 of the embedded index on this corpus (its known-item queries are
  unique combinations, so ranking rarely decides); the 1,000 known-item queries took about 4 min
  with bm25 and ts_rank, 9 min with ts_rank_cd, 6 min with bm25_exact. bm25 is kept: the embedded
  index's scores (so relaxed and near hits mix with strict ones as they do there), one pass in C.
  Speed at 112,238 pages, bm25, statistics cold, 100 queries of 1-4 words (half of the 200 most
  common words, half of words on at most 3 pages): library_search.rank p50 775 ms / p95 5,180 ms;
  grouped by document p50 272 ms / p95 644 ms. Before the search functions (row-level security
  kept `@@` off the GIN index) one common word took 400 ms to count and 20 s to rank.

  Then (--documents 1000 --scale 100000 --rankings bm25 --queries 200: 99,997 pages; MRR@10 all /
  tune / report 0.996 / 1.000 / 0.993, embedded 1.000 / 1.000 / 1.000): the relaxed OR scores the
  pages of its rarer words first and a common word's pages only while they can still reach the
  candidates; a page's tsvector (lz4) is decompressed once per scored page, not once per word;
  page counts run without a sequential scan and, for a reviewer who sees the whole library,
  without the visibility join. rank p50 637 / p95 1,732 ms, by document p50 228 / p95 529 ms
  (the same 200 queries on the kept cluster with the final count_each: rank 613 / 1,791, by
  document 226 / 553). The first 60 of them, old search functions against new on that cluster:
  rank p50 793 -> 534 ms, p95 6,380 -> 1,746 ms; by document p50 366 -> 242, p95 797 -> 559 ms.
  Where the time went then: the page counts of common words (50-150 ms each, 1.2 s for a Chinese
  query's twenty character pairs) and one near query per word left out (20+ AND queries of ~35 ms).

  Now (schema version 2; the same command): each word's page count read from per-matter term
  statistics kept by triggers; the near pages found from the rarest word's few pages and the pages
  holding every other word in one search; tsvectors stored in the page's row; no visibility join
  and no sequential scan for a reviewer who sees the whole library; documents grouped in Python;
  the relaxed OR adding as many words at once as its bound asks for; whether the reader sees the
  whole library asked with an anti-join (28 -> 6 ms, asked by every search). MRR@10 unchanged
  (0.996 / 1.000 / 0.993). rank p50 111 / p95 272 ms, by document p50 19 / p95 217 ms: targets met
  (before the anti-join 165 / 328 and 49 / 220 ms; pages added at 210-230 a second, 277 before the
  triggers). Slowest now: a single very common word scores every page holding it (150-450 ms for
  15,000-40,000 pages), and a relaxed search whose rare words hold few pages scores a common
  word's pages too.

Usage: python bench/team_library_bench.py [--documents 1000] [--scale 100000] [--rankings bm25] [--check]
       [--speed-only] [--keep cluster.json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("PDFDESK_HOME", tempfile.mkdtemp(prefix="pdfdesk-team-bench-home-"))
os.environ["PDFDESK_BACKGROUND_INDEXING"] = "0"

import psycopg  # noqa: E402
import pymupdf  # noqa: E402

from bench.library_corpus import build_library  # noqa: E402

TARGET_GAP = 0.03
TARGET_P95_MS = 300.0


def page_texts(folder: Path, rels: list[str]) -> list[tuple[str, list[tuple[int, str]]]]:
    """Each document's (fingerprint = its path in the folder, [(page, text)])."""
    documents = []
    for rel in rels:
        with pymupdf.open(folder / rel) as doc:
            documents.append((rel, [(n, page.get_text()) for n, page in enumerate(doc, start=1)]))
    return documents


def mrr(ranks: list[int | None]) -> float:
    return sum(1.0 / r for r in ranks if r is not None and r <= 10) / max(len(ranks), 1)


def ranks_of(backend: object, queries: list) -> dict[str, list[int | None]]:
    from pdfdesk.index.library_search import rank

    found: dict[str, list[int | None]] = {"all": [], "tune": [], "report": []}
    for query in queries:
        hits = rank(query.text, 10, backend=backend).hits  # type: ignore[arg-type]
        place = next((i for i, h in enumerate(hits, start=1)
                      if h.fingerprint == query.rel and h.page == query.page), None)
        found["all"].append(place)
        found[query.half].append(place)
    return found


class Q:
    def __init__(self, text: str, rel: str, page: int, half: str) -> None:
        self.text, self.rel, self.page, self.half = text, rel, page, half


def team_database(cluster: object, documents: list[str]) -> str:
    """A fresh database with the schema and one matter holding every document, readable by alice."""
    from pdfdesk.team.migrations import migrate

    name = cluster.new_database()  # type: ignore[attr-defined]
    with psycopg.connect(cluster.conninfo(name)) as conn:  # type: ignore[attr-defined]
        migrate(conn)
        conn.execute("SELECT pdfdesk.create_matter('Bench')")
        with conn.cursor() as cur, cur.copy("COPY pdfdesk.documents (matter, fingerprint, name, pages) "
                                            "FROM STDIN") as copy:
            for fingerprint in documents:
                copy.write_row((1, fingerprint, fingerprint, 0))
        conn.execute("SELECT pdfdesk.grant_matter('Bench', 'alice', true)")
        conn.commit()
    return name


def synthetic(documents: list[tuple[str, list[tuple[int, str]]]], scale: int,
              seed: int = 11) -> list[tuple[str, list[tuple[int, str]]]]:
    """`scale` pages in 10-page documents, each page sentences of the corpus' pages of one script."""
    rng = random.Random(seed)
    by_script: dict[str, list[str]] = {}
    for rel, pages in documents:
        script = rel.split("/")[0]
        for _, text in pages:
            by_script.setdefault(script, []).extend(s for s in re.split(r"(?<=[.。!?؟])\s*|\n", text) if s.strip())
    scripts = sorted(by_script)
    made = []
    for d in range(scale // 10):
        pool = by_script[scripts[d % len(scripts)]]
        made.append((f"synthetic-{d:06d}", [(n, " ".join(rng.choice(pool) for _ in range(25)))
                                            for n in range(1, 11)]))
    return made


def speed(library: object, texts: list[str], runs: int, seed: int = 5) -> dict[str, float]:
    """p50/p95 ms of rank() and search_documents over queries of 1-4 words."""
    from pdfdesk.index.analysis import WORD_PATTERN
    from pdfdesk.index.library_search import parse, rank
    from pdfdesk.index.relaxing import strict_query

    rng = random.Random(seed)
    words = [w for t in texts for w in WORD_PATTERN.findall(t) if len(w) > 2]
    counts: dict[str, int] = {}
    for w in words:
        counts[w] = counts.get(w, 0) + 1
    common = sorted(counts, key=lambda w: -counts[w])[:200]
    rare = [w for w, c in counts.items() if c <= 3]
    ranked_ms, grouped_ms = [], []
    for i in range(runs):
        size = 1 + i % 4
        pool = common if i % 2 == 0 else rare
        query = " ".join(rng.choice(pool) for _ in range(size))
        library.forget_statistics()  # type: ignore[attr-defined]
        started = time.perf_counter()
        rank(query, 10, backend=library)  # type: ignore[arg-type]
        ranked_ms.append((time.perf_counter() - started) * 1000)
        library.forget_statistics()  # type: ignore[attr-defined]
        started = time.perf_counter()
        library.search_documents(strict_query(parse(query)))  # type: ignore[attr-defined]
        grouped_ms.append((time.perf_counter() - started) * 1000)

    def pct(values: list[float], share: float) -> float:
        ordered = sorted(values)
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    return {"rank_p50": statistics.median(ranked_ms), "rank_p95": pct(ranked_ms, 0.95),
            "documents_p50": statistics.median(grouped_ms), "documents_p95": pct(grouped_ms, 0.95)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=1000)
    parser.add_argument("--scale", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=200, help="speed queries per machinery")
    parser.add_argument("--rankings", default="bm25,bm25_exact,ts_rank,ts_rank_cd")
    parser.add_argument("--root", type=Path, default=Path(tempfile.gettempdir()) / "pdfdesk-team-library-bench")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--keep", type=Path, help="leave the cluster running and write its socket folder and "
                        "database to this JSON file (probe it with EXPLAIN ANALYZE; stop it with pg_ctl)")
    parser.add_argument("--speed-only", action="store_true", help="skip the ranking (MRR) runs")
    args = parser.parse_args(argv)
    from pdfdesk.index.library_fts import SqliteLibrary
    from pdfdesk.index.team_library import TeamLibrary
    from pdfdesk.team.settings import TeamTarget
    from tests.pg_cluster import Cluster

    folder = args.root / f"library-{args.documents}"
    queries = build_library(folder, args.documents)
    rels = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.pdf"))
    started = time.perf_counter()
    documents = page_texts(folder, rels)
    pages = sum(len(p) for _, p in documents)
    print(f"{len(rels):,} documents, {pages:,} pages read in {time.perf_counter() - started:.0f} s; "
          f"{len(queries)} known-item queries", flush=True)
    qs = [Q(q.text, str(Path(q.path).relative_to(folder)) if Path(q.path).is_absolute() else str(q.path),
            q.page, q.half) for q in queries]
    base: dict[str, list[int | None]] = {"all": [], "tune": [], "report": []}
    if not args.speed_only:
        embedded = SqliteLibrary()
        embedded.add_documents(documents)
        base = ranks_of(embedded, qs)
    misses: list[str] = []
    if not args.speed_only:
        print("MRR@10            all     tune    report")
        print(f"{'embedded FTS5':14} {mrr(base['all']):6.3f}  {mrr(base['tune']):6.3f}  {mrr(base['report']):6.3f}")
    cluster = Cluster()
    try:
        name = team_database(cluster, rels)
        target = TeamTarget(cluster.conninfo(name, "alice"), "bench")
        writer = TeamLibrary(target)
        started = time.perf_counter()
        writer.add_documents(documents)
        print(f"team library: {pages:,} pages added in {time.perf_counter() - started:.1f} s", flush=True)
        rankings = args.rankings.split(",")
        for ranking in [] if args.speed_only else rankings:
            team = TeamLibrary(target, ranking)
            found = ranks_of(team, qs)
            gap = mrr(base["report"]) - mrr(found["report"])
            print(f"team {ranking:9} {mrr(found['all']):6.3f}  {mrr(found['tune']):6.3f}  {mrr(found['report']):6.3f}"
                  f"   (report {-gap:+.3f} against embedded)", flush=True)
            if ranking == "bm25":
                misses.extend(f"{half}: team MRR {mrr(found[half]):.3f} < embedded {mrr(base[half]):.3f} - 0.03"
                              for half in ("all", "report") if mrr(found[half]) < mrr(base[half]) - TARGET_GAP)
            team.close()
        if args.scale:
            more = synthetic(documents, max(0, args.scale - pages))
            with psycopg.connect(cluster.conninfo(name)) as conn, conn.cursor() as cur, \
                    cur.copy("COPY pdfdesk.documents (matter, fingerprint, name, pages) FROM STDIN") as copy:
                for fingerprint, _ in more:
                    copy.write_row((1, fingerprint, fingerprint, 10))
            started = time.perf_counter()
            for start in range(0, len(more), 500):
                writer.add_documents(more[start:start + 500])
            total = pages + sum(len(p) for _, p in more)
            seconds = time.perf_counter() - started
            with psycopg.connect(cluster.conninfo(name), autocommit=True) as conn:
                conn.execute("VACUUM ANALYZE pdfdesk.pages")
            print(f"\n{total:,} pages: {total - pages:,} generated pages analysed and added with COPY in "
                  f"{seconds:.0f} s ({(total - pages) / max(seconds, 1e-9):.0f} pages/s)", flush=True)
            texts = [t for _, p in documents for _, t in p]
            print("query ms (cold statistics)   rank p50   rank p95   by document p50   p95")
            for ranking in rankings:
                team = TeamLibrary(target, ranking)
                figures = speed(team, texts, args.queries)
                print(f"team {ranking:24} {figures['rank_p50']:8.1f}   {figures['rank_p95']:8.1f}   "
                      f"{figures['documents_p50']:15.1f}   {figures['documents_p95']:6.1f}", flush=True)
                if ranking == "bm25" and max(figures["rank_p95"], figures["documents_p95"]) > TARGET_P95_MS:
                    misses.append(f"bm25 p95 {max(figures['rank_p95'], figures['documents_p95']):.0f} ms > 300")
                team.close()
        writer.close()
        if args.keep:
            args.keep.write_text(json.dumps({"root": str(cluster.root), "socket": str(cluster.socket_dir),
                                             "db": name, "docs": args.documents}))
            print(f"cluster kept in {cluster.root} (database {name}); see {args.keep}")
    finally:
        if not args.keep:
            cluster.close()
    print("\ntargets: " + ("all met" if not misses else "MISSED:\n  " + "\n  ".join(misses)))
    return 1 if misses and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
