"""The package's four layers, checked by walking every import with ``ast``.

Imports only go down: interface -> evaluation -> data -> core. The core is what
``pip install quotelocate`` must run with no extras, so it may import nothing from the
layers above it; and no module may import another that imports it back (a cycle makes
the order of imports decide what works).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "quotelocate"
LAYERS = ("core", "data", "evaluation", "interface")  # lowest first
CORE_THIRD_PARTY = {"pymupdf", "numpy", "rapidfuzz", "regex"}
"""What the core may import beyond the standard library: the install's only dependencies."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _layer(module: str) -> str:
    if module == "quotelocate.__main__":  # ``python -m quotelocate`` is the command line
        return "interface"
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "integrations":  # adapters to outside tools sit beside the command line
        return "interface"
    return parts[1] if len(parts) > 2 and parts[1] in LAYERS[1:] else "core"


def _imports(path: Path) -> list[tuple[str, int, bool]]:
    """(imported module, line, at module level) for every import in ``path``; relative
    imports resolved against the module's package; ``TYPE_CHECKING`` blocks skipped."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: list[tuple[str, int, bool]] = []

    def visit(node: ast.AST, top: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Import):
                out.extend((a.name, child.lineno, top) for a in child.names)
            elif isinstance(child, ast.ImportFrom):
                if child.level:
                    base = package.split(".")
                    base = base[: len(base) - child.level + 1]
                    target = ".".join(base + ([child.module] if child.module else []))
                else:
                    target = child.module or ""
                out.append((target, child.lineno, top))
                for alias in child.names:  # "from . import eval_commands" imports a module
                    out.append((f"{target}.{alias.name}", child.lineno, top))
            else:
                visit(child, top and not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))

    visit(tree, True)
    return out


MODULES = {path: _module_name(path) for path in sorted(PACKAGE.rglob("*.py"))}
KNOWN = set(MODULES.values())


def _internal(target: str) -> str | None:
    """The quotelocate module an import refers to, or None for anything else."""
    while target and target not in KNOWN:
        target = target.rpartition(".")[0]
    return target or None


def test_the_tree_shows_the_layers():
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert set(LAYERS[1:]) <= folders
    for core in ("document", "layout", "normalize", "locate", "diagnose", "chunks", "errors", "prepare"):
        assert (PACKAGE / f"{core}.py").is_file()


def test_imports_only_go_down_the_layers():
    wrong = []
    for path, module in MODULES.items():
        if path.name == "__init__.py" and module == "quotelocate":
            continue  # the top-level names are imported lazily from every layer, by design
        mine = LAYERS.index(_layer(module))
        for target, line, _ in _imports(path):
            internal = _internal(target) if target.startswith("quotelocate") else None
            if internal and LAYERS.index(_layer(internal)) > mine:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module} ({_layer(module)}) imports {internal}")
    assert not wrong, "\n".join(wrong)


def test_the_core_imports_only_its_own_dependencies():
    # at module level: a core function may reach for an extra (verify_frame and pandas)
    # when it is called; the lean-install test shows the rest runs without any
    stdlib = set(sys.stdlib_module_names)
    wrong = []
    for path, module in MODULES.items():
        if _layer(module) != "core" or module == "quotelocate":
            continue
        for target, line, top in _imports(path):
            root = target.split(".")[0]
            if not top:
                continue
            if root and root != "quotelocate" and root not in stdlib and root not in CORE_THIRD_PARTY:
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: imports {target}")
    assert not wrong, "\n".join(wrong)


def test_only_the_command_line_reaches_the_integrations_and_only_on_demand():
    # each integration needs an outside library from its own extra: nothing may import
    # one at module level, and nothing below the command line may import one at all
    wrong = []
    for path, module in MODULES.items():
        if module.startswith("quotelocate.integrations"):
            continue
        for target, line, top in _imports(path):
            if target.startswith("quotelocate.integrations") and (top or _layer(module) != "interface"):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line}: {module} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles_at_module_level():
    graph: dict[str, set[str]] = {m: set() for m in KNOWN}
    for path, module in MODULES.items():
        for target, _, top in _imports(path):
            internal = _internal(target) if target.startswith("quotelocate") else None
            if top and internal and internal != module and not module.startswith(internal + "."):
                if not internal.startswith(module + "."):  # a package importing its own submodule
                    graph[module].add(internal)
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state and (cycle := walk(nxt)):
                return cycle
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := walk(node)):
            pytest.fail("import cycle: " + " -> ".join(cycle))


def test_the_walker_sees_a_wrong_import(tmp_path, monkeypatch):
    # the check itself must be able to fail: a core module importing the evaluation layer
    bad = PACKAGE / "normalize.py"
    tree = _imports(bad)
    assert any(t == "quotelocate.errors" for t, _, _ in tree)
    fake = tmp_path / "quotelocate" / "fake_core.py"
    fake.parent.mkdir()
    fake.write_text("from .evaluation.run import evaluate\n", encoding="utf-8")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", tmp_path / "quotelocate")
    (target, _, _), *_ = _imports(fake)
    assert target == "quotelocate.evaluation.run" and _layer(target) == "evaluation"


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["locate", "--help"], ["eval", "--help"]])
def test_start_up_loads_neither_pymupdf_nor_pandas(argv):
    probe = (
        "import sys\n"
        "from quotelocate.interface.cli import main\n"
        "try:\n"
        f"    main({argv!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        "heavy = sorted({m.split('.')[0] for m in sys.modules} & {'pymupdf', 'pandas', 'numpy', 'statsmodels', 'streamlit'})\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    assert "HEAVY []" in out
