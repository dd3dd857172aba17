"""The phone's own ``dataclasses`` and ``typing``, in place of Brython's copies of
CPython's (core/brython.py sends these instead).

Brython runs the standard library's ``typing`` (70 KB of source and a dozen modules it
imports) and ``dataclasses`` (which writes each class's ``__init__``, ``__eq__`` and
``__repr__`` as source and compiles it with ``exec``) at every start of the engine: some
two thirds of a warm start, since code made by ``exec`` is compiled afresh each time
and never kept. The rules use a small part of each: frozen and plain dataclasses with
``field``, ``fields``, ``replace`` and ``asdict``; ``Any`` and ``Literal`` from typing (their
annotations are strings, ``from __future__ import annotations``). These modules do what
the rules use, the same way, with no ``exec``; anything else is an ImportError or an
AttributeError on the phone, which the in-browser conformance test would show.
tests/core/test_phone_stdlib.py checks them against CPython's own on the server.
"""
