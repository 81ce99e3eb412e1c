"""FGSM, PGD and DeepFool against the same attacks written in PyTorch on the same weights
(PyTorch is an optional reference: skipped when it is not installed)."""
import numpy as np
import pytest

from sporeling.armour._digits import shared_digits, shared_mlp
from sporeling.armour.adv import DeepFool, FastGradientSignMethod, ProjectedGradientDescent

torch = pytest.importorskip("torch")


@pytest.fixture(scope="module")
def nets():
    """The digits MLP and a float64 PyTorch copy of its weights."""
    net = shared_mlp()
    p = {q.name: np.asarray(q.asnumpy(), np.float64) for q in net.get_parameters()}
    ref = torch.nn.Sequential(torch.nn.Linear(64, p["0.weight"].shape[0]), torch.nn.ReLU(),
                              torch.nn.Linear(p["2.weight"].shape[1], 10)).double()
    with torch.no_grad():
        ref[0].weight.copy_(torch.from_numpy(p["0.weight"]))
        ref[0].bias.copy_(torch.from_numpy(p["0.bias"]))
        ref[2].weight.copy_(torch.from_numpy(p["2.weight"]))
        ref[2].bias.copy_(torch.from_numpy(p["2.bias"]))
    d = shared_digits()
    return net, ref, d.x_test[:64], d.y_test[:64]


def _torch_grad(ref, x, y, targeted):
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    loss = torch.nn.functional.cross_entropy(ref(xt), torch.tensor(y, dtype=torch.long),
                                             reduction="sum")
    (g,) = torch.autograd.grad(loss, xt)
    return (-g if targeted else g).numpy()


def _torch_pgd(ref, x, y, eps, eps_iter, nb_iter, norm, targeted):
    adv = x.astype(np.float64)
    for _ in range(nb_iter):
        g = _torch_grad(ref, adv, y, targeted)
        if norm == "inf":
            adv = adv + eps_iter * np.sign(g)
            adv = x + np.clip(adv - x, -eps, eps)
        else:
            adv = adv + eps_iter * g / np.linalg.norm(g, axis=1, keepdims=True)
            d = adv - x
            adv = x + d * np.minimum(1, eps / np.linalg.norm(d, axis=1, keepdims=True))
        adv = np.clip(adv, 0, 1)
    return adv


def _agree(ours, theirs, x):
    """Equal up to float32 rounding; a sign flip of a near-zero gradient may move a pixel,
    so at most 1 % of the pixels may differ."""
    far = np.abs(ours - theirs) > 1e-4
    assert far.mean() < 0.01, far.mean()


@pytest.mark.parametrize("targeted", [False, True])
def test_fgsm_matches_torch(nets, targeted):
    net, ref, x, y = nets
    labels = (y + 3) % 10 if targeted else y
    ours = FastGradientSignMethod(net, eps=0.1, targeted=targeted).generate(x, labels)
    theirs = np.clip(x + 0.1 * np.sign(_torch_grad(ref, x, labels, targeted)), 0, 1)
    _agree(ours, theirs, x)


@pytest.mark.parametrize("norm,eps,eps_iter", [("inf", 0.1, 0.02), (2, 1.0, 0.25)])
@pytest.mark.parametrize("targeted", [False, True])
def test_pgd_matches_torch(nets, norm, eps, eps_iter, targeted):
    net, ref, x, y = nets
    labels = (y + 3) % 10 if targeted else y
    ours = ProjectedGradientDescent(net, eps=eps, eps_iter=eps_iter, nb_iter=10, norm=norm,
                                    targeted=targeted, rand_init=False).generate(x, labels)
    theirs = _torch_pgd(ref, x, labels, eps, eps_iter, 10, norm, targeted)
    _agree(ours, theirs, x)


def test_deepfool_first_step_matches_torch(nets):
    net, ref, x, y = nets
    xt = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    logits = ref(xt)
    grads = torch.stack([torch.autograd.grad(logits[:, k].sum(), xt, retain_graph=True)[0]
                         for k in range(10)]).numpy()
    z, rows = logits.detach().numpy(), np.arange(len(x))
    f = z - z[rows, y][:, None]
    w = grads - grads[y, rows][None]
    wn = np.linalg.norm(w, axis=2).T
    dist = np.abs(f) / np.maximum(wn, 1e-12)
    dist[rows, y] = np.inf
    best = dist.argmin(1)
    r = ((dist[rows, best] + 1e-4) / wn[rows, best])[:, None] * w[best, rows]
    correct = z.argmax(1) == y
    theirs = np.clip(x + 1.02 * r, 0, 1)
    ours = DeepFool(net, max_iters=1).generate(x, y)
    np.testing.assert_allclose(ours[correct], theirs[correct], atol=1e-4)
