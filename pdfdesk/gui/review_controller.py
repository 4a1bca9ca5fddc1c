"""The window's review annotations: loading them into each document's view, storing what the user
marks, editing, deleting, pinning answers, and undo/redo of all of it.

Every store access is a `pdf_annotate` call in a tool worker process, run from the shell's worker
pool, so the UI thread never waits for SQLite or MuPDF. Writes go through one queue, one at a time
in the order the user made them, so an undo never overtakes the edit it undoes. The view paints a
pending item the moment the user highlights; it is replaced by the stored one when the tool
answers, or removed (with a status-bar message, never a dialog) when it fails.

The file's own annotations (source "pdf") are listed for the panels but kept out of the view's
layer: the page image already shows them, so painting them again would double them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack
from PySide6.QtWidgets import QWidget

from pdfdesk.agent.events import Citation
from pdfdesk.core.references import display_name, normalise_reference
from pdfdesk.gui import workers
from pdfdesk.gui.chat_transcript import Turn
from pdfdesk.gui.note_editor import NoteEditor
from pdfdesk.gui.pin import ToolRunner, pin_answer, pin_request
from pdfdesk.gui.serial_writes import SerialWrites
from pdfdesk.gui.tool_calls import call_tool_in_worker
from pdfdesk.gui.workers import describe_failure
from pdfdesk.tools.contract import ToolResult

log = logging.getLogger(__name__)
MESSAGE_MS = 8_000
ERROR_MS = 15_000
PENDING = "pending-"
_KIND_WORDS = {"highlight": "Highlight", "note": "Note", "area": "Area", "answer": "Pinned answer"}


@dataclass
class DocumentNotes:
    """One open tab's document: its view (whose layer paints the notes) and the file's own notes."""

    reference: str
    password: str | None
    view: Any
    file_items: list[dict] = field(default_factory=list)
    loaded: bool = False

    @property
    def layer(self) -> Any:
        alive = self.view is not None and shiboken6.isValid(self.view)
        model = getattr(self.view, "model", None) if alive else None
        return getattr(model, "annotations", None)


class _Step(QUndoCommand):
    """An edit already made in the store: redo repeats it, undo reverses it (both asynchronously)."""

    def __init__(self, text: str, forward: Callable[[], None], backward: Callable[[], None]) -> None:
        super().__init__(text)
        self._forward, self._backward, self._done = forward, backward, True

    def redo(self) -> None:
        if self._done:  # QUndoStack.push calls redo: the edit has happened already
            self._done = False
            return
        self._forward()

    def undo(self) -> None:
        self._backward()


class ReviewController(QObject):
    """One per window: the current document's notes, and every edit of any document's notes."""

    itemsChanged = Signal()  # the current document's notes (or which document is current) changed
    annotationSelected = Signal(str)  # the user clicked a note in the view
    message = Signal(str, int)  # for the status bar

    def __init__(self, parent: QWidget, runner: ToolRunner = call_tool_in_worker) -> None:
        super().__init__(parent)
        self._window = parent
        self._runner = runner
        self.undo_stack = QUndoStack(self)
        self._docs: dict[int, DocumentNotes] = {}
        self._current: DocumentNotes | None = None
        self._writes = SerialWrites(self, lambda details: self._error("Saving the notes failed", details))
        self._batch: list[tuple[DocumentNotes, dict]] = []
        self.editor: NoteEditor | None = None

    # -- documents ---------------------------------------------------------------------------
    def set_document(self, reference: str | None, password: str | None = None, view: Any = None) -> None:
        """The current tab changed (or opened): show its notes, loading them the first time."""
        if reference is None or view is None:
            self._current = None
            self.itemsChanged.emit()
            return
        doc = self._docs.get(id(view))
        if doc is None or doc.view is not view:
            doc = DocumentNotes(normalise_reference(reference), password, view)
            self._docs[id(view)] = doc
            self._connect(doc)
        doc.password = password
        self._current = doc
        if not doc.loaded:
            self.reload(doc)
        self.itemsChanged.emit()

    def _connect(self, doc: DocumentNotes) -> None:
        view = doc.view
        signals: dict[str, Callable[..., None]] = {
            "annotateRequested": lambda request: self._requested(doc, request),
            "annotationEditRequested": lambda key: self.edit_note(key, doc),
            "annotationActivated": lambda key: self.edit_note(key, doc),
            "annotationDeleteRequested": lambda key: self.delete([key], doc),
            "annotationClicked": self.annotationSelected.emit,
            "documentOpened": lambda _count: self._reopened(doc),
        }
        view_key = id(view)  # the view itself is not kept alive by the slot
        signals["destroyed"] = lambda *_args: self._forget(view_key)
        for name, slot in signals.items():
            signal = getattr(view, name, None)
            if signal is not None:
                signal.connect(self._guarded(slot))
        if doc.layer is not None:
            doc.layer.changed.connect(self._guarded(lambda _pages: self._layer_changed(doc)))

    def _guarded(self, slot: Callable[..., None]) -> Callable[..., None]:
        """A slot for a view's signal that does nothing once this controller is gone (window closing)."""
        def call(*args: Any) -> None:
            if shiboken6.isValid(self):
                slot(*args)

        return call

    def _forget(self, key: int) -> None:
        doc = self._docs.pop(key, None)
        if doc is not None and doc is self._current:
            self._current = None
            self.itemsChanged.emit()

    def _reopened(self, doc: DocumentNotes) -> None:
        if doc.loaded:  # opened again (a password, a retry): the view emptied its layer
            self.reload(doc)

    def _layer_changed(self, doc: DocumentNotes) -> None:
        if doc is self._current:
            self.itemsChanged.emit()

    def reload_all(self) -> None:
        """List every open document's notes again (another reviewer changed some)."""
        for doc in [d for d in self._docs.values() if d.loaded]:
            self.reload(doc)

    def reload(self, doc: DocumentNotes | None = None) -> None:
        """List the document's notes again (off the UI thread) and give them to its view."""
        doc = doc or self._current
        if doc is None:
            return
        args: dict[str, Any] = {"action": "list", "path": doc.reference}
        if doc.password:
            args["password"] = doc.password

        def listed(result: ToolResult) -> None:
            if result.is_error:
                self._error(f"The notes of {display_name(doc.reference)} could not be loaded", result.details)
                return
            items = list(result.details.get("annotations") or [])
            doc.file_items = [i for i in items if i.get("source") == "pdf"]
            layer = doc.layer
            if layer is not None:
                pending = [i for i in layer.items() if str(i.get("id", "")).startswith(PENDING)]
                layer.set_all([i for i in items if i.get("source") != "pdf"] + pending)
            doc.loaded = True
            if doc is self._current:
                self.itemsChanged.emit()

        workers.submit(self._runner, "pdf_annotate", args, owner=self, on_done=listed,
                       on_error=lambda details: self._error("The notes could not be loaded", details))

    @property
    def current(self) -> DocumentNotes | None:
        return self._current

    def items(self) -> list[dict]:
        """The current document's stored notes (the file's own ones last); pending ones are left out."""
        doc = self._current
        if doc is None:
            return []
        layer = doc.layer
        own = [i for i in layer.items() if not str(i.get("id", "")).startswith(PENDING)] if layer is not None else []
        return own + doc.file_items

    def item(self, key: str, doc: DocumentNotes | None = None) -> dict | None:
        doc = doc or self._current
        if doc is None:
            return None
        layer = doc.layer
        found = layer.item(key) if layer is not None else None
        return found or next((i for i in doc.file_items if i.get("id") == key), None)

    # -- writes ------------------------------------------------------------------------------
    def _call_all(self, calls: Sequence[dict[str, Any]]) -> Callable[[], list[ToolResult]]:
        runner = self._runner
        return lambda: [runner("pdf_annotate", args) for args in calls]

    @property
    def busy(self) -> bool:
        """Whether a write is under way or queued (tests wait for this to end)."""
        return self._writes.busy or bool(self._batch)

    def _error(self, what: str, details: Any, more: int = 0) -> None:
        extra = f" ({more} more failed)" if more else ""
        text = f"{what}: {describe_failure(details)}{extra}"
        log.info("%s", text)
        self.message.emit(text, ERROR_MS)

    # -- new annotations from the view -------------------------------------------------------
    def _requested(self, doc: DocumentNotes, request: dict) -> None:
        """One page of a highlight/note/area; the pages of one selection arrive together and are
        stored (and undone) as one step."""
        self._batch.append((doc, dict(request)))
        if len(self._batch) == 1:
            QTimer.singleShot(0, self._flush_requests)

    def _flush_requests(self) -> None:
        batch, self._batch = self._batch, []
        if not batch:
            return
        doc = batch[0][0]
        requests = [r for d, r in batch if d is doc]
        for other in {id(d): d for d, _ in batch if d is not doc}.values():
            self._add(other, [r for d, r in batch if d is other])
        if any(r.get("kind") == "note" for r in requests):
            self._ask_note(doc, requests)
        else:
            self._add(doc, requests)

    def _ask_note(self, doc: DocumentNotes, requests: list[dict]) -> None:
        quote = " ".join(str(r.get("quote") or "") for r in requests)
        editor = NoteEditor("Add note", quote, parent=self._window)
        editor.submitted.connect(lambda note, tags: self._add(doc, requests, note, tags))
        editor.rejected.connect(lambda: self._drop_pending(doc, requests))
        self._open_editor(editor)

    def _open_editor(self, editor: NoteEditor) -> None:
        """Show the editor (non-blocking); `self.editor` is the open one, None once it closed."""
        def closed(_result: int) -> None:
            if self.editor is editor:
                self.editor = None
            editor.deleteLater()

        editor.finished.connect(closed)
        self.editor = editor
        editor.open()

    def _drop_pending(self, doc: DocumentNotes, requests: list[dict]) -> None:
        layer = doc.layer
        for request in requests:
            if layer is not None and request.get("pending_id"):
                layer.remove(str(request["pending_id"]))

    def _add_args(self, doc: DocumentNotes, request: dict, note: str, tags: Sequence[str]) -> dict[str, Any]:
        kind = str(request.get("kind") or "highlight")
        args: dict[str, Any] = {"action": "add", "path": doc.reference, "page": int(request["page"]), "kind": kind}
        rects = [list(map(float, r)) for r in request.get("rects") or []]
        if kind == "area":
            if rects:
                args["rect"] = rects[0]
        else:
            args["quote"] = str(request.get("quote") or "")
            if rects:
                args["rects"] = rects
        if request.get("color"):
            args["color"] = str(request["color"])
        if note:
            args["note"] = note
        if tags:
            args["tags"] = list(tags)
        if doc.password:
            args["password"] = doc.password
        return args

    def _add(self, doc: DocumentNotes, requests: list[dict], note: str = "", tags: Sequence[str] = ()) -> None:
        """Store the requests (the note on the first page's part only); pending -> real."""
        calls = [self._add_args(doc, r, note if n == 0 else "", tags if n == 0 else ()) for n, r in enumerate(requests)]
        kind = _KIND_WORDS.get(str(requests[0].get("kind")), "Highlight")

        def stored(results: list[ToolResult]) -> None:
            self._drop_pending(doc, requests)
            added = [r.details["annotation"] for r in results if not r.is_error]
            failures = [r.details for r in results if r.is_error]
            self._show(doc, added)
            if added:
                ids = [a["id"] for a in added]
                self.undo_stack.push(_Step(f"{kind} p. {added[0]['page']}", lambda: self._apply(doc, "restore", ids),
                                           lambda: self._apply(doc, "delete", ids)))
            if failures:
                self._error(f"{kind} not saved", failures[0], len(failures) - 1)

        self._writes.add(self._call_all(calls), stored)

    # -- edits -------------------------------------------------------------------------------
    def _show(self, doc: DocumentNotes, items: Sequence[dict], removed: Sequence[str] = ()) -> None:
        layer = doc.layer
        if layer is None:
            return
        for key in removed:
            layer.remove(key)
        for item in items:
            layer.upsert(item)

    def _apply(self, doc: DocumentNotes, action: str, ids: Sequence[str], fields: dict | None = None,
               then: Callable[[list[dict]], None] | None = None) -> None:
        """Run one action on each id in order; the view follows what the store answered."""
        calls = [{"action": action, "id": key, **(fields or {})} for key in ids]

        def applied(results: list[ToolResult]) -> None:
            good = [(key, r.details["annotation"]) for key, r in zip(ids, results, strict=False) if not r.is_error]
            failures = [r.details for r in results if r.is_error]
            if action == "delete":
                self._show(doc, [], [key for key, _ in good])
            else:
                self._show(doc, [item for _, item in good])
            if failures:
                self._error(f"Could not {action} the note", failures[0], len(failures) - 1)
            if then is not None and good:
                then([item for _, item in good])

        self._writes.add(self._call_all(calls), applied)

    def _editable(self, doc: DocumentNotes | None, keys: Sequence[str]) -> list[str]:
        ok = [k for k in keys if not k.startswith(PENDING) and (self.item(k, doc) or {}).get("source") != "pdf"]
        if len(ok) < len(keys):
            self.message.emit("The file's own annotations are read-only; pdfdesk's notes can be edited.", MESSAGE_MS)
        return ok

    def update(self, key: str, doc: DocumentNotes | None = None, **fields: Any) -> None:
        """Change note, colour or tags of one annotation (one undo step)."""
        doc = doc or self._current
        item = self.item(key, doc)
        if doc is None or item is None or not self._editable(doc, [key]):
            return
        old = {name: item.get(name) for name in fields}
        fields = {name: value for name, value in fields.items() if value != old[name]}
        if not fields:
            return
        old = {name: old[name] for name in fields}
        text = "Edit note" if "note" in fields else ("Edit tags" if "tags" in fields else "Change colour")
        self._apply(doc, "update", [key], fields, then=lambda _items: self.undo_stack.push(_Step(
            text, lambda: self._apply(doc, "update", [key], fields), lambda: self._apply(doc, "update", [key], old))))

    def delete(self, keys: Sequence[str], doc: DocumentNotes | None = None) -> None:
        """Delete annotations (kept as tombstones by the store, so undo restores them)."""
        doc = doc or self._current
        keys = self._editable(doc, list(keys))
        if doc is None or not keys:
            return
        self._apply(doc, "delete", keys, then=lambda items: self.undo_stack.push(_Step(
            "Delete note" if len(items) == 1 else f"Delete {len(items)} notes",
            lambda: self._apply(doc, "delete", [i["id"] for i in items]),
            lambda: self._apply(doc, "restore", [i["id"] for i in items]))))

    def edit_note(self, key: str, doc: DocumentNotes | None = None) -> None:
        """Open the note editor on an annotation; OK stores the changed note and tags."""
        doc = doc or self._current
        item = self.item(key, doc)
        if item is None or not self._editable(doc, [key]):
            return
        editor = NoteEditor("Edit note", str(item.get("quote") or ""), str(item.get("note") or ""),
                            list(item.get("tags") or []), self._window)
        editor.submitted.connect(lambda note, tags: self.update(key, doc, note=note, tags=tags))
        self._open_editor(editor)

    # -- navigation --------------------------------------------------------------------------
    def jump(self, key: str) -> None:
        """Show an annotation: its page with its rects highlighted, and selected in the view."""
        doc = self._current
        item = self.item(key)
        if doc is None or item is None or not shiboken6.isValid(doc.view):
            return
        orphaned = item.get("status") == "orphaned"
        rects = [] if orphaned else [tuple(float(v) for v in r) for r in item.get("rects") or []]
        doc.view.go_to_page(max(1, int(item.get("page") or 1)), rects)
        if doc.layer is not None:
            doc.layer.set_selected(key if doc.layer.item(key) is not None else None)
        if orphaned:
            self.message.emit(f"This passage is no longer in the document; the note was on p. {item.get('page')}.",
                              MESSAGE_MS)

    # -- pinned answers ----------------------------------------------------------------------
    def pin(self, turn: Turn, citation: Citation | None = None) -> None:
        """Pin a finished answer to the notes of the page it cites (see `pdfdesk.gui.pin`)."""
        doc = self._current
        fallback = (doc.reference, int(getattr(doc.view, "current_page", 1) or 1)) if doc is not None else None
        request = pin_request(turn, citation, fallback)
        if request is None:
            self.message.emit("Open the document to pin this answer to (the answer cites no page).", MESSAGE_MS)
            return
        target = normalise_reference(request.document)
        docs = [d for d in self._docs.values() if d.reference == target]
        if docs and docs[0].password:
            with_password = pin_request(turn, citation, fallback, docs[0].password)
            if with_password is not None:  # it is: the same answer, only a password more
                request = with_password
        runner = self._runner

        def pinned(result: ToolResult) -> None:
            if result.is_error:
                self._error("The answer was not pinned", result.details)
                return
            item = result.details["annotation"]
            for d in docs:
                self._show(d, [item])
            where = f"{display_name(request.document)} p. {item.get('page', request.page)}"
            how = "with the quoted passage highlighted" if item.get("rects") else "as a page note"
            self.message.emit(f"Pinned to the notes of {where}, {how}.", MESSAGE_MS)
            key = item["id"]
            owner = docs[0] if docs else DocumentNotes(target, None, None)
            self.undo_stack.push(_Step(f"Pin answer to {where}", lambda: self._apply(owner, "restore", [key]),
                                       lambda: self._apply(owner, "delete", [key])))

        self._writes.add(lambda: pin_answer(request, runner), pinned)
