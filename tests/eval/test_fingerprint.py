"""Stored matches know which agent played them: a spec whose weights or rules changed
since is refused on resume (``bidlab match``) and on reuse (``bidlab league``), so an old
``nn:rl`` result is never read as the new ``nn:rl``'s."""

import json

import pytest
import torch

from bidlab.eval.fingerprint import agent_fingerprint
from bidlab.eval.league import LeagueError, plan_league
from bidlab.eval.match import Match, MatchConfig, MatchError, match_folder
from bidlab.nets.config import preset
from bidlab.nets.io import save_model
from bidlab.nets.modules import build


def _policy(path, seed: int):
    torch.manual_seed(seed)
    return save_model(path, build(preset("policy", "tiny")))


def test_the_fingerprint_follows_the_weights_not_the_file_name(tmp_path):
    _policy(tmp_path / "a", 1)
    _policy(tmp_path / "b", 1)
    _policy(tmp_path / "c", 2)
    a, b, c = (agent_fingerprint(f"nn:{tmp_path / n}") for n in "abc")
    assert a == b
    assert a != c
    assert agent_fingerprint(f"nn:{tmp_path / 'a'}:sample") != a


def test_a_team_is_its_members_in_seat_order_and_a_plus_a_is_a(tmp_path):
    _policy(tmp_path / "a", 1)
    net = f"nn:{tmp_path / 'a'}"
    assert agent_fingerprint(f"{net}+{net}") == agent_fingerprint(net)
    assert agent_fingerprint(f"sayc+{net}") != agent_fingerprint(f"{net}+sayc")
    assert agent_fingerprint("sayc") != agent_fingerprint("random")


def _play_two_boards(tmp_path, net):
    cfg = MatchConfig(net, "sayc", "test", 2, 0, None, 2)
    out = match_folder(cfg, tmp_path / "results")
    Match(cfg, out).run(workers=1)
    return cfg, out


def test_a_stored_match_of_an_agent_that_changed_is_refused_not_resumed(tmp_path):
    _policy(tmp_path / "p", 1)
    net = f"nn:{tmp_path / 'p'}"
    cfg, out = _play_two_boards(tmp_path, net)
    before = (out / "results.jsonl").read_text()
    assert Match(cfg, out).pending() == []           # the same agent: the stored match is its
    _policy(tmp_path / "p", 2)                        # a new policy ships under the same name
    with pytest.raises(MatchError, match="earlier .*has changed"):
        Match(cfg, out)
    with pytest.raises(LeagueError, match="earlier .*has changed"):
        plan_league([net, "sayc"], 2, 2, root=tmp_path / "results", chunk_size=2)
    assert (out / "results.jsonl").read_text() == before  # nothing lost


def test_a_match_stored_before_fingerprints_is_taken_as_it_is(tmp_path):
    _policy(tmp_path / "p", 1)
    net = f"nn:{tmp_path / 'p'}"
    cfg, out = _play_two_boards(tmp_path, net)
    header = json.loads((out / "match.json").read_text())
    del header["fingerprints"]
    (out / "match.json").write_text(json.dumps(header))
    assert Match(cfg, out).pending() == []
    [pairing] = plan_league([net, "sayc"], 2, 2, root=tmp_path / "results", chunk_size=2)
    assert pairing.folder == out
