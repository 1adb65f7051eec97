"""Export and import: download the tokenizer in every format bpe_core writes; load one from files."""

from __future__ import annotations

import streamlit as st

from ui import compare as cmp
from ui import encoding as enc
from ui import state

state.setup_page("Export", "💾")
ss = st.session_state
st.title("Export and import")

trained = state.current()

st.subheader("Download")
options = (["__trained__"] if trained is not None else []) + [f"file:{name}" for name in ss["loaded_tokenizers"]]
if not options:
    st.info("Nothing to export yet: train a tokenizer on the Train page, or load one below.")
else:
    if ss.get("export_choice") not in options:
        ss["export_choice"] = options[0]
    st.selectbox(
        "Tokenizer",
        options,
        format_func=lambda o: f"Trained: {trained.label}" if o == "__trained__" else "File: " + o[5:],
        key="export_choice",
    )
    choice = ss["export_choice"]
    if choice == "__trained__" and trained.kind == state.KIND_CLASSIC:
        st.info(
            "Classic (character-level, `</w>`) BPE has no byte-level vocabulary, so these formats cannot hold "
            "it. Train a byte-level tokenizer to export it."
        )
    else:
        if choice == "__trained__":
            tokenizer, key = trained.tokenizer, trained.digest
            training = {**trained.settings, "corpus": trained.corpus_label, "seconds": round(trained.result.seconds, 3)}
        else:
            tokenizer, key, training = ss["loaded_tokenizers"][choice[5:]], choice, None
        st.caption(
            f"{len(tokenizer.vocab):,} tokens ({tokenizer.num_merges:,} merges, "
            f"{len(tokenizer.special_tokens)} special). Each file loads back with the same token ids."
        )
        columns = st.columns(len(cmp.EXPORT_LABELS))
        for column, (fmt, label) in zip(columns, cmp.EXPORT_LABELS.items()):
            try:
                files = cmp.session_cached(
                    ("export", key, fmt), lambda fmt=fmt: cmp.export_files(tokenizer, fmt, training)
                )
            except Exception as error:  # noqa: BLE001 -- a format that cannot hold this tokenizer says why
                column.error(f"{label}: {error}")
                continue
            ((file_name, data),) = files.items()
            column.download_button(
                label,
                data,
                file_name=file_name,
                mime=cmp.EXPORT_MIME[fmt],
                key=f"download_{fmt}",
                width="stretch",
                on_click="ignore",
                icon=":material/download:",
                help=cmp.EXPORT_HELP[fmt],
            )
            column.caption(f"{file_name} · {state.human_bytes(len(data))}")
        st.caption(
            "tiktoken files hold only the ranks: the pattern and special tokens are not part of that format "
            "(on import, GPT-2's pattern is assumed and special tokens are dropped)."
        )

st.subheader("Import")
st.markdown(
    "Load a tokenizer from any of those files — `bpe-playground.json`, `tokenizer.json`, `*.tiktoken`, "
    "`vocab.json` + `merges.txt` (both at once) or the GPT-2 zip — to use it on the **Encode** and "
    "**Compare** pages."
)
files = st.file_uploader("Tokenizer file(s)", accept_multiple_files=True, key="import_files")
if st.button("Load tokenizer", key="import_button", disabled=not files):
    try:
        loaded, label = enc.load_uploaded(cmp.expand_uploads(files))
    except ValueError as error:
        st.error(f"{state.md_escape(str(error))} Nothing was changed: the current tokenizers stay as they were.")
    except Exception as error:  # noqa: BLE001 -- never a traceback in the browser
        st.error(
            f"Could not load a tokenizer: {type(error).__name__}: {state.md_escape(str(error))}. Nothing was changed."
        )
    else:
        ss["loaded_tokenizers"][label] = loaded
        ss["cmp_tokenizer"] = f"file:{label}"
        ss["encode_tokenizer"] = f"file:{label}"
        st.success(
            f"Loaded {state.md_escape(label)}: {len(loaded.vocab):,} tokens. "
            "It is now selected on the Encode and Compare pages."
        )

if ss["loaded_tokenizers"]:
    st.caption(
        "Loaded in this session: "
        + ", ".join(
            f"{state.md_escape(name)} ({len(tok.vocab):,} tokens)" for name, tok in ss["loaded_tokenizers"].items()
        )
    )
    st.page_link("pages/3_Compare.py", label="Compare →")
    st.page_link("pages/2_Encode.py", label="Encode →")
