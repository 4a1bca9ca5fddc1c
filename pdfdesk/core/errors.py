"""The error codes every tool speaks, as one exception type, so every front end reports alike.

Core functions raise `PdfDeskError`; the tool registry turns it into a ToolResult with
`details.error`, `details.message` and `details.hint`, so no caller ever sees a traceback.
"""

from __future__ import annotations

from typing import Any

VALIDATION_ERROR = "validation_error"
FILE_NOT_FOUND = "file_not_found"
PERMISSION_DENIED = "permission_denied"
NOT_A_PDF = "not_a_pdf"
EMPTY_FILE = "empty_file"
PDF_ERROR = "pdf_error"
NO_PAGES = "no_pages"
PASSWORD_REQUIRED = "password_required"
WRONG_PASSWORD = "wrong_password"
INVALID_PAGE = "invalid_page"
INVALID_PAGE_RANGE = "invalid_page_range"
TOO_LARGE = "too_large"
TOO_MANY_PDFS = "too_many_pdfs"
UNSUPPORTED_PDF_REFERENCE = "unsupported_pdf_reference"
OUTSIDE_WORKSPACE = "outside_workspace"
REMOTE_DISABLED = "remote_disabled"
FETCH_FAILED = "fetch_failed"
BLOCKED_ADDRESS = "blocked_address"
SEMANTIC_UNAVAILABLE = "semantic_unavailable"
MODEL_ERROR = "model_error"
TEAM_UNAVAILABLE = "team_unavailable"  # the team database cannot be reached or refused the login
INTERNAL_ERROR = "internal_error"

ERROR_CODES: frozenset[str] = frozenset(
    {
        VALIDATION_ERROR, FILE_NOT_FOUND, PERMISSION_DENIED, NOT_A_PDF, EMPTY_FILE, PDF_ERROR,
        NO_PAGES, PASSWORD_REQUIRED, WRONG_PASSWORD, INVALID_PAGE, INVALID_PAGE_RANGE, TOO_LARGE,
        TOO_MANY_PDFS, UNSUPPORTED_PDF_REFERENCE, OUTSIDE_WORKSPACE, REMOTE_DISABLED, FETCH_FAILED,
        BLOCKED_ADDRESS, SEMANTIC_UNAVAILABLE, MODEL_ERROR, TEAM_UNAVAILABLE, INTERNAL_ERROR,
    }
)


class PdfDeskError(Exception):
    """A failure a user can understand and act on: a code, a message and a hint."""

    def __init__(self, code: str, message: str, hint: str = "", **extra: Any) -> None:
        if code not in ERROR_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(message)
        self.code = code
        self.message = message
        self.hint = hint
        self.extra = extra

    def to_details(self) -> dict[str, Any]:
        """The `details` of an error ToolResult."""
        details: dict[str, Any] = {"error": self.code, "message": self.message, "hint": self.hint}
        details.update(self.extra)
        return details
