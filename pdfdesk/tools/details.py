"""The shape of each tool's `details`: one TypedDict per tool, and one for every error.

The GUI, the agent and the MCP server read these keys; each tool names its type when it registers
(`Tool.details`), the MCP server advertises the JSON schema generated from it (`json_schema`), and
the tests check every real result against it, so a key a tool emits is declared here or a test fails.
"""

from typing import Literal, NotRequired, TypedDict


class FencedDetails(TypedDict):
    """What the registry adds to any successful result."""

    untrusted_content: NotRequired[bool]  # some content item holds fenced text from a document


class RepairNotes(FencedDetails):
    repaired: NotRequired[bool]           # MuPDF repaired the file while opening it
    repair_warnings: NotRequired[list[str]]


class DocumentDetails(RepairNotes):
    """The fields every single-document result carries (`common.document_details`)."""

    file: str          # the display name of the document's reference
    pages_total: int


# -- pdf_info ----------------------------------------------------------------------------------
class PageSize(TypedDict):
    width_pt: float
    height_pt: float
    width_mm: int
    height_mm: int
    name: str | None   # a paper name (A4, Letter...) within 3 pt, else None
    orientation: Literal["portrait", "landscape"]


class Permissions(TypedDict):
    print: bool
    modify: bool
    copy: bool
    annotate: bool
    fill_forms: bool
    assemble: bool


class FormField(TypedDict):
    name: str | None
    type: str
    value: str | bool | int | float | None
    page: int


class FormFields(TypedDict):
    count: int
    fields: list[FormField]
    fields_listed: int
    count_capped: NotRequired[bool]
    unreadable_pages: NotRequired[str]


class InfoDetails(DocumentDetails):
    damage_warnings: NotRequired[list[str]]
    name: str
    pages: int
    bytes: int
    title: str | None
    author: str | None
    subject: str | None
    keywords: str | None
    creator: str | None
    producer: str | None
    created: str | None    # ISO 8601 when the PDF date parses, else as written
    modified: str | None
    pdf_version: str | None
    encrypted: bool
    encryption: str | None
    permissions: Permissions
    outline_entries: int
    page_size: PageSize | None  # None when page 1 cannot be read
    page_sizes_distinct: int
    pages_without_text: str     # page specs ("1-3,5") here and below
    pages_without_text_count: int
    scanned_pages: str
    ocr_pages: NotRequired[str]           # scanned pages whose text the index recognised
    pages_awaiting_ocr: NotRequired[str]  # scanned pages it has yet to read
    text_layer_pages_checked: int
    form_fields: FormFields


# -- pdf_extract_text --------------------------------------------------------------------------
class HiddenSample(TypedDict):
    page: int
    kind: str
    text: str
    bbox: list[float]


class UncheckedPage(TypedDict):
    page: int
    reason: str


class HiddenTextDetails(TypedDict):
    """`core.hidden_text.HiddenTextReport.details`: text a reader cannot see."""

    pages: str
    spans: int
    chars: int
    kinds: dict[str, int]
    samples: list[HiddenSample]
    unchecked_pages: NotRequired[str]
    unchecked: NotRequired[list[UncheckedPage]]


class ExtractTextDetails(DocumentDetails):
    hidden_text: NotRequired[HiddenTextDetails]
    ocr_layer_pages: NotRequired[str]
    damaged_pages: NotRequired[str]
    pages_over_limit: NotRequired[str]
    damage_warnings: NotRequired[list[str]]
    pages_requested: str
    pages_returned: str
    chars_returned: int
    chars_total: int
    truncated: bool
    next_page: int | None
    pages_without_text: str
    scanned_pages: str
    blank_pages: str
    ocr_pages: str                  # pages whose text was recognised by OCR (marked in the text)
    ocr_confidence: NotRequired[dict[str, float]]  # page -> Tesseract's mean word confidence, 0-100
    table_pages: NotRequired[str]   # pages whose tables are given as Markdown (tables=true)
    tables_given: NotRequired[int]


# -- pdf_tables --------------------------------------------------------------------------------
class TableCellItem(TypedDict):
    row: int
    col: int
    text: str
    rowspan: NotRequired[int]
    colspan: NotRequired[int]
    bbox: NotRequired[list[float]]     # [x0, y0, x1, y1] in page points, top-left origin, unrotated


class TablePartItem(TypedDict):
    page: int
    bbox: list[float]
    first_row: int
    rows: int


