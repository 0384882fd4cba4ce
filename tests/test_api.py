"""The public API: ``import exactgrid as eg``, questions that check themselves, typed answers."""

import pickle

import pytest

import exactgrid as eg
from exactgrid.question import SpecError


def test_the_five_lines_of_the_readme():
    # README, "Use it from Python": the seed grid's score and a verified fit.
    assert eg.score("thoainesl").total == 32_913_047  # the seed document's hand-checked total
    question = eg.Question(eg.Board(3, 3), required=["OHIO", "UTAH=ATAH"], forbidden=["TEXAS"])
    answer = eg.fit(question, backend="cadical", time_limit=60)
    assert answer.verdict is eg.Verdict.FITS and answer.fits
    assert eg.is_found(answer.grid, "OHIO") and not eg.is_found(answer.grid, "TEXAS")
    assert [m.word for m in answer.witnesses] == ["OHIO", "UTAH"] and answer.witnesses[1].spelled == "ATAH"


@pytest.mark.parametrize("make,message", [
    (lambda: eg.Question(eg.Board(3, 3), required=(eg.Requirement("OHIO", "position", position=9),)),
     "position 9 is out of range 1..4"),
    (lambda: eg.Question(required=["OHIOX"]), "unknown word 'OHIOX'"),
    (lambda: eg.Question(required=[eg.Requirement("OHIOX")]), "unknown word 'OHIOX'"),
    (lambda: eg.Question(required=["OHIO", eg.Requirement("OHIO", "exact")]), "OHIO is required twice"),
    (lambda: eg.Question(required=["OHIO"], forbidden=["oh"]), "both required and forbidden"),
    (lambda: eg.Requirement("OHIO", "position", position=2, letter="H"), "not an alteration"),
    (lambda: eg.Requirement("OHIO", "spelled", spelled="OHI"), "must have 4 letters"),
    (lambda: eg.Requirement("OHIO", "sometimes"), "unknown requirement mode"),
    (lambda: eg.Requirement("OHIO", position=2), "a position goes with mode 'position'"),
    (lambda: eg.Question(required=["OHIO=OHHH"]), "alters 2 letters; the budget allows 1"),
    (lambda: eg.Question(required=["OHIO:2"], budget=0), "needs a budget of at least 1"),
    (lambda: eg.Question(eg.Board(3, 3), required=["OHIO"], fixed={9: "O"}), "not a cell of the board"),
    (lambda: eg.Question(eg.Board(3, 3), required=["OHIO"], fixed={0: "o"}), "one letter A-Z"),
    (lambda: eg.Question(eg.Board(3, 3), required=["OHIO"], fixed="O../.."), "3 rows of 3"),
    (lambda: eg.Question(required=["OHIO"], budget=14), "budget must be from 0 to 13"),
    (lambda: eg.Question(required=["OHIO"], path_rule="teleport"), "unknown path rule"),
    (lambda: eg.Question(required=["OHIO"], min_score=-1), "min_score must be a whole number"),
    (lambda: eg.build_question(requirements=["OHIO"], shape="3x3", cells=["O../.../...", "P../.../..."]),
     "contradict each other at r1c1"),
])
def test_constructors_refuse_bad_questions_with_the_clis_message(make, message):
    with pytest.raises(SpecError, match=message):
        make()


def test_a_grid_keeps_its_board_and_bad_grids_are_input_errors():
    """A Grid carries its board: asked with other moves or another shape it is refused (it
    used to be scored by king moves whatever was asked); letters are read with them. Values
    that are no grid, shape or board are the project's error, never a stray TypeError."""
    grid = eg.parse_grid("thoainesl")
    assert eg.score(grid, moves="king", shape=(3, 3)).total == 32_913_047
    assert eg.score("thoainesl", moves="rook").words == {"OHIO"}  # O-H-I-A, the last O altered
    with pytest.raises(eg.InputError, match="king moves, but moves='rook' was given"):
        eg.score(grid, moves="rook")
    with pytest.raises(eg.InputError, match="the grid is 3x3, but shape='2x2' was given"):
        eg.check(grid, shape="2x2")
    for bad in (123, None, b"THOAINESL", ["THO", "AIN", "ESL"]):
        with pytest.raises(eg.InputError, match="a grid is a Grid or its letters as a string"):
            eg.score(bad)
    for shape in ((3,), 9, (3.0, 3)):
        with pytest.raises(eg.InputError, match="a shape is 'RxC'"):
            eg.score("thoainesl", shape=shape)
    with pytest.raises(eg.InputError, match="board must be a Board"):
        eg.Grid("3x3", "THOAINESL")
    with pytest.raises(eg.InputError, match="capitals"):
        eg.Grid(eg.Board(3, 3), "thoainesl")


