"""``eg.solve`` against brute force on small boards, and its answers against the finder.

The brute force scores every grid over the word list's own letters (a letter no word uses is
never better than one that some word uses, so the optimum is among those grids), with the
batch scorer, and applies the constraints with the finder's verdicts.
"""

from __future__ import annotations

import itertools
import json
import time

import numpy as np
import pytest

import exactgrid as eg
from exactgrid.fastscore import Scorer
from exactgrid.question import Chain, Question, build_question
from exactgrid.render.text import search_progress_line
from exactgrid.solving import SearchStats, SolveError
from exactgrid.words import parse_word_list

WORDS = parse_word_list("ABBA,40\nCAB,25\nDAD,30\nBAD,20\nACDC,60\nCADD,35\nDAB,15\nABACA,70\nBCD,10\n",
                        name="abcd")
PROPOSALS = 150_000


def _brute_force(question: Question) -> int:
    """The best score of any grid meeting ``question`` (-1 if none)."""
    board = question.board
    scorer = Scorer(board, question.words, question.budget)
    letters = sorted({ch for w in question.words.words for ch in w})
    codes = np.array([ord(ch) - 65 for ch in letters], dtype=np.uint8)
    grids = np.array(list(itertools.product(range(len(letters)), repeat=board.size)), dtype=np.intp)
    totals, found = scorer.score_batch(codes[grids])
    index = {w: i for i, w in enumerate(question.words.words)}
    ok = np.ones(len(grids), dtype=bool)
    for word in question.required_words:
        ok &= found[:, index[word]]
    for word in question.forbidden:
        ok &= ~found[:, index[word]]
    for cell, letter in question.fixed.items():
        ok &= codes[grids[:, cell]] == ord(letter) - 65
    for cell, allowed in question.domains.items():
        ok &= np.isin(codes[grids[:, cell]], [ord(letter) - 65 for letter in allowed])
    if question.min_count is not None:
        ok &= found.sum(axis=1) >= question.min_count
    if question.min_score is not None:
        ok &= totals >= question.min_score
    for chain in question.chains:
        rows = np.flatnonzero(ok)
        for r in rows:
            present = [w for w in question.words.words if found[r, index[w]]]
            ok[r] = chain.path(present) is not None
    return int(totals[ok].max()) if ok.any() else -1


CHAIN = Chain(("ABBA",), ("CADD",), frozenset({("ABBA", "DAB"), ("DAB", "DAD"), ("DAD", "CADD"), ("ABBA", "BAD")}))
QUESTIONS = [
    pytest.param(Question(eg.Board(3, 3), words=WORDS), id="free"),
    pytest.param(Question(eg.Board(3, 3), words=WORDS, forbidden=["ACDC", "ABACA"]), id="forbid"),
    pytest.param(Question(eg.Board(3, 3), words=WORDS, required=["BCD", "DAD"], fixed={4: "C"}), id="require-fix"),
    pytest.param(Question(eg.Board(2, 4), words=WORDS, min_count=6), id="count"),
    pytest.param(Question(eg.Board(3, 3), words=WORDS, budget=0, chains=(CHAIN,)), id="chain-exact"),
    pytest.param(Question(eg.Board(3, 3, "rook"), words=WORDS, forbidden=["DAD"], min_score=150), id="rook-score"),
]


@pytest.mark.parametrize("question", QUESTIONS)
def test_solve_finds_the_brute_force_optimum(question: Question) -> None:
    best = _brute_force(question)
    seen: list[eg.solve.Improvement] = []
    answer = eg.solve(question, time_limit=None, max_proposals=PROPOSALS, workers=1, seed=3,
                      on_improvement=seen.append)
    assert best >= 0
    assert answer.verdict == eg.Verdict.FITS
    assert answer.score == best
    assert answer.check.ok
    for improvement in seen:  # every grid reported scores what it says, by the finder
        assert eg.score(improvement.grid, WORDS, question.budget, shape=question.board.shape_name,
                        moves=question.board.moves).total == improvement.score
    assert [i.score for i in seen] == sorted({i.score for i in seen})


def test_words_that_weigh_nothing_are_still_searched_for() -> None:
    # every weight 0: the search's temperatures and penalty scale with the weights, and must
    # not vanish with them (they divided by zero); a required word still steers the search
    words = parse_word_list("OHIO,0\nIOWA,0\n")
    free = eg.solve(Question(eg.Board(2, 2), words=words), time_limit=None, max_proposals=5_000, workers=1)
    assert free.verdict == eg.Verdict.FITS and free.score == 0
    required = Question(eg.Board(3, 3), words=words, required=["OHIO"])
    answer = eg.solve(required, time_limit=None, max_proposals=200_000, workers=1, seed=2)
    assert answer.verdict == eg.Verdict.FITS and eg.find(answer.grid, "OHIO", 1) is not None


