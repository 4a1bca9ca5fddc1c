"""Words of like meaning from the thesauri installed on the machine (MyThes, LibreOffice's format:
Debian's mythes-* packages), by script.

A question in one's own words about a Russian regulation asks about a "залог" where the page says
"обеспечение". The built-in model spells Russian and Arabic one letter at a time, so meaning cannot
bring such a page up, and the words differ. A thesaurus knows they are related, for exactly the
languages where a small English-trained model knows nothing.

A thesaurus file is compiled once into the index's own terms (stems, folded Arabic) and kept as
JSON beside the indices, keyed by the file's size and time and the index version, because stemming
90,000 synonyms takes seconds; every later process reads the compiled form in a fraction of that.
A thesaurus that is missing, unreadable or malformed gives no related words, never an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import threading
import unicodedata
from collections.abc import Callable
from pathlib import Path

from pdfdesk.core.atomic import write_json_atomically
from pdfdesk.core.paths import app_data_dir, ensure_dir
from pdfdesk.index.analysis import GRAM_MARK, analyze, fold
from pdfdesk.index.store import INDEX_VERSION

# Where Debian, Ubuntu and Fedora install the MyThes thesauri; PDFDESK_THESAURI (folders separated
# by the path separator) names others, e.g. a bundle's own.
DEFAULT_FOLDERS = ("/usr/share/mythes",)
MAX_FILE_BYTES = 64 * 1024 * 1024    # the largest (English) is 18 MB; anything far larger is not one
SNIFF_ENTRIES = 200                  # head words read to tell a file's script
COMPILED_FORMAT = 1

Related = dict[str, tuple[str, ...]]  # an index term -> index terms of its synonyms (shared strings)

_compiled: dict[str, Related] = {}   # script -> the merged thesauri of that script wanted
_lock = threading.Lock()
_NOTE = re.compile(r"\([^)]*\)")     # "(синоним)", "(فعل)": the part of speech or kind of relation


def _letters_by_script(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for char in text:
        if char.isalpha():
            name = unicodedata.name(char, "").split(" ", 1)[0]
            counts[name] = counts.get(name, 0) + 1
    return counts


def script_of(text: str) -> str | None:
    """The script of most of `text`'s letters ("CYRILLIC", "ARABIC", "LATIN", ...), or None."""
    counts = _letters_by_script(text)
    return max(counts, key=lambda name: counts[name]) if counts else None


def scripts_of(text: str, least: float = 0.2) -> dict[str, str]:
    """Each script holding at least `least` of `text`'s letters, with `text` in that script alone
    (other letters blanked): a bilingual contract asks about both of its languages, and whether a
    model reads a script is a question about that script's words only."""
    counts = _letters_by_script(text)
    total = sum(counts.values())
    return {script: "".join(char if not char.isalpha() or unicodedata.name(char, "").startswith(script + " ")
                            else " " for char in text)
            for script, count in sorted(counts.items(), key=lambda pair: -pair[1]) if count >= least * total}


def related_terms(terms: list[str], script: str, wanted: Callable[[str], bool]) -> dict[str, frozenset[str]]:
    """For each of `terms` (index terms of a question in `script`), the index terms of its
    synonyms in the thesauri of that script, without the question's own terms. `wanted` is asked
    once per thesaurus file with a sample of its head words: a file it declines is never compiled
    (English takes 6 s, and a model that reads English needs no thesaurus for it)."""
    table = _table(script, wanted)
    own = set(terms)
    found = {term: frozenset(table.get(term, ())) - own for term in terms}
    return {term: synonyms for term, synonyms in found.items() if synonyms}


def prepared(script: str) -> bool:
    """Whether the thesauri of `script` are compiled and read in this process."""
    return script in _compiled


def folders() -> list[Path]:
    named = os.environ.get("PDFDESK_THESAURI")
    return [Path(part) for part in named.split(os.pathsep) if part] if named else [Path(f) for f in DEFAULT_FOLDERS]


