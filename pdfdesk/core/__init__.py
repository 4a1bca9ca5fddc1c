"""Qt-free core: documents, references, page specs, rendering, text, errors, config, policy."""
