"""The settings dialog's editors, built from the config schema: one per key, by its kind.

Each editor remembers the value it showed at first, so saving writes only what the user changed
and the rest of config.toml (values, comments, layout) stays exactly as the user wrote it.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QHBoxLayout, QLineEdit, QListWidget, QPushButton, QSpinBox,
    QVBoxLayout, QWidget,
)

from pdfdesk.core.config import Config, Setting
from pdfdesk.gui.config_file import DELETE

UNCHANGED = object()  # a field the user did not touch: nothing to write
MODEL_SUGGESTIONS = ("", "anthropic/claude-sonnet-4-5", "openai/gpt-4.1-mini", "openai/gpt-4o-mini",
                     "google/gemini-2.5-flash", "ollama/llama3.1", "lmstudio/local-model")
PLACEHOLDERS = {
    "agent_model": "automatic: the first provider with a key, else offline",
    "pdf_model": "automatic",
    "image_model": "none",
    "embedding_model_path": "optional: a local model folder (no download)",
}
_SUFFIXES = {"MB": " MB", "seconds": " s"}


class SettingField:
    """The editor of one schema key. `widget` goes into the form; `editor` is the input itself
    (for a model chain, the primary model; `fallbacks` holds the rest)."""

    def __init__(self, setting: Setting, config: Config, parent: QWidget) -> None:
        self.setting = setting
        self.fallbacks: QLineEdit | None = None
        self.widget: QWidget
        self.editor: Any
        value = getattr(config, setting.field)
        build = getattr(self, f"_build_{setting.kind}")
        build(value, config, parent)
        self._initial = self.value()

    @property
    def label(self) -> str:
        """The form label ("" for a check box, which carries its own text)."""
        return "" if self.setting.kind == "flag" else self.setting.description

    # -- building ----------------------------------------------------------------------------
    def _build_flag(self, value: bool, _config: Config, parent: QWidget) -> None:
        self.widget = self.editor = QCheckBox(self.setting.description, parent)
        self.editor.setChecked(bool(value))

    def _build_integer(self, value: int, _config: Config, parent: QWidget) -> None:
        self.widget = self.editor = QSpinBox(parent)
        self.editor.setRange(int(self.setting.low or 0), int(self.setting.high or 0))
        self.editor.setValue(int(value))

    def _build_number(self, value: float, _config: Config, parent: QWidget) -> None:
        self.widget = self.editor = QDoubleSpinBox(parent)
        self.editor.setDecimals(1)
        self.editor.setRange((self.setting.low or 0) + 0.1, float(self.setting.high or 0))  # low is excluded
        self.editor.setSuffix(_SUFFIXES.get(self.setting.unit, f" {self.setting.unit}" if self.setting.unit else ""))
        self.editor.setValue(float(value))

    def _build_text(self, value: str | None, _config: Config, parent: QWidget) -> None:
        self.widget = self.editor = QLineEdit(value or "", parent)
        self.editor.setPlaceholderText(PLACEHOLDERS.get(self.setting.field, ""))

    def _build_folder(self, value: str | None, config: Config, parent: QWidget) -> None:
        self._build_text(value, config, parent)
        line = self.editor
        self.widget = QWidget(parent)
        row = QHBoxLayout(self.widget)
        row.setContentsMargins(0, 0, 0, 0)
        browse = QPushButton("Browse…", self.widget)
        browse.clicked.connect(lambda: self._choose_folder(line, self.setting.description))
        row.addWidget(line, 1)
        row.addWidget(browse)

    def _build_model(self, value: str | None, _config: Config, parent: QWidget) -> None:
        self.widget = self.editor = QComboBox(parent)
        self.editor.setEditable(True)
        self.editor.addItems(list(MODEL_SUGGESTIONS))
        self.editor.setCurrentText(value or "")
        self.editor.lineEdit().setPlaceholderText(PLACEHOLDERS.get(self.setting.field, ""))

    def _build_model_chain(self, value: str | None, config: Config, parent: QWidget) -> None:
        self._build_model(value, config, parent)
        combo = self.editor
        self.fallbacks = QLineEdit(", ".join(config.pdf_model_fallbacks), parent)
        self.fallbacks.setPlaceholderText("fallbacks: provider/model, provider/model …")
        self.widget = QWidget(parent)
        column = QVBoxLayout(self.widget)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(combo)
        column.addWidget(self.fallbacks)

    def _build_folders(self, value: tuple[str, ...], _config: Config, parent: QWidget) -> None:
        self.editor = QListWidget(parent)
        self.editor.addItems(list(value))
        self.widget = QWidget(parent)
        column = QVBoxLayout(self.widget)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.editor)
        buttons = QHBoxLayout()
        add = QPushButton("Add folder…", self.widget)
        add.clicked.connect(self._add_folder)
        remove = QPushButton("Remove", self.widget)
        remove.clicked.connect(lambda: [self.editor.takeItem(self.editor.row(i)) for i in self.editor.selectedItems()])
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        column.addLayout(buttons)

    def _add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self.widget, "Allow files in this folder")
        if folder:
            self.editor.addItem(folder)

    def _choose_folder(self, line: QLineEdit, title: str) -> None:
        folder = QFileDialog.getExistingDirectory(self.widget, title)
        if folder:
            line.setText(folder)

    # -- reading -----------------------------------------------------------------------------
    def value(self) -> Any:
        """What the editor shows now, as the config holds it."""
        kind, editor = self.setting.kind, self.editor
        if kind == "flag":
            return editor.isChecked()
        if kind in ("integer", "number"):
            return editor.value()
        if kind in ("text", "folder"):
            return editor.text().strip()
        if kind == "folders":
            return [editor.item(i).text() for i in range(editor.count())]
        primary = editor.currentText().strip()
        if kind == "model":
            return primary
        assert self.fallbacks is not None
        return primary, [f.strip() for f in self.fallbacks.text().split(",") if f.strip()]

    def change(self, present: bool) -> Any:
        """What to write for this key (`present`: the file has it): UNCHANGED when the user left
        it alone, DELETE to remove it, else the value."""
        value = self.value()
        if value == self._initial:
            return UNCHANGED
        kind = self.setting.kind
        if kind in ("model", "folder"):
            return value or DELETE
        if kind == "model_chain":
            primary, fallbacks = value
            if fallbacks:
                return {"primary": primary or DELETE, "fallbacks": fallbacks}
            return primary or DELETE
        if kind == "number" and float(value).is_integer():
            value = int(value)  # written as the user would: 250, not 250.0
        return value if present or value != self.setting.default else DELETE
