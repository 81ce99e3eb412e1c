"""Record real MindSpore 2.10's ``Tensor`` method results for ms/tests/test_tensor_methods.py.

Run with MindSpore's interpreter (not a dependency of the facade or its tests):

    /work/ms-venv/bin/python ms/tests/data/make_tensor_method_refs.py

It evaluates each expression of :data:`CASES` on the inputs of :func:`inputs` with
``mindspore`` as ``ms`` and writes ``tensor_methods_2_10.npz`` next to this file: for case
``name``, ``name`` (one tensor/number) or ``name.0``, ``name.1``... (a tuple). The tests
evaluate the same expressions with ``sporeling.ms`` and compare. Importing this module needs
only NumPy (the tests import CASES and inputs from it).
"""
from __future__ import annotations

import pathlib

import numpy as np

OUT = pathlib.Path(__file__).with_name("tensor_methods_2_10.npz")


def inputs(ms):
    """The named inputs of the expressions, as ``ms.Tensor``s of ``ms`` (either package)."""
    rng = np.random.default_rng(22)
    x = np.array([[1.0, 5.0, -3.0], [4.0, -2.0, 6.0]], np.float32)
    return {
        "ms": ms, "T": ms.Tensor, "np": np,
        "x": ms.Tensor(x),
        "y": ms.Tensor(np.abs(x) + 0.5),
        "u": ms.Tensor(np.array([[0.1, 0.5, 0.9], [0.3, 0.7, 0.2]], np.float32)),
        "b": ms.Tensor(x > 1.5),
        "i": ms.Tensor(np.array([[3, -7, 2], [9, 0, -4]], np.int32)),
        "m": ms.Tensor(rng.normal(size=(3, 3)).astype(np.float32)),
        "bm": ms.Tensor(rng.normal(size=(2, 3, 4)).astype(np.float32)),
        "bn": ms.Tensor(rng.normal(size=(2, 4, 2)).astype(np.float32)),
        "v": ms.Tensor(np.array([1.0, 2.0, 3.0], np.float32)),
        "idx": ms.Tensor(np.array([[0, 2], [1, 0]], np.int64)),
        "sel": ms.Tensor(np.array([2, 0], np.int32)),
        "nanx": ms.Tensor(np.array([[1.0, np.nan, 3.0], [np.inf, -np.inf, 2.0]], np.float32)),
    }


