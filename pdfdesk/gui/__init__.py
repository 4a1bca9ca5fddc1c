"""The Qt front end; the only package that imports Qt, so the core stays usable from the CLI and MCP."""
