"""Settings: models, providers and API keys, limits, file policy, network, semantic search.

The dialog edits config.toml by merging its fields into the file's raw content (unknown keys
kept), validates the result with `parse_config` before writing, and shows errors in place. API
keys go to the OS keyring through `pdfdesk.agent.keys` and never into a file. Keyring calls can
block (a locked store asks to be unlocked), so they run in a worker.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog, QFormLayout, QHBoxLayout,
    QLabel, QLineEdit, QListWidget, QPushButton, QSpinBox, QTabWidget, QVBoxLayout, QWidget,
)

from pdfdesk.core.config import Config, ConfigError, config_path, set_config
from pdfdesk.gui import config_file, theme, workers
from pdfdesk.gui.config_file import DELETE
from pdfdesk.gui.model_download import ModelDownloadRow

CLOUD = (("openai", "OpenAI"), ("anthropic", "Anthropic"), ("google", "Google Gemini"))
MODEL_SUGGESTIONS = ("", "anthropic/claude-sonnet-4-5", "openai/gpt-4.1-mini", "openai/gpt-4o-mini",
                     "google/gemini-2.5-flash", "ollama/llama3.1", "lmstudio/local-model")
DEFAULTS = Config()


def _key_status(providers: list[str]) -> dict[str, str | None]:
    """Worker: where each provider's key comes from (None when there is none)."""
    from pdfdesk.agent.keys import key_source

    return {provider: key_source(provider) for provider in providers}


