"""Build the app icons from resources/pdfdesk.svg (hicolor PNGs, a Windows .ico and a macOS .icns)
and draw the action icons the window falls back to when the desktop's icon theme lacks one.

Run: python scripts/make_icons.py [actions]   (the committed icons are this script's output)
ICO and ICNS both accept embedded PNG images, so no imaging library beyond PyMuPDF is needed.
The action icons (resources/icons/actions/*.svg) are drawn here, by hand, on one 24-unit grid with
one stroke width, so they look like one set; they are part of pdfdesk and share its licence
(AGPL-3.0-or-later). Lines use `currentColor`, which the window replaces with its palette's text
colour, so the same files suit light and dark themes; the blue and yellow accents read on both.
"""

from __future__ import annotations

import math
import struct
import sys
from pathlib import Path

import pymupdf

RESOURCES = Path(__file__).resolve().parents[1] / "resources"
PNG_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)
ICNS_TYPES = {b"icp4": 16, b"icp5": 32, b"icp6": 64, b"ic07": 128, b"ic08": 256, b"ic09": 512}


def render(size: int) -> bytes:
    with pymupdf.open(RESOURCES / "pdfdesk.svg") as doc:
        page = doc[0]
        matrix = pymupdf.Matrix(size / page.rect.width, size / page.rect.height)
        return page.get_pixmap(matrix=matrix, alpha=True).tobytes("png")


def ico(images: dict[int, bytes]) -> bytes:
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = 6 + 16 * len(images)
    entries, blobs = b"", b""
    for size, png in images.items():
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), offset + len(blobs))
        blobs += png
    return header + entries + blobs


def icns(images: dict[bytes, bytes]) -> bytes:
    body = b"".join(kind + struct.pack(">I", 8 + len(png)) + png for kind, png in images.items())
    return b"icns" + struct.pack(">I", 8 + len(body)) + body


ACCENT = "#3584e4"
MARKER = "#f5c211"
STROKE = ('fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" '
          'stroke-linejoin="round"')
LENS = '<circle cx="10" cy="10" r="6"/><path d="M14.5 14.5L20 20"/>'


def gear() -> str:
    """Eight teeth around a ring, computed rather than traced."""
    points = []
    for tooth in range(8):
        for offset, radius in ((-0.22, 7.0), (-0.12, 9.5), (0.12, 9.5), (0.22, 7.0)):
            angle = (tooth / 8 + offset / 8 * 2) * 2 * math.pi
            points.append(f"{12 + radius * math.cos(angle):.2f} {12 + radius * math.sin(angle):.2f}")
    return f'<path d="M{" L".join(points)}z"/><circle cx="12" cy="12" r="3"/>'


