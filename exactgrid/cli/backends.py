"""The ``backends`` command: the solver backends and what each can do.

JSON output (``--json``): ``default`` and ``backends`` -- a list of {``name``, ``available``,
``version``, ``capabilities``, ``description``}.
"""

from __future__ import annotations

import click

from .base import print_json


@click.command("backends")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
def backends_command(as_json: bool) -> None:
    """List the solver backends: available here or not, version, and what each can do."""
    from ..backends import default_backend_name, list_backends

    rows = list_backends()
    if as_json:
        print_json({"default": default_backend_name(), "backends": [r.to_dict() for r in rows]})
        return
    table = [[r.name + (" *" if r.name == default_backend_name() else ""), "yes" if r.available else "no",
              r.version or "-", ",".join(sorted(r.capabilities)), r.description] for r in rows]
    from ..render import text_table

    click.echo(text_table(["backend", "available", "version", "can", "description"], table))
    click.echo("\n* default")
