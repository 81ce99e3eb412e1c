"""Every zoo model: registered with a docstring naming its paper, builds with its defaults,
runs forward at its registered input shape, and one Adam step on a fixed batch lowers its
loss with a gradient reaching every parameter."""
import numpy as np
import pytest

import sporeling.expression as sx
from sporeling.core import set_seed
from sporeling.expression import ops
from sporeling.zoo import create_model, get_models, list_models
from sporeling.zoo.models.catalog import ALIASES, MODELS, TOKEN_MODELS


@pytest.fixture(autouse=True, scope="module")
def one_blas_thread():
    """Small matrices: one BLAS thread beats many fighting over two busy cores."""
    from threadpoolctl import threadpool_limits
    with threadpool_limits(limits=1, user_api="blas"):
        yield


PAPERS = {"lenet5": "LeCun", "mlp": "Rumelhart", "resnet20": "He, Zhang", "resnet18": "He, Zhang",
          "mobilenet_v2": "Sandler", "vit_tiny": "Dosovitskiy", "char_gpt": "Radford",
          "vae": "Kingma", "ddpm": "Ho, Jain", "lstm_text": "Hochreiter"}


def _factory_doc(name):
    factory = get_models()[name].factory
    cls = getattr(factory, "func", factory)  # functools.partial keeps the class in .func
    import inspect
    return (inspect.getmodule(cls).__doc__ or "") + (cls.__doc__ or "")


def _batch(name, n=4):
    rng = np.random.default_rng(0)
    shape = get_models()[name].input_shape
    if name == "char_gpt":
        ids = rng.integers(0, 96, (n, shape[0] + 1)).astype(np.int32)
        return ids[:, :-1], ids[:, 1:]
    if name == "lstm_text":
        return (rng.integers(2, 53, (n, shape[0])).astype(np.int32),
                np.array([16, 9, 4, 12][:n], np.int32), rng.integers(0, 2, n).astype(np.int32))
    x = rng.random((n,) + shape).astype(np.float32)
    if name == "vae":
        return x, rng.standard_normal((n, 8)).astype(np.float32)
    if name == "ddpm":
        return x, np.array([0, 15, 30, 49][:n]), rng.standard_normal(x.shape).astype(np.float32)
    return x, rng.integers(0, 10, n).astype(np.int32)


def _loss(name, net, batch):
    if name == "char_gpt":
        logits = net(batch[0])
        return ops.cross_entropy(ops.reshape(logits, (-1, logits.shape[-1])),
                                 sx.Tensor(batch[1].reshape(-1)))
    if name == "lstm_text":
        return ops.cross_entropy(net(batch[0], batch[1]), sx.Tensor(batch[2]))
    if name == "vae":
        return ops.neg(ops.mean(net.elbo(sx.Tensor(batch[0]), sx.Tensor(batch[1]))))
    if name == "ddpm":
        return net.loss(*batch)
    return ops.cross_entropy(net(sx.Tensor(batch[0])), sx.Tensor(batch[1]))


def test_every_model_of_the_issue_is_registered_with_the_old_names_kept():
    assert set(MODELS) == set(PAPERS)
    assert set(MODELS) | set(ALIASES) <= set(list_models())
    assert get_models()["lenet5_digits"].factory is get_models()["lenet5"].factory


@pytest.mark.parametrize("name", sorted(PAPERS))
def test_docstring_names_the_paper(name):
    assert PAPERS[name] in _factory_doc(name)


@pytest.mark.parametrize("name", sorted(PAPERS))
def test_builds_and_runs_forward_at_its_registered_input_shape(name):
    net = create_model(name)
    shape = get_models()[name].input_shape
    if name in TOKEN_MODELS:
        out = net(np.ones((2,) + shape, np.int32))
        expected = (2, shape[0], 96) if name == "char_gpt" else (2, 2)
    elif name == "vae":
        out, expected = net(sx.Tensor(np.zeros((2,) + shape, np.float32)))[0], (2, 64)
    elif name == "ddpm":
        out = net(sx.Tensor(np.zeros((2,) + shape, np.float32)), np.array([0, 5]))
        expected = (2,) + shape
    else:
        out, expected = net(sx.Tensor(np.zeros((2,) + shape, np.float32))), (2, 10)
    assert out.shape == expected and np.isfinite(out.asnumpy()).all()


@pytest.mark.parametrize("name", sorted(PAPERS))
def test_one_step_lowers_the_loss_and_every_parameter_gets_a_gradient(name):
    set_seed(0)
    net = create_model(name)
    net.set_train(True)
    batch = _batch(name)
    params = net.trainable_params()
    optimizer = sx.nn.Adam(params, learning_rate=1e-3)

    def loss_fn():
        set_seed(1)  # the same dropout mask before and after the step
        return _loss(name, net, batch)

    before, grads = sx.value_and_grad(loss_fn, None, params)()
    silent = [p.name for p, g in zip(params, grads) if not np.any(g.asnumpy())]
    assert not silent, f"no gradient reaches {silent}"
    assert all(np.isfinite(g.asnumpy()).all() for g in grads)
    optimizer(grads)
    after = loss_fn()
    assert float(after.asnumpy()) < float(before.asnumpy())
