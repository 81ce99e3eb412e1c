"""``ms.mint``, ``mint.nn``, ``mint.nn.functional``, ``mint.optim`` against recorded outputs
(ms/tests/data/mint_2_10.npz, written by data/mint_record.py: real MindSpore 2.10's mint where
its CPU build has the kernel, PyTorch's otherwise), plus the random ones by their properties."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import mint

DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))
import mint_cases as C  # noqa: E402

EXPECTED = dict(np.load(DATA / "mint_2_10.npz"))
SOURCE = dict(zip(EXPECTED.pop("source_keys").tolist(), EXPECTED.pop("source").tolist()))
B = C.MindSporeBackend(ms)
RUNS = dict(C.all_runs(B))
F = mint.nn.functional


def _compare(key, got, tol):
    if f"{key}#len" in EXPECTED:
        assert isinstance(got, list) and len(got) == int(EXPECTED[f"{key}#len"]), key
        for i, g in enumerate(got):
            _compare(f"{key}/{i}", g, tol)
        return
    want = EXPECTED[key]
    got = np.asarray(got)
    assert got.shape == want.shape, (key, got.shape, want.shape)
    assert got.dtype == want.dtype, (key, got.dtype, want.dtype)
    if want.dtype == bool or np.issubdtype(want.dtype, np.integer):
        np.testing.assert_array_equal(got, want, err_msg=key)
    else:
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol, equal_nan=True, err_msg=key)


@pytest.mark.parametrize("key", sorted(RUNS))
def test_mint_matches_recorded(key):
    tol = 1e-4 if key.startswith(("grad.", "optim.")) else 2e-5
    _compare(key, RUNS[key](), tol)


def test_record_covers_every_case():
    assert set(SOURCE) == set(RUNS)
    assert sum(v == "mindspore" for v in SOURCE.values()) > 150


def test_names_resolve_and_are_listed():
    for module in (mint, mint.nn, F, mint.optim):
        for name in module.__all__:
            assert callable(getattr(module, name)), name


def test_random_creation():
    ms.set_seed(3)
    assert mint.rand(2, 3).shape == (2, 3) and mint.randn((4,)).shape == (4,)
    r = mint.rand(1000).asnumpy()
    assert 0 <= r.min() and r.max() < 1
    i = mint.randint(3, 7, (500,))
    assert i.dtype == ms.int64 and set(np.unique(i.asnumpy())) == {3, 4, 5, 6}
    assert set(np.unique(mint.randint(2, (100,)).asnumpy())) == {0, 1}
    assert sorted(mint.randperm(6).asnumpy().tolist()) == list(range(6))
    x = ms.Tensor(np.zeros((2, 3), np.float32))
    assert mint.rand_like(x).shape == (2, 3) and mint.randn_like(x).dtype == ms.float32
    assert mint.randint_like(x, 5).shape == (2, 3)
    assert mint.empty(2, 3).shape == (2, 3) and mint.empty_like(x).shape == (2, 3)
    b = mint.bernoulli(ms.Tensor(np.full(2000, 0.3, np.float32))).asnumpy()
    assert set(np.unique(b)) <= {0.0, 1.0} and 0.25 < b.mean() < 0.35
    n = mint.normal(2.0, 0.5, size=(4000,)).asnumpy()
    assert abs(n.mean() - 2.0) < 0.05 and abs(n.std() - 0.5) < 0.05
    m = mint.multinomial(ms.Tensor(np.array([0.0, 1.0, 0.0], np.float32)), 2,
                         replacement=True)
    assert m.asnumpy().tolist() == [1, 1]
    with pytest.raises(TypeError):
        mint.rand(2, generator=object())


def test_dropout_training():
    ms.set_seed(1)
    x = ms.Tensor(np.ones((100, 100), np.float32))
    y = F.dropout(x, 0.2).asnumpy()
    assert set(np.unique(y).round(4)) <= {0.0, 1.25} and 0.15 < (y == 0).mean() < 0.25
    layer = mint.nn.Dropout(0.5)
    layer.set_train(True)
    assert 0.4 < (layer(x).asnumpy() == 0).mean() < 0.6
    layer.set_train(False)
    np.testing.assert_array_equal(layer(x).asnumpy(), x.asnumpy())
    z = ms.Tensor(np.array([-1.0, 2.0], np.float32))
    assert F.dropout(z, 0.0, inplace=True) is z


def test_inplace_forms_write_the_input():
    x = ms.Tensor(np.array([-1.0, 0.5, 2.0], np.float32))
    assert F.relu_(x) is x
    np.testing.assert_array_equal(x.asnumpy(), [0.0, 0.5, 2.0])
    y = ms.Tensor(np.array([-1.0, 3.0], np.float32))
    F.hardtanh(y, inplace=True)
    np.testing.assert_array_equal(y.asnumpy(), [-1.0, 1.0])
    layer = mint.nn.ReLU6(inplace=True)
    w = ms.Tensor(np.array([-1.0, 7.0], np.float32))
    layer(w)
    np.testing.assert_array_equal(w.asnumpy(), [0.0, 6.0])
    a = ms.Tensor(np.ones((2, 2), np.float32))
    v = ms.Tensor(np.array([1.0, 2.0], np.float32))
    assert mint.addr_(a, v, v, alpha=2) is a
    np.testing.assert_array_equal(a.asnumpy(), [[3.0, 5.0], [5.0, 9.0]])


def test_graph_mode_sample():
    rng = np.random.default_rng(1)
    x = ms.Tensor(rng.standard_normal((2, 3, 6, 6)).astype(np.float32))
    t = ms.Tensor(np.array([1, 0], np.int64))
    conv, lin = mint.nn.Conv2d(3, 4, 3, padding=1), mint.nn.Linear(4, 2)

    def forward(x, t):
        h = F.relu(conv(x))
        h = mint.mean(h, dim=(2, 3))
        logits = lin(mint.nn.functional.dropout(h, 0.5, training=False))
        return F.cross_entropy(logits, t) + mint.sum(mint.max(logits, 1)[0]) * 0.0

    np.testing.assert_allclose(float(ms.jit(forward)(x, t)), float(forward(x, t)),
                               rtol=1e-5)


def test_layers_torch_conventions():
    lin = mint.nn.Linear(4, 5)
    assert tuple(lin.weight.shape) == (5, 4) and lin.bias is not None
    assert mint.nn.Linear(4, 5, bias=False).bias is None
    conv = mint.nn.Conv2d(3, 4, 3)
    assert tuple(conv.weight.shape) == (4, 3, 3, 3) and conv.bias is not None
    x = ms.Tensor(np.random.default_rng(0).standard_normal((1, 3, 5, 5)).astype(np.float32))
    assert conv(x).shape == (1, 4, 3, 3)  # padding=0 by default (MindSpore's nn: 'same')
    refl = mint.nn.Conv2d(3, 4, 3, padding=1, padding_mode="reflect", bias=False)
    w = refl.weight.asnumpy()
    want = F.conv2d(F.pad(x, (1, 1, 1, 1), mode="reflect"), ms.Tensor(w)).asnumpy()
    np.testing.assert_allclose(refl(x).asnumpy(), want, rtol=1e-5, atol=1e-5)
    emb = mint.nn.Embedding(5, 3, padding_idx=2)
    assert np.all(emb.weight.asnumpy()[2] == 0)
    names = lambda cell: [n for n, _ in cell.parameters_and_names()]  # noqa: E731
    assert names(mint.nn.BatchNorm2d(3)) == ["weight", "bias", "running_mean", "running_var",
                                             "num_batches_tracked"]  # mint's (checkpoints)
    assert names(mint.nn.GroupNorm(1, 3)) == ["weight", "bias"]
    assert names(mint.nn.PReLU()) == ["weight"]
    bn = mint.nn.BatchNorm2d(3)
    bn.set_train(True)
    step = ms.jit(lambda x: bn(x))
    step(x[:, :3])
    step(x[:, :3])
    assert int(bn.num_batches_tracked.asnumpy()) == 2
    ln = mint.nn.LayerNorm(4, elementwise_affine=False)
    assert ln.weight is None and len(list(ln.get_parameters())) == 0


def test_optimizer_decay_reaches_every_parameter_and_groups():
    gamma = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="ln.gamma")
    opt = mint.optim.SGD([gamma], lr=0.1, weight_decay=0.5)
    opt((ms.Tensor(np.zeros(2, np.float32)),))
    np.testing.assert_allclose(gamma.asnumpy(), [0.95, 0.95], rtol=1e-6)
    a = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="a")
    b = ms.Parameter(ms.Tensor(np.ones(2, np.float32)), name="b")
    opt = mint.optim.SGD([{"params": [a]}, {"params": [b], "lr": 1.0}], lr=0.1)
    g = ms.Tensor(np.ones(2, np.float32))
    opt((g, g))
    np.testing.assert_allclose(a.asnumpy(), [0.9, 0.9], rtol=1e-6)
    np.testing.assert_allclose(b.asnumpy(), [0.0, 0.0], atol=1e-7)


def test_training_step_with_mint():
    rng = np.random.default_rng(0)
    x = ms.Tensor(rng.standard_normal((16, 4)).astype(np.float32))
    y = ms.Tensor((rng.standard_normal(16) > 0).astype(np.int64))

    class Net(ms.nn.Cell):
        def __init__(self):
            super().__init__()
            self.fc1, self.act, self.fc2 = mint.nn.Linear(4, 8), mint.nn.ReLU(), \
                mint.nn.Linear(8, 2)

        def construct(self, x):
            return self.fc2(self.act(self.fc1(x)))

    net = Net()
    opt = mint.optim.AdamW(net.trainable_params(), lr=0.05)
    loss_fn = lambda x, y: F.cross_entropy(net(x), y)  # noqa: E731
    step = ms.value_and_grad(loss_fn, None, opt.parameters)
    first = None
    for _ in range(30):
        loss, grads = step(x, y)
        opt(grads)
        first = float(loss) if first is None else first
    assert float(loss) < first * 0.7


def test_sync_batch_norm_helpers():
    """PyTorch's formulas (its CPU build and MindSpore's have no kernels for these)."""
    rng = np.random.default_rng(4)
    parts = [rng.standard_normal((n, 3, 5)).astype(np.float32) for n in (2, 4)]
    eps = 1e-5
    stats = [mint.batch_norm_stats(ms.Tensor(p), eps) for p in parts]
    for p, (mean, invstd) in zip(parts, stats):
        np.testing.assert_allclose(mean.asnumpy(), p.mean((0, 2)), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(invstd.asnumpy(), 1 / np.sqrt(p.var((0, 2)) + eps),
                                   rtol=1e-4)
    means = ms.Tensor(np.stack([m.asnumpy() for m, _ in stats]))
    invstds = ms.Tensor(np.stack([s.asnumpy() for _, s in stats]))
    counts = ms.Tensor(np.array([10.0, 20.0], np.float32))
    rm = ms.Tensor(np.zeros(3, np.float32))
    rv = ms.Tensor(np.ones(3, np.float32))
    mean, invstd = mint.batch_norm_gather_stats_with_counts(
        ms.Tensor(parts[0]), means, invstds, rm, rv, 0.1, eps, counts)
    full = np.concatenate(parts)
    np.testing.assert_allclose(mean.asnumpy(), full.mean((0, 2)), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(invstd.asnumpy(), 1 / np.sqrt(full.var((0, 2)) + eps),
                               rtol=1e-4)
    np.testing.assert_allclose(rm.asnumpy(), 0.1 * full.mean((0, 2)), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(rv.asnumpy(), 0.9 + 0.1 * full.var((0, 2), ddof=1), rtol=1e-4)
    x = ms.Tensor(parts[1])
    w, b = ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32)), ms.Tensor(np.ones(3, np.float32))
    y = mint.batch_norm_elemt(x, w, b, mean, invstd, eps).asnumpy()
    want = (parts[1] - full.mean((0, 2))[:, None]) / np.sqrt(full.var((0, 2)) + eps)[:, None] \
        * np.array([1, 2, 3])[:, None] + 1
    np.testing.assert_allclose(y, want, rtol=1e-4, atol=1e-5)


def _jit_case(case):
    """The case under ``ms.jit``: its array arguments are the compiled function's inputs."""
    key, target, args, kwargs = case
    fn = C.resolve(mint, target)
    slots = [i for i, a in enumerate(args) if isinstance(a, np.ndarray)]

    def call(*tensors):
        full = [C._conv(B, a) for a in args]
        for i, t in zip(slots, tensors):
            full[i] = t
        return fn(*full, **{k: C._conv(B, v) for k, v in kwargs.items()})

    return C.to_np(B, ms.jit(call)(*[ms.Tensor(args[i]) for i in slots]))


