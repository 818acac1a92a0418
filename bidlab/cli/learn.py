"""``bidlab data ...`` (expert auctions) and ``bidlab train sl`` (supervised policy)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.console import Console

from bidlab.cli._checks import OptionError, check_output_file, check_output_folder, check_positive
from bidlab.errors import BidlabError
from bidlab.runtime.progress import from_counts, plural, progress_display
from bidlab.runtime.stats import Estimate

data_app = typer.Typer(help="Expert auctions for supervised learning: generate or import.", no_args_is_help=True)
train_app = typer.Typer(help="Train networks: sl (supervised policy from expert auctions), rl (A2C self-play).",
                         no_args_is_help=True)
console = Console()


def check_device(device: str) -> str:
    """``device`` if torch can compute on it here (:func:`bidlab.nets.device.check_device`),
    checked before any data is read or any run folder is written."""
    from bidlab.nets.device import check_device as check  # torch loads on use, so `bidlab --help` starts fast

    return check(device)


def _say_resuming(out: Path, state: dict | None = None) -> None:
    """A rerun says that it goes on from a checkpoint, and from where (state.json's counters)."""
    import json

    if not (Path(out) / "checkpoint.safetensors").exists():
        return
    if state is None:
        try:
            state = json.loads((Path(out) / "state.json").read_text())
        except (OSError, ValueError):
            state = {}
    where = ", ".join(f"{k} {state[k]}" for k in ("updates", "step") if isinstance(state.get(k), int))
    console.print(f"resuming {out} from its checkpoint{': ' + where if where else ''}", highlight=False)


@data_app.command("expert")
def data_expert(
    boards: int = typer.Option(..., min=1, help="Number of random deals to bid."),
    out: Path = typer.Option(Path("data/expert-sayc"), help="Output auction-set folder (resumes if it exists)."),
    teacher: str = typer.Option("sayc", help="Agent spec that bids all four seats (the expert): any bidlab agent, "
                                "e.g. sayc, nn:rl, bmcs:rl."),
    seed: int = typer.Option(0, min=0, help="Seed of the random deals."),
    shard_size: int = typer.Option(5000, min=1, help="Boards per shard, the unit of resuming."),
    workers: int = typer.Option(2, min=1, help="Worker processes."),
) -> None:
    """Bid random deals with four expert bots and store every (state, call) pair."""
    import bidlab.search  # noqa: F401  (registers bmcs:, mcs: and jps:, here and, by name, in the workers)
    from bidlab.agents.specs import check_agent_spec
    from bidlab.learn.data import generate_expert

    teacher = check_agent_spec(teacher)
    with progress_display(console) as display:
        count = from_counts(display.task("bidding boards"))
        first = [True]

        def progress(done: int, total: int) -> None:
            if first[0] and done:  # the first report comes after the folder was checked to be this job's
                console.print(f"resuming {out}: {done} of {plural(total, 'board')} already bid", highlight=False)
            first[0] = False
            count(done, total)

        aset = generate_expert(out, boards, teacher=teacher, seed=seed, shard_size=shard_size, workers=workers,
                               progress=progress,
                               agent_modules=("bidlab.search",))
    console.print(f"{plural(len(aset), 'board')} in {out}")


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
    max_steps: int = typer.Option(None, min=1, help="Stop after this many steps (quick runs)."),
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

    # every option and input is checked before the run folder is made
    check_positive(lr, "--lr")
    check_output_folder(out)
    check_device(device)
    try:
        net_cfg = net_preset("policy", preset)
    except BidlabError as e:
        raise OptionError(f"--preset: {e}") from None
    for d in data:
        AuctionSet.open(d)
    if threads:
        torch.set_num_threads(threads)
    init_path = None
    if init:
        from bidlab.agents.neural import resolve_model

        init_path = str(resolve_model(init.removeprefix("nn:"), kind="policy"))
    cfg = SLConfig(net=net_cfg, lr=lr, batch_size=batch_size, epochs=epochs, seed=seed, device=device,
                   checkpoint_every=checkpoint_every, max_steps=max_steps, init=init_path)
    def show(ev: dict) -> None:
        console.print(f"epoch {ev['epoch_done']}: validation accuracy {ev['accuracy']:.4f} "
                      f"(loss {ev['loss']:.4f}, {ev['pairs']} pairs)", highlight=False)

    _say_resuming(out)
    with progress_display(console) as display:
        state = train_sl([str(d) for d in data], out, cfg, progress=display.task("training steps"), on_epoch=show)
    if (out / "model.safetensors").exists():
        best = state["best_accuracy"]
        console.print(f"best validation accuracy {best:.4f}; model: {out}/model.safetensors", highlight=False)
    else:  # stopped by --max-steps inside the first epoch: the model is written at an epoch's end
        console.print(f"{state['step']} steps, no epoch finished yet, so no model; the checkpoint is in {out}: "
                      "rerun with a larger --max-steps (or none) to go on", highlight=False)


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


def _judge_settings(judge: str | None, weight: float, threshold: float, floor: float) -> dict:
    """``--judge``/``--judge-weight``/``--judge-threshold``/``--judge-floor`` as config fields,
    checked (the judge must load)."""
    if weight < 0:
        raise OptionError(f"--judge-weight must be >= 0, got {weight}")
    if judge is None:
        if weight > 0 or threshold != 1.0 or floor != 0.0:
            raise OptionError("--judge-weight, --judge-threshold and --judge-floor need --judge (e.g. --judge judge)")
        return {}
    if weight == 0:
        raise OptionError("--judge needs --judge-weight above 0")
    if floor > threshold:
        raise OptionError(f"--judge-floor ({floor}) must not be above --judge-threshold ({threshold})")
    from bidlab.learn.judge import load_judge

    try:
        load_judge(judge)
    except BidlabError as e:
        raise OptionError(f"--judge {judge}: {e}") from None
    return {"judge": judge, "judge_weight": weight, "judge_threshold": threshold, "judge_floor": floor}


def _anchor_settings(anchor: str | None, weight: float) -> dict:
    """``--anchor``/``--anchor-weight`` as config fields, checked (the anchor must be a policy)."""
    if weight < 0:
        raise OptionError(f"--anchor-weight must be >= 0, got {weight}")
    if anchor is None:
        if weight > 0:
            raise OptionError("--anchor-weight needs --anchor (e.g. --anchor nn:sl)")
        return {}
    from bidlab.agents.neural import load_neural_agent

    try:
        load_neural_agent(anchor.removeprefix("nn:"))
    except BidlabError as e:
        raise OptionError(f"--anchor {anchor}: {e}") from None
    return {"anchor": anchor, "anchor_weight": weight}


def _partner_settings(partner: str | None, share: float) -> dict:
    """``--partner``/``--partner-share`` as config fields, the partner's spec checked first."""
    if not 0 <= share <= 1:
        raise OptionError(f"--partner-share must be in [0, 1], got {share}")
    if partner is None:
        if share > 0:
            raise OptionError("--partner-share needs --partner (e.g. --partner sayc)")
        return {}
    from bidlab.agents.specs import check_agent_spec

    try:
        partner = check_agent_spec(partner)
    except BidlabError as e:
        raise OptionError(f"--partner: {e}") from None
    return {"partner": partner, "partner_share": share if share > 0 else 0.25}


def _league_config(fixed: str, self_share: float, snapshot_every: int, add: list[str], **exploiter):
    """The ``--league-*`` options as a :class:`LeagueConfig`, every member checked first;
    ``exploiter``: the main exploiter's settings (``exploiter_share`` ...)."""
    from bidlab.learn.a2c import RLTrainingError
    from bidlab.learn.a2c.config import LeagueConfig
    from bidlab.learn.a2c.league import check_member_spec

    members = tuple(m.strip() for m in fixed.split(",") if m.strip())
    try:
        for spec in (*members, *add):
            check_member_spec(spec)
        return LeagueConfig(fixed=members, self_share=self_share, snapshot_every=snapshot_every, **exploiter)
    except RLTrainingError as e:
        raise OptionError(str(e)) from None


def _check_eval_against(spec: str) -> None:
    from bidlab.learn.a2c import RLTrainingError
    from bidlab.learn.a2c.evaluation import evaluation_opponent

    try:
        evaluation_opponent(spec)
    except RLTrainingError as e:
        raise OptionError(f"--eval-against: {e}") from None


def _eval_name(point: dict) -> str:
    """The agent a validation result was played against (runs from before it was recorded: SL)."""
    against = point.get("against", "sl")
    return "SL" if against == "sl" else against


def _run_training(out: Path, cfg, *, init, minutes, updates, backend, ray_address, device, cpu_minutes=None, search=None,
                  keep_policies=False, league_add=(), opponent="sl", net=None, distill_steps=2000):
    """``train_rl`` under a progress bar whose line shows the validation result, throughput and,
    in a league, the learner's running IMPs against each pool member; returns the final state."""
    from bidlab.learn.a2c import train_rl
    from bidlab.learn.a2c.distill import DistillConfig

    with progress_display(console) as display:
        # the bar counts what the budget counts: updates, else CPU seconds, else wall seconds
        total = updates if updates is not None else None
        clock = "cpu_seconds" if cpu_minutes is not None else "seconds"
        task = display.task("updates" if total is not None else
                            "training CPU seconds" if clock == "cpu_seconds" else "training seconds")
        shown = {"evals": 0, "done": None}

        def show(ev: dict) -> None:
            if "distill_step" in ev:  # --net: the new shape learns the start policy first
                task.note(f"distilling into --net: step {ev['distill_step']}/{ev['distill_steps']}, "
                          f"cross-entropy {ev['distill_loss']:.4f}")
                return
            evals = ev["evals"]
            if len(evals) > shown["evals"]:
                shown["evals"] = len(evals)
                p = evals[-1]
                console.print(f"update {p['update']}: {p['imps']:+.3f} ± {p['se']:.3f} IMPs/board vs "
                              f"{_eval_name(p)} on {cfg.eval_boards} validation boards")
            if ev["replay"] < ev["burn_in"]:
                task.note(f"burn-in: replay {ev['replay']}/{ev['burn_in']}")
                return
            budget = ev["budget_cpu_seconds"] if clock == "cpu_seconds" else ev["budget_seconds"]
            done = int(ev["updates"] if total is not None else min(ev[clock], budget))
            if shown["done"] is None:
                task.start(total if total is not None else int(budget), done)
            elif done > shown["done"]:
                task.advance(done - shown["done"])
            shown["done"] = done if shown["done"] is None else max(done, shown["done"])
            best = ev["best"]
            # the result names its update: before the first evaluation of this run it is the start's
            live = (f"vs {_eval_name(evals[-1])} {evals[-1]['imps']:+.2f}±{evals[-1]['se']:.2f} at upd "
                    f"{evals[-1]['update']}" if evals else "-")
            m = ev["metrics"]
            srch = ev.get("search")
            found = ""
            if search is not None and srch:
                found = f"  searched {srch['searched']} targets {srch['targets']}" + "".join(
                    f" {k[7:]} {v:+.3f}" for k, v in m.items() if k.startswith("search_"))
            pool = ""
            if ev.get("league_table"):
                pool = "  league " + " ".join(f"{r['name']} {r['recent']:+.2f}" for r in ev["league_table"]
                                              if r["name"] != "self" and r["boards"])
            if ev.get("exploiter"):
                x = ev["exploiter"]
                pool += (f"  exploiter#{x['generation']} upd {x['updates']} vs learner "
                         f"{x['recent']:+.2f}" if x["boards"] else f"  exploiter#{x['generation']} burn-in")
                pool += f" added {len(x['added'])}" if x["added"] else ""
            task.note(f"upd {ev['updates']}  IMPs {live} (best {best['imps']:+.2f} vs {_eval_name(best)})  "
                      f"gen {ev['generated_per_s']:.0f}/s learn {ev['learned_per_s']:.0f}/s  "
                      f"H {m.get('entropy', 0):.3f} v {m.get('value', 0):.3f}{found}{pool}")

        state = train_rl(out, cfg, init=init, minutes=minutes, updates=updates, cpu_minutes=cpu_minutes, backend=backend,
                         ray_address=ray_address, device=device, progress=show, search=search,
                         keep_policies=keep_policies, league_add=league_add, opponent=opponent, net=net,
                         distill_cfg=DistillConfig(steps=distill_steps))
    if state.get("distilled") and state.get("resumed", 0) == 0:
        d = state["distilled"]
        console.print(f"distilled into {net.layers}x{net.hidden}: held-out KL {d['kl']:.4f} nats/decision, "
                      f"same top call {d['agreement']:.1%} of {d['positions']} positions", highlight=False)
    b = state["best"]
    console.print(f"{state['updates']} updates, {state['generated']} transitions generated, {state['learned']} learned; "
                  f"best on validation {b['imps']:+.3f} ± {b['se']:.3f} IMPs/board at update {b['update']}: "
                  f"{out}/best.safetensors (bid with nn:{out}/best)")
    swa = state.get("swa")
    if swa and swa["count"]:
        console.print(f"weight average of {plural(swa['count'], 'policy', 'policies')} (updates {swa['first']} to "
                      f"{swa['last']}, every {swa['every']}): {out}/swa.safetensors (bid with nn:{out}/swa)",
                      highlight=False)
    if state.get("league"):
        _print_league(state["league"])
    if state.get("exploiter"):
        _print_main_exploiter(state["exploiter"])
    return state


def _print_main_exploiter(x: dict) -> None:
    """The main exploiter at the end: the current one's running and validation IMPs against the
    learner, and the members it added to the pool."""
    last = x["evals"][-1] if x["evals"] else None
    val = "no validation match yet" if last is None else (
        f"last validation {last['imps']:+.2f} ± {last['se']:.2f} at its update {last['exploiter_update']}, "
        f"best {x['best']:+.2f}")
    console.print(f"main exploiter #{x['generation']} (from learner update {x['since']}, {x['updates']} updates): "
                  f"{x['recent']:+.2f} IMPs/board running vs the learner on {x['boards']} boards; {val}",
                  highlight=False)
    added = ", ".join(f"{a['name']} ({a['updates']} updates, best {a['best']:+.2f})" if a["best"] is not None
                      else f"{a['name']} ({a['updates']} updates)" for a in x["added"])
    console.print(f"exploiters added to the pool: {added or 'none yet'}", highlight=False)


def _print_league(league: dict) -> None:
    from rich.table import Table

    table = Table(title="league: the learner's IMPs/board against each member")
    for col in ("member", "kind", "boards", "recent", "all boards", "share"):
        table.add_column(col, justify="left" if col in ("member", "kind") else "right")
    from bidlab.learn.a2c.config import LeagueConfig
    from bidlab.learn.a2c.league import League, Member

    pool = League(LeagueConfig.from_json(league["config"]), [Member(**m) for m in league["members"]], Path("."))
    for r in pool.table():
        table.add_row(r["name"], r["kind"], str(r["boards"]), f"{r['recent']:+.2f}", f"{r['mean']:+.2f} ± {r['se']:.2f}",
                      f"{r['p']:.0%}")
    console.print(table)


@train_app.command("rl")
def train_rl_cmd(
    init: str = typer.Option("nn:sl", help="Policy to start from: nn:sl (the shipped SL model), a model path, "
                             "or 'none' for random weights."),
    out: Path = typer.Option(Path("runs/rl"), help="Run folder: checkpoint, TensorBoard logs, best.safetensors."),
    minutes: float = typer.Option(None, min=0, help="Budget: minutes of training (counted across resumptions)."),
    updates: int = typer.Option(None, min=1, help="Budget: learner updates in all."),
    cpu_minutes: float = typer.Option(None, "--cpu-minutes", min=0, help=(
        "Budget: CPU minutes this process spends training (all its threads, counted across resumptions, "
        "evaluations not counted; with --net the distillation is counted): equal-CPU comparisons, "
        "e.g. a wider net against the run it was distilled from.")),
    preset: str = typer.Option("cpu", help="Hyperparameter preset: cpu (sized for a small CPU machine) or paper (Table I)."),
    no_per: bool = typer.Option(False, "--no-per", help="Ablation: uniform replay instead of prioritized."),
    no_hidden_info: bool = typer.Option(False, "--no-hidden-info", help="Ablation: the value net sees only the 480."),
    device: str = typer.Option("cpu", help="Torch device of the learner: cpu, cuda, cuda:1 ..."),
    backend: str = typer.Option("local", help="Where actors run: local (threads) or ray."),
    ray_address: str = typer.Option(None, help="Address of an existing Ray cluster (with --backend ray)."),
    actors: int = typer.Option(None, min=1, help="Actors (threads or Ray actors); default from the preset."),
    eval_every: int = typer.Option(None, min=1, help="Updates between evaluations against SL on validation deals."),
    eval_boards: int = typer.Option(None, min=2, help="Validation boards per evaluation."),
    lr_policy: float = typer.Option(None, help="Policy learning rate (Adan); default from the preset."),
    lr_value: float = typer.Option(None, help="Value learning rate (Adan); default from the preset."),
    batch_size: int = typer.Option(None, min=1, help="Learner batch size; default from the preset."),
    replay_ratio: float = typer.Option(None, min=0.001, help="Hold transitions learned / generated near this "
                                       "(actors wait when ahead); default: actors run free."),
    seed: int = typer.Option(0, help="Seed of self-play, replay sampling and the evaluation deals."),
    threads: int = typer.Option(1, min=1, help="Torch CPU threads per thread of work (1 is often fastest when other jobs share the cores)."),
    keep_policies: bool = typer.Option(False, "--keep-policies",
                                       help="Keep the policy of every checkpoint as RUN/policies/update-NNNNNN "
                                       "(for learning curves by matches, e.g. benchmarks/jps_table3.py)."),
    jps: float = typer.Option(None, "--jps", min=0.0, max=1.0,
                              help="Online joint policy search (Tian et al. Sec. 7.3) in this fraction of self-play "
                              "games (paper's Table 3: 0.01, 0.05, 0.1; ours: 0.25); its results are trained next to A2C."),
    jps_1search: bool = typer.Option(False, "--jps-1search", help="With --jps: search P1's call only (1-search, the Table 3 ablation)."),
    jps_loss: str = typer.Option("pg", "--jps-loss",
                                 help="With --jps: how search results train the policy. pg: greedy rollouts of every "
                                 "candidate on the true deal, all candidates' values in a policy-gradient term; "
                                 "nll: 5 x 5 sampled rollouts, the best call as an NLL target (the first version)."),
    jps_weight: float = typer.Option(None, "--jps-weight", min=0.0,
                                     help="With --jps: weight of the search term; default 1 for pg, 0.1 for nll."),
    league: bool = typer.Option(False, "--league", help="League self-play (issue #26): the learner meets a pool of "
                                "itself, frozen snapshots of itself, fixed agents and added members, drawn by "
                                "prioritized fictitious self-play; only its own calls are learned from."),
    league_fixed: str = typer.Option("sayc,nn:sl", "--league-fixed",
                                     help="With --league: fixed agents in the pool, comma-separated specs ('' for none)."),
    league_self: float = typer.Option(0.5, "--league-self", help="With --league: share of batches of plain self-play."),
    league_snapshot_every: int = typer.Option(2500, "--league-snapshot-every",
                                              help="With --league: updates between frozen snapshots (0: none)."),
    league_add: list[str] = typer.Option([], "--league-add", help="With --league: an agent spec to add to the pool, "
                                         "e.g. an exploiter nn:runs/exploit/final (repeatable)."),
    league_exploiter: float = typer.Option(0.0, "--league-exploiter", help="With --league: run a main exploiter "
                                           "beside the learner, bidding this share of the actors' batches against "
                                           "a frozen copy of it; it joins the pool when it stops improving (local backend)."),
    league_exploiter_eval_every: int = typer.Option(500, "--league-exploiter-eval-every", help="With "
                                                    "--league-exploiter: its updates between validation matches against the learner."),
    league_exploiter_patience: int = typer.Option(3, "--league-exploiter-patience", help="With --league-exploiter: "
                                                  "evaluations without a new best before it joins the pool (0: at the first)."),
    league_exploiter_max_updates: int = typer.Option(0, "--league-exploiter-max-updates", help="With "
                                                     "--league-exploiter: it joins the pool at this many updates at the latest (0: no limit)."),
    anchor: str = typer.Option(None, "--anchor", help="Anchor policy (nn spec, e.g. nn:sl): adds lambda * KL(pi || "
                               "anchor) per decision (piKL, Jacob et al. 2022), to keep the policy readable."),
    anchor_weight: float = typer.Option(0.0, "--anchor-weight", help="lambda of --anchor (>= 0)."),
    partner: str = typer.Option(None, "--partner", help="Ad-hoc teamwork: in a share of self-play batches one "
                                "team is the learner with this agent as partner (e.g. sayc); its calls are not learned. With --league the pair "
                                "also meets the members (sayc+X against sayc)."),
    partner_share: float = typer.Option(0.0, "--partner-share", help="With --partner: share of self-play batches "
                                        "(with --league: of every batch)."),
    judge: str = typer.Option(None, "--judge", help="Doubling judge (a shipped name such as judge, or a path) "
                              "whose advice joins the loss: -log pi(X) where it expects more than --judge-threshold "
                              "IMPs from doubling (issue 44, docs/punishers.md)."),
    judge_weight: float = typer.Option(0.0, "--judge-weight", help="With --judge: weight of its term (>= 0)."),
    judge_threshold: float = typer.Option(1.0, "--judge-threshold", help="With --judge: IMPs the judge must "
                                          "expect from doubling for the term to ask for X."),
    judge_floor: float = typer.Option(0.0, "--judge-floor", help="With --judge: below this many IMPs expected "
                                      "from doubling the term pushes X down (between the two it leaves X alone)."),
    eval_against: str = typer.Option("sl", "--eval-against", help="Agent of the periodic validation match: sl "
                                     "(the shipped SL model) or any agent spec (sayc, nn:rl@80000 ...)."),
    checkpoint_seconds: float = typer.Option(60.0, "--checkpoint-seconds", help="Also checkpoint when this many "
                                             "seconds have passed since the last checkpoint (a kill loses at most that)."),
    checkpoint_every: int = typer.Option(None, "--checkpoint-every", min=1,
                                         help="Updates between checkpoints; default from the preset."),
    net: str = typer.Option(None, "--net", help="Policy shape LAYERSxWIDTH (e.g. 4x1024): a new run starts from "
                            "--init distilled into it (KL on its self-play positions), so no progress is lost."),
    distill_steps: int = typer.Option(2000, "--distill-steps", min=1, help="With --net: distillation steps (batch 1024)."),
    swa_from: int = typer.Option(None, "--swa-from", min=0, help="Keep a running weight average of the policy from "
                                 "this update on (stochastic weight averaging), written as RUN/swa; a resume seeds it "
                                 "from the policies kept since then (--keep-policies)."),
    swa_every: int = typer.Option(250, "--swa-every", min=1, help="With --swa-from: updates between the policies "
                                  "it takes in."),
) -> None:
    """A2C self-play with prioritized replay and a hidden-information value net (Qiu et al. Sec. IV),
    from the SL policy. Rerun the same command to resume after a kill. --jps RATIO adds online
    joint policy search; to fine-tune a finished run, copy its folder and resume it with --jps.
    --league trains against a pool of opponents; --anchor keeps the policy near an anchor;
    --swa-from averages the policy's weights as it trains (RUN/swa)."""
    import torch

    from bidlab.learn.a2c import SearchTraining, initial_policy, make_config
    from bidlab.search.jps import RLSearchHook

    if minutes is None and updates is None and cpu_minutes is None:
        console.print("[red]error:[/red] give a budget: --minutes, --cpu-minutes or --updates")
        raise typer.Exit(2)
    # every option is checked here, before train_rl makes the run folder
    check_positive(lr_policy, "--lr-policy")
    check_positive(lr_value, "--lr-value")
    check_positive(minutes, "--minutes")
    check_positive(cpu_minutes, "--cpu-minutes")
    check_positive(checkpoint_seconds, "--checkpoint-seconds")
    if backend not in ("local", "ray"):
        raise OptionError(f"--backend must be local or ray, got {backend!r}")
    if not league and (league_add or league_fixed != "sayc,nn:sl" or league_self != 0.5
                       or league_snapshot_every != 2500):
        raise OptionError("--league-fixed, --league-self, --league-snapshot-every and --league-add need --league")
    exploiter_kw = {"exploiter_share": league_exploiter, "exploiter_eval_every": league_exploiter_eval_every,
                    "exploiter_patience": league_exploiter_patience,
                    "exploiter_max_updates": league_exploiter_max_updates}
    if not league and (league_exploiter or league_exploiter_eval_every != 500 or league_exploiter_patience != 3
                       or league_exploiter_max_updates):
        raise OptionError("--league-exploiter and its settings need --league")
    if league_exploiter and backend != "local":
        raise OptionError(f"--league-exploiter runs with --backend local only, not --backend {backend}")
    check_output_folder(out)
    check_device(device)
    if jps_1search and jps is None:
        console.print("[red]error:[/red] --jps-1search needs --jps RATIO")
        raise typer.Exit(2)
    search = None
    if jps is not None:
        if jps <= 0:
            console.print("[red]error:[/red] --jps RATIO must be above 0 (the fraction of games searched)")
            raise typer.Exit(2)
        if jps_loss not in ("pg", "nll"):
            raise typer.BadParameter(f"must be pg or nll, got {jps_loss!r}", param_hint="--jps-loss")
        if jps_loss == "pg":
            hook = RLSearchHook(jps, joint=not jps_1search, loss="pg")
            search = SearchTraining(hook, hook.settings(), weight=1.0 if jps_weight is None else jps_weight,
                                    batch_size=128, loss="pg")
        else:
            hook = RLSearchHook(jps, joint=not jps_1search, loss="nll", informative=False)
            search = SearchTraining(hook, hook.settings(), weight=0.1 if jps_weight is None else jps_weight)
    torch.set_num_threads(threads)
    kw = {"per": not no_per, "hidden_info": not no_hidden_info, "seed": seed}
    for k, v in (("actors", actors), ("eval_every", eval_every), ("eval_boards", eval_boards),
                 ("lr_policy", lr_policy), ("lr_value", lr_value), ("batch_size", batch_size),
                 ("replay_ratio", replay_ratio), ("checkpoint_every", checkpoint_every)):
        if v is not None:
            kw[k] = v
    kw.update(checkpoint_seconds=checkpoint_seconds, swa_from=swa_from, swa_every=swa_every,
              **_anchor_settings(anchor, anchor_weight),
              **_partner_settings(partner, partner_share),
              **_judge_settings(judge, judge_weight, judge_threshold, judge_floor))
    if league:
        kw["league"] = _league_config(league_fixed, league_self, league_snapshot_every, league_add, **exploiter_kw)
    try:
        cfg = make_config(preset, **kw)
    except BidlabError as e:
        raise OptionError(f"--preset: {e}") from None
    if init != "none":
        from bidlab.agents.neural import resolve_model

        resolve_model(init.removeprefix("nn:"), kind="policy")  # names the shipped policies if it is not one
        initial_policy(init, cfg)  # refuses a model that is not a policy
    if (out / "checkpoint.safetensors").exists():
        from bidlab.learn.a2c import load_state

        _say_resuming(out, load_state(out))
    _check_eval_against(eval_against)
    shape = None
    if net is not None:
        from bidlab.learn.a2c import RLTrainingError
        from bidlab.learn.a2c.distill import parse_net

        try:
            shape = parse_net(net, cfg.policy if init == "none" else initial_policy(init, cfg)[1].policy)
        except RLTrainingError as e:
            raise OptionError(str(e)) from None
    _run_training(out, cfg, init=None if init == "none" else init, minutes=minutes, updates=updates,
                  cpu_minutes=cpu_minutes, backend=backend,
                  ray_address=ray_address, device=device, search=search, keep_policies=keep_policies,
                  league_add=league_add, opponent=eval_against, net=shape, distill_steps=distill_steps)


@train_app.command("exploit")
def train_exploit_cmd(
    target: str = typer.Option(..., help="The frozen agent to exploit: nn:rl, nn:rl@80000, nn:PATH, sayc ..."),
    out: Path = typer.Option(Path("runs/exploit"), help="Run folder (rerun the same command to resume)."),
    init: str = typer.Option(None, help="Policy to start from; default: the target's own weights (nn:sl for a "
                             "target that is not a net)."),
    minutes: float = typer.Option(None, help="Budget: minutes of training (counted across resumptions)."),
    updates: int = typer.Option(None, min=1, help="Budget: learner updates in all."),
    preset: str = typer.Option("cpu", help="Hyperparameter preset: cpu or paper."),
    test_boards: int = typer.Option(4000, min=2, help="Test boards of the final match against the target."),
    eval_every: int = typer.Option(None, min=1, help="Updates between validation matches against the target."),
    eval_boards: int = typer.Option(None, min=2, help="Validation boards per evaluation."),
    replay_ratio: float = typer.Option(0.5, min=0.001, help="Transitions learned / generated."),
    device: str = typer.Option("cpu", help="Torch device of the learner."),
    backend: str = typer.Option("local", help="Where actors run: local (threads) or ray."),
    ray_address: str = typer.Option(None, help="Address of an existing Ray cluster (with --backend ray)."),
    seed: int = typer.Option(0, help="Seed of self-play, replay sampling and the evaluation deals."),
    threads: int = typer.Option(1, min=1, help="Torch CPU threads per thread of work."),
) -> None:
    """Train a best response to a frozen TARGET (an exploiter, as in AlphaStar's league): A2C in
    which every board is bid against the target and only the exploiter's calls are learned from.
    It reports its IMPs/board against the target on validation deals while it trains and on test
    deals at the end: after a fixed budget, that margin measures the target's exploitability."""
    import torch

    from bidlab.agents.specs import check_agent_spec
    from bidlab.eval.doubled import doubled_contracts, doubled_line
    from bidlab.eval.match import Match, MatchConfig
    from bidlab.learn.a2c import RLTrainingError, make_config
    from bidlab.learn.a2c.config import LeagueConfig
    from bidlab.learn.a2c.exploit import exploiter_init

    if minutes is None and updates is None:
        raise OptionError("give a budget: --minutes or --updates")
    check_positive(minutes, "--minutes")
    if backend not in ("local", "ray"):
        raise OptionError(f"--backend must be local or ray, got {backend!r}")
    try:
        target = check_agent_spec(target)
    except BidlabError as e:
        raise OptionError(f"--target: {e}") from None
    start = init or exploiter_init(target)
    check_output_folder(out)
    check_device(device)
    kw = {"seed": seed, "replay_ratio": replay_ratio, "hidden_info": False}
    for k, v in (("eval_every", eval_every), ("eval_boards", eval_boards)):
        if v is not None:
            kw[k] = v
    try:
        from bidlab.agents.neural import resolve_model

        resolve_model(start.removeprefix("nn:"), kind="policy")
        cfg = make_config(preset, league=LeagueConfig(fixed=(target,), self_share=0.0, snapshot_every=0), **kw)
    except (RLTrainingError, BidlabError) as e:
        raise OptionError(str(e)) from None
    torch.set_num_threads(threads)
    if (out / "checkpoint.safetensors").exists():
        from bidlab.learn.a2c import load_state

        _say_resuming(out, load_state(out))
    state = _run_training(out, cfg, init=start, minutes=minutes, updates=updates, backend=backend,
                          ray_address=ray_address, device=device, opponent=target)
    # the test match is an ordinary stored match, one per budget (RUN/test-UPDATES): resumable, with
    # its doubled contracts; a run resumed to a larger budget keeps the earlier budget's match
    exploiter = f"nn:{out}/final"
    where = out / f"test-{state['updates']}"
    match = Match(MatchConfig(exploiter, target, "test", test_boards, seed), where)
    with progress_display(console) as display:
        task = display.task("test match")
        summary = match.run(progress=from_counts(task), note=task.note)
    imps = Estimate(summary.imps_per_board, summary.standard_error, summary.boards)
    console.print(f"exploiter vs {target}: {imps.format(signed=True)} IMPs/board on {test_boards} test boards "
                  f"after {state['updates']} updates ({state['seconds'] / 60:.1f} training minutes); "
                  f"the exploiter bids as {exploiter}; the match is in {where}", highlight=False)
    console.print(doubled_line(doubled_contracts(match.records(), exploiter, target)), highlight=False)


@train_app.command("average")
def train_average_cmd(
    ingredients: list[str] = typer.Argument(..., help="Policies to average: shipped names (nn:rl, nn:rl@156750), "
                                            "model paths (runs/x/final, runs/x/policies/update-NNNNNN) or run folders "
                                            "(their checkpoint's policy)."),
    out: Path = typer.Option(..., help="The averaged model: OUT.safetensors and OUT.json (bids as nn:OUT)."),
    weights: str = typer.Option(None, help="Comma-separated weight of each policy, in order (default: equal)."),
) -> None:
    """Average the weights of policies of one lineage into one policy: stochastic weight averaging
    over a run's kept policies (Izmailov et al. 2018) or a model soup of runs continued from one
    checkpoint (Wortsman et al. 2022). All must have one shape. Judge the result by a match on
    validation deals before you test it: policies of unrelated runs do not average."""
    import hashlib

    from bidlab.agents.neural import resolve_model
    from bidlab.learn.a2c.checkpoint import checkpoint_policy, load_state
    from bidlab.nets import load_model, model_paths, save_model
    from bidlab.nets.average import average_nets, mixing_weights

    check_output_file(model_paths(out)[0])
    try:
        w = None if weights is None else [float(x) for x in weights.split(",")]
    except ValueError:
        raise OptionError(f"--weights {weights!r}: give numbers separated by commas, e.g. 1,1,2") from None
    try:
        w = mixing_weights(len(ingredients), w)
    except BidlabError as e:
        raise OptionError(f"--weights: {e}") from None
    nets, sources = [], []
    for spec in ingredients:
        name = spec.removeprefix("nn:")
        try:
            if Path(name).is_dir() and (Path(name) / "checkpoint.safetensors").exists():
                net = checkpoint_policy(name)
                file = Path(name) / "checkpoint.safetensors"
                label = f"{name} (checkpoint, update {load_state(name)['updates']})"
                play = None
            else:
                file = resolve_model(name, kind="policy")
                net, meta = load_model(file)
                label, play = spec, meta.get("play")
        except BidlabError as e:
            raise OptionError(f"{spec}: {e}") from None
        if net.cfg.kind != "policy":
            raise OptionError(f"{spec} is a {net.cfg.kind} net, not a policy")
        if play:
            raise OptionError(f"{spec} has play-time settings ({play}); average the plain nets")
        nets.append(net)
        sources.append({"source": label, "sha256": hashlib.sha256(file.read_bytes()).hexdigest()[:16]})
    try:
        avg = average_nets(nets, w, names=[s["source"] for s in sources])
    except BidlabError as e:
        raise OptionError(str(e)) from None
    for s, wi in zip(sources, w):
        s["weight"] = round(wi, 6)
    save_model(out, avg, info={"average": {"method": "weight average (SWA / model soup)", "ingredients": sources}})
    for s in sources:
        console.print(f"  {s['weight']:.3f} x {s['source']}", highlight=False)
    console.print(f"averaged {plural(len(nets), 'policy', 'policies')} into {out} (bids as nn:{out})",
                  highlight=False)


@train_app.command("rl-plot")
def train_rl_plot(
    runs: list[Path] = typer.Argument(..., help="Run folders of `bidlab train rl` (each has state.json)."),
    out: Path = typer.Option(Path("results/rl_curve.png"), help="PNG to write (docs/rl_curve.png is the "
                             "figure the docs show: name it to replace that)."),
    x: str = typer.Option("minutes", "--x", help="Horizontal axis: minutes (training wall time), cpu "
                          "(training CPU minutes: equal-CPU comparisons) or updates."),
) -> None:
    """Plot each RL run's periodic validation IMPs (± 1 SE) against its evaluation opponent
    over training time, CPU time or updates."""
    axes = {"minutes": ("seconds", 60, "training minutes"), "cpu": ("cpu_seconds", 60, "training CPU minutes"),
            "updates": ("update", 1, "learner updates")}
    if x not in axes:
        raise OptionError(f"--x must be minutes, cpu or updates, got {x!r}")
    check_output_file(out)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from bidlab.learn.a2c import load_state

    key, scale, xlabel = axes[x]
    states = {run: load_state(run) for run in runs}
    against = set()
    fig, ax = plt.subplots(figsize=(7, 4))
    for run, st in states.items():
        ev = [e for e in st["evals"] if key in e]  # evaluations from before CPU time was counted have none
        if not ev:
            raise OptionError(f"{run} has no evaluations with {key} (runs from before it was recorded: use --x minutes)")
        against |= {_eval_name(e) for e in ev}
        xs = [e[key] / scale for e in ev]
        y = [e["imps"] for e in ev]
        se = [e["se"] for e in ev]
        line, = ax.plot(xs, y, marker="o", label=f"{run.name} ({st['updates']} updates)")
        ax.fill_between(xs, [a - b for a, b in zip(y, se)], [a + b for a, b in zip(y, se)],
                        color=line.get_color(), alpha=0.15)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel(xlabel)
    opponent = " / ".join(sorted(against))
    ax.set_ylabel(f"IMPs/board vs {opponent} (validation, ± 1 SE)")
    ax.set_title(f"A2C training: greedy duplicate match vs {opponent}")
    ax.legend()
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    import io

    from bidlab.fileio import write_bytes_atomic

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    write_bytes_atomic(out, buf.getvalue())
    console.print(f"wrote {out}")


@train_app.command("belief")
def train_belief_cmd(
    out: Path = typer.Option(Path("runs/belief"), help="Run folder: data, checkpoints, model."),
    policy: str = typer.Option("sl", help="Policy whose self-play (sample mode) makes the data, e.g. sl or rl; or a "
                               "mixture, comma-separated (rl,sl,partner,sayc): each batch of deals is then bid by a "
                               "pair drawn from it, so the belief reads strangers too."),
    deals: int = typer.Option(20000, min=100, help="TRAIN deals of the shipped DD store to bid."),
    passes: int = typer.Option(1, min=1, help="Auctions per deal (own dealer, vulnerability and sampled calls)."),
    output: str = typer.Option("card_softmax", help="card_softmax (per card a softmax over the 3 hands, own "
                               "cards 0; starts at the uniform belief) or sigmoid (the paper's 156 sigmoids)."),
    preset: str = typer.Option("cpu", help="Network preset: cpu (4 x 512), paper (4 x 1024), tiny."),
    epochs: int = typer.Option(3, min=1, help="Passes over the pairs."),
    lr: float = typer.Option(3e-4, help="Adam learning rate (authors: 3e-4)."),
    batch_size: int = typer.Option(256, min=1, help="Batch size (authors: 256)."),
    seed: int = typer.Option(0, help="Seed of deals, self-play, initialisation and batch order."),
    checkpoint_every: int = typer.Option(500, min=1, help="Steps between checkpoints."),
    max_steps: int = typer.Option(None, help="Stop after this many steps (quick runs)."),
    threads: int = typer.Option(1, min=1, help="Torch CPU threads."),
) -> None:
    """Belief network (Qiu et al. Sec. V): 480 -> 156 probabilities (LHO, partner, RHO hands),
    binary cross-entropy on self-play pairs. Rerun the same command to resume."""
    import torch

    from bidlab.learn.belief import BeliefConfig, mixture_bidder, policy_names, train_belief

    try:  # every bidder must load before anything is written
        names = policy_names(policy)
        if len(names) > 1:
            for name in names:
                mixture_bidder(name, seed)
    except BidlabError as e:
        raise OptionError(f"--policy {policy}: {e}") from None
    torch.set_num_threads(threads)
    cfg = BeliefConfig(policy=policy, preset=preset, deals=deals, passes=passes, output=output, lr=lr,
                       batch_size=batch_size, epochs=epochs, seed=seed, checkpoint_every=checkpoint_every, max_steps=max_steps)
    _say_resuming(out)
    with progress_display(console) as display:
        epoch_bar = _EpochProgress(display)

        def show(ev: dict) -> None:
            if "message" in ev:
                console.print(ev["message"])
            elif "epoch_done" in ev:
                console.print(f"epoch {ev['epoch_done']}: held-out cross-entropy {ev['heldout_bce']:.4f} "
                              f"(uniform belief {ev['uniform_bce']:.4f}; {ev['pairs']} training pairs)")
            else:
                epoch_bar.update(ev["epoch"], ev["steps_per_epoch"], ev["step_in_epoch"],
                                 f"bce {ev['loss']:.4f}  {ev['pairs_per_s']:.0f} pairs/s")

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
    _say_resuming(out)
    with progress_display(console) as display:
        epoch_bar = _EpochProgress(display)

        def show(ev: dict) -> None:
            if "epoch_done" in ev:
                console.print(f"epoch {ev['epoch_done']}: validation mean absolute trick error {ev['validation_mae']:.3f}")
            else:
                epoch_bar.update(ev["epoch"], ev["steps"], ev["step"],
                                 f"loss {ev['loss']:.3f}  {ev['deals_per_s']:.0f} deals/s")

        state = train_tricknet(out, cfg, progress=show)
    console.print(f"best validation mean absolute trick error {state['best_mae']:.3f}; model: {out}/model.safetensors")


@train_app.command("judge")
def train_judge_cmd(
    out: Path = typer.Option(Path("runs/judge"), help="Run folder: positions, checkpoints, model."),
    preset: str = typer.Option("cpu", help="Hyperparameter preset: cpu (3 x 256 net, each TRAIN deal bid sixteen "
                               "times: the shipped judge, with --seed 1) or paper (4 x 1024, sixteen times); the "
                               "options below override it."),
    agents: list[str] = typer.Option(None, "--agent", help="Agent of the panel whose auctions make the positions "
                                     "(repeatable); default: nn:rl@soup1 and the earlier nn:rl generations, nn:sl, nn:partner "
                                     "and their generations, sayc."),
    deals: int = typer.Option(None, help="TRAIN deals of the shipped DD store to bid (default: all of them)."),
    passes: int = typer.Option(None, help="Auctions per deal, each with its own pair of agents, dealer, vulnerability."),
    validation_deals: int = typer.Option(None, help="VALIDATION deals bid for model choice and calibration."),
    focus: float = typer.Option(None, help="Share of chunks bid by the panel's first agent at both sides (0..1)."),
    epochs: int = typer.Option(None, help="Passes over the training positions."),
    lr: float = typer.Option(None, help="Adam learning rate (decayed linearly to 10%)."),
    batch_size: int = typer.Option(None, help="Batch size."),
    seed: int = typer.Option(0, help="Seed of pairings, deals' order, initialisation and batch order."),
    checkpoint_seconds: float = typer.Option(60.0, "--checkpoint-seconds", help="Checkpoint when this long has "
                                             "passed (and at every epoch's end): a kill loses at most this much."),
    max_steps: int = typer.Option(None, help="Stop after this many steps (quick runs; rerun without it to go on)."),
    device: str = typer.Option("cpu", help="Torch device: cpu, cuda, cuda:1 ..."),
    threads: int = typer.Option(1, help="Torch CPU threads."),
) -> None:
    """Doubling judge: one player's 480 view -> the IMPs that doubling the opponents' contract
    gains over the player's own call, learnt from positions of many agents' auctions on TRAIN
    deals (labels: the same agents bid on after the double, scored by the deal's DD table);
    the model is the best epoch on VALIDATION positions. Rerun the same command to resume
    (also after kill -9)."""
    from dataclasses import replace

    from bidlab.learn.judge import JudgeConfig

    # every option is checked before the run folder (or anything else) is made
    presets = {"cpu": JudgeConfig.cpu, "paper": JudgeConfig.paper}
    if preset not in presets:
        raise OptionError(f"--preset must be one of {', '.join(presets)}, got {preset!r}")
    for value, option in ((deals, "--deals"), (passes, "--passes"), (validation_deals, "--validation-deals"),
                          (epochs, "--epochs"), (batch_size, "--batch-size"), (max_steps, "--max-steps"),
                          (threads, "--threads")):
        if value is not None and value < 1:
            raise OptionError(f"{option} must be >= 1, got {value}")
    if seed < 0:
        raise OptionError(f"--seed must be >= 0, got {seed}")
    check_positive(lr, "--lr")
    check_positive(checkpoint_seconds, "--checkpoint-seconds")
    if focus is not None and not 0 <= focus <= 1:
        raise OptionError(f"--focus must be in [0, 1], got {focus:g}")
    check_output_folder(out)
    check_device(device)
    cfg = presets[preset]()
    given = {"deals": deals, "passes": passes, "validation_deals": validation_deals, "epochs": epochs, "lr": lr,
             "batch_size": batch_size, "focus": focus}
    cfg = replace(cfg, **{k: v for k, v in given.items() if v is not None}, seed=seed,
                  checkpoint_seconds=checkpoint_seconds, max_steps=max_steps)
    if agents:
        cfg = replace(cfg, agents=tuple(_check_judge_panel(agents)))
    from bidlab.dd import shipped_store

    store = shipped_store()
    for split, n, option in (("train", cfg.deals, "--deals"), ("validation", cfg.validation_deals, "--validation-deals")):
        if n > store.count(split):
            raise OptionError(f"{option} {n}: the {split} split has {store.count(split)} deals")
    import torch

    from bidlab.learn.judge import train_judge

    torch.set_num_threads(threads)
    _say_resuming(out)
    with progress_display(console) as display:
        epoch_bar = _EpochProgress(display)

        def show(ev: dict) -> None:
            if "message" in ev:
                console.print(ev["message"], highlight=False)
            elif "epoch_done" in ev:
                console.print(f"epoch {ev['epoch_done']}: validation mean squared error {ev['validation_mse']:.3f} "
                              f"IMPs² (predicting the mean: {ev['baseline_mse']:.3f}; {ev['positions']} training "
                              "positions)", highlight=False)
            else:
                epoch_bar.update(ev["epoch"], ev["steps_per_epoch"], ev["step_in_epoch"],
                                 f"mse {ev['loss']:.2f}  {ev['positions_per_s']:.0f} positions/s")

        state = train_judge(out, cfg, progress=show, device=device)
    if (out / "model.safetensors").exists() and state["best_mse"] is not None:
        console.print(f"best validation mean squared error {state['best_mse']:.3f}; model: {out}/model.safetensors",
                      highlight=False)
    else:
        console.print(f"{state['step']} steps, no epoch finished yet, so no model; the checkpoint is in {out}: "
                      "rerun with a larger --max-steps (or none) to go on", highlight=False)


def _check_judge_panel(agents: list[str]) -> list[str]:
    """The panel's specs, each built once (a bad one is a one-line error before anything is written);
    a peeking diagnostic (oracle-punish:) is refused: the judge must learn from auctions of players."""
    from bidlab.agents.registry import refuse_peeking
    from bidlab.agents.specs import check_agent_spec

    out = []
    for a in agents:
        try:
            refuse_peeking(a, "the judge's panel")
            out.append(check_agent_spec(a))
        except BidlabError as e:
            raise OptionError(f"--agent: {e}") from None
    return out


class _EpochProgress:
    """One progress task per epoch, fed with (epoch, steps in the epoch, step reached, info)."""

    def __init__(self, display):
        self.display, self.epoch, self.task, self.done = display, None, None, 0

    def update(self, epoch: int, total: int, step: int, info: str) -> None:
        if epoch != self.epoch:
            self.epoch, self.done = epoch, step
            self.task = self.display.task(f"epoch {epoch + 1}")
            self.task.start(total, step)
        elif step > self.done:
            self.task.advance(step - self.done)
            self.done = step
        self.task.note(info)
