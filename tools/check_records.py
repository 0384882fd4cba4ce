"""Link each certified bound of instances/records/altered_states_2_bounds.toml to its cores.

    python tools/check_records.py            # every bound record (minutes each, one core)
    python tools/check_records.py --awards   # only the records with awards
    python tools/check_records.py --file F   # another file of bound records (a copy, say)
    python tools/check_records.py --pool     # each record's relaxation with every record's cores

A core is a fact about the board (these letters, in at most these numbers, cannot hold these
pairs on 5x5), so the cores found for one question are cuts for any other whose relaxation
holds their pairs and letters. ``--pool`` asks whether the records' cores, pooled, lower either
bound (it reports; it does not fail).

The test suite re-refutes every core of a record (seconds each) but cannot afford the step that
ties the cores to the number: the counting relaxation with the cores' cuts, whose optimum is
the bound. This script solves it (HiGHS, as ``bound`` did) for each record and compares: the
optimum must equal the recorded bound. A bound lowered by hand, or cores dropped from a
record, make the optimum differ, and the script exits 1. (The full certificate, with DRUP
proofs checked twice, is the record's ``found_by`` command, an hour on 5x5.)
"""

from __future__ import annotations

import argparse
import sys
import time
import tomllib
from pathlib import Path

import exactgrid as eg
from exactgrid.prove.cores import bound_of_cores, core_cut
from exactgrid.prove.counting import counting_model
from exactgrid.prove.placement import Core
from exactgrid.question import checklist_question, choose_checklist
from exactgrid.wording import plural

RECORDS = Path(__file__).resolve().parents[1] / "instances" / "records" / "altered_states_2_bounds.toml"


def record_core(entry: dict) -> Core:
    """A core as the records write it: ``pairs = "AH AT"``, ``at_most = "H1 N2"``."""
    pairs = tuple((pair[0], pair[1]) for pair in entry["pairs"].split())
    return Core(pairs, tuple((limit[0], int(limit[1:])) for limit in entry["at_most"].split()))


def record_question(record: dict) -> eg.Question:
    """The question a bound record answers: every state scored, its awards as hard constraints."""
    question = eg.Question(optional="all")
    chosen = choose_checklist(None, record["awards"])
    return question if chosen is None else checklist_question(question, chosen)


def main() -> int:
    """Check each record; 0 when every bound is what its cores prove, else 1."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--awards", action="store_true", help="only the records with awards")
    parser.add_argument("--file", type=Path, default=RECORDS, help="the bound records (default: %(default)s)")
    parser.add_argument("--pool", action="store_true", help="each record with every record's cores that apply")
    args = parser.parse_args()
    records = tomllib.loads(args.file.read_text())["bounds"]
    pooled = list(dict.fromkeys(record_core(entry) for record in records for entry in record["cores"]))
    failed = 0
    for record in records:
        if args.awards and not record["awards"]:
            continue
        started = time.monotonic()
        question = record_question(record)
        if args.pool:  # every record's cores whose pairs and letters this relaxation holds
            counting = counting_model(question, objective=True, capacity=True)
            cores = [core for core in pooled if core_cut(counting, core) is not None]
            which = f"the {len(cores)} of the {plural(len(pooled), 'pooled core')} that apply"
        else:
            cores = [record_core(entry) for entry in record["cores"]]
            which = f"its {plural(len(cores), 'core')}"
        proven = bound_of_cores(question, cores)
        agrees = proven == record["bound"]
        failed += not agrees and not args.pool  # pooled cores may prove less: news, not a failure
        verdict = "" if args.pool else ("agrees; " if agrees else "DISAGREES; ")
        print(f"{' '.join(record['awards']) or 'every grid'}: recorded {record['bound']:,}; the relaxation with "
              f"{which}: {'no solution' if proven is None else f'{proven:,}'} "
              f"({verdict}{time.monotonic() - started:.0f} s)", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
