"""`pdfdesk index` of real-looking ~300-page manuals: wall time and peak memory of the process tree.

What a user meets when they index a manual: the command, its keyword stage child and its vector
stage child, each started by the indexing owner. Peak memory is sampled from /proc every 20 ms as
the sum of the resident sets of the command and all its descendants (children are counted while
they live; the largest single process is printed too). One manual per script: Latin (English),
Cyrillic (Russian), CJK (Chinese) and Arabic, built from the hand-written manual pages of
bench/embedding_corpus.py laid out with headings and an outline. A raw PyMuPDF text pass over the
same file is timed in the same run, so figures can be read against the machine's speed.

    .venv/bin/python bench/index_bench.py [--pages 300] [--scripts latin,cyrillic,cjk,arabic]

Targets: vectors of a ~300-page manual in <= 90 s wall for the whole `pdfdesk index` and <= 1 GB
peak for the process tree; a keyword search of a new manual from the CLI, offline, in <= 5 s.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pymupdf

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from embedding_corpus import ARABIC, CHINESE, ENGLISH, RUSSIAN  # noqa: E402

CORPORA = {"latin": ENGLISH, "cyrillic": RUSSIAN, "cjk": CHINESE, "arabic": ARABIC}
DIRECTION = {"arabic": "rtl"}


def make_manual(path: Path, entries: list[tuple[str, str, str]], pages: int, script: str) -> None:
    """A manual of `pages` pages: each page a numbered heading and two passages of the corpus."""
    doc = pymupdf.open()
    toc = []
    direction = DIRECTION.get(script, "ltr")
    for number in range(1, pages + 1):
        first = entries[(2 * number) % len(entries)][0]
        second = entries[(2 * number + 1) % len(entries)][0]
        title = f"{number // 10 + 1}.{number % 10 + 1} {first.split('.')[0][:60]}"
        html = (f'<div dir="{direction}"><h2>{title}</h2><p>{first}</p><p>{second}</p>'
                f"<p>{first}</p></div>")
        page = doc.new_page()
        page.insert_htmlbox(pymupdf.Rect(56, 56, 540, 790), html)
        toc.append([1 if number % 10 == 1 else 2, title, number])
    doc.set_toc(toc)
    doc.save(path, garbage=3, deflate=True)


def raw_text_seconds(path: Path) -> float:
    started = time.perf_counter()
    with pymupdf.open(path) as doc:
        for page in doc:
            page.get_text()
    return time.perf_counter() - started


def _children(pid: int) -> list[int]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except OSError:
        return []


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/statm") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, IndexError, ValueError):
        return 0.0


def tree_of(pid: int) -> list[int]:
    found, stack = [], [pid]
    while stack:
        current = stack.pop()
        found.append(current)
        stack.extend(_children(current))
    return found


def run_measured(command: list[str], env: dict[str, str]) -> tuple[float, float, float, str]:
    """(wall s, peak tree MB, peak single-process MB, stderr) of a command and its descendants."""
    started = time.perf_counter()
    proc = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    peak_tree = peak_one = 0.0
    while proc.poll() is None:
        sizes = [_rss_mb(pid) for pid in tree_of(proc.pid)]
        peak_tree, peak_one = max(peak_tree, sum(sizes)), max(peak_one, max(sizes, default=0.0))
        time.sleep(0.02)
    wall = time.perf_counter() - started
    return wall, peak_tree, peak_one, proc.stderr.read() if proc.stderr else ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", type=int, default=300)
    parser.add_argument("--scripts", default="latin,cyrillic,cjk,arabic")
    options = parser.parse_args()
    if not sys.platform.startswith("linux"):
        print("index_bench samples /proc: run it on Linux")
        return 2
    print(f"pdfdesk index, {options.pages}-page manuals, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print(f"{'script':9} {'raw text s':>10} {'search s':>9} {'index wall s':>12} {'keyword s':>9} {'vectors s':>9} "
          f"{'peak tree MB':>12} {'largest MB':>10} {'pages/s':>8} {'passages':>8}")
    for script in options.scripts.split(","):
        with tempfile.TemporaryDirectory(prefix="pdfdesk-index-bench-") as folder:
            home, pdf = Path(folder) / "home", Path(folder) / f"manual-{script}.pdf"
            make_manual(pdf, CORPORA[script], options.pages, script)
            env = {**os.environ, "PDFDESK_HOME": str(home), "HF_HUB_OFFLINE": "1", "PDFDESK_BACKGROUND_INDEXING": "0"}
            raw = raw_text_seconds(pdf)
            query = CORPORA[script][3][1].split()[0]
            started = time.perf_counter()
            subprocess.run([sys.executable, "-m", "pdfdesk", "tool", "pdf_search",
                            json.dumps({"path": str(pdf), "query": query, "mode": "keyword"})],
                           env=env, capture_output=True, cwd=ROOT, check=True)
            search_s = time.perf_counter() - started
            wall, peak_tree, peak_one, stderr = run_measured([sys.executable, "-m", "pdfdesk", "index", str(pdf)], env)
            keyword_s, vectors_s, passages = _stage_times(home)
            print(f"{script:9} {raw:10.2f} {search_s:9.2f} {wall:12.1f} {keyword_s:9.1f} {vectors_s:9.1f} "
                  f"{peak_tree:12.0f} {peak_one:10.0f} {options.pages / max(vectors_s, 1e-6):8.1f} {passages:8d}")
            if "No vectors" in stderr:
                print("   " + next(line for line in stderr.splitlines() if "No vectors" in line))
    return 0


def _stage_times(home: Path) -> tuple[float, float, int]:
    """Keyword and vector stage durations from the index's files (state.json's creation to the last
    page batch, then to the last vector chunk), and the number of passages embedded."""
    folder = next((home / "indices").glob("*/state.json")).parent
    whoosh = [p.stat().st_mtime for p in (folder / "whoosh").iterdir()]
    chunks = sorted((folder / "semantic").glob("chunk-*.json")) if (folder / "semantic").exists() else []
    created = min(whoosh)
    keyword_done = max(p.stat().st_mtime for p in (folder / "whoosh").glob("_sections_*.toc"))
    vectors_done = max((p.stat().st_mtime for p in chunks), default=keyword_done)
    passages = sum(len(json.loads(p.read_text())["passages"]) for p in chunks)
    return keyword_done - created, vectors_done - keyword_done, passages


if __name__ == "__main__":
    sys.exit(main())
