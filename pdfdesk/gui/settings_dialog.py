"""Settings: models, providers and API keys, limits, file policy, network, semantic search, team.

Every config key has a field built from the schema in `core.config` (settings_fields.py), so a
new key needs no dialog code. Saving merges only the fields the user changed into the file's
document (comments, layout and unknown keys kept), validates the result with `parse_config`
before writing, and shows errors in place. API
keys go to the OS keyring through `pdfdesk.models.keys` and never into a file. Keyring calls can
block (a locked store asks to be unlocked), so they run in a worker.
"""

from __future__ import annotations

from typing import Any, cast

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QTabWidget, QVBoxLayout,
    QWidget,
)

from pdfdesk.core import ocr_languages as ocr
from pdfdesk.core.config import SCHEMA, Config, ConfigError, config_path, set_config
from pdfdesk.core.errors import PdfDeskError
from pdfdesk.gui import config_file, theme, workers
from pdfdesk.gui.config_file import DELETE
from pdfdesk.gui.model_download import ModelDownloadRow
from pdfdesk.gui.settings_fields import UNCHANGED, SettingField
from pdfdesk.gui.team_settings import TeamSettings
from pdfdesk.models.providers import PROVIDERS, cloud_providers
from pdfdesk.models.providers.compatible import OllamaProvider
from pdfdesk.tools.details import ErrorDetails

CLOUD = tuple((name, PROVIDERS[name].display_name) for name in cloud_providers())
DEFAULTS = Config()
# Tabs of schema fields: title and the config sections shown on it ("Providers and keys" is built
# by hand: providers are a table of named servers, and keys live in the keyring, not the file).
TABS = (("Models", ("models",)), ("Limits", ("limits", "agent")), ("Files and network", ("files", "network")),
        ("Search", ("search", "ocr")), ("Team", ("team",)))


def _key_status(providers: list[str]) -> dict[str, str | None]:
    """Worker: where each provider's key comes from (None when there is none)."""
    from pdfdesk.models.keys import key_source

    return {provider: key_source(provider) for provider in providers}


def _store_keys(keys: dict[str, str | None]) -> None:
    """Worker: write (or with None delete) keys in the keyring."""
    from pdfdesk.models.keys import set_api_key

    for provider, key in keys.items():
        set_api_key(provider, key)


