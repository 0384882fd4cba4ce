"""``python -m exactgrid ...``: the ``exactgrid`` command, for when the console script is not on
PATH (a virtual environment not activated, a Jupyter ``!`` line). Usage and help say
``exactgrid``, as the script's do (:func:`exactgrid.cli.main` passes the name to click)."""

from exactgrid.cli import main

if __name__ == "__main__":
    main()
