"""A review as Markdown, HTML or W3C Web Annotation JSON-LD.

Quotes, notes and pinned answers are document text (or were written about it) and so are
hostile: in HTML every character that means something is escaped and the page forbids scripts;
in Markdown every ASCII punctuation mark is backslash-escaped, so no line can start a heading,
a list, a link, an autolink or raw HTML, whatever the quote says.
"""

from __future__ import annotations

import html
import re
import urllib.parse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pdfdesk.review.records import DEFAULT_COLOR, Annotation, now_iso

Section = tuple[str, str, Sequence[Annotation]]  # display name, path or URL, notes in page order
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation mark
_HEX = re.compile(r"#[0-9a-f]{6}")
W3C_CONTEXT = "http://www.w3.org/ns/anno.jsonld"
_STYLE = ("<style>body{font-family:sans-serif;max-width:50em;margin:auto}"
          ".note{border-left:6px solid;padding:.3em .8em;margin:.8em 0}"
          "blockquote{margin:0;font-style:italic}.meta{color:#666;font-size:.85em}</style>")
RFC3778 = "http://tools.ietf.org/rfc/rfc3778"


def page_link(path: str, page: int) -> str | None:
    """`file:///abs/path#page=N` for a local file (or the URL with #page=N); None when neither."""
    if path.startswith(("http://", "https://")):
        return urllib.parse.quote(path.split("#", 1)[0], safe=":/?&=%@+,;~") + f"#page={page}"
    if path and Path(path).is_absolute():
        return Path(path).as_uri() + f"#page={page}"
    return None


def _answer_lines(answer: dict[str, Any]) -> list[tuple[str, str]]:
    """(label, text) pairs of a pinned answer, citations as "file p. N"."""
    lines = [("Question", str(answer.get("question", ""))), ("Answer", str(answer.get("text", "")))]
    cites = [f"{c.get('file', '')} p. {c.get('page', '')}" for c in answer.get("citations", ()) or ()
             if isinstance(c, dict)]
    if cites:
        lines.append(("Citations", "; ".join(cites)))
    return lines


def _status_words(ann: Annotation) -> str:
    return {"moved": "moved (found on another page in this version)",
            "orphaned": "orphaned (the quoted text is not in this version)"}.get(ann.status, ann.status)


# -- Markdown -------------------------------------------------------------------------------------
def md_text(text: str) -> list[str]:
    """`text` as inert Markdown lines: punctuation escaped, leading blanks dropped."""
    return [_PUNCTUATION.sub(r"\\\1", line.strip()) for line in str(text).splitlines() if line.strip()]


def _md_block(label: str, text: str, quote: bool = False) -> list[str]:
    lines = md_text(text)
    if not lines:
        return []
    if quote:  # the blank line ends the quote: a following line would otherwise continue it
        return [*("  > " + line for line in lines), ""]
    return [f"  *{label}:* {lines[0]}", *("  " + line for line in lines[1:]), ""]


def markdown(sections: Sequence[Section], title: str) -> str:
    """Grouped by document then page; every piece of outside text goes through md_text."""
    out = [f"# {md_text(title)[0] if md_text(title) else 'Review'}", "",
           f"Exported by pdfdesk on {_today()}.", ""]
    for name, path, notes in sections:
        out += [f"## {' '.join(md_text(name)) or 'Document'}", ""]
        if not notes:
            out += ["No notes.", ""]
        page = None
        for ann in notes:
            if ann.page != page:
                page = ann.page
                link = page_link(path, page)
                out += [f"### [Page {page}](<{link}>)" if link else f"### Page {page}", ""]
            out += [f"- **{ann.kind}** · {ann.source} · {ann.color}", ""]
            out += _md_block("Quote", ann.quote, quote=True)
            out += _md_block("Note", ann.note)
            if ann.tags:
                out += _md_block("Tags", ", ".join(ann.tags))
            if ann.status != "anchored":
                out += _md_block("Status", _status_words(ann))
            if ann.answer:
                for label, text in _answer_lines(ann.answer):
                    out += _md_block(label, text)
    return "\n".join(out) + "\n"


# -- HTML -----------------------------------------------------------------------------------------
def _h(text: object) -> str:
    return html.escape(str(text), quote=True)


def _h_lines(text: str) -> str:
    return "<br>".join(_h(line) for line in str(text).splitlines())


def _colour(value: str) -> str:
    return value if _HEX.fullmatch(value or "") else DEFAULT_COLOR