def test_an_impossible_question_is_unknown_with_the_closest_grid() -> None:
    question = Question(eg.Board(2, 2), words=WORDS, required=["ABACA", "ACDC", "CADD"], budget=0)
    answer = eg.solve(question, time_limit=None, max_proposals=20_000, workers=1)
    assert answer.verdict == eg.Verdict.UNKNOWN
    assert answer.grid is None and answer.score == 0
    assert answer.closest is not None and len(answer.closest) == 4
    near = answer.closest_check
    assert near is not None and near.grid.letters == answer.closest and not near.ok
    # every word the finder misses on the closest grid is named, with its distance by brute force
    # over every walk of its length on 2x2 (all four cells touch: a step is to any other cell)
    missing = [w for w in question.required_words if eg.find(near.grid, w, 0) is None]
    walks = {n: [p for p in itertools.product(range(4), repeat=n) if all(a != b for a, b in itertools.pairwise(p))]
             for n in (4, 5)}
    expected = []
    for word in missing:
        off = min(sum(answer.closest[c] != ch for c, ch in zip(path, word, strict=True)) for path in walks[len(word)])
        expected.append(f"{word} is not spelled ({off} letter{'s' if off != 1 else ''} off)")
    assert list(near.problems) == expected and expected


def test_the_closest_grid_is_judged_by_the_checklist_and_by_the_rest_of_the_question() -> None:
    question = Question(eg.Board(2, 2), min_score=10**12)  # more than every state together
    answer = eg.solve(question, awards=["M8"], time_limit=None, max_proposals=20_000, workers=1)
    assert answer.verdict == eg.Verdict.UNKNOWN and answer.closest_check is not None
    total = eg.score(answer.closest, shape="2x2").total
    assert answer.closest_check.score.total == total
    assert answer.closest_check.problems == (f"scores {total:,} < {10**12:,}",)  # M8 is the checklist's
    assert answer.closest_checklist is not None and answer.closest_checklist.failed == ("M8",)
    assert "closest_checklist" in answer.to_dict() and answer.to_dict()["closest_total"] == total


@pytest.mark.usefixtures("two_cores")  # the workers asked for, on any machine
def test_awards_are_hard_constraints_and_the_checklist_passes() -> None:
    answer = eg.solve(eg.Question(eg.Board(5, 5)), awards=["PA", "NOCAL"], time_limit=None,
                      max_proposals=1_000_000, workers=2, seed=1)
    assert answer.verdict == eg.Verdict.FITS
    assert answer.checklist is not None and answer.checklist.passed
    result, verdict = eg.check(answer.grid.letters, answer.checklist.checklist)
    assert verdict.passed and result.total == answer.score
    assert "PENNSYLVANIA" in result.words and "CALIFORNIA" not in result.words


FEW_FILLINGS = [
    pytest.param(Question(eg.Board(3, 3), words=WORDS, fixed="AB./C.D/BAC"), id="two-free"),
    pytest.param(Question(eg.Board(3, 3), words=WORDS, fixed="[AB][CD][AD]/[BC]A[BD]/[AC][BD][AB]",
                          required=["CAB"]), id="domains"),
    pytest.param(Question(eg.Board(3, 3), words=WORDS, fixed="ABB/A.A/CDC", min_score=100), id="one-free"),
]


