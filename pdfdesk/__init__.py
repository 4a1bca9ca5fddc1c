"""pdfdesk: a desktop workbench for reviewing PDFs with an embedded agent."""

__version__ = "0.1.0"