class SettingsDialog(QDialog):
    """Open with `open()`; emits `saved(Config)` after config.toml and the keys were written."""

    saved = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("pdfdesk settings")
        self.setObjectName("settingsDialog")
        self.resize(620, 520)
        self._raw: dict[str, Any] = {}
        self._load_error: str | None = None
        try:
            self._raw = config_file.read_raw()
        except ConfigError as exc:
            self._load_error = str(exc)
        self._config = self._current_config()
        self.fields: dict[tuple[str, str], SettingField] = {}
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget(self)
        for title, sections in TABS:
            self.tabs.addTab(self._schema_tab(sections), title)
        self.tabs.insertTab(1, self._providers_tab(), "Providers and keys")
        self._add_tab_extras()
        layout.addWidget(self.tabs, 1)
        self.error = QLabel(self)
        self.error.setObjectName("settingsError")
        self.error.setWordWrap(True)
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.error.setStyleSheet(f"color: {theme.colors()['error']};")
        self.error.setVisible(bool(self._load_error))
        if self._load_error:
            self.error.setText(f"config.toml could not be read ({self._load_error}); saving replaces it.")
        layout.addWidget(self.error)
        note = QLabel(f"Saved to {config_path()}. API keys and the team password are kept in the system keyring, "
                      "never in files.", self)
        note.setWordWrap(True)
        note.setStyleSheet(f"color: {theme.colors()['muted']};")
        layout.addWidget(note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel,
                                        self)
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout.addWidget(self.buttons)
        workers.submit(_key_status, [p for p, _ in CLOUD] + ["compatible"], owner=self, on_done=self._show_key_status,
                       on_error=lambda _d: None)

    def _current_config(self) -> Config:
        try:
            return config_file.validate(self._raw)
        except ConfigError:
            return DEFAULTS

    # -- tabs --------------------------------------------------------------------------------
    def _schema_tab(self, sections: tuple[str, ...]) -> QWidget:
        """A form with a field for every schema key of `sections`, in schema order. Each editor is
        also an attribute named like its Config field (`self.max_file_mb`)."""
        page = QWidget(self)
        form = QFormLayout(page)
        for setting in SCHEMA:
            if setting.section not in sections:
                continue
            field = SettingField(setting, self._config, page)
            self.fields[(setting.section, setting.key)] = field
            setattr(self, setting.field, field.editor)
            if field.fallbacks is not None:
                self.pdf_fallbacks = field.fallbacks
            if field.label:
                form.addRow(field.label, field.widget)
            else:
                form.addRow(field.widget)
        return page

    def _add_tab_extras(self) -> None:
        """What is not a config key: the models' help and the embedding model's download row."""
        # the fields sit in the form layouts of the dialog's tabs
        models = cast(QWidget, self.fields[("models", "agent")].widget.parentWidget())
        help_text = QLabel("Models are named provider/model, e.g. openai/gpt-4.1-mini or ollama/llama3.1. "
                           "Leave the chat model empty to use the first provider that has a key; with no key "
                           "at all, the offline answerer quotes passages from the documents.", models)
        help_text.setWordWrap(True)
        cast(QFormLayout, models.layout()).addRow(help_text)
        embedding = self.fields[("search", "embeddingModel")]
        search = cast(QWidget, embedding.widget.parentWidget())
        self.model_download = ModelDownloadRow(embedding.editor.text, search)
        self.finished.connect(lambda _result: self.model_download.cancel())
        form = cast(QFormLayout, search.layout())
        row, _role = cast(tuple[int, QFormLayout.ItemRole], form.getWidgetPosition(embedding.widget))
        form.insertRow(row + 1, "", self.model_download)
        self._add_ocr_languages_note(form)
        team = self.fields[("team", "database")].widget
        self.team = TeamSettings(cast(QLineEdit, team), cast(QFormLayout, cast(QWidget, team.parentWidget()).layout()),
                                 self)

    def _add_ocr_languages_note(self, form: QFormLayout) -> None:
        """Below the OCR languages: what Tesseract has here, what the default is, and what to
        install for a language set but missing, kept up to date as the field is typed in."""
        languages = self.fields[("ocr", "languages")]
        self.ocr_languages_note = QLabel(form.parentWidget())
        self.ocr_languages_note.setWordWrap(True)
        editor = cast(QLineEdit, languages.editor)
        editor.setPlaceholderText("+".join(ocr.default_languages()) + " (the system language and English)")

        def describe() -> None:
            installed = sorted(ocr.installed_languages())
            if not installed:
                self.ocr_languages_note.setText("Tesseract is not installed, so scanned pages are not recognised "
                                                "(Debian/Ubuntu: apt install tesseract-ocr).")
                return
            _have, missing = ocr.usable_languages(ocr.parse_languages(editor.text()))
            self.ocr_languages_note.setText((missing + ". " if missing else "")
                                            + "Installed: " + ", ".join(installed) + ".")

        editor.textChanged.connect(describe)
        describe()
        row, _role = cast(tuple[int, QFormLayout.ItemRole], form.getWidgetPosition(languages.widget))
        form.insertRow(row + 1, "", self.ocr_languages_note)

    def _providers_tab(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout(page)
        providers = self._config.providers
        self.key_fields: dict[str, QLineEdit] = {}
        self.key_status: dict[str, QLabel] = {}
        self.key_clear: dict[str, QCheckBox] = {}
        self.base_urls: dict[str, QLineEdit] = {}
        for provider, label in CLOUD:
            form.addRow(QLabel(f"<b>{label}</b>", page))
            form.addRow("API key", self._key_row(provider, page))
            url = QLineEdit(getattr(providers.get(provider), "base_url", None) or "", page)
            url.setPlaceholderText("default endpoint")
            self.base_urls[provider] = url
            form.addRow("Base URL", url)
        form.addRow(QLabel("<b>Local or other OpenAI-compatible server</b>", page))
        custom = next(((name, p) for name, p in providers.items() if name not in dict(CLOUD)), (None, None))
        self.custom_name = QLineEdit(custom[0] or "", page)
        self.custom_name.setPlaceholderText("name, e.g. ollama, lmstudio, vllm or my-server")
        self.custom_url = QLineEdit(getattr(custom[1], "base_url", None) or "", page)
        self.custom_url.setPlaceholderText(OllamaProvider.default_base_url or "")
        form.addRow("Name", self.custom_name)
        form.addRow("Base URL", self.custom_url)
        form.addRow("API key", self._key_row("compatible", page))
        return page

    def _key_row(self, provider: str, parent: QWidget) -> QWidget:
        row = QWidget(parent)
        layout = QHBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 0)
        field = QLineEdit(row)
        field.setEchoMode(QLineEdit.EchoMode.Password)
        field.setPlaceholderText("checking the keyring…")
        field.setObjectName(f"key_{provider}")
        status = QLabel(row)
        clear = QCheckBox("Remove", row)
        clear.setToolTip("Delete the stored key from the keyring")
        clear.hide()
        layout.addWidget(field, 1)
        layout.addWidget(status)
        layout.addWidget(clear)
        self.key_fields[provider], self.key_status[provider], self.key_clear[provider] = field, status, clear
        return row

    def _show_key_status(self, sources: dict[str, str | None]) -> None:
        for provider, source in sources.items():
            field, status, clear = self.key_fields[provider], self.key_status[provider], self.key_clear[provider]
            if source is None:
                field.setPlaceholderText("not set")
                status.setText("")
            elif source.startswith("env:"):
                field.setPlaceholderText("from the environment")
                status.setText(f"set by {source[4:]}")
            else:
                field.setPlaceholderText("stored in the keyring (type to replace)")
                status.setText("✓ stored")
                clear.show()

    # -- saving ------------------------------------------------------------------------------
    def changes(self) -> dict[str, Any]:
        """The edits as nested changes for `config_file.merge`: only the fields the user changed."""
        providers: dict[str, Any] = {}
        for provider, _label in CLOUD:
            url = self.base_urls[provider].text().strip()
            providers[provider] = {"baseUrl": url or DELETE}
        name = self.custom_name.text().strip().lower()
        if name:
            providers[name] = {"baseUrl": self.custom_url.text().strip() or DELETE}
        changes: dict[str, Any] = {"providers": providers}
        for (section, key), field in self.fields.items():
            change = field.change(present=key in (self._raw.get(section) or {}))
            if change is not UNCHANGED:
                changes.setdefault(section, {})[key] = change
        return changes

    def key_changes(self) -> dict[str, str | None]:
        """Typed keys to store, and keys ticked for removal (None)."""
        keys: dict[str, str | None] = {}
        for provider, field in self.key_fields.items():
            target = provider
            if provider == "compatible":
                target = self.custom_name.text().strip().lower()
                if not target:
                    continue
            if field.text().strip():
                keys[target] = field.text().strip()
            elif self.key_clear[provider].isChecked():
                keys[target] = None
        return keys

    def save(self) -> None:
        """Validate; on success write config.toml and the keys (in a worker), then close."""
        if self.fields[("files", "workspaceOnly")].value() and not self.fields[("files", "roots")].value():
            self._show_error("Workspace-only needs at least one folder: add one under Files and network.")
            return
        try:
            merged = config_file.merge(self._raw, self.changes())
            config_file.validate(merged)
            store_team_password = self.team.password_saver()
        except ConfigError as exc:
            self._show_error(str(exc).replace("config.toml: ", ""))
            return
        except PdfDeskError as exc:
            self._show_error(exc.message)
            return
        self.buttons.setEnabled(False)
        self.error.hide()
        keys = self.key_changes()

        def write() -> tuple[Config, str | None]:
            config = config_file.save(merged)
            try:
                _store_keys(keys)
                store_team_password()
            except Exception as exc:  # KeyStoreError: the config is saved, the key is not
                return config, str(exc)
            return config, None

        workers.submit(write, owner=self, on_done=self._saved, on_error=self._save_failed)

    def _saved(self, result: tuple[Config, str | None]) -> None:
        config, key_error = result
        set_config(config)
        self._raw = config_file.read_raw()
        self.buttons.setEnabled(True)
        self.saved.emit(config)
        if key_error:
            self._show_error(f"Settings saved, but {key_error}")
            return
        for field in self.key_fields.values():
            field.clear()
        self.team.saved()
        self.accept()

    def _save_failed(self, details: ErrorDetails) -> None:
        self.buttons.setEnabled(True)
        self._show_error(details.get("message") or "Saving failed.")

    def _show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.show()
