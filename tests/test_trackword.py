"""Trackword and the trie-guided word search under it, checked against the finder (the referee),
brute force and the seed's example (grid ``set/err/vei``: 59 ENABLE words of 3-9 letters)."""

from __future__ import annotations

import itertools
import json
import random
import time

import pytest

from exactgrid import finder
from exactgrid.data import word_list
from exactgrid.geometry import Board
from exactgrid.grid import Grid, parse_grid
from exactgrid.inputs import InputError
from exactgrid.puzzles.trackword import TrackwordAnswer, build_grid, list_words
from exactgrid.stopping import DeadlinePassed
from exactgrid.words import WordList
from exactgrid.wordsearch import Trie, hamiltonian_paths, is_valid_path, search_words, trie_for

FIXTURE = "set/err/vei"
SEED_WORDS = ["RETRIEVES", "TREE", "SEVER", "RESET", "REVERSE", "SERVE", "IRE", "SET", "TEE"]


@pytest.fixture(scope="module")
def enable() -> WordList:
    return word_list("enable")


@pytest.fixture(scope="module")
def fixture_answer() -> TrackwordAnswer:
    return list_words(FIXTURE)


# --------------------------------------------------------------------------- the seed's example


def test_fixture_holds_59_words_with_the_seeds_examples(fixture_answer):
    words = [hit.word for hit in fixture_answer.words]
    assert fixture_answer.count == len(set(words)) == 59
    assert set(SEED_WORDS) <= set(words)
    assert words[0] == "RETRIEVES"
    assert all(3 <= len(w) <= 9 for w in words)
    assert words == sorted(words, key=lambda w: (-len(w), w))
    assert (fixture_answer.path_rule, fixture_answer.list_name) == ("simple", "ENABLE")


def test_fixture_agrees_with_the_finder_over_all_of_enable(fixture_answer, enable):
    grid = fixture_answer.grid
    present = set(grid.letters)  # a word with a letter the grid lacks cannot be spelled
    candidates = [w for w in enable if 3 <= len(w) <= 9 and set(w) <= present]
    expected = {w for w in candidates if finder.is_found(grid, w, 0, "simple")}
    assert {hit.word for hit in fixture_answer.words} == expected


def test_every_fixture_path_spells_its_word(fixture_answer):
    grid = fixture_answer.grid
    for hit in fixture_answer.words:
        assert is_valid_path(grid.board, hit.path, "simple"), hit
        assert "".join(grid.letters[c] for c in hit.path) == hit.word == hit.spelled
    retrieves = fixture_answer.words[0]
    assert retrieves.labels(grid.board) == ("r2c2", "r1c2", "r1c3", "r2c3", "r3c3", "r3c2", "r3c1", "r2c1", "r1c1")


def test_walks_find_more_and_are_bounded_by_the_trie():
    grid = parse_grid(FIXTURE)
    long_walk = "RERERERERERERE"  # comes back to the same two cells: a walk, never a simple path
    hits = search_words(grid, [long_walk, "TREE", "SETS"], "walk", 3, None)
    assert [hit.word for hit in hits] == [long_walk, "TREE"]
    assert is_valid_path(grid.board, hits[0].path, "walk")
    assert [hit.word for hit in search_words(grid, [long_walk, "TREE"], "simple", 3, None)] == ["TREE"]
    assert search_words(grid, [long_walk], "walk", 3, 13) == []


# --------------------------------------------------------------------------- against the referee


def _random_words(rng: random.Random, grid: Grid, alphabet: str) -> list[str]:
    """Random strings plus strings read off random walks of the grid (so that some are found)."""
    words = {"".join(rng.choice(alphabet) for _ in range(rng.randint(1, 6))) for _ in range(25)}
    for _ in range(25):
        cell = rng.randrange(grid.board.size)
        path = [cell]
        for _ in range(rng.randint(0, 6)):
            path.append(rng.choice(grid.board.neighbours[path[-1]]))
        words.add("".join(grid.letters[c] for c in path))
    return sorted(words)


BOARDS = [Board(3, 3), Board(3, 3, "rook"), Board(3, 4), Board(3, 4, "rook")]


