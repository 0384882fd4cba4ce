"""Many questions at once: a local process pool and an in-process Dask cluster, against brute force."""

import json
import multiprocessing
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

import exactgrid as eg
from exactgrid.cli import cli
from exactgrid.fitting.many import ManyAnswer, fit_many, read_questions

from .test_fit import EXPECTED, SPECS

PICKED = list(range(0, len(SPECS), 6))  # 40 questions, both answers, every feature


def expected(index: int) -> str:
    return "fits" if EXPECTED[index] else "does not fit"


def check_answers(answers: list[ManyAnswer]) -> None:
    assert sorted(a.id for a in answers) == sorted(f"q{i}" for i in PICKED)  # every id echoed once
    for item in answers:
        index = int(item.id[1:])
        assert item.error is None and item.verdict == expected(index), (index, item)
        assert item.exit_code == item.to_dict()["exit_code"] == (0 if EXPECTED[index] else 1)
        if item.answer.fits:
            assert eg.verify.check_grid(SPECS[index], item.answer.grid).ok


@pytest.mark.usefixtures("two_cores")  # the workers asked for, on any machine
def test_a_local_pool_answers_every_question_as_brute_force_does():
    questions = [(f"q{i}", SPECS[i]) for i in PICKED]
    answers = list(fit_many(questions, backend="cadical", workers=2, time_limit=60))
    check_answers(answers)
    assert len({a.worker for a in answers}) >= 1
    assert not multiprocessing.active_children()  # the pool is gone


def test_an_in_process_dask_cluster_answers_the_same():
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        questions = [(f"q{i}", SPECS[i]) for i in PICKED]
        answers = list(fit_many(questions, backend="cadical", executor=client.get_executor(), time_limit=60))
        assert scheduler_events(client) == []  # the run's stop flag is forgotten
    check_answers(answers)


def scheduler_events(client) -> list:
    """The names of the events a Dask scheduler holds (the runs' stop flags among them)."""
    return client.run_on_scheduler(lambda dask_scheduler: list(dask_scheduler.extensions["events"]._events))


def test_a_total_time_limit_keeps_what_was_answered():
    slow = eg.Question(required=[w for w in list(eg.us_states().weights)[:30]])  # hopeless in 5x5, not decided
    quick = eg.Question(eg.Board(3, 3), required=["OHIO"])
    started = time.monotonic()
    answers = list(fit_many([("quick", quick), ("slow1", slow), ("slow2", slow)], backend="cadical", workers=1,
                            time_limit=600, total_time_limit=3))
    assert time.monotonic() - started < 600  # not the 600 s a question may take: any machine passes this
    by_id = {a.id: a for a in answers}
    # the quick one is answered in a fraction of a second; a machine too loaded to start the
    # worker within the 3 s leaves it unanswered, never wrongly answered
    assert set(by_id) == {"quick", "slow1", "slow2"} and by_id["quick"].verdict in ("fits", None)
    # not answered, unknown, or (on a machine fast enough to refute it in 3 s) refuted; never a guess
    assert all(by_id[s].verdict in ("unknown", "does not fit", None) for s in ("slow1", "slow2"))
    assert not multiprocessing.active_children()


def test_read_questions_keeps_ids_and_reports_bad_lines():
    lines = ['{"id": "a", "shape": "3x3", "require": ["OHIO"]}', "", "{not json",
             '{"require": ["NARNIA"]}', '{"id": true, "require": ["OHIO"]}', '{"shape": "3x3", "require": ["IOWA"]}']
    items = list(read_questions(lines, "q.jsonl", budget=0))
    assert items[0][0] == "a" and items[0][1].budget == 0  # an override applies to every line
    assert isinstance(items[1], ManyAnswer) and "q.jsonl:3: not valid JSON" in items[1].error
    assert "q.jsonl:4: unknown word 'NARNIA'" in items[2].error
    assert "id must be a string or a whole number" in items[3].error
    assert items[4][0] == 6  # the line number when no id is given


@pytest.mark.usefixtures("two_cores")  # the workers asked for, on any machine
def test_fit_many_command_streams_json_lines(tmp_path):
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "fits", "shape": "3x3", "require": ["OHIO", "UTAH=ATAH"]}\n'
                    '{"id": "refuted", "shape": "2x2", "require": ["OHIO:exact", "UTAH:exact"]}\n')
    result = CliRunner().invoke(cli, ["fit-many", str(path), "--backend", "cadical", "--workers", "2"])
    assert result.exit_code == 0, result.output
    lines = {d["id"]: d for d in map(json.loads, result.output.splitlines())}
    assert lines["fits"]["verdict"] == "fits" and len(lines["fits"]["grid"]) == 9
    assert lines["refuted"]["verdict"] == "does not fit" and "seconds" in lines["refuted"]
    assert lines["refuted"]["exit_code"] == 1  # fit's own, as the batch's 0 counts it answered
    path.write_text('{"id": 1, "require": ["NARNIA"]}\n')
    bad = CliRunner().invoke(cli, ["fit-many", str(path), "--backend", "cadical"])
    assert bad.exit_code == 2 and json.loads(bad.output.splitlines()[0])["error"].endswith("not on the US states list")


