"""Serving the rules engine to the phone: the worker with its own CSP, the rules
package bundled from its real source files under its hash, and the runtime's files
found in the installed brython package (not in this repository)."""

from __future__ import annotations

import ast
import json
import re
import unicodedata
from dataclasses import dataclass, fields
from pathlib import Path

import brotli
import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

import pitchkeeper.rules
from pitchkeeper.core.brython import (
    RUNTIME,
    RUNTIME_FILES,
    SERVER_ONLY_RULES,
    STDLIB,
    _stdlib,
    bundle,
    bundle_brotli,
    code_only,
    js_code_only,
)

RULES = Path(pitchkeeper.rules.__file__).parent


def script_src(response) -> str:
    policy = dict(
        part.strip().split(" ", 1) for part in response["Content-Security-Policy"].split(";")
    )
    return policy["script-src"]


def bundled_modules() -> dict[str, list]:
    text, _digest = bundle()
    return json.loads(text.removeprefix("__BRYTHON__.loadBrythonPackage(").rstrip(");\n"))


@pytest.mark.django_db
def test_the_worker_alone_may_evaluate_code():
    client = Client()
    worker = client.get(reverse("engine_worker"))
    assert worker.status_code == 200
    assert worker["Content-Type"] == "text/javascript; charset=utf-8"
    assert script_src(worker) == "'self' 'unsafe-eval'"
    page = client.get(reverse("login"))
    assert script_src(page) == "'self'"


@pytest.mark.django_db
def test_the_worker_loads_the_runtime_and_this_version_of_the_rules():
    text = Client().get(reverse("engine_worker")).content.decode()
    _bundle, digest = bundle()
    loads = re.search(r"importScripts\((\"[^\"]*\"), (\"[^\"]*\")\)", text)
    assert loads, text
    assert [json.loads(url) for url in loads.groups()] == [
        "/static/engine/brython.js",
        reverse("engine_bundle", args=[digest]),
    ]
    # What it compiled is kept under the bundle's hash; it fetches nothing else.
    key = re.search(r"const BUNDLE = (\"[^\"]*\");", text)
    assert key and json.loads(key[1]) == digest
    assert "unicode.txt" not in text and "fetch(" not in text


@pytest.mark.django_db
def test_the_bundle_is_cached_for_good_under_its_hash_and_only_that():
    client = Client()
    text, digest = bundle()
    answer = client.get(reverse("engine_bundle", args=[digest]))
    assert answer.status_code == 200 and answer.content.decode() == text
    assert "immutable" in answer["Cache-Control"] and "max-age=31536000" in answer["Cache-Control"]
    assert client.get(reverse("engine_bundle", args=["0" * 16])).status_code == 404


