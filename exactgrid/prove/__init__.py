"""Proofs that something cannot be: refutations by counting, upper bounds on the best score, and
certificates that exactgrid checks itself.

* :mod:`.counting`: the counting relaxation (letter counts, adjacent letter pairs, degrees), a
  model every grid holding the words satisfies; ``count_question`` solves it alone.
* :mod:`.placement`: can letters in such numbers hold such pairs on the board? When not, the
  pair/count core to blame.
* :mod:`.exact`: the question's own exact model asked about a solution's letter counts: a grid,
  or a word count core.
* :mod:`.spread`: the core search of one solution spread over worker processes or a Dask cluster.
* :mod:`.cuts`: what the checks of one relaxation solution conclude (cuts, placeable, a grid,
  out of time), as types the loops branch on.
* :mod:`.cores`: the core loop (``refute_by_cores``): the relaxation cut by the cores its
  solutions violate, until it refutes the question (or the exact model finds a grid).
* :mod:`.bound`: ``bound``, an anytime upper bound on the best score, the relaxation cut by cores
  on one HiGHS model.
* :mod:`.answers`: their answers, :class:`~.answers.BoundAnswer` and
  :class:`~.answers.CoreRefutation`, meeting the one answer contract (:mod:`exactgrid.answer`).
* :mod:`.drup`, :mod:`.checkers` and :mod:`.certify`: DRUP proofs from a proof-logging CaDiCaL,
  checked by exactgrid's own checker and by dratify's (accepted only when both accept), behind a
  refutation (by any backend, or by counting) or a bound.

Imports go one way, from placement and drup at the bottom, through counting, exact, spread,
checkers, answers, cuts, cores and certify, to bound at the top: no two modules import each
other.
"""
