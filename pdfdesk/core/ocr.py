"""Recognising scanned pages with Tesseract: which pages need it, at what resolution, in which
languages, and the words it reads, with their boxes on the page and how sure it was.

The page is rendered by PyMuPDF (grey, at the scan's own resolution, within a pixel cap) and read
by the `tesseract` program, one process per page, rather than through MuPDF's built-in bridge:
a separate process can be given a deadline and a memory cap and killed without taking the caller
with it, several can run at once on several cores, and its word table carries each word's
confidence, which the bridge drops. On this machine it was also twice as fast (1.4 s against
3.0 s for one 200 dpi page). Tesseract's orientation and script detection (OSD) is asked only
when a first reading is poor: it costs half a reading, and most pages are upright and in the
languages the user set.
"""

from __future__ import annotations

import math
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pymupdf

from pdfdesk.core.ocr_languages import (
    OcrUnavailable,
    default_languages,
    has_osd,
    installed_languages,
    script_languages,
    tesseract_env,
    tesseract_program,
    usable_languages,
)
from pdfdesk.core.page_streams import check_page
from pdfdesk.core.render import fit_zoom

# Resolution: a scan is read at its own resolution, within MIN_DPI..MAX_DPI. Enlarging a 150 dpi
# scan to 200 dpi read fewer of its words on the OCR bench's tune half (96.7% against 97.7%: it
# blurs the accents Tesseract tells letters apart by), and cost more time; only scans coarser
# than that are enlarged.
MIN_DPI, MAX_DPI = 150, 300
MAX_PIXELS = 36_000_000    # an A3 page at 300 dpi is 17 M; a hostile page size asks for more
MAX_SIDE = 12_000          # Tesseract stops at 32,767 a side; time grows with the area
MIN_SIDE = 8               # a strip thinner than this holds no line of text
PAGE_DEADLINE_S = 120.0    # one Tesseract run on one page (a dense A4 page at 300 dpi: 3-5 s)
MEMORY_CAP_MB = 1536       # one Tesseract process's address space
OSD_BELOW = 65.0           # a reading this unsure is checked for orientation and script
BETTER_BY = 5.0            # a second reading (turned, or another script) must beat the first by this
SCRIPT_SURE = 0.5          # OSD's script confidence on a Russian scan: 1.1; on ink it cannot read: 0.05
USABLE_SAMPLE = 4000
# replacement characters, private use (fonts without a Unicode map), C0/C1 controls and surrogates
_UNREADABLE = re.compile("[\ufffd\ue000-\uf8ff\x00-\x1f\x7f-\x9f\ud800-\udfff]")

@dataclass(frozen=True)
class OcrWord:
    """A recognised word: its box in PDF points of the unrotated page (as MuPDF gives a text
    layer's words), its block and line, and Tesseract's confidence (0-100)."""

    text: str
    box: tuple[float, float, float, float]
    block: int
    line: int
    confidence: float


@dataclass(frozen=True)
class Recognition:
    """What Tesseract read on one page. `note` says why nothing (or little) was read."""

    text: str
    words: tuple[OcrWord, ...]
    confidence: float | None
    dpi: int
    languages: tuple[str, ...]
    turned: int = 0            # degrees the scan was turned to read it upright
    script: str | None = None  # what OSD said, when it was asked
    seconds: float = 0.0
    note: str | None = None


# -- which pages need it ----------------------------------------------------------------------
def usable_text(text: str) -> bool:
    """Whether a text layer says something: at least a few characters, not mostly replacement
    characters, private-use or control codes (fonts without a Unicode map), and mostly letters
    or digits (a scanner's garbage layer is punctuation and stray strokes). Reads the first
    USABLE_SAMPLE characters: it runs on every page the keyword stage reads."""
    shown = "".join(text[:USABLE_SAMPLE].split())
    if len(shown) < 3:
        return False
    if len(_UNREADABLE.findall(shown)) > 0.3 * len(shown):
        return False
    return sum(map(str.isalnum, shown)) >= 0.4 * len(shown)


def draws_images(page: pymupdf.Page) -> bool:
    """Whether the page shows a raster image (a scan is one image the size of the page)."""
    try:
        return bool(page.get_images(full=False))
    except Exception:
        return False


