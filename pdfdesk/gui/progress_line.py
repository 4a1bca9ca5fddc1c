"""A progress bar whose text always fits, with the long story in a wrapped caption beside it.

A one-line bar draws its text centred and clips it at its edges, so a sentence such as
"Indexing some-long-file-name.pdf: 1500 of 2415 pages (search works meanwhile)" is cut in half
in a narrow dock. The bar therefore shows the longest of a few short forms that fits its width
("1,500 / 2,415 pages", then "1,500 / 2,415", then the percentage), while a word-wrapped label
carries the sentence, with the file name elided in the middle to the label's width. Both are
redone whenever either widget is resized, and the whole sentence stays in the tooltips.
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QLabel, QProgressBar

BAR_MARGIN = 8  # pixels the bar's text keeps clear of its edges (the style's frame and padding)
PERCENT = "%p%"
NAME_SLACK = 4  # pixels kept free beside an elided name (the label's own rounding)


def page_counts(done: int, total: int) -> list[str]:
    """The bar's forms for a page count, longest first (the last always fits in practice)."""
    return [f"{done:,} / {total:,} pages", f"{done:,} / {total:,}", PERCENT]


def text_fits(bar: QProgressBar, text: str, margin: int = BAR_MARGIN) -> bool:
    """Whether `text` drawn in the bar's font stays inside the bar."""
    return QFontMetrics(bar.font()).horizontalAdvance(text) <= bar.width() - margin


def fit_format(bar: QProgressBar, formats: Sequence[str]) -> None:
    """Give the bar the first of `formats` whose rendered text fits; the last one otherwise.
    Formats are tried through the bar itself, so %v/%m/%p expand exactly as they will be drawn."""
    for candidate in formats:
        bar.setFormat(candidate)
        if text_fits(bar, bar.text()):
            return
    if formats:
        bar.setFormat(formats[-1])


def elide_middle(label: QLabel, text: str, beside: str = "") -> str:
    """`text` shortened in the middle to fit one line of the label next to `beside` (the words
    sharing its line), keeping both ends of a file name: its start tells the document apart, its
    end the version or extension. Fitting the whole line keeps the label from breaking the name
    at its hyphens."""
    metrics = QFontMetrics(label.font())
    width = max(label.contentsRect().width() - metrics.horizontalAdvance(beside) - NAME_SLACK, 40)
    return metrics.elidedText(text, Qt.TextElideMode.ElideMiddle, width)


def _name_line_prefix(template: str) -> str:
    """The caption's words before `{name}` on its line."""
    return template.split("{name}", 1)[0].rsplit("\n", 1)[-1]


class ProgressLine(QObject):
    """Drives a bar and its caption label as one: shown, fitted and hidden together.

    The caption is a template with a `{name}` placeholder; the name is elided so that it and the
    words before it on its line fit the label's width (the label never grows wider than its dock
    and never splits the name), and the rest of the sentence word-wraps.
    """

    def __init__(self, bar: QProgressBar, caption: QLabel) -> None:
        super().__init__(bar)
        self.bar, self.caption = bar, caption
        self._formats: list[str] = []
        self._template = ""
        self._name = ""
        caption.setWordWrap(True)
        caption.setTextFormat(Qt.TextFormat.PlainText)
        bar.installEventFilter(self)
        caption.installEventFilter(self)

    def busy(self, short: str, caption: str = "", tooltip: str = "") -> None:
        """An indeterminate bar (work started, size not known yet)."""
        self.bar.setRange(0, 0)
        self._set(done=0, formats=[short, ""], template=caption, name="", tooltip=tooltip or caption or short)

    def report(self, done: int, total: int, formats: Sequence[str], caption: str = "", name: str = "",
               tooltip: str = "") -> None:
        """A determinate bar at `done` of `total`, with the first of `formats` that fits."""
        self.bar.setRange(0, max(total, 1))
        self._set(done=done, formats=list(formats), template=caption, name=name,
                  tooltip=tooltip or caption.replace("{name}", name))

    def hide(self) -> None:
        self.bar.hide()
        self.caption.hide()

    def _set(self, done: int, formats: list[str], template: str, name: str, tooltip: str) -> None:
        self.bar.setValue(done)
        self._formats, self._template, self._name = formats, template, name
        self.bar.setToolTip(tooltip)
        self.caption.setToolTip(tooltip)
        self.caption.setVisible(bool(template))
        self.bar.show()
        self.refit()

    def refit(self) -> None:
        """Choose the bar's form and elide the caption's name for the widgets' current widths."""
        fit_format(self.bar, self._formats)
        if self._template:
            name = elide_middle(self.caption, self._name, _name_line_prefix(self._template)) if self._name else ""
            self.caption.setText(self._template.replace("{name}", name))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.Resize, QEvent.Type.Show) and not self.bar.isHidden():
            self.refit()
        return False
