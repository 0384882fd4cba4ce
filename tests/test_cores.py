"""Pair placement, its cores and the core loop, against brute force on small boards."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from exactgrid.encoding import encode
from exactgrid.fitting import fit
from exactgrid.geometry import Board
from exactgrid.grid import parse_grid
from exactgrid.prove.cores import match_core, refute_by_cores
from exactgrid.prove.counting import count_question
from exactgrid.prove.placement import Core, Placement, pair_of, triple_of
from exactgrid.question import Verdict, build_question, load_instance
from exactgrid.render import fit_dict, fit_text
from exactgrid.verify import check_grid

from . import racers
from .test_fit import EXPECTED, SPECS

FIT = Path(__file__).resolve().parents[1] / "instances" / "benchmarks" / "fit"


def placeable(board: Board, pairs, at_most, triples=(), fixed=None) -> bool:
    """Whether some placement of the letters (and fillers) holds every pair and triple within the
    limits, with the ``fixed`` cells' letters (a letter named nowhere else is a filler)."""
    letters = sorted({a for p in pairs for a in p} | {a for a, _ in at_most} | {a for t in triples for a in t})
    pinned = {c: a if a in letters else "_" for c, a in (fixed or {}).items()}
    limits = dict(at_most)
    edges = list(board.edges)
    for letters_of in itertools.product([*letters, "_"], repeat=board.size):
        if any(letters_of[c] != a for c, a in pinned.items()):
            continue
        if any(letters_of.count(a) > k for a, k in limits.items()):
            continue
        adjacent = {pair_of(letters_of[c], letters_of[d]) for c, d in edges}
        around = {triple_of(letters_of[d], letters_of[c], letters_of[e]) for c in range(board.size)
                  for d in board.neighbours[c] for e in board.neighbours[c]}
        if all(p in adjacent for p in pairs) and all(t in around for t in triples):
            return True
    return False


def random_checks(count: int, seed: int):
    rng = random.Random(seed)
    boards = [Board(2, 3), Board(2, 2), Board(1, 5), Board(2, 3, "rook")]
    for _ in range(count):
        board = rng.choice(boards)
        letters = "ABCD"[: rng.randint(2, 4)]
        pairs = sorted({pair_of(rng.choice(letters), rng.choice(letters)) for _ in range(rng.randint(1, 6))})
        at_most = tuple((a, rng.randint(1, 2)) for a in letters if rng.random() < 0.6)
        yield board, letters, tuple(pairs), at_most


def check_once(board: Board, letters, pairs, at_most, triples=()):
    """One placement check in a session of its own."""
    placement = Placement(board, set(letters), set(pairs), triples=set(triples))
    try:
        return placement.check(pairs, at_most, triples=triples)
    finally:
        placement.close()


@pytest.mark.usefixtures("unhurried_core_checks")  # minimal on any machine (this process only)
def test_placement_agrees_with_brute_force_and_its_cores_are_minimal():
    cores = 0
    for board, letters, pairs, at_most in random_checks(60, seed=7):
        found = check_once(board, letters, pairs, at_most)
        if isinstance(found, str):
            assert placeable(board, pairs, at_most)
            adjacent = {pair_of(found[c], found[d]) for c, d in board.edges}
            assert set(pairs) <= adjacent
            assert all(found.count(a) <= k for a, k in at_most)
            continue
        cores += 1
        assert isinstance(found, Core)
        assert not placeable(board, pairs, at_most)
        assert set(found.pairs) <= set(pairs) and set(found.at_most) <= set(at_most)
        assert not placeable(board, found.pairs, found.at_most)
        for drop in range(len(found.pairs)):  # minimal: without any one part it can be placed
            assert placeable(board, found.pairs[:drop] + found.pairs[drop + 1:], found.at_most)
        for drop in range(len(found.at_most)):
            assert placeable(board, found.pairs, found.at_most[:drop] + found.at_most[drop + 1:])
    assert 10 <= cores <= 50


