"""The document outline (bookmarks), walked without recursion and within set limits.

MuPDF's outline loader and PyMuPDF's get_toc recurse once per level: a thousand nested entries
raise RecursionError, a hundred thousand overflow the C stack and kill the process, and a /Next
or /First that points back at an earlier entry is a loop. So pdfdesk never asks them for an
outline. `read_outline` follows /First and /Next itself with an explicit stack, stops descending at
`MAX_DEPTH` levels, stops counting at `MAX_ENTRIES` entries, and never reads an entry twice (a
link back to one already read ends that chain); whichever of these cut the walk short is named in
`Outline.cut`, so a caller can say the outline is incomplete.

Each entry carries what callers used from get_toc(simple=False): level, title, target page, the
top of the destination on that page, and the URI of a web link. Destinations are resolved as
MuPDF resolves them: an explicit array through its page's transform (so y is in page coordinates,
top down, rotation included), a name or string through the catalog's /Dests and the /Names /Dests
tree. That tree is read iteratively too, with its own limits: hostile name trees nest as deep as
hostile outlines.

PyMuPDF loads the outline with MuPDF's loader every time it opens a document (for
`Document.outline`), so a deep enough outline crashes `pymupdf.open` itself. Importing this module
(core.documents does, before it opens anything) defers that load to the first use of
`Document.outline` or `get_toc`, and lets MuPDF load only an outline this walker read whole.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import pymupdf
from pymupdf import mupdf

MAX_DEPTH = 64            # outline levels read; no real document comes near it
MAX_ENTRIES = 100_000     # entries counted; beyond that an outline is hostile or a generated index
MAX_NAMES = 500_000       # named destinations read from the catalog
MAX_NAME_TREE_DEPTH = 64  # levels of the /Names /Dests tree followed
MAX_NAME_TREE_NODES = 100_000

_TOP_ARGUMENT = {"XYZ": 3, "FitH": 2, "FitBH": 2, "FitR": 5}  # [page /View ...]: where the top sits


@dataclass(frozen=True)
class OutlineEntry:
    level: int
    title: str
    page: int | None     # 1-based; None when the entry points nowhere in this document
    y: float | None      # top of the destination in page coordinates, when the destination gives one
    uri: str | None = None  # the target of a link out of the document (a /URI action)


@dataclass
class Outline:
    entries: list[OutlineEntry] = field(default_factory=list)  # the first `limit` entries, in reading order
    total: int = 0          # entries seen, up to MAX_ENTRIES
    cut: str | None = None  # why the walk left entries out, as a sentence; None when it read them all


def _name(key: str) -> mupdf.PdfObj:
    return mupdf.pdf_new_name(key)


_FIRST, _NEXT, _TITLE = _name("First"), _name("Next"), _name("Title")
_DEST, _ACTION, _D, _S = _name("Dest"), _name("A"), _name("D"), _name("S")
_URI, _N, _NAMES, _DESTS, _KIDS = _name("URI"), _name("N"), _name("Names"), _name("Dests"), _name("Kids")
_ROOT, _OUTLINES = _name("Root"), _name("Outlines")


def _exists(obj: mupdf.PdfObj) -> bool:
    return obj.m_internal is not None and not mupdf.pdf_is_null(obj)


class _Destinations:
    """Resolves destinations for one walk, remembering pages and the named-destination table."""

    def __init__(self, doc: pymupdf.Document, pdf: mupdf.PdfDocument) -> None:
        self.doc = doc
        self.pdf = pdf
        self.pages: dict[int, tuple[int | None, mupdf.FzMatrix | None]] = {}
        self.named: dict[str, mupdf.PdfObj] | None = None
        self.names_cut = False

    def of(self, item: mupdf.PdfObj) -> tuple[int | None, float | None, str | None]:
        """Target page (1-based), top and URI of an outline item."""
        dest = mupdf.pdf_dict_get(item, _DEST)
        if not _exists(dest):
            action = mupdf.pdf_dict_get(item, _ACTION)
            if not mupdf.pdf_is_dict(action):
                return None, None, None
            kind = mupdf.pdf_to_name(mupdf.pdf_dict_get(action, _S))
            if kind == "URI":
                uri = mupdf.pdf_to_text_string(mupdf.pdf_dict_get(action, _URI))
                return None, None, uri or None
            if kind == "Named":
                which = mupdf.pdf_to_name(mupdf.pdf_dict_get(action, _N))
                page = {"FirstPage": 1, "LastPage": self.doc.page_count}.get(which)
                return page, None, None
            if kind != "GoTo":
                return None, None, None
            dest = mupdf.pdf_dict_get(action, _D)
        return self._explicit(self._lookup(dest))

    def _lookup(self, dest: mupdf.PdfObj) -> mupdf.PdfObj | None:
        """The explicit destination array behind a name or string (or the array itself)."""
        for _ in range(2):  # a named destination may be a dictionary holding the array in /D
            if mupdf.pdf_is_array(dest):
                return dest
            if mupdf.pdf_is_name(dest) or mupdf.pdf_is_string(dest):
                key = mupdf.pdf_to_name(dest) if mupdf.pdf_is_name(dest) else mupdf.pdf_to_text_string(dest)
                dest = self._table().get(key)
                if dest is None:
                    return None
            if mupdf.pdf_is_dict(dest):
                dest = mupdf.pdf_dict_get(dest, _D)
        return dest if mupdf.pdf_is_array(dest) else None

    def _explicit(self, dest: mupdf.PdfObj | None) -> tuple[int | None, float | None, None]:
        if dest is None or mupdf.pdf_array_len(dest) < 1:
            return None, None, None
        page, ctm = self._page(mupdf.pdf_array_get(dest, 0))
        if page is None:
            return None, None, None
        view = mupdf.pdf_to_name(mupdf.pdf_array_get(dest, 1))
        at = _TOP_ARGUMENT.get(view)
        if at is None or ctm is None:
            return page, None, None
        top = mupdf.pdf_array_get(dest, at)
        if not mupdf.pdf_is_number(top):
            return page, None, None
        left = mupdf.pdf_array_get(dest, 2) if view in ("XYZ", "FitR") else None
        x = mupdf.pdf_to_real(left) if left is not None and mupdf.pdf_is_number(left) else 0.0
        point = mupdf.fz_transform_point(mupdf.FzPoint(x, mupdf.pdf_to_real(top)), ctm)
        return page, (point.y if math.isfinite(point.y) else None), None

    def _page(self, target: mupdf.PdfObj) -> tuple[int | None, mupdf.FzMatrix | None]:
        """A destination's page (an object, or an index as some producers write) and its transform."""
        if mupdf.pdf_is_int(target) and not mupdf.pdf_is_indirect(target):
            index = mupdf.pdf_to_int(target)
            if not 0 <= index < self.doc.page_count:
                return None, None
            target = mupdf.pdf_lookup_page_obj(self.pdf, index)
        key = mupdf.pdf_to_num(target)
        if key in self.pages:
            return self.pages[key]
        found: tuple[int | None, mupdf.FzMatrix | None] = (None, None)
        if mupdf.pdf_is_dict(target):
            try:
                index = mupdf.pdf_lookup_page_number(self.pdf, target)
                if 0 <= index < self.doc.page_count:
                    box, ctm = mupdf.FzRect(), mupdf.FzMatrix()
                    mupdf.pdf_page_obj_transform(target, box, ctm)
                    found = (index + 1, ctm)
            except mupdf.FzErrorBase:
                found = (None, None)
        if key:
            self.pages[key] = found
        return found

    def _table(self) -> dict[str, mupdf.PdfObj]:
        """Every named destination: the catalog's /Dests dictionary, then the /Names /Dests tree
        (its first definition of a name wins, as a lookup from the left would find it)."""
        if self.named is not None:
            return self.named
        self.named = {}
        root = mupdf.pdf_dict_get(mupdf.pdf_trailer(self.pdf), _ROOT)
        old = mupdf.pdf_dict_get(root, _DESTS)
        if mupdf.pdf_is_dict(old):
            for i in range(min(mupdf.pdf_dict_len(old), MAX_NAMES)):
                self.named.setdefault(mupdf.pdf_to_name(mupdf.pdf_dict_get_key(old, i)), mupdf.pdf_dict_get_val(old, i))
        self._read_tree(mupdf.pdf_dict_get(mupdf.pdf_dict_get(root, _NAMES), _DESTS))
        return self.named

    def _read_tree(self, node: mupdf.PdfObj) -> None:
        assert self.named is not None
        stack = [(node, 0)]
        seen: set[int] = set()
        visited = 0
        while stack and len(self.named) < MAX_NAMES:
            node, depth = stack.pop()
            number = mupdf.pdf_to_num(node)
            if not mupdf.pdf_is_dict(node) or (number and number in seen) or visited >= MAX_NAME_TREE_NODES:
                continue
            seen.add(number)
            visited += 1
            pairs = mupdf.pdf_dict_get(node, _NAMES)
            if mupdf.pdf_is_array(pairs):
                for i in range(0, mupdf.pdf_array_len(pairs) - 1, 2):
                    key = mupdf.pdf_to_text_string(mupdf.pdf_array_get(pairs, i))
                    self.named.setdefault(key, mupdf.pdf_array_get(pairs, i + 1))
            kids = mupdf.pdf_dict_get(node, _KIDS)
            if mupdf.pdf_is_array(kids):
                if depth >= MAX_NAME_TREE_DEPTH:
                    self.names_cut = True
                    continue
                stack.extend((mupdf.pdf_array_get(kids, i), depth + 1)  # leftmost kid read first
                             for i in reversed(range(mupdf.pdf_array_len(kids))))