# name: SVG elements on the 24 x 24 grid, stroked with STROKE unless they set their own paint
ACTION_ICONS: dict[str, str] = {
    "document-open": f'<path d="M3 19V6h6l2 2h8v3"/><path d="M3 19l3-8h16l-3 8z" fill="{ACCENT}" fill-opacity="0.35"/>',
    "folder-open": f'<path d="M3 19V6h6l2 2h10v11z"/><path d="M8 12h8M8 15.5h8" stroke="{ACCENT}"/>',
    "window-close": '<rect x="4" y="4" width="16" height="16" rx="3"/><path d="M9 9l6 6M15 9l-6 6"/>',
    "application-exit": f'<path d="M13 4H5v16h8"/><path d="M10 12h10M16.5 8.5L20 12l-3.5 3.5" stroke="{ACCENT}"/>',
    "preferences-system": gear(),
    "go-previous": '<path d="M19 12H5M11 6l-6 6 6 6"/>',
    "go-next": '<path d="M5 12h14M13 6l6 6-6 6"/>',
    "go-jump": (f'<rect x="5" y="3" width="14" height="18" rx="1.5"/><path d="M8.5 12h7M13 9l3 3-3 3" '
                f'stroke="{ACCENT}"/>'),
    "zoom-in": LENS + '<path d="M7.5 10h5M10 7.5v5"/>',
    "zoom-out": LENS + '<path d="M7.5 10h5"/>',
    "zoom-fit-width": (f'<path d="M4 4v16M20 4v16"/><path d="M7 12h10M10 9l-3 3 3 3M14 9l3 3-3 3" '
                       f'stroke="{ACCENT}"/>'),
    "zoom-fit-best": (f'<path d="M4 9V4h5M15 4h5v5M20 15v5h-5M9 20H4v-5"/>'
                      f'<rect x="8.5" y="8.5" width="7" height="7" rx="1" stroke="{ACCENT}"/>'),
    "view-fullscreen": '<path d="M4 9V4h5M4 4l5 5M15 4h5v5M20 4l-5 5M20 15v5h-5M20 20l-5-5M9 20H4v-5M4 20l5-5"/>',
    "edit-find": f'<circle cx="10" cy="10" r="6" fill="{ACCENT}" fill-opacity="0.25"/><path d="M14.5 14.5L20 20"/>',
    "system-search": (f'<path d="M4 17V3h9l3 3v3"/><circle cx="13" cy="14" r="4.5" fill="{ACCENT}" '
                      f'fill-opacity="0.25"/><path d="M16.3 17.3L20.5 21.5"/>'),
    "pdfdesk-ask": (f'<path d="M4 5h16v11h-9l-5 4v-4H4z" fill="{ACCENT}" fill-opacity="0.25"/>'
                    '<path d="M9.5 9a2.5 2.5 0 1 1 3.2 2.4c-.5.2-.7.6-.7 1.1"/><circle cx="12" cy="14.6" r=".4"/>'),
    "help-about": '<circle cx="12" cy="12" r="9"/><path d="M12 11v6"/><circle cx="12" cy="7.5" r=".5"/>',
    "draw-highlight": (f'<path d="M3 21h18" stroke="{MARKER}" stroke-width="3"/>'
                       '<path d="M14 4l5 5-7 7H7v-5z M7 16l-2 2"/>'),
    "document-edit": (f'<path d="M5 4h14v10l-5 6H5z" fill="{MARKER}" fill-opacity="0.45"/>'
                      '<path d="M14 20v-6h5M8 8h8M8 11h5"/>'),
    "draw-rectangle": (f'<rect x="5" y="6" width="14" height="12" stroke-dasharray="2.5 2.5" stroke="{ACCENT}"/>'
                       '<rect x="3" y="4" width="4" height="4" rx=".5"/><rect x="17" y="16" width="4" height="4" rx=".5"/>'),
    "document-export": f'<path d="M13 3H5v18h12v-5M13 3l4 4v2"/><path d="M10 13h11M18 10l3 3-3 3" stroke="{ACCENT}"/>',
    "view-pim-notes": (f'<path d="M10 7h10M10 12h10M10 17h10"/><g fill="{MARKER}" stroke="none">'
                       '<circle cx="5" cy="7" r="1.6"/><circle cx="5" cy="12" r="1.6"/><circle cx="5" cy="17" r="1.6"/></g>'),
    "view-sidebar": f'<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M9 4v16" stroke="{ACCENT}"/>',
    "edit-undo": '<path d="M9 4L4 9l5 5"/><path d="M4 9h10a5.5 5.5 0 0 1 0 11h-4"/>',
    "edit-redo": '<path d="M15 4l5 5-5 5"/><path d="M20 9H10a5.5 5.5 0 0 0 0 11h4"/>',
}


def action_svg(body: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24" viewBox="0 0 24 24">'
            f'<g {STROKE}>{body}</g></svg>\n')


def write_action_icons() -> None:
    folder = RESOURCES / "icons" / "actions"
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("*.svg"):
        stale.unlink()
    for name, body in ACTION_ICONS.items():
        (folder / f"{name}.svg").write_text(action_svg(body), encoding="utf-8")


def main(which: str = "all") -> None:
    """`actions`: only the action icons (the app icons' PNGs depend on the PyMuPDF version)."""
    write_action_icons()
    if which == "actions":
        return
    pngs = {size: render(size) for size in PNG_SIZES}
    (RESOURCES / "icons").mkdir(exist_ok=True)
    for size, png in pngs.items():
        (RESOURCES / "icons" / f"pdfdesk-{size}.png").write_bytes(png)
    (RESOURCES / "pdfdesk.ico").write_bytes(ico({size: pngs[size] for size in ICO_SIZES}))
    (RESOURCES / "pdfdesk.icns").write_bytes(icns({kind: pngs[size] for kind, size in ICNS_TYPES.items()}))


if __name__ == "__main__":
    main(*sys.argv[1:2])