def test_triples_agree_with_brute_force_and_their_cores_are_cores():
    rng = random.Random(5)
    cores = 0
    for board, letters, pairs, at_most in random_checks(40, seed=9):
        triples = tuple(sorted({t for _ in range(rng.randint(1, 3))
                                if (t := triple_of(*rng.choices(letters, k=3))) is not None}))
        found = check_once(board, letters, pairs, at_most, triples)
        assert isinstance(found, str) == placeable(board, pairs, at_most, triples), (board, pairs, at_most, triples)
        if isinstance(found, Core):
            cores += 1
            assert not placeable(board, found.pairs, found.at_most, found.triples)
            renamed = found.renamed(dict(zip(sorted(found.letters), "PQRSTUVW")))
            assert not placeable(board, renamed.pairs, renamed.at_most, renamed.triples)
    assert cores >= 5


def test_a_doubled_letter_needs_two_cells():
    placement = Placement(Board(2, 2), {"A"}, {("A", "A")})
    try:
        assert placement.check((("A", "A"),), (("A", 1),)) == Core((("A", "A"),), (("A", 1),))
        assert placement.check((("A", "A"),), (("A", 2),)).count("A") == 2
    finally:
        placement.close()


def test_renamed_cores_match_only_where_they_apply():
    core = Core((("A", "B"), ("B", "C"), ("A", "C")), (("B", 1),))
    pairs = {("P", "Q"), ("Q", "R"), ("P", "R"), ("R", "S")}
    mapping = match_core(core, pairs, {"P": 2, "Q": 1, "R": 3, "S": 1})
    assert mapping is not None and mapping["B"] == "Q"  # the only letter within B's limit
    assert set(core.renamed(mapping).pairs) <= pairs
    assert match_core(core, pairs, {"P": 2, "Q": 2, "R": 3, "S": 1}) is None  # no letter within the limit
    assert match_core(core, {("P", "Q"), ("Q", "R")}, {"P": 1, "Q": 1, "R": 1}) is None  # no triangle
    assert match_core(core, pairs, {"P": 2, "Q": 1, "R": 3, "S": 1}, pinned=frozenset("B")) is None
    doubled = Core((("A", "A"), ("A", "B")), (("A", 1),))
    assert match_core(doubled, {("P", "P"), ("P", "Q")}, {"P": 1, "Q": 1}) == {"A": "P", "B": "Q"}
    assert match_core(doubled, {("P", "Q")}, {"P": 1, "Q": 1}) is None
    around = Core((("A", "B"),), (), (("A", "B", "C"),))
    mapping = match_core(around, {("P", "Q"), ("Q", "R")}, {"P": 1, "Q": 1, "R": 1}, triples={("P", "Q", "R")})
    assert mapping is not None and mapping["B"] == "Q" and {mapping["A"], mapping["C"]} == {"P", "R"}
    assert match_core(around, {("P", "Q"), ("Q", "R")}, {"P": 1, "Q": 1, "R": 1}, triples={("P", "S", "R")}) is None


def test_renamed_cores_are_cores():
    rng = random.Random(3)
    board = Board(2, 3)
    checked = 0
    for _, letters, pairs, at_most in random_checks(40, seed=11):
        found = check_once(board, letters, pairs, at_most)
        if isinstance(found, Core):
            names = list(found.letters)
            images = rng.sample("PQRSTUVW", len(names))
            renamed = found.renamed(dict(zip(names, images)))
            assert not placeable(board, renamed.pairs, renamed.at_most)
            checked += 1
    assert checked >= 3


