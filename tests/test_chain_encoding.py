"""Chains (coast-to-coast) in the boolean model, against brute force and networkx.

Random chains over a small word list: ``fit`` must answer FITS exactly when some grid holds a
chain (brute force over every grid of the words' letters, chains judged by networkx), and a
grid it returns must hold one by networkx's judgement too.
"""

from __future__ import annotations

import itertools
import random

import networkx as nx
import numpy as np
import pytest

import exactgrid as eg
from exactgrid.awards.chains import border_graph
from exactgrid.fastscore import Scorer
from exactgrid.question import Chain, Question, checklist_question
from exactgrid.words import parse_word_list

WORDS = parse_word_list("ABBA\nCAB\nDAD\nBAD\nACDC\nCADD\nDAB\nABACA\nBCD\n", name="abcd")


def _has_chain(chain: Chain, present: set[str]) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(w for w in chain.nodes if w in present)
    graph.add_edges_from((a, b) for a, b in chain.links if a in present and b in present)
    return any(nx.has_path(graph, s, t) for s in chain.sources if s in present
               for t in chain.targets if t in present)


def _found_sets(board: eg.Board, budget: int) -> list[set[str]]:
    letters = sorted({ch for w in WORDS.words for ch in w})
    codes = np.array([ord(ch) - 65 for ch in letters], dtype=np.uint8)
    grids = np.array(list(itertools.product(range(len(letters)), repeat=board.size)), dtype=np.intp)
    _, found = Scorer(board, WORDS, budget).score_batch(codes[grids])
    return [set(np.array(WORDS.words)[row]) for row in np.unique(found, axis=0)]


def _random_chain(rng: random.Random) -> Chain:
    words = list(WORDS.words)
    links = {tuple(sorted(rng.sample(words, 2))) for _ in range(rng.randint(2, 9))}
    return Chain(tuple(rng.sample(words, rng.randint(1, 2))), tuple(rng.sample(words, rng.randint(1, 2))),
                 frozenset(links))


@pytest.mark.parametrize(("rows", "cols", "budget"), [(2, 3, 1), (2, 3, 0), (3, 3, 0)])
def test_fit_with_a_chain_agrees_with_brute_force(rows: int, cols: int, budget: int) -> None:
    board = eg.Board(rows, cols)
    sets = _found_sets(board, budget)
    rng = random.Random(rows * 100 + cols * 10 + budget)
    verdicts = set()
    for _ in range(12):
        chain = _random_chain(rng)
        expected = any(_has_chain(chain, present) for present in sets)
        answer = eg.fit(Question(board, budget=budget, words=WORDS, chains=(chain,)), backend="cadical",
                        time_limit=60)
        verdicts.add(answer.verdict)
        assert answer.verdict == (eg.Verdict.FITS if expected else eg.Verdict.DOES_NOT_FIT), chain
        if expected:
            found = eg.score(answer.grid.letters, WORDS, budget, shape=f"{rows}x{cols}").words
            assert _has_chain(chain, set(found))
    assert verdicts == {eg.Verdict.FITS, eg.Verdict.DOES_NOT_FIT}  # both kinds were asked


def test_coast_to_coast_on_the_us_border_graph() -> None:
    checklist = eg.default_checklist().select(["C2C"])
    grid = "LASSMGINOILRDEWOATSRMHCOK"  # holds MARYLAND ... CALIFORNIA
    assert eg.check(grid, checklist)[1].passed
    fixed = dict(enumerate(grid))
    question = checklist_question(Question(eg.Board(5, 5), fixed=fixed), checklist)
    assert eg.fit(question, backend="cadical", time_limit=120).verdict == eg.Verdict.FITS
    # chains from one found state: MARYLAND reaches CALIFORNIA, MAINE (found, but its only
    # neighbour NEWHAMPSHIRE is not) does not
    borders = frozenset(border_graph().edges)
    found = set(eg.score(grid).words)
    for source, expected in (("MARYLAND", eg.Verdict.FITS), ("MAINE", eg.Verdict.DOES_NOT_FIT)):
        chain = Chain((source,), ("CALIFORNIA",), borders)
        assert source in found and _has_chain(chain, found) == (expected == eg.Verdict.FITS)
        answer = eg.fit(Question(eg.Board(5, 5), fixed=fixed, chains=(chain,)), backend="cadical", time_limit=120)
        assert answer.verdict == expected
