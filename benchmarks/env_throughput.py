"""Auction throughput of bidlab's AuctionEnv against OpenSpiel's ``bridge``, same run.

Both sides play complete auctions with a uniformly random legal policy and encode the
openspiel480 observation of the player to act before every call:

- bidlab: ``AuctionEnv`` with B tables (default 1024), ``env.observe(out)`` into a reused
  float32 buffer, ``env.random_calls(rng)``, ``env.step(calls)`` (auto-reset, DD scoring).
- OpenSpiel (the baseline): ``pyspiel.load_game("bridge", use_double_dummy_result=False)``
  driven through its Python API by its fastest path: deal with 52 ``apply_action`` chance
  moves, then per call ``write_observation_tensor`` into a reused float32 buffer,
  ``legal_actions()`` (which also tells that the auction is over), a ``random.Random``
  choice and ``apply_action``. A second baseline
  variant clones a pre-dealt state instead of dealing (less work for OpenSpiel); the ratio
  is reported against the faster of the two. OpenSpiel does no DD scoring here.

Then one self-play step (env step + encoding + a policy forward pass with masked sampling)
is timed to show the env's share. ``bidlab.learn.nets`` does not exist yet, so the policy is
a stand-in torch MLP 480 -> hidden x depth (GELU) -> 38, like Qiu et al.'s PolicyNet2; sizes
are flags.

Run: ``python benchmarks/env_throughput.py [--boards 1024] [--seconds 5]``.
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from bidlab.cards import random_deals
from bidlab.envs import AuctionEnv, EnvConfig


def bench_env(boards: int, seconds: float, seed: int) -> tuple[float, float]:
    """Complete auctions per second and mean seconds per step of the vectorized env."""
    deals = random_deals(20_000, seed=seed)
    # Random trick tables: the env only looks them up, so the cost equals real DD tables.
    dd = np.random.default_rng(seed).integers(0, 14, size=(len(deals), 4, 5), dtype=np.uint8)
    env = AuctionEnv(deals, dd, EnvConfig(num_boards=boards, dealer="random", vulnerability="random", seed=seed))
    rng = np.random.default_rng(seed)
    obs = np.empty((env.num_tables, 480), np.float32)
    for _ in range(50):  # warm-up
        env.observe(obs)
        env.step(env.random_calls(rng))
    auctions = steps = 0
    t0 = time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        env.observe(obs)
        result = env.step(env.random_calls(rng))
        auctions += int(np.count_nonzero(result.finished))
        steps += 1
    return auctions / elapsed, elapsed / steps


def bench_openspiel(seconds: float, seed: int, clone_dealt: bool) -> float:
    """Complete auctions per second through OpenSpiel's Python API (see module docstring)."""
    import pyspiel

    from bidlab.bridge.features import openspiel_deal_actions

    game = pyspiel.load_game("bridge", {"use_double_dummy_result": False})
    buf = np.zeros(game.observation_tensor_size(), np.float32)
    deal_actions = [openspiel_deal_actions(d) for d in random_deals(2000, seed=seed)]
    dealt = []
    if clone_dealt:
        for acts in deal_actions:
            s = game.new_initial_state()
            for a in acts:
                s.apply_action(a)
            dealt.append(s)
    rnd = random.Random(seed)
    auctions = 0
    t0 = time.perf_counter()
    while (elapsed := time.perf_counter() - t0) < seconds:
        k = auctions % len(deal_actions)
        if clone_dealt:
            state = dealt[k].clone()
        else:
            state = game.new_initial_state()
            for a in deal_actions[k]:
                state.apply_action(a)
        while True:
            legal = state.legal_actions()
            if not legal or legal[0] < 52:  # passed out (terminal) or the play has begun
                break
            state.write_observation_tensor(buf)
            state.apply_action(legal[int(rnd.random() * len(legal))])
        auctions += 1
    return auctions / elapsed