def test_the_core_loop_never_refutes_a_question_some_grid_answers():
    refuted = base = 0
    for index, spec in enumerate(SPECS[::2]):
        if spec.budget > 1:
            continue
        answer = refute_by_cores(spec, time_limit=60)
        assert answer.status in ("refuted", "placed"), answer
        if answer.status == "refuted":
            refuted += 1
            assert not EXPECTED[2 * index], (spec, answer.cores)
        if count_question(spec, "cadical", 60, objective=False).status == "refuted":
            base += 1
            assert answer.status == "refuted"  # cuts only add to what counting refutes
    assert refuted > base >= 1


def test_the_core_loop_with_triples_never_refutes_a_question_some_grid_answers():
    refuted = 0
    for index, spec in enumerate(SPECS[1::2]):
        if spec.budget > 1:
            continue
        answer = refute_by_cores(spec, time_limit=60, triples=True)
        assert answer.status in ("refuted", "placed"), answer
        if answer.status == "refuted":
            refuted += 1
            assert not EXPECTED[2 * index + 1], (spec, answer.cores)
    assert refuted >= 5


@pytest.mark.parametrize("relaxation", ["sat", "highs"])
def test_with_the_exact_model_the_core_loop_decides_every_small_question(relaxation):
    if relaxation == "highs":
        pytest.importorskip("highspy")
    decided = {"fits": 0, "refuted": 0}
    for index, spec in enumerate(SPECS[relaxation == "highs"::2]):
        if spec.budget > 1:
            continue
        answer = refute_by_cores(spec, time_limit=60, exact=True, relaxation=relaxation)
        expected = EXPECTED[2 * index + (relaxation == "highs")]
        lazy = encode(spec).lazy_forbidden  # the exact model alone does not hold these: counting only
        assert answer.status in (("refuted", "placed") if lazy else ("refuted", "fits")), (spec, answer)
        decided[answer.status] = decided.get(answer.status, 0) + 1
        if answer.status == "fits":
            assert expected and not check_grid(spec, answer.grid).problems, (spec, answer.grid)
        if answer.status == "refuted":
            assert not expected, (spec, answer.count_cores, answer.cores)
    assert decided["fits"] >= 20 and decided["refuted"] >= 20, decided


def test_the_eight_m_states_do_not_fit_in_4x4_by_word_count_cores():
    pytest.importorskip("highspy")
    question = load_instance(FIT / "4x4_m8.toml").question
    answer = refute_by_cores(question, time_limit=None, exact=True, relaxation="highs")
    assert answer.status == "refuted" and answer.count_cores
    assert all(not core.words and core.at_most for core in answer.count_cores)
    assert answer.to_dict()["count_cores"][0] == {"words": [], "at_most": dict(answer.count_cores[0].at_most)}


def test_new_states_exactly_in_4x4_are_refuted_by_one_core():
    question = load_instance(FIT / "4x4_new4_exact.toml").question
    answer = refute_by_cores(question, time_limit=None)
    assert answer.status == "refuted"
    assert len(answer.cores) >= 1 and all(len(c.pairs) >= 3 for c in answer.cores)


def test_fit_races_counting_beside_a_child_process_backend():
    question = load_instance(FIT / "4x4_new4_exact.toml").question
    answer = fit(question, "kissat", time_limit=120)
    assert answer.verdict == Verdict.DOES_NOT_FIT and answer.backend == "counting"
    assert answer.counting.status == "refuted" and (answer.counting.cores or answer.counting.count_cores)
    data = fit_dict(answer)["counting"]
    assert "by counting" in fit_text(answer) and (data["cores"] or data["count_cores"])
    assert "core 1: " in fit_text(answer)


def test_counting_decides_beside_a_backend_that_cannot():
    question = load_instance(FIT / "3x3_top3.toml").question
    answer = fit(question, racers.Undecided(), time_limit=None)
    assert answer.verdict == Verdict.DOES_NOT_FIT and answer.backend == "counting" and answer.rounds == 1
    assert fit(question, "cadical", time_limit=60, counting=False).backend == "cadical"
    fits = load_instance(FIT / "4x4_top4.toml").question  # it fits: counting hands its counts to the exact model
    answer = fit(fits, racers.Undecided(), time_limit=None)
    assert answer.verdict == Verdict.FITS and answer.counting.status == "fits" and answer.backend == "counting"
    assert answer.grid == answer.counting.grid and "led it to the grid" in answer.detail
    answer = fit(question, racers.InProcessUndecided(), time_limit=None)  # in-process, beside the counting child
    assert answer.verdict == Verdict.DOES_NOT_FIT and answer.backend == "counting"


