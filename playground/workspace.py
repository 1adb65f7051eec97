"""A tab's work as the store keeps it (``runtime.store``): the session's saved fields as a small JSON document,
and what is big (a corpus, a trained tokenizer, a tokenizer loaded from files) as blobs the document names.

Every field declared ``saved`` (``playground.session``) goes in the document; a value that is not plain JSON is written
as one of four forms, each naming a blob by a key made from its content, so equal content is stored once:

==================  =========================================================  ================================
form                for                                                        blob
==================  =========================================================  ================================
``{"$text": d}``    a string of over :data:`INLINE_CHARS` characters             ``text:<sha256>`` (UTF-8)
``{"$upload": …}``  an uploaded or pasted text (name, digest, bytes replaced)   ``text:<sha256>``
``{"$trained": …}`` the trained tokenizer: its request, whose key names the blob ``trained:<request key>``
``{"$loaded": …}``  loaded tokenizers: [label, {files, pattern}] each          ``file:<sha256>`` (each file)
==================  =========================================================  ================================

>>> document, blobs = encode({"vocab": 600, "pasted": Upload("pasted text", "low lower", 0, "d1")})
>>> json.loads(document)["values"]
{'vocab': 600, 'pasted': {'$upload': ['pasted text', 'd1', 0]}}
>>> sorted(blobs)
['text:d1']
>>> decode(document, {"text:d1": b"low lower"}.get).values["pasted"].text
'low lower'
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from bpe_core import Tokenizer
from bpe_core.encoding.sentencepiece import SentencePieceTokenizer
from bpe_core.formats import NOT_GIVEN
from bpe_core.formats.native import tokenizer_from_json, tokenizer_to_json
from bpe_core.pipeline import PipelineTokenizer
from playground import caches
from playground.i18n import later, t
from playground.session import FIELDS, Session
from playground.text import human_bytes, plain
from playground.text_files import Upload
from playground.tokenizer_files import File, load_files, loaded_from
from playground.trained import Request, Trained
from playground.trained_codec import from_bytes, to_bytes
from runtime.store import BlobSource, Removed, default_store, text_digest

FORMAT, VERSION = "bpe-playground-workspace", 1
LOADED_TYPES = (Tokenizer, PipelineTokenizer, SentencePieceTokenizer)
"""What the import box loads (the session's ``loaded``): kept across a reload as the files it loaded them from
(``playground.tokenizer_files``) and loaded again. One loaded otherwise (an older document's) is kept as the
project's JSON (``tokenizer:<sha256>``) when its merges can be written."""
INLINE_CHARS = 2_000
"""Longer strings (a pasted text, a long Encode text) go to a blob: the document stays small."""


def encode(values: Mapping[str, Any]) -> tuple[str, dict[str, BlobSource]]:
    """The document for these field values, and the blobs it refers to (key -> source of the bytes)."""
    blobs: dict[str, BlobSource] = {}

    def loaded(label: str, tokenizer: Any) -> list[Any] | None:
        source = loaded_from(tokenizer)
        if source is not None:  # kept as its files, loaded again on reload: any family, never converted
            files = []
            for file, digest in zip(source.files, source.digests):
                blobs[f"file:{digest}"] = _file_bytes(file)
                files.append([file.name, digest])
            return [label, {"files": files, "pattern": source.pattern}]
        if not isinstance(tokenizer, Tokenizer):  # a pipeline or SentencePiece model the box did not load
            return None
        digest, data = _tokenizer_json(tokenizer)
        if not digest:  # it cannot be written as merges (Llama 3's, Qwen 3.6's ranks): not kept on reload
            return None
        blobs[f"tokenizer:{digest}"] = data
        return [label, digest]

    def form(value: Any) -> Any:
        if isinstance(value, Upload):
            blobs[f"text:{value.digest}"] = _text_bytes(value.text)
            return {"$upload": [value.name, value.digest, value.replaced_bytes]}
        if isinstance(value, Trained):
            blobs[f"trained:{value.request.key}"] = lambda: to_bytes(value)
            return {"$trained": asdict(value.request)}
        if isinstance(value, str) and len(value) > INLINE_CHARS:
            digest = text_digest(value)
            blobs[f"text:{digest}"] = _text_bytes(value)
            return {"$text": digest}
        if isinstance(value, dict) and value and all(isinstance(item, LOADED_TYPES) for item in value.values()):
            return {"$loaded": [entry for label, tokenizer in value.items() if (entry := loaded(label, tokenizer))]}
        if isinstance(value, tuple):
            return list(value)
        return value

    values = {name: form(value) for name, value in values.items()}
    return json.dumps({"format": FORMAT, "version": VERSION, "values": values}, ensure_ascii=False), blobs


_tokenizer_digests = caches.TOKENIZER_DIGESTS


def _tokenizer_json(tokenizer: Tokenizer) -> tuple[str, BlobSource]:
    """A loaded tokenizer's digest (of its project JSON, computed once per tokenizer: a run saves the workspace
    every time) and the source of that JSON; the digest is "" for a tokenizer the project's JSON cannot hold
    (ranks with tokens no merge makes, as Qwen 3.6's whole phrases: they encode exactly, by ranks)."""

    def data() -> bytes:
        return json.dumps(tokenizer_to_json(tokenizer), ensure_ascii=False).encode("utf-8")

    digest = _tokenizer_digests.get(tokenizer)
    if digest is None:
        try:
            digest = hashlib.sha256(data()).hexdigest()
        except ValueError:
            digest = ""  # remembered too: deriving the merges again would fail again, after seconds
        _tokenizer_digests[tokenizer] = digest
    return digest, data


def _file_bytes(file: File) -> BlobSource:
    return lambda: file.data


def _text_bytes(text: str) -> BlobSource:
    return lambda: text.encode("utf-8", errors="surrogatepass")


@dataclass
class Decoded:
    """Field values read back, and the names of those that could not be (their blob was missing or unreadable)."""

    values: dict[str, Any] = field(default_factory=dict)
    lost: list[str] = field(default_factory=list)


def decode(document: str, blob: Callable[[str], bytes | None]) -> Decoded:
    """The field values of a document :func:`encode` wrote (``blob(key)`` reads a blob, None when missing).

    A document of another format or version restores nothing (``lost`` says so: ``["*"]``)."""
    decoded = Decoded()
    try:
        parsed = json.loads(document)
        if not isinstance(parsed, dict) or parsed.get("format") != FORMAT or parsed.get("version") != VERSION:
            raise ValueError("another format")
        values = parsed["values"]
        if not isinstance(values, dict):
            raise TypeError("values must be an object")
    except (ValueError, KeyError, TypeError, RecursionError):
        decoded.lost.append("*")
        return decoded
    for name, value in values.items():
        try:
            decoded.values[name] = _value(value, blob)
        # A blob gone missing, written by another version, or damaged on disk (a zlib or struct error, a header
        # nested past the parser's depth): whatever reading one value raises, that value is lost, not the page.
        except Exception:
            decoded.lost.append(name)
    return decoded


def _value(value: Any, blob: Callable[[str], bytes | None]) -> Any:
    if not (isinstance(value, dict) and len(value) == 1 and next(iter(value)).startswith("$")):
        return value
    ((form, body),) = value.items()
    if form == "$text":
        return _read(blob, f"text:{body}").decode("utf-8", errors="surrogatepass")
    if form == "$upload":
        name, digest, replaced = body
        return Upload(name, _read(blob, f"text:{digest}").decode("utf-8", errors="surrogatepass"), replaced, digest)
    if form == "$trained":
        tuples = {name: tuple(body.get(name, ())) for name in ("special_tokens", "languages")}  # JSON keeps lists
        request = Request(**{**body, **tuples})
        return from_bytes(request, _read(blob, f"trained:{request.key}"))
    if form == "$loaded":
        return {label: _loaded(label, entry, blob) for label, entry in body}
    raise ValueError(f"unknown form {form}")


def _loaded(label: str, entry: Any, blob: Callable[[str], bytes | None]) -> Any:
    if isinstance(entry, str):  # the project's JSON, by its digest (a tokenizer kept before files were)
        return tokenizer_from_json(json.loads(_read(blob, f"tokenizer:{entry}")), source=label)
    files = [File(name, _read(blob, f"file:{digest}")) for name, digest in entry["files"]]
    return load_files(files, NOT_GIVEN if entry["pattern"] is None else entry["pattern"])[0]


def _read(blob: Callable[[str], bytes | None], key: str) -> bytes:
    data = blob(key)
    if data is None:
        raise LookupError(key)
    return data


# -- a tab's work, saved after each run and brought back by a reload or after a restart ----------------------


def save(s: Session) -> None:
    """Keep the session's saved fields (its work) under its tab's id, for its browser."""
    values = {name: getattr(s, name) for name, field in FIELDS.items() if field.saved and field.key in s.state}
    document, blobs = encode(values)
    default_store().save(s.browser, s.workspace, document, blobs)


def save_logged(s: Session) -> Exception | None:
    """:func:`save`, for a tab that has an id; a failure is logged and returned (the caller says so, or not), never
    raised: the work stays in the session."""
    if not s.workspace:
        return None
    try:
        save(s)
    except Exception as error:  # noqa: BLE001 -- whatever the store raises, the page goes on
        logging.getLogger("bpe_playground").exception("saving the workspace failed")
        return error
    return None


def restore(s: Session, workspace: str) -> Removed | bool:
    """Bring back the tab's work (with a notice of what came back or was lost). Returns True when the work was
    this browser's (the link is then the tab's own, not a stranger's), a :class:`Removed` note when the store
    had removed it (the caller says so, once the link's settings are read), False when there was nothing."""
    found = default_store().load(s.browser, workspace)
    if found is None or isinstance(found, Removed):
        return found or False
    decoded = decode(found.document, found.blob)
    for name, value in decoded.values.items():
        if name in FIELDS and FIELDS[name].saved:
            if _fits(FIELDS[name].initial(), value):
                setattr(s, name, value)
            else:
                decoded.lost.append(name)
    if decoded.lost:
        s.notice(
            "warning",
            later(
                "Your work in this tab was restored after the reload, except what could not be read back: {fields}.",
                fields=plain(", ".join(decoded.lost)),
            ),
        )
    else:
        s.notice("success", later("Your work in this tab was restored after the reload."))
    return True


_JSON_KINDS = ((bool,), (int, float), (str,), (list, tuple), (dict,))


def _fits(default: Any, value: Any) -> bool:
    """Whether a value read back can be a field's whose default is ``default``: of the same JSON kind (a whole number
    where a number goes), or None. A document of another version, or edited by hand, may hold a text where a size
    goes: that field is lost, named, rather than failing later on some page.

    >>> _fits(600, "abc"), _fits(0.1, 1), _fits(True, 1), _fits([300], (300,)), _fits(None, "x")
    (False, True, False, True, True)
    """
    if value is None or default is None:
        return True
    kinds = next((kinds for kinds in _JSON_KINDS if isinstance(default, kinds)), None)  # bool first: an int too
    if kinds is None:
        return True  # an object a form of its own brought back (an upload, a trained tokenizer)
    return isinstance(value, kinds) and (kinds == (bool,) or not isinstance(value, bool))


def removal_message(removed: Removed, own_text: bool) -> str:
    """What the page says when a tab's work was removed from the store: what, why, and what to do (Markdown-safe)."""
    ago = _ago(time.time() - removed.touched)
    if removed.reason == "idle":
        why = t(
            "the server keeps work for {days:g} days after its last use, and this tab's was last used {ago}",
            days=removed.max_idle_seconds / 86_400,
            ago=ago,
        )
    else:
        why = t(
            "the server keeps at most {budget} of everyone's work and removes the least recently used first; this "
            "tab's ({size}) was last used {ago}",
            budget=human_bytes(removed.max_bytes),
            size=human_bytes(removed.size),
            ago=ago,
        )
    then = (
        t("Your text was removed with it: add it again on the Train page, then train.")
        if own_text
        else t("Its settings are still in the address: one click trains it again.")
    )
    return t("Your work from before the reload was removed: {why}. {then}", why=why, then=then)


def _ago(seconds: float) -> str:
    if seconds < 3600:
        return t("{n:,.0f} minutes ago", n=max(1, seconds // 60))
    if seconds < 2 * 86_400:
        return t("{n:,.0f} hours ago", n=seconds // 3600)
    return t("{n:,.0f} days ago", n=seconds // 86_400)