def _die() -> None:
    import os
    import signal

    os.kill(os.getpid(), signal.SIGKILL)


def test_a_worker_that_dies_leaves_errors_not_a_traceback():
    """A pool worker killed (here: at its start) breaks the pool: each question it leaves
    unanswered gets an error saying so, and fit_many returns (it used to raise
    BrokenProcessPool, and fit-many printed a traceback)."""
    from concurrent.futures import ProcessPoolExecutor

    from exactgrid.fitting.many import WORKER_DIED

    questions = [eg.Question(eg.Board(3, 3), required=["OHIO"]), eg.Question(eg.Board(3, 3), required=["UTAH"])]
    with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("fork"), initializer=_die) as pool:
        answers = list(fit_many(questions, executor=pool, time_limit=30))
    assert len(answers) == 2 and all(a.answer is None and a.error == WORKER_DIED for a in answers)


def _forked_pool(workers: int):
    """A pool whose workers are forked, whatever the default start method: they inherit the
    test's monkeypatches."""
    from concurrent.futures import ProcessPoolExecutor

    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))


def _killing(word: str, marks: str | None):
    """A stand-in for ``fit`` in a forked worker: a question requiring ``word`` kills its worker
    process (as the kernel's OOM killer would): every time, or with ``marks`` (a folder) only the
    first time. Other questions are answered."""
    import os
    import signal
    from pathlib import Path

    from exactgrid.fitting.decide import fit

    def dying_fit(question, **kwargs):
        if question.required[0].word == word:
            mark = Path(marks) / word if marks else None
            if mark is None or not mark.exists():
                if mark is not None:
                    mark.touch()
                os.kill(os.getpid(), signal.SIGKILL)
        return fit(question, **kwargs)

    return dying_fit


STATES = ("OHIO", "UTAH", "IOWA", "IDAHO")


def _ask(monkeypatch, dying_fit):
    import exactgrid.fitting.many as many

    monkeypatch.setattr(many, "fit", dying_fit)  # the forked workers inherit it
    monkeypatch.setattr(many, "process_pool", _forked_pool)
    questions = [(word, eg.Question(eg.Board(3, 3), required=[word])) for word in STATES]
    answers = {a.id: a for a in fit_many(questions, backend="cadical", workers=1, time_limit=60)}
    assert sorted(answers) == sorted(STATES)  # a line for every question
    assert not multiprocessing.active_children()  # no pool left
    return answers


def test_a_worker_killed_in_our_pool_is_replaced_and_its_questions_asked_again(tmp_path, monkeypatch):
    """UTAH kills its worker once, with the others in flight beside it: the pool made by
    fit_many is replaced and every question is asked again, so every one is answered (a dead
    worker used to crash the batch with a traceback)."""
    answers = _ask(monkeypatch, _killing("UTAH", str(tmp_path)))
    assert all(a.verdict == "fits" for a in answers.values()), answers
    assert (tmp_path / "UTAH").exists()  # it did kill a worker


def test_a_question_that_kills_its_worker_alone_is_the_only_one_not_answered(monkeypatch):
    """UTAH kills every worker it meets: asked again alone, it kills that one too, and is the
    only question not answered; the questions in flight beside it the first time are answered."""
    from exactgrid.fitting.many import WORKER_DIED

    answers = _ask(monkeypatch, _killing("UTAH", None))
    assert answers["UTAH"].error == WORKER_DIED and answers["UTAH"].exit_code == 3
    assert all(answers[word].verdict == "fits" for word in STATES if word != "UTAH"), answers
    line = answers["UTAH"].to_dict()
    assert line["outcome"] == "unknown" and line["exit_code"] == 3 and line["seconds"] == 0.0