# eager-only ops (data-dependent shapes), Python results, and values read back to Python
_NOT_COMPILED = {"masked_select", "nonzero", "where1", "unique_consecutive", "allclose",
                 "bincount", "bitwise_and", "bitwise_or", "bitwise_xor", "gcd",
                 "F.one_hot_auto", "bitwise_not"}


@pytest.mark.parametrize("case", [c for c in C.CASES if c[0] not in _NOT_COMPILED],
                         ids=lambda c: c[0])
def test_mint_under_jit(case):
    _compare(case[0], _jit_case(case), 2e-5)


@pytest.mark.parametrize("key", [c[0] for c in C.LAYERS if not c[6]])
def test_mint_layers_under_jit(key):
    key, cls, args, kwargs, attrs, x, training = next(c for c in C.LAYERS if c[0] == key)
    layer = getattr(mint.nn, cls)(*args, **kwargs)
    for name, value in attrs.items():
        B.set_param(layer, name, value)
    layer.set_train(False)
    _compare(key, C.to_np(B, ms.jit(lambda t: layer(t))(ms.Tensor(x))), 2e-5)


@pytest.mark.parametrize("cls, kwargs", [("SGD", {"lr": 0.1, "momentum": 0.9}),
                                         ("AdamW", {"lr": 0.05, "maximize": True}),
                                         ("Adam", {"lr": 0.05, "weight_decay": 0.1})])
