"""What every format module shares: the error type, reading and writing files, strict JSON, field checks."""

from __future__ import annotations

import enum
import json
import os
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any, Final, TypeVar

from ..byte_order import text_encoding
from ..encoding.arguments import UNUSED_IDS_ALLOWED, check_id_space
from ..encoding.ranks import unmade_by_merges
from ..encoding.tokenizer import Tokenizer
from ..pipeline import PipelineTokenizer

T = TypeVar("T", bound=Any)

PathLike = str | os.PathLike


class NotGiven(enum.Enum):
    """The type of :data:`NOT_GIVEN` (an enum of one, so that type checkers follow ``is NOT_GIVEN``)."""

    NOT_GIVEN = "not given"


NOT_GIVEN: Final = NotGiven.NOT_GIVEN
"""``pattern``'s default where None already means "no pre-tokenization": the caller did not say."""
PatternArgument = str | None | NotGiven


class FormatError(ValueError):
    """A tokenizer file is malformed. The message names the file and the line or field at fault.

    >>> str(FormatError("merges.txt", "expected two tokens", line=3))
    'merges.txt, line 3: expected two tokens'
    >>> str(FormatError("t.json", "must be a list", field="merges"))
    't.json, field merges: must be a list'
    """

    def __init__(self, source: PathLike, message: str, *, line: int | None = None, field: str | None = None):
        self.source = str(source)
        self.line = line
        self.field = field
        self.reason = message
        where = self.source
        if line is not None:
            where += f", line {line}"
        if field is not None:
            where += f", field {field}"
        super().__init__(f"{where}: {message}")


def read_bytes(path: Path) -> bytes:
    """The file's bytes; a missing file is a FileNotFoundError that names it."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise FileNotFoundError(f"{path}: no such file") from None


def decode_text(data: bytes, source: PathLike) -> str:
    """Bytes as text (UTF-8, or UTF-16/32 with a byte order mark); a bad byte is a FormatError naming the line."""
    encoding = text_encoding(data[:4])
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1 if encoding.startswith("utf-8") else None
        name = encoding.upper()[:6]
        message = f"not valid {name} (byte 0x{data[error.start]:02X} at offset {error.start})"
        raise FormatError(source, message, line=line) from None


def read_text(path: Path) -> str:
    """The file's text (see :func:`decode_text`)."""
    return decode_text(read_bytes(path), path)


def parse_json(text: str, source: PathLike) -> Any:
    """``json.loads``, except that errors are FormatErrors about ``source`` and duplicate keys are refused."""

    def refuse_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        # json.loads would silently keep the last of two equal keys: a token listed twice.
        result: dict[str, Any] = {}
        for key, value in pairs:
            if key in result:
                raise FormatError(source, "the key appears twice in one object", field=repr(key))
            result[key] = value
        return result

    try:
        return json.loads(text, object_pairs_hook=refuse_duplicate_keys)
    except json.JSONDecodeError as error:
        raise FormatError(source, f"invalid JSON: {error.msg} (column {error.colno})", line=error.lineno) from None


def write_text(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    # newline="" so Windows does not turn "\n" into "\r\n" inside files other tools parse.
    with open(path, "w", encoding="utf-8", newline="") as file:
        file.write(text)
    return path


def target_file(path_or_dir: PathLike, default_name: str) -> Path:
    """The file to write: ``path_or_dir`` itself, or ``default_name`` inside it if it is a directory.

    A path that does not exist yet and has no suffix (``out/my_tok``) is taken as a directory to create.
    """
    path = Path(path_or_dir)
    if path.is_dir() or (not path.exists() and not path.suffix):
        return path / default_name
    return path


def typed_field(
    container: dict, key: str, kind: type, source: PathLike, where: str | None = None, default: Any = None
) -> Any:
    """``container[key]`` (``default`` if absent), refused unless it is a ``kind`` (dict, list or str).

    ``where`` names the field in the error; it defaults to ``key``.
    """
    value = container.get(key, default)
    if not isinstance(value, kind):
        expected = _JSON_TYPE_NAMES[kind]
        raise FormatError(source, f"must be {expected}, not {json_type_name(value)}", field=where or key)
    return value


def is_id(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


_JSON_TYPE_NAMES: dict[type, str] = {
    bool: "a boolean",
    int: "a number",
    float: "a number",
    str: "a string",
    list: "a list",
    dict: "an object",
}


def json_type_name(value: Any) -> str:
    """What a JSON value is, for an error message: ``null``, ``a number``, ``an object``..."""
    if value is None:
        return "null"
    return _JSON_TYPE_NAMES.get(type(value), type(value).__name__)


def regular_tokens(tokenizer: Tokenizer) -> list[tuple[int, bytes]]:
    """(id, bytes) of every non-special token, by id."""
    return sorted((identifier, token) for token, identifier in tokenizer.mergeable_ranks.items())


def refuse_normalization(tokenizer: Tokenizer, fmt: str) -> None:
    """A ValueError for formats with no place for a Unicode normalization (``gpt2``, ``tiktoken``): loaded back,
    the tokenizer would encode text that is not in that form differently (Qwen's NFC)."""
    if tokenizer.normalization is not None:
        raise ValueError(
            f"this tokenizer puts text in {tokenizer.normalization} first, which {fmt} files cannot store; "
            "save it as bpe-playground or hf"
        )


def checked_merges(tokenizer: Tokenizer, fmt: str) -> list[tuple[bytes, bytes]]:
    """The merges, for formats that rebuild every token from its merge (``gpt2``, ``bpe-playground``); a
    ValueError when some token is made by no merge of two tokens (Qwen 3.6's whole phrases, emitted only as a
    whole pre-token): those files would lose it."""
    merges = tokenizer.merges
    if tokenizer.merges_derived:
        unmade = unmade_by_merges(merges, tokenizer.mergeable_ranks)
        if unmade:
            shown = ", ".join(repr(token.decode("utf-8", errors="backslashreplace")) for token in unmade[:3])
            raise ValueError(
                f"{len(unmade):,} of this tokenizer's tokens ({shown}...) are made by no merge of two tokens (they are "
                f"only ever a whole pre-token), and {fmt} files build every token from a merge; save it as "
                "tiktoken or hf"
            )
    return merges


def build_tokenizer(source: PathLike, make: Callable[[], Tokenizer]) -> Tokenizer:
    """Run a Tokenizer constructor, reporting its complaints as a FormatError about ``source``."""
    try:
        return make()
    except FormatError:
        raise
    except ValueError as error:
        raise FormatError(source, str(error)) from None


def checked_ids(tokenizer: T, source: PathLike) -> T:
    """``tokenizer`` loaded from a file, or a FormatError if its ids leave far more unused than they use (one id of
    4,294,967,295 among 300 tokens: every analysis keeps a table by id). Checked at loading, not in the constructors:
    a model cut to its first merges keeps its ids, gaps and all (``truncated``)."""
    if tokenizer.n_vocab <= UNUSED_IDS_ALLOWED:
        return tokenizer
    if isinstance(tokenizer, PipelineTokenizer):  # its model's ids and its added tokens' (not each token's bytes)
        ids: Collection[int] = {**tokenizer.model.vocab_r, **tokenizer.added.spelling}.keys()
    else:
        ids = tokenizer.vocab.keys()
    try:
        check_id_space(ids)
    except ValueError as error:
        raise FormatError(source, str(error)) from None
    return tokenizer
