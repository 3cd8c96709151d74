"""The layer rule of ``ragcore/__init__.py``: no module imports from a layer above its own,
and ``edge_server`` uses only ragcore's public surface."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = (
    ("types", "errors", "trace", "text", "cancel"),
    ("config", "documents", "tabular"),
    ("inference", "storage", "scope"),
    ("ingest", "retrieval", "stores"),
    ("agents",),
    ("answering",),
    ("engine",),
    ("evaluation",),
    ("cli", "__main__"),
)
LAYER_OF = {name: level for level, names in enumerate(LAYERS) for name in names}
# What edge_server may import: the package, its errors and vocabularies, the CLI's parser
# extension point, and the sample knowledge base.
EDGE_MAY_IMPORT = frozenset(
    {"ragcore", "ragcore.errors", "ragcore.types", "ragcore.cli", "ragcore.evaluation"}
)


def _imports(path: Path) -> list[tuple[int, str]]:
    """Every module ``path`` imports, anywhere in the file (deferred imports included)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
            # "from ragcore import cli" imports the module ragcore.cli
            found += [
                (node.lineno, f"{node.module}.{a.name}")
                for a in node.names
                if _is_module(f"{node.module}.{a.name}")
            ]
    return found


def _layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYER_OF.get(parts[1]) if parts[0] == "ragcore" and len(parts) > 1 else None


def _ragcore_modules() -> list[Path]:
    files = sorted((ROOT / "ragcore").rglob("*.py"))
    return [f for f in files if f != ROOT / "ragcore" / "__init__.py"]


def test_every_top_level_module_has_a_layer():
    package = ROOT / "ragcore"
    names = {p.stem for p in package.glob("*.py")} | {
        p.name for p in package.iterdir() if (p / "__init__.py").exists()
    }
    assert names - {"__init__"} <= set(LAYER_OF), sorted(names - set(LAYER_OF) - {"__init__"})


@pytest.mark.parametrize("path", _ragcore_modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_from_a_layer_above_its_own(path):
    own = _layer(".".join(path.relative_to(ROOT).with_suffix("").parts))
    assert own is not None
    above = [
        f"line {line}: {module} (layer {_layer(module)})"
        for line, module in _imports(path)
        if (_layer(module) or 0) > own
    ]
    assert not above, f"{path.name} is in layer {own} but imports " + "; ".join(above)


def test_the_package_facade_imports_only_ragcore_modules():
    modules = {m for _, m in _imports(ROOT / "ragcore" / "__init__.py")}
    assert all(m.split(".")[0] == "ragcore" for m in modules)


def test_edge_server_uses_only_the_public_surface():
    files = [p for p in sorted((ROOT / "edge_server").rglob("*.py")) if "v1" not in p.parts]
    private = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in files
        for line, module in _imports(path)
        if module.split(".")[0] == "ragcore" and module not in EDGE_MAY_IMPORT
    ]
    assert not private, "edge_server imports ragcore internals:\n" + "\n".join(private)


def _is_module(dotted: str) -> bool:
    path = ROOT.joinpath(*dotted.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def test_only_perception_reads_the_question_text():
    """What a question asks is read once, by perception (``Perception.asks``): generation
    and validation never take ``perception.question`` apart again."""
    readers = []
    for folder in ("validation", "generation"):
        for module in sorted((ROOT / "ragcore" / "agents" / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Attribute) and node.attr == "question":
                    readers.append(f"{module.relative_to(ROOT)}:{node.lineno}")
    assert readers == []