CASES = {
    # arithmetic (alpha, rounding modes)
    "add": "x.add(y)", "add_alpha": "x.add(y, alpha=2)", "add_scalar": "x.add(1.5)",
    "sub_alpha": "x.sub(y, alpha=0.5)", "subtract": "x.subtract(2.0)", "mul": "x.mul(y)",
    "multiply": "x.multiply(y)", "div": "x.div(y)", "div_floor": "x.div(y, rounding_mode='floor')",
    "div_trunc": "x.div(y, rounding_mode='trunc')", "divide": "x.divide(2.0)",
    "true_divide": "x.true_divide(y)", "floor_divide": "x.floor_divide(y)",
    "remainder": "x.remainder(y)", "fmod": "x.fmod(y)", "pow": "x.pow(2)",
    "float_power": "y.float_power(2)", "maximum": "x.maximum(y)", "minimum": "x.minimum(y)",
    "neg": "x.neg()", "reciprocal": "y.reciprocal()", "rsqrt": "y.rsqrt()",
    "lerp": "x.lerp(y, 0.25)", "xlogy": "y.xlogy(y)", "addcmul": "x.addcmul(y, u, value=2)",
    "addcdiv": "x.addcdiv(u, y, value=0.5)", "hypot": "x.hypot(y)", "atan2": "x.atan2(y)",
    "logaddexp": "x.logaddexp(y)",
    # unary math
    "abs": "x.abs()", "absolute": "x.absolute()", "exp": "u.exp()", "expm1": "u.expm1()",
    "log": "y.log()", "log1p": "y.log1p()", "log2": "y.log2()", "log10": "y.log10()",
    "sqrt": "y.sqrt()", "sigmoid": "x.sigmoid()", "tanh": "x.tanh()", "sin": "x.sin()",
    "cos": "x.cos()", "tan": "u.tan()", "asin": "u.asin()", "acos": "u.acos()",
    "atan": "x.atan()", "sinh": "u.sinh()", "cosh": "u.cosh()", "erf": "x.erf()",
    "erfc": "u.erfc()", "erfinv": "u.erfinv()", "floor": "u.mul(7).floor()",
    "ceil": "u.mul(7).ceil()", "trunc": "x.div(4).trunc()", "frac": "x.div(4).frac()",
    "round": "u.mul(7).round()", "sign": "x.sign()", "square": "x.square()",
    "logit": "u.logit()", "nan_to_num": "nanx.nan_to_num(0.0, 9.0, -9.0)",
    "sinc": "u.sinc()",
    # comparison and logic
    "eq": "x.eq(y)", "ne": "x.ne(4.0)", "gt": "x.gt(y)", "ge": "x.ge(4.0)", "lt": "x.lt(y)",
    "le": "x.le(4.0)", "greater": "x.greater(1.0)", "less_equal": "x.less_equal(y)",
    "isclose": "x.isclose(x.add(1e-6))", "allclose": "x.allclose(x.add(1e-6))",
    "equal": "x.equal(x)", "isnan": "nanx.isnan()", "isinf": "nanx.isinf()",
    "isfinite": "nanx.isfinite()", "logical_and": "b.logical_and(x.gt(0))",
    "logical_not": "b.logical_not()", "logical_or": "b.logical_or(x.lt(0))",
    "bitwise_and": "i.bitwise_and(i.add(1))", "bitwise_or": "i.bitwise_or(5)",
    "bitwise_xor": "i.bitwise_xor(3)", "clamp": "x.clamp(-1.0, 4.0)", "clip": "x.clip(0.0)",
    # reductions
    "sum_dim": "x.sum(dim=1, keepdim=True)", "sum_axis": "x.sum(axis=0)", "sum": "x.sum()",
    "mean_dim": "x.mean(dim=0)", "prod_dim": "x.prod(dim=1)",
    "argmax_dim": "x.argmax(dim=1)", "argmin_dim": "x.argmin(axis=0)",
    "all_dim": "b.all(dim=1)", "any_dim": "b.any(dim=0)", "amax": "x.amax(1)",
    "amin": "x.amin(0, True)", "std": "x.std(1)", "logsumexp": "x.logsumexp(1)",
    "norm": "x.norm()", "norm_dim": "x.norm(dim=1)", "norm_1": "x.norm(1, dim=0)",
    "nansum": "nanx.nan_to_num(0.0, 0.0, 0.0).nansum(1)", "median": "x.median()",
    "count_nonzero": "i.count_nonzero()", "argmax_with_value": "x.argmax_with_value(1)",
    "argmin_with_value": "x.argmin_with_value()", "cumsum": "x.cumsum(1)",
    "cumsum_dim": "x.cumsum(dim=0)", "cumprod": "x.cumprod(1)", "cummax": "x.cummax(1)",
    "cummin": "x.cummin(0)", "logcumsumexp": "x.logcumsumexp(1)",
    # sorting and selection
    "sort": "x.sort()", "sort_desc": "x.sort(dim=0, descending=True)",
    "argsort": "x.argsort(1)", "topk": "x.topk(2)", "topk_dim": "x.topk(1, dim=0)",
    "msort": "x.msort()",
    # indexing
    "gather": "x.gather(1, idx)", "gather_elements": "x.gather_elements(1, idx)",
    "index_select": "x.index_select(1, sel)", "masked_fill": "x.masked_fill(b, 0.0)",
    "masked_select": "x.masked_select(b)", "where": "x.where(b, y)",
    "scatter": "x.scatter(1, idx, y[:, :2])", "scatter_add": "x.scatter_add(1, idx, y[:, :2])",
    "narrow": "x.narrow(1, 1, 2)", "select": "x.select(1, 2)", "take": "x.take(sel)",
    "nonzero": "i.nonzero()", "argwhere": "b.argwhere()", "tril": "m.tril()",
    "triu": "m.triu(1)", "diagonal": "m.diagonal()", "diag": "v.diag()", "trace": "m.trace()",
    # shapes
    "reshape": "x.reshape(3, 2)", "view": "x.view(3, 2)", "view_tuple": "x.view((6,))",
    "view_as": "x.view_as(x.reshape(3, 2))",
    "reshape_as": "x.reshape_as(v.reshape(3, 1).expand(3, 2))",
    "permute": "bm.permute(2, 0, 1)", "transpose": "bm.transpose(0, 2)", "t": "x.t()",
    "mT": "bm.mT", "swapaxes": "bm.swapaxes(0, 1)", "movedim": "bm.movedim(0, 2)",
    "flatten": "bm.flatten()", "flatten_1": "bm.flatten(1)", "ravel": "bm.ravel()",
    "squeeze": "x.reshape(1, 2, 1, 3).squeeze()", "squeeze_dim": "x.reshape(1, 2, 3).squeeze(0)",
    "unsqueeze": "x.unsqueeze(1)", "expand_dims": "x.expand_dims(0)",
    "expand": "v.expand(2, 3)", "expand_m1": "v.reshape(1, 3).expand(4, -1)",
    "expand_as": "v.expand_as(x)", "broadcast_to": "v.broadcast_to((2, 3))",
    "tile": "x.tile((2, 1))", "repeat_interleave": "x.repeat_interleave(2, dim=1)",
    "flip": "x.flip((1,))", "roll": "x.roll(1, 1)", "chunk": "x.chunk(3, 1)",
    "chunk_dim": "x.chunk(2, dim=0)", "split": "x.split(1)", "split_sections": "x.split([1, 2], 1)",
    "tensor_split": "x.tensor_split(3, 1)", "unbind": "x.unbind(1)",
    # linear algebra
    "matmul": "x.matmul(m)", "mm": "x.mm(m)", "bmm": "bm.bmm(bn)", "outer": "v.outer(v)",
    "addmm": "x.addmm(x, m, beta=0.5, alpha=2)", "det": "m.det()",
    "inverse": "m.inverse()",
    # dtypes and info
    "astype": "x.astype(ms.int32)", "to": "x.to(ms.float16)", "float": "i.float()",
    "int": "x.int()", "half": "x.half()", "double": "x.double()", "long": "x.long()",
    "bool": "x.bool()", "short": "i.short()", "byte": "i.abs().byte()", "type_as": "i.type_as(x)",
    "dim": "x.dim()", "ndim": "x.ndim", "numel": "bm.numel()", "nelement": "bm.nelement()",
    "size": "bm.size", "ndimension": "bm.ndimension()", "item": "x.sum().item()",
    "tolist": "x.tolist()", "is_floating_point": "x.is_floating_point()",
    "is_complex": "x.is_complex()", "is_signed": "x.is_signed()",
    "new_zeros": "x.new_zeros((2, 2))", "new_ones": "i.new_ones((3,))",
    "new_full": "x.new_full((2,), 7.0)", "fill_diagonal": "m.fill_diagonal(9.0)",
    # in place: the result is the tensor itself, changed
    "add_": "T(x.asnumpy().copy()).add_(y, alpha=2)", "sub_": "T(x.asnumpy().copy()).sub_(1.0)",
    "mul_": "T(x.asnumpy().copy()).mul_(y)", "div_": "T(x.asnumpy().copy()).div_(y)",
    "zero_": "T(x.asnumpy().copy()).zero_()",
    "fill_": "T(x.asnumpy().copy()).fill_(3.0)", "copy_": "T(x.asnumpy().copy()).copy_(y)",
    "clamp_": "T(x.asnumpy().copy()).clamp_(0.0, 2.0)",
    "masked_fill_": "T(x.asnumpy().copy()).masked_fill_(b, -1.0)",
    "exp_": "T(u.asnumpy().copy()).exp_()", "sigmoid_": "T(x.asnumpy().copy()).sigmoid_()",
    "tanh_": "T(x.asnumpy().copy()).tanh_()", "floor_": "T(u.asnumpy() * 7).floor_()",
    "scatter_": "T(x.asnumpy().copy()).scatter_(1, idx, y[:, :2])",
    "scatter_add_": "T(x.asnumpy().copy()).scatter_add_(1, idx, y[:, :2])",
    "index_fill": "x.index_fill(1, sel, 0.0)",
    # added later: max/min with dim, masked_scatter, top_k, strides
    "max_dim": "x.max(dim=1, keepdim=True)", "min_dim": "x.min(dim=0)",
    "max_axis": "x.max(axis=1)", "max_all": "x.max()",
    "masked_scatter": "x.masked_scatter(b, y.reshape(-1))",
    "masked_scatter_": "T(x.asnumpy().copy()).masked_scatter_(b, y.reshape(-1))",
    "top_k": "x.top_k(2)", "strides": "bm.strides", "stride": "bm.stride()",
    "stride_1": "bm.stride(1)", "fills": "x.fills(2.5)",
    "index_add_": "T(m.asnumpy().copy()).index_add_(0, sel, x.t()[:2], alpha=2)",
    "sum_dtype": "x.sum(dtype=ms.float64)", "mean_dtype": "i.mean(dtype=ms.float32)",
    "prod_dtype": "x.prod(dim=0, dtype=ms.float64)", "squeeze_noop": "x.squeeze(0)",
    "squeeze_some": "x.reshape(1, 2, 1, 3).squeeze((0, 1))",
    "index_put": "x.index_put((idx[1], idx[0]), v[:2])",
    "index_put_acc": "x.index_put((idx[1],), v, True)",
    "put_": "T(x.asnumpy().copy()).put_(idx[0], v[:2], True)",
    "index_copy_": "T(x.asnumpy().copy()).index_copy_(1, sel.astype(ms.int64), y[:, :2])",
}


