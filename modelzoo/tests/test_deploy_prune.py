"""sx.prune and sx.PruningCallback on the digits LeNet: 80% sparsity within a point."""
import pytest

import sporeling.expression as sx
from sporeling.core import SporelingError, set_seed
from sporeling.expression.deploy import Pruner, PruningCallback, prune

from deploy_lenet import Batches, accuracy, digits, trained_lenet


def _fine_tune(net, epochs, callbacks, lr=0.002):
    split = digits()
    set_seed(1)
    data = Batches(split.train_x, split.train_y, 32, seed=1)
    model = sx.Model(net, loss_fn=sx.nn.CrossEntropyLoss(),
                     optimizer=sx.nn.Adam(net.trainable_params(), learning_rate=lr))
    with sx.context(mode=sx.GRAPH_MODE):
        model.train(epochs, data, callbacks=callbacks)


def _weights(net):
    return {p.name: p.asnumpy() for _, p in net.parameters_and_names() if len(p.shape) >= 2}


def test_the_api_is_at_the_top_level():
    assert sx.prune is prune and sx.PruningCallback is PruningCallback


def test_lenet_at_80_percent_sparsity_stays_within_one_point_after_a_short_ramp():
    split = digits()
    net = trained_lenet()
    float_acc = accuracy(net, split.test_x, split.test_y)
    assert float_acc > 0.95
    steps = 2 * -(-len(split.train_y) // 32)
    cb = PruningCallback(net, final_sparsity=0.8, end_step=steps // 2, frequency=5)
    _fine_tune(net, 2, [cb])
    assert cb.pruner.sparsity() >= 0.8
    zeros = sum((w == 0).sum() for w in _weights(net).values())
    assert zeros >= 0.8 * sum(w.size for w in _weights(net).values())
    assert accuracy(net, split.test_x, split.test_y) >= float_acc - 0.01


def test_masks_are_kept_through_fine_tuning():
    net = trained_lenet()
    pruner = prune(net, 0.5, scope="layer")
    before = {k: v == 0 for k, v in _weights(net).items()}
    for k, zero in before.items():
        assert zero.mean() == pytest.approx(0.5, abs=0.01), k
    _fine_tune(net, 1, [PruningCallback(pruner)])
    after = _weights(net)
    for k, zero in before.items():
        assert (after[k][zero] == 0).all(), k         # pruned weights stayed pruned
        assert (after[k][~zero] != 0).mean() > 0.99    # the others trained on
    assert pruner.target == 0.5


def test_without_the_callback_training_revives_pruned_weights():
    net = trained_lenet()
    prune(net, 0.5)
    zeros_before = sum((v == 0).sum() for v in _weights(net).values())
    _fine_tune(net, 1, [])  # the control for the test above: masks do not hold by themselves
    assert sum((v == 0).sum() for v in _weights(net).values()) < 0.8 * zeros_before


def test_channel_pruning_zeroes_whole_output_channels_but_not_the_classes():
    net = trained_lenet()
    pruner = prune(net, 0.25, mode="channel")
    w = _weights(net)
    assert "classifier.4.weight" not in pruner.masks and (w["classifier.4.weight"] != 0).all()
    conv = w["features.3.weight"].reshape(64, -1)
    dead = ~conv.any(1)
    assert dead.sum() == 16 and (conv[~dead] != 0).all()
    dense = w["classifier.0.weight"]
    assert (~dense.any(1)).sum() == 30


def test_bad_requests_say_what_was_expected():
    net = trained_lenet()
    with pytest.raises(SporelingError, match=r"unknown pruning mode.*got mode='rows'"):
        Pruner(net, mode="rows")
    with pytest.raises(SporelingError, match="channel pruning is per layer"):
        Pruner(net, mode="channel", scope="global")
    with pytest.raises(SporelingError, match=r"no such Parameter.*\['nope'\]"):
        Pruner(net, params=["nope"])
    with pytest.raises(SporelingError, match="a sparsity ramp needs its end"):
        PruningCallback(net, final_sparsity=0.5)
    with pytest.raises(SporelingError, match=r"expected a number in \[0, 1\)"):
        prune(net, 1.5)