@pytest.mark.parametrize("question", FEW_FILLINGS)
def test_a_question_with_few_fillings_is_answered_by_checking_every_one(question: Question) -> None:
    # a proof, not a search: the brute force's optimum, OPTIMAL, with every filling checked
    best = _brute_force(question)
    fillings = 1
    for cell in range(question.board.size):
        fillings *= len(question.cell_letters(cell) or "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    answer = eg.solve(question, time_limit=None, workers=1)
    assert best >= 0 and answer.score == best
    assert answer.outcome == eg.Outcome.OPTIMAL and answer.verdict == eg.Verdict.FITS and answer.check.ok
    assert answer.ended_by == "every filling checked" and answer.stopped_by is None
    assert answer.stats.proposals == fillings
    assert answer.text().startswith(f"OPTIMAL: the best of the {fillings:,} grids the cells allow")


def test_a_question_no_filling_meets_does_not_fit_with_the_closest_grid() -> None:
    question = Question(eg.Board(3, 3), words=WORDS, fixed="ABB/A.A/CDC", required=["CADD", "BCD"], budget=0)
    assert _brute_force(question) == -1
    answer = eg.solve(question, time_limit=None, workers=1)
    assert answer.outcome == eg.Outcome.DOES_NOT_FIT and answer.verdict == eg.Verdict.DOES_NOT_FIT
    assert answer.exit_code == 1 and answer.grid is None and answer.stats.proposals == 26
    # the closest: of the fillings spelling most of the required words, the first best-scoring
    scores = {grid: eg.score(grid, WORDS, 0, shape="3x3") for grid in
              (f"ABBA{letter}ACDC" for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")}
    closest = max(scores, key=lambda grid: (len(scores[grid].words & {"CADD", "BCD"}), scores[grid].total))
    assert answer.closest == closest and len(answer.closest_check.problems) == 1
    assert answer.text().startswith("DOES NOT FIT: none of the 26 grids the cells allow meets the constraints")


def test_which_questions_are_answered_by_checking_every_filling() -> None:
    from exactgrid.solving.exhaustive import checks_every_filling, filling_count

    enable = "enable"  # ENABLE, 172,820 words
    cases = [  # (cells, word list, budget, fillings, checked each): 100,000 word checks at most, x the budget
        ("ORTOH/YESAM/WGN.L/IAROF/NHC.S", None, 1, 26 ** 2, True),  # 33,800 against the 50 states
        ("ORTOH/YESAM/WGN.L/IAROF/NHC.S", None, 3, 26 ** 2, False),  # 101,400: the budget counts
        ("ORTOH/YESAM/WGN.L/IAROF/N.C.S", None, 1, 26 ** 3, False),
        ("ORTOH/YESAM/WGN[AB]L/IAROF/NHC[ABCD]S", None, 1, 8, True),
        ("ORTOH/YESAM/WGNIL/IAROF/NHCUS", enable, 1, 1, False),  # one grid, but seconds or more to check
    ]
    for cells, words, budget, count, checked in cases:
        question = build_question(cells=[cells], words=words, budget=budget, allow_empty=True)
        assert (filling_count(question), checks_every_filling(question)) == (count, checked), cells


def test_an_interruption_while_a_grid_is_scored_keeps_the_best_before_it(monkeypatch) -> None:
    from exactgrid.solving import exhaustive

    class Interrupted:  # the first grid meeting the question, whose scoring Ctrl-C cuts short
        ok, problems = True, ()

        @property
        def score(self):
            raise KeyboardInterrupt

    checks = iter([Interrupted()])
    monkeypatch.setattr(exhaustive, "check_grid", lambda question, grid: next(checks))
    found = exhaustive.check_every_filling(Question(eg.Board(3, 3), words=WORDS, fixed="AB./C.D/BAC"), None)
    assert found.best is None and found.improvements == [] and found.stopped_by == "Ctrl-C"


def test_checking_every_filling_tells_its_progress(monkeypatch) -> None:
    from exactgrid.solving import exhaustive

    monkeypatch.setattr(exhaustive, "PROGRESS_SECONDS", 0.0)  # at every filling, however fast the machine
    counts: list[int] = []
    found = exhaustive.check_every_filling(Question(eg.Board(3, 3), words=WORDS, fixed="AB./C.D/BAC"), None,
                                           on_progress=lambda stats: counts.append(stats.proposals))
    assert counts == list(range(26 * 26)) and found.stats.proposals == 26 * 26
    # the finder checks hundreds a second: not "0k"
    assert search_progress_line(SearchStats(proposals=270, elapsed=1.0)).endswith(" 270 grids/s")
    assert search_progress_line(SearchStats(proposals=2_500_000, elapsed=1.0)).endswith(" 2,500k grids/s")


def test_checking_every_filling_honours_the_time_limit() -> None:
    answer = eg.solve(Question(eg.Board(3, 3), words=WORDS, fixed="AB./C.D/BAC"), time_limit=0, workers=1)
    assert answer.outcome == eg.Outcome.UNKNOWN and answer.ended_by == "time limit" and answer.stopped_by is None


def test_start_grid_and_fixed_cells() -> None:
    question = Question(eg.Board(3, 3), fixed={0: "T"})
    answer = eg.solve(question, start="thoainesl", time_limit=None, max_proposals=50_000, workers=1)
    assert answer.grid.letters[0] == "T"
    assert answer.score >= 32_913_047  # the start grid's own score


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"question": Question(eg.Board(3, 3), path_rule="simple")}, "simple paths"),
    ({"question": Question(eg.Board(3, 3), required=["OHIO:exact"])}, "pinned spelling"),
    ({"question": Question(eg.Board(9, 9))}, "64 cells"),
    ({"question": Question(eg.Board(3, 3)), "workers": 0}, "workers"),
    ({"question": Question(eg.Board(3, 3)), "start": "abc"}, "9 letters"),
    ({"question": Question(eg.Board(3, 3)), "awards": ["XYZ"]}, "unknown checklist item"),
])
def test_bad_input_is_one_clear_error(kwargs: dict, message: str) -> None:
    with pytest.raises(eg.InputError, match=message):
        eg.solve(time_limit=1, **kwargs)


