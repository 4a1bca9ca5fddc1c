"""Bundled resources: the sample PDF shown on first start, icons, the .desktop file."""
