"""A document's stored vectors as a search reads them: whether they can be used, and how far each
page stands out in meaning (for one document's search and for the library's)."""

from __future__ import annotations

from typing import Any

from pdfdesk.core.lru import SharedLRU
from pdfdesk.index import embedding, semantic
from pdfdesk.index.store import DocumentIndex, IndexState


def stores(index: DocumentIndex) -> semantic.SemanticStore:
    """One SemanticStore per index folder, so its checked chunks stay cached between queries."""
    return _semantic_stores.get_or_make(index.folder, lambda: semantic.SemanticStore(index.folder))


# Searches run on several threads at once (GUI workers, MCP calls) with no lock around this.
_semantic_stores: SharedLRU[Any, semantic.SemanticStore] = SharedLRU(32)


def vectors_embedded(index: DocumentIndex, state: IndexState | None) -> int:
    """Pages whose vectors exist, were made by the configured model and pass their check (a store
    that fails is reported for the owner to redo)."""
    if state is None or state.semantic_model != semantic.vectors_label() or index.damage() == semantic.SEMANTIC_DIR:
        return 0
    check = stores(index).check()
    if check.usable and state.semantic_complete and check.pages_done < state.pages_total:
        check = semantic.StoreCheck(False, 0, f"vectors end at page {check.pages_done} of {state.pages_total}")
    if not check.usable:
        index.report_damage(semantic.SEMANTIC_DIR, check.problem or "unreadable")
        return 0
    return check.pages_done


def meaning_standouts(fingerprint: str, query: str, pages: list[int]) -> dict[int, float]:
    """How far each page stands out in meaning among its own document's pages (see
    `semantic.Nearest`); {} while the document has no usable vectors or no model loads."""
    if not embedding.model_status()[0]:
        return {}
    index = DocumentIndex(fingerprint)
    if not vectors_embedded(index, index.read_state()):
        return {}
    try:
        nearest = stores(index).search(query, 1)
    except semantic.StoreDamaged as exc:
        index.report_damage(semantic.SEMANTIC_DIR, str(exc))
        return {}
    return {page: nearest.standout(page) for page in pages}
