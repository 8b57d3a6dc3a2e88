"""Imports run one way, as the README's architecture section draws it: latex/ → analyzers/ →
evaluation/, server/, batch/ → cli/. Every import of every module counts: those inside functions
(kept lazy for start-up time) and those only for type checking too, since each is a dependency."""

from __future__ import annotations

import ast
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = "auditex"

# Tiers, lowest first, by top-level folder. A module imports from its own folder and from lower
# tiers only; folders of one tier do not import each other. The package root (`__version__`) and
# prompts/ (data files) are below everything. cli/ is the entry point above the rest:
# `auditex serve` starts the server, `auditex batch` a batch, `auditex bench` the evaluation.
LAYERS: tuple[tuple[str, ...], ...] = (
    (PACKAGE, "prompts"),
    ("latex",),
    ("analyzers",),
    ("evaluation", "server", "batch"),
    ("cli",),
)


def package_modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of the package whose folder is `root`: the folders reached through `__init__.py` files."""
    modules: dict[str, Path] = {}
    folders = [(root, package)]
    while folders:
        folder, name = folders.pop()
        modules[name] = folder / "__init__.py"
        for path in sorted(folder.iterdir()):
            if path.is_dir() and (path / "__init__.py").is_file():
                folders.append((path, f"{name}.{path.name}"))
            elif path.suffix == ".py" and path.name != "__init__.py":
                modules[f"{name}.{path.stem}"] = path
    return modules


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Each module → the package's modules it imports, wherever in the module the import is."""
    modules = package_modules(root, package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        # What a relative import is relative to: a package's own name, a module's package.
        here = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = here.split(".")[: len(here.split(".")) - node.level + 1]
                    base = ".".join([*parts, *([node.module] if node.module else [])])
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    imported.add(submodule if submodule in modules else base)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    # `import a.b.c` depends on a.b.c, as `from a.b import c` does.
                    parts = alias.name.split(".")
                    imported.add(next((".".join(parts[:end]) for end in range(len(parts), 0, -1) if ".".join(parts[:end]) in modules), ""))
        graph[name] = {target for target in imported if target in modules and target != name}
    return graph


def folder_of(module: str) -> str:
    """The top-level folder a module is in ('auditex.analyzers.llm.audit' → 'analyzers'); the package root's own."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def tier_of(module: str, layers: tuple[tuple[str, ...], ...]) -> int:
    folder = folder_of(module)
    for tier, folders in enumerate(layers):
        if folder in folders:
            return tier
    raise AssertionError(f"{module}: its folder '{folder}' is in no layer; add it to LAYERS")


def upward_imports(graph: dict[str, set[str]], layers: tuple[tuple[str, ...], ...]) -> set[tuple[str, str]]:
    """Imports from one folder into another of a higher tier or of the same tier."""
    return {
        (module, target)
        for module, targets in graph.items()
        for target in targets
        if folder_of(target) != folder_of(module) and tier_of(target, layers) >= tier_of(module, layers)
    }


def import_circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The graph's strongly connected components of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = lowest[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            module, targets = work[-1]
            target = next(targets, None)
            if target is not None:
                if target not in index:
                    index[target] = lowest[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(sorted(graph[target]))))
                elif target in on_stack:
                    lowest[module] = min(lowest[module], index[target])
                continue
            work.pop()
            if work:
                lowest[work[-1][0]] = min(lowest[work[-1][0]], lowest[module])
            if lowest[module] == index[module]:
                component = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == module:
                        break
                if len(component) > 1:
                    circles.append(frozenset(component))
    return circles


@pytest.fixture(scope="module")
def graph() -> dict[str, set[str]]:
    return import_graph(ROOT, PACKAGE)


def test_no_import_runs_up_the_layers(graph):
    upward = upward_imports(graph, LAYERS)
    assert not upward, "imports that run up the layers (latex < analyzers < evaluation, server, batch < cli):\n" + "\n".join(
        f"  {module} imports {target}" for module, target in sorted(upward)
    )


# Inside analyzers/: a core that knows no detector, the sources above it, and what composes them.
# core: the session, the source interface, findings, policy and merge, registry, facets, caches, and
# the services several sources share (the bibliographic records and matching of scholarly/, the
# counted wording of wording.py). Sources: the rules (the engine, every family and the science they share), the online
# verification (the scholarly clients), the LLM audit. Above them: what puts sources together
# (path_check.py, the code table, the report formats) and the review app. Sources never import one another.
CORE_SCHOLARLY = frozenset({"__init__", "cited_references", "matching", "normalise", "work", "bibtex_edit"})
RULES_SOURCE = frozenset({"rules", "engine", "p_values", "apa_results", "quantities"})
COMPOSED = frozenset({"path_check", "codes", "reports", "review"})
INNER_RANK = {"core": 0, "source": 1, "composed": 2}


def inner_layer(module: str) -> tuple[str, str] | None:
    """(layer, which) of a module of analyzers/: ("core", ""), ("source", "rules" | "online" | "llm"), ("composed", "")."""
    parts = module.split(".")
    if parts[1:2] != ["analyzers"]:
        return None
    top, rest = (parts[2], parts[3:]) if len(parts) > 2 else ("__init__", [])
    inner = rest[0] if rest else "__init__"
    if top in RULES_SOURCE:
        return ("source", "rules")
    if top == "llm":
        return ("source", "llm")
    if top == "online_verification" or (top == "scholarly" and inner not in CORE_SCHOLARLY):
        return ("source", "online")
    if top in COMPOSED:
        return ("composed", "")
    return ("core", "")


def inner_crossings(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """Imports inside analyzers/ from a layer into a higher one, or from one source into another."""
    crossings = set()
    for module, targets in graph.items():
        here = inner_layer(module)
        for target in targets:
            there = inner_layer(target)
            if here is None or there is None or here == there:
                continue
            if INNER_RANK[there[0]] > INNER_RANK[here[0]] or (here[0] == there[0] == "source"):
                crossings.add((module, target))
    return crossings


def test_inside_analyzers_the_core_knows_no_source_and_sources_not_each_other(graph):
    crossings = inner_crossings(graph)
    assert not crossings, (
        "imports across analyzers/' layers (core < rules, online, llm sources < path_check, codes, reports, review):\n"
        + "\n".join(f"  {module} imports {target}" for module, target in sorted(crossings))
    )


def test_the_inner_layers_are_told_apart():
    assert inner_layer("auditex.analyzers.session") == ("core", "")
    assert inner_layer("auditex.analyzers.scholarly.work") == ("core", "")
    assert inner_layer("auditex.analyzers.scholarly.resolver") == ("source", "online")
    assert inner_layer("auditex.analyzers.rules.arithmetic.model") == ("source", "rules")
    assert inner_layer("auditex.analyzers.llm.source") == ("source", "llm")
    assert inner_layer("auditex.analyzers.reports.sarif") == ("composed", "")
    assert inner_layer("auditex.server.main") is None
    graph = {
        "auditex.analyzers.session": {"auditex.analyzers.engine"},
        "auditex.analyzers.llm.units": {"auditex.analyzers.rules.hidden_text", "auditex.analyzers.finding"},
        "auditex.analyzers.path_check": {"auditex.analyzers.engine"},
    }
    assert inner_crossings(graph) == {
        ("auditex.analyzers.session", "auditex.analyzers.engine"),
        ("auditex.analyzers.llm.units", "auditex.analyzers.rules.hidden_text"),
    }


def test_no_import_circle(graph):
    """The issue allows one circle; there is none left, and a new one is a design change to argue for."""
    assert import_circles(graph) == [], f"import circles: {[sorted(circle) for circle in import_circles(graph)]}"


def test_every_package_folder_is_installed():
    """`pip install .` installs the folders pyproject lists: a package left out would import in the
    checkout and fail once installed."""
    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]["packages"])
    found = {name for name, path in package_modules(ROOT, PACKAGE).items() if path.name == "__init__.py"}
    assert found == listed, f"not in pyproject's packages: {sorted(found - listed)}; listed, not found: {sorted(listed - found)}"


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def test_the_scanner_finds_upward_imports_and_circles_wherever_they_are(tmp_path):
    _write(
        tmp_path,
        {
            "__init__.py": "",
            "low/__init__.py": "",
            "low/model.py": "def parse():\n    from ..high.front import show  # lazy, still upward\n",
            "low/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.high.front\n",
            "low/fine.py": "from . import model\nfrom .model import parse\n",
            "high/__init__.py": "",
            "high/front.py": "from ..low import model\nfrom ..low.fine import parse\n",
            "high/other.py": "from .front import show\n",
            "side/__init__.py": "",
            "side/peer.py": "from ..high import other\n",
        },
    )
    graph = import_graph(tmp_path, "pkg")
    assert graph["pkg.low.fine"] == {"pkg.low.model"}
    assert graph["pkg.high.front"] == {"pkg.low.model", "pkg.low.fine"}
    layers = (("pkg",), ("low",), ("high", "side"))
    assert upward_imports(graph, layers) == {
        ("pkg.low.model", "pkg.high.front"),
        ("pkg.low.typed", "pkg.high.front"),
        ("pkg.side.peer", "pkg.high.other"),  # folders of one tier do not import each other
    }
    assert import_circles(graph) == [frozenset({"pkg.low.model", "pkg.low.fine", "pkg.high.front"})]
    with pytest.raises(AssertionError, match="'side' is in no layer"):
        upward_imports(graph, (("pkg",), ("low",), ("high",)))


def test_the_scanner_sees_no_circle_in_a_one_way_package(tmp_path):
    _write(tmp_path, {"__init__.py": "", "a.py": "from . import b\n", "b.py": "from .c import x\n", "c.py": "x = 1\n"})
    graph = import_graph(tmp_path, "pkg")
    assert graph == {"pkg": set(), "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": set()}
    assert import_circles(graph) == []


def test_the_server_starts_without_importing_the_rules():
    """The rules load after `initialize` is answered (server.registry), so the editor sees the server up at once."""
    probe = "import sys, auditex.server.main; print('auditex.analyzers.rules' in sys.modules)"
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip()
    assert loaded == "False"


# Size caps: a file past MAX_FILE_LINES or a function past MAX_FUNCTION_LINES (decorators counted)
# holds more than one concern. Tests are exempt; the package and the benchmark scripts are not.
MAX_FILE_LINES = 600
MAX_FUNCTION_LINES = 60


def over_size_caps(root: Path, paths: list[Path]) -> set[str]:
    """'path' for each file over MAX_FILE_LINES and 'path:function' for each function over MAX_FUNCTION_LINES."""
    over = set()
    for path in paths:
        text = path.read_text(encoding="utf-8")
        name = path.relative_to(root).as_posix()
        if len(text.splitlines()) > MAX_FILE_LINES:
            over.add(name)
        for node in ast.walk(ast.parse(text, filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                start = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
                if (node.end_lineno or node.lineno) - start + 1 > MAX_FUNCTION_LINES:
                    over.add(f"{name}:{node.name}")
    return over


def test_no_file_or_function_over_its_size_cap():
    paths = [*package_modules(ROOT, PACKAGE).values(), *sorted((ROOT / "benchmarks").glob("*.py"))]
    over = over_size_caps(ROOT, [path for path in paths if path.relative_to(ROOT).parts[0] != "tests"])
    assert not over, f"over {MAX_FILE_LINES} lines a file or {MAX_FUNCTION_LINES} a function; split by concern:\n" + "\n".join(
        f"  {name}" for name in sorted(over)
    )


def test_the_size_caps_count_lines_of_files_and_functions(tmp_path):
    body = "\n".join(f"    x{line} = {line}" for line in range(MAX_FUNCTION_LINES - 2))
    _write(
        tmp_path,
        {
            "fits.py": f"@decorated\ndef fits():\n{body}\n",
            "long.py": f"@decorated\n@twice\ndef too_long():\n{body}\n" + "\n" * MAX_FILE_LINES,
        },
    )
    assert over_size_caps(tmp_path, sorted(tmp_path.glob("*.py"))) == {"long.py", "long.py:too_long"}


def private_imports(paths: list[Path], local_modules: frozenset[str]) -> set[str]:
    """'path:line name' for each import of a name another module keeps private (one leading underscore):
    from the package (relative or `auditex.`) or from a benchmark script beside it (`local_modules`)."""
    found = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if not isinstance(node, ast.ImportFrom) or node.module == "__future__":
                continue
            ours = node.level > 0 or (node.module or "").split(".")[0] in {PACKAGE, *local_modules}
            for alias in node.names:
                if ours and alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.add(f"{path.name}:{node.lineno} {alias.name}")
    return found


def test_no_module_imports_another_modules_private_name():
    scripts = sorted((ROOT / "benchmarks").glob("*.py"))
    paths = [path for path in package_modules(ROOT, PACKAGE).values() if path.relative_to(ROOT).parts[0] != "tests"]
    found = private_imports([*paths, *scripts], frozenset(script.stem for script in scripts))
    assert not found, "private names imported from another module (make them public, or move the code):\n" + "\n".join(sorted(found))


def test_the_private_import_scan_sees_relative_package_and_script_imports(tmp_path):
    _write(
        tmp_path,
        {
            "a.py": "from .model import _grid, grid\nfrom auditex.latex import _parse\nfrom os import _exit\n",
            "b.py": "from planting import _sites\nfrom __future__ import annotations\nfrom .model import __version__\n",
        },
    )
    found = private_imports(sorted(tmp_path.glob("*.py")), frozenset({"planting"}))
    assert found == {"a.py:1 _grid", "a.py:2 _parse", "b.py:1 _sites"}
