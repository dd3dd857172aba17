"""The rules engine for the phone: ``pitchkeeper/rules`` run in the browser by Brython
(the ``brython`` package from PyPI), so the totals a phone shows before the server
answers, or with no network at all, are this engine's own (docs/offline.md).

The runtime is served from the installed package as a static file under ``engine/``;
the rules package goes out as one script built from its real source files with the few
modules of Brython's standard library it needs and a small ``unicodedata``,
``dataclasses`` and ``typing`` of its own, named by its hash so a phone fetches it once
per change of the rules (or of the runtime) and keeps what it compiled of it under
that hash.
"""

from __future__ import annotations

import ast
import hashlib
import json
import threading
import unicodedata
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import brotli
import brython
from django.contrib.staticfiles.finders import BaseFinder
from django.core.checks import CheckMessage
from django.core.files.storage import FileSystemStorage

import pitchkeeper.rules
from pitchkeeper.rules.record import HIDDEN_CHARACTERS

RUNTIME = Path(brython.__file__).parent / "data"
# Served under STATIC_URL + PREFIX: the runtime. Brython's Unicode table (unicode.txt)
# is not: the bundle's own ``unicodedata`` (UNICODEDATA) takes the place of Brython's.
PREFIX = "engine"
RUNTIME_FILES = ("brython.js",)
UNICODEDATA = Path(__file__).with_name("unicodedata.js")
# The phone's own ``dataclasses`` and ``typing`` (their docstring says why), sent in
# place of Brython's.
PHONE_STDLIB = Path(__file__).with_name("phone_stdlib")
# The modules of Brython's standard library that importing ``pitchkeeper.rules`` loads,
# but ``unicodedata``, ``dataclasses`` and ``typing`` (the phone's own): 68 KB of the 847 KB
# whole, compressed. The in-browser conformance test (tests/browser/test_engine.py)
# fails if one is missing.
STDLIB = (
    "__future__",
    "_collections",
    "_collections_abc",
    "_functools",
    "_json",
    "_operator",
    "_py_abc",
    "_thread",
    "_weakref",
    "_weakrefset",
    "abc",
    "browser",
    "builtins",
    "collections",
    "copy",
    "copyreg",
    "enum",
    "functools",
    "itertools",
    "json",
    "json.encoder",
    "keyword",
    "operator",
    "python_re",
    "re",
    "reprlib",
    "sys",
    "types",
    "weakref",
)


class RuntimeStorage(FileSystemStorage):
    """The brython package's data folder, collected under ``engine/``."""

    prefix = PREFIX


