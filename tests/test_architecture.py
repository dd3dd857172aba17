"""The layout docs/architecture.md describes, held: imports run one way between the
domains, no module imports another's private (underscore) names, every module says what
it is for, and none grows past about 500 lines."""

from __future__ import annotations

import ast
from collections.abc import Iterator
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
    "nights": {"rules", "core", "clubs", "games", "seasons"},
    "backups": {"rules", "core", "clubs", "games", "seasons", "nights"},
}
MOST_LINES = 520


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "migrations" not in p.parts)


def _from_imports(path: Path, root: Path) -> Iterator[tuple[str, ast.ImportFrom]]:
    """Each ``from ... import`` of ``path`` with the module it names, made absolute."""
    package = [root.name, *path.relative_to(root).parent.parts]
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join([*package[: len(package) - node.level + 1], *filter(None, [base])])
            yield base, node


def imported(path: Path, root: Path = PACKAGE) -> set[str]:
    """Every module ``path`` (a file under ``root``, the package's folder) imports, as an
    absolute name. ``from a import b`` counts as ``a`` and ``a.b``, as b may be a module
    (``from pitchkeeper import seasons``); relative imports are resolved."""
    found = set()
    for base, node in _from_imports(path, root):
        found.add(base)
        found.update(f"{base}.{alias.name}" for alias in node.names)
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def private_imports(path: Path, root: Path = PACKAGE) -> set[str]:
    """The private names ``path`` takes from another module (``from a import _b``, as
    ``a._b``): a name used outside its module is public, and is named so."""
    return {
        f"{base}.{alias.name}"
        for base, node in _from_imports(path, root)
        for alias in node.names
        if alias.name.startswith("_") and not alias.name.startswith("__")
    }


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
def test_no_module_imports_another_ones_private_names(path):
    name = str(path.relative_to(PACKAGE))
    found = private_imports(path)
    assert not found, f"{name} imports private {sorted(found)}: make them public"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_every_module_says_what_it_is_for_and_stays_short(path):
    text = path.read_text()
    assert ast.get_docstring(ast.parse(text)), "no opening docstring"
    assert text.count("\n") <= MOST_LINES


def plant(tmp_path: Path, folder: str, line: str) -> tuple[Path, Path]:
    """A module holding ``line`` in ``folder`` of a package tree under ``tmp_path``, and
    that tree's root, for the checks to read."""
    root = tmp_path / "pitchkeeper"
    planted = root / folder / "planted.py"
    planted.parent.mkdir(parents=True)
    planted.write_text(f'"""A module that imports what it should not."""\n{line}\n')
    return planted, root


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
    assert bool(wrong_imports(*plant(tmp_path, folder, line))) is caught


@pytest.mark.parametrize(
    ("folder", "line", "caught"),
    [
        ("seasons", "from pitchkeeper.seasons.ratings import _latest_rating", True),
        ("seasons/views", "from .shared import _club, span_of", True),
        ("games/views", "def f():\n    from ..hands import _played", True),
        ("seasons", "from pitchkeeper.seasons.ratings import latest_rating", False),
        ("seasons", "from __future__ import annotations", False),
        ("seasons", "import pitchkeeper.seasons.ratings as _ratings", False),
    ],
)
def test_the_check_catches_a_planted_private_import(tmp_path, folder, line, caught):
    assert bool(private_imports(*plant(tmp_path, folder, line))) is caught
