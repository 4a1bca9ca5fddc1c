"""JSON Schema from Python type hints, for the TypedDicts that describe tools' `details`.

Only what `details` use is understood: str, int, float, bool, None, list[...], dict[str, ...],
unions, Literal and nested TypedDicts (required keys from `total` and NotRequired). Anything else
is a mistake in a details type and raises TypeError rather than producing a schema that accepts
everything.
"""

from __future__ import annotations

import types
from typing import (
    Annotated,
    Any,
    Literal,
    NotRequired,
    Required,
    Union,
    get_args,
    get_origin,
    get_type_hints,
    is_typeddict,
)

_SCALARS: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean", type(None): "null"}


def json_schema(hint: Any, closed: bool = False) -> dict[str, Any]:
    """The schema of values of type `hint`. With `closed`, objects refuse keys their TypedDict does
    not name; open schemas let a client accept a key added after it read the schema."""
    if get_origin(hint) is Annotated:
        return json_schema(get_args(hint)[0], closed)
    if hint in _SCALARS:
        return {"type": _SCALARS[hint]}
    if is_typeddict(hint):
        return _object(hint, closed)
    origin, args = get_origin(hint), get_args(hint)
    if origin is Literal:
        return {"enum": list(args)}
    if origin is list:
        return {"type": "array", "items": json_schema(args[0], closed)}
    if origin is dict:
        if args[0] is not str:
            raise TypeError(f"JSON object keys are strings, not {args[0]!r}")
        return {"type": "object", "additionalProperties": json_schema(args[1], closed)}
    if origin in (Union, types.UnionType):
        return _union([json_schema(arg, closed) for arg in args])
    raise TypeError(f"no JSON schema for {hint!r}")


def _object(typed_dict: Any, closed: bool) -> dict[str, Any]:
    properties: dict[str, Any] = {}
    required: list[str] = []
    for key, hint in get_type_hints(typed_dict, include_extras=True).items():
        # A module with postponed annotations hides NotRequired from __required_keys__ (it saw
        # strings); the evaluated hint still carries it.
        marker = get_origin(hint)
        if marker in (Required, NotRequired):
            hint = get_args(hint)[0]
        if marker is Required or (marker is not NotRequired and key in typed_dict.__required_keys__):
            required.append(key)
        properties[key] = json_schema(hint, closed)
    schema: dict[str, Any] = {"type": "object", "properties": properties, "required": sorted(required)}
    if closed:
        schema["additionalProperties"] = False
    return schema


def _union(options: list[dict[str, Any]]) -> dict[str, Any]:
    """`X | None` of scalars as one `type` list (the form most clients read); anything else anyOf."""
    if all(set(option) == {"type"} and isinstance(option["type"], str) for option in options):
        return {"type": [option["type"] for option in options]}
    return {"anyOf": options}
