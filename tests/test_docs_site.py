"""The documentation site (mkdocs.yml, docs/cli.md, docs/api/): its pages exist, its generated
pages name the real command line and every public name, and the strict build passes.

The cheap checks read files only. The builds run when mkdocs is installed (``pip install -e
'.[docs]'``; CI installs it after the suite and builds the site itself too, so there they are
skipped): the site's own strict build, and a tiny site showing that a missing docstring and a
broken link each fail a strict build with this site's templates and extension.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import click
import pytest

import exactgrid

ROOT = Path(__file__).resolve().parents[1]
CONFIG = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
API_PAGES = sorted((ROOT / "docs" / "api").glob("*.md"))
needs_mkdocs = pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None
                                  or importlib.util.find_spec("mkdocstrings_handlers") is None
                                  or importlib.util.find_spec("mkdocs_click") is None,
                                  reason="the docs extra is not installed: pip install -e '.[docs]'")


def nav_pages() -> list[str]:
    """The pages the nav of mkdocs.yml names (``- page.md`` or ``- Title: page.md``)."""
    nav = CONFIG[CONFIG.index("\nnav:"):]
    nav = nav[: re.search(r"\n\S", nav[1:]).start() + 1]
    return re.findall(r"^\s*- (?:[^:\n]+: )?(\S+\.md)$", nav, flags=re.M)


def cli_directive() -> dict[str, str]:
    """The options of the mkdocs-click directive of docs/cli.md."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "::: mkdocs-click" in text
    return dict(re.findall(r"^\s+:(\w+): (.+)$", text, flags=re.M))


def api_directives() -> dict[str, list[str] | None]:
    """Each module an API page documents, with its ``members:`` list (None: every public member)."""
    found: dict[str, list[str] | None] = {}
    for page in API_PAGES:
        for module, options in re.findall(r"^::: (\S+)\n((?:[ \t]+.*\n?)*)", page.read_text(encoding="utf-8"),
                                           flags=re.M):
            members = re.search(r"members: (.+)", options)
            found[module] = None if members is None else re.findall(r"\w+", members.group(1))
    return found


def test_every_page_of_the_nav_exists_and_every_page_is_in_the_nav():
    pages = nav_pages()
    assert {"index.md", "guide.md", "rules.md", "reference.md", "cli.md", "api/index.md"} <= set(pages)
    for page in pages:
        assert (ROOT / "docs" / page).is_file(), f"mkdocs.yml names {page}, which docs/ does not hold"
    written = {str(path.relative_to(ROOT / "docs")) for path in (ROOT / "docs").rglob("*.md")}
    assert written - set(pages) == set(), "pages not in the nav of mkdocs.yml"


def test_the_site_is_strict_and_its_helpers_exist():
    assert re.search(r"^strict: true$", CONFIG, flags=re.M)
    for check in ("not_found", "anchors", "absolute_links", "unrecognized_links"):
        assert re.search(rf"^  {check}: warn$", CONFIG, flags=re.M), f"validation: {check} must be warn"
    assert re.search(r"^\s+show_if_no_docstring: true$", CONFIG, flags=re.M)
    extension = re.search(r"- (tools/\S+\.py):\w+", CONFIG).group(1)
    assert (ROOT / extension).is_file()
    for kind in ("module", "class", "function"):
        template = ROOT / "docs" / "templates" / "python" / "material" / f"{kind}.html.jinja"
        assert "log.warning" in template.read_text(encoding="utf-8")


def test_the_cli_page_names_the_real_command_line():
    options = cli_directive()
    group = getattr(importlib.import_module(options["module"]), options["command"])
    assert isinstance(group, click.Group) and group.commands
    assert options["module"] == "exactgrid.cli" and group is importlib.import_module("exactgrid.cli").cli
    scripts = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(rf'^{options["prog_name"]} = "exactgrid\.cli:', scripts, flags=re.M)


def test_every_public_name_has_a_page_in_the_api_reference():
    documented = api_directives()
    missing = []
    for name, module in sorted(exactgrid._WHERE.items()):
        defined_in = getattr(getattr(exactgrid, name), "__module__", None) or f"exactgrid.{module}"
        members = documented.get(defined_in, [])
        if defined_in not in documented or (members is not None and name not in members):
            missing.append(f"eg.{name} ({defined_in})")
    assert not missing, f"not in docs/api/*.md: {missing}"


def build(config: Path, site: Path) -> subprocess.CompletedProcess[str]:
    """``mkdocs build --strict`` of one configuration, with this checkout's package first on the path."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(config),
                           "--site-dir", str(site)], cwd=config.parent, env=env, capture_output=True, text=True,
                          timeout=600)


@needs_mkdocs
def test_the_site_builds_strictly_with_every_command_and_option(tmp_path):
    result = build(ROOT / "mkdocs.yml", tmp_path)
    assert result.returncode == 0, result.stderr
    cli_page = (tmp_path / "cli" / "index.html").read_text(encoding="utf-8")
    from exactgrid.cli import cli

    for name, command in cli.commands.items():
        assert f'id="exactgrid-{name}"' in cli_page, name
        for param in command.params:
            for option in param.opts + param.secondary_opts:
                if option.startswith("-"):
                    assert option in cli_page, f"{name} {option}"
    api = (tmp_path / "api" / "boards" / "index.html").read_text(encoding="utf-8")
    assert 'id="exactgrid.geometry.Board"' in api


TINY_MODULE = '''
"""A module."""


def documented():
    """A docstring."""


def undocumented():
    return 1
'''


@needs_mkdocs
def test_a_missing_docstring_and_broken_links_fail_the_build(tmp_path):
    """A tiny site with this site's configuration, templates and extension: each fault is one
    warning, and strict mode turns the warnings into a failed build."""
    (tmp_path / "docs").mkdir()
    (tmp_path / "tinymod.py").write_text(TINY_MODULE, encoding="utf-8")
    (tmp_path / "docs" / "index.md").write_text(
        "# A site\n\n[fine](#a-site), [no page](no-such-page.md), [no heading](#no-such-heading)\n\n"
        "::: tinymod\n", encoding="utf-8")
    config = CONFIG[: CONFIG.index("\nnav:")] + CONFIG[CONFIG.index("\n# Links are checked"):]
    config = config.replace("docs/templates", str(ROOT / "docs" / "templates")).replace(
        "tools/griffe_markdown.py", str(ROOT / "tools" / "griffe_markdown.py"))
    (tmp_path / "mkdocs.yml").write_text(config, encoding="utf-8")
    result = build(tmp_path / "mkdocs.yml", tmp_path / "site")
    assert result.returncode != 0, result.stderr
    warnings = re.findall(r"^WARNING +- +(.*)$", result.stderr, flags=re.M)
    assert len(warnings) == 3, result.stderr
    assert any("no docstring: tinymod.undocumented (tinymod.py:" in line for line in warnings)
    assert any("'no-such-page.md'" in line and "not found" in line for line in warnings)
    assert any("'#no-such-heading'" in line and "no such anchor" in line for line in warnings)
    assert "Aborted with 3 warnings in strict mode" in result.stdout + result.stderr
