"""Checks the libraries' link interfaces in a `cmake --graphviz` file of a
tree configured with CKPT_LINK_MLIR_DYLIB=OFF (so that the MLIR component
libraries show): the rematerialization side (CkptRemat, CkptPlanner,
CkptAnalysis, CkptDialect and every ckpt library they link) names no GPU,
LLVM-dialect or NVVM target; the GPU conversion is where those are.

Usage: library-layering.py DOT_FILE
"""

import re
import sys

ROOTS = ("CkptRemat", "CkptDialectTransforms", "CkptPlanner", "CkptAnalysis", "CkptDialect")
FORBIDDEN = re.compile(r"^MLIR(GPU|LLVM|NVVM)")


def main():
    labels, edges = {}, {}
    for line in open(sys.argv[1]):
        if m := re.match(r'\s*"(node\d+)" \[ label = "([^"]+)"', line):
            labels[m.group(1)] = m.group(2)
        elif m := re.match(r'\s*"(node\d+)" -> "(node\d+)"', line):
            edges.setdefault(m.group(1), []).append(m.group(2))
    names = {v: k for k, v in labels.items()}
    failures = 0
    for root in ROOTS:
        # The ckpt libraries the root links, itself included.
        seen, stack = set(), [names[root]]
        while stack:
            node = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            stack += [n for n in edges.get(node, []) if labels[n].startswith("Ckpt")]
        named = sorted({labels[n] for node in seen for n in edges.get(node, [])
                        if FORBIDDEN.match(labels[n])})
        libraries = sorted(labels[n] for n in seen)
        print(f"{root}: {', '.join(libraries)}: {', '.join(named) or 'no GPU/LLVM/NVVM target'}")
        failures += bool(named)
    conversion = sorted(labels[n] for n in edges.get(names["CkptConversion"], [])
                        if FORBIDDEN.match(labels[n]))
    print(f"CkptConversion: {', '.join(conversion)}")
    return 1 if failures or not conversion else 0


if __name__ == "__main__":
    sys.exit(main())
