"""``bidlab dd``: double-dummy tables, par, and the deal store (generate, import, verify, info)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console
from rich.table import Table

from bidlab.cli._stop import stopped
from bidlab.cli._style import suits_in_colour
from bidlab.errors import BidlabError

app = typer.Typer(help="Double dummy: DD tables and par, and the on-disk deal store.", no_args_is_help=True)
console = Console(soft_wrap=True, markup=False)
err_console = Console(stderr=True, soft_wrap=True)


def _fail(e: BidlabError) -> None:
    err_console.print(f"[red]error:[/red] {e}", highlight=False)
    raise typer.Exit(2)


@app.command()
def table(
    deal: str = typer.Argument(..., help="PBN deal, e.g. 'N:AKQ2.J3.T98.7654 ...' (hands clockwise from the named seat)."),
    vul: str = typer.Option("none", help="Vulnerable side(s) for par: none, ns, ew, all."),
    dealer: str = typer.Option("N", help="Dealer for par: N, E, S or W."),
) -> None:
    """Print a deal's double-dummy table (tricks per declarer and strain) and its par."""
    from bidlab.bridge.board import Vulnerability
    from bidlab.cards import Deal, Seat
    from bidlab.dd import dd_table, par

    try:
        d = Deal.parse(deal)
        v = Vulnerability.parse(vul)
        s = Seat.parse(dealer)
        t = dd_table(d)
        p = par(t, v, s)
    except BidlabError as e:
        _fail(e)
    out = Table(title=f"Double dummy: {d.to_pbn()}", title_justify="left")
    out.add_column("declarer")
    for name in ("♣", "♦", "♥", "♠", "NT"):
        out.add_column(suits_in_colour(name), justify="right")
    for seat in Seat:
        out.add_row(seat.full_name, *(str(int(x)) for x in t[seat]))
    console.print(out)
    console.print(suits_in_colour(f"{p.to_str(symbols=True)} (dealer {s.full_name}, vulnerable: {v.pbn})"),
                  highlight=False)


@app.command()
def generate(
    deals: int = typer.Option(..., "--deals", "-n", min=1, help="Total deals the store should hold when done."),
    out: Path = typer.Option(..., "--out", "-o", help="Store directory (created if missing; extended if it exists)."),
    seed: int = typer.Option(0, min=0, help="Random seed; a store keeps the seed it was made with."),
    shard_size: int = typer.Option(1000, min=1, help="Deals per shard: the most work a kill can lose."),
    threads: int = typer.Option(0, min=0, help="DDS threads (per shard task with --backend ray, where 0 means 1); "
                                "0 = every core. Use 1 to leave a core free."),
    backend: str = typer.Option("local", help="Where shards are solved: local (here, one shard at a time) "
                                "or ray (shards as parallel Ray tasks; same store)."),
    ray_address: str = typer.Option(None, help="Existing Ray cluster (HOST:PORT or auto) for --backend ray; "
                                    "default: start a local Ray instance."),
    workers: int = typer.Option(2, min=1, help="Shards solved at once with --backend ray."),
) -> None:
    """Deal random boards, solve their DD tables and append them to a store, shard by shard.

    Resumable: stop it (Ctrl-C, kill) and run the same command again; finished shards
    are kept and the interrupted one is recomputed with the same deals.
    """
    from bidlab.dd.generate import GenerateConfig
    from bidlab.dd.generate import generate as run
    from bidlab.runtime.executor import cli_executor
    from bidlab.runtime.progress import progress_display

    cfg = GenerateConfig(deals=deals, seed=seed, shard_size=shard_size, threads=threads)
    try:
        executor = cli_executor(backend, workers, ray_address)
        with progress_display(err_console) as display:
            store = run(out, cfg, progress=_Announced(display.task("solving deals"), out),
                        executor=executor if backend == "ray" else None)
    except BidlabError as e:
        _fail(e)
    except KeyboardInterrupt:
        stopped(err_console, "stopped; finished shards are saved; run the same command to resume")
    console.print(f"{store.path}: {len(store)} deals in {len(store.shards)} shards "
                  f"(train {store.count('train')}, validation {store.count('validation')}, test {store.count('test')})",
                  highlight=False)


