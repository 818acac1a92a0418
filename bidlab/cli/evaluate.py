"""``bidlab match``, ``bidlab report`` and ``bidlab agree``: duplicate matches, their plots,
and readability (agreement with SAYC's calls)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from bidlab.cli import app
from bidlab.cli.results import register_option
from bidlab.runtime.progress import from_counts, plural, progress_display

console = Console()


@app.command()
def match(
    agent_a: str = typer.Argument(..., help="Agent A spec: random, random:SEED, sayc, nn:PATH, punish:SPEC "
                                 "(SPEC doubling by the doubling judge) ...; also oracle-punish:SPEC[?down=2], a "
                                 "diagnostic that peeks at the deal to double contracts going down (match only)."),
    agent_b: str = typer.Argument(..., help="Agent B spec (the opponent)."),
    split: str = typer.Option("test", help="Deal split to play: test (default, never trained on), validation, train."),
    boards: int = typer.Option(200, min=1, help="Number of boards; each is bid at two tables."),
    seed: int = typer.Option(0, min=0, help="Seed for the deal sample and the agents' randomness."),
    out: Path = typer.Option(None, help="Output folder (default results/match-A-vs-B-SPLIT-N-sSEED)."),
    store: Path = typer.Option(None, help="Deal store folder (default: the store shipped with bidlab)."),
    workers: int = typer.Option(2, min=1, help="Worker processes (or Ray tasks) running chunks in parallel."),
    backend: str = typer.Option("local", help="Where chunks are played: local (worker processes here) or ray "
                                "(Ray tasks; same results)."),
    ray_address: str = typer.Option(None, help="Existing Ray cluster (HOST:PORT or auto) for --backend ray; "
                                    "default: start a local Ray instance."),
    chunk_size: int = typer.Option(None, min=1, help="Boards per chunk: the unit of progress and of what Ctrl-C "
                                   "keeps (default: 50, or 2 when an agent searches at each call or the hands are "
                                   "played out; a stored match keeps its own)."),
    register: str = register_option(),
    scoring: str = typer.Option("dd", help="dd: declarer takes its double-dummy tricks (fast); played: every "
                                "contract is also played out by single-dummy bots and scored by the tricks taken "
                                "(SLOW: every table is played card by card, seconds a table, so a 500-board match takes an "
                                "hour or more; shows each board played and resumes after a kill; prints both results "
                                "and their paired difference)."),
    card_player: str = typer.Option("sd:fast", help="Card player for --scoring played: sd:fast, sd:strong, sd:N."),
) -> None:
    """Play a duplicate match scored by double dummy (or played out); prints IMPs/board for A ± SE.

    Each board is bid at two tables (A sits NS at one, EW at the other); each contract is
    scored with declarer taking its double-dummy tricks, or with --scoring played by the
    tricks single-dummy bots take playing it out (slow). Rerunning the same command resumes
    an interrupted match."""
    from bidlab.agents.specs import check_agent_spec
    from bidlab.cli import _stop
    from bidlab.eval.doubled import doubled_contracts, doubled_line
    from bidlab.eval.fingerprint import agent_fingerprint
    from bidlab.eval.match import (
        Match,
        MatchConfig,
        default_chunk_size,
        match_folder,
        stored_chunk_size,
        stored_prefix,
        summarize,
    )
    from bidlab.runtime.executor import cli_executor

    # Both agents are built once before the output folder is made, so a bad spec leaves nothing.
    agent_a, agent_b = check_agent_spec(agent_a), check_agent_spec(agent_b)
    if scoring not in ("dd", "played"):
        raise typer.BadParameter(f"must be dd or played, got {scoring!r}", param_hint="--scoring")
    if scoring == "played":
        from bidlab.search.cardplay import CardPlayError
        from bidlab.search.cardplay import card_player as make_card_player

        try:
            if make_card_player(card_player).peeks:
                raise typer.BadParameter(f"{card_player!r} peeks at the hidden hands; use a single-dummy player",
                                         param_hint="--card-player")
        except CardPlayError as e:
            raise typer.BadParameter(str(e), param_hint="--card-player") from None
    executor = cli_executor(backend, workers, ray_address)
    store_s = None if store is None else str(store)
    player = card_player if scoring == "played" else "sd:fast"
    if out is None:
        out = match_folder(MatchConfig(agent_a, agent_b, split, boards, seed, store_s, scoring=scoring,
                                       card_player=player))
    chunk_size = chunk_size or stored_chunk_size(out) or default_chunk_size(agent_a, agent_b, scoring)
    cfg = MatchConfig(agent_a, agent_b, split, boards, seed, store_s, chunk_size, scoring, player)
    prefix = stored_prefix(out, cfg)
    if prefix is not None:  # the first boards of a larger stored match: read, nothing played or written
        console.print(f"read the first {plural(boards, 'board')} of the larger match stored in {out} "
                      "(the same deals, seeds and agents)", highlight=False)
        summary = summarize(prefix, agent_a, agent_b)
        console.print(summary.line(), highlight=False)
        console.print(doubled_line(doubled_contracts(prefix, agent_a, agent_b)), highlight=False)
        if register:
            from bidlab.eval.measurements import record_match

            fps = {agent_a: agent_fingerprint(agent_a), agent_b: agent_fingerprint(agent_b)}
            console.print(f"registered {record_match(register, cfg, summary, fps).name} in the results registry",
                          highlight=False)
        return
    m = Match(cfg, out)
    already = m.boards_done()
    if already:
        console.print(f"resuming {out}: {already} of {plural(boards, 'board')} already played",
                      highlight=False)
    try:
        with progress_display(console) as display:
            task = display.task("match boards")
            summary = m.run(workers=workers, progress=from_counts(task), executor=executor, note=task.note)
    except KeyboardInterrupt:
        kept = m.boards_done()
        _stop.stopped(Console(stderr=True, soft_wrap=True),
                      f"stopped; {kept} of {plural(boards, 'board')} finished and saved; rerun the same command to "
                      "resume" if kept else "stopped; no board had finished, so nothing was saved")
    console.print(summary.line(), highlight=False)
    console.print(doubled_line(doubled_contracts(m.records(), agent_a, agent_b)), highlight=False)
    console.print(f"results: {out}/results.jsonl, auctions: {out}/auctions.pbn", highlight=False)
    if register:
        from bidlab.eval.measurements import record_match

        entry = record_match(register, cfg, summary, {cfg.agent_a: m.fingerprints["a"],
                                                      cfg.agent_b: m.fingerprints["b"]})
        console.print(f"registered {entry.name} in the results registry", highlight=False)


@app.command()
def report(
    results: list[Path] = typer.Argument(..., help="Match folders or results.jsonl files written by `bidlab match`."),
    out: Path = typer.Option(Path("results/report"), help="Folder for the PNG plots and summary.md."),
) -> None:
    """Write plots and a Markdown summary of matches.

    Opening-bid and final-contract heatmaps, auction lengths, SAYC opening conformity and
    the distribution of IMP swings."""
    from bidlab.eval.report import build_report

    md = build_report([str(p) for p in results], out)
    console.print(f"wrote {md} and {len(list(Path(out).glob('*.png')))} plots in {out}", highlight=False)


@app.command()
def agree(
    agent: str = typer.Argument(..., help="Agent spec to measure: nn:sl, nn:rl, sayc+nn:rl, bmcs:sl ..."),
    reference: str = typer.Option("sayc", "--with", help="Agent spec whose calls count as the system's "
                                  "(default sayc)."),
    deals: int = typer.Option(2000, min=1, help="Fresh random deals to bid (self-play, the agent at all four seats)."),
    seed: int = typer.Option(0, min=0, help="Seed of the fresh deals (and of the agents' randomness)."),
    register: str = register_option(),
) -> None:
    """Readability: how often AGENT makes the call the reference (SAYC) would make.

    AGENT bids self-play auctions on fresh seeded deals (neither the test split nor training
    deals); at each of its decisions the reference is asked what it would call there.
    Prints agreement over all decisions and over those after the first round, with counts.
    Unlike `bidlab train accuracy`, which scores a net on the teacher's own auctions, this
    scores the agent in the positions its own bidding leads to. Writes no files."""
    from bidlab.agents.specs import check_agent_spec
    from bidlab.eval.agreement import agreement

    agent, reference = check_agent_spec(agent), check_agent_spec(reference)
    with console.status(f"bidding {deals} deals"):
        result = agreement(agent, reference, deals=deals, seed=seed)
    console.print(result.line(), highlight=False)
    if register:
        from bidlab.eval.measurements import record_agreement

        entry = record_agreement(register, result)
        console.print(f"registered {entry.name} in the results registry", highlight=False)


@app.command()
def leaks(
    agent_a: str = typer.Argument(None, help="Agent A spec (e.g. sayc); leave out with --results."),
    agent_b: str = typer.Argument(None, help="Agent B spec, the opponent (e.g. nn:rl); leave out with --results."),
    focus: str = typer.Option(None, help="The agent whose calls are grouped into families (default: A)."),
    results: Path = typer.Option(None, help="Read a finished `bidlab match` folder instead of playing one."),
    split: str = typer.Option("test", help="Deal split to play: test (default, never trained on), validation, train."),
    boards: int = typer.Option(4000, help="Number of boards to play; each is bid at two tables."),
    seed: int = typer.Option(0, help="Seed for the deal sample and the agents' randomness."),
    out: Path = typer.Option(None, help="Match folder to play into (default: the one `bidlab match` uses, "
                             "so a match already played is read, not replayed)."),
    store: Path = typer.Option(None, help="Deal store folder (default: the store shipped with bidlab)."),
    workers: int = typer.Option(2, help="Worker processes playing the match."),
    top: int = typer.Option(15, help="Families to print."),
    examples: int = typer.Option(3, help="Example boards (the focus agent's worst) per printed family."),
    markdown: Path = typer.Option(None, help="Also write the table and examples to this Markdown file."),
    contracts: int = typer.Option(10, help="Rows of the contract account: with the same cards, the contract "
                                  "each pair reached (we game made / we slam made is a missed slam), ranked by "
                                  "IMPs lost; 0 leaves it out."),
) -> None:
    """Find where an agent loses IMPs: charge each board's swing to the first call where the
    two tables' auctions part, and rank the families of those calls (SAYC rules for sayc,
    auction patterns for other agents) by IMPs lost per 100 boards. Then the contract
    account: the same boards by the contract each pair reached with the same cards."""
    from bidlab.eval.contracts import contract_account
    from bidlab.eval.leaks import LeakError, leak_table
    from bidlab.eval.match import Match, MatchConfig, load_results

    # Every option is checked before the match folder is made.
    for name, value, low in (("--boards", boards, 1), ("--seed", seed, 0), ("--workers", workers, 1),
                             ("--top", top, 1), ("--examples", examples, 0), ("--contracts", contracts, 0)):
        if value < low:
            raise LeakError(f"{name} must be >= {low}, got {value}")
    if split not in ("train", "validation", "test"):
        raise LeakError(f"--split must be train, validation or test, got {split!r}")
    if results is not None:
        if agent_a is not None or agent_b is not None:
            raise LeakError("give either --results or the two agents to play, not both")
        header, recs = load_results(results)
        agent_a, agent_b = header["config"]["agent_a"], header["config"]["agent_b"]
    else:
        if agent_a is None or agent_b is None:
            raise LeakError("name the two agents to play (e.g. `bidlab leaks sayc nn:rl`) or give --results")
        from bidlab.agents.specs import check_agent_spec

        agent_a, agent_b = check_agent_spec(agent_a), check_agent_spec(agent_b)
    if focus is not None and focus.strip() not in (agent_a, agent_b):
        raise LeakError(f"--focus must be one of the match's agents ({agent_a!r} or {agent_b!r}), got {focus!r}")
    if agent_a == agent_b:
        raise LeakError(f"both agents are {agent_a!r}: a match against itself has no swings to attribute")
    if markdown is not None and markdown.is_dir():
        raise LeakError(f"--markdown must be a file path, got the folder {markdown}")
    if markdown is not None and not markdown.resolve().parent.is_dir():
        raise LeakError(f"--markdown: the folder {markdown.parent} does not exist")
    with progress_display(console) as display:
        if results is None:
            cfg = MatchConfig(agent_a, agent_b, split, boards, seed, None if store is None else str(store))
            if out is None:
                safe = lambda s: "".join(ch if ch.isalnum() else "_" for ch in s)[:40]  # noqa: E731
                out = Path("results") / f"match-{safe(agent_a)}-vs-{safe(agent_b)}-{split}-{boards}-s{seed}"
            m = Match(cfg, out)
            m.run(workers=workers, progress=from_counts(display.task("match boards")))
            recs = m.records()
        table = leak_table(recs, agent_a, agent_b, focus, examples, progress=display.task("attributing swings"))
    text = table.markdown(top, examples)
    if contracts:
        focus_is_a = focus is None or focus.strip() == agent_a
        text += "\n" + contract_account(recs, agent_a, agent_b, focus_is_a).markdown(contracts)
    console.print(text, highlight=False, markup=False)
    if markdown is not None:
        from bidlab.fileio import write_text_atomic

        write_text_atomic(markdown, text)
        console.print(f"wrote {markdown}", highlight=False)