def test_the_backend_has_the_probe_to_itself(monkeypatch):
    import exactgrid.fitting.decide

    # counting refutes this in a fraction of a second, the backend after half a second; within
    # the probe (ten minutes here, so on any machine) the backend's answer is the answer
    monkeypatch.setattr(exactgrid.fitting.decide, "COUNTING_PROBE_SECONDS", 600.0)
    question = load_instance(FIT / "3x3_top3.toml").question
    answer = fit(question, racers.SlowRefuter(0.5), time_limit=None)
    assert answer.verdict == Verdict.DOES_NOT_FIT and answer.backend == "slow-refuter"
    monkeypatch.setattr(exactgrid.fitting.decide, "COUNTING_PROBE_SECONDS", 0.1)
    assert fit(question, racers.Undecided(), time_limit=None).backend == "counting"  # after the probe


def test_a_refutation_by_counting_is_explained_like_the_backends():
    question = build_question(requirements=["ILLINOIS:exact", "OHIO:exact", "UTAH:exact"], shape="3x3")
    by_counting = fit(question, racers.Undecided(), time_limit=None, explain=True)
    by_backend = fit(question, "cadical", time_limit=None, explain=True, counting=False)
    assert by_counting.backend == "counting" and by_backend.backend == "cadical"
    assert by_counting.conflict == by_backend.conflict == ("ILLINOIS:exact", "UTAH:exact")


def test_an_in_process_backend_decides_in_its_probe_without_waiting_for_counting(monkeypatch):
    import exactgrid.fitting.decide

    monkeypatch.setattr(exactgrid.fitting.decide, "COUNTING_PROBE_SECONDS", 600.0)  # a probe long on any machine
    question = load_instance(FIT / "3x3_top3.toml").question
    answer = fit(question, "cadical", time_limit=None)
    assert answer.verdict == Verdict.DOES_NOT_FIT and answer.backend == "cadical" and answer.counting is None


def test_a_failing_counting_pre_check_never_breaks_fit(monkeypatch):
    import exactgrid.fitting.decide as fit_answer

    monkeypatch.setattr(fit_answer, "counting_child", racers.counting_that_fails)
    answer = fit(load_instance(FIT / "3x3_top3.toml").question, "kissat", time_limit=60)
    assert answer.verdict == Verdict.DOES_NOT_FIT and answer.backend == "kissat"
    if answer.counting is not None:  # it reported before kissat decided
        assert answer.counting.status == "open" and "counting failed: boom" in answer.counting.detail
    answer = fit(load_instance(FIT / "3x3_top3.toml").question, racers.InProcessUndecided(), time_limit=None)
    assert answer.verdict == Verdict.UNKNOWN  # nobody decided, and nothing broke
    assert answer.counting.status == "open" and "counting failed: boom" in answer.counting.detail




def test_a_grid_the_exact_model_spells_is_checked_by_the_finder(monkeypatch):
    from exactgrid.prove.exact import CountCheck

    monkeypatch.setattr(CountCheck, "check", lambda self, counts, time_limit=None, words=(): parse_grid("ZZZ/ZZZ/ZZZ"))
    question = build_question(requirements=["OHIO", "UTAH"], shape="3x3")
    with pytest.raises(AssertionError, match="ZZZZZZZZZ, which the finder rejects: OHIO is not spelled"):
        refute_by_cores(question, time_limit=60, exact=True, relaxation="sat")
