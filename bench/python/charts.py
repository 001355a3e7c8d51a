"""The charts of bench/results (matplotlib, Agg: no display needed)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402  (after choosing the backend)
from matplotlib.ticker import StrMethodFormatter  # noqa: E402

import percall  # noqa: E402
import report  # noqa: E402

# One colour per library everywhere; isojson stands out.
COLORS = {"isojson": "#1f77b4", "json": "#9e9e9e", "orjson": "#ff7f0e", "orjson processes": "#f5b041"}
_BACKEND_COLORS = ("#1f77b4", "#2ca02c", "#9467bd", "#17becf", "#8c564b")


def _label_bars(ax, bars, fmt):
    for b in bars:
        h = b.get_height()
        if h > 0:
            ax.annotate(fmt(h), (b.get_x() + b.get_width() / 2, h), xytext=(0, 2),
                        textcoords="offset points", ha="center", va="bottom", fontsize=7)


def parallel(results: dict, path: str) -> None:
    """Grouped bars: groups are worker counts, one bar per library × way of
    running workers; y: round trips per second."""
    configs, workers, rates = report._parallel_rates(results)
    fig, ax = plt.subplots(figsize=(9, 4.8), dpi=120)
    width = 0.8 / max(1, len(configs))
    for i, (lib, mode) in enumerate(configs):
        values = [0 if (p := rates.get((lib, mode, n))) is None or p.get("error") else p["rate"] for n in workers]
        key = "orjson processes" if (lib, mode) == ("orjson", "processes") else lib
        bars = ax.bar([x + (i - (len(configs) - 1) / 2) * width for x in range(len(workers))], values, width,
                      label=f"{lib}: {report.MODE_LABELS.get(mode, mode)}", color=COLORS.get(key),
                      hatch="//" if mode == "processes" else None, edgecolor="white")
        _label_bars(ax, bars, lambda h: f"{h:,.0f}")
    ax.set_xticks(range(len(workers)), [f"{n} worker{'s' if n > 1 else ''}" for n in workers])
    ax.set_ylabel("round trips per second (higher is better)")
    ax.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    p = results.get("parallel_doc", {})
    cores = results["machine"]["cores"]
    title = (f"loads + dumps of a {p.get('records', 100)}-record JSON document "
             f"({p.get('bytes', 0) / 1024:.0f} KiB), {cores} CPU cores")
    load = report.parallel_load(results)
    if load > (cores or 1):
        title += f"\nload average {load:.1f} during the run: other work shared the CPUs, expect noise"
    ax.set_title(title, fontsize=10)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.15)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def backends(results: dict, path: str) -> None:
    """Grouped bars: groups are documents, one bar per isojson backend and one
    for orjson; y: loads throughput in MB/s of input."""
    series = {}
    sizes = {d: len(percall.read_corpus(d)) for d in percall.CORPUS}
    ref = {}
    for name, r in results.get("backends", {}).items():
        if "error" in r:
            continue
        for t in r["timings"]:
            mbs = sizes[t["doc"]] / min(t["samples"]) / 1e6
            if t["library"] == "isojson":
                series.setdefault(f"isojson {name}", {})[t["doc"]] = mbs
            else:  # orjson, measured in every child: keep its best
                ref[t["doc"]] = max(ref.get(t["doc"], 0), mbs)
    if ref:
        series["orjson"] = ref
    fig, ax = plt.subplots(figsize=(9, 4.8), dpi=120)
    width = 0.8 / max(1, len(series))
    docs = list(percall.CORPUS)
    for i, (label, by_doc) in enumerate(series.items()):
        color = COLORS["orjson"] if label == "orjson" else _BACKEND_COLORS[i % len(_BACKEND_COLORS)]
        bars = ax.bar([x + (i - (len(series) - 1) / 2) * width for x in range(len(docs))],
                      [by_doc.get(d, 0) for d in docs], width, label=label, color=color, edgecolor="white")
        _label_bars(ax, bars, lambda h: f"{h:,.0f}")
    ax.set_xticks(range(len(docs)), [report._size(d) for d in docs])
    ax.set_ylabel("loads, MB/s of JSON input (higher is better)")
    ax.yaxis.set_major_formatter(StrMethodFormatter("{x:,.0f}"))
    ax.set_title("Python loads() per isojson backend (ISOJSON_BACKEND) and orjson", fontsize=10)
    ax.legend(fontsize=8, frameon=False)
    ax.set_ylim(0, ax.get_ylim()[1] * 1.12)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


# Bars of the set's chart: every library but the reference, orjson (the line at 1).
_ROW_COLORS = {"isojson": "#1f77b4", "msgspec": "#2ca02c", "json": "#9e9e9e", "ujson": "#8c564b"}


def rows(results: dict, path: str) -> None:
    """The benchmark set: one panel per direction, one group of bars per row,
    one bar per library; x: time per call ÷ orjson's, log scale (left of the
    line at 1 is faster than orjson)."""
    entries = results.get("rows", [])
    libs = [lib for lib in report.set_libraries(results) if lib in _ROW_COLORS and lib != "ujson"]
    ops = [op for op in ("loads", "dumps") if any(e["op"] == op for e in entries)]
    height = max(len([e for e in entries if e["op"] == op]) for op in ops) if ops else 1
    fig, axes = plt.subplots(1, max(1, len(ops)), figsize=(12, 1.2 + 0.24 * height), dpi=100, squeeze=False)
    bar = 0.8 / max(1, len(libs))
    for ax, op in zip(axes[0], ops):
        es = [e for e in entries if e["op"] == op]
        for i, lib in enumerate(libs):
            ys, xs = [], []
            for y, e in enumerate(es):
                r = report._ratio_of(e, lib)
                if r is not None and r > 0:
                    ys.append(y + (i - (len(libs) - 1) / 2) * bar)
                    xs.append(r)
            # From the line at 1 to the ratio: left of it faster than orjson, right of it slower.
            ax.barh(ys, [x - 1 for x in xs], bar, left=1, label=lib, color=_ROW_COLORS[lib])
        ax.axvline(1.0, color=COLORS["orjson"], linewidth=1.5, label="orjson (1.0)")
        ax.set_xscale("log")
        ax.set_yticks(range(len(es)), [e["row"] for e in es], fontsize=7)
        ax.set_ylim(len(es) - 0.5, -0.5)
        ax.set_xlabel(f"{op}: time per call ÷ orjson's (log scale; below 1 is faster)", fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
        ax.xaxis.set_major_formatter(StrMethodFormatter("{x:g}×"))
        ax.grid(axis="x", which="major", color="#dddddd", linewidth=0.5)
        ax.set_axisbelow(True)
        ax.spines[["top", "right"]].set_visible(False)
        ax.set_title(op, fontsize=10)
    axes[0][0].legend(fontsize=7, loc="lower right", frameon=True)
    m = results.get("machine", {})
    fig.suptitle(f"isojson, msgspec and json against orjson, per row of the benchmark set ({m.get('date', '')})",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
