"""The layout docs/architecture.md describes, held: imports run one way between the
domains, every module says what it is for, and none grows past about 500 lines."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pitchkeeper"

# What each domain may import from the others; the project's own files at the top
# (settings, urls, models, admin, apps, templatetags, management) may import anything.
MAY_IMPORT = {
    "rules": set(),
    "core": {"rules"},
    "clubs": {"rules", "core"},
    "games": {"rules", "core", "clubs"},
    "seasons": {"rules", "core", "clubs", "games"},
    "backups": {"rules", "core", "clubs", "games", "seasons"},
}
MOST_LINES = 520


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def imported(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module ``path`` (a file under ``root``, the package's folder) imports, as an
    absolute name. ``from a import b`` counts as ``a`` and ``a.b``, as b may be a module
    (``from pitchkeeper import seasons``); relative imports are resolved."""
    package = [root.name, *path.relative_to(root).parent.parts]
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [base])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def domain_of(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] != "pitchkeeper" or len(parts) < 2 or parts[1] not in MAY_IMPORT:
        return None
    return parts[1]


def wrong_imports(path: Path, root: Path = PACKAGE) -> set[str]:
    """What ``path`` imports against the map: another domain it may not use, or Django
    in the engine."""
    domain = domain_of(".".join(["pitchkeeper", *path.relative_to(root).parts]))
    if domain is None:
        return set()
    modules = imported(path, root)
    wrong = {
        module
        for module in modules
        if (other := domain_of(module)) not in (None, domain) and other not in MAY_IMPORT[domain]
    }
    if domain == "rules":
        wrong |= {m for m in modules if m.split(".")[0] == "django"}
    return wrong


def test_every_domain_is_checked():
    folders = {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").exists()}
    assert folders - {"templatetags", "management", "migrations"} == set(MAY_IMPORT)


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_imports_run_one_way(path):
    wrong = wrong_imports(path)
    assert not wrong, f"{path.relative_to(PACKAGE)} must not import {sorted(wrong)}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_says_what_it_is_for_and_stays_short(path):
    text = path.read_text()
    assert ast.get_docstring(ast.parse(text)), "no opening docstring"
    assert text.count("\n") <= MOST_LINES


@pytest.mark.parametrize(
    ("folder", "line", "caught"),
    [
        ("games", "from pitchkeeper.seasons.models import Season", True),
        ("games", "from pitchkeeper import seasons", True),
        ("games", "import pitchkeeper.seasons.derive", True),
        ("games/views", "from ...seasons import derive", True),
        ("games", "from .. import backups", True),
        ("rules", "from django.db import models", True),
        ("clubs", "def f():\n    from pitchkeeper.games.models import Game", True),
        ("games", "from pitchkeeper.clubs.models import Club", False),
        ("games/views", "from ..hands import hand_record", False),
        ("seasons", "from pitchkeeper import games", False),
    ],
)
def test_the_check_catches_a_planted_wrong_import(tmp_path, folder, line, caught):
    root = tmp_path / "pitchkeeper"
    planted = root / folder / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text(f'"""A module that imports what it should not."""\n{line}\n')
    assert bool(wrong_imports(planted, root)) is caught
