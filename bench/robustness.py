"""Every tool on every PDF in some folders, in killable worker processes: what breaks, what is slow.

For each PDF found under the given files/folders (recursively), and optionally mutated copies of
each (byte flips, truncations, dropped runs) and the generated hostile corpus of the test suite,
it calls pdf_info, pdf_extract_text, pdf_render_page (page 1), pdf_outline and pdf_search (keyword)
through `ToolWorkerPool` (pdfdesk/tools/isolated.py), the path the GUI and the MCP server use. It
reports:
  files              PDFs tried (and how many were mutated or generated)
  results            calls that returned a result
  coded errors       calls that returned a coded error, by code (a damaged file's expected outcome)
  internal errors    `internal_error` results: bugs in pdfdesk (listed)
  timeouts           calls stopped at --timeout (listed)
  crashes            calls whose worker process died (listed)
  slowest calls      the --slowest longest calls, and the largest responses
Usage: python bench/robustness.py [--mutate N] [--generate] [--timeout S] [--workers N] [--check] [PATH ...]
--check exits 1 when there is any internal error, timeout or crash (a measurement otherwise).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import sys
import tempfile
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

HOME = tempfile.mkdtemp(prefix="pdfdesk-robustness-")
os.environ["PDFDESK_HOME"] = HOME
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pdfdesk.core.config import Config, set_config  # noqa: E402
from pdfdesk.tools.isolated import ToolWorkerPool  # noqa: E402

CALLS: list[tuple[str, dict]] = [
    ("pdf_info", {}),
    ("pdf_extract_text", {}),
    ("pdf_render_page", {"page": 1}),
    ("pdf_outline", {}),
    ("pdf_search", {"query": "the", "mode": "keyword"}),
]


@dataclass
class Call:
    file: str
    tool: str
    seconds: float
    outcome: str  # "ok", an error code, "timeout" or "crash"
    message: str
    response_bytes: int


def find_pdfs(items: list[str]) -> list[Path]:
    found: list[Path] = []
    for item in items:
        path = Path(item).expanduser()
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() == ".pdf"))
        elif path.is_file():
            found.append(path)
    return found


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One random damage: flipped bytes, a truncation, or a dropped run (offsets shift)."""
    out = bytearray(data)
    kind = rng.choice(["flip", "flip", "truncate", "drop"])
    if kind == "flip" and len(out) > 16:
        for _ in range(rng.choice([1, 8, 64, 512])):
            out[rng.randrange(8, len(out))] = rng.randrange(256)
    elif kind == "truncate":
        del out[rng.randrange(9, max(10, len(out))):]
    elif len(out) > 16:
        at = rng.randrange(8, len(out))
        del out[at:at + rng.randrange(1, 2048)]
    return bytes(out)


