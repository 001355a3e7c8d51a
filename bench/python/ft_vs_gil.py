"""3.14t's instructions per call beside the GIL build's, row by row: the report of
`make bench-callgrind-ft` (scripts/bench-callgrind-ft), from two results files of
bench/python/callgrind.py (one run in each build, the same rows and options).

    python3 bench/python/ft_vs_gil.py FT.json GIL.json OUT.md

The rows are every row of the benchmark set that runs on 3.14t: orjson and numpy have no
3.14t build here, so the rows made with them (numpy arrays, Fragment, the twitter option rows)
are left out of both runs.
"""

import json
import sys

GOAL = 1.15


def _rows(path):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    rows = {}
    for r in data["rows"]:
        ir = r["ir"].get("isojson")
        if ir:
            rows[(r["row"], r["op"])] = ir
    return data, rows


def _fmt(ir):
    if ir >= 1e6:
        return f"{ir / 1e6:,.2f}M"
    if ir >= 1e4:
        return f"{ir / 1e3:,.1f}k"
    return f"{ir:,.0f}"


def report(ft_path, gil_path):
    ft_data, ft = _rows(ft_path)
    gil_data, gil = _rows(gil_path)
    common = [k for k in ft if k in gil]
    ratios = {k: ft[k] / gil[k] for k in common}
    over = [k for k in common if ratios[k] > GOAL]
    lines = [
        "# isojson on 3.14t against the GIL build: instructions per call",
        "",
        f"Made by `make bench-callgrind-ft` (scripts/bench-callgrind-ft, bench/python/ft_vs_gil.py): "
        f"3.14t counted {ft_data['date']}, the GIL build {gil_data['date']}, {ft_data['valgrind']}; "
        "bench/python/callgrind.py's method (min of its repeats, the harness's loop and empty call "
        "taken off). Every row of the benchmark set that runs on 3.14t (no orjson or numpy there).",
        "",
        f"{len(common)} rows; within {GOAL:.2f}× of the GIL build: {len(common) - len(over)}. "
        f"Geometric mean of the ratios: loads {_geomean(ratios, 'loads'):.3f}×, "
        f"dumps {_geomean(ratios, 'dumps'):.3f}×.",
        "",
        "| row | op | 3.14t | GIL | 3.14t / GIL |",
        "|:---|:---|---:|---:|---:|",
    ]
    for k in sorted(common, key=lambda k: (k[1] != "loads", -ratios[k])):
        mark = " ⚠" if ratios[k] > GOAL else ""
        lines.append(f"| `{k[0]}` | {k[1]} | {_fmt(ft[k])} | {_fmt(gil[k])} | {ratios[k]:.3f}×{mark} |")
    lines += [
        "",
        "⚠: above the goal. Why each is, and what the rest cost: docs/free-threading.md.",
    ]
    return "\n".join(lines) + "\n"


def _geomean(ratios, op):
    vals = [v for k, v in ratios.items() if k[1] == op]
    if not vals:
        return float("nan")
    prod = 1.0
    for v in vals:
        prod *= v
    return prod ** (1 / len(vals))


def main(argv):
    if len(argv) != 3:
        sys.exit(__doc__)
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(report(argv[0], argv[1]))
    print(f"ft_vs_gil: {argv[2]}")


if __name__ == "__main__":
    main(sys.argv[1:])