def _store_keys(keys: dict[str, str | None]) -> None:
    """Worker: write (or with None delete) keys in the keyring."""
    from pdfdesk.agent.keys import set_api_key

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
        layout = QVBoxLayout(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self._models_tab(), "Models")
        self.tabs.addTab(self._providers_tab(), "Providers and keys")
        self.tabs.addTab(self._limits_tab(), "Limits")
        self.tabs.addTab(self._files_tab(), "Files and network")
        self.tabs.addTab(self._search_tab(), "Search")
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
        note = QLabel(f"Saved to {config_path()}. API keys are kept in the system keyring, never in files.", self)
        note.setWordWrap(True)
        note.setStyleSheet(f"color: {theme.colors()['muted']};")
        layout.addWidget(note)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel, self)
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
    def _model_combo(self, value: str | None, placeholder: str) -> QComboBox:
        combo = QComboBox(self)
        combo.setEditable(True)
        combo.addItems(list(MODEL_SUGGESTIONS))
        combo.setCurrentText(value or "")
        combo.lineEdit().setPlaceholderText(placeholder)
        return combo

    def _models_tab(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout(page)
        config = self._config
        self.agent_model = self._model_combo(config.agent_model, "automatic: the first provider with a key, else offline")
        self.pdf_model = self._model_combo(config.pdf_model, "automatic")
        self.pdf_fallbacks = QLineEdit(", ".join(config.pdf_model_fallbacks), page)
        self.pdf_fallbacks.setPlaceholderText("provider/model, provider/model …")
        self.image_model = self._model_combo(config.image_model, "none")
        form.addRow("Chat agent model", self.agent_model)
        form.addRow("PDF analysis model", self.pdf_model)
        form.addRow("PDF model fallbacks", self.pdf_fallbacks)
        form.addRow("Image model", self.image_model)
        help_text = QLabel("Models are named provider/model, e.g. openai/gpt-4.1-mini or ollama/llama3.1. "
                           "Leave the chat model empty to use the first provider that has a key; with no key "
                           "at all, the offline answerer quotes passages from the documents.", page)
        help_text.setWordWrap(True)
        form.addRow(help_text)
        return page

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
        self.custom_url.setPlaceholderText("http://localhost:11434/v1")
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

    def _limits_tab(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout(page)
        config = self._config
        self.max_file_mb = self._double(config.max_file_mb, 1, 100_000, " MB")
        self.max_download_mb = self._double(config.max_download_mb, 1, 100_000, " MB")
        self.pdf_max_bytes_mb = self._double(config.pdf_max_bytes_mb, 0.1, 1000, " MB")
        self.pdf_max_pages = self._int(config.pdf_max_pages, 1, 1000)
        self.max_turns = self._int(config.agent_max_turns, 1, 50)
        self.max_tool_calls = self._int(config.agent_max_tool_calls, 0, 200)
        self.model_timeout = self._double(config.model_timeout_s, 1, 3600, " s")
        form.addRow("Largest file the tools open", self.max_file_mb)
        form.addRow("Largest download", self.max_download_mb)
        form.addRow("PDF analysis: bytes sent", self.pdf_max_bytes_mb)
        form.addRow("PDF analysis: pages sent", self.pdf_max_pages)
        form.addRow("Agent: model calls per answer", self.max_turns)
        form.addRow("Agent: tool calls per answer", self.max_tool_calls)
        form.addRow("Agent: model request timeout", self.model_timeout)
        return page

    def _files_tab(self) -> QWidget:
        page = QWidget(self)
        layout = QVBoxLayout(page)
        config = self._config
        self.workspace_only = QCheckBox("Only open files inside these folders (workspace-only)", page)
        self.workspace_only.setChecked(config.workspace_only)
        layout.addWidget(self.workspace_only)
        self.roots = QListWidget(page)
        self.roots.setObjectName("settingsRoots")
        self.roots.addItems(list(config.roots))
        layout.addWidget(self.roots)
        buttons = QHBoxLayout()
        add = QPushButton("Add folder…", page)
        add.clicked.connect(self._add_root)
        remove = QPushButton("Remove", page)
        remove.clicked.connect(lambda: [self.roots.takeItem(self.roots.row(i)) for i in self.roots.selectedItems()])
        buttons.addWidget(add)
        buttons.addWidget(remove)
        buttons.addStretch(1)
        layout.addLayout(buttons)
        form = QFormLayout()
        self.allow_remote = QCheckBox("Allow opening http(s) URLs", page)
        self.allow_remote.setChecked(config.allow_remote)
        self.allow_private = QCheckBox("Allow URLs to local-network and loopback addresses", page)
        self.allow_private.setChecked(config.allow_private_addresses)
        self.fetch_timeout = self._double(config.fetch_timeout_s, 1, 600, " s")
        form.addRow(self.allow_remote)
        form.addRow(self.allow_private)
        form.addRow("Download timeout", self.fetch_timeout)
        layout.addLayout(form)
        return page

    def _search_tab(self) -> QWidget:
        page = QWidget(self)
        form = QFormLayout(page)
        config = self._config
        self.semantic = QCheckBox("Search by meaning too (embedding model)", page)
        self.semantic.setChecked(config.semantic)
        self.embedding_model = QLineEdit(config.embedding_model, page)
        self.embedding_model_path = QLineEdit(config.embedding_model_path or "", page)
        self.embedding_model_path.setPlaceholderText("optional: a local model folder (no download)")
        browse = QPushButton("Browse…", page)
        browse.clicked.connect(self._choose_model_folder)
        row = QHBoxLayout()
        row.addWidget(self.embedding_model_path, 1)
        row.addWidget(browse)
        self.model_download = ModelDownloadRow(self.embedding_model.text, page)
        self.finished.connect(lambda _result: self.model_download.cancel())
        form.addRow(self.semantic)
        form.addRow("Embedding model", self.embedding_model)
        form.addRow("", self.model_download)
        form.addRow("Local model folder", row)
        return page

    def _double(self, value: float, low: float, high: float, suffix: str) -> QDoubleSpinBox:
        box = QDoubleSpinBox(self)
        box.setRange(low, high)
        box.setDecimals(1)
        box.setSuffix(suffix)
        box.setValue(float(value))
        return box

    def _int(self, value: int, low: int, high: int) -> QSpinBox:
        box = QSpinBox(self)
        box.setRange(low, high)
        box.setValue(int(value))
        return box

    def _add_root(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Allow files in this folder")
        if folder:
            self.roots.addItem(folder)

    def _choose_model_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Embedding model folder")
        if folder:
            self.embedding_model_path.setText(folder)

    # -- saving ------------------------------------------------------------------------------
    def _setting(self, section: str, key: str, value: Any, default: Any) -> Any:
        """The value to write: kept when it differs from the default or the file already had it."""
        present = key in (self._raw.get(section) or {})
        return value if present or value != default else DELETE

    def changes(self) -> dict[str, Any]:
        """The edits as nested changes for `config_file.merge`."""
        s = self._setting
        text = lambda combo: combo.currentText().strip()  # noqa: E731
        fallbacks = [f.strip() for f in self.pdf_fallbacks.text().split(",") if f.strip()]
        pdf_primary = text(self.pdf_model)
        pdf_model: Any = DELETE
        if fallbacks:
            pdf_model = {"fallbacks": fallbacks, **({"primary": pdf_primary} if pdf_primary else {})}
        elif pdf_primary:
            pdf_model = pdf_primary
        models = {"agent": text(self.agent_model) or DELETE, "pdfModel": pdf_model,
                  "imageModel": text(self.image_model) or DELETE}
        providers: dict[str, Any] = {}
        for provider, _label in CLOUD:
            url = self.base_urls[provider].text().strip()
            providers[provider] = {"baseUrl": url or DELETE}
        name = self.custom_name.text().strip().lower()
        if name:
            providers[name] = {"baseUrl": self.custom_url.text().strip() or DELETE}
        config = DEFAULTS
        roots = [self.roots.item(i).text() for i in range(self.roots.count())]
        return {
            "models": models,
            "providers": providers,
            "limits": {
                "maxFileMb": s("limits", "maxFileMb", self.max_file_mb.value(), config.max_file_mb),
                "maxDownloadMb": s("limits", "maxDownloadMb", self.max_download_mb.value(), config.max_download_mb),
                "pdfMaxBytesMb": s("limits", "pdfMaxBytesMb", self.pdf_max_bytes_mb.value(), config.pdf_max_bytes_mb),
                "pdfMaxPages": s("limits", "pdfMaxPages", self.pdf_max_pages.value(), config.pdf_max_pages),
            },
            "agent": {
                "maxTurns": s("agent", "maxTurns", self.max_turns.value(), config.agent_max_turns),
                "maxToolCalls": s("agent", "maxToolCalls", self.max_tool_calls.value(), config.agent_max_tool_calls),
                "timeoutSeconds": s("agent", "timeoutSeconds", self.model_timeout.value(), config.model_timeout_s),
            },
            "files": {
                "workspaceOnly": s("files", "workspaceOnly", self.workspace_only.isChecked(), config.workspace_only),
                "roots": s("files", "roots", roots, list(config.roots)),
            },
            "network": {
                "allowRemote": s("network", "allowRemote", self.allow_remote.isChecked(), config.allow_remote),
                "allowPrivateAddresses": s("network", "allowPrivateAddresses", self.allow_private.isChecked(),
                                           config.allow_private_addresses),
                "timeoutSeconds": s("network", "timeoutSeconds", self.fetch_timeout.value(), config.fetch_timeout_s),
            },
            "search": {
                "semantic": s("search", "semantic", self.semantic.isChecked(), config.semantic),
                "embeddingModel": s("search", "embeddingModel", self.embedding_model.text().strip(), config.embedding_model),
                "embeddingModelPath": self.embedding_model_path.text().strip() or DELETE,
            },
        }

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
        if self.workspace_only.isChecked() and self.roots.count() == 0:
            self._show_error("Workspace-only needs at least one folder: add one under Files and network.")
            return
        try:
            merged = config_file.merge(self._raw, self.changes())
            config_file.validate(merged)
        except ConfigError as exc:
            self._show_error(str(exc).replace("config.toml: ", ""))
            return
        self.buttons.setEnabled(False)
        self.error.hide()
        keys = self.key_changes()

        def write() -> tuple[Config, str | None]:
            config = config_file.save(merged)
            try:
                _store_keys(keys)
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
        self.accept()

    def _save_failed(self, details: dict[str, Any]) -> None:
        self.buttons.setEnabled(True)
        self._show_error(details.get("message") or "Saving failed.")

    def _show_error(self, message: str) -> None:
        self.error.setText(message)
        self.error.show()
