"""Training progress on the command line: bars on a terminal, plain lines in a log."""

from __future__ import annotations

import io

from bpe_core.cli import progress as cli_progress
from bpe_core.cli.progress import TrainingProgress


def feed(progress: TrainingProgress) -> None:
    for done in range(0, 4097, 1024):
        progress("read", done, 4096)
    for done in range(11):
        progress("merge", done, 10)
    progress.close()


def test_a_log_gets_plain_lines_with_rate_and_time_left(monkeypatch):
    monkeypatch.setattr(cli_progress, "LOG_SECONDS", 0.0)
    log = io.StringIO()
    feed(TrainingProgress(log))
    lines = log.getvalue().splitlines()
    assert "\r" not in log.getvalue()
    assert lines[0].startswith("reading:   0% 0.00/4.00k [") and lines[4].startswith("reading: 100% 4.00k/4.00k")
    assert lines[-1].startswith("merging: 100% 10/10 [") and " merges/s]" in lines[-1] and "left" in lines[-1]


def test_a_log_gets_one_line_per_stage_when_stages_are_quick():
    log = io.StringIO()
    feed(TrainingProgress(log))
    assert [line.split(":")[0] for line in log.getvalue().splitlines()] == ["reading", "merging"]


def test_a_terminal_gets_bars_redrawn_in_place():
    screen = io.StringIO()
    feed(TrainingProgress(screen, interactive=True))
    output = screen.getvalue()
    assert "\rreading: 100%" in output and "\rmerging: 100%" in output
    assert output.count("\n") == 2  # each bar ends its line once, when its stage ends


def test_a_training_that_stops_early_ends_its_bar_at_the_merges_made(tmp_path, capsys):
    """It ended at 100 % of the merges asked for ("31744/31744") where the summary said 24,590 were made."""
    from bpe_core.cli import main

    corpus = tmp_path / "c.txt"
    corpus.write_text("abab cdcd abab\n" * 20, encoding="utf-8")
    assert main(["train", str(corpus), "--vocab-size", "1000", "--out", str(tmp_path / "o")]) == 0
    printed = capsys.readouterr().err
    assert "merges made:         6 of 744 requested (stopped early: no pair left" in printed
    last_bar = [line for line in printed.splitlines() if line.startswith("merging:")][-1]
    assert last_bar.startswith("merging: 100% 6/6 "), last_bar
