"""Every example in the package's docstrings runs and prints what it shows: the API reference
(mkdocstrings) shows these docstrings, so a wrong example there is a wrong document."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import exactgrid

MODULES = sorted(info.name for info in pkgutil.walk_packages(exactgrid.__path__, "exactgrid."))


def test_the_package_has_modules_with_examples():
    with_examples = [name for name in MODULES
                     if any(test.examples for test in doctest.DocTestFinder().find(importlib.import_module(name)))]
    assert len(with_examples) >= 20, with_examples


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of_a_module_print_what_they_show(name):
    module = importlib.import_module(name)
    results = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert results.failed == 0, f"{results.failed} of {results.attempted} examples in {name} failed (run: " \
                                f"python -m pytest --doctest-modules {module.__file__})"