def needs_recognition(page: pymupdf.Page, text: str) -> bool:
    """A page whose text layer is missing or unusable and that shows an image."""
    return not usable_text(text) and draws_images(page)


def scan_dpi(page: pymupdf.Page) -> int:
    """The resolution to read the page at: that of its largest image, within MIN_DPI..MAX_DPI."""
    best = 0.0
    try:
        infos = page.get_image_info()
    except Exception:
        infos = []
    area = abs(page.rect) or 1.0
    for info in infos:
        box = pymupdf.Rect(info.get("bbox", (0, 0, 0, 0)))
        if box.is_empty or abs(box) < 0.1 * area:
            continue
        width_px, height_px = info.get("width", 0), info.get("height", 0)
        # the image may be drawn turned: compare its long side with the box's long side
        long_px, long_pt = max(width_px, height_px), max(box.width, box.height)
        if long_pt > 0 and long_px > 0:
            best = max(best, 72.0 * long_px / long_pt)
    if best <= 0:
        return MAX_DPI
    return int(min(MAX_DPI, max(MIN_DPI, round(best))))


# -- one reading ------------------------------------------------------------------------------
@dataclass
class _Image:
    """A rendered page on disk for Tesseract, and the way back from its pixels to page points."""

    path: Path
    to_page: pymupdf.Matrix
    dpi: int
    width: int
    height: int
    turned: int = 0


def _render(page: pymupdf.Page, dpi: int, folder: Path, turned: int = 0) -> _Image | None:
    """Render the page grey at `dpi` (lowered to the pixel caps), turned by `turned` degrees."""
    check_page(page)
    rect = page.rect
    zoom = fit_zoom(rect, dpi / 72.0, MAX_PIXELS)
    zoom = min(zoom, MAX_SIDE / max(rect.width, rect.height, 1.0))
    if not math.isfinite(zoom) or zoom <= 0 or min(rect.width, rect.height) * zoom < MIN_SIDE:
        return None
    matrix = pymupdf.Matrix(zoom, zoom).prerotate(turned) if turned else pymupdf.Matrix(zoom, zoom)
    pixmap = page.get_pixmap(matrix=matrix, colorspace=pymupdf.csGRAY, alpha=False, annots=False)
    path = folder / f"page-{page.number + 1}-{turned}.pgm"
    pixmap.save(str(path))
    # pixel + origin = point (unrotated page) x rotation_matrix x matrix
    to_page = ~(page.rotation_matrix * matrix)
    to_page = pymupdf.Matrix(1, 0, 0, 1, pixmap.x, pixmap.y) * to_page
    return _Image(path, to_page, round(zoom * 72), pixmap.width, pixmap.height, turned)


def _run(arguments: list[str], deadline_s: float, memory_mb: int | None) -> str:
    """Run Tesseract; its stdout, or OcrUnavailable / TimeoutError / MemoryError."""
    try:
        process = subprocess.Popen(arguments, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, env=tesseract_env())
    except OSError as exc:
        raise OcrUnavailable(f"Tesseract could not start: {exc.strerror or exc}") from None
    if memory_mb is not None:
        _cap_memory(process.pid, memory_mb)
    try:
        out, err = process.communicate(timeout=deadline_s)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise TimeoutError(f"Tesseract took longer than {deadline_s:.0f} s on this page") from None
    if process.returncode != 0:
        message = err.decode("utf-8", "replace").strip().splitlines()
        if process.returncode < 0 or any("alloc" in line.lower() for line in message):
            raise MemoryError(f"Tesseract stopped (exit {process.returncode}): "
                              f"{message[-1] if message else 'out of memory'}")
        raise OcrUnavailable(f"Tesseract failed: {message[-1] if message else process.returncode}")
    return out.decode("utf-8", "replace")


def _cap_memory(pid: int, memory_mb: int) -> None:
    """Cap a started process's address space (Linux); it has not allocated much yet."""
    try:
        import resource

        resource.prlimit(pid, resource.RLIMIT_AS, (memory_mb * 1024 * 1024, memory_mb * 1024 * 1024))
    except (ImportError, AttributeError, OSError, ValueError):  # no such limit on this system
        pass