class _Announced:
    """Progress that first says where a resumed run starts."""

    def __init__(self, task, out: Path):
        self.task, self.out = task, out

    def start(self, total, done=0) -> None:
        err_console.print(f"{self.out}: {done} deals present, {total - done} to solve", highlight=False)
        self.task.start(total, done)

    def advance(self, n=1) -> None:
        self.task.advance(n)

    def note(self, text) -> None:
        self.task.note(text)


@app.command("import")
def import_(
    files: list[Path] = typer.Argument(..., help="Solved shard files (.npz with 'deals' and 'dd'), shard 0 first."),
    out: Path = typer.Option(..., "--out", "-o", help="Store directory to import into."),
    seed: int = typer.Option(..., min=0, help="Seed the files were generated with (their deals are checked against it)."),
    shard_size: int = typer.Option(..., help="Deals per shard in the files."),
) -> None:
    """Adopt shards solved elsewhere by the same generator recipe (every deal is checked)."""
    from bidlab.dd.generate import import_npz_shards

    try:
        store = import_npz_shards(out, sorted(files), seed=seed, shard_size=shard_size, source="imported ")
    except BidlabError as e:
        _fail(e)
    console.print(f"{store.path}: {len(store)} deals in {len(store.shards)} shards", highlight=False)


@app.command()
def verify(
    store_dir: Path = typer.Argument(..., metavar="DIR", help="Store directory."),
    sample: int = typer.Option(200, "--sample", "-k", min=0, help="Random (deal, declarer, strain) entries to re-solve."),
    seed: int = typer.Option(0, min=0, help="Seed choosing the entries."),
) -> None:
    """Check every shard (checksum, shapes, values), then re-solve K random entries with DDS.

    Entries are re-solved as single contracts (DDS SolveBoard), a different DDS path from
    the full tables (CalcAllTables) the store was filled with. Exit code 1 on any mismatch.
    """
    import numpy as np

    from bidlab.dd import DealStore, solve_contracts

    try:
        store = DealStore.open(store_dir)
        deals, dd, ids = store.load("all")
        console.print(f"{store_dir}: {len(store.shards)} shards, {len(ids)} deals, checksums and values OK",
                      highlight=False)
        if sample == 0 or len(ids) == 0:
            return
        rng = np.random.default_rng(seed)
        rows = rng.integers(0, len(ids), sample)
        decl = rng.integers(0, 4, sample)
        strain = rng.integers(0, 5, sample)
        fresh = solve_contracts(deals[rows], decl, strain)
    except BidlabError as e:
        _fail(e)
    stored = dd[rows, decl, strain]
    bad = np.flatnonzero(fresh != stored)
    for i in bad[:20]:
        console.print(f"mismatch: deal id {ids[rows[i]]}, declarer {'NESW'[decl[i]]}, "
                      f"strain {['C', 'D', 'H', 'S', 'NT'][strain[i]]}: stored {stored[i]}, DDS {fresh[i]}")
    console.print(f"re-solved {sample} random entries: {sample - len(bad)} agree, {len(bad)} mismatch",
                  highlight=False)
    if len(bad):
        raise typer.Exit(1)


@app.command()
def info(store_dir: Path = typer.Argument(None, metavar="[DIR]", help="Store directory (default: the shipped store).")) -> None:
    """Summarise a store: shards, deals per split, generator settings."""
    from bidlab.dd import DealStore, shipped_store_path

    try:
        store = DealStore.open(store_dir or shipped_store_path())
    except BidlabError as e:
        _fail(e)
    console.print(f"{store.path}: {len(store)} deals in {len(store.shards)} shards; train {store.count('train')}, "
                  f"validation {store.count('validation')}, test {store.count('test')}; generator {store.generator}",
                  highlight=False)
