"""Build the app icons from resources/pdfdesk.svg: hicolor PNGs, a Windows .ico and a macOS .icns.

Run: python scripts/make_icons.py   (the committed icons are this script's output)
ICO and ICNS both accept embedded PNG images, so no imaging library beyond PyMuPDF is needed.
"""

from __future__ import annotations

import struct
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


def main() -> None:
    pngs = {size: render(size) for size in PNG_SIZES}
    (RESOURCES / "icons").mkdir(exist_ok=True)
    for size, png in pngs.items():
        (RESOURCES / "icons" / f"pdfdesk-{size}.png").write_bytes(png)
    (RESOURCES / "pdfdesk.ico").write_bytes(ico({size: pngs[size] for size in ICO_SIZES}))
    (RESOURCES / "pdfdesk.icns").write_bytes(icns({kind: pngs[size] for kind, size in ICNS_TYPES.items()}))


if __name__ == "__main__":
    main()