def test_the_library_and_the_cli_print_the_same_error():
    from click.testing import CliRunner

    from exactgrid.cli import cli

    result = CliRunner().invoke(cli, ["fit", "OHIO:9", "--shape", "3x3"])
    with pytest.raises(SpecError) as caught:
        eg.Question(eg.Board(3, 3), required=["OHIO:9"])
    assert result.exit_code == 2 and str(caught.value) in result.output


def test_questions_are_hashable_normalised_and_picklable():
    a = eg.Question(eg.Board(3, 3), required=["ohio", "Utah=ATAH"], forbidden=["TX", "Texas"], fixed="O../.../...")
    utah = eg.Requirement("UTAH", "spelled", spelled="ATAH")
    b = eg.Question(eg.Board(3, 3), required=[eg.Requirement("OHIO"), utah], forbidden=["TEXAS"], fixed={0: "O"})
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert a.forbidden == ("TEXAS",) and dict(a.fixed) == {0: "O"}
    assert pickle.loads(pickle.dumps(a)) == a
    assert a.but(fixed={0: "H"}) != a
    with pytest.raises(SpecError, match="not a cell"):
        a.but(fixed={99: "H"})


def test_requirement_positions_are_one_based_as_typed():
    req = eg.Requirement("ILLINOIS", "position", position=2, letter="N")
    assert req.describe() == "ILLINOIS:2=N" and req.pattern()[1] == ("N", True)
    assert eg.Question(required=["ILLINOIS:2=N"]).required == (req,)


def test_instances_merge_overrides_like_the_cli(tmp_path):
    path = tmp_path / "q.toml"
    path.write_text('shape = "3x3"\nrequire = ["OHIO"]\ncells = ["O..", "...", "..."]\nexpect = "fits"\nname = "q"\n')
    instance = eg.load_instance(path, requirements=["UTAH"], cells=[".../.H./..."], budget=0)
    question = instance.question
    assert instance.expect is eg.Verdict.FITS and instance.name == "q"
    assert question.required_words == ("OHIO", "UTAH") and question.budget == 0
    assert dict(question.fixed) == {0: "O", 4: "H"}
    with pytest.raises(SpecError, match="q.toml: cells contradict"):
        eg.load_instance(path, cells=["P../.../..."])


def test_answers_are_dataclasses_with_an_enum_verdict():
    question = eg.Question(eg.Board(2, 2), required=["OHIO:exact", "UTAH:exact"])
    answer = eg.fit(question, backend="cadical", time_limit=60)
    assert answer.verdict is eg.Verdict.DOES_NOT_FIT and answer.verdict == "does not fit"
    assert answer.grid is None and answer.model_size.variables > 0
    assert isinstance(answer.model_size, eg.ModelSize)


def test_the_public_api_reads_as_one():
    import warnings

    import exactgrid as eg
    import exactgrid.encoding
    import exactgrid.fitting
    import exactgrid.solving  # noqa: F401 - importing a subpackage must not rebind eg.fit or eg.solve

    assert callable(eg.fit) and callable(eg.solve) and eg.fit.__module__ == "exactgrid.api"
    assert callable(eg.encode) and eg.encode.__module__ == "exactgrid.encoding"
    assert len(eg.__all__) == len(set(eg.__all__))
    assert eg.puzzles.letterboxed.solve_letter_boxed and eg.puzzles.trackword.build_grid
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from exactgrid.encode import Encoding
        from exactgrid.fit.session import FitSession  # the old path, kept working
        from exactgrid.solve import SolveAnswer
    assert FitSession is eg.FitSession and SolveAnswer is eg.SolveAnswer and Encoding is eg.Encoding
    assert any(issubclass(w.category, DeprecationWarning) for w in caught)
    # still the functions after the old paths' imports, and after fit, which imports the encoder
    eg.fit(eg.Question(eg.Board(2, 2), required=["OHIO"]), time_limit=60)
    assert callable(eg.fit) and callable(eg.solve) and callable(eg.encode)
    assert eg.encode(eg.Question(eg.Board(2, 2), required=["OHIO"])).model.num_vars > 0


