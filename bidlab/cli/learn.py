"""``bidlab data ...`` (expert auctions) and ``bidlab train sl`` (supervised policy)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from bidlab.cli._progress import progress_bar

data_app = typer.Typer(help="Expert auctions for supervised learning: generate or import.", no_args_is_help=True)
train_app = typer.Typer(help="Train networks: sl (supervised policy from expert auctions).", no_args_is_help=True)
console = Console()


@data_app.command("expert")
def data_expert(
    boards: int = typer.Option(..., min=1, help="Number of random deals to bid."),
    out: Path = typer.Option(Path("data/expert-sayc"), help="Output auction-set folder (resumes if it exists)."),
    teacher: str = typer.Option("sayc", help="Agent spec that bids all four seats (the expert)."),
    seed: int = typer.Option(0, help="Seed of the random deals."),
    shard_size: int = typer.Option(5000, min=1, help="Boards per shard, the unit of resuming."),
    workers: int = typer.Option(2, min=1, help="Worker processes."),
) -> None:
    """Bid random deals with four expert bots and store every (state, call) pair."""
    from bidlab.learn.data import generate_expert

    with progress_bar(console) as bar:
        task = bar.add_task("bidding", total=boards, info="boards")
        aset = generate_expert(out, boards, teacher=teacher, seed=seed, shard_size=shard_size, workers=workers,
                               progress=lambda d, t: bar.update(task, completed=d))
    console.print(f"{len(aset)} boards in {out}")


@data_app.command("import-openspiel")
def data_import_openspiel(
    file: Path = typer.Argument(..., help="OpenSpiel-format trajectories: one game per line of action ids."),
    out: Path = typer.Option(..., help="Output auction-set folder."),
) -> None:
    """Import OpenSpiel-format bridge games (e.g. the WBridge5 set of Qiu et al.)."""
    from bidlab.learn.data import import_openspiel

    aset = import_openspiel(file, out)
    console.print(f"imported {len(aset)} auctions into {out}")


@data_app.command("import-pbn")
def data_import_pbn(
    file: Path = typer.Argument(..., help="PBN file whose boards carry auctions."),
    out: Path = typer.Option(..., help="Output auction-set folder."),
) -> None:
    """Import the auctions of a PBN file."""
    from bidlab.learn.data import import_pbn

    aset = import_pbn(file, out)
    console.print(f"imported {len(aset)} auctions into {out}")


@train_app.command("sl")
def train_sl_cmd(
    data: list[Path] = typer.Option(..., "--data", help="Auction-set folder(s) to learn from."),
    out: Path = typer.Option(Path("runs/sl"), help="Run folder: checkpoints, TensorBoard logs, model."),
    preset: str = typer.Option("cpu", help="Network preset: cpu (4 x 512), paper (4 x 2048), tiny."),
    epochs: int = typer.Option(8, min=1, help="Passes over the training pairs."),
    lr: float = typer.Option(1e-4, help="Adam learning rate (paper: 1e-4)."),
    batch_size: int = typer.Option(512, min=1, help="Batch size (paper: 512)."),
    seed: int = typer.Option(0, help="Seed of initialisation and batch order."),
    device: str = typer.Option("cpu", help="Torch device: cpu, cuda, cuda:1 ..."),
    checkpoint_every: int = typer.Option(1000, min=1, help="Steps between checkpoints."),
    max_steps: int = typer.Option(None, help="Stop after this many steps (quick runs)."),
    init: str = typer.Option(None, help="Start from this saved policy (fine-tuning), e.g. sl or runs/sl/model."),
    threads: int = typer.Option(1, min=1, help="Torch CPU threads. 1 is fastest on a busy 2-core machine "
                                "(measured 4-15x faster than 2 under load); raise it on an idle many-core one."),
) -> None:
    """Supervised learning of the policy net (Qiu et al. Sec. III): cross-entropy against the
    expert's calls, held-out accuracy every epoch. Rerun the same command to resume."""
    import torch

    from bidlab.learn.sl import SLConfig, train_sl

    if threads:
        torch.set_num_threads(threads)
    init_path = None
    if init:
        from bidlab.agents.neural import resolve_model

        init_path = str(resolve_model(init))
    cfg = SLConfig(preset=preset, lr=lr, batch_size=batch_size, epochs=epochs, seed=seed, device=device,
                   checkpoint_every=checkpoint_every, max_steps=max_steps, init=init_path)
    with progress_bar(console) as bar:
        task = bar.add_task("epoch 1", total=None, info="")

        def show(ev: dict) -> None:
            if "epoch_done" in ev:
                console.print(f"epoch {ev['epoch_done']}: held-out accuracy {ev['accuracy']:.4f} "
                              f"(loss {ev['loss']:.4f}, {ev['pairs']} pairs)")
            else:
                bar.update(task, description=f"epoch {ev['epoch'] + 1}", total=ev["steps_per_epoch"],
                           completed=ev["step_in_epoch"],
                           info=f"loss {ev['loss']:.3f}  {ev['pairs_per_s']:.0f} pairs/s")

        state = train_sl([str(d) for d in data], out, cfg, progress=show)
    best = state["best_accuracy"]
    console.print(f"best held-out accuracy {best:.4f}; model: {out}/model.safetensors")