def _read_words(image: _Image, languages: Sequence[str], deadline_s: float, memory_mb: int | None,
                program: str) -> tuple[tuple[OcrWord, ...], str, float | None]:
    tsv = _run([program, str(image.path), "stdout", "-l", "+".join(languages), "--dpi", str(image.dpi),
                "--psm", "3", "tsv"], deadline_s, memory_mb)
    return _parse_tsv(tsv, image.to_page)


def _parse_tsv(tsv: str, to_page: pymupdf.Matrix) -> tuple[tuple[OcrWord, ...], str, float | None]:
    """Words (boxes mapped to page points), the text in lines, and the letter-weighted confidence."""
    words: list[OcrWord] = []
    lines: dict[tuple[int, int, int], list[str]] = {}
    line_numbers: dict[tuple[int, int, int], int] = {}
    weight = 0.0
    total = 0.0
    for row in tsv.splitlines()[1:]:
        cells = row.split("\t")
        if len(cells) < 12 or cells[0] != "5":
            continue
        text = cells[11].strip()
        try:
            block, paragraph, line = int(cells[2]), int(cells[3]), int(cells[4])
            left, top, width, height = (float(c) for c in cells[6:10])
            confidence = float(cells[10])
        except ValueError:
            continue
        if not text or confidence < 0:
            continue
        key = (block, paragraph, line)
        if key not in line_numbers:
            line_numbers[key] = sum(1 for k in line_numbers if k[0] == block)
        lines.setdefault(key, []).append(text)
        rect = pymupdf.Rect(left, top, left + width, top + height) * to_page
        box = (round(rect.x0, 1), round(rect.y0, 1), round(rect.x1, 1), round(rect.y1, 1))
        words.append(OcrWord(text, box, block, line_numbers[key], confidence))
        letters = sum(1 for ch in text if ch.isalnum()) or 1
        weight += letters * confidence
        total += letters
    text = "\n".join(" ".join(parts) for _key, parts in sorted(lines.items()))
    return tuple(words), text, (weight / total if total else None)


def _orientation(image: _Image, deadline_s: float, memory_mb: int | None,
                 program: str) -> tuple[int, str | None, float]:
    """OSD's (degrees to turn the image clockwise to read it upright, script, how sure of the
    script), or (0, None, 0) when it cannot tell."""
    try:
        said = _run([program, str(image.path), "stdout", "--psm", "0", "--dpi", str(image.dpi)],
                    deadline_s, memory_mb)
    except (OcrUnavailable, TimeoutError, MemoryError):
        return 0, None, 0.0  # too little text to tell, or no OSD data: read it as it stands
    rotate = re.search(r"Rotate:\s*(\d+)", said)
    script = re.search(r"Script:\s*(\w+)", said)
    sure = re.search(r"Script confidence:\s*([\d.]+)", said)
    return ((int(rotate.group(1)) % 360 if rotate else 0), (script.group(1) if script else None),
            (float(sure.group(1)) if sure else 0.0))