def test_an_old_module_path_warns_where_a_script_imports_it(tmp_path):
    """The DeprecationWarning of an old path points at the importing line, so that Python's
    default filters show it for a script (pointed one frame further up, it came from
    ``sys:1``, where they hide it)."""
    import subprocess
    import sys

    script = tmp_path / "old.py"
    script.write_text("from exactgrid.encode import encode\nfrom exactgrid.fit.session import FitSession\n")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert f"{script}:1: DeprecationWarning: exactgrid.encode is now exactgrid.encoding" in run.stderr
    assert f"{script}:2: DeprecationWarning: exactgrid.fit is now exactgrid.fitting" in run.stderr


SLOW_TO_SCORE = "VYMIPLASETDNRSTEOIAOWMCHW"
"""A 5x5 grid whose score on simple paths with a budget of 4 takes about a second (every word
is a depth-first search over paths)."""


def test_a_score_is_an_answer_of_the_contract():
    answer = eg.score("thoainesl")
    assert answer.outcome is eg.Outcome.OPTIMAL and answer.exit_code == 0 and answer.complete
    assert answer.total == 32913047 and answer.unchecked == () and not answer.timed_out
    assert isinstance(answer, eg.Score) and answer.text().startswith("T H O\n")
    data = answer.to_dict()
    assert list(data)[:4] == ["outcome", "seconds", "stopped_by", "exit_code"]
    assert data["outcome"] == "optimal" and data["total"] == 32913047 and data["unchecked"] == []


def test_a_score_cut_short_keeps_the_words_found_and_names_the_rest():
    full = eg.score(SLOW_TO_SCORE, path_rule="simple", budget=4, time_limit=None)
    cut = eg.score(SLOW_TO_SCORE, path_rule="simple", budget=4, time_limit=0)  # the limit has passed after word 1
    assert cut.outcome is eg.Outcome.UNKNOWN and cut.exit_code == 3 and cut.timed_out and not cut.complete
    assert cut.words <= full.words and cut.total <= full.total
    listed = list(eg.us_states())
    looked = listed[:len(listed) - len(cut.unchecked)]
    assert list(cut.unchecked) == listed[len(looked):] and len(cut.unchecked) >= len(listed) - 1
    assert cut.words == full.words & set(looked)  # each word looked for is decided exactly
    assert "the time limit came before" in cut.text() and f"at least {cut.total:,}" in cut.text()


