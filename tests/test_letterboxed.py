"""Letter Boxed (exactgrid.puzzles.letterboxed): rules, the fast filter against the finder, the
search against brute force and against the ILP, the known ENABLE answers, and bad input.

The ENABLE counts (2, 2, 2 and 3 words) come from /work/shared/reference/words/README.md.
The ILP runs through CBC (a child process, about 0.3 s a call), so its tests are few and small;
the brute-force cross-checks use the in-process CaDiCaL backend on the same backend-neutral model.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from exactgrid.data.enable import enable
from exactgrid.finder import is_found
from exactgrid.inputs import InputError
from exactgrid.puzzles import letterboxed as lb
from exactgrid.puzzles.letterboxed import (
    InvalidSolution,
    LetterBox,
    LetterBoxedAnswer,
    check_solution,
    dominant_words,
    is_playable,
    playable_words,
    solution_problems,
    solve_by_ilp,
    solve_by_search,
    solve_letter_boxed,
)

from .conftest import AVAILABLE_BACKENDS

KNOWN = {"vro wal eth bdi": 2, "erb uln imk jav": 2, "vyq fig ote xlu": 2, "xoy tws apv kri": 3}
"""Fewest words with ENABLE (the reference folder's README)."""
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


@pytest.fixture(scope="module")
def words():
    """ENABLE (about 0.5 s to load, once)."""
    return enable()


def random_box(rng: random.Random, sides: int, per_side: int, letters: str = ALPHABET) -> LetterBox:
    """A box of distinct letters drawn from ``letters``."""
    drawn = rng.sample(letters, sides * per_side)
    return LetterBox(tuple("".join(drawn[s * per_side:(s + 1) * per_side]) for s in range(sides)))


def random_dictionary(rng: random.Random, box: LetterBox, count: int, lengths: tuple[int, int] = (3, 7),
                      noise: float = 0.2) -> list[str]:
    """``count`` made-up words of ``lengths`` letters: walks on the box (playable) and a share
    ``noise`` of random strings (mostly not playable)."""
    made: set[str] = set()
    while len(made) < count:
        length = rng.randint(*lengths)
        if rng.random() < noise:
            made.add("".join(rng.choice(box.letters) for _ in range(length)))
            continue
        word = rng.choice(box.letters)
        while len(word) < length:
            letter = rng.choice(box.letters)
            if box.side_of(letter) != box.side_of(word[-1]):
                word += letter
        made.add(word)
    return sorted(made)


def brute_force(box: LetterBox, dictionary: list[str], most: int) -> tuple[str, ...]:
    """The best solution of at most ``most`` words by trying every sequence of playable words:
    fewest words, then fewest letters, then alphabetical; () when none."""
    playable = [w for w in dictionary if len(w) >= 3 and is_found(box.grid, w, budget=0, path_rule="walk")]
    for k in range(1, most + 1):
        solutions = [
            seq for seq in itertools.product(playable, repeat=k)
            if all(a[-1] == b[0] for a, b in itertools.pairwise(seq)) and set("".join(seq)) >= set(box.letters)
        ]
        if solutions:
            return min(solutions, key=lambda seq: (sum(map(len, seq)), seq))
    return ()


# --------------------------------------------------------------------------- the box


def test_parse_reads_text_or_sides_in_any_case():
    box = LetterBox.parse("vro wal eth bdi")
    assert box == LetterBox.parse(["VRO", "wal", "Eth", "bdi"]) == LetterBox.parse("VRO/WAL,ETH  BDI")
    assert box.sides == ("VRO", "WAL", "ETH", "BDI")
    assert box.letters == "VROWALETHBDI" and box.size == 12 and box.per_side == 3
    assert [box.side_of(c) for c in "vAtI"] == [0, 1, 2, 3]
    assert box.board.size == 12 and box.board.is_adjacent(0, 3) and not box.board.is_adjacent(0, 1)
    assert box.grid.letters == "VROWALETHBDI"
    assert str(box) == "VRO WAL ETH BDI" and LetterBox.parse(box) is box


@pytest.mark.parametrize(("text", "phrase"), [
    ("vro wal eth bda", "letter 'A' appears on sides 2 and 4"),
    ("vro waw eth bdi", "letter 'W' appears twice on side 2"),
    ("vro wal et bdi", "same number of letters; got 3, 3, 2, 3"),
    ("vrowaleth", "at least 2 sides"),
    ("vro w4l eth bdi", "letters A-Z only; found '4'"),
    ("vro wäl eth bdi", "letters A-Z only; found 'ä'"),
    ("", "the box is empty"),
    ("   ", "the box is empty"),
    (["vro", "", "eth"], "side 2 of the box is empty"),
    (["vro", 7], "side 2 must be text"),
    (42, "a box is text"),
])
def test_bad_boxes_are_refused_in_one_line(text, phrase):
    with pytest.raises(InputError) as caught:
        LetterBox.parse(text)
    message = str(caught.value)
    assert phrase in message and "\n" not in message


def test_one_side_says_why():
    with pytest.raises(InputError, match="with one side no move is legal"):
        LetterBox.parse("abc")


def test_side_of_a_letter_not_in_the_box_is_refused():
    with pytest.raises(InputError, match="not in the box"):
        LetterBox.parse("vro wal eth bdi").side_of("Z")


# --------------------------------------------------------------------------- playable words


def test_fast_filter_agrees_with_the_finder_on_all_of_enable(words):
    box = LetterBox.parse("vro wal eth bdi")
    referee = {w for w in words if len(w) >= 3 and is_found(box.grid, w, budget=0, path_rule="walk")}
    assert set(playable_words(box, words)) == referee
    assert len(referee) == 919


@pytest.mark.parametrize("text", ["abcd efgh ijkl mnop", "abc def ghi jkl mno", "ab cd"])
def test_fast_filter_agrees_with_the_finder_on_words_of_box_letters(words, text):
    box = LetterBox.parse(text)
    candidates = [w for w in words if set(w) <= set(box.letters)]
    referee = {w for w in candidates if len(w) >= 3 and is_found(box.grid, w, budget=0, path_rule="walk")}
    assert set(playable_words(box, words)) == referee
    assert all(is_playable(box, w) == (w in referee) for w in candidates)


def test_playable_words_are_sorted_distinct_and_upper_cased():
    box = LetterBox.parse("vro wal eth bdi")
    assert playable_words(box, ["while", "WHILE", "bird", "oat", "to", "tow", "a b"]) == ("OAT", "TOW", "WHILE")


def test_dominance_keeps_the_tie_break_or_only_the_widest():
    box = LetterBox.parse("vro wal eth bdi")
    words = ["WEARABLE", "WIRABLE", "WIRE", "WHILE", "WHOLE"]
    assert dominant_words(box, words) == ("WHILE", "WHOLE", "WIRABLE", "WIRE")
    assert dominant_words(box, words, keep="widest") == ("WHILE", "WHOLE", "WIRABLE")
    with pytest.raises(InputError, match="not playable"):
        dominant_words(box, ["BIRD"])


# --------------------------------------------------------------------------- the referee


def test_check_solution_accepts_a_solution():
    assert check_solution("vro wal eth bdi", ["whiled", "driveboat"], ["WHILED", "DRIVEBOAT"]) == (
        "WHILED", "DRIVEBOAT")


@pytest.mark.parametrize(("solution", "dictionary", "phrase"), [
    (["DRIVEBOAT", "WHILED"], None, "WHILED does not start with the last letter of DRIVEBOAT"),
    (["WHILED", "DRIVEBOAT", "TOTAL"], None, "TOTAL cannot be played"),  # A and L: one side
    (["WHILED", "DRIVEBOAT"], ["WHILED"], "DRIVEBOAT is not in the dictionary"),
    (["WHILED", "DOLE"], None, "letters not used: V R A T B"),
    (["WHILED", "DO"], None, "DO has fewer than 3 letters"),
    ([], None, "no words given"),
    (["WHILED", "DRIVE3"], None, "is not a word of letters A-Z"),
])
def test_check_solution_rejects_each_broken_rule(solution, dictionary, phrase):
    dictionary = dictionary or ["WHILED", "DRIVEBOAT", "TOTAL", "DOLE", "DO"]
    with pytest.raises(InvalidSolution) as caught:
        check_solution("vro wal eth bdi", solution, dictionary)
    assert phrase in str(caught.value) and "\n" not in str(caught.value)


def test_a_word_with_two_letters_of_one_side_is_rejected_by_the_finder():
    box = LetterBox.parse("vro wal eth bdi")
    assert not is_found(box.grid, "BIRD", budget=0, path_rule="walk")  # B, I: one side
    problems = solution_problems(box, ["BIRD", "DRIVEBOAT", "TOWHILED"], ["BIRD", "DRIVEBOAT", "TOWHILED"])
    assert problems == ["BIRD cannot be played on the box (a letter outside it, or two consecutive letters "
                        "on one side)"]


# --------------------------------------------------------------------------- the known answers


@pytest.mark.parametrize(("text", "fewest"), KNOWN.items())
def test_enable_fixtures_by_search(words, text, fewest):
    answer = solve_by_search(text, words)
    assert answer.fewest == fewest == len(answer.words) and answer.proven
    assert check_solution(text, answer.words, words) == answer.words
    assert answer.method == "search" and answer.playable == len(playable_words(text, words))
    if fewest > 1:
        assert f"no solution of fewer than {fewest} words" in answer.how


@pytest.mark.parametrize(("text", "fewest"), KNOWN.items())
def test_enable_fixtures_both_solvers_agree(words, text, fewest):
    answer = solve_letter_boxed(text, words, method="both")
    assert answer.fewest == fewest and answer.proven
    infeasible = ", ".join(f"k={k} infeasible" for k in range(1, fewest))
    assert "ILP (cbc)" in answer.how and f"{infeasible}, k={fewest} feasible" in answer.how


def test_the_search_tie_break_on_the_seed_box(words):
    # among the 2-word solutions, the fewest letters (14), then alphabetical
    assert solve_by_search("vro wal eth bdi", words).words == ("BLOWHARD", "DATIVE")


def test_answer_as_dict_and_text(words):
    answer = solve_letter_boxed("xoy tws apv kri", words)
    data = json.loads(json.dumps(answer.to_dict()))
    assert list(data) == ["outcome", "seconds", "stopped_by", "exit_code", "box", "sides", "words", "fewest",
                          "letters", "proven", "how", "method", "max_words", "playable"]
    assert data["outcome"] == "optimal" and data["exit_code"] == 0 and data["stopped_by"] is None
    assert data["box"] == "XOY TWS APV KRI" and data["fewest"] == 3 and data["words"] == list(answer.words)
    text = answer.text()
    assert "fewest words: 3 (proven fewest)" in text and " - ".join(answer.words) in text
    assert "how: breadth-first search" in text


def test_max_words_stops_short_and_says_so(words):
    answer = solve_by_search("xoy tws apv kri", words, max_words=2)
    assert answer.words == () and answer.fewest is None and answer.proven
    assert "no solution of at most 2 words" in answer.how
    assert "no solution within 2 words" in answer.text()


# --------------------------------------------------------------------------- larger and random boxes


@pytest.mark.parametrize("text", ["abc def ghi jkl mno", "abcd efgh ijkl mnop"])
def test_larger_boxes_both_solvers_agree(words, text):
    answer = solve_letter_boxed(text, words, method="both")
    assert answer.fewest == 3 and answer.proven
    assert check_solution(text, answer.words, words)


def test_six_sides_of_four_with_enable(words):
    answer = solve_by_search("esci dpou mgvh aqrj ntzf bwkl", words)
    assert answer.fewest == 4 and answer.proven  # the ILP agrees (bench: about 20 s with CBC)
    assert check_solution(answer.box, answer.words, words)


def test_six_sides_of_four_both_solvers_agree_on_a_small_dictionary():
    rng = random.Random(2)
    box = random_box(rng, 6, 4)
    dictionary = random_dictionary(rng, box, 80, lengths=(6, 14), noise=0)
    answer = solve_letter_boxed(box, dictionary, method="both", backend="highs")  # HiGHS: 0.7 s here, CBC 3 s
    assert answer.fewest == 3 and answer.proven and "ILP (highs)" in answer.how


@pytest.mark.parametrize("seed", [1, 2])
def test_random_boxes_with_enable_both_solvers_agree(words, seed):
    box = random_box(random.Random(seed), 4, 3, "ABCDEFGHIKLMNOPRSTUWY")  # no J, Q, V, X, Z: solvable boxes
    answer = solve_letter_boxed(box, words, method="both")
    assert answer.fewest is not None and answer.proven


def test_no_solution_at_all_although_every_letter_is_used():
    # ACE ends with E and BDF with F: no word starts there, so nothing chains
    answer = solve_by_search("ab cd ef", ["ACE", "BDF"])
    assert answer.words == () and answer.fewest is None and answer.proven
    assert "no solution at all" in answer.how
    assert solve_by_search("ab cd ef", ["ACE", "BDF", "FADE", "EBD"]).fewest is None


def test_no_playable_word_for_a_letter():
    answer = solve_by_search("vro wal eth bdi", ["WHILED"])
    assert answer.words == () and answer.fewest is None and answer.proven
    assert "no playable word uses" in answer.how


# --------------------------------------------------------------------------- brute force


def test_search_matches_brute_force_on_made_up_dictionaries():
    rng = random.Random(2024)
    seen = set()
    for _ in range(150):
        sides, per_side = rng.choice([(2, 2), (3, 2), (2, 3), (4, 2), (3, 3)])
        box = random_box(rng, sides, per_side)
        dictionary = random_dictionary(rng, box, rng.randint(10, 30))
        expected = brute_force(box, dictionary, 3)
        answer = solve_by_search(box, dictionary, max_words=3)
        assert answer.words == expected, (box, dictionary)
        if expected:
            assert solve_by_search(box, dictionary).words == expected
        seen.add(len(expected))
    assert seen == {0, 1, 2, 3}


@pytest.mark.skipif("cadical" not in AVAILABLE_BACKENDS, reason="CaDiCaL (PySAT) not installed")
def test_ilp_model_matches_brute_force_through_an_in_process_backend():
    rng = random.Random(7)
    for _ in range(40):
        sides, per_side = rng.choice([(2, 2), (3, 2), (4, 2), (3, 3)])
        box = random_box(rng, sides, per_side)
        dictionary = random_dictionary(rng, box, rng.randint(10, 30))
        expected = brute_force(box, dictionary, 3)
        answer = solve_by_ilp(box, dictionary, max_words=3, backend="cadical")
        assert answer.fewest == (len(expected) or None) and answer.proven, (box, dictionary)


def test_cbc_matches_brute_force_on_a_made_up_dictionary():
    box = LetterBox.parse("ab cd ef")
    dictionary = ["ACE", "EBD", "DAF", "FEB", "BAD", "CAB", "ADF", "ABE", "FACE", "BED", "DEAF"]
    expected = brute_force(box, dictionary, 3)
    search, ilp = solve_by_search(box, dictionary), solve_by_ilp(box, dictionary, max_words=3)
    assert search.words == expected and len(expected) == 2
    assert ilp.fewest == 2 and ilp.how.endswith("k=1 infeasible, k=2 feasible")


# --------------------------------------------------------------------------- the front door


def test_front_door_refuses_bad_options():
    for kwargs, phrase in [
        ({"method": "guess"}, "unknown method"),
        ({"max_words": 0}, "max_words"),
        ({"time_limit": -1}, "time limit"),
        ({"backend": "cbc"}, "a backend only applies to the ILP"),
    ]:
        with pytest.raises(InputError, match=phrase):
            solve_letter_boxed("ab cd ef", ["ACE"], **kwargs)


def test_both_raises_when_the_solvers_disagree(monkeypatch):
    def wrong(box, words, max_words, solver, seed, clock):
        return LetterBoxedAnswer(LetterBox.parse(box), (), None, True, "made up", "ilp (fake)", 0.0, 0)

    monkeypatch.setattr(lb.front, "ilp_answer", wrong)
    with pytest.raises(AssertionError, match="disagree"):
        solve_letter_boxed("ab cd ef", ["ACE", "EBD", "DAF"], method="both")


# --------------------------------------------------------------------------- the search's bound


def test_chain_table_is_the_fewest_chained_words_covering_each_set():
    # On boxes of up to 12 letters the table spans every letter: check it against chains built
    # one word at a time from each start letter.
    rng = random.Random(3)
    for _ in range(10):
        box = random_box(rng, *rng.choice([(2, 3), (3, 3), (4, 3), (5, 2)]))
        playable = [w for w in random_dictionary(rng, box, rng.randint(3, 20)) if is_playable(box, w)]
        edges = lb.word_edges(box, playable)
        table = lb._edges(box, edges).chain.fewest.reshape(box.size, -1)
        for start in range(box.size):
            expected = {0: 0}
            frontier = {(start, 0)}
            for count in range(1, box.size + 1):
                frontier = {(e.last, mask | e.mask) for cell, mask in frontier for e in edges if e.first == cell}
                for _, mask in frontier:
                    subset = mask
                    while True:
                        expected.setdefault(subset, count)
                        if not subset:
                            break
                        subset = (subset - 1) & mask
            for subset in range(1 << box.size):
                if subset in expected:
                    assert table[start][subset] == expected[subset]
                else:  # no chain of at most box.size words covers it
                    assert table[start][subset] > box.size


def test_the_letterboxed_command():
    import json

    from click.testing import CliRunner

    from exactgrid.cli import cli

    result = CliRunner().invoke(cli, ["letterboxed", "vro wal eth bdi"])
    assert result.exit_code == 0 and "fewest words: 2 (proven fewest)" in result.output, result.output
    data = json.loads(CliRunner().invoke(cli, ["letterboxed", "xoy tws apv kri", "--json"]).output)
    assert data["fewest"] == 3 and data["proven"] and len(data["words"]) == 3
    assert CliRunner().invoke(cli, ["letterboxed", "vro wal eth bdi", "--max-words", "1"]).exit_code == 1
    for args, needle in ((["vro wal eta bdi"], "'A' appears on sides 2 and 3"), (["vro"], "side"),
                         (["vro wal eth bd"], "same number of letters"),
                         (["vro wal eth bdi", "--list", "nosuch"], "unknown word list")):
        bad = CliRunner().invoke(cli, ["letterboxed", *args])
        assert bad.exit_code == 2 and bad.stderr.count("\n") == 1 and needle in bad.stderr, bad.stderr