@dataclass
class PageReader:
    """Reads pages with Tesseract in the given languages; one per run (it keeps a scratch folder)."""

    languages: tuple[str, ...]
    deadline_s: float = PAGE_DEADLINE_S
    memory_mb: int | None = MEMORY_CAP_MB
    folder: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="pdfdesk-ocr-")))

    def __post_init__(self) -> None:
        program = tesseract_program()
        if program is None:
            raise OcrUnavailable("Tesseract is not installed (Debian/Ubuntu: apt install tesseract-ocr)")
        self.program = program
        have, _note = usable_languages(self.languages)
        if not have:
            raise OcrUnavailable("Tesseract has none of the OCR languages " + "+".join(self.languages))
        self.languages = have
        self.osd = has_osd()

    def close(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def render(self, page: pymupdf.Page, dpi: int | None = None) -> _Image | None:
        """The page as Tesseract will read it, or None when it is too thin to hold text. MuPDF
        runs here, so call it in the thread that owns the document; `read` needs no MuPDF."""
        return _render(page, dpi or scan_dpi(page), self.folder)

    def read(self, image: _Image | None, started: float | None = None) -> Recognition:
        """Recognise a rendered page (safe in several threads at once: Tesseract runs in its own
        process). Raises TimeoutError or MemoryError when it cannot finish within the bounds."""
        started = time.perf_counter() if started is None else started
        if image is None:
            return Recognition("", (), None, 0, self.languages, note="the page is too thin to hold text")
        try:
            words, text, confidence = _read_words(image, self.languages, self.deadline_s, self.memory_mb,
                                                  self.program)
            best = Recognition(text, words, confidence, image.dpi, self.languages)
            if self.osd and (confidence is None or confidence < OSD_BELOW):
                best = self._second_reading(image, best)
        finally:
            image.path.unlink(missing_ok=True)
        return Recognition(best.text, best.words, best.confidence, best.dpi, best.languages, best.turned,
                           best.script, time.perf_counter() - started, best.note)

    def _second_reading(self, image: _Image, first: Recognition) -> Recognition:
        """Ask OSD which way up the page is and in which script, and read it again that way: in
        the user's languages, and in the script's when OSD is fairly sure of it (it names a
        script for any ink, and Cyrillic, sharing letters with Latin, rarely scores high).
        The most confident reading wins; a new one must beat the first by BETTER_BY."""
        turned, script, sure = _orientation(image, self.deadline_s, self.memory_mb, self.program)
        tries = [] if turned == 0 else [self.languages]
        if sure >= SCRIPT_SURE:
            by_script = script_languages(script, self.languages, installed_languages())
            if by_script != self.languages:
                tries.append(by_script)
        best = Recognition(first.text, first.words, first.confidence, first.dpi, first.languages, 0, script)
        if not tries:
            return best
        again = _turn(image, turned) if turned else image
        try:
            margin = BETTER_BY  # over the first reading; between the new ones, the better wins
            for languages in tries:
                words, text, confidence = _read_words(again, languages, self.deadline_s, self.memory_mb,
                                                      self.program)
                if confidence is not None and (best.confidence is None or confidence >= best.confidence + margin):
                    best = Recognition(text, words, confidence, again.dpi, languages, turned, script)
                    margin = 0.0
        finally:
            if again is not image:
                again.path.unlink(missing_ok=True)
        return best


def _turn(image: _Image, degrees: int) -> _Image:
    """The image turned clockwise by 90, 180 or 270 degrees (as OSD asks), in a file of its own,
    with the way from its pixels back to the page."""
    import numpy

    data = image.path.read_bytes()
    header_end = _pgm_header_end(data)
    pixels = numpy.frombuffer(data, dtype=numpy.uint8, offset=header_end,
                              count=image.width * image.height).reshape(image.height, image.width)
    width, height = image.width, image.height
    if degrees == 90:      # (x, y) -> (H - y, x)
        turned, to_new = numpy.rot90(pixels, k=-1), pymupdf.Matrix(0, 1, -1, 0, height, 0)
    elif degrees == 180:   # (x, y) -> (W - x, H - y)
        turned, to_new = numpy.rot90(pixels, k=2), pymupdf.Matrix(-1, 0, 0, -1, width, height)
    else:                  # 270: (x, y) -> (y, W - x)
        turned, to_new = numpy.rot90(pixels, k=1), pymupdf.Matrix(0, -1, 1, 0, 0, width)
    rows, columns = turned.shape
    path = image.path.with_name(image.path.stem + f"-turned{degrees}.pgm")
    path.write_bytes(f"P5\n{columns} {rows}\n255\n".encode("ascii") + numpy.ascontiguousarray(turned).tobytes())
    return _Image(path, ~to_new * image.to_page, image.dpi, columns, rows, degrees)


def _pgm_header_end(data: bytes) -> int:
    """Where a binary PGM's pixels start: after magic, width, height and maximum, each followed
    by whitespace (MuPDF writes no comments)."""
    fields, position = 0, 0
    while fields < 4:
        while data[position:position + 1].isspace():
            position += 1
        while not data[position:position + 1].isspace():
            position += 1
        fields += 1
    return position + 1


def recognise_page(page: pymupdf.Page, languages: Sequence[str] | None = None, dpi: int | None = None) -> Recognition:
    """Recognise one page (rendered here, read by Tesseract here): for one-off reads."""
    reader = PageReader(tuple(languages or default_languages()))
    try:
        started = time.perf_counter()
        return reader.read(reader.render(page, dpi), started)
    finally:
        reader.close()
