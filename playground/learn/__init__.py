"""Learning aids beside the Merges player: the short trainers shown as code (:mod:`.trainers`, real code that
trains what ``bpe_core`` trains), and how the code view reads a round of the trace (:mod:`.code_view`)."""
