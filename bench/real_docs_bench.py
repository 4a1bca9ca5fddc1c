"""Keyword, semantic and auto on real PDFs nobody tuned on: manuals shipped by Debian packages.

The generated benches can only show what their generator put in. These are real documents made by
real toolchains (Texinfo, DocBook via dblatex/XeTeX): the Bash reference manual, the GNU coding
standards, the libtasn1 manual, and the Debian reference in German, Spanish, French, Japanese and
Simplified Chinese. The questions in bench/real_docs_questions.json were written from the pages'
text by someone who never ran a pdfdesk search on them (one plain-language paraphrase and one
known-item query per sampled page); no ranking was tuned on them, so every figure is held out.

The PDFs are taken from the Debian packages named in the questions file (`apt-get download`, no
root needed) and checked against the SHA-256 recorded there: another package version may move
pages, and a document that differs is reported and left out.

Prints page MRR@10 per language and query kind for each mode, and the same questions over the
whole library. --check exits 1 when auto falls below keyword by more than 0.01 for a kind over all
languages, in one document or over the library. Per language there are 7 to 23 questions, so one
question moving one place moves a language's figure by 0.02 to 0.07: those are printed, not
checked.

Usage: python bench/real_docs_bench.py [--folder DIR] [--check] [--no-library]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["PDFDESK_HOME"] = tempfile.mkdtemp(prefix="pdfdesk-real-docs-bench-")
os.environ["PDFDESK_BACKGROUND_INDEXING"] = "0"

from bench.indexing import add_to_library, answer_rank, index, mrr  # noqa: E402 - after the data folder is set
from pdfdesk.core.config import Config, set_config  # noqa: E402

QUESTIONS = ROOT / "bench" / "real_docs_questions.json"
NEVER_BELOW = -0.01


def fetch(folder: Path, documents: list[dict]) -> list[str]:
    """Put each document's PDF in `folder` (from its Debian package when missing); returns the
    names of those that could not be had or differ from the recorded version."""
    folder.mkdir(parents=True, exist_ok=True)
    missing = []
    for document in documents:
        target = folder / document["file"]
        if not target.exists() or _sha256(target) != document["sha256"]:
            _extract(document, target)
        if not target.exists() or _sha256(target) != document["sha256"]:
            missing.append(document["file"])
    return missing


def _extract(document: dict, target: Path) -> None:
    with tempfile.TemporaryDirectory() as work:
        done = subprocess.run(["apt-get", "download", document["package"]], cwd=work, capture_output=True,
                              timeout=300, check=False)
        debs = list(Path(work).glob("*.deb"))
        if done.returncode != 0 or not debs:
            print(f"  {document['package']}: apt-get download failed: {done.stderr.decode()[:200]}")
            return
        subprocess.run(["dpkg-deb", "-x", str(debs[0]), str(Path(work) / "x")], check=True, timeout=300)
        found = Path(work) / "x" / document["path_in_package"].lstrip("/")
        if not found.exists():
            print(f"  {document['package']}: {document['path_in_package']} is not in the package")
            return
        if found.suffix == ".gz":
            with gzip.open(found, "rb") as packed, open(target, "wb") as out:
                shutil.copyfileobj(packed, out)
        else:
            shutil.copyfile(found, target)


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def report(ranks: dict[tuple[str, str, str], list[int | None]], modes: list[str], what: str) -> list[str]:
    """Print MRR@10 per kind and language; return the kinds where auto fell below keyword by more
    than 0.01 over all languages."""
    misses = []
    languages = sorted({language for _, _, language in ranks})
    for kind in ("paraphrase", "known"):
        print(f"\n{kind} {what} MRR@10".ljust(31) + "".join(f"{mode:>10}" for mode in modes) + "   questions")
        for language in (None, *languages):
            values = {mode: [r for (m, k, lang), found in ranks.items() if m == mode and k == kind
                             and (language is None or lang == language) for r in found] for mode in modes}
            count = len(values[modes[0]])
            if not count:
                continue
            figures = "".join(f"{mrr(values[mode]):10.3f}" for mode in modes)
            print(f"  {language or 'all':28}{figures}   {count:5}")
            if {"keyword", "auto"} <= set(modes) and language is None:
                keyword, auto = mrr(values["keyword"]), mrr(values["auto"])
                if auto < keyword + NEVER_BELOW - 1e-9:
                    misses.append(f"{kind} {what} {language or 'all'}: auto {auto:.3f} < keyword {keyword:.3f} - 0.01")
    return misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--folder", type=Path, default=Path(tempfile.gettempdir()) / "pdfdesk-real-docs")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--no-library", action="store_true")
    args = parser.parse_args(argv)
    spec = json.loads(QUESTIONS.read_text(encoding="utf-8"))
    missing = fetch(args.folder, spec["documents"])
    if missing:
        print(f"left out (not fetched, or another version): {', '.join(missing)}")
    documents = [d for d in spec["documents"] if d["file"] not in missing]
    if not documents:
        print("no document could be had")
        return 1 if args.check else 0
    set_config(Config(semantic=True))
    started = time.perf_counter()
    for document in documents:
        index(args.folder / document["file"])
    print(f"{len(documents)} documents indexed in {time.perf_counter() - started:.0f} s")
    language_of = {d["file"]: d["lang"] for d in documents}
    questions = [q for q in spec["questions"] if q["file"] in language_of]
    modes = ["keyword", "semantic", "auto"]
    ranks: dict[tuple[str, str, str], list[int | None]] = defaultdict(list)
    for question in questions:
        for mode in modes:
            ranks[(mode, question["kind"], language_of[question["file"]])].append(
                answer_rank(args.folder / question["file"], question["text"], question["page"], mode))
    misses = report(ranks, modes, "page")
    if not args.no_library:
        library_folder = Path(tempfile.mkdtemp(prefix="pdfdesk-real-library-"))
        for document in documents:  # only the documents asked about, whatever else the folder holds
            os.link(args.folder / document["file"], library_folder / document["file"])
        add_to_library(library_folder)
        library_ranks: dict[tuple[str, str, str], list[int | None]] = defaultdict(list)
        for question in questions:
            for mode in ("keyword", "auto"):
                library_ranks[(mode, question["kind"], language_of[question["file"]])].append(
                    answer_rank(library_folder / question["file"], question["text"], question["page"], mode,
                                library=True))
        misses += report(library_ranks, ["keyword", "auto"], "library page")
    print("\ntargets: " + ("all met" if not misses else "MISSED:\n  " + "\n  ".join(misses)))
    return 1 if misses and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