def read_outline(doc: pymupdf.Document, limit: int = MAX_ENTRIES) -> Outline:
    """The outline's first `limit` entries in reading order (depth first), and how many entries it
    has up to MAX_ENTRIES; entries after the first `limit` are counted, not resolved."""
    outline = Outline()
    pdf = mupdf.pdf_document_from_fz_document(doc.this) if doc.is_pdf else None
    if pdf is None or pdf.m_internal is None:
        return outline
    root = mupdf.pdf_dict_get(mupdf.pdf_trailer(pdf), _ROOT)
    first = mupdf.pdf_dict_get(mupdf.pdf_dict_get(root, _OUTLINES), _FIRST)
    destinations = _Destinations(doc, pdf)
    seen: set[int] = set()
    stack: list[tuple[mupdf.PdfObj, int]] = [(first, 1)]
    too_deep = looped = False
    while stack:
        item, level = stack.pop()
        try:
            if not mupdf.pdf_is_dict(item):
                continue
            number = mupdf.pdf_to_num(item)
            if number:
                if number in seen:
                    looped = True
                    continue
                seen.add(number)
            if outline.total >= MAX_ENTRIES:
                outline.cut = f"the outline has more than {MAX_ENTRIES:,} entries; the rest were not read"
                break
            outline.total += 1
            if len(outline.entries) < limit:
                outline.entries.append(_entry(item, level, destinations))
            stack.append((mupdf.pdf_dict_get(item, _NEXT), level))
            child = mupdf.pdf_dict_get(item, _FIRST)
            if _exists(child):
                if level >= MAX_DEPTH:
                    too_deep = True
                else:
                    stack.append((child, level + 1))
        except mupdf.FzErrorBase:  # an entry MuPDF cannot parse ends its chain; the others stay
            continue
    if outline.cut is None and too_deep:
        outline.cut = f"the outline nests more than {MAX_DEPTH} levels deep; deeper entries were left out"
    elif outline.cut is None and looped:
        outline.cut = "the outline links back to entries already read (a loop); each entry was read once"
    elif outline.cut is None and destinations.names_cut:
        outline.cut = "the named-destination tree nests too deep; some entries may point nowhere"
    return outline


