"""JPS (Tian et al. 2020, Alg. 1) vs brute force over the same proposals, per search.

Baseline: brute force, i.e. a full re-evaluation of the game for every proposal, measured in the
same run. Prints brute/JPS time ratios beside the paper's (4x, 13x, 3x, 30x).

    python benchmarks/jps_speed.py [--max-brute 2000]
"""

import sys

from bidlab.cli import app

if __name__ == "__main__":
    app(["jps", "speed", *sys.argv[1:]])