def test_solve_error_is_an_input_error() -> None:
    assert issubclass(SolveError, eg.InputError)


def _best_within(question: Question, letters: str, window: int) -> int:
    """The best score of a grid meeting ``question`` within ``window`` changed cells (brute force
    over the words' letters and one letter no word uses)."""
    scorer = Scorer(question.board, question.words, question.budget)
    alphabet = sorted({ch for w in question.words.words for ch in w} | {"Z"})
    best = -1
    for cells in itertools.combinations(range(question.board.size), window):
        for choice in itertools.product(alphabet, repeat=window):
            grid = list(letters)
            for cell, letter in zip(cells, choice, strict=True):
                grid[cell] = letter
            text = "".join(grid)
            found = set(scorer.found_words(text))
            if set(question.required_words) <= found and not found & set(question.forbidden):
                best = max(best, scorer.score_one(text))
    return best


@pytest.mark.parametrize("window", [1, 2])
def test_certify_window_proves_no_change_of_k_cells_improves(window: int) -> None:
    from exactgrid.solving.certify import certify, improve_within
    from exactgrid.verify import check_grid

    question = Question(eg.Board(3, 3), words=WORDS, forbidden=["ABBA"], required=["CAB"])
    start = eg.Grid(question.board, "CABZZZZZZ")
    certificate, final = certify(question, check_grid(question, start), window, time_limit=120)
    assert certificate.verdict == eg.Verdict.DOES_NOT_FIT
    assert final.ok and final.score.total == certificate.score >= 25
    assert certificate.improvements >= 1
    assert _best_within(question, final.grid.letters, window) == final.score.total  # nothing better nearby
    # the same, asked as one question with "at most K cells differ"
    assert improve_within(question, final.grid.letters, final.score.total, window, "cadical")[0] == \
        eg.Verdict.DOES_NOT_FIT
    verdict, better, _ = improve_within(question, "CABZZZZZZ", 25, window, "cadical")
    assert verdict == eg.Verdict.FITS and better.ok and better.score.total > 25
    assert sum(a != b for a, b in zip(better.grid.letters, "CABZZZZZZ", strict=True)) <= window


def test_solve_with_certify_window_reports_the_certificate() -> None:
    answer = eg.solve(Question(eg.Board(3, 3), words=WORDS), time_limit=None, max_proposals=PROPOSALS, workers=1,
                      certify_window=2, certify_time_limit=120)
    assert answer.certificate is not None and answer.certificate.verdict == eg.Verdict.DOES_NOT_FIT
    assert answer.certificate.score == answer.score == _brute_force(Question(eg.Board(3, 3), words=WORDS))


def test_fit_by_search_fits_by_search_and_refutes_by_solver() -> None:
    from exactgrid.solving.fitting import fit_by_search, searchable

    question = Question(eg.Board(3, 3), words=WORDS, optional="all", min_score=_brute_force(
        Question(eg.Board(3, 3), words=WORDS)))
    answer = fit_by_search(question, time_limit=120, search_seconds=60, workers=1)
    assert answer.verdict == eg.Verdict.FITS and answer.backend == "search"
    impossible = question.but(min_score=question.min_score + 1)  # above the brute-force optimum
    answer = fit_by_search(impossible, backend="cadical", time_limit=120, search_seconds=0.5, workers=1)
    assert answer.verdict == eg.Verdict.DOES_NOT_FIT
    # a count over some words only is not what the search counts: left to the solver
    assert not searchable(Question(eg.Board(3, 3), words=WORDS, optional=["ABBA", "CAB"], min_count=1))
    assert searchable(question)