@train_app.command("accuracy")
def train_accuracy(
    model: str = typer.Argument(..., help="Model file or shipped model name (e.g. sl)."),
    data: Path = typer.Option(..., "--data", help="Auction-set folder with the expert's calls."),
    all_boards: bool = typer.Option(False, "--all", help="Score every board (for a set the model never saw); "
                                    "by default only the held-out boards (every 20th)."),
) -> None:
    """Accuracy of a policy against the expert's calls: greedy call == expert call."""
    from bidlab.agents.neural import resolve_model
    from bidlab.learn.sl import heldout_accuracy

    m = heldout_accuracy(resolve_model(model), data, None if all_boards else 20)
    console.print(f"accuracy {m['accuracy']:.4f} over {m['pairs']} calls (cross-entropy {m['loss']:.4f})")


@train_app.command("belief")
def train_belief_cmd(
    out: Path = typer.Option(Path("runs/belief"), help="Run folder: data, checkpoints, model."),
    policy: str = typer.Option("sl", help="Policy whose self-play (sample mode) makes the data, e.g. sl or rl."),
    deals: int = typer.Option(20000, min=100, help="TRAIN deals of the shipped DD store to bid."),
    preset: str = typer.Option("cpu", help="Network preset: cpu (4 x 512), paper (4 x 1024), tiny."),
    epochs: int = typer.Option(3, min=1, help="Passes over the pairs."),
    lr: float = typer.Option(3e-4, help="Adam learning rate (authors: 3e-4)."),
    batch_size: int = typer.Option(256, min=1, help="Batch size (authors: 256)."),
    seed: int = typer.Option(0, help="Seed of deals, self-play, initialisation and batch order."),
    checkpoint_every: int = typer.Option(500, min=1, help="Steps between checkpoints."),
    max_steps: int = typer.Option(None, help="Stop after this many steps (quick runs)."),
    threads: int = typer.Option(1, min=1, help="Torch CPU threads."),
) -> None:
    """Belief network (Qiu et al. Sec. V): 480 -> 156 sigmoids (LHO, partner, RHO hands),
    binary cross-entropy on self-play pairs. Rerun the same command to resume."""
    import torch

    from bidlab.learn.belief import BeliefConfig, train_belief

    torch.set_num_threads(threads)
    cfg = BeliefConfig(policy=policy, preset=preset, deals=deals, lr=lr, batch_size=batch_size, epochs=epochs,
                       seed=seed, checkpoint_every=checkpoint_every, max_steps=max_steps)
    with progress_bar(console) as bar:
        task = bar.add_task("epoch 1", total=None, info="")

        def show(ev: dict) -> None:
            if "message" in ev:
                console.print(ev["message"])
            elif "epoch_done" in ev:
                console.print(f"epoch {ev['epoch_done']}: held-out cross-entropy {ev['heldout_bce']:.4f} "
                              f"({ev['pairs']} training pairs)")
            else:
                bar.update(task, description=f"epoch {ev['epoch'] + 1}", total=ev["steps_per_epoch"],
                           completed=ev["step_in_epoch"],
                           info=f"bce {ev['loss']:.4f}  {ev['pairs_per_s']:.0f} pairs/s")

        state = train_belief(out, cfg, progress=show)
    console.print(f"best held-out cross-entropy {state['best_bce']:.4f}; model: {out}/model.safetensors")


@train_app.command("tricks")
def train_tricks_cmd(
    out: Path = typer.Option(Path("runs/tricks"), help="Run folder: checkpoints, model."),
    epochs: int = typer.Option(8, min=1, help="Passes over the TRAIN split (each deal in 4 rotations)."),
    hidden: int = typer.Option(512, min=8, help="Width of the hidden layers."),
    layers: int = typer.Option(3, min=1, help="Hidden layers."),
    seed: int = typer.Option(0, help="Seed of initialisation and batch order."),
    threads: int = typer.Option(1, min=1, help="Torch CPU threads."),
) -> None:
    """DD trick estimator for search: deal -> 20 trick distributions, trained on the shipped
    DD store (TRAIN split), mean absolute trick error on VALIDATION. Rerun to resume."""
    import torch

    from bidlab.learn.tricks import TrickNetConfig, train_tricknet

    torch.set_num_threads(threads)
    cfg = TrickNetConfig(hidden=hidden, layers=layers, epochs=epochs, seed=seed)
    with progress_bar(console) as bar:
        task = bar.add_task("epoch 1", total=None, info="")

        def show(ev: dict) -> None:
            if "epoch_done" in ev:
                console.print(f"epoch {ev['epoch_done']}: validation mean absolute trick error {ev['validation_mae']:.3f}")
            else:
                bar.update(task, description=f"epoch {ev['epoch'] + 1}", total=ev["steps"], completed=ev["step"],
                           info=f"loss {ev['loss']:.3f}  {ev['deals_per_s']:.0f} deals/s")

        state = train_tricknet(out, cfg, progress=show)
    console.print(f"best validation mean absolute trick error {state['best_mae']:.3f}; model: {out}/model.safetensors")
