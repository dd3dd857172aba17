"""Serving the rules engine to the phone: the worker with its own CSP, the rules
package bundled from its real source files under its hash, and the runtime's files
found in the installed brython package (not in this repository)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

import pitchkeeper.rules
from pitchkeeper.core.brython import RUNTIME, RUNTIME_FILES, STDLIB, _stdlib, bundle

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
    path = re.search(r"const runtimePath = (\"[^\"]*\");", text)
    assert path and json.loads(path[1]) == "/static/engine/"


@pytest.mark.django_db
def test_the_bundle_is_cached_for_good_under_its_hash_and_only_that():
    client = Client()
    text, digest = bundle()
    answer = client.get(reverse("engine_bundle", args=[digest]))
    assert answer.status_code == 200 and answer.content.decode() == text
    assert "immutable" in answer["Cache-Control"] and "max-age=31536000" in answer["Cache-Control"]
    assert client.get(reverse("engine_bundle", args=["0" * 16])).status_code == 404


def test_the_bundle_holds_the_rules_package_as_its_source_files_are():
    modules = bundled_modules()
    sources = {path.stem: path.read_text() for path in RULES.glob("*.py")}
    assert sources["projection"] and sources["engine"]
    for stem, source in sources.items():
        name = "pitchkeeper.rules" if stem == "__init__" else f"pitchkeeper.rules.{stem}"
        assert modules[name][1] == source, name
    assert modules["pitchkeeper.rules"][3] == 1 and modules["pitchkeeper"] == [".py", "", [], 1]


def test_the_bundle_takes_only_the_standard_library_the_rules_need():
    modules = bundled_modules()
    stdlib = _stdlib()
    assert set(STDLIB) <= set(stdlib)
    assert {name: modules[name] for name in STDLIB} == {name: stdlib[name] for name in STDLIB}
    extra = set(modules) - set(STDLIB) - {"$timestamp"}
    assert all(name.startswith("pitchkeeper") for name in extra)
    assert len(bundle()[0]) < len((RUNTIME / "brython_stdlib.js").read_text()) / 5


def test_the_runtime_is_found_in_the_installed_package():
    for name in RUNTIME_FILES:
        assert finders.find(f"engine/{name}") == str(RUNTIME / name)
    assert finders.find("engine/brython_stdlib.js") is None
    assert not list(Path(__file__).resolve().parents[2].glob("static/**/brython*.js"))


@pytest.mark.django_db
def test_the_runtime_is_served_as_a_static_file():
    answer = Client().get("/static/engine/brython.js")
    assert answer.status_code == 200
    assert b"".join(answer.streaming_content) == (RUNTIME / "brython.js").read_bytes()
