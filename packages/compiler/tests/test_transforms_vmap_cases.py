"""vmap against a Python loop over the batch, for every gradient case (every differentiable
primitive, through its op): forward, and the per-example VJP (which batches the backward
primitives: transposed convolutions, scatter-adds, pooling scatters...)."""
import numpy as np
import pytest

from sporeling.compiler import primitives
from sporeling.compiler.autodiff import vjp
from sporeling.compiler.core.batching import has_batching_rule
from sporeling.compiler.transforms import vmap

from grad_cases import all_cases

CASES = all_cases()
# primitives of other packages (a pass's fused expressions) bring their own rules, or none
FOREIGN = {n for n, p in primitives().items() if not has_batching_rule(p)
           and not p.abstract_eval.__module__.startswith("sporeling.compiler.ops")}
ITEMS = [(n, i) for n in sorted(CASES) if n not in FOREIGN for i in range(len(CASES[n]))]
B = 2


def _is_float(a):
    return np.asarray(a).dtype.kind == "f"


def _batch(args, axis, map_ints):
    """Stacked arguments (example 1 scaled slightly), their in_axes, the examples."""
    batched, axes, examples = [], [], [[], []]
    for a in args:
        a = np.asarray(a)
        if _is_float(a) or (map_ints and a.dtype.kind in "iu"):
            pair = [a, a * 1.01 if _is_float(a) else a[::-1] if a.ndim else a]
            if a.dtype.kind in "iu" and a.ndim:  # reversed indices stay in range and differ
                pair[1] = np.ascontiguousarray(pair[1])
            ax = axis % (a.ndim + 1)
            batched.append(np.stack(pair, axis=ax))
            axes.append(ax)
            for e, p in zip(examples, pair):
                e.append(p)
        else:
            batched.append(a)
            axes.append(None)
            for e in examples:
                e.append(a)
    return batched, tuple(axes), examples


def _close(got, want):
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(g, np.float64), np.asarray(w, np.float64),
                                   rtol=1e-6, atol=1e-8, equal_nan=True)


def _stack_outputs(outs):
    if isinstance(outs[0], (tuple, list)):
        return [np.stack([o[k] for o in outs]) for k in range(len(outs[0]))]
    return [np.stack(outs)]


def _as_list(x):
    return list(x) if isinstance(x, (tuple, list)) else [x]


@pytest.mark.parametrize("axis, map_ints", [(0, False), (-1, True)])
@pytest.mark.parametrize("name, index", ITEMS)
def test_vmap_matches_a_loop(name, index, axis, map_ints):
    fn, args, *_ = CASES[name][index]
    args = [np.asarray(a, np.float64) if _is_float(a) else a for a in args]
    batched, axes, examples = _batch(args, axis, map_ints)
    got = _as_list(vmap(fn, in_axes=axes)(*batched))
    _close(got, _stack_outputs([fn(*e) for e in examples]))


@pytest.mark.parametrize("name, index", ITEMS)
def test_vmap_of_vjp_matches_a_loop(name, index):
    fn, args, *_ = CASES[name][index]
    args = [np.asarray(a, np.float64) if _is_float(a) else a for a in args]
    out = fn(*args)
    rng = np.random.default_rng(index)
    cts = [rng.standard_normal(np.shape(o)) for o in _as_list(out)]
    diff = [i for i, a in enumerate(args) if _is_float(a)]

    def per_example(ct_list, *xs):
        o, pullback = vjp(fn, *xs)
        g = pullback(tuple(ct_list) if isinstance(o, (tuple, list)) else ct_list[0])
        return tuple(g[i] for i in diff)

    batched, axes, examples = _batch(args, 0, False)
    ct_batch = [np.stack([c, -c]) for c in cts]
    got = vmap(per_example, in_axes=(0,) + axes)(ct_batch, *batched)
    want = [per_example(c, *e) for c, e in zip([cts, [-c for c in cts]], examples)]
    _close(list(got), _stack_outputs(want))