def test_a_worker_that_raises_answers_its_line_and_the_batch_goes_on(monkeypatch):
    import exactgrid.fitting.many as many

    real = many.fit

    def broken_for_utah(question, **kwargs):
        if question.required[0].word == "UTAH":
            raise ZeroDivisionError("a bug in a worker")
        return real(question, **kwargs)

    monkeypatch.setattr(many, "fit", broken_for_utah)
    monkeypatch.setattr(many, "process_pool", _forked_pool)
    questions = [(word, eg.Question(eg.Board(3, 3), required=[word])) for word in ("OHIO", "UTAH")]
    by_id = {a.id: a for a in fit_many(questions, backend="cadical", workers=1, time_limit=60)}
    assert by_id["OHIO"].verdict == "fits"
    assert by_id["UTAH"].error == "not answered: the worker failed: ZeroDivisionError: a bug in a worker"


def test_an_interruption_gives_every_question_a_line_then_goes_on(monkeypatch):
    """Ctrl-C (or SIGTERM, raised as KeyboardInterrupt) while questions are in flight: the pool
    is stopped, each question not answered gets a line saying so, and then the interruption
    is raised (fit-many used to print only one "stopped" line)."""
    import exactgrid.fitting.many as many
    from exactgrid.stopping import Terminated

    def interrupted(*args, **kwargs):
        raise Terminated(15)

    monkeypatch.setattr(many, "wait", interrupted)
    questions = [(word, eg.Question(eg.Board(3, 3), required=[word])) for word in STATES]
    questions.append(ManyAnswer("bad", error="q.jsonl:5: unknown word 'XX'"))
    seen = []
    with pytest.raises(Terminated):
        for answer in fit_many(questions, backend="cadical", workers=1, time_limit=60):
            seen.append(answer)
    assert sorted(map(str, (a.id for a in seen))) == sorted([*STATES, "bad"])
    lines = {a.id: a.to_dict() for a in seen}
    assert lines["bad"] == {"id": "bad", "error": "q.jsonl:5: unknown word 'XX'", "exit_code": 2}
    for word in STATES:
        assert lines[word] == {"id": word, "outcome": "unknown", "seconds": 0.0, "stopped_by": "SIGTERM",
                               "exit_code": 3, "error": "not answered: interrupted (SIGTERM)"}
    assert not multiprocessing.active_children()


@pytest.mark.usefixtures("two_cores")
def test_a_words_file_in_a_questions_file_is_found_beside_it(tmp_path, monkeypatch):
    """As in an instance file, a relative ``words`` path is relative to the questions file's
    folder, not to wherever fit-many was started (it used to be the working directory)."""
    folder = tmp_path / "batch"
    folder.mkdir()
    (folder / "mine.txt").write_text("CAT\nDOG\n")
    (folder / "q.jsonl").write_text('{"id": "cat", "shape": "2x2", "words": "mine.txt", "require": ["CAT:exact"]}\n')
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["fit-many", "batch/q.jsonl", "--backend", "cadical", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output.splitlines()[0])["verdict"] == "fits"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_a_run_stopped_on_a_dask_cluster_ends_the_tasks_already_running(monkeypatch):
    """A task already running on a cluster cannot be cancelled: fit_many sets the run's stop
    flag, and each task ends its fit (in a child process) when it sees it. Without that, the
    tasks went on solving until their own time limit (here 600 s) after Ctrl-C."""
    distributed = pytest.importorskip("distributed")
    import exactgrid.fitting.many as many

    from .test_checkers import children
    from .test_signals import HANG_SECONDS

    # 40 or more states on 5x5: no machine decides it (see test_signals), so the tasks are running
    hopeless = eg.Question(optional=["all"], min_count=40)
    before = children()

    def interrupted_once_the_tasks_run(*args, **kwargs):
        deadline = time.monotonic() + HANG_SECONDS
        while len(children() - before) < 2:  # each task's fit child is running
            assert time.monotonic() < deadline
            time.sleep(0.05)
        raise KeyboardInterrupt

    monkeypatch.setattr(many, "wait", interrupted_once_the_tasks_run)
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        lines = []
        with pytest.raises(KeyboardInterrupt):
            for line in fit_many([("a", hopeless), ("b", hopeless)], backend="kissat",
                                 executor=client.get_executor(), time_limit=600):
                lines.append(line)
        assert sorted(a.id for a in lines) == ["a", "b"] and all(a.exit_code == 3 for a in lines)
        deadline = time.monotonic() + HANG_SECONDS  # the fits end on the flag, far before their 600 s
        while children() - before:
            assert time.monotonic() < deadline, "the tasks' fits went on after the run was stopped"
            time.sleep(0.1)
        assert scheduler_events(client) == []  # stopped, and forgotten