def _as_arrays(value):
    """A case's value as a list of arrays (one per tuple element)."""
    if isinstance(value, (tuple, list)) and value and hasattr(value[0], "asnumpy"):
        return [np.asarray(v.asnumpy()) for v in value]
    if hasattr(value, "asnumpy"):
        return [np.asarray(value.asnumpy())]
    return [np.asarray(value)]


def _record(names, ms):
    """``{key: array}`` of the cases ``names`` and the failures' messages."""
    env = inputs(ms)
    out, failed = {}, {}
    for name in names:
        expr = CASES[name]
        try:
            value = eval(expr, dict(env))  # noqa: S307 - our own table
            arrays = _as_arrays(value)
        except Exception as exc:  # noqa: BLE001 - recorded as absent, listed below
            failed[name] = f"{type(exc).__name__}: {str(exc).splitlines()[0][:100]}"
            continue
        if len(arrays) == 1 and not isinstance(value, (tuple, list)):
            out[name] = arrays[0]
        else:
            for k, a in enumerate(arrays):
                out[f"{name}.{k}"] = a
    return out, failed


def main(argv):
    import subprocess
    import sys
    import tempfile

    import mindspore as ms
    if argv[:1] == ["--one"]:  # a child: one case, in a fresh MindSpore
        out, failed = _record([argv[1]], ms)
        np.savez(argv[2], **out)
        print(failed.get(argv[1], ""))
        return
    out, failed = _record(list(CASES), ms)
    # 2.10's CPU build reports a failed kernel again on later ops: the failed cases are
    # retried each in a fresh process, so that one failure cannot hide another case.
    for name in list(failed):
        with tempfile.TemporaryDirectory() as tmp:
            path = f"{tmp}/{name}.npz"
            child = subprocess.run([sys.executable, __file__, "--one", name, path],
                                   capture_output=True, text=True, check=True)
            one = dict(np.load(path))
            if one:
                out.update(one)
                del failed[name]
            else:
                failed[name] = child.stdout.strip().splitlines()[-1]
    np.savez_compressed(OUT, **out)
    print(f"wrote {OUT.name}: {len(CASES) - len(failed)} cases")
    for name, message in failed.items():
        print(f"not recorded: {name}: {message}")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
