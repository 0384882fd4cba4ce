"""Solver sessions: assumptions, cores, and minimal conflicts, checked against brute force."""

import functools

import pytest

import exactgrid as eg
from exactgrid.backends import Status
from exactgrid.encoding import encode, modelled_alphabet
from exactgrid.fitting.session import FitSession, explain
from exactgrid.inputs import FrozenDict
from exactgrid.model import BoolModel
from exactgrid.question import SpecError

from .test_fit import EXPECTED, MAX_GRIDS, SPECS, brute_force_fits

SESSION_BACKENDS = ["cadical", "glucose", "kissat"]  # two incremental, one re-solving fallback


def small_enough(spec) -> bool:
    """Whether brute force over the whole board (no fixed cells) stays within MAX_GRIDS grids."""
    return len(modelled_alphabet(spec.but(fixed=FrozenDict()))[0]) ** spec.board.size <= MAX_GRIDS


def restricted(spec, labels):
    """The question keeping only the parts named in ``labels`` (targets are always kept; a
    requirement left out becomes an optional word, which counts towards targets if spelled)."""
    board = spec.board
    lifted = {r.word: spec.words.weight(r.word) for r in spec.required if r.describe() not in labels}
    return spec.but(required=tuple(r for r in spec.required if r.describe() in labels),
                    optional=FrozenDict({**spec.optional, **lifted}),  # a lifted requirement still counts
                    forbidden=tuple(w for w in spec.forbidden if f"forbid {w}" in labels),
                    fixed=FrozenDict({c: x for c, x in spec.fixed.items() if f"{board.label(c)}={x}" in labels}))


@functools.cache  # each backend asks the same brute force questions
def _fits_by_brute_force(index: int, labels: frozenset[str] | None = None) -> bool:
    """Whether SPECS[index] fits with its fixed cells lifted (``labels`` None), or keeping only
    the parts named in ``labels``."""
    spec = SPECS[index]
    return brute_force_fits(spec.but(fixed=FrozenDict()) if labels is None else restricted(spec, labels)) is not None


@pytest.mark.parametrize("backend", SESSION_BACKENDS)
def test_session_basics_assumptions_core_and_learning(backend):
    model = BoolModel()
    a, b, c = model.new_vars(3)
    model.add_clause([a, b])
    with eg.get_backend(backend).open_session(model) as session:
        assert session.solve([-a]).true_vars >= {b}
        session.add_clause([-b, c])
        refuted = session.solve([-a, -c, b])
        assert refuted.status == Status.UNSAT and set(refuted.core) <= {-a, -c, b}
        assert session.solve([-a, c]).status == Status.SAT  # assumptions hold for one call only
        assert session.solve([]).status == Status.SAT


def test_capabilities_say_who_keeps_sessions():
    assert {"in-process", "assumptions", "incremental"} <= eg.get_backend("cadical").capabilities
    assert "assumptions" not in eg.get_backend("kissat").capabilities
    assert "child-process" in eg.get_backend("kissat").capabilities


SESSION_SPECS = [i for i, s in enumerate(SPECS) if not s.symmetry_breaking]


@pytest.mark.parametrize("backend", SESSION_BACKENDS)
def test_one_session_per_question_agrees_with_brute_force(backend):
    stride = 8 if backend == "kissat" else 1  # the fallback starts a child per call
    for index in SESSION_SPECS[::stride]:
        spec = SPECS[index]
        try:
            session = FitSession(spec.but(fixed=FrozenDict()), backend)
        except SpecError:
            continue  # a forbid with too many simple paths: sessions refuse it, as documented
        with session:
            answer = session.ask(fixed=spec.fixed)
            assert answer.verdict == ("fits" if EXPECTED[index] else "does not fit"), (index, spec)
            if answer.fits:
                assert eg.verify.check_grid(spec, answer.grid).ok and dict(answer.question.fixed) == dict(spec.fixed)
            else:
                assert answer.conflict is not None and set(answer.conflict) <= {p.label for p in session.parts(spec)}
                if small_enough(spec):  # the core alone cannot hold
                    assert not _fits_by_brute_force(index, frozenset(answer.conflict)), (index, answer.conflict)
            if small_enough(spec):  # the same session, the fixed cells lifted again
                lifted = session.ask()
                assert lifted.fits == _fits_by_brute_force(index), index