class TableItem(TypedDict):
    page: int                 # where it starts
    pages: list[int]          # every page it stands on (several when continued and joined)
    bbox: list[float]         # on its first page, page points, top-left origin, unrotated
    rows: int
    cols: int
    header_rows: int
    kind: str                 # "ruled" (drawn lines), "aligned" (no lines), "area" (a drawn area read)
    source: str               # "text" (the text layer) or "ocr" (words recognised on a scan)
    continued: bool
    cells: list[TableCellItem]
    parts: NotRequired[list[TablePartItem]]
    repeated_headers: NotRequired[int]   # header rows a continued part repeated, dropped when joined
    notes: NotRequired[list[str]]


class TablesDetails(DocumentDetails):
    tables: list[TableItem]
    count: int
    pages_requested: str
    pages_searched: str        # the pages looked at (a long document is looked at in turns)
    truncated: bool
    next_page: int | None      # the first page not looked at or not shown, when truncated
    format: str
    pages_awaiting_ocr: NotRequired[str]
    damaged_pages: NotRequired[str]
    page_notes: NotRequired[dict[str, list[str]]]   # page -> what could not be looked at there
    area: NotRequired[list[float]]


# -- pdf_render_page ---------------------------------------------------------------------------
class RenderPageDetails(DocumentDetails):
    path: str | None        # None when the data folder could not take the PNG
    page: int
    width: int
    height: int
    dpi: int
    effective_dpi: float
    requested_dpi: float
    dpi_clamped: bool
    bytes: int
    mime_type: Literal["image/png"]
    saved: NotRequired[bool]
    save_error: NotRequired[str]


# -- pdf_outline -------------------------------------------------------------------------------
class OutlineEntry(TypedDict):
    level: int
    title: str
    page: int | None   # None for entries pointing nowhere or outside the document
    uri: NotRequired[str]
    y: NotRequired[float]


class OutlineDetails(DocumentDetails):
    entries: list[OutlineEntry]
    count: int
    entries_total: NotRequired[int]
    truncated: NotRequired[bool]
    outline_cut: NotRequired[str]


# -- pdf_search --------------------------------------------------------------------------------
class SearchMatch(TypedDict):
    granularity: Literal["page", "section"]
    page: int
    score: float
    found_by: Literal["keyword", "semantic", "both"]
    file: str
    excerpt: str
    excerpt_style: Literal["paragraph", "snippet"]
    rects: list[list[float]]   # hit rectangles [x0, y0, x1, y1] in page points
    page_width: float
    page_height: float
    section: NotRequired[str]
    title: NotRequired[str | None]
    path: NotRequired[str | None]
    level: NotRequired[int | None]
    start_page: NotRequired[int]
    end_page: NotRequired[int]
    similarity: NotRequired[float]
    low_confidence: NotRequired[bool]
    keyword_match: NotRequired[Literal["partial"]]  # holds some of the query's words, not all
    related_words: NotRequired[list[str]]  # words on the page that counted for the query's (synonyms), as printed
    hidden_text_on_page: NotRequired[bool]
    hit_in_hidden_text: NotRequired[bool]


class SkippedDocument(TypedDict):
    file: str
    error: str


class SearchDocument(TypedDict):
    """One document of a group_by "document" search."""

    file: str
    name: str
    fingerprint: str
    score: float               # its best page's score
    pages_matching: int        # its pages holding every word
    best_pages: list[int]      # up to 5, best first
    excerpt: str               # the best page's (untrusted); "" past the first documents listed
    page: int                  # the best page


class SearchDetails(RepairNotes):
    """One document (file, pages_total, index state) or the library (library, documents_...)."""

    file: NotRequired[str]
    pages_total: NotRequired[int]
    library: NotRequired[bool]
    documents_searched: NotRequired[int]
    documents_skipped: NotRequired[list[SkippedDocument]]
    documents_outside_roots: NotRequired[int]
    documents_pending: NotRequired[int]  # library documents indexed but not yet in the library index
    query: str
    mode: str
    mode_requested: str
    mode_used: Literal["keyword", "semantic", "hybrid", "mixed"]
    mode_reason: NotRequired[str]
    keyword_match: NotRequired[Literal["partial"]]  # no (or too few) pages held every word: some follow
    semantic_unavailable: NotRequired[str]
    granularity: Literal["page", "section"]
    matches: list[SearchMatch]
    count: int
    matches_omitted: int
    index_complete: NotRequired[bool]
    index_unwritable: NotRequired[str]
    pages_indexed: NotRequired[int]
    pages_scanned: NotRequired[int]
    pages_not_searched: NotRequired[str]
    pages_awaiting_ocr: NotRequired[str]     # scanned pages not recognised yet
    sections_pending: NotRequired[bool]
    semantic_pages_embedded: NotRequired[int]
    semantic_note: NotRequired[str]
    note: NotRequired[str]
    notes: NotRequired[list[str]]   # arguments brought within their range
    hidden_text: NotRequired[HiddenTextDetails]
    group_by: NotRequired[Literal["page", "document"]]
    documents: NotRequired[list[SearchDocument]]   # group_by document: this page of the ranked list
    documents_total: NotRequired[int]              # every matching document
    offset: NotRequired[int]
    next_offset: NotRequired[int | None]           # where the next page starts; None at the end
    documents_not_indexed: NotRequired[list[str]]  # names of documents not searchable yet (the first 20)


