"""``sporeling parallel plan script.py`` and ``Cell.shard`` / ``strategy_table``."""
import json

import numpy as np
import pytest

import sporeling.parallel as sp
from sporeling.core.cli import main
from sporeling.expression import Tensor, nn
from sporeling.parallel.testing import run_local

SCRIPT = '''
from sporeling.expression import nn
network = nn.SequentialCell(nn.Dense({d}, {h}), nn.ReLU(), nn.Dense({h}, {d}))
inputs = [({b}, {d})]
if __name__ == "__main__":
    raise SystemExit("the plan command must not run the training part")
'''


def _plan(tmp_path, capsys, b, d, h, *extra):
    script = tmp_path / "model.py"
    script.write_text(SCRIPT.format(b=b, d=d, h=h))
    assert main(["parallel", "plan", str(script), "--devices", "8", "--search-mode",
                 "dynamic_programming", "--flops", "1e11", "--bandwidth", "1e10",
                 "--latency", "1e-5", *extra]) == 0
    return capsys.readouterr().out


def test_plan_command_prints_megatron_for_a_wide_network(tmp_path, capsys):
    out = _plan(tmp_path, capsys, 8, 256, 8192)
    assert "matmul     ((1,1),(1,8))" in out and "matmul     ((1,8),(8,1))" in out
    assert "estimated step time" in out and "memory per device" in out


def test_plan_command_json_gives_data_parallel_for_a_big_batch(tmp_path, capsys):
    data = json.loads(_plan(tmp_path, capsys, 16384, 32, 64, "--json"))
    matmuls = [op["strategy"] for op in data["ops"] if op["op"] == "matmul"]
    assert matmuls == [[[8, 1], [1, 1]], [[8, 1], [1, 1]]]
    assert data["devices"] == 8 and data["estimate"]["comm_bytes_per_step"] > 0


FUNCTION_SCRIPT = '''
from sporeling.compiler import ops
def network(x, w1, w2):
    return ops.matmul(ops.relu(ops.matmul(x, w1)), w2)
inputs = [(16384, 256), (256, 1024), (1024, 256)]
params = (1, 2)
'''


def test_plan_command_memory_limit_splits_the_weights(tmp_path, capsys):
    """Data parallel keeps every weight whole; a device too small for that forces splits."""
    script = tmp_path / "fn.py"
    script.write_text(FUNCTION_SCRIPT)
    args = ["parallel", "plan", str(script), "--devices", "8", "--json", "--flops", "1e11",
            "--bandwidth", "1e10", "--latency", "1e-5"]
    weights = lambda data: [op["strategy"][1] for op in data["ops"] if op["op"] == "matmul"]
    assert main(args) == 0
    assert weights(json.loads(capsys.readouterr().out)) == [[1, 1], [1, 1]]
    assert main(args + ["--memory", "2e6"]) == 0  # a whole weight with its state: 4 MiB
    tight = weights(json.loads(capsys.readouterr().out))
    assert all(a * b >= 4 for a, b in tight), tight


def test_plan_command_names_what_the_script_lacks(tmp_path, capsys):
    script = tmp_path / "empty.py"
    script.write_text("x = 1\n")
    assert main(["parallel", "plan", str(script)]) == 1
    assert "network, inputs missing" in capsys.readouterr().err


def test_cell_shard_runs_split_and_equals_one_device():
    net = nn.SequentialCell(nn.Dense(8, 32), nn.ReLU(), nn.Dense(32, 4))
    x = np.random.default_rng(0).standard_normal((6, 8)).astype(np.float32)
    ref = net(x).asnumpy()
    assert net.shard(in_strategy=((2, 1),)) is net
    for out in run_local(2, lambda: net(Tensor(x))):
        np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-6, atol=1e-6)
    assert all(row["strategy"][0][0] == 2 for row in net.sharded.table(x, device_num=2)
               if row["op"] in ("matmul", "relu"))


def test_cell_shard_parameter_plan_stores_weights_split():
    net = nn.Dense(8, 16)
    x = np.ones((4, 8), np.float32)
    ref = net(x).asnumpy()
    net.shard(in_strategy=((1, 1),), parameter_plan={"weight": (2, 1)})
    for out in run_local(2, lambda: net(Tensor(x))):
        np.testing.assert_allclose(out.asnumpy(), ref, rtol=1e-6)
    with pytest.raises(sp.ShardingError, match="parameter_plan"):
        nn.Dense(2, 2).shard(((1, 1),), parameter_plan={"nope": (1, 1)}).sharded.plan(
            np.ones((1, 2), np.float32), device_num=2)


def test_strategy_table_api_for_a_function():
    from sporeling.compiler import ops
    r = sp.strategy_table(lambda x, w: ops.relu(ops.matmul(x, w)), np.ones((64, 16)),
                          np.ones((16, 32)), device_num=4, mode="dynamic_programming",
                          params=(1,))
    rows = r.table()
    assert [row["op"] for row in rows] == ["matmul", "relu"]
    assert [len(s) for s in rows[0]["strategy"]] == [2, 2] and rows[0]["shapes"] == [
        (64, 16), (16, 32)]
    assert set(r.estimate) == {"step_time_s", "compute_s", "comm_s", "comm_bytes_per_step",
                               "memory_per_device_bytes"}
