"""Plumbing every long job shares, the lowest layer of bidlab (see DESIGN.md).

- :mod:`bidlab.runtime.shards`: one shard writer/reader (atomic, checksummed, resumable);
- :mod:`bidlab.runtime.executor`: one executor over threads and spawned processes;
- :mod:`bidlab.runtime.progress`: one progress display (rich bar or plain lines);
- :mod:`bidlab.runtime.stats`: means with standard errors, and their formatting;
- :mod:`bidlab.runtime.split`: the train/validation/test split of deal ids.

This package imports nothing from bidlab but :mod:`bidlab.errors` and :mod:`bidlab.fileio`
(the one atomic writer). The package itself imports no submodule, so that a spawned worker
that unpickles :mod:`bidlab.runtime.executor` loads no numpy before its thread limits are set.
"""
