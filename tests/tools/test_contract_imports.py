"""The registry imports the tool modules; the tool modules import only the contract, never the
registry, so nothing inside tools/ imports in a circle."""

from __future__ import annotations

import ast
from pathlib import Path

import pdfdesk.tools

TOOLS_DIR = Path(pdfdesk.tools.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):  # function-level imports count too
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_tool_modules_import_the_contract_not_the_registry():
    tool_modules = [p for p in TOOLS_DIR.glob("*.py") if "\n@register(" in p.read_text(encoding="utf-8")
                    and p.name not in ("contract.py", "registry.py")]
    assert len(tool_modules) == 9
    for path in tool_modules:
        imports = imported_modules(path)
        assert "pdfdesk.tools.contract" in imports, path.name
        assert "pdfdesk.tools.registry" not in imports, path.name


def test_the_contract_details_and_schema_modules_import_no_tool_module():
    for name in ("contract.py", "details.py", "json_schema.py", "common.py"):
        tools_imported = {m for m in imported_modules(TOOLS_DIR / name) if m.startswith("pdfdesk.tools")}
        assert tools_imported <= {"pdfdesk.tools.contract", "pdfdesk.tools.details", "pdfdesk.tools.json_schema"}, name
