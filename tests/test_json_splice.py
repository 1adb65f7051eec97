"""``json_splice.spliced``: new members written into a JSON text in place. Whatever the layout (``json.dumps``'s
compact, spaced or indented ones), the result parses to the document with the items appended, and the text
before the first insertion is the original's, byte for byte."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from bpe_core.training.extension.json_splice import spliced

keys = st.text(st.sampled_from('ab"\\é\n Ġ'), min_size=1, max_size=4)
scalars = st.none() | st.booleans() | st.integers(-5, 10**6) | keys
values = st.recursive(
    scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(keys, inner, max_size=3), max_leaves=6
)
layouts = st.sampled_from(
    [{}, {"separators": (",", ":")}, {"indent": 1}, {"indent": 2}, {"indent": 4, "ensure_ascii": False}]
)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(keys, values, max_size=3),
    st.dictionaries(keys, values, max_size=3),
    st.lists(values, max_size=3),
    st.lists(st.tuples(keys, values), max_size=3),
    st.lists(values, max_size=3),
    layouts,
)
def test_spliced_parses_to_the_items_appended(vocab, rest, merges, new_members, new_elements, layout):
    document = {"before": rest, "model": {"vocab": vocab, "merges": merges}, "after": [1]}
    text = json.dumps(document, **layout)
    vocab_added = [(key, value) for key, value in new_members if key not in vocab]
    result = spliced(text, {("model", "vocab"): vocab_added, ("model", "merges"): new_elements})
    expected = json.loads(text)
    expected["model"]["vocab"].update(vocab_added)
    expected["model"]["merges"] += new_elements
    parsed = json.loads(result)
    assert parsed == expected and list(parsed["model"]["vocab"]) == list(expected["model"]["vocab"])
    first = text.index('"model"')
    assert result[:first] == text[:first] and result.endswith(text[text.rindex('"after"') :])