class RuntimeFinder(BaseFinder):
    """Finds the Brython runtime's files in the installed package (not in this repo)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.storage = RuntimeStorage(location=RUNTIME)

    def check(self, **kwargs: Any) -> list[CheckMessage]:
        return []

    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> str | list[str]:
        folder, _, name = path.partition("/")
        if folder == PREFIX and name in RUNTIME_FILES:
            found = str(RUNTIME / name)
            return [found] if find_all else found
        return []

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        for name in RUNTIME_FILES:
            yield name, self.storage


def _stdlib() -> dict[str, Any]:
    """Brython's standard library, as the package ships it: one JS file that hands a
    dict of modules to ``update_VFS``."""
    text = (RUNTIME / "brython_stdlib.js").read_text(encoding="utf-8")
    start = text.index("var scripts = ") + len("var scripts = ")
    end = text.rindex("__BRYTHON__.update_VFS")
    return json.loads(text[start:end].strip().rstrip(";"))


def code_only(source: str) -> str:
    """``source`` as the same code without its docstrings, comments and the type hints
    of its functions: the rules' sources a third smaller to download (13 KB of the
    bundle compressed), the same statements (no rule reads a docstring or a function's
    hints; a dataclass's field hints, which make its fields, are kept)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            node.annotation = None
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            node.returns = None
        if isinstance(node, ast.Module | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.body[0] if node.body else None
            docstring = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            if docstring and isinstance(first.value.value, str):  # type: ignore[union-attr]
                node.body = node.body[1:] or [ast.Pass()]
    return ast.unparse(tree)


def js_code_only(source: str) -> str:
    """A JavaScript module of the standard library without its comment lines and its
    indentation: 7 KB less of the bundle, compressed. Lines are kept whole and in
    order, so no statement changes; a module with a line that may go on inside a
    string (an odd number of backquotes, or a backslash at its end) is kept as it is."""
    lines = source.splitlines()
    if any(line.count("`") % 2 or line.rstrip().endswith("\\") for line in lines):
        return source
    kept = (line.strip() for line in lines)
    return "\n".join(line for line in kept if line and not line.startswith("//")) + "\n"


# Rule modules only the server runs (a club night's tables and payout, the fewest
# payments of a ledger): no game screen imports them, so the phone is not sent them.
SERVER_ONLY_RULES = frozenset({"nights", "payments"})


def _rules_modules() -> dict[str, list[Any]]:
    """The rules package from its source files (``code_only``), as Brython's virtual
    file system takes them: [extension, source, imports, 1 for a package]."""
    folder = Path(pitchkeeper.rules.__file__).parent
    modules: dict[str, list[Any]] = {"pitchkeeper": [".py", "", [], 1]}
    for path in sorted(folder.glob("*.py")):
        if path.stem in SERVER_ONLY_RULES:
            continue
        source = code_only(path.read_text(encoding="utf-8"))
        if path.stem == "__init__":
            modules["pitchkeeper.rules"] = [".py", source, [], 1]
        else:
            modules[f"pitchkeeper.rules.{path.stem}"] = [".py", source, []]
    return modules


def _unicodedata() -> list[Any]:
    """The phone's ``unicodedata`` (a JavaScript module, as Brython's own is), with the
    server's tables of what the rules ask: each character's category, as runs, and the
    names of the characters a name can be refused for, those hidden by their category
    (C*, Zl, Zp) or listed by the rules. A combining mark without a letter is refused
    on the phone as on the server, but named by its code alone ("U+0301", where the
    server adds "COMBINING ACUTE ACCENT"): the names of all marks would be ten times
    these tables, for a refusal the server has always made first."""
    gaps, runs, names = [], [], {}
    categories: list[str] = []
    previous, start = None, 0
    for code in range(0x110000):
        character = chr(code)
        category = unicodedata.category(character)
        if category != previous:
            if category not in categories:
                categories.append(category)
            gaps.append(code - start)
            runs.append(chr(ord("A") + categories.index(category)))
            previous, start = category, code
        hidden = category[0] == "C" or category in ("Zl", "Zp") or character in HIDDEN_CHARACTERS
        if hidden and unicodedata.name(character, ""):
            names[code] = unicodedata.name(character)
    source = UNICODEDATA.read_text(encoding="utf-8")
    for key, value in {
        "__VERSION__": unicodedata.unidata_version,
        "__GAPS__": gaps,
        "__RUN_CATEGORIES__": "".join(runs),
        "__CATEGORY_NAMES__": categories,
        "__NAMES__": names,
    }.items():
        source = source.replace(key, json.dumps(value, separators=(",", ":")))
    return [".js", source, []]


# One thread builds the bundle at a time: CPython 3.11's ``ast.parse`` is not safe in
# two threads at once ("AST constructor recursion depth mismatch", gh-106905), and the
# first requests of a threaded server (the game screen's, the service worker's) may
# come together (the second then builds it again, once).
_BUILDING = threading.Lock()


@cache
def bundle() -> tuple[str, str]:
    """The script that gives Brython the rules package, the standard library it needs
    (with the phone's own ``dataclasses`` and ``typing``) and the phone's
    ``unicodedata``, and its hash: built once per process from the files
    as installed. The hash is of the bundle and of the runtime that compiles it, so
    that what a phone compiled and kept under it (engine_worker.js) is never that of
    another version of either. Brython's own cache of compiled modules would check
    them against the package's ``$timestamp``: here that is the hash too, never the
    standard library's, which a change of the rules would leave as it was."""
    with _BUILDING:
        return _built()


def _built() -> tuple[str, str]:
    stdlib = _stdlib()
    modules = {name: stdlib[name] for name in STDLIB}
    modules["unicodedata"] = _unicodedata()
    for path in PHONE_STDLIB.glob("[!_]*.py"):
        modules[path.stem] = [".py", code_only(path.read_text(encoding="utf-8")), []]
    for module in modules.values():
        if module[0] == ".js":
            module[1] = js_code_only(module[1])
    modules |= _rules_modules()
    digest = hashlib.sha256((RUNTIME / "brython.js").read_bytes())
    digest.update(json.dumps(modules, sort_keys=True).encode())
    modules["$timestamp"] = int(digest.hexdigest()[:12], 16)
    text = f"__BRYTHON__.loadBrythonPackage({json.dumps(modules, sort_keys=True)});\n"
    return text, digest.hexdigest()[:16]


@cache
def bundle_brotli() -> bytes:
    """The bundle compressed with brotli, once per process, as WhiteNoise serves the
    static files: a fifth smaller than the gzip the pages get."""
    return brotli.compress(bundle()[0].encode(), quality=11)
