#!/usr/bin/env python3
"""Renders bench/results/*.json into SVG bar charts for docs/performance.md.

No plotting library is needed: each chart is a plain SVG of horizontal bars, one group per
workload, one bar per implementation, with the measured value written at the bar's end.
Usage: bench/plot.py RESULTS.json OUT.svg --title T --unit U [--log]
The JSON holds {"rows": [{"group": "W1 f64 1e7", "impl": "numjit cpu", "value": 1.23}, ...]}.
"""
import argparse
import json
import math

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
           "#7f7f7f", "#bcbd22", "#17becf"]


def render(rows, title, unit, log=False, width=760):
    groups, impls = [], []
    for r in rows:
        if r["group"] not in groups:
            groups.append(r["group"])
        if r["impl"] not in impls:
            impls.append(r["impl"])
    bar_h, gap, left, right, top = 14, 10, 170, 90, 40
    vmax = max(r["value"] for r in rows) or 1.0
    vmin = min((r["value"] for r in rows if r["value"] > 0), default=1.0)

    def scale(v):
        span = width - left - right
        if log:
            lo = math.log10(vmin) - 0.3
            return span * (math.log10(max(v, vmin)) - lo) / (math.log10(vmax) - lo)
        return span * v / vmax

    height = top + len(groups) * (len(impls) * bar_h + gap) + 20 + 18 * ((len(impls) + 3) // 4)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           f'<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{width / 2}" y="20" text-anchor="middle" font-size="14">{title}</text>']
    y = top
    for g in groups:
        out.append(f'<text x="{left - 8}" y="{y + len(impls) * bar_h / 2 + 4}" '
                   f'text-anchor="end">{g}</text>')
        for i, imp in enumerate(impls):
            val = next((r["value"] for r in rows if r["group"] == g and r["impl"] == imp), None)
            if val is not None:
                w = max(scale(val), 1)
                out.append(f'<rect x="{left}" y="{y}" width="{w:.1f}" height="{bar_h - 2}" '
                           f'fill="{PALETTE[i % len(PALETTE)]}"/>')
                out.append(f'<text x="{left + w + 4:.1f}" y="{y + bar_h - 4}">{val:.3g} {unit}</text>')
            y += bar_h
        y += gap
    for i, imp in enumerate(impls):
        lx, ly = 10 + (i % 4) * (width // 4), y + 14 + 18 * (i // 4)
        out.append(f'<rect x="{lx}" y="{ly - 10}" width="12" height="12" '
                   f'fill="{PALETTE[i % len(PALETTE)]}"/>')
        out.append(f'<text x="{lx + 16}" y="{ly}">{imp}</text>')
    out.append("</svg>")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("out")
    ap.add_argument("--title", default="")
    ap.add_argument("--unit", default="")
    ap.add_argument("--log", action="store_true")
    a = ap.parse_args()
    with open(a.results) as fh:
        rows = json.load(fh)["rows"]
    with open(a.out, "w") as fh:
        fh.write(render(rows, a.title, a.unit, a.log))


if __name__ == "__main__":
    main()
