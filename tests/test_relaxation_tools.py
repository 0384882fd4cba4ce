"""``tools/pair_relaxation_search.py`` and ``tools/board_pairs.py`` with required and dropped
words: a board or grid they report counts every required word under its own relaxed rule, a
required word that cannot fit makes them say so, and a word not in the list is one error line.

MASSACHUSETTS needs at least seven distinct letters on the board (eight, one of which may be
altered), so no 2x2 board counts it under any relaxation: an answer known by hand.
"""

from __future__ import annotations

import itertools
import random
import re
import subprocess
import sys

from exactgrid.backends import Status, get_backend
from exactgrid.finder import score
from exactgrid.grid import parse_grid
from exactgrid.question import build_question

from .tools import TOOLS, load_tool


def _tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(TOOLS / f"{name}.py"), *args],
                          capture_output=True, text=True, timeout=900)


def _pair_counted(letters: str, shape: str, word: str) -> bool:
    relax = load_tool("pair_relaxation_search")
    board = build_question(optional=["all"], shape=shape, allow_empty=True).board
    _, found = relax.pair_score(list(letters), list(board.edges), {word: relax.spellings(word)}, {word: 1})
    return found == [word]


def test_the_search_keeps_a_required_word_and_scores_a_dropped_one_nothing():
    # the start counts OHIO (O-H-I across the top, the centre O beside the I), so however few
    # steps a slow machine takes in the second, the best grid is one that counts it
    done = _tool("pair_relaxation_search", "--shape", "3x3", "--seconds", "1", "--seed", "4",
                 "--start", "OHIQOQQQQ", "--require", "OHIO", "--drop", "IOWA")
    assert done.returncode == 0, done.stderr
    grid = re.search(r"\): ([A-Z]{9});", done.stdout).group(1)
    assert _pair_counted(grid, "3x3", "OHIO")
    assert "OHIO" not in done.stdout.split("lacks:")[1].splitlines()[0]
    assert done.stdout.splitlines()[-1] == "dropped: IOWA"
    assert "IOWA" in done.stdout.split("lacks:")[1].splitlines()[0]


def test_the_search_says_when_no_grid_counts_the_required_words():
    for asked in (("--require", "MASSACHUSETTS"), ("--awards", "M8")):
        done = _tool("pair_relaxation_search", "--shape", "2x2", "--seconds", "0.5", *asked)
        assert done.returncode == 1
        assert "no grid counted every required word and earned every award asked" in done.stdout


def test_a_forbidden_state_of_an_award_is_dropped():
    done = _tool("pair_relaxation_search", "--shape", "3x3", "--seconds", "0",
                 "--awards", "NOCAL", "--start", "CALNIFROX")  # CALIFORNIA exactly
    assert done.returncode == 0, done.stderr
    assert "CALIFORNIA" in done.stdout.split("lacks:")[1].splitlines()[0]
    assert done.stdout.splitlines()[-1] == "dropped: CALIFORNIA"


def test_the_board_model_requires_and_refutes():
    found = _tool("board_pairs", "--shape", "3x3", "--threshold", "1", "--backend", "cadical",
                  "--require", "OHIO", "--drop", "TEXAS", "--seconds", "600")
    assert found.returncode == 0, found.stdout + found.stderr
    board = re.search(r"a board in [0-9.]+ s: ([A-Z_]{9})", found.stdout).group(1)
    assert _pair_counted(board, "3x3", "OHIO")
    refuted = _tool("board_pairs", "--shape", "2x2", "--threshold", "0", "--backend", "cadical",
                    "--require", "MASSACHUSETTS", "--seconds", "600")
    assert refuted.returncode == 1, refuted.stdout + refuted.stderr
    assert "no board has pair score" in refuted.stdout


def test_a_word_not_in_the_list_is_one_error_line():
    for name, extra in (("pair_relaxation_search", ()), ("board_pairs", ("--threshold", "1"))):
        done = _tool(name, "--shape", "2x2", *extra, "--require", "ATLANTIS")
        assert done.returncode == 2
        assert done.stderr.strip().splitlines()[-1].endswith("not words of the list: ATLANTIS")
    done = _tool("pair_relaxation_search", "--shape", "2x2", "--unit", "--awards", "200M")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines()[-1].endswith("an award for a score cannot be judged on it")
    for start in ("OHIOX", "ohio", "OH_O"):
        done = _tool("pair_relaxation_search", "--shape", "2x2", "--window", "3", "--start", start)
        assert done.returncode == 2
        assert done.stderr.strip().splitlines()[-1].endswith("--start: 4 capital letters, row by row")


def test_the_board_model_counts_every_word_the_finder_finds_on_a_real_grid():
    """A relaxation: on a real grid (every cell fixed), each word the finder spells can be
    counted, triples included; a word two of whose letters the grid lacks cannot."""
    tool = load_tool("board_pairs")
    question = build_question(optional=["all"], allow_empty=True)
    weights = question.scoring_weights()
    built = tool.BoardPairs(question.board, weights, triples=True)
    with get_backend("cadical").open_session(built.model) as session:
        for letters in ("LMCHCDOISARNSPTIANETLVMWE", "HOTROMASEYLINGWFORAISUCHN", "NOTTMWESAHMSRICAINOMPDLAC"):
            cells = [built.x[c, ch if ch in built.letters else tool.OTHER] for c, ch in enumerate(letters)]
            found = [hit.match.word for hit in score(parse_grid(letters), question.words).found]
            assert len(found) >= 20
            assert session.solve([*cells, *(built.found[w] for w in found)]).status is Status.SAT
            lacking = next(w for w in weights if len(set(w) - set(letters)) >= 2)
            assert session.solve([*cells, built.found[lacking]]).status is Status.UNSAT