def test_explanations_are_minimal_by_brute_force():
    checked = 0
    for index, spec in enumerate(SPECS):
        if EXPECTED[index] or spec.symmetry_breaking or not small_enough(spec):
            continue
        try:
            conflict, minimal = explain(spec, time_limit=60)
        except SpecError:
            continue
        assert minimal
        assert brute_force_fits(restricted(spec, conflict)) is None, (index, conflict)
        for label in conflict:  # every part is needed: without it, a grid exists
            rest = set(conflict) - {label}
            assert brute_force_fits(restricted(spec, rest)) is not None, (index, conflict, label)
        checked += 1
    assert checked >= 50  # 52 of the random questions are refuted, small enough and posable


def test_a_core_on_a_refuted_set_of_fixed_cells():
    # 3x3, every cell fixed to Q but the H at r1c2: no O anywhere, so OHIO (three of its four
    # letters exact, one of them an O) cannot be spelled. The conflict names OHIO and the Q
    # cells that matter; brute force over the free cells (letters H, I, O and a filler)
    # confirms that it cannot hold and that every part of it is needed.
    base = eg.Question(eg.Board(3, 3), optional=["all"])
    with FitSession(base, backend="cadical") as session:
        answer = session.ask(fixed="QHQ/QQQ/QQQ", required=["OHIO"])
        assert answer.verdict == "does not fit" and "OHIO" in answer.conflict
        asked = session.question_for(fixed="QHQ/QQQ/QQQ", required=["OHIO"])
        conflict, minimal = session.explain(asked)
        assert minimal and "OHIO" in conflict and any(label.endswith("=Q") for label in conflict)
        assert brute_force_fits(restricted(asked, conflict)) is None
        for label in conflict:
            assert brute_force_fits(restricted(asked, set(conflict) - {label})) is not None, label
        assert session.ask(fixed="OHQ/QQQ/QQQ", required=["OHIO"]).fits  # O next to H: O H (alter) O


def test_session_grids_keep_fixed_letters_the_words_do_not_use():
    base = eg.Question(eg.Board(3, 3), required=["OHIO"])
    enc = encode(base, assumable=True)
    assert enc.cell_lit(0, "Q") == enc.cell_lit(0, "Z")  # unmodelled letters share the filler
    with FitSession(base, backend="cadical") as session:
        answer = session.ask(fixed={0: "Q", 8: "Z"})
        assert answer.fits and answer.grid.letters[0] == "Q" and answer.grid.letters[8] == "Z"


def test_sessions_refuse_what_they_cannot_ask():
    with FitSession(eg.Question(eg.Board(3, 3), required=["OHIO"]), backend="cadical") as session:
        with pytest.raises(SpecError, match="neither required nor optional"):
            session.ask(required=["UTAH"])
        with pytest.raises(SpecError, match="within the budget only"):
            session.ask(required=["IOWA:exact"])
        with pytest.raises(SpecError, match="question fits"):
            session.explain()


@pytest.mark.parametrize("optional,list_weight", [({"B": 0, "C": 1}, 10), ({"B": 6}, 2)])
def test_a_session_refuses_to_require_a_word_whose_weight_the_target_would_change(optional, list_weight):
    # Optional, B weighs what the question says; required, its list weight. The session's
    # target was encoded with the first, so it must not answer (a wrong DOES NOT FIT for the
    # first case, and a grid the finder rejects for the second, before this refusal).
    words = eg.WordList({"B": list_weight, "C": 1})
    base = eg.Question(eg.Board(1, 2, "rook"), budget=0, words=words, optional=optional, min_score=5)
    refused = f"B weighs {optional['B']} in the session's question but {list_weight}"
    with FitSession(base, backend="cadical") as session, pytest.raises(SpecError, match=refused):
        session.ask(required=["B"])
    expected = eg.Outcome.FITS if list_weight >= 5 else eg.Outcome.DOES_NOT_FIT  # the grid BA, or none
    assert eg.fit(base.but(required=["B"]), backend="cadical").verdict == expected


def test_explaining_a_question_that_fits_answers_fits_with_a_checked_grid():
    """Nothing conflicts: ``eg.explain`` answers FITS (exit 0) with a grid, as ``fit --explain``
    does, rather than raising the bad-input error it once did."""
    question = eg.Question(eg.Board(3, 3), required=["OHIO", "UTAH=ATAH"])
    answer = explain(question, time_limit=60)
    assert answer.outcome == eg.Outcome.FITS and answer.exit_code == 0 and answer.conflict == ()
    assert eg.verify.check_grid(question, answer.grid).ok
    assert answer.to_dict()["grid"] == answer.grid.letters and answer.text().startswith("FITS: nothing conflicts")


