"""The collection benchmark runs end to end in its quick mode, in a data folder of its own: the
library is indexed, both kinds of question are measured on both halves, and the tool's
document list is complete and exact on the quick library."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from bench.collection_bench import recall_precision

ROOT = Path(__file__).resolve().parents[2]


def test_recall_and_precision() -> None:
    assert recall_precision(["a", "b", "x"], ["a", "b", "c", "d"]) == (0.5, 2 / 3)
    assert recall_precision([], ["a"]) == (0.0, 0.0)
    assert recall_precision(["a", "a"], ["a"]) == (1.0, 1.0)


def test_quick_run(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "PDFDESK_HOME"}
    done = subprocess.run([sys.executable, str(ROOT / "bench" / "collection_bench.py"), "--quick", "--root",
                           str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=240, check=False)
    out = done.stdout
    assert done.returncode == 0, done.stderr[-3000:]
    assert re.search(r"library: 60 documents, \d+ known-item and \d+ which-documents questions", out), out
    assert re.search(r"index build \(add \+ library index\): [\d.]+ s, 60 documents indexed", out), out
    assert "known item, pdf_search library=true" in out and "p95" in out
    for half in ("tune", "report"):
        assert re.search(rf"  {half} +\d+ questions: search MRR@10 [01]\.\d{{3}}", out), out
    tool = re.findall(r"  (tune|report) +\d+ questions, +\d+ true documents: recall ([\d.]+)  precision ([\d.]+)",
                      out.split("which documents, pdf_search group_by document", 1)[1].split("which documents,")[0])
    assert [half for half, _r, _p in tool] == ["tune", "report"], out
    assert all(float(r) >= 0.98 and float(p) >= 0.95 for _h, r, p in tool), out
    assert list(tmp_path.glob("collection-60/*.pdf"))  # the library is kept for the next run
