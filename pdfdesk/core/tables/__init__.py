"""Tables on PDF pages: found from ruling lines or from the alignment of words, with their cells,
spans and header rows, and written out as Markdown, CSV, tab-separated text, HTML or JSON."""