def test_symmetry_breaking_keeps_exactly_the_least_image_of_each_board():
    """``--symmetry-breaking`` (``exactgrid.encoding.add_lex_leader``): of a board's turned and
    mirrored images, only the one whose letter bits, cell by cell, are lexicographically least
    is kept; a board that its symmetries fix is kept once."""
    tool = load_tool("board_pairs")
    question = build_question(optional=["all"], shape="3x3", allow_empty=True)
    built = tool.BoardPairs(question.board, question.scoring_weights(), triples=False)
    built.break_symmetries()
    symmetries = question.board.symmetries
    rng = random.Random(7)
    boards = [[rng.choice(built.letters) for _ in range(9)] for _ in range(12)]
    boards.append(list("OHOHIHOHO"))  # fixed by every symmetry
    boards.append(list("AABCDCAAB"))  # fixed by one mirror only
    with get_backend("cadical").open_session(built.model) as session:
        for letters in boards:
            images = {tuple(letters[perm[c]] for c in range(9)) for perm in symmetries}
            least = min(images, key=lambda image: [image[c] == a for c in range(9) for a in built.letters])
            for image in images:
                cells = [built.x[c, a] for c, a in enumerate(image)]
                status = session.solve(cells).status
                assert status is (Status.SAT if image == least else Status.UNSAT), (image, least)


def test_the_compiled_window_score_is_the_python_one(monkeypatch):
    relax = load_tool("pair_relaxation_search")
    question = build_question(optional=["all"], shape="4x4", allow_empty=True)
    board, weights = question.board, question.scoring_weights()
    rng = random.Random(5)
    grids = [list("OHIOWAUTAHIDAHOX"), list("TEXASOMAINEUTAHI")]
    grids += [[rng.choice("AEIOUNSTRLHMCD") for _ in range(16)] for _ in range(60)]
    for k, across in itertools.product((3, 4), (False, True)):
        needs = {w: relax.window_needs(w, k, across) for w in weights}
        compiled = relax.compiled_window_score(board.neighbours, k, needs, weights)
        with monkeypatch.context() as patch:
            patch.setattr(relax, "LARGEST_ARRAY", 0)  # every K too long to compile: the Python score
            python = relax.window_counter(board.neighbours, k, needs, weights)
        assert [compiled(grid) for grid in grids] == [python(grid) for grid in grids]
        assert compiled(grids[0])[0] > 0  # OHIO and IDAHO at least: the comparison is not of zeros


def test_windows_across_the_altered_letter_as_long_as_the_word_are_the_finder():
    """With the runs crossing the altered position, a run as long as the word asks exactly what
    the finder asks; without crossing, the two sides of the altered letter need not meet."""
    relax = load_tool("pair_relaxation_search")
    question = build_question(optional=["all"], shape="3x3", allow_empty=True)
    short = [w for w in question.scoring_weights() if len(w) <= 5]  # OHIO IOWA UTAH IDAHO MAINE TEXAS
    weights = dict.fromkeys(short, 1)
    needs = {w: relax.window_needs(w, 5, across=True) for w in short}
    counts = relax.compiled_window_score(question.board.neighbours, 5, needs, weights)
    rng = random.Random(8)
    grids = [[rng.choice("OHIWAUTDMNEXS") for _ in range(9)] for _ in range(300)]
    hits = 0
    for grid in grids:
        found = {hit.match.word for hit in score(parse_grid("".join(grid)), question.words).found}
        assert counts(grid)[1] == [w for w in short if w in found]
        hits += len(found & set(short))
    assert hits >= 100
    # U-T-?-H on 4x4: UTAH's A altered, but no cell lies beside both the T and the H
    apart = list("UTQQQQQQQQQQQQQH")
    board = build_question(optional=["all"], shape="4x4", allow_empty=True).board
    assert "UTAH" not in {hit.match.word for hit in score(parse_grid("UTQQ/QQQQ/QQQQ/QQQH"), question.words).found}
    for k, across, counted in ((2, False, True), (3, False, True), (3, True, False), (4, True, False)):
        _, found = relax.window_score(apart, relax.board_walks(board.neighbours, k),
                                      {"UTAH": relax.window_needs("UTAH", k, across)}, {"UTAH": 1}, across)
        assert (found == ["UTAH"]) is counted  # T-?-H is the run of three that needs the link


def test_maxsat_reaches_the_best_pair_count_that_brute_force_finds_on_2x2():
    """``--maxsat``: on 2x2 every two cells touch, so a board's pair score depends only on its
    letters' multiset; the best word count over every multiset is the optimum RC2 must report."""
    relax = load_tool("pair_relaxation_search")
    tool = load_tool("board_pairs")
    question = build_question(optional=["all"], shape="2x2", allow_empty=True)
    weights = dict.fromkeys(question.scoring_weights(), 1)
    letters = tool.BoardPairs(question.board, weights, triples=False).letters
    needs = {word: relax.spellings(word) for word in weights}
    edges = list(question.board.edges)
    best = max(relax.pair_score(list(multiset), edges, needs, weights)[0]
               for multiset in itertools.combinations_with_replacement(letters, 4))
    done = _tool("board_pairs", "--shape", "2x2", "--unit", "--maxsat", "--seconds", "600")
    assert done.returncode == 0, done.stdout + done.stderr
    found = re.search(r"optimum in [0-9.]+ s: pair score (\d+), board ([A-Z_]{4})", done.stdout)
    assert int(found.group(1)) == best
    assert relax.pair_score(list(found.group(2)), edges, needs, weights)[0] == best
