"""Pipeline stages sharing a parameter: found, and synchronised from the first stage."""
import numpy as np
import pytest

from sporeling.expression import nn
from sporeling.parallel import reset_auto_parallel_context, set_auto_parallel_context
from sporeling.parallel.pipeline.shared import shared_parameters, sync_shared_parameters
from sporeling.parallel.pipeline.stages import plan_stages
from sporeling.parallel.testing import run_local


@pytest.fixture(autouse=True)
def _context():
    reset_auto_parallel_context()
    yield
    reset_auto_parallel_context()


def _tied(stages):
    """Four square Dense layers; the first and the last share their weight."""
    layers = [nn.Dense(3, 3, dtype="float64") for _ in range(4)]
    layers[3].weight = layers[0].weight
    for layer, k in zip(layers, stages):
        layer.pipeline_stage = k
    return nn.SequentialCell(layers)


def test_shared_parameters_lists_those_of_several_stages():
    net = _tied([0, 0, 1, 1])
    (param, holders), = shared_parameters(plan_stages(net, 2))
    assert param is net[0].weight and holders == [0, 1]
    assert shared_parameters(plan_stages(_tied([0, 0, 0, 1]), 2))[0][1] == [0, 1]


@pytest.mark.parametrize("ranks,stages", [(2, 2), (4, 2)])
def test_every_rank_gets_the_first_stages_value(ranks, stages):
    set_auto_parallel_context(pipeline_stages=stages)

    def rank():
        from sporeling.parallel.comm.registry import current
        me = current(None, op="test").rank
        net = _tied([0, 0, 1, 1])
        net[0].weight.set_data(np.full((3, 3), float(me)))     # each rank's own copy
        net[1].weight.set_data(np.full((3, 3), 10.0 + me))      # not shared: untouched
        names = sync_shared_parameters(net)
        return names, net[3].weight.asnumpy()[0, 0], net[1].weight.asnumpy()[0, 0]

    results = run_local(ranks, rank)
    for me, (names, tied, own) in enumerate(results):
        assert names == [results[0][0][0]] and tied == 0.0 and own == 10.0 + me
