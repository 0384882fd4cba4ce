"""The 50 US states: 2020 census resident population, borders, coasts and tile-map positions.

The CSV files beside this module are copied from the project's hand-checked reference tables;
their sources are cited in ``README.md`` in this folder. :func:`us_states` is the word list of
Altered States 2 (weights: population; postal codes accepted as aliases; display names such
as "New York").
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Literal

from ..words import NAMED_LISTS, WordList

BorderKind = Literal["land", "water"]


@dataclass(frozen=True)
class StateInfo:
    """One US state as the bundled data describes it."""

    name: str
    key: str
    abbr: str
    population: int
    region: str
    division: str
    atlantic: bool
    pacific: bool
    gulf: bool
    great_lakes: bool
    east_coast: bool
    west_coast: bool

    @property
    def starts_with_m(self) -> bool:
        """Whether the name begins with M (the M8 award)."""
        return self.key.startswith("M")


@dataclass(frozen=True)
class Border:
    """Two states sharing a border of positive length."""

    a: str
    b: str
    kind: BorderKind


def _read_csv(name: str) -> list[dict[str, str]]:
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    return list(csv.DictReader(text.splitlines()))


@cache
def us_states_info() -> tuple[StateInfo, ...]:
    """The 50 states, alphabetical, with 2020 census resident population and coasts."""
    coasts = {row["key"]: row for row in _read_csv("coasts.csv")}
    out = []
    for row in _read_csv("states_2020.csv"):
        coast = coasts[row["key"]]
        out.append(
            StateInfo(
                name=row["name"],
                key=row["key"],
                abbr=row["abbr"],
                population=int(row["population_2020"]),
                region=row["region"],
                division=row["division"],
                **{flag: coast[flag] == "1" for flag in (
                    "atlantic", "pacific", "gulf", "great_lakes", "east_coast", "west_coast"
                )},
            )
        )
    return tuple(out)


@cache
def us_borders() -> tuple[Border, ...]:
    """The 108 bordering pairs of states (105 on land, 3 only in water), by state key."""
    return tuple(
        Border(row["key_a"], row["key_b"], row["kind"])  # type: ignore[arg-type]
        for row in _read_csv("borders.csv")
    )


@cache
def us_tiles() -> dict[str, tuple[int, int]]:
    """Where each of the 48 contiguous states sits on a square tile map: key -> (column, row),
    0-based, row 0 at the top (NPR's tile grid layout; see ``README.md`` in this folder).

    >>> us_tiles()["MAINE"], us_tiles()["TEXAS"], "ALASKA" in us_tiles()
    ((10, 0), (3, 7), False)
    """
    return {row["key"]: (int(row["col"]), int(row["row"])) for row in _read_csv("us_tiles.csv")}


@cache
def us_states() -> WordList:
    """The 50 states as a word list weighted by 2020 census resident population.

    >>> us_states().weight("OHIO"), us_states().resolve("ny"), us_states().display("NEWYORK")
    (11799448, 'NEWYORK', 'New York')
    """
    info = us_states_info()
    return WordList({s.key: s.population for s in info}, "US states",
                    aliases={s.abbr: s.key for s in info}, names={s.key: s.name for s in info},
                    word_label="state", weight_label="population")


NAMED_LISTS["us-states"] = us_states


def state(key: str) -> StateInfo:
    """The bundled record of one state, by key (``NEWYORK``) or postal code (``NY``)."""
    word = us_states().resolve(key)
    return next(s for s in us_states_info() if s.key == word)