def test_a_score_interrupted_answers_with_the_words_so_far(monkeypatch):
    from exactgrid import finder

    calls, looked_for = [], finder.is_found

    def interrupted_at_the_fifth(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 5:
            raise KeyboardInterrupt()
        return looked_for(*args, **kwargs)

    monkeypatch.setattr(finder, "is_found", interrupted_at_the_fifth)
    answer = eg.score("thoainesl")
    assert answer.outcome is eg.Outcome.UNKNOWN and answer.stopped_by == "Ctrl-C" and answer.exit_code == 3
    assert answer.unchecked == tuple(eg.us_states())[4:]
    assert answer.words == eg.score("thoainesl", time_limit=None).words & set(calls[:4])


def test_a_check_whose_score_is_cut_short_gives_no_verdict():
    answer = eg.check(SLOW_TO_SCORE, path_rule="simple", budget=4, time_limit=0)
    assert answer.outcome is eg.Outcome.UNKNOWN and answer.exit_code == 3 and answer.checklist is None
    assert not answer.passed and answer.to_dict()["passed"] is None and answer.to_dict()["items"] == []
    assert "not judged" in answer.text()
    whole = eg.check(SLOW_TO_SCORE, path_rule="simple", budget=4, time_limit=None)
    assert whole.outcome is eg.Outcome.DOES_NOT_FIT and whole.checklist is not None


@pytest.mark.parametrize("stop_after", [0, 1, 3, 5, 6])
def test_every_word_is_found_unchecked_or_absent_whenever_the_score_stops(monkeypatch, stop_after):
    """An interruption after any number of words leaves no word uncounted; after the last word
    (the seed grid's list has 50; 6 stands for "after all" in a list of 6) the score is whole."""
    from exactgrid import api

    words = eg.WordList({w: eg.us_states().weight(w) for w in ("IDAHO", "ILLINOIS", "IOWA", "OHIO", "TEXAS", "UTAH")})
    looked_for = api.scored_words

    def stopped(*args, **kwargs):
        for count, pair in enumerate(looked_for(*args, **kwargs)):
            if count == stop_after:
                raise KeyboardInterrupt()
            yield pair
        raise KeyboardInterrupt()  # after the last word

    monkeypatch.setattr(api, "scored_words", stopped)
    answer = eg.score("thoainesl", words)
    assert answer.unchecked == tuple(words)[stop_after:]
    assert answer.words == {"IDAHO", "ILLINOIS", "IOWA", "OHIO", "UTAH"} & set(tuple(words)[:stop_after])
    whole = stop_after == len(words)
    assert answer.complete is whole and answer.stopped_by == (None if whole else "Ctrl-C")
    assert ("unknown: interrupted (Ctrl-C)" in answer._repr_html_()) is not whole


def test_a_time_limit_while_the_list_is_read_answers_unknown(tmp_path):
    path = tmp_path / "long.txt"
    path.write_text("".join(f"{chr(65 + i % 26)}{chr(65 + i // 26 % 26)}{chr(65 + i // 676 % 26)}Q\n"
                            for i in range(17_576)) * 10)
    answer = eg.score("thoainesl", path, time_limit=0)
    assert answer.outcome is eg.Outcome.UNKNOWN and answer.timed_out and answer.word_list is None
    assert answer.text().endswith("unknown: the time limit came while the word list was read")


def test_scores_are_equal_by_their_words_and_take_any_time_limit_a_number_can_say():
    import numpy

    assert eg.score("thoainesl") == eg.score("thoainesl", time_limit=10**400)  # no practical limit
    assert eg.score("thoainesl", time_limit=numpy.int64(5)).complete


@pytest.mark.parametrize("came,stopped_by,exit_code", [("time limit", None, 1), ("Ctrl-C", "Ctrl-C", 3)])
def test_a_check_cut_short_while_measuring_letters_off_keeps_its_verdict(monkeypatch, came, stopped_by, exit_code):
    from exactgrid import api
    from exactgrid.finder import FinderTimedOut

    def cut(*args, **kwargs):
        raise FinderTimedOut("the time limit came") if came == "time limit" else KeyboardInterrupt()

    monkeypatch.setattr(api, "with_letters_off", cut)
    answer = eg.check("thoainesl")
    assert answer.outcome is eg.Outcome.DOES_NOT_FIT and answer.exit_code == exit_code
    assert answer.letters_off_cut == came and answer.stopped_by == stopped_by
    assert answer.to_dict()["letters_off_cut"] == came and "letters off: not measured" in answer.text()
    monkeypatch.undo()
    whole = eg.check("thoainesl")
    assert whole.letters_off_cut is None and whole.checklist.failed == answer.checklist.failed


def test_fit_takes_awards_and_checklists_as_the_command_line_does():
    """``eg.fit(question, awards=...)`` asks what ``exactgrid fit --award ...`` asks: its grid
    earns the awards (judged by the checklist, not the encoder), and the same question built by
    hand gets the same answer."""
    answer = eg.fit(eg.Question(), awards=["NOCAL", "PA"], backend="cadical", time_limit=300, counting=False)
    assert answer.outcome is eg.Outcome.FITS
    assert eg.check(answer.grid, only=["NOCAL", "PA"]).passed
    by_hand = eg.checklist_question(eg.Question(), eg.default_checklist().select(["NOCAL", "PA"]))
    assert answer.question == by_hand
    with pytest.raises(eg.InputError, match="unknown checklist item NOPE"):
        eg.fit(eg.Question(), awards=["NOPE"])


def test_a_grid_file_given_to_the_api_is_named_as_a_file(tmp_path, monkeypatch):
    """The command line reads grid files; the API reads letters. A file's name given to it was
    refused as "found '.'", which said nothing of what to do."""
    (tmp_path / "g.txt").write_text("THO\nAIN\nESL\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(eg.InputError, match="'g.txt' names a file: read its text first"):
        eg.score("g.txt")
    assert eg.score((tmp_path / "g.txt").read_text()).total == eg.score("THOAINESL").total
