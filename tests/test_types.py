"""mypy runs clean over bpe_core (its settings: pyproject.toml, [tool.mypy])."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_errors_in_bpe_core():
    pytest.importorskip("mypy", reason="mypy is not installed (tests/requirements.txt)")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", os.devnull, "--config-file", str(REPO / "pyproject.toml")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"mypy over bpe_core:\n{result.stdout}{result.stderr}"