@pytest.mark.parametrize("board", BOARDS, ids=repr)
def test_search_agrees_with_the_finder_on_random_grids(board):
    rng = random.Random(f"trackword {board!r}")
    alphabet = "AEST"
    for _ in range(12):
        grid = Grid(board, "".join(rng.choice(alphabet) for _ in range(board.size)))
        words = _random_words(rng, grid, alphabet)
        trie = Trie.from_words(words)
        low, high = rng.choice([(1, None), (2, 5), (3, 9), (4, 4)])
        for rule, budget in itertools.product(("simple", "walk"), (0, 1)):
            hits = search_words(grid, trie, rule, low, high, budget)
            expected = [w for w in words if low <= len(w) <= (high or 99) and finder.is_found(grid, w, budget, rule)]
            assert sorted(hit.word for hit in hits) == expected, (grid.letters, rule, budget)
            for hit in hits:
                assert is_valid_path(board, hit.path, rule), hit
                assert len(hit.path) == len(hit.word)
                assert hit.spelled == "".join(grid.letters[c] for c in hit.path)
                assert hit.substitutions == finder.find(grid, hit.word, budget, rule).substitutions <= budget


def test_the_path_shown_is_the_lexicographically_smallest():
    rng = random.Random(3)
    board = Board(3, 3)
    words = sorted({"".join(p) for n in (3, 4) for p in itertools.product("AES", repeat=n)})
    for _ in range(6):
        grid = Grid(board, "".join(rng.choice("AES") for _ in range(9)))
        for rule in ("simple", "walk"):
            first: dict[str, tuple[int, ...]] = {}  # itertools.product runs in lexicographic order
            for path in itertools.chain.from_iterable(itertools.product(range(9), repeat=n) for n in (3, 4)):
                if is_valid_path(board, path, rule):
                    first.setdefault("".join(grid.letters[c] for c in path), path)
            hits = search_words(grid, words, rule, 3, 4)
            assert {hit.word: hit.path for hit in hits} == first, (grid.letters, rule)


def test_a_word_list_a_trie_and_plain_words_give_the_same_hits(enable):
    grid = parse_grid(FIXTURE)
    small = enable.subset(["RETRIEVES", "TREE", "SERVE", "XYZZY", "TE", "TREES"])
    by_list = search_words(grid, small)
    assert by_list == search_words(grid, Trie.from_words(small)) == search_words(grid, list(small))
    assert [hit.word for hit in by_list] == ["RETRIEVES", "SERVE", "TREES", "TREE"]
    assert trie_for(enable, 3, 9) is trie_for(enable, 3, 9)


def test_trie_holds_its_words_once():
    trie = Trie.from_words(["TEE", "TREE", "TREE", "TREES", "AT"], min_length=3)
    assert (len(trie), trie.depth, trie.nodes) == (3, 5, 7)
    assert sorted(trie) == ["TEE", "TREE", "TREES"]
    assert "TREE" in trie and "TRE" not in trie and "AT" not in trie and "" not in trie


# --------------------------------------------------------------------------- building a grid


def test_hamiltonian_paths_of_the_3x3_king_board_match_brute_force():
    board = Board(3, 3)
    adjacent = {(a, b) for a in range(9) for b in board.neighbours[a]}
    brute = [p for p in itertools.permutations(range(9)) if all(step in adjacent for step in zip(p, p[1:]))]
    paths = list(hamiltonian_paths(board))
    assert paths == brute  # both in lexicographic order
    assert len(paths) == 784
    assert sum(1 for _ in hamiltonian_paths(Board(3, 3, "rook"))) == 40
    assert sum(1 for _ in hamiltonian_paths(board, limit=10)) == 11


@pytest.mark.parametrize("board", [Board(2, 4), Board(2, 4, "rook"), Board(1, 6), Board(3, 3, "rook"), Board(2, 3)])
def test_pruned_hamiltonian_paths_are_every_one_brute_force_finds_on_thin_boards(board):
    """The search drops a partial path whose unvisited cells are cut off from its end; no
    Hamiltonian path is lost, and the order stays lexicographic."""
    adjacent = {(a, b) for a in range(board.size) for b in board.neighbours[a]}
    brute = [p for p in itertools.permutations(range(board.size)) if all(step in adjacent for step in zip(p, p[1:]))]
    assert list(hamiltonian_paths(board)) == brute


def test_listing_hamiltonian_paths_stops_at_its_deadline():
    """A long thin board has few Hamiltonian paths and a vast search for them; the listing stops
    at the deadline (here one already passed) instead of running past the time limit."""
    with pytest.raises(DeadlinePassed, match="Hamiltonian paths"):
        list(hamiltonian_paths(Board(2, 25), deadline=time.monotonic() - 1))


