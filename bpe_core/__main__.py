"""``python -m bpe_core``: train, encode and decode from the command line (see bpe_core.cli)."""

from .cli import main

if __name__ == "__main__":
    raise SystemExit(main())