def test_on_a_dask_cluster_bad_input_found_in_the_fit_is_an_error_line():
    """The fit runs in a child process of its task there: an InputError it raises (here an
    unknown backend) comes back as that question's error line, exit status 2, as on a local pool."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        (line,) = fit_many([("q", eg.Question(eg.Board(3, 3), required=["OHIO"]))], backend="no-such-backend",
                           executor=client.get_executor(), time_limit=60)
    assert line.answer is None and line.exit_code == 2 and "unknown backend 'no-such-backend'" in line.error


def test_a_broken_backend_is_each_questions_error_line_and_the_pool_stays_whole():
    """BackendFailed raised in a worker comes back as that question's error (exit 2). It used to
    fail to unpickle in the parent, which breaks the pool: every question was then re-asked
    alone and reported as "a worker process died"."""
    from . import racers

    # 40 or more states on 5x5: the counting loop beside the backend decides nothing (see test_signals)
    questions = [(n, eg.Question(optional=["all"], min_count=n)) for n in (40, 41, 42)]
    answers = list(fit_many(questions, backend=racers.Broken(), workers=1, time_limit=600))
    assert sorted(a.id for a in answers) == [40, 41, 42]
    for answer in answers:
        assert answer.exit_code == 2 and answer.error.startswith("backend 'broken' failed: ImportError"), answer
    assert not multiprocessing.active_children()


@pytest.mark.usefixtures("two_cores")
def test_fit_many_interrupted_between_two_answers_still_gives_every_question_a_line(tmp_path, monkeypatch):
    """A Ctrl-C that lands while the command prints an answer (not inside fit_many) is thrown
    into fit_many, which stops its pool and gives each question left its line (it used to give
    only the "stopped" line)."""
    import exactgrid.cli.progress as progress

    calls = []

    def interrupted(self, news):  # the first answer's news only: one Ctrl-C
        calls.append(news)
        if len(calls) == 1:
            raise KeyboardInterrupt

    monkeypatch.setattr(progress.Progress, "news", interrupted)
    path = tmp_path / "q.jsonl"
    path.write_text('{"id": "bad", "require": ["NARNIA"]}\n'
                    + "".join(json.dumps({"id": n, "optional": "all", "min_count": n}) + "\n" for n in (40, 41)))
    result = CliRunner().invoke(cli, ["fit-many", str(path), "--workers", "1", "--time-limit", "600"])
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert result.exit_code == 3, result.output
    assert [line.get("id") for line in lines] == ["bad", 40, 41, None]
    assert all(line["error"] == "not answered: interrupted (Ctrl-C)" for line in lines[1:3])
    assert lines[3] == {"outcome": "unknown", "seconds": lines[3]["seconds"], "stopped_by": "Ctrl-C", "exit_code": 3,
                        "stopped": "interrupted (Ctrl-C)"}
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("address", ["tls://127.0.0.1:1", "ucx://127.0.0.1:1", "tcp://127.0.0.1:1"])
def test_a_scheduler_that_cannot_be_used_is_one_error_line_within_the_time_limit(tmp_path, address):
    # tls:// without TLS settings and ucx:// without UCX were tracebacks (TypeError, and the
    # like); an unreachable one was waited for 10 s whatever the time limit
    pytest.importorskip("distributed")
    questions = tmp_path / "q.jsonl"
    questions.write_text('{"require": ["OHIO"], "shape": "2x2"}\n')
    for command in (["fit-many", str(questions), "--total-time-limit", "1"],
                    ["bound", "--shape", "2x2", "--workers", "2", "--time-limit", "1"]):
        started = time.monotonic()
        done = CliRunner().invoke(cli, [*command, "--scheduler", address, "--json"])
        assert done.exit_code == 2, done.output
        assert json.loads(done.stdout)["error"].startswith(f"cannot reach the Dask scheduler at {address!r}: ")
        assert time.monotonic() - started < 60  # a hang guard only; the wait itself: the next test


def test_the_scheduler_is_waited_for_no_longer_than_the_time_limit(monkeypatch):
    distributed = pytest.importorskip("distributed")
    from exactgrid.pool import CONNECT_SECONDS, dask_client

    waits = []

    def refusing_client(address, timeout):
        waits.append(timeout)
        raise OSError("refused")

    monkeypatch.setattr(distributed, "Client", refusing_client)
    for limit in (None, 3.0, 60.0, 0.0):
        with pytest.raises(eg.InputError, match="cannot reach the Dask scheduler at 'tcp://x:1': refused"):
            dask_client("tcp://x:1", limit)
    assert waits == [CONNECT_SECONDS, 3.0, CONNECT_SECONDS, 0.1]  # (it was 10 s whatever the limit)