# -- pdf ---------------------------------------------------------------------------------------
class ModelAttempt(TypedDict):
    model: str
    native: bool
    error: str        # a provider error kind, or no_content / empty
    message: str
    status: NotRequired[int]
    retries: NotRequired[int]


class SentImage(TypedDict):
    file: str
    page: int
    width: int
    height: int


class PdfDetails(FencedDetails):
    model: str
    native: bool
    attempts: list[ModelAttempt]   # the failures before the model that answered
    pdf: NotRequired[str]
    pdfs: NotRequired[list[str]]
    pages: NotRequired[str]
    bytes_sent: NotRequired[int]
    pages_sent: NotRequired[dict[str, str]]   # document name -> page spec
    images: NotRequired[list[SentImage]]
    pixels_total: NotRequired[int]
    notes: NotRequired[list[str]]


# -- pdf_annotate and pdf_export_review ---------------------------------------------------------
class AnswerCitation(TypedDict):
    file: str
    page: int


class PinnedAnswer(TypedDict):
    question: str
    text: str
    citations: list[AnswerCitation]


class AnnotationItem(TypedDict):
    """`review.records.Annotation.to_details`: one annotation as every front end reads it."""

    id: str
    file: str
    page: int
    kind: Literal["highlight", "note", "area", "answer"]
    status: Literal["anchored", "moved", "orphaned"]
    source: Literal["pdfdesk", "pdf"]
    quote: str
    prefix: str
    suffix: str
    note: str
    color: str
    tags: list[str]
    rects: list[list[float]]   # [x0, y0, x1, y1] in page points, top-left origin, unrotated
    created: str
    updated: str
    answer: NotRequired[PinnedAnswer]
    path: NotRequired[str]     # listing every document: the path its document was opened at
    deleted: NotRequired[bool]  # a tombstone (delete returns it; restore brings it back)


class AnnotatedDocument(TypedDict):
    file: str
    path: str
    count: int


class AnnotateDetails(RepairNotes):
    action: Literal["add", "list", "update", "delete", "restore"]
    file: NotRequired[str]
    pages_total: NotRequired[int]
    annotation: NotRequired[AnnotationItem]
    annotations: NotRequired[list[AnnotationItem]]
    count: NotRequired[int]
    file_annotations: NotRequired[int]        # of `annotations`, the PDF's own (read-only)
    moved: NotRequired[int]                   # found again on another page of a changed version
    orphaned: NotRequired[int]                # their text is gone from this version
    text_omitted: NotRequired[int]            # entries the text content left out to stay small
    documents: NotRequired[list[AnnotatedDocument]]
    documents_outside_roots: NotRequired[int]


class ExportReviewDetails(FencedDetails):
    output: str
    format: Literal["pdf", "markdown", "html", "json"]
    documents: int
    annotations: int
    files: list[str]
    overwritten: bool
    skipped: NotRequired[int]                 # notes whose page the PDF no longer has


# -- errors ------------------------------------------------------------------------------------
class ErrorDetails(TypedDict):
    """`PdfDeskError.to_details`: a code, words for the user, what to do; then what some codes add."""

    error: str
    message: str
    hint: str
    attempts: NotRequired[list[ModelAttempt]]   # model_error
    count: NotRequired[int]                     # too_many_pdfs
    limit: NotRequired[int | str]
    page_count: NotRequired[int]                # invalid_page, invalid_page_range
    size_bytes: NotRequired[int]                # too_large
    limit_bytes: NotRequired[int]
    status: NotRequired[int]                    # fetch_failed
    timeout_s: NotRequired[float]
    elapsed_s: NotRequired[float]
    isolated: NotRequired[bool]                 # the tool's worker process was stopped
    memory_mb: NotRequired[int | None]
    worker_exit: NotRequired[str]
    cause: NotRequired[str]
    mupdf_messages: NotRequired[list[str]]
    folder: NotRequired[str]
    storage_problem: NotRequired[str]