def test_fit_by_search_grades_missing_required_words_and_its_grid_holds_them(monkeypatch) -> None:
    from exactgrid.solving import fitting

    schedules = []
    real = fitting.search

    def spy(*args, **kwargs):
        schedules.append(kwargs["schedule"])
        return real(*args, **kwargs)

    monkeypatch.setattr(fitting, "search", spy)
    question = Question(eg.Board(3, 3), words=WORDS, required=["ABACA", "ACDC", "CADD"], budget=0)
    answer = fitting.search_for_fit(question, 60, workers=1, seed=3)
    assert answer is not None and answer.verdict == eg.Verdict.FITS
    spelled = {scored.match.word for scored in eg.score(answer.grid, words=WORDS, budget=0).found}
    assert {"ABACA", "ACDC", "CADD"} <= spelled
    assert [s.graded for s in schedules] == [True]
    fitting.search_for_fit(question, 60, workers=1, schedule=fitting.Schedule())  # a schedule given is used
    assert [s.graded for s in schedules] == [True, False]


def test_a_proposal_budget_finds_the_same_grids_however_slow_the_machine(monkeypatch) -> None:
    from exactgrid.solving import kernel

    question = Question(eg.Board(3, 3), words=WORDS, forbidden=["ACDC"])

    def run() -> eg.solve.SolveAnswer:
        return eg.solve(question, time_limit=None, max_proposals=100_003, workers=1, seed=7)

    fast = run()
    compiled = kernel.anneal_graded

    def slowed(*args):  # a machine a slice at a time slower, as if loaded
        time.sleep(0.02)
        return compiled(*args)

    monkeypatch.setattr(kernel, "anneal_graded", slowed)
    slow = run()
    assert fast.ended_by == slow.ended_by == "proposal budget"
    assert fast.stats.proposals == slow.stats.proposals >= 100_003
    # the grids found are the same; how many of the improvements on the way the watching thread
    # saw (it reads the worker between slices, every 50 ms) is a matter of timing
    assert fast.grid == slow.grid and fast.score == slow.score == _brute_force(question)


def test_a_slice_runs_without_the_lock_that_the_watching_thread_reads_bests_under(monkeypatch) -> None:
    """The watching thread (time limit, Ctrl-C, progress) must never wait for a slice of the
    kernel: a worker that held its lock across slices starved it, and searches overran their
    time limit by several times. Checked without any clock: the lock is free inside the kernel."""
    from exactgrid.solving import kernel, search
    from exactgrid.solving.problem import SearchProblem

    problem = SearchProblem.build(Question(eg.Board(3, 3), words=WORDS))
    (worker,) = search._start_workers(problem, search.Schedule(), 0, None, 1)
    real, free_inside = kernel.anneal_graded, []

    def spy(*args):  # noqa: ANN002, ANN202 - the kernel's own arguments
        free = worker.lock.acquire(blocking=False)
        if free:
            worker.lock.release()
        free_inside.append(free)
        return real(*args)

    monkeypatch.setattr(kernel, "anneal_graded", spy)
    worker.slice(200)
    worker.slice(200)
    assert free_inside == [True, True]
    assert worker.snapshot() == worker._bests()  # what the watching thread reads is the last slice's outcome


def test_an_interruption_while_solve_seeks_its_first_grid_ends_the_solve(monkeypatch) -> None:
    """With required words, solve first asks the SAT solver for a grid holding them; a Ctrl-C or
    SIGTERM then made fit answer UNKNOWN (its contract), and solve used to search on for the whole
    time limit. fit's interrupted answer is given here as fit gives it."""
    import signal

    import exactgrid.fitting as fitting
    from exactgrid.stopping import Terminated

    def interrupted(question: Question, *args: object, **kwargs: object) -> fitting.FitAnswer:
        return fitting.FitAnswer.interrupted(question, "cadical", Terminated(signal.SIGTERM))

    monkeypatch.setattr(fitting, "fit", interrupted)
    answer = eg.solve(Question(eg.Board(3, 3), required=["OHIO"]), time_limit=120, workers=1)
    assert answer.stopped_by == answer.ended_by == "SIGTERM" and answer.check is None
    assert answer.stats.proposals == 0  # the search never began