def bench_selfplay_share(boards: int, hidden: int, depth: int, seconds: float, seed: int, threads: int):
    """Seconds per step for env (step + encoding) and for the policy (forward + sampling)."""
    import torch

    torch.set_num_threads(threads)
    layers: list[torch.nn.Module] = []
    width = 480
    for _ in range(depth):
        layers += [torch.nn.Linear(width, hidden), torch.nn.GELU()]
        width = hidden
    layers.append(torch.nn.Linear(width, 38))
    net = torch.nn.Sequential(*layers).eval()
    deals = random_deals(5000, seed=seed)
    dd = np.random.default_rng(seed).integers(0, 14, size=(len(deals), 4, 5), dtype=np.uint8)
    env = AuctionEnv(deals, dd, EnvConfig.qiu(num_boards=boards // 2, seed=seed))
    obs = np.empty((env.num_tables, 480), np.float32)
    obs_t = torch.from_numpy(obs)
    gen = torch.Generator().manual_seed(seed)
    t_env = t_net = 0.0
    steps = 0
    with torch.inference_mode():
        t_start = time.perf_counter()
        while time.perf_counter() - t_start < seconds or steps < 3:
            t0 = time.perf_counter()
            env.observe(obs)
            t1 = time.perf_counter()
            logits = net(obs_t)
            logits = logits.masked_fill(~torch.from_numpy(env.legal), float("-inf"))
            # waiting tables (duplicate twin still bidding) get an all -inf row: give them pass
            logits[:, 0] = torch.where(torch.from_numpy(env.done), 0.0, logits[:, 0])
            calls = torch.multinomial(torch.softmax(logits, dim=1), 1, generator=gen).squeeze(1).numpy()
            t2 = time.perf_counter()
            env.step(np.where(env.done, -1, calls))
            t3 = time.perf_counter()
            t_env += (t1 - t0) + (t3 - t2)
            t_net += t2 - t1
            steps += 1
    return t_env / steps, t_net / steps


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--boards", type=int, default=1024, help="tables in the vectorized env (B)")
    p.add_argument("--seconds", type=float, default=5.0, help="measuring time per contender")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--nets", default="4x256,4x512,4x2048",
                   help="stand-in policy MLPs for the self-play share, as DEPTHxWIDTH,...")
    p.add_argument("--torch-threads", type=int, default=1, help="torch intra-op threads for the forward pass")
    a = p.parse_args()

    env_rate, step_s = bench_env(a.boards, a.seconds, a.seed)
    os_deal = bench_openspiel(a.seconds, a.seed, clone_dealt=False)
    os_clone = bench_openspiel(a.seconds, a.seed, clone_dealt=True)
    env_rate2, _ = bench_env(a.boards, a.seconds, a.seed + 1)  # again, to expose machine noise
    baseline = max(os_deal, os_clone)
    print(f"bidlab AuctionEnv B={a.boards}: {env_rate:,.0f} and {env_rate2:,.0f} auctions/s "
          f"({step_s * 1e3:.2f} ms per step incl. observe + random policy)")
    print(f"OpenSpiel bridge, dealing by chance actions: {os_deal:,.0f} auctions/s")
    print(f"OpenSpiel bridge, cloning a dealt state:     {os_clone:,.0f} auctions/s")
    print(f"ratio vs the faster OpenSpiel path: {min(env_rate, env_rate2) / baseline:.1f}x "
          f"(target >= 4x; absolute target >= 100,000 auctions/s)")

    for spec in a.nets.split(","):
        depth, hidden = (int(x) for x in spec.lower().split("x"))
        t_env, t_net = bench_selfplay_share(a.boards, hidden, depth, min(a.seconds, 3.0), a.seed,
                                            a.torch_threads)
        print(f"self-play step, B={a.boards} (duplicate, {a.boards // 2} pairs), stand-in MLP "
              f"480-{depth}x{hidden}-38, {a.torch_threads} torch thread(s): env {t_env * 1e3:.2f} ms, "
              f"policy forward+sample {t_net * 1e3:.2f} ms -> env share {t_env / (t_env + t_net):.0%}")


if __name__ == "__main__":
    main()
