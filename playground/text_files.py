"""A person's own text: an uploaded file's bytes decoded (UTF-8, or UTF-16/32 with a byte-order mark), binary files
refused with a message naming the file, invalid bytes replaced and counted; :class:`Upload` keeps the text and its
digest, computed once."""

from __future__ import annotations

import re
from dataclasses import dataclass

from playground.i18n import Later, later
from runtime.store import text_digest


class CorpusError(ValueError):
    """A corpus that cannot be trained on; ``message`` (``playground.i18n.later``) is shown to the user."""

    def __init__(self, message: Later):
        super().__init__(str(message))
        self.message = message


@dataclass(frozen=True)
class Upload:
    """A user's own text (an uploaded file, or pasted held-out text), kept in the session."""

    name: str
    text: str
    replaced_bytes: int = 0  # bytes that were not valid in the file's encoding and became U+FFFD
    digest: str = ""


_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


def decode_upload(data: bytes, name: str = "file") -> Upload:
    """Decode an uploaded text file: UTF-8, or UTF-16/32 when the file starts with a byte-order mark.

    Binary files (NUL bytes, or mostly control/invalid bytes) raise CorpusError; invalid bytes in an
    otherwise text file are replaced by U+FFFD and counted. The message names the file as given
    (show it with ``playground.text.plain``).

    >>> decode_upload("héllo".encode("utf-16"), "a.txt").text
    'héllo'
    """
    if not data:
        raise CorpusError(later("{name} is empty: it has no text.", name=name))
    encoding, body = "utf-8", data
    for bom, bom_encoding in _BOMS:
        if data.startswith(bom):
            encoding, body = bom_encoding, data[len(bom) :]
            break
    if encoding == "utf-8" and b"\x00" in body[:65536]:
        raise CorpusError(
            later(
                "{name} looks like a binary file (it contains NUL bytes), not text. Upload a .txt file (UTF-8, or "
                "UTF-16/32 with a byte-order mark).",
                name=name,
            )
        )
    text = body.decode(encoding, errors="replace")
    replaced = _count_invalid(body, encoding)
    sample = text[:65536]
    controls = sum(1 for ch in sample if (ord(ch) < 32 and ch not in "\n\r\t\f\v") or ch == "\ufffd")
    if sample and controls / len(sample) > 0.3:
        raise CorpusError(
            later(
                "{name} looks like a binary file ({share:.0%} of its start is control characters or invalid text), not "
                "text. Upload a .txt file.",
                name=name,
                share=controls / len(sample),
            )
        )
    return Upload(name, text, replaced, text_digest(text))


_ESCAPED = re.compile("[\udc80-\udcff]")


def _count_invalid(data: bytes, encoding: str) -> int:
    """How many bytes are not part of a valid character (each becomes one escape)."""
    return len(_ESCAPED.findall(data.decode(encoding, errors="surrogateescape")))