@pytest.mark.django_db
def test_the_bundle_goes_out_in_brotli_to_a_browser_that_takes_it():
    client = Client()
    url = reverse("engine_bundle", args=[bundle()[1]])
    answer = client.get(url, HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert answer["Content-Encoding"] == "br" and "Accept-Encoding" in answer["Vary"]
    assert brotli.decompress(answer.content).decode() == bundle()[0]
    assert len(answer.content) == len(bundle_brotli()) < len(bundle()[0]) / 4
    gzipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert gzipped["Content-Encoding"] == "gzip"


def test_the_hash_names_the_rules_and_the_runtime_and_is_the_packages_timestamp(monkeypatch):
    # Brython's own cache of compiled modules checks the package's $timestamp: it is the
    # bundle's hash, never the standard library's, which a change of the rules keeps.
    text, digest = bundle()
    modules = bundled_modules()
    assert modules["$timestamp"] == int(digest[:12], 16)
    assert modules["$timestamp"] != _stdlib()["$timestamp"]
    changed = RULES / "projection.py"
    source = changed.read_text()
    monkeypatch.setattr(
        Path,
        "read_text",
        lambda self, **kwargs: (
            source.replace("KEEP_REPLAYED = 4", "KEEP_REPLAYED = 5")
            if self == changed
            else Path.read_bytes(self).decode()
        ),
    )
    bundle.cache_clear()
    try:
        assert bundle()[1] != digest and bundle()[0] != text
    finally:
        monkeypatch.undo()
        bundle.cache_clear()
    assert bundle() == (text, digest)


def test_the_bundle_holds_the_rules_package_as_its_source_files_are():
    modules = bundled_modules()
    sources = {path.stem: path.read_text() for path in RULES.glob("*.py")}
    assert sources["projection"] and sources["engine"]
    for stem, source in sources.items():
        name = "pitchkeeper.rules" if stem == "__init__" else f"pitchkeeper.rules.{stem}"
        if stem in SERVER_ONLY_RULES:
            assert name not in modules
            continue
        assert modules[name][1] == code_only(source), name
    assert modules["pitchkeeper.rules"][3] == 1 and modules["pitchkeeper"] == [".py", "", [], 1]
    # None of what the phone is sent imports a module it is not sent.
    for stem in SERVER_ONLY_RULES:
        assert stem in sources
        imported = re.compile(rf"from \.{stem} import|rules\.{stem}\b|import \.?{stem}\b")
        sent = [m[1] for m in modules.values() if isinstance(m, list)]
        assert sent and not any(imported.search(source) for source in sent), stem


def test_javascript_modules_go_without_comment_lines_and_indentation_but_the_same_lines():
    source = "// A comment.\n(function ($B) {\n  // Why.\n  const a = 1; // kept\n\n"
    source += "  return a;\n})\n"
    assert js_code_only(source) == "(function ($B) {\nconst a = 1; // kept\nreturn a;\n})\n"
    # A line that may go on inside a string: the module is kept as it is.
    for risky in ("const a = `one\n  // two`;\n", 'const a = "one\\\n  // two";\n'):
        assert js_code_only(risky) == risky


def test_the_rules_go_without_docstrings_and_comments_but_the_same_statements():
    source = '''"""A module."""
# A comment.
X = 1  # why


@dataclass
class A:
    """A class."""

    field: Hint = 2


def f(a: Hint, *rest: Hint, b: Hint = 1, **more: Hint) -> Hint:
    """A function."""
    return "not a docstring"
'''
    code = code_only(source)
    assert "docstring" not in code.replace("not a docstring", "") and "#" not in code
    assert "A module" not in code and "A class" not in code and "A function" not in code
    # A function's hints go; a dataclass's field keeps its hint, which makes it a field.
    assert code.count("Hint") == 1
    namespace: dict[str, object] = {"dataclass": dataclass, "Hint": int}
    exec(code, namespace)  # noqa: S102 - the test's own source
    assert namespace["X"] == 1 and namespace["f"](0) == "not a docstring"  # type: ignore[operator]
    assert [field.name for field in fields(namespace["A"])] == ["field"]  # type: ignore[arg-type]
    tree = ast.parse(code)
    assert [type(node).__name__ for node in tree.body] == ["Assign", "ClassDef", "FunctionDef"]


def test_the_bundle_takes_only_the_standard_library_the_rules_need():
    modules = bundled_modules()
    stdlib = _stdlib()
    assert set(STDLIB) <= set(stdlib)
    for name in STDLIB:
        kind, source, *rest = stdlib[name]
        # The JavaScript ones without their comment lines and indentation.
        source = js_code_only(source) if kind == ".js" else source
        assert modules[name] == [kind, source, *rest], name
    extra = set(modules) - set(STDLIB) - {"$timestamp", "unicodedata", "dataclasses", "typing"}
    assert all(name.startswith("pitchkeeper") for name in extra)
    assert len(bundle()[0]) < len((RUNTIME / "brython_stdlib.js").read_text()) / 5


def test_the_phones_unicodedata_has_the_servers_tables_in_a_fiftieth_of_unicode_txt():
    kind, source, _imports = bundled_modules()["unicodedata"]
    assert kind == ".js" and "XMLHttpRequest" not in source and "__" + "NAMES__" not in source
    tables = dict(re.findall(r"const (\w+) = (.*);\n", source))
    gaps, runs = json.loads(tables["GAPS"]), json.loads(tables["RUN_CATEGORIES"])
    categories, names = json.loads(tables["CATEGORY_NAMES"]), json.loads(tables["NAMES"])
    assert json.loads(tables["VERSION"]) == unicodedata.unidata_version
    starts = [sum(gaps[: index + 1]) for index in range(len(gaps))]
    for code in [*starts, *(start - 1 for start in starts[1:]), 0x41, 0x301, 0x200B, 0x10FFFF]:
        run = max(index for index, start in enumerate(starts) if start <= code)
        assert categories[ord(runs[run]) - 65] == unicodedata.category(chr(code)), hex(code)
    assert names[str(0x200B)] == "ZERO WIDTH SPACE" and names[str(0x3164)] == "HANGUL FILLER"
    unicode_txt = brotli.compress((RUNTIME / "unicode.txt").read_bytes())
    assert len(brotli.compress(source.encode())) < len(unicode_txt) / 30


def test_the_runtime_is_found_in_the_installed_package():
    assert RUNTIME_FILES == ("brython.js",)
    for name in RUNTIME_FILES:
        assert finders.find(f"engine/{name}") == str(RUNTIME / name)
    assert finders.find("engine/brython_stdlib.js") is None
    assert finders.find("engine/unicode.txt") is None
    assert not list(Path(__file__).resolve().parents[2].glob("static/**/brython*.js"))


@pytest.mark.django_db
def test_the_runtime_is_served_as_a_static_file():
    answer = Client().get("/static/engine/brython.js")
    assert answer.status_code == 200
    assert b"".join(answer.streaming_content) == (RUNTIME / "brython.js").read_bytes()
