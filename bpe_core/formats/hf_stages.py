"""A ``tokenizer.json``'s normalizer, pre-tokenizer and decoder, read into :mod:`bpe_core.pipeline`
stages; anything those cannot reproduce exactly is a :class:`FormatError` naming it.

Regexes in these files are Oniguruma's: they are translated (:func:`.from_oniguruma`) and compiled
with the project's checks (:func:`bpe_core.pretokenize.compile_pattern`); they run with its time budget.
"""

from __future__ import annotations

from typing import Any

import regex

from ..pipeline import decoders, normalizers, pre_tokenizers
from ..pipeline.splitting import BEHAVIORS
from ..pretokenize import compile_pattern, compile_regex
from ._common import FormatError, PathLike, json_type_name
from .oniguruma_to_python import from_oniguruma

NORMALIZERS = (
    "Sequence",
    "NFC",
    "NFD",
    "NFKC",
    "NFKD",
    "Lowercase",
    "Replace",
    "Prepend",
    "Strip",
    "StripAccents",
    "BertNormalizer",
)
PRE_TOKENIZERS = (
    "Sequence",
    "Split",
    "ByteLevel",
    "Digits",
    "Metaspace",
    "Punctuation",
    "Whitespace",
    "WhitespaceSplit",
    "BertPreTokenizer",
    "CharDelimiterSplit",
)
DECODERS = ("Sequence", "ByteLevel", "Metaspace", "ByteFallback", "Fuse", "Strip", "Replace", "BPEDecoder")