def test_build_grid_for_retrieves_beats_the_seed_grid():
    built = build_grid("retrieves")
    assert built.word == "RETRIEVES"
    assert finder.is_found(built.grid, "RETRIEVES", 0, "simple")
    assert "".join(built.grid.letters[c] for c in built.word_path) == "RETRIEVES"
    assert built.count >= list_words(FIXTURE).count == 59
    assert list_words(built.grid).count == built.count
    assert built.paths == 784 and 1 <= built.ties <= built.tried <= 98
    assert built.how == (f"exhaustive over all 784 Hamiltonian paths of the 3x3 king board "
                         f"({built.tried} distinct grids): proven best")
    data = json.loads(json.dumps(built.to_dict()))
    assert data["grid"] == built.grid.letters and data["count"] == built.count
    assert built.text().startswith(built.grid.block() + "\n")


def test_build_grid_is_optimal_against_brute_force_over_every_arrangement():
    # a 2x3 board: every arrangement of the word's letters that the finder says holds the word
    board = Board(2, 3)
    words = WordList(dict.fromkeys(["STARES", "TEAS", "SEAT", "EATS", "RATES", "STAR", "ARTS", "TSAR", "ERA", "SEA",
                                    "TEA", "ATE", "EAR", "ARE", "RAT", "TAR", "ART", "ASS", "SET", "REST"], 1))
    built = build_grid("stares", words, 3, 6, board=board)
    best = 0
    for letters in set(itertools.permutations("STARES")):
        grid = Grid(board, "".join(letters))
        if finder.is_found(grid, "STARES", 0, "simple"):
            best = max(best, len(finder.found_words(grid, [w for w in words if len(w) <= 6], 0, "simple")))
    assert built.count == best
    assert built.paths == sum(1 for _ in hamiltonian_paths(board))


# --------------------------------------------------------------------------- output and bad input


def test_a_budget_admits_words_one_letter_away():
    answer = list_words(FIXTURE, min_length=9, budget=1)
    spelled = {hit.word: hit.spelled for hit in answer.words}
    assert spelled["RETRIEVES"] == "RETRIEVES" and spelled["REPRIEVES"] == "RETRIEVES"  # P read as the T
    assert all(finder.is_found(answer.grid, w, 1, "simple") for w in spelled)
    assert answer.to_dict()["budget"] == 1 and "REtRIEVES" in answer.text()


def test_answer_text_and_json(fixture_answer):
    text = fixture_answer.text()
    assert text.startswith("S E T\nE R R\nV E I\n")
    assert "words  59 of 3-9 letters (ENABLE)" in text
    assert "9 letters (1)\n  RETRIEVES  r2c2 r1c2 r1c3 r2c3 r3c3 r3c2 r3c1 r2c1 r1c1" in text
    data = json.loads(json.dumps(fixture_answer.to_dict()))
    assert list(data) == ["outcome", "seconds", "stopped_by", "exit_code", "grid", "rows", "shape", "moves",
                          "path_rule", "budget", "list", "min_length", "max_length", "count", "words", "timed_out"]
    assert data["outcome"] == "optimal" and data["exit_code"] == 0 and data["stopped_by"] is None
    assert data["count"] == 59 and data["rows"] == ["SET", "ERR", "VEI"]
    assert data["words"][0] == {"word": "RETRIEVES", "length": 9, "spelled": "RETRIEVES",
                                "cells": [4, 1, 2, 5, 8, 7, 6, 3, 0],
                                "path": ["r2c2", "r1c2", "r1c3", "r2c3", "r3c3", "r3c2", "r3c1", "r2c1", "r1c1"]}


@pytest.mark.parametrize("call", [
    lambda: list_words(FIXTURE, min_length=5, max_length=4),
    lambda: list_words(FIXTURE, min_length=0),
    lambda: list_words(FIXTURE, max_length=0),
    lambda: list_words(FIXTURE, path_rule="hop"),
    lambda: list_words("setervei"),
    lambda: list_words("set/er1/vei"),
    lambda: search_words(parse_grid(FIXTURE), ["TREE"], budget=-1),
    lambda: search_words(parse_grid(FIXTURE), ["tree"]),
    lambda: build_grid("retrieve"),
    lambda: build_grid("retriev3s"),
    lambda: build_grid("retriévés"),
    lambda: build_grid("retrieves", min_length=4, max_length=3),
    lambda: build_grid("abcdefghijklmnop", board=Board(4, 4)),
], ids=["min>max", "min0", "max0", "rule", "shape", "digit", "budget", "lower", "short", "digit9", "accent",
        "build-min>max", "too-many-paths"])