@pytest.mark.parametrize("workers", [1, 2])
def test_a_signal_while_the_worker_threads_start_ends_the_search(monkeypatch, workers: int) -> None:
    """A Ctrl-C that lands while the search starts its worker threads (a window a loaded machine
    widens) is the search's stop like any other. It once left a thread never started, whose join
    raised "cannot join thread before it is started", and ``fit --local-search`` died with a
    traceback (exit 1, seen in CI) instead of answering UNKNOWN."""
    import signal
    import threading

    from exactgrid.solving import search as search_module
    from exactgrid.solving.problem import SearchProblem

    original = threading.Thread.start
    signalled: list[str] = []

    def start_after_a_signal(thread: threading.Thread) -> None:
        if thread.name.startswith("exactgrid-solve-") and thread.name != "exactgrid-solve-compile" and not signalled:
            signalled.append(thread.name)
            signal.raise_signal(signal.SIGINT)  # its handler runs before the thread is started
        original(thread)

    monkeypatch.setattr(threading.Thread, "start", start_after_a_signal)
    problem = SearchProblem.build(Question(eg.Board(3, 3), words=WORDS))
    result = search_module.search(problem, time_limit=120, workers=workers, seed=1)
    assert signalled == ["exactgrid-solve-0"]
    assert result.stopped_by == "Ctrl-C"
    assert not [t for t in threading.enumerate() if t.name.startswith("exactgrid-solve-") and t.is_alive()
                and t.name != "exactgrid-solve-compile"]


@pytest.mark.parametrize("grid", ["SDANROUIC", "DHCLOIAAT", "LASISLLCN"])
def test_an_exact_move_ignores_the_questions_symmetry_breaking(grid):
    """A window holds the other cells, where a lex-leader constraint is unsound: with it, the
    better grid one cell away (found by brute force) would be refuted."""
    from exactgrid.solving.certify import improve_within

    before = eg.score(grid, shape="3x3").total
    one_cell = (grid[:c] + letter + grid[c + 1:] for c in range(9) for letter in "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert max(eg.score(g, shape="3x3").total for g in one_cell) > before
    question = Question(eg.Board(3, 3), symmetry_breaking=True)
    verdict, check, _ = improve_within(question, grid, before, 1, backend="cadical", time_limit=60)
    assert verdict == eg.Verdict.FITS and check.score.total > before
    assert sum(a != b for a, b in zip(check.grid.letters, grid, strict=True)) <= 1


@pytest.mark.parametrize(("water", "awards"), [(True, ["20S", "PA", "M8", "4C", "NOCAL", "C2C"]),
                                               (None, ["20S", "PA", "M8", "4C", "NOCAL"])])
def test_the_out_file_names_the_awards_under_the_searchs_border_convention(tmp_path, water, awards) -> None:
    # every cell fixed to the six-award grid whose chain crosses Lake Superior: C2C over water only
    question = build_question(requirements=["OHIO"], cells="VYMIP/LASET/DNRST/EOIAO/WMCHW")
    out = tmp_path / "out.jsonl"
    eg.solve(question, water_borders=water, time_limit=None, max_proposals=1_000, workers=1, out=out)
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(line["grid"], line["awards"]) for line in lines] == [("VYMIPLASETDNRSTEOIAOWMCHW", awards)]


def test_an_answer_that_ended_by_itself_has_no_stopped_by_as_the_contract_says():
    """``stopped_by`` names an interruption or is None, in every answer and in its JSON alike;
    how the search ended by itself is ``ended_by`` (``search.stopped_by`` in the JSON)."""
    answer = eg.solve(eg.Question(eg.Board(3, 3)), time_limit=None, max_proposals=50_000, workers=1, seed=3)
    assert answer.ended_by == "proposal budget" and answer.stopped_by is None
    data = answer.to_dict()
    assert data["stopped_by"] is None and data["search"]["stopped_by"] == "proposal budget"
    assert answer.exit_code == data["exit_code"] == 0


def test_a_start_grid_on_another_board_is_refused_as_score_refuses_it():
    """A Grid carries its board: one of the same size on another board (a 1x9 row, rook moves)
    is bad input, not its letters quietly read on the question's board; letters are read."""
    question = eg.Question(eg.Board(3, 3))
    for start in (eg.Grid(eg.Board(1, 9), "THOAINESL"), eg.parse_grid("THOAINESL", moves="rook")):
        with pytest.raises(eg.InputError, match="give its letters to read them on the question's board"):
            eg.solve(question, start=start, time_limit=None, max_proposals=1_000, workers=1)
    answer = eg.solve(question, start="THOAINESL", time_limit=None, max_proposals=1_000, workers=1)
    assert answer.score >= eg.score("THOAINESL").total
