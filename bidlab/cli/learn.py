"""``bidlab data ...`` (expert auctions) and ``bidlab train sl`` (supervised policy)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from bidlab.errors import BidlabError
from bidlab.runtime.progress import from_counts, progress_display

data_app = typer.Typer(help="Expert auctions for supervised learning: generate or import.", no_args_is_help=True)
train_app = typer.Typer(help="Train networks: sl (supervised policy from expert auctions).", no_args_is_help=True)
console = Console()


class DeviceError(BidlabError):
    """A torch device that this installation of torch cannot use."""


def check_device(device: str) -> str:
    """``device`` if torch can compute on it here, else a :class:`DeviceError` that says why.

    Checked before any data is read or any run folder is written."""
    import torch

    try:
        dev = torch.device(device)
    except (RuntimeError, ValueError) as e:
        raise DeviceError(f"not a torch device: {device!r} ({e}); use cpu, cuda or cuda:N") from None
    if dev.type == "cpu":
        return device
    if dev.type == "cuda":
        if torch.version.cuda is None:
            raise DeviceError(f"--device {device}: this torch ({torch.__version__}) is a CPU-only build without "
                              "CUDA; use --device cpu, or install a CUDA build of torch")
        n = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if n == 0:
            raise DeviceError(f"--device {device}: torch was built with CUDA {torch.version.cuda} but finds no "
                              "CUDA device here; use --device cpu")
        if dev.index is not None and dev.index >= n:
            raise DeviceError(f"--device {device}: only {n} CUDA device(s) here (cuda:0..cuda:{n - 1})")
        return device
    if dev.type == "mps" and not torch.backends.mps.is_available():
        raise DeviceError(f"--device {device}: Apple's MPS is not available here; use --device cpu")
    return device


@data_app.command("expert")
def data_expert(
    boards: int = typer.Option(..., min=1, help="Number of random deals to bid."),
    out: Path = typer.Option(Path("data/expert-sayc"), help="Output auction-set folder (resumes if it exists)."),
    teacher: str = typer.Option("sayc", help="Agent spec that bids all four seats (the expert)."),
    seed: int = typer.Option(0, min=0, help="Seed of the random deals."),
    shard_size: int = typer.Option(5000, min=1, help="Boards per shard, the unit of resuming."),
    workers: int = typer.Option(2, min=1, help="Worker processes."),
) -> None:
    """Bid random deals with four expert bots and store every (state, call) pair."""
    from bidlab.agents.specs import check_agent_spec
    from bidlab.learn.data import generate_expert

    teacher = check_agent_spec(teacher)
    with progress_display(console) as display:
        aset = generate_expert(out, boards, teacher=teacher, seed=seed, shard_size=shard_size, workers=workers,
                               progress=from_counts(display.task("bidding boards")))
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
    seed: int = typer.Option(0, min=0, help="Seed of initialisation and batch order."),
    device: str = typer.Option("cpu", help="Torch device: cpu, cuda, cuda:1 ..."),
    checkpoint_every: int = typer.Option(1000, min=1, help="Steps between checkpoints."),
    max_steps: int = typer.Option(None, help="Stop after this many steps (quick runs)."),
    init: str = typer.Option(None, help="Start from this saved policy (fine-tuning), e.g. sl or runs/sl/model."),
    threads: int = typer.Option(1, min=1, help="Torch CPU threads. 1 is often fastest when other jobs share "
                                "the cores; raise it on an idle many-core machine."),
) -> None:
    """Supervised learning of the policy net (Qiu et al. Sec. III): cross-entropy against the
    expert's calls on the train boards, validation accuracy every epoch (boards with
    id % 10 == 1; id % 10 == 0 is the test split, never trained on). Rerun the same command
    to resume."""
    import torch

    from bidlab.learn.data import AuctionSet
    from bidlab.learn.sl import SLConfig, train_sl
    from bidlab.nets import preset as net_preset

    check_device(device)
    for d in data:  # every input is checked before the run folder is made
        AuctionSet.open(d)
    if threads:
        torch.set_num_threads(threads)
    init_path = None
    if init:
        from bidlab.agents.neural import resolve_model

        init_path = str(resolve_model(init))
    cfg = SLConfig(net=net_preset("policy", preset), lr=lr, batch_size=batch_size, epochs=epochs, seed=seed, device=device,
                   checkpoint_every=checkpoint_every, max_steps=max_steps, init=init_path)
    def show(ev: dict) -> None:
        console.print(f"epoch {ev['epoch_done']}: validation accuracy {ev['accuracy']:.4f} "
                      f"(loss {ev['loss']:.4f}, {ev['pairs']} pairs)", highlight=False)

    with progress_display(console) as display:
        state = train_sl([str(d) for d in data], out, cfg, progress=display.task("training steps"), on_epoch=show)
    best = state["best_accuracy"]
    console.print(f"best validation accuracy {best:.4f}; model: {out}/model.safetensors", highlight=False)


@train_app.command("accuracy")
def train_accuracy(
    model: str = typer.Argument(..., help="Model file or shipped model name (e.g. sl)."),
    data: Path = typer.Option(..., "--data", help="Auction-set folder with the expert's calls."),
    all_boards: bool = typer.Option(False, "--all", help="Score every board (for a set the model never saw); "
                                    "by default only the test boards (id % 10 == 0), never trained on."),
) -> None:
    """Accuracy of a policy against the expert's calls: greedy call == expert call."""
    from bidlab.agents.neural import resolve_model
    from bidlab.learn.sl import heldout_accuracy

    m = heldout_accuracy(resolve_model(model), data, "all" if all_boards else "test")
    console.print(f"accuracy {m['accuracy']:.4f} over {m['pairs']} calls (cross-entropy {m['loss']:.4f})")
