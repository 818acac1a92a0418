"""Continue the shipped league training on a GPU machine, write the policy back, and report
transitions per second (issue 44, "a GPU run, ready for when a GPU machine is at hand").

    # on a lent GPU machine (one GPU, 16 cores; docs/training.md "On a GPU" has the whole call):
    python benchmarks/gpu_continue.py --out $OUT --device cuda --actors 15 --minutes 7
    # the same on this CPU, small, as a check and as the CPU side of the comparison:
    python benchmarks/gpu_continue.py --out results/gpu-continue-cpu --device cpu --actors 1 --updates 300

The training state behind the shipped policy's lineage, ``checkpoints/league`` (286,000
updates; checkpoints/README.md), is copied to ``--run`` and resumed by the one
``bidlab train rl`` with that run's own options (the README's league command: league
self-play against ``sayc``, ``nn:sl``, ``nn:rl@80000``, ``nn:rl@156750`` and snapshots, JPS
1-search in a quarter of the games, replay ratio 0.5, the policy at 3e-5, the running weight
average), plus ``--device`` for the learner and ``--actors`` threads bidding self-play. Only
the budget is this script's: ``--minutes`` or ``--updates`` *more* than the state holds.

Written to ``--out`` (each file under 16 MiB, so a lent machine can send them back):
``final.safetensors/.json`` (the run's last policy, loadable as ``nn:OUT/final``),
``swa.safetensors/.json`` (its running average), and ``throughput.json``: transitions
generated and learned per second and updates per second of this resumption, with the
device, actors, torch version and the CPU count. The 30 MB training state stays in
``--run``: a lent machine cannot send it back, and a policy is not shipped from such a short
leg without the test match of checkpoints/README.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bidlab.fileio import write_json_atomic

ROOT = Path(__file__).resolve().parents[1]
STATE_FILES = ("checkpoint.safetensors", "state.json")
# What `bidlab train rl --league` imports on its way (module: the pip name to carry when missing).
NEEDS = {"torch": "torch", "numpy": "numpy", "safetensors": "safetensors", "typer": "typer", "rich": "rich",
         "tensorboard": "tensorboard", "pytorch_optimizer": "pytorch-optimizer"}
# The shipped league run's options (checkpoints/README.md), less its budget.
LEAGUE_OPTIONS = ["--init", "nn:sl", "--no-hidden-info", "--eval-every", "2500", "--replay-ratio", "0.5",
                  "--jps", "0.25", "--jps-1search", "--league", "--league-add", "nn:rl@80000",
                  "--league-add", "nn:rl@156750", "--lr-policy", "3e-5", "--eval-against", "nn:rl@80000",
                  "--swa-from", "207000"]
WRITTEN = ("final.safetensors", "final.json", "swa.safetensors", "swa.json")
# A lent machine takes a working tree of at most 64 MiB (/work/.library/device/README.md); the
# checkout's tracked files are about three times that. The leg needs the league state, the
# policies of its pool and the code; these tracked files it does not need stay behind.
DEVICE_TREE_MIB = 64
ASIDE = ("checkpoints/rl/", "checkpoints/rl-next/", "checkpoints/partner/", "checkpoints/league/final.",
         "bidlab/models/belief", "bidlab/models/tricks.", "bidlab/models/partner.", "bidlab/models/rl.",
         "bidlab/models/history/")
KEEP = ("bidlab/models/history/rl@80000.", "bidlab/models/history/rl@156750.")  # --league-add members


class GpuContinueError(Exception):
    """Bad options or a missing piece, found before anything is written."""


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                 epilog="Nothing is written before every option is checked.")
    ap.add_argument("--list-aside", action="store_true",
                    help="Print the tracked files a device call can leave behind (one per line; the size of "
                         "the rest on stderr) and exit: 1 if the rest is still over 64 MiB.")
    ap.add_argument("--out", type=Path, default=None,
                    help="Folder for the policy and throughput.json (new or empty; $OUT on a lent machine).")
    ap.add_argument("--state", type=Path, default=ROOT / "checkpoints" / "league",
                    help="Training state to continue (checkpoint.safetensors + state.json). [checkpoints/league]")
    ap.add_argument("--run", type=Path, default=None,
                    help="Run folder the state is copied to and trained in; an existing run of the same state "
                         "is resumed. [a temporary folder, removed at the end]")
    ap.add_argument("--device", default="cuda", help="Torch device of the learner. [cuda]")
    ap.add_argument("--actors", type=int, default=max(1, (os.cpu_count() or 2) - 1),
                    help="Actor threads bidding self-play. [CPU count - 1]")
    budget = ap.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=float, default=None, help="Training minutes on top of the state's. [7]")
    budget.add_argument("--updates", type=int, default=None, help="Learner updates on top of the state's.")
    ap.add_argument("--eval-boards", type=int, default=1000,
                    help="Validation boards of the run's evaluations against nn:rl@80000. [1000]")
    ap.add_argument("--threads", type=int, default=1, help="Torch CPU threads per thread of work. [1]")
    ap.add_argument("--seed", type=int, default=44, help="Seed of the games this leg draws. [44]")
    return ap.parse_args(argv)


def travelling_files(root: Path = ROOT) -> list[str]:
    """What a device call sends: the tracked and the untracked-not-ignored files."""
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True).stdout.decode().split("\0")
    return [p for p in listed if p]


def device_tree(root: Path = ROOT) -> tuple[list[str], int]:
    """(tracked files the leg does not need, bytes of what travels without them)."""
    aside, size = [], 0
    for path in travelling_files(root):
        if path.startswith(ASIDE) and not path.startswith(KEEP):
            aside.append(path)
        elif (root / path).is_file():
            size += (root / path).stat().st_size
    return aside, size


def check(args: argparse.Namespace) -> None:
    """Every option, before any file or folder is made."""
    if args.out is None:
        raise GpuContinueError("--out is required (a new or empty folder for the policy and throughput.json)")
    missing = [pip for module, pip in NEEDS.items() if importlib.util.find_spec(module) is None]
    if missing:
        raise GpuContinueError(f"missing Python packages: {', '.join(missing)} (carry them as wheels: "
                               "docs/training.md, 'On a GPU')")
    from bidlab.nets.device import DeviceError, check_device

    try:
        check_device(args.device)
    except DeviceError as e:
        raise GpuContinueError(str(e)) from None
    for name in STATE_FILES:
        if not (args.state / name).is_file():
            raise GpuContinueError(f"--state {args.state}: no {name} (a run folder of `bidlab train rl`)")
    if args.actors < 1 or args.threads < 1 or args.eval_boards < 2:
        raise GpuContinueError("--actors and --threads must be at least 1, --eval-boards at least 2")
    if (args.minutes is not None and args.minutes <= 0) or (args.updates is not None and args.updates < 1):
        raise GpuContinueError("--minutes must be positive and --updates at least 1")
    out = args.out.resolve()
    for guarded in (ROOT / "bidlab", ROOT / "docs"):
        if out == guarded or guarded in out.parents:
            raise GpuContinueError(f"--out {args.out}: inside {guarded.name}/, which no benchmark writes into")
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise GpuContinueError(f"--out {args.out}: exists and is not an empty folder")
    if args.run is not None and args.run.exists():
        if not (args.run / "state.json").is_file():
            raise GpuContinueError(f"--run {args.run}: exists but holds no run (no state.json)")
        if read_state(args.run)["init"] != read_state(args.state)["init"]:
            raise GpuContinueError(f"--run {args.run}: a run of another start than {args.state}")


def read_state(folder: Path) -> dict:
    return json.loads((folder / "state.json").read_text())


def train_command(args: argparse.Namespace, run: Path, before: dict) -> list[str]:
    """The shipped run's command with this leg's budget (budgets count across resumptions)."""
    if args.updates is not None:
        budget = ["--updates", str(before["updates"] + args.updates)]
    else:
        minutes = 7.0 if args.minutes is None else args.minutes
        budget = ["--minutes", f"{before['seconds'] / 60 + minutes:.3f}"]
    return [sys.executable, "-m", "bidlab", "train", "rl", "--out", str(run), *LEAGUE_OPTIONS, *budget,
            "--device", args.device, "--actors", str(args.actors), "--threads", str(args.threads),
            "--eval-boards", str(args.eval_boards), "--seed", str(args.seed)]


def throughput(before: dict, after: dict, wall: float, args: argparse.Namespace) -> dict:
    """Rates of this resumption alone: the state's counters are cumulative over the run's life."""
    import torch

    seconds = after["seconds"] - before["seconds"]  # training seconds (evaluations not counted)
    this = after.get("this_run", {})
    generated = this.get("generated", after["generated"] - before["generated"])
    learned = this.get("learned", after["learned"] - before["learned"])
    updates = after["updates"] - before["updates"]
    gpu = torch.cuda.get_device_name(0) if args.device.startswith("cuda") else None
    return {"device": args.device, "gpu": gpu, "actors": args.actors, "threads": args.threads,
            "cpu_count": os.cpu_count(), "torch": torch.__version__, "python": platform.python_version(),
            "updates_from": before["updates"], "updates_to": after["updates"], "updates": updates,
            "training_seconds": round(seconds, 1), "wall_seconds": round(wall, 1),
            "generated": generated, "learned": learned,
            "generated_per_s": round(generated / seconds, 1) if seconds > 0 else None,
            "learned_per_s": round(learned / seconds, 1) if seconds > 0 else None,
            "updates_per_s": round(updates / seconds, 2) if seconds > 0 else None,
            "last_eval": after["evals"][-1] if after.get("evals") else None}


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    if args.list_aside:
        aside, size = device_tree()
        print("\n".join(aside))
        print(f"{len(aside)} tracked files stay behind; the rest is {size / 2**20:.1f} MiB "
              f"(a lent machine takes {DEVICE_TREE_MIB})", file=sys.stderr)
        return 0 if size <= DEVICE_TREE_MIB * 2**20 else 1
    try:
        check(args)
    except GpuContinueError as e:
        print(f"gpu_continue: {e}", file=sys.stderr)
        return 2
    scratch = None
    run = args.run
    if run is None:
        scratch = tempfile.mkdtemp(prefix="bidlab-gpu-continue-")
        run = Path(scratch) / "run"
    try:
        if not run.exists():
            shutil.copytree(args.state, run)
        before = read_state(run)
        cmd = train_command(args, run, before)
        print("$ " + " ".join(cmd[1:]), flush=True)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
        t0 = time.perf_counter()
        code = subprocess.run(cmd, env=env).returncode
        wall = time.perf_counter() - t0
        if code != 0:
            print(f"gpu_continue: bidlab train rl ended with exit code {code}", file=sys.stderr)
            return code
        after = read_state(run)
        args.out.mkdir(parents=True, exist_ok=True)
        for name in WRITTEN:
            if (run / name).is_file():
                shutil.copy2(run / name, args.out / name)
        report = throughput(before, after, wall, args)
        write_json_atomic(args.out / "throughput.json", report)  # a kill leaves no half file
        print(f"{report['updates']} updates ({report['updates_from']} -> {report['updates_to']}) in "
              f"{report['training_seconds']} training s on {args.device} with {args.actors} actors: "
              f"{report['generated_per_s']} generated / {report['learned_per_s']} learned transitions/s, "
              f"{report['updates_per_s']} updates/s; policy in {args.out}/final.safetensors")
        return 0
    finally:
        if scratch is not None:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