def test_bad_input_is_one_line(call):
    with pytest.raises(InputError) as caught:
        call()
    assert "\n" not in str(caught.value) and str(caught.value)


def test_the_words_and_trackword_commands():
    from click.testing import CliRunner

    from exactgrid.cli import cli

    result = CliRunner().invoke(cli, ["words", "set/err/vei", "--list", "enable", "--path", "simple",
                                      "--min-length", "3", "--max-length", "9"])
    assert result.exit_code == 0 and "words  59 of 3-9 letters (ENABLE)" in result.output
    data = json.loads(CliRunner().invoke(cli, ["words", "set/err/vei", "--json"]).output)
    assert data["count"] == 59 and data["words"][0]["word"] == "RETRIEVES"
    walks = json.loads(CliRunner().invoke(cli, ["words", "set/err/vei", "--path", "walk", "--json"]).output)
    assert walks["count"] > 59 and {w["word"] for w in data["words"]} < {w["word"] for w in walks["words"]}
    built = CliRunner().invoke(cli, ["trackword", "retrieves", "--json"])
    assert built.exit_code == 0, built.output
    answer = json.loads(built.output)
    assert answer["count"] == list_words(answer["grid"]).count and "proven best" in answer["how"]


@pytest.mark.parametrize("args,needle", [
    (["words", "set/err/ve"], "grid"),
    (["words", "set/err/vei", "--list", "nosuch"], "unknown word list 'nosuch'"),
    (["words", "set/err/vei", "--min-length", "5", "--max-length", "4"], "minimum word length"),
    (["trackword", "retrieve"], "needs a word of 9 letters"),
    (["trackword", "retriev3s"], "A-Z"),
])
def test_puzzle_commands_bad_input_is_one_line(args, needle):
    from click.testing import CliRunner

    from exactgrid.cli import cli

    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2 and result.stderr.count("\n") == 1 and needle in result.stderr, result.stderr


def test_searches_that_would_not_end_are_refused():
    long_words = WordList({"AB" * 400: 1}, "long")
    with pytest.raises(InputError, match="more than 300 letters"):
        search_words(parse_grid("abab"), long_words, "walk", 3, None)
    assert search_words(parse_grid("abab"), long_words, "walk", 3, 300) == []  # within the depth: searched
    with pytest.raises(InputError, match="simple paths with more than 2 alterations"):
        list_words(FIXTURE, budget=3)
    nine = WordList({"ZZZZZZZZZ": 1, "QQQQQQQQQ": 1, "ABC": 1}, "nine")
    with pytest.raises(InputError, match="from 0 to 9 .*more alters nothing"):  # a budget past the longest word
        list_words(FIXTURE, nine, path_rule="walk", min_length=9, budget=10**20)
    walks = list_words(FIXTURE, nine, path_rule="walk", min_length=9, budget=9)  # any 9 letters
    assert [hit.word for hit in walks.words] == ["QQQQQQQQQ", "ZZZZZZZZZ"]


def test_a_search_past_its_time_limit_answers_unknown_with_the_words_found_so_far():
    from click.testing import CliRunner

    from exactgrid.cli import cli

    # walks of up to 30 letters, any 9 altered: far more states than a deadline check's interval
    ended = list_words("thoainesl", path_rule="walk", max_length=30, budget=9, time_limit=0)
    assert ended.outcome == "unknown" and ended.timed_out and ended.stopped_by is None and not ended.complete
    assert f"words  at least {ended.count} of 3-30 letters (ENABLE): the time limit came first" in ended.text()
    assert ended.to_dict()["timed_out"] is True and ended.exit_code == 3
    assert ended.to_dict()["count"] == ended.count == len(ended.to_dict()["words"])
    result = CliRunner().invoke(cli, ["words", "thoainesl", "--path", "walk", "--max-length", "30", "--budget", "9",
                                      "--time-limit", "0"])
    assert result.exit_code == 3 and "the time limit came first" in result.output
    # within its time: the whole list, as without one
    assert list_words(FIXTURE, time_limit=600).count == 59 and not list_words(FIXTURE, time_limit=600).timed_out