def _table(script: str, wanted: Callable[[str], bool]) -> Related:
    with _lock:
        if script not in _compiled:
            merged: dict[str, set[str]] = {}
            for path in _files_of(script, wanted):
                for term, synonyms in _compiled_file(path).items():
                    merged.setdefault(term, set()).update(synonyms)
            # one string object per term, and tuples: Russian's 89,000 synonyms take 4 MB, 15 MB as sets
            _compiled[script] = {sys.intern(term): tuple(sorted(sys.intern(synonym) for synonym in synonyms))
                                 for term, synonyms in merged.items()}
        return _compiled[script]


def _files_of(script: str, wanted: Callable[[str], bool]) -> list[Path]:
    """The wanted thesaurus files of `script` in the folders, each file once (Debian links one
    Arabic thesaurus under twenty country names)."""
    found: dict[Path, Path] = {}
    for folder in folders():
        try:
            names = sorted(folder.glob("*.dat"))
        except OSError:
            continue
        for path in names:
            try:
                real = path.resolve()
                if real in found or not real.is_file() or real.stat().st_size > MAX_FILE_BYTES:
                    continue  # a FIFO would block, and a file of no lines would be read whole
                sample = _head_words(real)
                if script_of(sample) == script and wanted(sample):
                    found[real] = real
            except (OSError, RuntimeError):  # RuntimeError: a symlink loop, before Python 3.13
                continue
    return list(found.values())


def _head_words(path: Path) -> str:
    """The file's first SNIFF_ENTRIES head words, joined by spaces."""
    heads: list[str] = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        for line in handle:
            if "|" in line and not line.startswith("("):
                heads.append(line.rsplit("|", 1)[0])
                if len(heads) >= SNIFF_ENTRIES:
                    break
    return " ".join(heads)


def _compiled_file(path: Path) -> dict[str, list[str]]:
    """`path` compiled into index terms, read from the cache when it was compiled before."""
    try:
        stat = path.stat()
    except OSError:
        return {}
    identity = f"{path}|{stat.st_size}|{stat.st_mtime_ns}|{INDEX_VERSION}|{COMPILED_FORMAT}"
    key = hashlib.sha256(identity.encode()).hexdigest()[:24]
    cache = app_data_dir() / "thesauri" / f"{path.stem}-{key}.json"
    try:
        loaded = json.loads(cache.read_text(encoding="utf-8"))
        if isinstance(loaded, dict) and all(isinstance(synonyms, list) and all(isinstance(x, str) for x in synonyms)
                                            for synonyms in loaded.values()):
            return loaded
    except (OSError, ValueError):
        pass
    try:
        compiled = compile_mythes(path.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return {}
    try:
        write_json_atomically(ensure_dir(cache.parent) / cache.name, compiled)
    except OSError:
        pass  # a read-only or full disk: compiled again next time
    return compiled


def compile_mythes(text: str) -> dict[str, list[str]]:
    """A MyThes data file's text as {term: sorted synonym terms}. The format: an encoding line,
    then entries of a head line "word|count" and `count` lines "(kind)|synonym|synonym...". Only
    single words on both sides count: a phrase ("брать в наем") is no one term of the index."""
    lines = text.splitlines()[1:]
    related: dict[str, set[str]] = {}
    at = 0
    while at < len(lines):
        head, _, count = lines[at].rpartition("|")
        at += 1
        try:
            senses = max(0, int(count))
        except ValueError:
            continue  # a damaged entry: resynchronise on the next head line
        head_terms = _terms(head)
        for line in lines[at:at + senses]:
            if len(head_terms) != 1:
                break
            for synonym in line.split("|")[1:]:
                terms = _terms(_NOTE.sub("", synonym))
                if len(terms) == 1 and terms[0] != head_terms[0]:
                    related.setdefault(head_terms[0], set()).add(terms[0])
        at += senses
    return {term: sorted(synonyms) for term, synonyms in related.items()}


def _terms(text: str) -> list[str]:
    """A thesaurus word as the index's terms (Arabic vowel marks dropped first, so a vowelled
    synonym is one word, not its letters)."""
    return [term for term in analyze(fold(text.strip())) if not term.startswith(GRAM_MARK)] if text.strip() else []
