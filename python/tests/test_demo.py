"""`python3 -m ckpt demo` (ckpt.demo), the README's main job, on a tiny
config: the table has its columns and a row per variant, ckpt's losses
follow eager's, the picture is a valid PNG, and bad arguments are short
errors."""

import pytest

from torch_required import torch  # noqa: F401,E402 (skips or fails here)

from ckpt import demo
from ckpt.__main__ import main as ckpt_main


def test_demo_prints_the_table_and_writes_the_picture(tmp_path, capsys):
    picture = tmp_path / "demo.png"
    status = ckpt_main(["demo", "--tiny", "--steps", "3", "--budgets", "none,0.5",
                        "--threads", "1", "--output", str(picture)])
    assert status == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    header = next(line for line in lines if line.startswith("variant"))
    for column in demo.COLUMNS:
        assert column in header
    rows = {line.split("  ")[0].strip(): line for line in lines
            if line.startswith(("pytorch", "ckpt"))}
    assert set(rows) >= {"pytorch eager", "pytorch + checkpoint", "ckpt budget=none"}
    assert any(name.startswith("ckpt budget=0.5") for name in rows)
    # The last column: the largest loss difference from eager.
    for name, line in rows.items():
        assert float(line.split()[-1]) <= 1e-5, name
    assert "Unranked Memref" not in out
    data = picture.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image
    image = matplotlib.image.imread(str(picture))
    assert image.shape[0] > 100 and image.shape[1] > 100


def test_demo_rows_measure_both_peaks_the_same_way():
    """PyTorch's peak comes from the allocator's records: a step that
    allocates nothing beyond its inputs measures zero on top, and one that
    allocates a 1 MiB tensor at least that."""
    assert demo.allocated_peak(lambda: None) == 0
    keep = []
    assert demo.allocated_peak(lambda: keep.append(torch.ones(2**18))) >= 2**20


def test_demo_bad_arguments_are_short_errors(capsys):
    with pytest.raises(SystemExit) as exit_info:
        demo.main(["--model", "nosuchmodel"])
    assert exit_info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_info:
        demo.main(["--steps", "1"])
    assert exit_info.value.code == 2
    assert "--steps must be at least 2" in capsys.readouterr().err