def html_page(sections: Sequence[Section], title: str) -> str:
    """A self-contained page that runs nothing: escaped text under a script-forbidding policy."""
    out = ["<!DOCTYPE html>", '<html><head><meta charset="utf-8">',
           "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">",
           f"<title>{_h(title)}</title>",
           _STYLE,
           "</head><body>", f"<h1>{_h(title)}</h1>", f"<p class=\"meta\">Exported by pdfdesk on {_today()}.</p>"]
    for name, path, notes in sections:
        out.append(f"<section><h2>{_h(name)}</h2>")
        if not notes:
            out.append("<p>No notes.</p>")
        page = None
        for ann in notes:
            if ann.page != page:
                page = ann.page
                link = page_link(path, page)
                out.append(f'<h3><a href="{_h(link)}">Page {page}</a></h3>' if link else f"<h3>Page {page}</h3>")
            out.append(f'<div class="note" style="border-color:{_colour(ann.color)}">')
            out.append(f'<p class="meta">{_h(ann.kind)} · {_h(ann.source)}'
                       + (f" · <strong>{_h(_status_words(ann))}</strong>" if ann.status != "anchored" else "")
                       + "</p>")
            if ann.quote:
                out.append(f"<blockquote>{_h_lines(ann.quote)}</blockquote>")
            if ann.note:
                out.append(f"<p>{_h_lines(ann.note)}</p>")
            if ann.tags:
                out.append('<p class="meta">Tags: ' + ", ".join(_h(t) for t in ann.tags) + "</p>")
            if ann.answer:
                out += [f"<p><em>{_h(label)}:</em> {_h_lines(text)}</p>" for label, text in _answer_lines(ann.answer)]
            out.append("</div>")
        out.append("</section>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


# -- W3C Web Annotation ---------------------------------------------------------------------------
def _selectors(ann: Annotation) -> list[dict[str, Any]]:
    selectors: list[dict[str, Any]] = []
    if ann.quote:
        selectors.append({"type": "TextQuoteSelector", "exact": ann.quote, "prefix": ann.prefix,
                          "suffix": ann.suffix})
        if ann.start is not None:
            selectors.append({"type": "TextPositionSelector", "start": ann.start,
                              "end": ann.start + len(ann.quote)})
    value = f"page={ann.page}"
    if ann.rects:
        x0 = min(r[0] for r in ann.rects)
        y0 = min(r[1] for r in ann.rects)
        x1 = max(r[2] for r in ann.rects)
        y1 = max(r[3] for r in ann.rects)
        value += f"&viewrect={x0:.2f},{y0:.2f},{x1 - x0:.2f},{y1 - y0:.2f}"
    selectors.append({"type": "FragmentSelector", "conformsTo": RFC3778, "value": value})
    return selectors


def w3c_item(ann: Annotation, path: str) -> dict[str, Any]:
    """One Web Annotation: the note and tags as bodies, the quote and page as the target."""
    bodies: list[dict[str, Any]] = []
    if ann.note:
        bodies.append({"type": "TextualBody", "value": ann.note, "format": "text/plain", "purpose": "commenting"})
    bodies += [{"type": "TextualBody", "value": tag, "purpose": "tagging"} for tag in ann.tags]
    if ann.answer:
        text = "\n".join(f"{label}: {value}" for label, value in _answer_lines(ann.answer))
        bodies.append({"type": "TextualBody", "value": text, "format": "text/plain", "purpose": "describing"})
    source = page_link(path, ann.page)
    item: dict[str, Any] = {
        "id": f"urn:pdfdesk:annotation:{ann.id}", "type": "Annotation",
        "motivation": "highlighting" if ann.quote and not ann.note else "commenting",
        "created": ann.created, "modified": ann.updated,
        "target": {"source": source.split("#", 1)[0] if source else path, "selector": _selectors(ann)},
    }
    if bodies:
        item["body"] = bodies
    return item


def w3c_collection(sections: Sequence[Section], title: str) -> dict[str, Any]:
    """An AnnotationCollection with its single page embedded as `first`, as the model defines."""
    items = [w3c_item(ann, path) for _, path, notes in sections for ann in notes]
    return {"@context": W3C_CONTEXT, "type": "AnnotationCollection", "label": title,
            "total": len(items), "generator": {"type": "Software", "name": "pdfdesk"},
            "generated": now_iso(), "first": {"type": "AnnotationPage", "startIndex": 0, "items": items}}


def _today() -> str:
    return now_iso()[:10]
