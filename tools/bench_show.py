"""How long a picture takes: matplotlib's import, then the picture's facts, the drawing and the
file, for the puzzle's 3x3 example and the best 5x5 grid known to the project.

    python tools/bench_show.py [--repeat 5]

Prints one line per grid and format: median (and max) wall seconds of ``repeat`` runs in one
process, split into what the picture shows (``picture_of``: the finder's score and the needed
cells), drawing (``draw``) and saving; the median CPU seconds of the process (steadier than wall
time on a shared machine); and the file's size.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

GRIDS = {"thoainesl (3x3, 5 states)": "thoainesl", "best 5x5 (30 states)": "ICOADMSNIGWESRLYOEAONRTHC"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    started = time.perf_counter()
    import matplotlib  # noqa: F401

    from exactgrid.render.figure import draw, save_figure
    from exactgrid.render.picture import picture_of

    print(f"import matplotlib and exactgrid.render: {time.perf_counter() - started:.2f} s")
    with tempfile.TemporaryDirectory() as folder:
        for label, grid in GRIDS.items():
            for fmt in ("svg", "png"):
                out = Path(folder) / f"x.{fmt}"
                parts: list[tuple[float, float, float]] = []
                cpu: list[float] = []
                for _ in range(args.repeat + 1):  # the first run warms caches (fonts, data)
                    c0 = time.process_time()
                    t0 = time.perf_counter()
                    picture = picture_of(grid)
                    t1 = time.perf_counter()
                    fig = draw(picture)
                    t2 = time.perf_counter()
                    save_figure(fig, out)
                    t3 = time.perf_counter()
                    cpu.append(time.process_time() - c0)
                    parts.append((t1 - t0, t2 - t1, t3 - t2))
                parts, cpu = parts[1:], cpu[1:]
                totals = [sum(p) for p in parts]
                facts, drawing, saving = (statistics.median(p[i] for p in parts) for i in range(3))
                print(f"{label:28} {fmt}: {statistics.median(totals):.2f} s median ({max(totals):.2f} max) = "
                      f"facts {facts:.3f} + draw {drawing:.3f} + save {saving:.3f}; "
                      f"CPU {statistics.median(cpu):.2f} s; "
                      f"{out.stat().st_size / 1024:.0f} KiB")


if __name__ == "__main__":
    main()
