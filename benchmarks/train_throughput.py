"""Training and batched-inference samples/s of the policy net, cpu and paper presets.

Baseline: the same network's forward pass alone on random inputs (no encoding), so the
printed ratios show what the 480 encoder and the optimizer step cost on this machine.

    python benchmarks/train_throughput.py [--seconds 5] [--presets cpu,paper] [--device cpu]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import torch
import torch.nn.functional as F

from bidlab.learn.data import batch_features, generate_expert, node_call_pairs
from bidlab.nets import PolicyNet, build, preset


def rate(fn, seconds: float, batch: int) -> float:
    fn()  # warm up
    n, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        fn()
        n += batch
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=4.0)
    ap.add_argument("--presets", default="cpu,paper")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--infer-batch", type=int, default=1024)
    ap.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's choice)")
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)

    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        arrays = generate_expert(tmp, 400, teacher="random", shard_size=400, workers=1).load()
    boards, steps = node_call_pairs(arrays)
    rng = np.random.default_rng(0)
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads, device {args.device}")
    for name in args.presets.split(","):
        measure(name, args, arrays, boards, steps, rng)


def measure(name, args, arrays, boards, steps, rng) -> None:
    """Print the three rates for one preset."""
    net = build(preset("policy", name)).to(args.device)
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    params = sum(p.numel() for p in net.parameters())

    x_rand = torch.randn(args.infer_batch, 480, device=args.device)

    def forward_only():
        with torch.inference_mode():
            net(x_rand)

    def infer_encoded():
        idx = rng.integers(len(boards), size=args.infer_batch)
        x, legal, _ = batch_features(arrays, boards[idx], steps[idx])
        with torch.inference_mode():
            PolicyNet.mask_logits(net(torch.from_numpy(x).to(args.device)),
                                  torch.from_numpy(legal).to(args.device)).argmax(1)

    def train_step():
        idx = rng.integers(len(boards), size=args.batch)
        x, legal, y = batch_features(arrays, boards[idx], steps[idx])
        logits = PolicyNet.mask_logits(net(torch.from_numpy(x).to(args.device)),
                                       torch.from_numpy(legal).to(args.device))
        loss = F.cross_entropy(logits, torch.from_numpy(y).to(args.device))
        opt.zero_grad()
        loss.backward()
        opt.step()

    base = rate(forward_only, args.seconds, args.infer_batch)
    inf = rate(infer_encoded, args.seconds, args.infer_batch)
    tr = rate(train_step, args.seconds, args.batch)
    print(f"{name:6s} ({params / 1e6:.2f}M params): forward only {base:9.0f}/s (baseline) | "
          f"encode+infer {inf:9.0f}/s = {inf / base:.2f}x | train (batch {args.batch}) {tr:8.0f}/s "
          f"= {tr / base:.3f}x")


if __name__ == "__main__":
    main()
