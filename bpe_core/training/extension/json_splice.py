"""New members and elements written into a JSON text in place, every other byte kept: a ``tokenizer.json``
extended stays the base's file, its own layout and escapes included, with the new entries at the end of
``model.vocab``, ``model.merges`` and ``added_tokens``, laid out as their neighbours are.

>>> text = '{"a": {"v": {"x": 0}, "m": ["x x"]},\\n "l": []}'
>>> spliced(text, {("a", "v"): [("xx", 1)], ("a", "m"): ["x xx"], ("l",): [{"k": 1}]})
'{"a": {"v": {"x": 0, "xx": 1}, "m": ["x x", "x xx"]},\\n "l": [{"k": 1}]}'
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

_DECODER = json.JSONDecoder()
_SPACE = " \t\n\r"


def spliced(text: str, additions: Mapping[tuple[str, ...], Sequence[Any]]) -> str:
    """``text`` with each path's container (an object: ``(key, value)`` pairs; an array: values) grown at
    its end. A path that is not in the text is a KeyError."""
    edits = [_insertion(text, *_locate(text, path), items) for path, items in additions.items() if items]
    for position, insertion in sorted(edits, reverse=True):
        text = text[:position] + insertion + text[position:]
    return text


def _locate(text: str, path: tuple[str, ...]) -> tuple[int, int]:
    """The span of the value at ``path`` (keys of nested objects), from its bracket to just after its close."""
    start = _skip(text, 0)
    end = _DECODER.raw_decode(text, start)[1] if not path else 0
    for key in path:
        found = _members(text, start).get(key)
        if found is None:
            raise KeyError(f"the JSON has no {'.'.join(path)}")
        start, end = found
    return start, end


def _members(text: str, start: int) -> dict[str, tuple[int, int]]:
    """Each member of the object at ``start``: its key and its value's span."""
    if text[start] != "{":
        return {}
    found: dict[str, tuple[int, int]] = {}
    index = _skip(text, start + 1)
    while text[index] != "}":
        key, index = _DECODER.raw_decode(text, index)
        index = _skip(text, _skip(text, index) + 1)  # past the colon
        end = _DECODER.raw_decode(text, index)[1]
        found[key] = (index, end)
        index = _skip(text, end)
        if text[index] == ",":
            index = _skip(text, index + 1)
    return found


def _insertion(text: str, start: int, end: int, items: Sequence[Any]) -> tuple[int, str]:
    """Where the new items go in the container at ``start``..``end`` (right after its last item), and their
    text, laid out as its first item is (its line and indentation, or none; ``": "`` or ``":"``)."""
    first = _skip(text, start + 1)
    empty = first == end - 1
    lead = "" if empty else text[start + 1 : first]
    last = _skip_back(text, end - 1)
    indent = max(1, len(lead) - len(text[last + 1 : end - 1])) if "\n" in lead else None
    spaced = indent is not None or '": ' in text  # the file's own style: json.dumps's, or serde's compact one
    colon, comma = (": ", ", ") if spaced else (":", ",")
    if indent is not None:
        comma = "," + lead

    def dump(value: Any) -> str:
        if indent is None:
            return json.dumps(value, ensure_ascii=False, separators=(comma, colon))
        return json.dumps(value, ensure_ascii=False, indent=indent).replace("\n", lead)

    if text[start] == "{":
        parts = [json.dumps(key, ensure_ascii=False) + colon + dump(value) for key, value in items]
    else:
        parts = [dump(item) for item in items]
    body = comma.join(parts)
    return (end - 1, body) if empty else (last + 1, comma + body)


def _skip(text: str, index: int) -> int:
    while index < len(text) and text[index] in _SPACE:
        index += 1
    return index


def _skip_back(text: str, index: int) -> int:
    """The last index before ``index`` that is not whitespace."""
    index -= 1
    while text[index] in _SPACE:
        index -= 1
    return index
