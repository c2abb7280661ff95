#!/usr/bin/env python3
"""Work–precision on one stroke: sweeps tolerances and methods on the CPU
reference, compares each result with the double ground truth (as `sculptflow
validate` does), and draws two PNGs with Matplotlib:

  work_precision.png  max error (voxels) against mean evaluations per vertex
  error_heatmap.png   each vertex's error on the undeformed mesh, by latitude and longitude

Usage: work_precision.py [--stroke FILE] [--out DIR]
  --stroke  a .json or .bin stroke (e.g. ../shared/data/strokes/test0_righthandstroke.bin,
            read in place); default: the built-in stroke. The mesh is the built-in
            sphere around the stroke's first tool tip.
  --out     where the PNGs go (default: the current directory)
"""

import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")  # files only, no display
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import sculptflow as sf  # noqa: E402

METHODS = ("bs32", "tsit5", "dp45", "rk4dbl")
TOLERANCES = (0.3, 0.1, 0.03, 0.01)  # voxels
HEATMAP = ("bs32", 0.1)


def sweep(positions, stroke, truth):
    """{method: [(tol, mean evaluations, max error, flagged share)]}"""
    results = {}
    for method in METHODS:
        rows = []
        for tol in TOLERANCES:
            solved = sf.deform(positions, stroke, method=method, tol=tol, statistics=True)
            c = sf.compare(solved, truth)
            rows.append((tol, solved[1]["mean_evaluations"], c["max_error"], c["flagged_share"]))
            print(f"{method:7} tol {tol:<5} {rows[-1][1]:7.1f} evaluations/vertex  "
                  f"max error {c['max_error']:.4f} voxel  flagged {100 * c['flagged_share']:.2f} %")
        results[method] = rows
    return results


def plot_work_precision(results, title, path):
    fig, ax = plt.subplots(figsize=(6.4, 4.8), dpi=100)
    for method, rows in results.items():
        tol, work, error, _ = zip(*rows)
        ax.loglog(work, error, "o-", label=method)
    for t in TOLERANCES:
        ax.axhline(t, color="0.85", lw=0.8, zorder=0)
        ax.annotate(f"tol {t}", (1, t), xycoords=("axes fraction", "data"), ha="right", va="bottom", fontsize=7,
                    color="0.5")
    work = [w for rows in results.values() for _, w, _, _ in rows]
    ax.set_xticks([t for t in (10, 20, 30, 50, 100, 200, 300, 500, 1000) if min(work) / 1.2 <= t <= max(work) * 1.2])
    ax.xaxis.set_major_formatter(matplotlib.ticker.ScalarFormatter())
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel("mean evaluations per vertex")
    ax.set_ylabel("max error against the ground truth (voxel)")
    ax.set_title(title, fontsize=10)
    ax.legend()
    ax.grid(True, which="major", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def plot_heatmap(positions, stroke, truth, path):
    method, tol = HEATMAP
    moved, stats = sf.deform(positions, stroke, method=method, tol=tol, statistics=True)
    error = np.linalg.norm(moved.astype(np.float64) - truth[0], axis=1)
    centered = positions - positions.mean(axis=0)
    longitude = np.degrees(np.arctan2(centered[:, 1], centered[:, 0]))
    latitude = np.degrees(np.arcsin(centered[:, 2] / np.linalg.norm(centered, axis=1)))
    flagged = (stats["flags"] & ~np.uint32(sf.FLAG_CULLED)) != 0
    fig, ax = plt.subplots(figsize=(7.2, 3.8), dpi=100)
    floor = 1e-6  # an unmoved vertex has no error; the log scale needs a floor
    dots = ax.scatter(longitude, latitude, c=np.maximum(error, floor), s=3, cmap="magma",
                      norm=matplotlib.colors.LogNorm(vmin=max(error.min(), floor), vmax=max(error.max(), 2 * floor)))
    if flagged.any():
        ax.scatter(longitude[flagged], latitude[flagged], s=8, facecolors="none", edgecolors="cyan", lw=0.5,
                   label="flagged")
        ax.legend(loc="lower right")
    fig.colorbar(dots, ax=ax, label="error (voxel)")
    ax.set_xlabel("longitude on the undeformed mesh (degrees)")
    ax.set_ylabel("latitude (degrees)")
    ax.set_title(f"per-vertex error, {method} at tol {tol} voxel", fontsize=10)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--stroke", help="a .json or .bin stroke; default: the built-in one")
    parser.add_argument("--out", default=".", help="directory for the PNGs")
    args = parser.parse_args()

    stroke = sf.Stroke(args.stroke) if args.stroke else sf.default_stroke()
    positions = stroke.to_voxels(sf.default_mesh(stroke).positions)
    name = os.path.basename(args.stroke) if args.stroke else "built-in stroke"
    truth = sf.ground_truth(positions, stroke, details=True)
    results = sweep(positions, stroke, truth)

    os.makedirs(args.out, exist_ok=True)
    chart = os.path.join(args.out, "work_precision.png")
    heatmap = os.path.join(args.out, "error_heatmap.png")
    plot_work_precision(results, f"{name}, built-in sphere ({len(positions):,} vertices), CPU reference", chart)
    plot_heatmap(positions, stroke, truth, heatmap)
    print(f"wrote {chart} and {heatmap}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
