"""mypy runs clean over the engine, the runtime, the model, the UI, the pages and app.py (its settings:
pyproject.toml, [tool.mypy]), and nothing is switched off to get there."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CHECKED = {"bpe_core", "runtime", "playground", "ui", "pages", "app.py"}
"""What the product is made of: every package, the page scripts and the entry point."""


def _sources() -> list[Path]:
    return [
        path
        for name in sorted(CHECKED)
        for path in ([REPO / name] if name.endswith(".py") else sorted((REPO / name).rglob("*.py")))
    ]


def _mypy_settings() -> dict:
    tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11+")
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def _cache_dir() -> Path:
    # A cache of this checkout's own (not os.devnull): a cold run checks Streamlit's, numpy's and pandas' types too
    # (~35 s of CPU), a warm one only what changed (~4 s). One per checkout, so parallel worktrees never share one.
    tag = hashlib.sha256(str(REPO).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"bpe-playground-mypy-{tag}"


@pytest.mark.timeout(660)
def test_mypy_finds_no_errors_in_the_app_and_the_engine():
    pytest.importorskip("mypy", reason="mypy is not installed (tests/requirements.txt)")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(_cache_dir()), "--config-file", str(REPO / "pyproject.toml")],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, f"mypy:\n{result.stdout}{result.stderr}"
    # The pages are scripts (0_Train.py is no module name): mypy must still have read every one of them.
    checked = int(re.search(r"no issues found in (\d+) source files", result.stdout).group(1))
    assert checked == len(_sources()), f"mypy checked {checked} files, the product has {len(_sources())}"


def test_mypy_covers_every_package_and_switches_nothing_off():
    settings = _mypy_settings()
    packages = {path.parent.name for path in REPO.glob("*/__init__.py")}
    assert packages <= CHECKED, f"a package mypy does not check: {packages - CHECKED}"
    assert set(settings["files"]) == CHECKED
    for strict in ("check_untyped_defs", "disallow_incomplete_defs", "warn_unused_ignores", "strict_equality"):
        assert settings.get(strict) is True, strict
    for lax in ("ignore_errors", "disable_error_code", "ignore_missing_imports", "follow_imports", "overrides"):
        assert lax not in settings, f"[tool.mypy] {lax} switches checks off"


def test_every_type_ignore_names_its_error_code():
    # A bare "# type: ignore" silences every error on its line; a named one only that error (and
    # warn_unused_ignores reports it once it is no longer needed).
    bare = re.compile(r"#\s*type:\s*ignore(?!\[)")
    files = _sources()
    found = [
        f"{path.relative_to(REPO)}:{number}"
        for path in files
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if bare.search(line)
    ]
    assert len(files) > 100
    assert not found, f"type: ignore without an error code: {found}"