def _entry(item: mupdf.PdfObj, level: int, destinations: _Destinations) -> OutlineEntry:
    title = mupdf.pdf_to_text_string(mupdf.pdf_dict_get(item, _TITLE))
    try:
        page, y, uri = destinations.of(item)
    except mupdf.FzErrorBase:  # a damaged destination leaves the entry, pointing nowhere
        page, y, uri = None, None, None
    return OutlineEntry(level, title, page, y, uri)


_UNCHECKED = "_pdfdesk_outline_unchecked"
_mupdf_load_outline: Callable[[pymupdf.Document], pymupdf.Outline | None] = pymupdf.Document._loadOutline


def _defer_outline(self: pymupdf.Document) -> pymupdf.Outline | None:
    """In place of PyMuPDF's load at open (and after edits): for a PDF nothing yet, checked on
    first use. Other formats load as before (their metadata may need the layout it triggers)."""
    if not self.is_pdf:
        return _mupdf_load_outline(self)
    self.__dict__[_UNCHECKED] = True
    return None


def _checked_outline(self: pymupdf.Document) -> pymupdf.Outline | None:
    """`Document.outline`: MuPDF's outline, loaded only when the walk found no limit cut short."""
    if self.__dict__.pop(_UNCHECKED, False):
        self._outline = None
        if not self.is_closed and read_outline(self, limit=0).cut is None:
            self._outline = _mupdf_load_outline(self)
    return self.__dict__.get("_outline")


pymupdf.Document._loadOutline = _defer_outline  # type: ignore[method-assign]  # replaced on purpose, see above
pymupdf.Document.outline = property(_checked_outline)
