"""Scanned copies of real-looking documents, with known-item queries from their born-digital text,
for the OCR bench (bench/ocr_bench.py).

A slice of consecutive pages is taken from the long documents of bench/hybrid_corpus.py in
English, German, French and Russian (two slices per language: one for the "tune" half, one for the
"report" half), and written twice: as it was born (the text layer, as MuPDF copies the pages) and
as an office scanner would give it back, each page an image and nothing else:

  rendered grey at 150, 200 or 300 dpi (a third of the pages each, order shuffled), turned by a
  small skew (0.3 to 1.5 degrees either way, the sheet not square on the glass), softened by a
  slight blur, printed on grey paper with grey ink, sprinkled with sensor noise and a few specks,
  and saved as a JPEG at quality 35 to 75. Every fifth page (the third, eighth, ...) lies
  sideways or upside down: its image is turned by 90, 180 or 270 degrees, and the page is as the
  scanner saw it (landscape for 90 and 270), with no /Rotate to say so.

Everything is seeded by the slice's name (crc32), so the files are the same bytes on every run.

Queries are known items, taken from the born-digital text before any recognition ran: the
corpus's own known-item questions whose page is in the slice, and from every page two phrases of
three consecutive words on one line (each word of four letters or more, letters only) whose words
are together on no other page of the slice. A perfect text layer therefore puts the page first.

    python bench/ocr_corpus.py [FOLDER]       build (cached), print the slices and a few queries
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import sys
import zlib
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy  # noqa: E402
import pymupdf  # noqa: E402

from bench.hybrid_corpus import build_manifest, fold  # noqa: E402

GENERATOR = "ocr-corpus-1"
MANIFEST = "ocr_corpus.json"
DPIS = (150, 200, 300)
TURNS = (90, 180, 270)
TURN_EVERY = 5            # every fifth page lies sideways or upside down
PHRASE_WORDS = 3
PHRASES_PER_PAGE = 2
MIN_LETTERS = 4
TESSERACT = {"en": "eng", "de": "deu", "fr": "fra", "ru": "rus", "es": "spa"}


@dataclass(frozen=True)
class Slice:
    """Consecutive pages of a hybrid-corpus document, from `first` (1-based)."""

    doc: str
    lang: str
    half: str
    first: int

    @property
    def name(self) -> str:
        return f"{self.doc}-p{self.first}"


# Slices start on body pages that hold several of the corpus's known-item targets; English and
# Russian take each half from another document, German and French (one document each) from two
# parts of the same one.
SLICES = (
    Slice("en-tidewater-admin-guide", "en", "tune", 140),
    Slice("en-deficit-irrigation-thesis", "en", "report", 24),
    Slice("de-hausrat-bedingungen", "de", "tune", 10),
    Slice("de-hausrat-bedingungen", "de", "report", 48),
    Slice("fr-valmorel-rapport-annuel", "fr", "tune", 94),
    Slice("fr-valmorel-rapport-annuel", "fr", "report", 74),
    Slice("ru-zakupki-polozhenie", "ru", "tune", 20),
    Slice("ru-zenit-admin-manual", "ru", "report", 75),
)


@dataclass(frozen=True)
class Degradation:
    """How one page was scanned."""

    dpi: int
    skew: float        # degrees, counter-clockwise
    turn: int          # 0, or 90/180/270: the image turned clockwise by this much
    blur: float        # weight of each neighbour in a 3-tap blur (0.1-0.25)
    noise: float       # standard deviation of the sensor noise, in grey levels
    specks: float      # share of pixels turned black or white
    paper: int         # grey level of the paper
    ink: int           # grey level of full ink
    quality: int       # JPEG quality


@dataclass(frozen=True)
class Query:
    text: str
    page: int          # 1-based page of the slice that holds it
    kind: str          # "known" (the corpus's question) or "phrase" (three words from the page)


@dataclass
class ScanSet:
    """One slice written twice, with its queries, each page's degradation and born-digital text."""

    name: str
    lang: str
    half: str
    original: Path
    scan: Path
    queries: list[Query]
    pages: list[Degradation]
    texts: list[str] = field(default_factory=list)


