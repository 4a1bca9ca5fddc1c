"""Build resources/sample.pdf, the guide pdfdesk opens on first start.

Run: python scripts/make_sample_pdf.py   (the committed PDF is this script's output)
"""

from __future__ import annotations

from pathlib import Path

import pymupdf

CSS = """
body { font-family: sans-serif; font-size: 11pt; line-height: 1.35; }
h1 { font-size: 22pt; color: #1d4e89; margin-bottom: 6pt; }
h2 { font-size: 14pt; color: #1d4e89; margin-top: 12pt; }
td, th { border: 0.5pt solid #888; padding: 3pt 6pt; font-size: 10pt; }
th { background-color: #e8eef6; }
code { font-family: monospace; font-size: 9.5pt; }
p.note { color: #555; font-size: 9.5pt; }
"""

PAGES: list[tuple[str, list[str], str]] = [
    ("Welcome to pdfdesk", ["What pdfdesk is", "Your files stay yours"], """
<h1>Welcome to pdfdesk</h1>
<h2>What pdfdesk is</h2>
<p>pdfdesk is a desktop workbench for reviewing PDF documents. Drag contracts, reports, papers or
scanned letters into the window, read them in a fast viewer, search them by keyword or by meaning,
and ask the built-in agent questions. Every answer cites the pages it comes from, and a click on a
citation opens the page with the passage highlighted.</p>
<p>The same six tools drive everything you see: <code>pdf_info</code>, <code>pdf_extract_text</code>,
<code>pdf_render_page</code>, <code>pdf_outline</code>, <code>pdf_search</code> and <code>pdf</code>.
The viewer, the search panel, the agent, the command line and the MCP server all call them.</p>
<h2>Your files stay yours</h2>
<p>Documents are read on your computer. Search indices live in pdfdesk's data folder and are keyed by
the content of each file, so a moved file keeps its index and an edited file is indexed again.
Nothing leaves the machine unless you configure a model provider and ask it a question.</p>
<p class="note">This guide is itself a PDF: try searching it for "citation" or "keyboard".</p>
"""),
    ("Reading documents", ["Keyboard shortcuts", "Encrypted and damaged files"], """
<h1>Reading documents</h1>
<p>Pages scroll continuously. The pages you can see are rendered first, then their neighbours, and a
scaled copy of the last image is shown while a new zoom level renders, so a page is never blank.</p>
<h2>Keyboard shortcuts</h2>
<table>
<tr><th>Keys</th><th>Action</th></tr>
<tr><td>Ctrl+O</td><td>Open PDF files</td></tr>
<tr><td>Ctrl+F</td><td>Find in the document, with next and previous</td></tr>
<tr><td>Ctrl+L</td><td>Ask the agent</td></tr>
<tr><td>Ctrl+W / Ctrl+Tab</td><td>Close tab / next tab</td></tr>
<tr><td>Ctrl + / Ctrl -</td><td>Zoom in / out (or Ctrl+wheel)</td></tr>
<tr><td>PgUp, PgDn, Home, End</td><td>Move through the document</td></tr>
<tr><td>F11</td><td>Full screen</td></tr>
</table>
<h2>Encrypted and damaged files</h2>
<p>An encrypted PDF asks for its password before showing pages. A damaged file that MuPDF can repair
opens with a notice; one that cannot be repaired shows what is wrong in place of the pages.</p>
"""),
    ("Searching", ["Keyword, semantic and hybrid", "Query syntax"], """
<h1>Searching</h1>
<h2>Keyword, semantic and hybrid</h2>
<p>Keyword search finds the words you type, with stemming, so "indemnify" also finds "indemnified".
Semantic search finds passages with the same meaning even when the words differ. Hybrid mode, the
default, fuses both rankings with reciprocal rank fusion. Results can be whole pages or sections of
the document's outline, in one document or across your whole library.</p>
<h2>Query syntax</h2>
<table>
<tr><th>Query</th><th>Finds</th></tr>
<tr><td>termination notice</td><td>pages with both words</td></tr>
<tr><td>"termination notice"</td><td>the exact phrase</td></tr>
<tr><td>liability OR indemnity</td><td>either word</td></tr>
<tr><td>warrant*</td><td>warranty, warranties, warranted</td></tr>
<tr><td>payment NOT late</td><td>payment without late</td></tr>
</table>
<p>Search works while a document is still being indexed: pages not yet indexed are scanned
directly, so the first results arrive within a second even for very long documents.</p>
"""),
    ("Asking the agent", ["Citations", "Models and offline use"], """
<h1>Asking the agent</h1>
<p>Press Ctrl+L and ask a question about the open documents: "What is the notice period?",
"Summarise section 4", "Which pages mention penalties?". The agent searches, reads and looks at
pages with the same tools you use, and shows each tool call as a small card.</p>
<h2>Citations</h2>
<p>Every claim in an answer links to a page. A citation looks like [sample.pdf p. 4]; clicking it
opens the document at that page and highlights the passage.</p>
<h2>Models and offline use</h2>
<p>pdfdesk works with OpenAI, Anthropic, Google Gemini and local OpenAI-compatible servers such as
Ollama or LM Studio. API keys are kept in your system keyring, never in plain files. With no model
configured, pdfdesk still answers: an offline answerer returns the best passages with citations.</p>
<p class="note">Text inside PDFs is treated as data, never as instructions: a document cannot tell the
agent what to do.</p>
"""),
    ("Tools for other programs", ["Command line", "MCP server"], """
<h1>Tools for other programs</h1>
<h2>Command line</h2>
<p>Every tool runs from a terminal and prints JSON:</p>
<p><code>pdfdesk tool pdf_info '{"path": "report.pdf"}'</code><br/>
<code>pdfdesk tool pdf_extract_text '{"path": "report.pdf", "pages": "1,3,5-7"}'</code><br/>
<code>pdfdesk tool pdf_render_page '{"path": "report.pdf", "page": 2, "dpi": 200}'</code></p>
<p>Page specs name a set of pages: "1,3,5-7" means pages 1, 3, 5, 6 and 7.</p>
<h2>MCP server</h2>
<p><code>pdfdesk mcp</code> serves the same tools to MCP clients such as Claude Desktop or an IDE
assistant, and shares the search indices built by the desktop app.</p>
<p class="note">pdfdesk is free software under the GNU Affero General Public License, version 3 or later.</p>
"""),
]


def build(target: Path) -> None:
    doc = pymupdf.open()
    toc: list[list] = []
    for number, (title, subsections, html) in enumerate(PAGES, start=1):
        page = doc.new_page(width=595, height=842)
        page.insert_htmlbox(pymupdf.Rect(60, 60, 535, 790), html, css=CSS)
        page.insert_text((60, 815), f"pdfdesk guide  ·  page {number} of {len(PAGES)}", fontsize=8, color=(0.45, 0.45, 0.45))
        toc.append([1, title, number])
        toc.extend([2, sub, number] for sub in subsections)
    doc.set_toc(toc)
    doc.set_metadata({
        "title": "pdfdesk — a guide", "author": "pdfdesk developers", "subject": "How to use pdfdesk",
        "keywords": "pdfdesk, PDF, search, agent", "creator": "scripts/make_sample_pdf.py", "producer": "PyMuPDF",
    })
    doc.save(target, garbage=4, deflate=True)


if __name__ == "__main__":
    build(Path(__file__).resolve().parent.parent / "resources" / "sample.pdf")
