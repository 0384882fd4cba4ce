"""The ``backends`` command: the solver backends and what each can do, or, with ``--check
NAME``, one backend held to brute force on random models (:mod:`exactgrid.backends.conformance`).

JSON output (``--json``): ``default`` and ``backends`` -- a list of {``name``, ``available``,
``version``, ``capabilities``, ``description``}; with ``--check``, the check's answer
(``backend``, ``asked``, ``undecided``, ``disagreements``, ``time_limit_seconds``,
``time_limit_status``), exit 0 when the backend agrees, 1 when it disagrees, 3 when it decided
nothing or was stopped.
"""

from __future__ import annotations

import click

from .base import BadInput, answer_out, print_json


@click.command("backends")
@click.option("--check", "check_name", metavar="NAME",
              help="Hold backend NAME to brute force on small random models (its UNSAT, optima and bounds, "
                   "which exactgrid otherwise takes on its word) and time its 1 s time limit: what a plugin's "
                   "author runs. Exit 0 when it agrees, 1 when it disagrees.")
@click.option("--models", type=click.IntRange(1, 10_000), default=60, show_default=True, metavar="N",
              help="With --check: how many random models.")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="With --check: the models' seed.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")
@click.pass_context
def backends_command(ctx: click.Context, check_name: str | None, models: int, seed: int, as_json: bool) -> None:
    """List the solver backends: available here or not, version, and what each can do (--check
    NAME: hold one to brute force)."""
    from ..backends import default_backend_name, list_backends

    given = [f"--{name}" for name in ("models", "seed")
             if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT]
    if given and check_name is None:
        verb = "means" if len(given) == 1 else "mean"
        raise BadInput(f"{' and '.join(given)} {verb} something only with --check NAME")
    if check_name is not None:
        from ..backends.conformance import check_backend

        answer = check_backend(check_name, models=models, seed=seed)
        answer_out(answer, as_json)
        ctx.exit(answer.exit_code)
    rows = list_backends()
    if as_json:
        print_json({"default": default_backend_name(), "backends": [r.to_dict() for r in rows]})
        return
    table = [[r.name + (" *" if r.name == default_backend_name() else ""), "yes" if r.available else "no",
              r.version or "-", ",".join(sorted(r.capabilities)), r.description] for r in rows]
    from ..render import text_table

    click.echo(text_table(["backend", "available", "version", "can", "description"], table))
    click.echo("\n* default")