class Reader:
    """Field access that names the file and the field in every complaint."""

    def __init__(self, source: PathLike):
        self.source = source

    def fail(self, where: str, message: str) -> FormatError:
        return FormatError(self.source, message, field=where)

    def kind(self, spec: Any, where: str, allowed: tuple[str, ...]) -> str:
        if not isinstance(spec, dict) or not isinstance(spec.get("type"), str):
            raise self.fail(where, f"must be an object with a string 'type', not {json_type_name(spec)}")
        if spec["type"] not in allowed:
            raise self.fail(where + ".type", f"{spec['type']} is not supported; these load: {', '.join(allowed)}")
        return spec["type"]

    def value(self, spec: dict, key: str, where: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if key not in spec or (spec[key] is None and default is not ...):
            if default is ...:
                raise self.fail(f"{where}.{key}", "is missing")
            return default
        found = spec[key]
        if not isinstance(found, kind) or (kind is int and isinstance(found, bool)):
            raise self.fail(f"{where}.{key}", f"must be {_kind_name(kind)}, not {json_type_name(found)}")
        return found

    def steps(self, spec: dict, key: str, where: str) -> list[Any]:
        found = spec.get(key)
        if not isinstance(found, list):
            raise self.fail(f"{where}.{key}", f"must be a list, not {json_type_name(found)}")
        return found

    def pattern(self, spec: dict, where: str, *, splits: bool = False) -> tuple[regex.Pattern, str]:
        """A ``{"String": ...}`` or ``{"Regex": ...}`` pattern, compiled, and as the file spells it. A Split's
        (``splits``) is checked as a pre-tokenization pattern; a Replace's may match only empty text (``^``)."""
        pattern = spec.get("pattern")
        where = f"{where}.pattern"
        if not isinstance(pattern, dict) or len(pattern) != 1 or not isinstance(next(iter(pattern.values())), str):
            raise self.fail(where, 'must be {"String": text} or {"Regex": regex}')
        ((kind, text),) = pattern.items()
        if kind == "String":
            return regex.compile(regex.escape(text)), text
        if kind != "Regex":
            raise self.fail(where, f'must be {{"String": text}} or {{"Regex": regex}}, not {kind!r}')
        try:
            translated = from_oniguruma(text)
            compiled = compile_pattern(translated) if splits else compile_regex(translated)
        except ValueError as error:
            raise self.fail(where, str(error)) from None
        assert compiled is not None
        return compiled, text

    def char(self, spec: dict, key: str, where: str, default: Any = ...) -> str:
        found = self.value(spec, key, where, str, default)
        if len(found) != 1:
            raise self.fail(f"{where}.{key}", f"must be one character, not {found!r}")
        return found


MAX_INSERTED_CHARS = 1000
"""Longest text a normalizer may insert (Prepend, Replace): each insertion repeats, so a huge one
in a stranger's file would blow up every text it normalizes. Real files insert a character or two."""


def _inserted(text: str, read: Reader, where: str) -> str:
    if len(text) > MAX_INSERTED_CHARS:
        raise read.fail(where, f"inserts {len(text):,} characters; at most {MAX_INSERTED_CHARS:,} are allowed")
    return text


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    names = {bool: "true or false", int: "a whole number", str: "a string", float: "a number"}
    return " or ".join(names.get(k, k.__name__) for k in kinds)


def read_normalizer(spec: Any, read: Reader, where: str = "normalizer") -> normalizers.Normalizer:
    kind = read.kind(spec, where, NORMALIZERS)
    if kind == "Sequence":
        steps = read.steps(spec, "normalizers", where)
        return normalizers.Sequence(
            [read_normalizer(step, read, f"{where}.normalizers[{i}]") for i, step in enumerate(steps)]
        )
    if kind in ("NFC", "NFD", "NFKC", "NFKD"):
        return normalizers.Unicode(kind)  # type: ignore[arg-type]  # one of the four, just checked
    if kind == "Lowercase":
        return normalizers.Lowercase()
    if kind == "Replace":
        compiled, shown = read.pattern(spec, where)
        content = _inserted(read.value(spec, "content", where, str), read, f"{where}.content")
        return normalizers.Replace(compiled, content, shown)
    if kind == "Prepend":
        return normalizers.Prepend(_inserted(read.value(spec, "prepend", where, str), read, f"{where}.prepend"))
    if kind == "StripAccents":
        return normalizers.StripAccents()
    if kind == "BertNormalizer":
        lowercase = read.value(spec, "lowercase", where, bool)
        return normalizers.Bert(
            read.value(spec, "clean_text", where, bool),
            read.value(spec, "handle_chinese_chars", where, bool),
            read.value(spec, "strip_accents", where, bool, lowercase),  # null or absent: as lowercase
            lowercase,
        )
    return normalizers.Strip(read.value(spec, "strip_left", where, bool), read.value(spec, "strip_right", where, bool))


def read_pre_tokenizer(spec: Any, read: Reader, where: str = "pre_tokenizer") -> pre_tokenizers.PreTokenizer:
    kind = read.kind(spec, where, PRE_TOKENIZERS)
    if kind == "Sequence":
        steps = read.steps(spec, "pretokenizers", where)
        return pre_tokenizers.Sequence(
            [read_pre_tokenizer(step, read, f"{where}.pretokenizers[{i}]") for i, step in enumerate(steps)]
        )
    if kind == "Split":
        compiled, shown = read.pattern(spec, where, splits=True)
        behavior = _behavior(spec, read, where, None)
        return pre_tokenizers.Split(compiled, behavior, read.value(spec, "invert", where, bool, False), shown)
    if kind == "ByteLevel":
        return pre_tokenizers.ByteLevel(
            read.value(spec, "add_prefix_space", where, bool, True), read.value(spec, "use_regex", where, bool, True)
        )
    if kind == "Digits":
        return pre_tokenizers.Digits(read.value(spec, "individual_digits", where, bool, False))
    if kind == "Metaspace":
        return pre_tokenizers.Metaspace(
            read.char(spec, "replacement", where, "▁"),
            _prepend_scheme(spec, read, where),
            read.value(spec, "split", where, bool, True),
        )
    if kind == "Punctuation":
        return pre_tokenizers.Punctuation(_behavior(spec, read, where, "Isolated"))
    if kind == "Whitespace":
        return pre_tokenizers.Whitespace()
    if kind == "BertPreTokenizer":
        return pre_tokenizers.BertPreTokenizer()
    if kind == "CharDelimiterSplit":
        return pre_tokenizers.CharDelimiterSplit(read.char(spec, "delimiter", where))
    return pre_tokenizers.WhitespaceSplit()


def _behavior(spec: dict, read: Reader, where: str, default: str | None) -> str:
    behavior = read.value(spec, "behavior", where, str, ... if default is None else default)
    if behavior not in BEHAVIORS:
        raise read.fail(f"{where}.behavior", f"{behavior!r} is not a split behavior; allowed: {', '.join(BEHAVIORS)}")
    return behavior


def _prepend_scheme(spec: dict, read: Reader, where: str) -> str:
    scheme = read.value(spec, "prepend_scheme", where, str, "always")
    if scheme not in ("always", "first", "never"):
        raise read.fail(f"{where}.prepend_scheme", f"{scheme!r} is not always, first or never")
    if spec.get("add_prefix_space") is False:
        if scheme != "never" and "prepend_scheme" in spec:
            raise read.fail(f"{where}.add_prefix_space", "false does not match the prepend_scheme")
        scheme = "never"
    return scheme


def read_decoder(spec: Any, read: Reader, where: str = "decoder") -> decoders.Decoder:
    if spec is None:
        return decoders.Joined()
    kind = read.kind(spec, where, DECODERS)
    if kind == "Sequence":
        steps = read.steps(spec, "decoders", where)
        return decoders.Sequence([read_decoder(step, read, f"{where}.decoders[{i}]") for i, step in enumerate(steps)])
    if kind == "ByteLevel":
        return decoders.ByteLevel()
    if kind == "Metaspace":
        return decoders.Metaspace(read.char(spec, "replacement", where, "▁"), _prepend_scheme(spec, read, where))
    if kind == "ByteFallback":
        return decoders.ByteFallback()
    if kind == "Fuse":
        return decoders.Fuse()
    if kind == "Strip":
        return decoders.Strip(
            read.char(spec, "content", where),
            read.value(spec, "start", where, int),
            read.value(spec, "stop", where, int),
        )
    if kind == "Replace":
        compiled, _ = read.pattern(spec, where)
        return decoders.Replace(compiled, read.value(spec, "content", where, str))
    return decoders.BPEDecoder(read.value(spec, "suffix", where, str, "</w>"))