def test_reading_and_indexing_a_long_list_count_against_the_time_limit(tmp_path):
    import time

    from exactgrid.stopping import DEADLINE_ROWS, DeadlinePassed
    from exactgrid.words import parse_word_list

    words = ["".join(letters) for letters in itertools.product("ABCDEFGHIJ", repeat=5)][: 2 * DEADLINE_ROWS]
    path = tmp_path / "long.txt"
    path.write_text("\n".join(words) + "\n")
    passed = time.monotonic() - 1
    with pytest.raises(DeadlinePassed, match="while reading the word list"):
        parse_word_list(path.read_text(), deadline=passed)
    listed = parse_word_list(path.read_text(), "long.txt", deadline=time.monotonic() + 600)
    assert len(listed) == 2 * DEADLINE_ROWS
    with pytest.raises(DeadlinePassed, match="while building the trie of long.txt"):
        trie_for(listed, 3, 9, deadline=passed)
    trie = trie_for(listed, 3, 9)  # the trie cut short was not kept: this one is whole, and kept
    assert len(trie) == 2 * DEADLINE_ROWS and trie_for(listed, 3, 9, deadline=passed) is trie
    # the commands' functions: time limit 0 on a list of a file not read yet
    ended = list_words("thoainesl", str(path), time_limit=0)
    assert (ended.outcome, ended.timed_out, ended.list_name, ended.words) == ("unknown", True, "long.txt", ())
    built = build_grid("retrieves", str(path), time_limit=0)
    assert built.answer is None and built.outcome == "unknown"
    assert "time limit ran out before any grid" in built.how


def test_no_list_is_the_us_states_as_for_word_list():
    # words=None reads the US states (exactgrid.data.word_list); the time limit's reading kept that
    answer = list_words("thoainesl", None, path_rule="walk", min_length=4, budget=0)
    assert "OHIO" in [hit.word for hit in answer.words] and answer.list_name == "US states"


@pytest.mark.parametrize("path_rule, budget", [("simple", 0), ("simple", 1), ("walk", 1)])
@pytest.mark.parametrize("stop", ["deadline", "Ctrl-C"])
def test_a_search_cut_short_keeps_every_word_found_before_the_stop(monkeypatch, path_rule, budget, stop):
    import exactgrid.wordsearch as wordsearch

    whole = {hit.word: hit for hit in list_words(FIXTURE, path_rule=path_rule, budget=budget).words}
    counts = []
    for steps in (1, 40, 400, 4_000, 40_000):  # the search is stopped at its state number `steps`
        def tick(clock, steps=steps):
            clock.steps += 1
            if clock.steps == steps:
                raise wordsearch.SearchTimedOut("stopped") if stop == "deadline" else KeyboardInterrupt
        monkeypatch.setattr(wordsearch._Clock, "tick", tick)
        answer = list_words(FIXTURE, path_rule=path_rule, budget=budget)
        counts.append(answer.count)
        if answer.complete:  # the search ended before that state: the whole list
            assert {hit.word: hit for hit in answer.words} == whole
            continue
        assert answer.outcome == "unknown" and answer.exit_code == 3
        assert (answer.timed_out, answer.stopped_by) == ((True, None) if stop == "deadline" else (False, "Ctrl-C"))
        for hit in answer.words:  # each word found is held, by a path that spells it within the budget
            assert hit.word in whole and is_valid_path(Board(3, 3), hit.path, path_rule)
            spelled = "".join(parse_grid(FIXTURE).letters[c] for c in hit.path)
            assert sum(a != b for a, b in zip(spelled, hit.word, strict=True)) <= budget
            if budget == 0:  # the first path found is the one the whole search reports
                assert hit == whole[hit.word]
        assert [hit.word for hit in answer.words] == sorted((h.word for h in answer.words), key=lambda w: (-len(w), w))
    assert counts == sorted(counts) and counts[0] == 0 and counts[2] > 0 and counts[-1] == len(whole)


def test_a_board_with_too_many_paths_is_refused_before_the_word_list_is_read(monkeypatch):
    """The board is checked first, so its refusal does not wait on (or depend on the time left
    after) reading a long list: once it answered UNKNOWN at a 1 s limit and refused at 2 s."""
    from exactgrid.puzzles import trackword

    def not_yet(*args, **kwargs):
        raise AssertionError("the word list was read before the board was checked")

    monkeypatch.setattr(trackword, "word_list", not_yet)
    with pytest.raises(InputError, match="more than 20,000 Hamiltonian paths"):
        build_grid("abcdefghijklmnop", board=Board(4, 4), time_limit=60)
