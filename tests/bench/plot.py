#!/usr/bin/env python3
"""Draws a CSV of tests/bench/results.sh (commit,date,load,benchmark,tool,median,min,max,unit) next to it.

One row of bars per benchmark, one bar per tool: the median, with a whisker from the min to the max. The
benchmarks have units of their own (seconds, GFLOP/s, GB/s), so each is drawn on its own scale, its
largest max the full width, the figures written beside the bars. With gnuplot on PATH the plot is a PNG
(FILE.png), else an SVG written here (FILE.svg).

usage: tests/bench/plot.py FILE.csv
"""
import csv
import os
import shutil
import subprocess
import sys
from xml.sax.saxutils import escape


def read(path):
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    groups = {}
    for r in rows:
        groups.setdefault(r["benchmark"], []).append(r)
    return rows, groups


def title(rows, path):
    if not rows:
        return os.path.basename(path)
    r = rows[0]
    return "%s (commit %s, %s, load %s)" % (os.path.basename(path), r["commit"], r["date"], r["load"])


def svg(rows, groups, path, out):
    tools = []
    for r in rows:
        if r["tool"] not in tools:
            tools.append(r["tool"])
    colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"]
    bar, gap, left, width = 16, 14, 230, 420
    height = 60 + sum(len(g) * bar + gap for g in groups.values()) + 20 * len(tools)
    out_lines = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif"'
                 ' font-size="12">' % (left + width + 200, height),
                 '<rect width="100%" height="100%" fill="white"/>',
                 '<text x="10" y="20" font-size="14">%s</text>' % escape(title(rows, path))]
    y = 40
    for bench, g in groups.items():
        top = max(float(r["max"]) for r in g) or 1.0
        out_lines.append('<text x="10" y="%d">%s</text>' % (y + len(g) * bar / 2 + 4, escape(bench)))
        for r in g:
            med, lo, hi = (float(r[k]) for k in ("median", "min", "max"))
            c = colours[tools.index(r["tool"]) % len(colours)]
            out_lines.append('<rect x="%d" y="%d" width="%.1f" height="%d" fill="%s"/>'
                             % (left, y + 2, width * med / top, bar - 4, c))
            mid = y + bar / 2
            out_lines.append('<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="black"/>'
                             % (left + width * lo / top, left + width * hi / top, mid, mid))
            out_lines.append('<text x="%d" y="%.1f">%s %s %s</text>'
                             % (left + width + 8, mid + 4, escape(r["tool"]), r["median"], escape(r["unit"])))
            y += bar
        y += gap
    for i, tool in enumerate(tools):
        out_lines.append('<rect x="10" y="%d" width="12" height="12" fill="%s"/><text x="28" y="%d">%s</text>'
                         % (y + 20 * i, colours[i % len(colours)], y + 20 * i + 11, escape(tool)))
    out_lines.append("</svg>")
    with open(out, "w") as f:
        f.write("\n".join(out_lines) + "\n")


def png(rows, groups, path, out):
    # One bar per (benchmark, tool), scaled within its benchmark, in the order of the file.
    data = out + ".dat"
    with open(data, "w") as f:
        for bench, g in groups.items():
            top = max(float(r["max"]) for r in g) or 1.0
            for r in g:
                f.write('"%s %s" %g %g %g\n' % (bench, r["tool"], float(r["median"]) / top,
                                               float(r["min"]) / top, float(r["max"]) / top))
    script = """set terminal pngcairo size 900,%d
set output "%s"
set title "%s (medians, min-max; each benchmark on its own scale)"
set style fill solid 0.6
set yrange [-0.5:%d]
set xrange [0:1.05]
unset key
plot "%s" using 2:0:(0):2:($0-0.4):($0+0.4):ytic(1) with boxxyerror, "" using 2:0:3:4 with xerrorbars
""" % (120 + 22 * len(rows), out, title(rows, path).replace('"', "'"), len(rows), data)
    subprocess.run(["gnuplot"], input=script, text=True, check=True)
    os.remove(data)


def main():
    path = sys.argv[1]
    rows, groups = read(path)
    base = os.path.splitext(path)[0]
    if shutil.which("gnuplot"):
        png(rows, groups, path, base + ".png")
        print("plot: " + base + ".png")
    else:
        svg(rows, groups, path, base + ".svg")
        print("plot: " + base + ".svg")


if __name__ == "__main__":
    main()