# -- scanning ----------------------------------------------------------------------------------
def degradations(seed: str, count: int, dpi: int | None = None) -> list[Degradation]:
    """`count` pages' scanner settings, the same for the same seed: resolutions shuffled in equal
    shares (or all `dpi`), every TURN_EVERY-th page turned, the turns taken in a shuffled cycle."""
    rng = random.Random(zlib.crc32(seed.encode()))
    dpis = [dpi or DPIS[i % len(DPIS)] for i in range(count)]
    rng.shuffle(dpis)
    turns = list(TURNS)
    rng.shuffle(turns)
    out = []
    turned = 0
    for i in range(count):
        turn = 0
        if i % TURN_EVERY == 2:
            turn = turns[turned % len(turns)]
            turned += 1
        out.append(Degradation(
            dpi=dpis[i], skew=round(rng.choice((-1, 1)) * rng.uniform(0.3, 1.5), 2), turn=turn,
            blur=round(rng.uniform(0.1, 0.25), 3), noise=round(rng.uniform(4.0, 12.0), 1),
            specks=round(rng.uniform(0.0005, 0.002), 4), paper=rng.randint(222, 245), ink=rng.randint(15, 45),
            quality=rng.randint(35, 75)))
    return out


def _blur(pixels: numpy.ndarray, weight: float) -> numpy.ndarray:
    """A separable 3-tap blur [w, 1-2w, w] (the scanner's optics)."""
    out = pixels * (1.0 - 2.0 * weight)
    out[1:, :] += weight * pixels[:-1, :]
    out[:-1, :] += weight * pixels[1:, :]
    out[0, :] += weight * pixels[0, :]
    out[-1, :] += weight * pixels[-1, :]
    mixed = out * (1.0 - 2.0 * weight)
    mixed[:, 1:] += weight * out[:, :-1]
    mixed[:, :-1] += weight * out[:, 1:]
    mixed[:, 0] += weight * out[:, 0]
    mixed[:, -1] += weight * out[:, -1]
    return mixed