def test_optimizer_step_under_jit_matches_eager(cls, kwargs):
    rng = np.random.default_rng(5)
    x = ms.Tensor(rng.standard_normal((8, 4)).astype(np.float32))
    y = ms.Tensor(rng.integers(0, 3, 8).astype(np.int64))
    results = []
    for compiled in (False, True):
        ms.set_seed(0)
        net = mint.nn.Linear(4, 3)
        opt = getattr(mint.optim, cls)(net.trainable_params(), **kwargs)
        grad_fn = ms.value_and_grad(lambda x, y: F.cross_entropy(net(x), y), None,
                                    opt.parameters)

        def step(x, y):
            loss, grads = grad_fn(x, y)
            opt(grads)
            return loss

        step = ms.jit(step) if compiled else step
        for _ in range(3):
            step(x, y)
        results.append([p.asnumpy() for p in net.trainable_params()])
    for eager, graph in zip(*results):
        np.testing.assert_allclose(graph, eager, rtol=1e-5, atol=1e-6)


def test_default_initialization_bounds_as_mint():
    """mint's (PyTorch's) defaults, measured on MindSpore 2.10: weights and biases uniform in
    +-1/sqrt(fan_in) (fan_in of ConvTranspose2d: out_channels * kH * kW); embeddings N(0, 1)."""
    ms.set_seed(2)
    for layer, fan_in in ((mint.nn.Linear(100, 200), 100), (mint.nn.Conv2d(16, 32, 3), 144),
                          (mint.nn.ConvTranspose2d(16, 32, 3), 288)):
        bound = 1 / np.sqrt(fan_in)
        w, b = layer.weight.asnumpy(), layer.bias.asnumpy()
        assert np.abs(w).max() <= bound and np.abs(w).max() > 0.95 * bound
        assert abs(w.std() - bound / np.sqrt(3)) < 0.05 * bound
        assert np.abs(b).max() <= bound
    e = mint.nn.Embedding(1000, 20).weight.asnumpy()
    assert abs(e.mean()) < 0.02 and abs(e.std() - 1) < 0.02
    m = ms.Tensor(np.array([0.0, 100.0, -100.0], np.float32))
    n = mint.normal(m, ms.Tensor(np.array([1.0, 0.1, 0.01], np.float32))).asnumpy()
    assert np.all(np.abs(n - m.asnumpy()) < np.array([6.0, 0.6, 0.06]))
