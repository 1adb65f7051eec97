"""The house's rules, read from the files: imports point down (pages → ui → playground → runtime and bpe_core), no
package
has an import circle (imports inside functions and under TYPE_CHECKING count too: a circle hidden there is
still a circle), the engine and the runtime never import the app, the app's model imports no Streamlit, and no
module grows past its size."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bpe_core", "runtime", "playground", "ui")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    found = {module_name(path): path for package in PACKAGES for path in (ROOT / package).rglob("*.py")}
    found.update({module_name(path): path for path in (ROOT / "pages").glob("*.py")})
    return found


def imports(path: Path, name: str) -> set[str]:
    """Every module ``path`` imports, anywhere in it (absolute names; relative imports resolved)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            # ``from ui import frame`` imports ui.frame; ``from playground.fields import Field``, playground.fields
            # (see graph)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    return found


def graph() -> dict[str, set[str]]:
    """Module -> the project's modules it imports (``playground.session`` importing ``playground.fields`` etc.)."""
    known = modules()
    edges = {}
    for name, path in known.items():
        targets = set()
        for imported in imports(path, name):
            while imported and imported not in known:  # ``bpe_core.formats.load`` -> ``bpe_core.formats``
                imported = imported.rpartition(".")[0]
            if imported and imported != name:
                targets.add(imported)
        edges[name] = targets
    return edges


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_no_package_has_an_import_circle():
    edges = graph()
    assert cycles(edges) == []


def _package_imports(prefix: str) -> dict[str, set[str]]:
    return {name: targets for name, targets in graph().items() if name == prefix or name.startswith(prefix + ".")}


@pytest.mark.parametrize(
    ("package", "forbidden"),
    [
        ("bpe_core", ("ui", "playground", "runtime", "pages", "streamlit")),  # the engine stands alone
        ("runtime", ("ui", "playground", "pages", "streamlit")),  # the runtime runs what it is given
        ("playground", ("ui", "pages", "streamlit")),  # the model runs in job processes: no Streamlit
        ("ui", ("pages",)),  # pages render; nothing calls them
    ],
)
def test_imports_point_down(package, forbidden):
    upward = {
        name: sorted(imported for imported in imports(path, name) if imported.split(".")[0] in forbidden)
        for name, path in modules().items()
        if name.split(".")[0] == package
    }
    assert {name: found for name, found in upward.items() if found} == {}


def test_the_talk_pages_steps_are_used_by_the_talk_page_only():
    """Talk-mode blocks (``ui.stage``) serve every page and chart; the guided talk (``ui.talk``) only its page."""
    users = {name for name, targets in graph().items() if any(t.startswith("ui.talk") for t in targets)}
    assert {name for name in users if not name.startswith("ui.talk")} == {"pages.5_Talk"}


def test_runtime_names_no_module_of_the_app_in_a_string():
    """Job code is referred to by import, never by a module name in a string, which no import test could see."""
    named = {
        name: sorted(
            node.value
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and any(node.value.startswith(f"{package}.") for package in ("ui", "playground", "pages"))
        )
        for name, path in modules().items()
        if name.startswith("runtime")
    }
    assert {name: found for name, found in named.items() if found} == {}


def test_no_job_or_store_module_lives_in_ui():
    names = [name for name in modules() if name.startswith("ui.")]
    assert not [name for name in names if any(word in name for word in ("job", "store"))]


@pytest.mark.parametrize(
    "limit, folder", [(300, "bpe_core"), (300, "runtime"), (300, "playground"), (300, "ui"), (150, "pages")]
)
def test_no_module_outgrows_the_house(limit, folder):
    sizes = {str(path.relative_to(ROOT)): len(path.read_text(encoding="utf-8").splitlines())
             for path in (ROOT / folder).rglob("*.py")}  # fmt: skip
    assert {path: n for path, n in sizes.items() if n > limit} == {}


def _kind_comparisons(tree: ast.AST) -> list[int]:
    """Lines comparing a ``kind`` name or a ``.kind`` attribute with a string literal (``==``, ``!=``, ``in``,
    ``not in`` a tuple, list or set of them, either side)."""

    def is_kind(node: ast.AST) -> bool:
        return (isinstance(node, ast.Name) and node.id == "kind") or (
            isinstance(node, ast.Attribute) and node.attr == "kind"
        )

    def is_literal(node: ast.AST) -> bool:
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
            return any(is_literal(element) for element in node.elts)
        return isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))

    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for left, right in zip(sides, sides[1:]):
                if (is_kind(left) and is_literal(right)) or (is_literal(left) and is_kind(right)):
                    found.append(node.lineno)
    return found


def test_the_kind_checker_sees_every_form_of_comparison():
    code = 'a = s.kind == "classic"\nb = "byte" != kind\nc = request.kind in ("x", "y")\nd = kind not in {"z"}\n'
    clean = "e = kind_of(s.kind).user_pattern\nf = row.kind in UNREACHABLE\ng = kind == other\nh = kind == 2\n"
    assert _kind_comparisons(ast.parse(code)) == [1, 2, 3, 4]
    assert _kind_comparisons(ast.parse(clean)) == []


def test_pages_and_views_ask_the_table_of_kinds_never_compare_kind_names():
    """What a kind means is written once, in ``playground.kinds``: ui/ and pages/ ask it (``kind_of(name)``)."""
    paths = [*(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").glob("*.py")]
    found = {str(path.relative_to(ROOT)): _kind_comparisons(ast.parse(path.read_text("utf-8"))) for path in paths}
    assert {path: lines for path, lines in found.items() if lines} == {}


def test_no_view_branches_on_the_tokenizer_type():
    """Views ask the tokenizer's shape (``bpe_core.TokenizerShape``), never its type: no ClassicTokenizer, no
    AnyTokenizer union and no "is classic" question in ui/, pages/ or playground/ outside the trained tokenizer's
    codec (playground/trained_codec.py, which rebuilds each type from its own bytes)."""
    words = ("ClassicTokenizer", "AnyTokenizer", "is_classic")
    paths = [*(ROOT / "ui").rglob("*.py"), *(ROOT / "pages").glob("*.py"), *(ROOT / "playground").rglob("*.py")]
    texts = {str(path.relative_to(ROOT)): path.read_text("utf-8") for path in paths if path.name != "trained_codec.py"}
    found = {path: [word for word in words if word in text] for path, text in texts.items()}
    assert {path: names for path, names in found.items() if names} == {}


def test_every_compare_view_is_rendered_by_a_module_imported_by_name():
    """Compare's views are imported by name (a search finds who uses them), one render function each."""
    from playground.kinds import VIEWS
    from ui.compare import renderer

    assert all(callable(renderer(view)) for view in VIEWS)
    assert "import_module" not in (ROOT / "pages" / "3_Compare.py").read_text(encoding="utf-8")


def test_modules_meet_their_size_by_seams_not_by_packed_lines():
    """No ``# fmt: skip`` in the product: a module stays within its size by being cut where a concept ends, not by
    packing lines past the formatter."""
    packed = [str(path.relative_to(ROOT)) for package in (*PACKAGES, "pages") for path in (ROOT / package).rglob("*.py")
              if "# fmt: skip" in path.read_text(encoding="utf-8")]  # fmt: skip
    assert packed == []
