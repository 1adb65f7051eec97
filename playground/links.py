"""Links: query parameters to session values and back, parsed here and nowhere else.

:func:`parse_link` turns query parameters into values for :class:`~playground.session.Session` and, for
each value it drops, one plain message naming the parameter and what is allowed.
:func:`link_params` is the inverse, so "copy link" and the address bar are the same serialisation.

>>> values, problems = parse_link({"vocab": ["²"], "view": ["side"], "bogus": ["1"]})
>>> values
{'view': 'side'}
>>> [p.parameter for p in problems]
['vocab', 'bogus']
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from playground import references
from playground.corpora import ENCODE_SAMPLES, LANGUAGE_SLUGS, SLUGS
from playground.fields import LinkValueError
from playground.i18n import Later, later
from playground.session import FIELDS, PAGE_FIELDS, SHARED_FIELDS, TOKENIZER_FIELDS, URL_FIELDS, Session

MAX_VALUE_CHARS = 2_000
"""A query value longer than this is refused before it is parsed."""
WORKSPACE_PARAM = "ws"
_WORKSPACE_ID = re.compile(r"[a-z0-9]{8,32}")


@dataclass(frozen=True)
class LinkProblem:
    """A link parameter that was dropped, and why (shown with playground.i18n.t; str() gives the English sentence)."""

    parameter: str
    message: Later


def parse_link(params: Mapping[str, Sequence[str]]) -> tuple[dict[str, Any], list[LinkProblem]]:
    """Values for the session from query parameters (each a list: a key may repeat), and what was dropped.

    >>> parse_link({"vocab": ["600", "700"], "sizes": ["300, 400"], "corpus": ["nope"]})[0]
    {'sizes': [300, 400]}
    >>> [str(p.message) for p in parse_link({"round": ["9" * 5000]})[1]]  # doctest: +ELLIPSIS
    ['Link parameter “round” was ignored: it is 5,000 characters long ...']
    """
    values: dict[str, Any] = {}
    problems: list[LinkProblem] = []
    for parameter, given in params.items():
        if parameter == WORKSPACE_PARAM:
            continue
        field = URL_FIELDS.get(parameter)
        if field is None or field.parse is None:
            known = ", ".join(sorted(URL_FIELDS))
            problems.append(
                LinkProblem(
                    parameter,
                    later(
                        "Unknown link parameter “{parameter}” was ignored (known: {known}).",
                        parameter=_quote(parameter),
                        known=known,
                    ),
                )
            )
            continue
        if len(given) != 1:
            problems.append(
                LinkProblem(
                    parameter,
                    later(
                        "Link parameter “{parameter}” is given {times} times; give it once.",
                        parameter=parameter,
                        times=len(given),
                    ),
                )
            )
            continue
        (raw,) = given
        if len(raw) > MAX_VALUE_CHARS:
            problems.append(
                LinkProblem(
                    parameter,
                    later(
                        "Link parameter “{parameter}” was ignored: it is {length:,} characters long "
                        "(at most {most:,}).",
                        parameter=parameter,
                        length=len(raw),
                        most=MAX_VALUE_CHARS,
                    ),
                )
            )
            continue
        try:
            values[field.name] = field.parse(raw)
        except LinkValueError as error:
            problems.append(
                LinkProblem(
                    parameter,
                    later(
                        "Link parameter “{parameter}” = “{value}” was ignored: it must be {allowed}. The page uses its "
                        "default instead.",
                        parameter=parameter,
                        value=_quote(raw),
                        allowed=error.allowed,
                    ),
                )
            )
    if any(problem.parameter == Session.base.url for problem in problems):
        # A link that continues a base the app cannot continue describes no tokenizer it can make: its other
        # tokenizer settings (a vocab size of 136,256, say) are dropped with it, so nothing else is trained in its
        # place and the session's own tokenizer and settings stay.
        values = {name: value for name, value in values.items() if name not in TOKENIZER_FIELDS}
    return values, problems


def _quote(value: str) -> str:
    return value if len(value) <= 40 else value[:40] + "…"


def start_in_the_language(s: Session, given: Container[str]) -> None:
    """A first visit whose link names no corpus starts on its language's sample (``LANGUAGE_SLUGS``: Chinese on the
    Chinese classics), at that sample's vocab size unless the link (its parameters ``given``) gives one, compares with
    its language's models (``references.language_defaults``: in Chinese Qwen, DeepSeek and GPT-4o) unless the link
    names some, and encodes a text in its language (``ENCODE_SAMPLES``) unless the link gives one; with no Encode
    view in the link, the language's other models side by side (Encode opens on the first)."""
    if "refs" not in given:
        s.refs = references.language_defaults(s.lang or "")
    if "text" not in given and (sample := ENCODE_SAMPLES.get(s.lang or "")) is not None:
        s.text = sample
        if "tokenizer" not in given and "also" not in given:
            s.also = s.refs[1:]
    slug = LANGUAGE_SLUGS.get(s.lang or "")
    if slug is not None:
        s.corpus = slug
        if "vocab" not in given:
            s.vocab = SLUGS[slug].vocab_size


def workspace_id(params: Mapping[str, Sequence[str]]) -> str | None:
    """The reload store's id in a link (``ws``), when it is well formed."""
    given = params.get(WORKSPACE_PARAM) or []
    return given[0] if len(given) == 1 and _WORKSPACE_ID.fullmatch(given[0]) else None


def link_params(session: Session, page: str) -> dict[str, str]:
    """The query parameters that reproduce ``page`` as this session shows it (what "copy link" gives).

    >>> link_params(Session({}), "merges")["corpus"], "regex" in link_params(Session({}), "merges")
    ('python-reference-excerpt', False)
    """
    return _params(session, (*PAGE_FIELDS[page], *SHARED_FIELDS))


def tokenizer_params(values: Mapping[str, Any]) -> dict[str, str]:
    """The link parameters that retrain a tokenizer, from its settings as session field values
    (``playground.trained.Request.settings``): each field as its declaration writes it.

    >>> tokenizer_params({"corpus": "toy-aaabdaaabac", "kind": "classic", "vocab": 12, "pattern": None})
    {'corpus': 'toy-aaabdaaabac', 'kind': 'classic', 'vocab': '12', 'specials': '<|endoftext|>'}
    """
    return _params(Session({FIELDS[name].key: value for name, value in values.items()}), TOKENIZER_FIELDS)


def _params(session: Session, names: Iterable[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for name in names:
        field = FIELDS[name]
        value = getattr(session, name)
        if field.url is not None and field.carries(value, session):
            params[field.url] = field.dump(value)
    return params


def signature(params: Mapping[str, Any]) -> str:
    """A canonical form of query parameters, to tell a new link from the page's own writes."""
    return "&".join(f"{key}={params[key]}" for key in sorted(params) if key != WORKSPACE_PARAM)


def page_address(url: str, base_url_path: str, page_path: str) -> str:
    """The address of the page shown, from the address the browser asked for: its origin, the app's own path
    (``server.baseUrlPath``) and the page's path. Not the path asked for: an unknown one (``/NoSuchPage``) opens the
    first page, and a link copied there would carry the wrong path on.

    >>> page_address("http://localhost:8501/NoSuchPage?x=1", "", "")
    'http://localhost:8501/'
    >>> page_address("https://e.org/bpe/Merges", "/bpe/", "Encode")
    'https://e.org/bpe/Encode'
    """
    parts = urlsplit(url)
    prefix = "/".join(part for part in base_url_path.split("/") if part)
    path = "/" + "/".join(part for part in (prefix, page_path) if part)
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))
