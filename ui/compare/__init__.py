"""The Compare page's views, one module each: ``curve`` (bytes per token at every vocab size),
``side`` (one text at a few sizes and with the reference tokenizers), ``vocabulary`` (the token
table, merge trees, lengths, tokens never emitted) and ``algorithms`` (three ways to train on the
same corpus). ``texts`` holds the measured texts and reference counts, ``common`` what every view
shares (the tokenizer compared, result caches, token views).
"""
