"""The training loop (Qiu et al. Algs. 1-2): actors -> prioritized replay -> learner, periodic
greedy evaluation on validation deals, TensorBoard, checkpoints and resume."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

from bidlab.learn.a2c.backends import LocalBackend, RayBackend
from bidlab.learn.a2c.checkpoint import checkpoint_tensors, load_checkpoint, save_checkpoint
from bidlab.learn.a2c.config import A2CConfig, RLTrainingError
from bidlab.learn.a2c.distill import DistillConfig, distill
from bidlab.learn.a2c.evaluation import evaluate_against, evaluation_opponent, validation_deals
from bidlab.learn.a2c.league import League, check_member_spec
from bidlab.learn.a2c.learner import Learner
from bidlab.learn.a2c.limiter import ReplayRatioLimiter
from bidlab.learn.a2c.main_exploiter import EXPLOITER, PREFIX, MainExploiter, check_exploiter_backend
from bidlab.learn.a2c.swa import PREFIX as SWA_PREFIX
from bidlab.learn.a2c.swa import RunningAverage
from bidlab.learn.a2c.targets import SearchTraining, TargetQueue, add_search_targets
from bidlab.learn.a2c.transitions import insert_priorities, replay_columns
from bidlab.learn.replay import ReplayBuffer
from bidlab.nets import NetConfig, build, load_model, save_model


def initial_policy(init: str | None, cfg: A2CConfig) -> tuple[torch.nn.Module, A2CConfig]:
    """The policy to start from (a saved model, e.g. the shipped SL net) and the config with its shape."""
    if init is None:
        return build(cfg.policy), cfg
    from bidlab.agents.neural import resolve_model

    spec = init[3:] if init.startswith("nn:") else init
    net, _ = load_model(resolve_model(spec))
    if net.cfg.kind != "policy":
        raise RLTrainingError(f"--init {init} is a {net.cfg.kind} net, not a policy")
    return net, replace(cfg, policy=net.cfg)


class TrainingClock:
    """Wall and CPU time spent training, charged to ``state["seconds"]`` and
    ``state["cpu_seconds"]``: what ran since the last :meth:`charge` or :meth:`restart`.
    Evaluations are not training time: restart the clock after one."""

    def __init__(self) -> None:
        self.restart()

    def restart(self) -> None:
        self.wall, self.cpu = time.perf_counter(), time.process_time()

    def charge(self, state: dict) -> None:
        wall, cpu = self.wall, self.cpu
        self.restart()
        state["seconds"] += self.wall - wall
        state["cpu_seconds"] += self.cpu - cpu


def running_average(cfg: A2CConfig, state: dict, out: Path) -> RunningAverage | None:
    """The run's weight average (``--swa-from``): the checkpoint's, when its settings are
    unchanged; else a new one, seeded from the policies the run kept at or after its start.
    A run that averages goes on averaging when resumed without the option."""
    saved = state.get("swa")
    start, every = cfg.swa_from, cfg.swa_every
    if start is None:
        if saved is None:
            return None
        start, every = saved["from"], saved["every"]
    if saved is not None and (saved["from"], saved["every"]) == (start, every):
        swa = RunningAverage.restore(saved, checkpoint_tensors(out, SWA_PREFIX))
    else:
        swa = RunningAverage(start, every)
        if (out / "policies").is_dir():
            swa.seed_from_kept(out / "policies", state["updates"])
    state["swa"] = swa.to_json()
    return swa


def train_rl(out: str | Path, cfg: A2CConfig, *, init: str | None = "sl", minutes: float | None = None,
             updates: int | None = None, cpu_minutes: float | None = None, backend: str = "local", ray_address: str | None = None,
             device: str = "cpu", opponent: str = "sl",
             progress: Callable[[dict], None] | None = None, search: SearchTraining | None = None,
             keep_policies: bool = False, league_add: Sequence[str] = (), net: NetConfig | None = None,
             distill_cfg: DistillConfig | None = None) -> dict:
    """Train (or resume, if ``out`` holds a checkpoint) until ``minutes`` of training time,
    ``cpu_minutes`` of this process's CPU time spent training (both counted across resumptions)
    or ``updates`` learner updates, whichever comes first; returns the final state.
    ``state["cpu_seconds"]`` is that CPU time (all threads of this process: learner, local
    actors, search; not evaluations, not Ray's remote actors; a ``net`` run's distillation
    included), the measure of "equal CPU budget" comparisons such as a wider net against the
    one it was distilled from; each evaluation records it.
    ``search``: search targets trained by NLL next to A2C (online JPS); a run without search
    may be resumed with it (fine-tuning from a plain RL checkpoint), not the other way round.
    ``keep_policies``: every checkpoint also keeps the policy as ``policies/update-NNNNNN``
    (a plain model file), for learning curves measured by matches afterwards.
    ``cfg.swa_from``: a running weight average of the policy (:mod:`bidlab.learn.a2c.swa`),
    in the checkpoint and written beside ``final`` as ``RUN/swa``.
    ``cfg.league``: league self-play (:mod:`bidlab.learn.a2c.league`); a plain run may go on
    as a league run, whose pool then starts at its current update; ``league_add``: agent
    specs that join the pool (exploiters). ``opponent``: the agent of the periodic
    evaluation, a spec (``sayc``, ``nn:rl``) or a model path (``sl``).
    ``cfg.league.exploiter_share > 0``: a main exploiter beside the learner
    (:mod:`bidlab.learn.a2c.main_exploiter`), its state in the checkpoint and ``state["exploiter"]``.

    A checkpoint is written every ``checkpoint_every`` updates and whenever
    ``checkpoint_seconds`` have passed since the last one, so a kill loses at most that much;
    ``state["resumed_from"]`` says where a resumed run picked up.

    ``net``: another policy shape (``--net 4x1024``); a new run starts from the ``init``
    policy distilled into it (:mod:`bidlab.learn.a2c.distill`, ``distill_cfg``), so no
    progress is lost; ``state["distilled"]`` keeps the held-out KL and agreement."""
    from torch.utils.tensorboard import SummaryWriter

    if minutes is None and updates is None and cpu_minutes is None:
        raise RLTrainingError("give a budget: --minutes, --cpu-minutes or --updates")
    if backend not in ("local", "ray"):
        raise RLTrainingError(f"unknown backend {backend!r}; choose local or ray")
    check_exploiter_backend(cfg, backend)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(cfg.seed)
    policy, cfg = initial_policy(init, cfg)
    distilled = None
    if net is not None and net != cfg.policy:
        if (out / "checkpoint.safetensors").exists():
            policy = build(net)  # its weights come from the checkpoint
        else:
            dc = distill_cfg or DistillConfig()
            report = None if progress is None else (
                lambda k, loss: progress({"distill_step": k, "distill_steps": dc.steps, "distill_loss": loss}))
            c0 = time.process_time()
            policy, distilled = distill(policy.eval(), net, dc, seed=cfg.seed, progress=report)
            distilled["cpu_seconds"] = round(time.process_time() - c0, 1)
        cfg = replace(cfg, policy=net)
    value = build(cfg.value)
    learner = Learner(cfg, policy, value, device)
    state = {"config": cfg.to_json(), "init": init, "updates": 0, "generated": 0, "learned": 0,
             "seconds": 0.0, "cpu_seconds": 0.0, "evals": [], "best": None, "resumed": 0}
    if distilled is not None:
        state["distilled"] = distilled
        state["cpu_seconds"] = distilled["cpu_seconds"]  # the wider net's start is part of its cost
    wanted = None if search is None else search.describe()
    if (out / "checkpoint.safetensors").exists():
        old = load_checkpoint(out, learner)
        if A2CConfig.from_json(old["config"]).training_key() != cfg.training_key() or old.get("init") != init:
            raise RLTrainingError(f"{out} holds a run with other settings; use another --out or the same settings")
        had = (old.get("search") or {}).get("settings")
        if had is not None and had != wanted:
            raise RLTrainingError(f"{out} was trained with search targets {had}; resume it with the same search "
                                  f"settings, not {wanted}")
        if old.get("league") is not None and cfg.league is None:
            raise RLTrainingError(f"{out} is a league run; resume it with --league")
        state.update(old, config=cfg.to_json(), resumed=old.get("resumed", 0) + 1)
        state.setdefault("cpu_seconds", 0.0)  # a checkpoint from before CPU time was counted: from here
        was = old["config"]
        state["resumed_from"] = {"updates": old["updates"], "generated": old["generated"],
                                 "seconds": old["seconds"], "lr_policy": was["lr_policy"], "lr_value": was["lr_value"]}
    if search is not None and "settings" not in (state.get("search") or {}):
        # search starts here: from scratch, or fine-tuning a plain RL run from this update on
        state["search"] = {"settings": wanted, "since_update": state["updates"], "searched": 0, "targets": 0}
    # a resumed run draws new games (the seed includes the resume count); the buffer is rebuilt by burn-in
    run_seed = int(np.random.SeedSequence([cfg.seed, state["resumed"]]).generate_state(1)[0])
    targets = None if search is None else TargetQueue(search.buffer_size)
    columns = replay_columns(cfg.anchor is not None)
    replay = ReplayBuffer(cfg.buffer_size, columns, prioritized=cfg.per, beta=cfg.beta,
                          burn_in=cfg.burn_in, seed=run_seed)
    league = None
    if cfg.league is not None:
        if state.get("league") is not None:
            league = League.from_json(state["league"], out, cfg.league)
        else:
            league = League.start(cfg.league, out, state["updates"], learner.policy)
        for spec in league_add:
            league.add(check_member_spec(spec), "added", state["updates"])
        state["league"] = league.to_json()
    exploiter = None
    if cfg.league is not None and cfg.league.exploiter_share > 0:
        exploiter = MainExploiter(cfg, out, device, run_seed)
        ck = out / "checkpoint.safetensors"
        if not exploiter.restore(state.get("exploiter"), checkpoint_tensors(out, PREFIX) if ck.exists() else {}):
            exploiter.start(state["updates"], learner)  # a new run, or a checkpoint without one
        state["exploiter"] = exploiter.checkpoint()[1]
    else:
        state.pop("exploiter", None)  # resumed without --league-exploiter: its frozen members stay in the pool
    swa = running_average(cfg, state, out)
    if swa is not None and swa.due(state["updates"]):
        swa.add(state["updates"], learner.policy)  # the policy it starts (or resumes) from
    ev = validation_deals(cfg.eval_boards, cfg.seed)
    opp = evaluation_opponent(opponent)
    writer = SummaryWriter(str(out / "tb"), purge_step=state["updates"] or None)
    limiter = ReplayRatioLimiter(cfg.replay_ratio, cfg.burn_in, cfg.batch_size)
    hook = None if search is None else search.hook
    if backend == "local":
        actors = LocalBackend(cfg, run_seed, limiter=limiter, search_hook=hook)
    else:
        actors = RayBackend(cfg, run_seed, ray_address, limiter=limiter, search_hook=hook)
    learner_cpu = 0.0  # the learner thread's CPU seconds in this process (for the benchmark)

    def budget_left() -> bool:
        if updates is not None and state["updates"] >= updates:
            return False
        if cpu_minutes is not None and state["cpu_seconds"] >= cpu_minutes * 60:
            return False
        return minutes is None or state["seconds"] < minutes * 60

    def evaluate() -> None:
        done["eval"] = state["updates"]
        m, se = evaluate_against(learner.policy, opp, ev)
        point = {"update": state["updates"], "seconds": round(state["seconds"], 1),
                 "cpu_seconds": round(state["cpu_seconds"], 1), "generated": state["generated"],
                 "imps": m, "se": se, "against": opponent}
        state["evals"].append(point)
        writer.add_scalar("eval/imps_vs_sl" if opponent == "sl" else f"eval/imps_vs_{opponent}", m, state["updates"])
        # IMPs against different agents do not compare: a resume with another --eval-against
        # starts the best afresh (evaluations from before the field existed were against SL)
        best = state["best"]
        if best is None or best.get("against", "sl") != opponent or m > best["imps"]:
            state["best"] = point
            save_model(out / "best", learner.policy, info={
                "rl": {"init": init, "config": cfg.to_json(), "validation": point,
                       "opponent": opponent}})
        learner.policy.train()

    def publish_league() -> None:
        if league is not None:
            if league.version != published["league"]:
                members = league.actor_members()
                published["league"] = league.version
            else:
                members = []  # unchanged: the backends keep the members they have
            actors.publish_league(league.version, members, league.probabilities())

    def publish_exploiter() -> None:
        if exploiter is not None:
            actors.publish_exploiter(exploiter.actor_payload(cfg.league.exploiter_share))

    def exploiter_ratio() -> float:
        """The learner's learned / generated transitions: the exploiter keeps the same ratio."""
        if cfg.replay_ratio is not None:
            return cfg.replay_ratio
        return state["learned"] / max(1, state["generated"] - cfg.burn_in)

    def exploiter_may_step() -> bool:
        return exploiter is not None and exploiter.may_step(exploiter_ratio())

    def exploiter_step() -> None:
        """One exploiter update; its evaluation when due (not training time); into the pool and
        a new one when it stopped."""
        exploiter.step()
        u, xs = state["updates"], exploiter.state
        if xs["updates"] % cfg.sync_every == 0:
            exploiter.version += 1
            publish_exploiter()
        if exploiter.eval_due():
            clock.charge(state)
            point = exploiter.evaluate(u, learner.policy, ev)
            clock.restart()
            writer.add_scalar("exploiter/eval_imps_vs_learner", point["imps"], u)
        if exploiter.stopped():
            name = exploiter.freeze(u, league)
            writer.add_scalar("exploiter/added", len(xs["added"]), u)
            writer.add_text("exploiter/joined", f"{name} after {xs['updates']} updates (best {xs['best']})", u)
            exploiter.start(u, learner)
            publish_league()
            publish_exploiter()

    def checkpoint() -> None:
        if league is not None:
            state["league"] = league.to_json()
        done["checkpoint"] = (state["updates"], time.perf_counter())
        extra = {}
        if exploiter is not None:
            extra, state["exploiter"] = exploiter.checkpoint()
        if swa is not None:
            extra = {**extra, **swa.tensors()}
            state["swa"] = swa.to_json()
        info = {"rl": {"init": init, "config": cfg.to_json(), "update": state["updates"], "opponent": opponent}}
        if keep_policies:  # before the checkpoint: a kill after it never lacks the kept policy of its update
            (out / "policies").mkdir(exist_ok=True)
            save_model(out / "policies" / f"update-{state['updates']:06d}", learner.policy, info=info)
        save_checkpoint(out, learner, state, extra)
        # the run's latest policy as a plain model file (nn:RUN/final), beside the best on validation
        save_model(out / "final", learner.policy, info=info)
        if swa is not None:
            swa.save(out / "swa", learner.policy, info)

    last = {"t": time.perf_counter(), "gen": state["generated"], "learned": state["learned"]}
    rates = {"generated_per_s": 0.0, "learned_per_s": 0.0}
    # the update of the last evaluation and checkpoint: each happens once per update count,
    # even when the learner waits for the actors for a while at that count
    done = {"eval": state["evals"][-1]["update"] if state["evals"] else None,
            "checkpoint": (state["updates"], time.perf_counter())}
    published = {"league": None}
    publish_league()  # before the weights: the first publish starts the actors, and their first batch draws from the pool
    publish_exploiter()
    actors.publish(state["updates"], *learner.weights())
    if not state["evals"]:
        evaluate()
        checkpoint()
    metrics: dict[str, float] = {}
    try:
        clock = TrainingClock()
        while budget_left():
            for batch in actors.poll(block=not (replay.ready and limiter.learner_may_step()) and not exploiter_may_step()):
                if exploiter is not None and batch["opponent"] == EXPLOITER:
                    # the exploiter's calls: its replay only, never the learner's
                    limiter.add_inserted(len(batch["call"]))
                    exploiter.add(batch)
                    continue
                cols = {k: batch[k] for k in columns}
                replay.add(cols, insert_priorities(batch, cfg.alpha))
                state["generated"] += len(batch["call"])
                limiter.add_inserted(len(batch["call"]))
                if targets is not None and "targets" in batch:
                    add_search_targets(targets, batch["targets"], state["search"], writer, state["updates"])
                if league is not None:
                    league.record(str(batch["opponent"]), batch["imps"])
            if replay.ready and limiter.learner_may_step():
                c0 = time.thread_time()
                slots, cols, w = replay.sample(cfg.batch_size)
                tcols, tw = None, 0.0
                if targets is not None and len(targets):
                    tcols = targets.take(search.batch_size)
                    tw = search.weight * len(tcols["call"]) / search.batch_size  # a sum over batch_size slots
                prio, metrics = learner.step(cols, w, tcols, tw, "nll" if search is None else search.loss)
                replay.update_priorities(slots, prio)
                learner_cpu += time.thread_time() - c0
                state["updates"] += 1
                state["learned"] += cfg.batch_size
                limiter.add_learned(cfg.batch_size)
                u = state["updates"]
                if league is not None and cfg.league.snapshot_every and u % cfg.league.snapshot_every == 0:
                    league.add_snapshot(u, learner.policy)
                    if exploiter is not None:
                        exploiter.refresh_target(u, learner.policy)
                        publish_exploiter()
                if u % cfg.sync_every == 0:
                    actors.publish(u, *learner.weights())
                    publish_league()
                if u % 10 == 0:
                    for k, v in metrics.items():
                        writer.add_scalar(f"loss/{k}", v, u)
                    writer.add_scalar("replay/mean_priority", replay.mean_priority(), u)
                    if league is not None:
                        for row in league.table():
                            writer.add_scalar(f"league/imps_recent/{row['name']}", row["recent"], u)
                            writer.add_scalar(f"league/share/{row['name']}", row["p"], u)
                    if exploiter is not None:
                        writer.add_scalar("exploiter/imps_recent_vs_learner", exploiter.state["recent"], u)
                        writer.add_scalar("exploiter/updates", exploiter.state["updates"], u)
                        writer.add_scalar("exploiter/added", len(exploiter.state["added"]), u)
            if exploiter_may_step():
                exploiter_step()
            clock.charge(state)
            now = clock.wall
            if now - last["t"] >= 5.0:
                dt = now - last["t"]
                rates = {"generated_per_s": (state["generated"] - last["gen"]) / dt,
                         "learned_per_s": (state["learned"] - last["learned"]) / dt}
                last = {"t": now, "gen": state["generated"], "learned": state["learned"]}
                writer.add_scalar("throughput/generated_per_s", rates["generated_per_s"], state["updates"])
                writer.add_scalar("throughput/learned_per_s", rates["learned_per_s"], state["updates"])
            u = state["updates"]
            if swa is not None and swa.due(u):
                swa.add(u, learner.policy)
            if replay.ready and u % cfg.eval_every == 0 and done["eval"] != u:
                evaluate()
                clock.restart()  # evaluation time is not training time
            at, when = done["checkpoint"]
            if (replay.ready and u % cfg.checkpoint_every == 0 and at != u) or (
                    u != at and time.perf_counter() - when >= cfg.checkpoint_seconds):
                checkpoint()
            if progress is not None:
                progress({**state, **rates, "metrics": metrics, "replay": len(replay), "burn_in": cfg.burn_in,
                          "budget_updates": updates, "budget_seconds": None if minutes is None else minutes * 60,
                          "budget_cpu_seconds": None if cpu_minutes is None else cpu_minutes * 60,
                          "league_table": None if league is None else league.table(),
                          "exploiter": None if exploiter is None else exploiter.summary(),
                          "checkpointed": done["checkpoint"][0]})
        if state["evals"][-1]["update"] != state["updates"]:
            evaluate()
        checkpoint()
        state["actor_stats"] = actors.stats()
        # this process's share (not counted across resumptions): what the benchmark reports
        state["this_run"] = {"generated": limiter.inserted, "learned": limiter.learned,
                             "largest_batch": limiter.largest, "learner_cpu_seconds": learner_cpu,
                             "actor_cpu_seconds": getattr(actors, "cpu_seconds", None),
                             "actor_wait_seconds": limiter.actor_wait_seconds}
    finally:
        actors.close()
        writer.close()
    return state