def scanned_image(page: pymupdf.Page, how: Degradation, seed: int) -> tuple[bytes, float, float]:
    """The page as a scanner returns it: JPEG bytes and the page size (points) the image fills."""
    zoom = how.dpi / 72.0
    pixmap = page.get_pixmap(matrix=pymupdf.Matrix(zoom, zoom).prerotate(how.skew), colorspace=pymupdf.csGRAY,
                             alpha=False, annots=False)
    rendered = numpy.frombuffer(pixmap.samples, dtype=numpy.uint8).reshape(pixmap.height, pixmap.stride)
    rendered = rendered[:, :pixmap.width]
    width, height = round(page.rect.width * zoom), round(page.rect.height * zoom)
    top, left = max(0, (pixmap.height - height) // 2), max(0, (pixmap.width - width) // 2)
    sheet = numpy.full((height, width), 255.0, dtype=numpy.float32)
    part = rendered[top:top + height, left:left + width]
    sheet[:part.shape[0], :part.shape[1]] = part
    rng = numpy.random.default_rng(seed)
    sheet = _blur(sheet / 255.0, how.blur)
    sheet = how.ink + (how.paper - how.ink) * sheet
    sheet += rng.normal(0.0, how.noise, sheet.shape).astype(numpy.float32)
    specks = rng.random(sheet.shape, dtype=numpy.float32)
    sheet[specks < how.specks / 2] = how.ink
    sheet[specks > 1.0 - how.specks / 2] = 255.0
    pixels = numpy.clip(sheet, 0, 255).astype(numpy.uint8)
    if how.turn:
        pixels = numpy.rot90(pixels, k=-how.turn // 90)
    pixels = numpy.ascontiguousarray(pixels)
    rows, columns = pixels.shape
    image = pymupdf.Pixmap(pymupdf.csGRAY, columns, rows, pixels.tobytes(), 0)
    image.set_dpi(how.dpi, how.dpi)
    return image.tobytes("jpeg", jpg_quality=how.quality), columns * 72.0 / how.dpi, rows * 72.0 / how.dpi


def scan_copy(source: Path, pages: list[int], out: Path, seed: str, dpi: int | None = None) -> list[Degradation]:
    """Write the 1-based `pages` of `source` as a scan into `out`; each page's degradation."""
    how = degradations(seed, len(pages), dpi)
    base = zlib.crc32(seed.encode())
    with pymupdf.open(source) as src, pymupdf.open() as scan:
        for i, number in enumerate(pages):
            image, width, height = scanned_image(src[number - 1], how[i], base + i)
            page = scan.new_page(width=width, height=height)
            page.insert_image(page.rect, stream=image)
        scan.set_metadata({"title": f"scan of {source.stem}", "producer": "bench/ocr_corpus.py"})
        out.parent.mkdir(parents=True, exist_ok=True)
        scan.save(out, garbage=3, deflate=True, no_new_id=True)
    return how


def born_digital_copy(source: Path, first: int, count: int, out: Path) -> None:
    """Write pages first..first+count-1 of `source` as they are (text layer and all)."""
    with pymupdf.open(source) as src, pymupdf.open() as copy:
        copy.insert_pdf(src, from_page=first - 1, to_page=first + count - 2)
        copy.set_metadata({"title": f"pages {first}-{first + count - 1} of {source.stem}",
                           "producer": "bench/ocr_corpus.py"})
        out.parent.mkdir(parents=True, exist_ok=True)
        copy.save(out, garbage=3, deflate=True, no_new_id=True)


def repeated_scan(source: Path, out: Path, copies: int) -> int:
    """A long scan: the pages of the scan `source`, `copies` times over; its page count."""
    with pymupdf.open(source) as src, pymupdf.open() as long:
        for _ in range(copies):
            long.insert_pdf(src)
        out.parent.mkdir(parents=True, exist_ok=True)
        long.save(out, garbage=4, deflate=True, no_new_id=True)  # garbage=4: the images are stored once
        return long.page_count


# -- queries from the born-digital text ---------------------------------------------------------
def tokens(text: str) -> list[str]:
    """Words as search compares them: folded (case, NFKC, ё), split at anything not a letter or digit."""
    return re.findall(r"\w+", fold(text))


def page_lines(page: pymupdf.Page) -> list[list[str]]:
    """The page's words, line by line, as MuPDF reads the text layer."""
    lines: dict[tuple[int, int], list[str]] = {}
    for *_box, word, block, line, _number in page.get_text("words", sort=False):
        lines.setdefault((block, line), []).append(word)
    return list(lines.values())


def _plain_word(word: str) -> str | None:
    """The word as a user would type it when it is one run of letters (at least MIN_LETTERS), else None."""
    runs = re.findall(r"\w+", word)
    if len(runs) != 1 or len(runs[0]) < MIN_LETTERS or not runs[0].isalpha():
        return None
    return runs[0]


def phrase_queries(pages: list[list[list[str]]], seed: str, per_page: int = PHRASES_PER_PAGE,
                   length: int = PHRASE_WORDS) -> list[Query]:
    """Up to `per_page` phrases from each page (given as lines of words): `length` consecutive
    plain words on one line whose words are together on no other page; distinct lines, seeded choice."""
    rng = random.Random(zlib.crc32(seed.encode()))
    vocabularies = [{token for line in lines for word in line for token in tokens(word)} for lines in pages]
    queries: list[Query] = []
    for index, lines in enumerate(pages):
        candidates: list[tuple[int, str]] = []
        for number, line in enumerate(lines):
            for start in range(len(line) - length + 1):
                words = [_plain_word(word) for word in line[start:start + length]]
                if any(word is None for word in words):
                    continue
                plain = [word for word in words if word is not None]
                key = {fold(word) for word in plain}
                if len(key) < length:
                    continue
                if any(key <= other for j, other in enumerate(vocabularies) if j != index):
                    continue
                candidates.append((number, " ".join(plain)))
        rng.shuffle(candidates)
        used: set[int] = set()
        for number, text in candidates:
            if number in used:
                continue
            used.add(number)
            queries.append(Query(text, index + 1, "phrase"))
            if len(used) >= per_page:
                break
    return queries


def word_recall(original: str, recognised: str) -> tuple[int, int]:
    """(born-digital words the OCR read, born-digital words): words as search folds them, two
    letters or more, counted with their repeats."""
    want = Counter(word for word in tokens(original) if len(word) >= 2)
    got = Counter(word for word in tokens(recognised) if len(word) >= 2)
    return sum((want & got).values()), sum(want.values())


def distinctive_words(pages: list[list[list[str]]], index: int, count: int = 3) -> list[str]:
    """`count` plain words of page `index` (0-based): those on the fewest other pages first, the
    longest among them."""
    elsewhere: Counter[str] = Counter()
    for j, lines in enumerate(pages):
        if j != index:
            elsewhere.update({token for line in lines for word in line for token in tokens(word)})
    seen: dict[str, str] = {}
    for line in pages[index]:
        for word in line:
            plain = _plain_word(word)
            if plain is not None:
                seen.setdefault(fold(plain), plain)
    return sorted(seen.values(), key=lambda w: (elsewhere[fold(w)], -len(w), w))[:count]


# -- the corpus --------------------------------------------------------------------------------
def generator_hash(corpus_stamp: str, pages: int) -> str:
    digest = hashlib.sha256(f"{GENERATOR}|{corpus_stamp}|{pages}|{pymupdf.VersionBind}".encode())
    digest.update(Path(__file__).read_bytes())
    return digest.hexdigest()[:16]


def build_slice(slice_: Slice, source: Path, known: list[tuple[str, int]], folder: Path, pages: int) -> ScanSet:
    """Write one slice as born and as scanned; its queries (known items: (text, page of the document))."""
    original = folder / f"{slice_.name}.pdf"
    scan = folder / f"{slice_.name}-scan.pdf"
    born_digital_copy(source, slice_.first, pages, original)
    how = scan_copy(source, list(range(slice_.first, slice_.first + pages)), scan, slice_.name)
    with pymupdf.open(original) as doc:
        lines = [page_lines(page) for page in doc]
        texts = [page.get_text() for page in doc]
    queries = [Query(text, page - slice_.first + 1, "known") for text, page in known
               if slice_.first <= page < slice_.first + pages]
    queries += phrase_queries(lines, slice_.name)
    return ScanSet(slice_.name, slice_.lang, slice_.half, original, scan, queries, how, texts)


def build_ocr_corpus(folder: Path, corpus_folder: Path, pages: int = 15,
                     slices: tuple[Slice, ...] = SLICES) -> list[ScanSet]:
    """Write (or reuse, when this generator and the hybrid corpus are unchanged) every slice."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    hybrid = build_manifest(Path(corpus_folder))
    stamp = generator_hash(hybrid["generator"], pages) + "-" + "-".join(s.name for s in slices)
    try:
        cached = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        cached = None
    if cached is not None and cached.get("generator") == stamp and all(
            Path(s["original"]).exists() and Path(s["scan"]).exists() for s in cached["sets"]):
        return [_from_json(entry) for entry in cached["sets"]]
    documents = {d["id"]: d for d in hybrid["documents"]}
    sets = []
    for slice_ in slices:
        entry = documents[slice_.doc]
        known = [(q["text"], q["page"]) for q in entry["questions"] if q["kind"] == "known"]
        sets.append(build_slice(slice_, Path(corpus_folder) / entry["file"], known, folder, pages))
    manifest = {"generator": stamp, "sets": [_to_json(s) for s in sets]}
    (folder / MANIFEST).write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    return sets


def _to_json(scan_set: ScanSet) -> dict:
    return {"name": scan_set.name, "lang": scan_set.lang, "half": scan_set.half, "original": str(scan_set.original),
            "scan": str(scan_set.scan), "queries": [asdict(q) for q in scan_set.queries],
            "pages": [asdict(p) for p in scan_set.pages], "texts": scan_set.texts}


def _from_json(entry: dict) -> ScanSet:
    return ScanSet(entry["name"], entry["lang"], entry["half"], Path(entry["original"]), Path(entry["scan"]),
                   [Query(**q) for q in entry["queries"]], [Degradation(**p) for p in entry["pages"]],
                   entry["texts"])


def main(argv: list[str]) -> int:
    import tempfile

    folder = Path(argv[0]) if argv else Path(tempfile.gettempdir()) / "pdfdesk-ocr-corpus"
    corpus = Path(tempfile.gettempdir()) / "pdfdesk-hybrid-corpus"
    for scan_set in build_ocr_corpus(folder, corpus):
        kinds = {kind: sum(q.kind == kind for q in scan_set.queries) for kind in ("known", "phrase")}
        print(f"{scan_set.name:40} {scan_set.lang} {scan_set.half:6} {len(scan_set.pages)} pages, "
              f"{kinds['known']} known items, {kinds['phrase']} phrases; e.g. {scan_set.queries[-1].text!r}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
