"""The README's install commands (issue 20): on a plain package index a bare ``torch==X`` pin
resolves to the CUDA build on Linux, so every install line names PyTorch's CPU index, and the
pin is the torch these tests run on."""

import re
from pathlib import Path

import torch

README = Path(__file__).parents[1] / "README.md"
CPU_INDEX = "--index-url https://download.pytorch.org/whl/cpu"


def _bash_blocks() -> list[str]:
    return re.findall(r"```bash\n(.*?)```", README.read_text(), flags=re.S)


def test_every_install_line_takes_torch_from_the_cpu_index():
    installs = [line for block in _bash_blocks() for line in block.splitlines() if "pip install torch" in line]
    assert len(installs) >= 2
    for line in installs:
        pin = re.search(r"pip install torch==(\S+) (--index-url \S+)", line)
        assert pin is not None, line
        assert pin.group(2) == CPU_INDEX, line
        assert pin.group(1) == torch.__version__.split("+")[0], (pin.group(1), torch.__version__)


def test_the_readme_no_longer_claims_the_pin_alone_picks_the_cpu_build():
    text = " ".join(README.read_text().split())
    assert "pinned first so that pip takes the CPU build" not in text
