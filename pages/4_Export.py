"""Export and import: download the tokenizer in every format bpe_core writes; load one from files."""

from __future__ import annotations

import streamlit as st

from playground.bases import own_format
from playground.file_labels import shown_label
from playground.i18n import N_, t
from playground.session import FORMATS, REFERENCES, TRAINED, Session
from playground.text import human_bytes, plain
from ui import export, frame, import_box, tokenizer_output

s = frame.page("export")
st.title(t("Export and import"))

st.subheader(t("Download"))
if s.trained is None and s.link_pending:
    from ui import page_training

    page_training.ensure(s, N_("export it"))
sources = {choice: label for choice, label in tokenizer_output.tokenizer_choices(s).items() if choice not in REFERENCES}
if not sources:
    st.info(t("Nothing to export yet: train a tokenizer on the Train page, or load one below."))
else:
    if s.exported not in sources:
        s.exported = next(iter(sources))
    st.selectbox(
        t("Tokenizer"),
        list(sources),
        format_func=sources.__getitem__,
        key=Session.exported.key,
        on_change=export.keep_a_format_that_holds,
        args=(s,),
    )
    tokenizer = tokenizer_output.tokenizer_for(s, s.exported)
    if tokenizer is None:  # not reached: the choices are tokenizers the session has
        st.warning(t(tokenizer_output.NOT_IN_THIS_TAB))
        frame.stop()
    st.caption(export.size_caption(tokenizer))
    st.radio(
        t("Format"),
        FORMATS,
        format_func=lambda f: t(export.LABELS[f]),
        key=Session.format.key,
        horizontal=True,
        persist_state="session",
        help=t(export.HELP[s.format]),
    )
    trained = s.trained if s.exported == TRAINED else None
    info = export.training_info(trained.request, trained.result.seconds) if trained is not None else None
    continued = trained is not None and bool(trained.request.base)
    if continued and trained is not None:
        st.caption(
            t(
                "It continues {base}: every file keeps the base's ids and appends the new merges "
                "(its own format: {format}).",
                base=plain(trained.request.base_label),
                format=t(export.LABELS[own_format(trained.request.base)]),
            )
        )
    try:
        files = (
            export.extension_files(trained, s.format)
            if continued and trained
            else export.export_files(tokenizer, s.format, info)
        )
    except Exception as error:  # noqa: BLE001 -- a format that cannot hold this tokenizer says why (a limit of the
        st.warning(  # format, not the person's mistake: right after a file loads, a red error read as a failed load)
            t(
                "{format} cannot hold this tokenizer: {error}",
                format=t(export.LABELS[s.format]),
                error=plain(export.export_error(error, s.format), limit=600),
            )
        )
    else:
        ((file_name, data),) = files.items()
        st.download_button(
            t("Download {format}", format=t(export.LABELS[s.format])),
            data,
            file_name=file_name,
            mime=export.MIME[s.format],
            key="download",
            on_click="ignore",
            icon=":material/download:",
            type="primary",
        )
        st.caption(f"{plain(file_name)} · {human_bytes(len(data))} · {t(export.HELP[s.format])}")
        st.caption(export.round_trip_note(tokenizer, s.format))  # (of a file written: none when it cannot be)

st.subheader(t("Import"))
st.markdown(t("Load a tokenizer from any of those files to use it on the **Encode** and **Compare** pages."))
import_box.import_box(
    s,
    "export_import",
    on_loaded=lambda label: import_box.select_loaded(s, label),
    now_where=N_("Download above now offers it (the others stay under Tokenizer); Encode and Compare open on it too."),
)
if s.loaded:  # each label says its size already
    shown = (shown_label(label, tokenizer) for label, tokenizer in s.loaded.items())
    # Every file named (cut at 300 characters, the sixth was "…"), joined as the language joins a list.
    st.caption(t("Loaded in this session: {files}", files=plain(t("; ").join(shown), limit=3_000)))
    st.page_link("pages/3_Compare.py", label=t("Compare →"))
    st.page_link("pages/2_Encode.py", label=t("Encode →"))
