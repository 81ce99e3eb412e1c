"""In-place functions of 2.10's ``mindspore.ops`` (``tanh_``, ``clamp_``, ``zero_``,
``put_``, ``erfinv_``, ``inplace_sigmoid``, and the samplers ``bernoulli_``, ``normal_``,
``uniform_``, ``random_``, ``exponential_``): the result is written into the input Tensor
(its dtype and shape kept, as ``Tensor.add_`` does) and the input is returned.
``bernoulli_ext`` samples a new tensor from the probabilities it is given.

``generator``: None or ``ms.default_generator`` draws from the global random stream; another
``ms.Generator`` gives a stream of its own, reproducible from its seed."""
from __future__ import annotations

import numpy as np

from sporeling.core.arguments import check_float, check_int
from sporeling.ms.common.tensor_method_adapters import _write

from ..functional_math import random as _random
from ..functional_math.elementwise import clamp
from ..functional_math.transcendental import erfinv
from ._common import SporelingError, Tensor, ops, tensor
from .activation import sigmoid, tanh
from .indexing import _tensor_scatter

__all__ = ["tanh_", "clamp_", "zero_", "put_", "erfinv_", "inplace_sigmoid", "bernoulli_",
           "normal_", "uniform_", "random_", "exponential_", "bernoulli_ext"]


def _target(op: str, input):  # noqa: A002
    if not isinstance(input, Tensor):
        raise SporelingError("writes into a Tensor", op=op, expected="a Tensor",
                             got=type(input).__name__)
    return input


def tanh_(input):  # noqa: A002
    """``input = tanh(input)``; returns ``input``."""
    return _write(_target("ops.tanh_", input), tanh(input))


def inplace_sigmoid(input):  # noqa: A002
    """``input = sigmoid(input)``; returns ``input``."""
    return _write(_target("ops.inplace_sigmoid", input), sigmoid(input))


def erfinv_(input):  # noqa: A002
    """``input = erfinv(input)``; returns ``input``."""
    return _write(_target("ops.erfinv_", input), erfinv(input))


def clamp_(input, min=None, max=None):  # noqa: A002
    """``input = clamp(input, min, max)``; returns ``input``."""
    for name, bound in (("min", min), ("max", max)):
        if bound is not None and not isinstance(bound, Tensor):
            check_float(bound, name, op="ops.clamp_")
    return _write(_target("ops.clamp_", input), clamp(input, min, max))


def zero_(input):  # noqa: A002
    """Fills ``input`` with zeros; returns it."""
    x = _target("ops.zero_", input)
    return _write(x, tensor(np.zeros(tuple(x.shape), x.dtype)))


def put_(input, index, source, accumulate=False):  # noqa: A002
    """Writes ``source`` at the flat (row-major) positions ``index`` of ``input``
    (``accumulate``: adds there); returns ``input``."""
    x = _target("ops.put_", input)
    idx = ops.reshape(ops.cast(tensor(index), np.int64), (-1, 1))
    src = ops.reshape(ops.cast(tensor(source), x.dtype), (-1,))
    out = _tensor_scatter("ops.put_", ops.reshape(x, (-1,)), idx, src,
                          "add" if accumulate else "update")
    return _write(x, ops.reshape(out, tuple(x.shape)))


def _seed(generator):
    """The seed a sampler draws with: None (the global stream) for no generator or the
    default one; else the next seed of the generator's own stream."""
    from sporeling.ms.common.random import Generator, default_generator
    if generator is None or generator is default_generator:
        return None
    if not isinstance(generator, Generator):
        raise SporelingError("generator must be an ms.Generator", op="ops random",
                             expected="None or a Generator", got=type(generator).__name__)
    streams = generator._state.setdefault("streams", {})
    count = streams.get("ops", 0)
    streams["ops"] = count + 1
    return (generator.initial_seed() * 1_000_003 + count) % (2 ** 31 - 1)


def _unit(x, generator):
    return _random.uniform(tuple(x.shape), 0.0, 1.0, _seed(generator))


def bernoulli_(input, p=0.5, *, generator=None):  # noqa: A002
    """Fills ``input`` with 0/1 samples, 1 with probability ``p`` (a number or a tensor
    broadcasting to it); returns ``input``."""
    x = _target("ops.bernoulli_", input)
    if not isinstance(p, Tensor):
        check_float(p, "p", op="ops.bernoulli_", min=0.0, max=1.0)
    return _write(x, ops.less(_unit(x, generator), tensor(p)))


def bernoulli_ext(input, *, generator=None):  # noqa: A002
    """0/1 samples of ``input``'s shape and dtype, each 1 with the probability given by
    ``input``'s element."""
    x = tensor(input)
    return ops.cast(ops.less(_unit(x, generator), x), x.dtype)


def normal_(input, mean=0, std=1, *, generator=None):  # noqa: A002
    """Fills ``input`` with samples of N(``mean``, ``std``**2); returns ``input``."""
    x = _target("ops.normal_", input)
    mean, std = check_float(mean, "mean", op="ops.normal_"), \
        check_float(std, "std", op="ops.normal_", min=0.0)
    unit = _random.normal(tuple(x.shape), 0.0, 1.0, _seed(generator))
    return _write(x, ops.add(ops.mul(unit, std), mean))


def uniform_(input, from_=0, to=1, *, generator=None):  # noqa: A002
    """Fills ``input`` with samples of U[``from_``, ``to``); returns ``input``."""
    x = _target("ops.uniform_", input)
    from_, to = check_float(from_, "from_", op="ops.uniform_"), \
        check_float(to, "to", op="ops.uniform_")
    if from_ > to:
        raise SporelingError("from_ must not exceed to", op="ops.uniform_",
                             expected="from_ <= to", got=f"from_={from_}, to={to}")
    return _write(x, ops.add(ops.mul(_unit(x, generator), float(to - from_)), float(from_)))


def random_(input, from_=0, to=None, *, generator=None):  # noqa: A002
    """Fills ``input`` with integers drawn uniformly from ``[from_, to)`` (``to`` None: up
    to the dtype's largest integer, 2**24 for float32, 2**53 for float64); returns it."""
    x = _target("ops.random_", input)
    from_ = check_int(from_, "from_", op="ops.random_")
    to = None if to is None else check_int(to, "to", op="ops.random_")
    if to is None:
        dtype = np.dtype(x.dtype)
        to = (2 ** (np.finfo(dtype).nmant + 1) if dtype.kind == "f"
              else (2 if dtype.kind == "b" else int(np.iinfo(dtype).max)))
        if from_ >= to:
            raise SporelingError("from_ must be below the dtype's range", op="ops.random_",
                                 expected=f"from_ < {to}", got=from_)
    if from_ >= to:
        raise SporelingError("needs from_ < to", op="ops.random_", expected="from_ < to",
                             got=f"from_={from_}, to={to}")
    draws = _random.uniform(tuple(x.shape), int(from_), int(to), _seed(generator),
                            np.int64)
    return _write(x, draws)


def exponential_(input, lambd=1, *, generator=None):  # noqa: A002
    """Fills ``input`` with samples of the exponential distribution of rate ``lambd``
    (``-log(1 - u) / lambd``); returns ``input``."""
    x = _target("ops.exponential_", input)
    lambd = check_float(lambd, "lambd", op="ops.exponential_")
    if lambd <= 0:
        raise SporelingError("lambd must be positive", op="ops.exponential_",
                             expected="lambd > 0", got=lambd)
    u = _unit(x, generator)
    return _write(x, ops.div(ops.neg(ops.log1p(ops.neg(u))), float(lambd)))