def run_one(pool: ToolWorkerPool, path: Path, timeout: float) -> list[Call]:
    calls = []
    for tool, extra in CALLS:
        started = time.monotonic()
        result = pool.call(tool, {"path": str(path), **extra}, timeout=timeout)
        elapsed = time.monotonic() - started
        details = result.details
        if not result.is_error:
            outcome, message = "ok", ""
        elif details.get("isolated") and "timeout_s" in details:
            outcome, message = "timeout", details["message"]
        elif details.get("isolated") and "worker_exit" in details:
            outcome, message = "crash", details["message"]
        else:
            outcome, message = details.get("error", "?"), details.get("message", "")
        size = len(json.dumps(result.to_dict(), ensure_ascii=False).encode())
        calls.append(Call(str(path), tool, elapsed, outcome, message[:200], size))
    return calls


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("paths", nargs="*", help="PDF files or folders (searched recursively)")
    parser.add_argument("--mutate", type=int, default=0, help="mutated copies of each file to try as well")
    parser.add_argument("--generate", action="store_true", help="add the test suite's generated hostile corpus")
    parser.add_argument("--timeout", type=float, default=30.0, help="per-call limit in seconds (default 30)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 2, help="worker processes")
    parser.add_argument("--slowest", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--check", action="store_true", help="exit 1 on any internal error, timeout or crash")
    options = parser.parse_args()
    set_config(Config(semantic=False))
    scratch = Path(HOME) / "inputs"
    scratch.mkdir()
    files = find_pdfs(options.paths)
    originals = len(files)
    generated = 0
    if options.generate:
        from tests.hardening.corpus import build_corpus

        made = [path for family in build_corpus(scratch / "generated").values() for path in family]
        files.extend(made)
        generated = len(made)
    rng = random.Random(options.seed)
    mutated = []
    for path in list(files[:originals]):
        data = path.read_bytes()
        for i in range(options.mutate):
            target = scratch / "mutated" / f"{path.stem}-m{i:03d}.pdf"
            target.parent.mkdir(exist_ok=True)
            target.write_bytes(mutate(data, rng))
            mutated.append(target)
    files.extend(mutated)
    if not files:
        parser.error("no PDFs found (give files or folders, or --generate)")
    pool = ToolWorkerPool(size=options.workers, timeout=options.timeout)
    calls: list[Call] = []
    lock = threading.Lock()
    done = 0
    started = time.monotonic()

    def work(path: Path) -> None:
        nonlocal done
        found = run_one(pool, path, options.timeout)
        with lock:
            calls.extend(found)
            done += 1
            if done % 25 == 0 or done == len(files):
                sys.stderr.write(f"{done}/{len(files)} files, {time.monotonic() - started:.0f} s\n")
                sys.stderr.flush()

    try:
        with ThreadPoolExecutor(max_workers=options.workers) as executor:
            list(executor.map(work, files))
    finally:
        pool.close()
    wall = time.monotonic() - started
    report(files, originals, len(mutated), generated, calls, wall, options)
    shutil.rmtree(HOME, ignore_errors=True)
    bad = [c for c in calls if c.outcome in ("internal_error", "timeout", "crash")]
    return 1 if options.check and bad else 0


def report(files: list[Path], originals: int, mutated: int, generated: int, calls: list[Call], wall: float,
           options: argparse.Namespace) -> None:
    outcomes = Counter(c.outcome for c in calls)
    codes = Counter({k: v for k, v in outcomes.items() if k not in ("ok", "timeout", "crash")})
    print(f"files: {len(files)} ({originals} given, {mutated} mutated, {generated} generated); "
          f"calls: {len(calls)} in {wall:.1f} s with {options.workers} workers, timeout {options.timeout:g} s")
    print(f"results: {outcomes['ok']}")
    print(f"coded errors: {sum(codes.values())}" + ("  (" + ", ".join(f"{k} {v}" for k, v in codes.most_common()) + ")"
                                                    if codes else ""))
    for label, title in (("internal_error", "internal errors"), ("timeout", "timeouts"), ("crash", "crashes")):
        bad = [c for c in calls if c.outcome == label]
        print(f"{title}: {len(bad)}")
        for call in bad[:20]:
            print(f"  {call.tool} {Path(call.file).name}: {call.message}")
    by_tool: dict[str, list[float]] = {}
    for call in calls:
        by_tool.setdefault(call.tool, []).append(call.seconds)
    print("per tool (median / max seconds): " + ", ".join(
        f"{tool} {sorted(t)[len(t) // 2]:.3f}/{max(t):.2f}" for tool, t in by_tool.items()))
    print("slowest calls:")
    for call in sorted(calls, key=lambda c: -c.seconds)[:options.slowest]:
        print(f"  {call.seconds:7.2f} s  {call.tool:17} {call.outcome:15} {Path(call.file).name}")
    print("largest responses:")
    for call in sorted(calls, key=lambda c: -c.response_bytes)[:5]:
        print(f"  {call.response_bytes / 1e6:7.2f} MB {call.tool:17} {Path(call.file).name}")


if __name__ == "__main__":
    sys.exit(main())
