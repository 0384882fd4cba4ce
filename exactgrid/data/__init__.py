"""Datasets bundled with exactgrid, each a module over the files beside it (sources cited in
``README.md`` here). Today: :mod:`exactgrid.data.us`, the 50 US states (2020 census
populations, borders, coasts), the word list of Altered States 2."""
