"""Back/forward history of jumps (search hits, citations, links, go-to-page), like a browser's."""

from __future__ import annotations

from dataclasses import dataclass

MAX_ENTRIES = 200


@dataclass(frozen=True)
class Position:
    """Where the reader was: a page (0-based) and the point of it at the viewport's top-left."""

    page: int
    x_pt: float
    y_pt: float


class NavigationHistory:
    def __init__(self, limit: int = MAX_ENTRIES) -> None:
        self._back: list[Position] = []
        self._forward: list[Position] = []
        self._limit = limit

    @property
    def can_go_back(self) -> bool:
        return bool(self._back)

    @property
    def can_go_forward(self) -> bool:
        return bool(self._forward)

    def record(self, here: Position) -> None:
        """Remember `here` before a jump; a new jump forgets the forward branch."""
        if self._back and _same_place(self._back[-1], here):
            self._forward.clear()
            return
        self._back.append(here)
        del self._back[:-self._limit]
        self._forward.clear()

    def back(self, here: Position) -> Position | None:
        if not self._back:
            return None
        self._forward.append(here)
        return self._back.pop()

    def forward(self, here: Position) -> Position | None:
        if not self._forward:
            return None
        self._back.append(here)
        return self._forward.pop()

    def clear(self) -> None:
        self._back.clear()
        self._forward.clear()


def _same_place(a: Position, b: Position) -> bool:
    return a.page == b.page and abs(a.y_pt - b.y_pt) < 2.0 and abs(a.x_pt - b.x_pt) < 2.0
