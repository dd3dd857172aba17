"""The rules engine for the phone: ``pitchkeeper/rules`` run in the browser by Brython
(the ``brython`` package from PyPI), so the totals a phone shows before the server
answers, or with no network at all, are this engine's own (docs/offline.md).

The runtime's files are served from the installed package as static files under
``engine/``; the rules package goes out as one script built from its real source files
with the few modules of Brython's standard library it needs, named by its hash so a
phone fetches it once per change of the rules.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import brython
from django.contrib.staticfiles.finders import BaseFinder
from django.core.checks import CheckMessage
from django.core.files.storage import FileSystemStorage

import pitchkeeper.rules

RUNTIME = Path(brython.__file__).parent / "data"
# Served under STATIC_URL + PREFIX: the runtime, and the Unicode table that Brython's
# ``unicodedata`` reads (the record format checks names with it) from beside it.
PREFIX = "engine"
RUNTIME_FILES = ("brython.js", "unicode.txt")
# The modules of Brython's standard library that importing ``pitchkeeper.rules`` loads:
# a twelfth of the whole (109 KB of 847 KB compressed). The in-browser conformance test
# (tests/browser/test_engine.py) fails if one is missing.
STDLIB = (
    "__future__",
    "_ast",
    "_collections",
    "_collections_abc",
    "_functools",
    "_json",
    "_operator",
    "_py_abc",
    "_thread",
    "_typing",
    "_weakref",
    "_weakrefset",
    "abc",
    "annotationlib",
    "ast",
    "browser",
    "builtins",
    "collections",
    "copy",
    "copyreg",
    "dataclasses",
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
    "typing",
    "unicodedata",
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


def _rules_modules() -> dict[str, list[Any]]:
    """The rules package from its source files, as Brython's virtual file system takes
    them: [extension, source, imports, 1 for a package]."""
    folder = Path(pitchkeeper.rules.__file__).parent
    modules: dict[str, list[Any]] = {"pitchkeeper": [".py", "", [], 1]}
    for path in sorted(folder.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        if path.stem == "__init__":
            modules["pitchkeeper.rules"] = [".py", source, [], 1]
        else:
            modules[f"pitchkeeper.rules.{path.stem}"] = [".py", source, []]
    return modules


@cache
def bundle() -> tuple[str, str]:
    """The script that gives Brython the rules package and the standard library it
    needs, and its hash: built once per process from the files as installed."""
    stdlib = _stdlib()
    modules = {"$timestamp": stdlib["$timestamp"]}
    modules |= {name: stdlib[name] for name in STDLIB}
    modules |= _rules_modules()
    text = f"__BRYTHON__.loadBrythonPackage({json.dumps(modules, sort_keys=True)});\n"
    return text, hashlib.sha256(text.encode()).hexdigest()[:16]
