"""Zoom levels, in one place: the steps of Ctrl +/-, the toolbar's choices, the wheel's factor and
the limits. The layout, the keyboard, the actions and the zoom box all read them from here, so a
level added or removed shows up everywhere at once."""

from __future__ import annotations

import math

MIN_ZOOM = 0.25
MAX_ZOOM = 8.0
NATURAL_ZOOM = 1.0  # one PDF point per logical pixel ("100 %", Ctrl+0)
# Ctrl +/- steps through these, the way browsers and pdf.js do; the zoom box offers the same.
ZOOM_STEPS = (0.25, 0.33, 0.5, 0.67, 0.75, 0.8, 0.9, 1.0, 1.1, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0)
WHEEL_STEP = 1.1  # zoom factor per wheel notch with Ctrl

ZOOM_FIT_WIDTH = "fit_width"
ZOOM_FIT_PAGE = "fit_page"
ZOOM_CUSTOM = "custom"
ZOOM_MODES = (ZOOM_FIT_WIDTH, ZOOM_FIT_PAGE, ZOOM_CUSTOM)
MODE_LABELS = {ZOOM_FIT_WIDTH: "Fit width", ZOOM_FIT_PAGE: "Fit page"}


def clamp_zoom(zoom: float) -> float:
    """`zoom` within the limits (a NaN or infinity from a bad input becomes 100 %)."""
    if not math.isfinite(zoom):
        return NATURAL_ZOOM
    return min(MAX_ZOOM, max(MIN_ZOOM, zoom))


def step_zoom(zoom: float, direction: int) -> float:
    """The next zoom step above (direction > 0) or below the current zoom."""
    if direction > 0:
        bigger = [z for z in ZOOM_STEPS if z > zoom * 1.001]
        return bigger[0] if bigger else MAX_ZOOM
    smaller = [z for z in ZOOM_STEPS if z < zoom * 0.999]
    return smaller[-1] if smaller else MIN_ZOOM


def wheel_zoom(zoom: float, notches: float) -> float:
    """Zoom after turning the wheel by `notches` (fractions from touchpads count proportionally)."""
    return clamp_zoom(zoom * WHEEL_STEP ** notches)


def percent(zoom: float) -> str:
    return f"{round(zoom * 100)}%"


def zoom_label(zoom: float, mode: str) -> str:
    """What the zoom box shows: the fit mode's name, else the percentage."""
    return MODE_LABELS.get(mode, percent(zoom))


def zoom_choices() -> list[tuple[str, str | float]]:
    """(label, mode or factor) for the zoom box: the fit modes, then every step."""
    return [(label, mode) for mode, label in MODE_LABELS.items()] + [(percent(z), z) for z in ZOOM_STEPS]


def parse_zoom(text: str) -> float | None:
    """A typed zoom ("150", "150 %", "150%") as a clamped factor; None when it is not a number."""
    try:
        value = float(text.strip().rstrip("%").strip())
    except ValueError:
        return None
    return clamp_zoom(value / 100) if math.isfinite(value) else None
