"""Keep the viewer's resident memory close to what its caches hold.

Page images are megabytes each and come and go constantly. glibc's malloc raises its mmap
threshold after the first such buffer is freed, so later ones are carved from the heap, and memory
freed by the cache's evictions stays resident (measured: ~150 MB more after scrolling a
1,000-page document). A fixed threshold sends every buffer of 1 MiB or more to its own mapping,
which goes back to the system the moment the image is dropped.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

M_MMAP_THRESHOLD = -3  # from glibc's malloc.h
LARGE_BUFFER_BYTES = 1 << 20

_done = False


def return_large_buffers_to_the_system() -> bool:
    """Apply the fixed mmap threshold once (Linux with glibc only); True when it is in force."""
    global _done
    if _done:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        _done = bool(libc.mallopt(M_MMAP_THRESHOLD, LARGE_BUFFER_BYTES))
    except (OSError, AttributeError):  # musl or another libc without mallopt
        _done = False
    return _done


_frozen = False


def settle_long_lived_objects() -> None:
    """Move every object alive now (modules, classes, the window being built) out of the cyclic
    GC's reach, once. Full collections otherwise walk all of them: measured 40-80 ms with Qt and
    pdfdesk loaded, long enough to drop frames while scrolling. Objects made later are collected
    as usual."""
    global _frozen
    if not _frozen:
        import gc

        gc.collect()
        gc.freeze()
        _frozen = True