def test_explain_answers_with_the_contract():
    spec = eg.Question(eg.Board(2, 2), required=["OHIO:exact", "UTAH:exact"])
    answer = explain(spec, time_limit=60)
    assert answer.outcome == eg.Outcome.DOES_NOT_FIT and answer.exit_code == 1
    conflict, minimal = answer
    assert minimal and set(conflict) <= {"OHIO:exact", "UTAH:exact"} and conflict
    assert answer.to_dict()["conflict"] == list(conflict)
    assert "cannot hold together" in answer.text()


def _refuted_with_explain(monkeypatch, explanation):
    """``fit(..., explain=True, certify=True)`` on a 3x3 question CaDiCaL refutes, with
    ``explain`` replaced by ``explanation`` (a value to return, or an exception to raise)."""
    import exactgrid.fitting.decide as decide
    from exactgrid.encoding import EncodingTimeout
    from exactgrid.fitting.answer import Explanation

    def fake(question, backend, time_limit=None):
        if isinstance(explanation, EncodingTimeout):
            raise explanation
        return Explanation(eg.Outcome.UNKNOWN, question, stopped_by=explanation)

    monkeypatch.setattr(decide, "explain_conflict", fake)
    question = eg.Question(eg.Board(3, 3), required=["ILLINOIS:exact", "OHIO:exact", "UTAH:exact", "IOWA:exact",
                                                     "IDAHO:exact"])
    return eg.fit(question, backend="cadical", time_limit=60, counting=False, explain=True, certify=True)


def test_an_interrupted_explanation_keeps_the_verdict_and_names_the_signal(monkeypatch):
    answer = _refuted_with_explain(monkeypatch, "SIGTERM")
    assert answer.verdict == eg.Verdict.DOES_NOT_FIT and answer.conflict is None
    assert answer.stopped_by == "SIGTERM" and answer.exit_code == 3
    assert "--explain interrupted (SIGTERM)" in answer.detail and "targets" not in answer.detail
    assert answer.certificate is None  # the run stops: no proof is checked after the signal


def test_no_time_to_build_the_explanation_keeps_the_verdict(monkeypatch):
    from exactgrid.encoding import EncodingTimeout

    answer = _refuted_with_explain(monkeypatch, EncodingTimeout("the time limit came while building"))
    assert answer.verdict == eg.Verdict.DOES_NOT_FIT and answer.exit_code == 1 and answer.stopped_by is None
    assert "no explanation: the time limit came while building" in answer.detail


def test_an_empty_conflict_names_the_chain_it_leaves_in_the_background():
    from exactgrid.question import checklist_question, choose_checklist

    question = checklist_question(eg.Question(eg.Board(2, 2)), choose_checklist(None, ["C2C"]))
    answer = eg.fit(question, backend="cadical", time_limit=120, counting=False, explain=True)
    assert answer.verdict == eg.Verdict.DOES_NOT_FIT and answer.conflict == ()
    assert "why: the chain alone cannot hold together" in answer.text()
    assert "minimum score" not in answer.text()


def test_a_closed_session_and_a_bad_time_limit_are_input_errors():
    """Asking a closed session (an AttributeError from the solver before) and a negative time
    limit (an UNKNOWN before) are the project's one-line errors; closing twice is harmless."""
    question = eg.Question(eg.Board(3, 3), required=["OHIO"])
    with eg.FitSession(question) as session:
        with pytest.raises(eg.InputError, match="finite number of seconds"):
            session.ask(time_limit=-1)
        assert session.ask(time_limit=60).verdict == "fits"
    session.close()
    for asking in (session.ask, session.explain):
        with pytest.raises(eg.InputError, match="this FitSession is closed"):
            asking()
    with pytest.raises(eg.InputError, match="FitSession takes a Question"):
        eg.FitSession("OHIO")


def test_explain_with_no_time_to_build_its_model_answers_unknown_and_says_why():
    """A time limit that ends while the model is built is UNKNOWN with the reason (it was an
    EncodingTimeout exception), like fit's."""
    question = eg.Question(eg.Board(3, 3), required=["ILLINOIS:exact", "UTAH:exact"])
    answer = eg.explain(question, time_limit=0)
    assert answer.outcome == eg.Outcome.UNKNOWN and answer.exit_code == 3
    assert "while encoding" in answer.text() and answer.to_dict()["detail"] == answer.detail
    assert tuple(eg.explain(question, time_limit=60)) == (("ILLINOIS:exact", "UTAH:exact"), True)
