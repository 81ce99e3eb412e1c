"""Array operations of MindSpore r2.3 ``mindspore.ops``: shapes, joining, splitting,
reordering, selection. Built from sx ops (Graph mode and gradients included)."""
from __future__ import annotations

import numpy as np

from ._common import SporelingError, canonical_axis, float_like, full_like, ops, tensor, value_of

__all__ = ["broadcast_to", "cat", "concat", "chunk", "column_stack", "deepcopy", "dyn_shape",
           "dsplit", "dstack", "expand_dims", "flip", "fliplr", "flipud", "hsplit", "hstack",
           "meshgrid", "moveaxis", "movedim", "narrow", "nan_to_num", "numel", "permute",
           "rank", "repeat_elements", "repeat_interleave", "reshape", "reverse",
           "reverse_sequence", "shape", "size", "split", "squeeze", "stack", "swapaxes",
           "swapdims", "tensor_split", "tile", "tril", "triu", "transpose", "unbind",
           "unsqueeze", "unstack", "vsplit", "vstack", "where", "select", "view_as_real"]


def _tensors(tensors, op):
    if not isinstance(tensors, (list, tuple)):
        raise SporelingError("expected a tuple or list of tensors", op=op,
                             expected="(Tensor, ...)", got=type(tensors).__name__)
    return [tensor(t) for t in tensors]


def reshape(input, shape):  # noqa: A002
    """``input`` with a new shape (one -1 is inferred)."""
    return ops.reshape(tensor(input), tuple(int(s) for s in shape))


def broadcast_to(input, shape):  # noqa: A002
    """``input`` broadcast to ``shape``; -1 keeps the input's size on that axis."""
    x = tensor(input)
    shape = tuple(int(s) for s in shape)
    lead = len(shape) - x.ndim
    shape = tuple(x.shape[i - lead] if s == -1 and i >= lead else s for i, s in enumerate(shape))
    return ops.broadcast_to(x, shape)


def concat(tensors, axis=0):
    """Join along an existing axis."""
    ts = _tensors(tensors, "ops.concat")
    return ops.concat(ts, axis=canonical_axis(axis, ts[0].ndim, "ops.concat"))


def cat(tensors, axis=0):
    """Alias of :func:`concat`."""
    return concat(tensors, axis)


def stack(tensors, axis=0):
    """Join along a new axis."""
    ts = _tensors(tensors, "ops.stack")
    return ops.stack(ts, axis=canonical_axis(axis, ts[0].ndim + 1, "ops.stack"))


def unstack(input_x, axis=0):
    """The slices along ``axis``, as a tuple."""
    x = tensor(input_x)
    axis = canonical_axis(axis, x.ndim, "ops.unstack")
    return tuple(ops.squeeze(p, axis) for p in ops.split(x, x.shape[axis], axis=axis))


def unbind(input, dim=0):  # noqa: A002
    """Alias of :func:`unstack`."""
    return unstack(input, dim)


def hstack(tensors):
    """Concatenate along axis 1 (axis 0 for 1-d tensors)."""
    ts = _tensors(tensors, "ops.hstack")
    ts = [ops.reshape(t, (1,)) if t.ndim == 0 else t for t in ts]
    return ops.concat(ts, axis=0 if ts[0].ndim == 1 else 1)


def vstack(inputs):
    """Concatenate along axis 0, 1-d tensors as rows."""
    ts = [ops.reshape(t, (1, -1)) if t.ndim < 2 else t for t in _tensors(inputs, "ops.vstack")]
    return ops.concat(ts, axis=0)


def dstack(inputs):
    """Concatenate along axis 2, tensors raised to 3-d first."""
    out = []
    for t in _tensors(inputs, "ops.dstack"):
        if t.ndim == 0:
            t = ops.reshape(t, (1, 1, 1))
        elif t.ndim == 1:
            t = ops.reshape(t, (1, -1, 1))
        elif t.ndim == 2:
            t = ops.expand_dims(t, 2)
        out.append(t)
    return ops.concat(out, axis=2)


def column_stack(tensors):
    """1-d tensors as columns, 2-d ones as they are, joined along axis 1."""
    ts = [ops.reshape(t, (-1, 1)) if t.ndim < 2 else t for t in _tensors(tensors,
                                                                         "ops.column_stack")]
    return ops.concat(ts, axis=1)


def _sections(n, indices_or_sections, op):
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if k <= 0:
            raise SporelingError("sections must be positive", op=op, expected="an int > 0",
                                 got=k)
        base, extra = divmod(n, k)  # numpy.array_split / torch.tensor_split sizes
        bounds = np.cumsum([base + 1] * extra + [base] * (k - extra))[:-1]
        return [int(b) for b in bounds]
    return [min(max(int(i), 0), n) for i in indices_or_sections]


def _split_at(x, points, axis):
    bounds = [0] + list(points) + [x.shape[axis]]
    lead = (slice(None),) * axis
    return tuple(ops.getitem(x, lead + (slice(a, max(a, b)),)) for a, b in zip(bounds, bounds[1:]))


def tensor_split(input, indices_or_sections, axis=0):  # noqa: A002
    """Split into n near-equal parts (an int) or at the given indices (a sequence)."""
    x = tensor(input)
    axis = canonical_axis(axis, x.ndim, "ops.tensor_split")
    return _split_at(x, _sections(x.shape[axis], indices_or_sections, "ops.tensor_split"), axis)


def vsplit(input, indices_or_sections):  # noqa: A002
    return tensor_split(input, indices_or_sections, 0)


def hsplit(input, indices_or_sections):  # noqa: A002
    x = tensor(input)
    return tensor_split(x, indices_or_sections, 0 if x.ndim == 1 else 1)


def dsplit(input, indices_or_sections):  # noqa: A002
    return tensor_split(input, indices_or_sections, 2)


def split(tensor_, split_size_or_sections, axis=0):
    """Split into pieces of ``split_size_or_sections`` elements (an int; the last may be
    smaller) or of the listed sizes. Note: an int is a piece *size*, as in PyTorch, not a
    number of pieces as in NumPy."""
    x = tensor(tensor_)
    axis = canonical_axis(axis, x.ndim, "ops.split")
    n = x.shape[axis]
    if isinstance(split_size_or_sections, (int, np.integer)):
        step = int(split_size_or_sections)
        if step <= 0:
            raise SporelingError("split size must be positive", op="ops.split",
                                 expected="an int > 0", got=step)
        points = list(range(step, n, step))
    else:
        sizes = [int(s) for s in split_size_or_sections]
        if sum(sizes) != n:
            raise SporelingError("sizes do not add up to the axis", op="ops.split",
                                 expected=f"sizes summing to {n}", got=sizes)
        points = list(np.cumsum(sizes)[:-1])
    return _split_at(x, points, axis)


def chunk(input, chunks, axis=0):  # noqa: A002
    """At most ``chunks`` pieces of ceil(n / chunks) elements."""
    x = tensor(input)
    axis = canonical_axis(axis, x.ndim, "ops.chunk")
    if int(chunks) <= 0:
        raise SporelingError("chunks must be positive", op="ops.chunk", expected="an int > 0",
                             got=chunks)
    step = -(-x.shape[axis] // int(chunks))
    return split(x, max(step, 1), axis)


def expand_dims(input_x, axis):
    """A new axis of size 1 at ``axis``."""
    x = tensor(input_x)
    return ops.expand_dims(x, canonical_axis(axis, x.ndim + 1, "ops.expand_dims"))


def unsqueeze(input, dim):  # noqa: A002
    return expand_dims(input, dim)


def squeeze(input, axis=None):  # noqa: A002
    """Axes of size 1 removed (all, or those in ``axis``)."""
    x = tensor(input)
    if axis is None or axis == ():
        return ops.squeeze(x)
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    return ops.squeeze(x, tuple(canonical_axis(a, x.ndim, "ops.squeeze") for a in axes))


def transpose(input, input_perm):  # noqa: A002
    """Axes permuted by ``input_perm``."""
    x = tensor(input)
    return ops.transpose(x, tuple(canonical_axis(a, x.ndim, "ops.transpose") for a in input_perm))


def permute(input, axis):  # noqa: A002
    return transpose(input, axis)


def swapaxes(input, axis0, axis1):  # noqa: A002
    x = tensor(input)
    perm = list(range(x.ndim))
    a, b = canonical_axis(axis0, x.ndim, "ops.swapaxes"), canonical_axis(axis1, x.ndim,
                                                                         "ops.swapaxes")
    perm[a], perm[b] = perm[b], perm[a]
    return ops.transpose(x, tuple(perm))


def swapdims(input, dim0, dim1):  # noqa: A002
    return swapaxes(input, dim0, dim1)


def moveaxis(x, source, destination):
    """Axes moved from ``source`` to ``destination`` (ints or sequences)."""
    x = tensor(x)
    src = [source] if isinstance(source, (int, np.integer)) else list(source)
    dst = [destination] if isinstance(destination, (int, np.integer)) else list(destination)
    src = [canonical_axis(a, x.ndim, "ops.moveaxis") for a in src]
    dst = [canonical_axis(a, x.ndim, "ops.moveaxis") for a in dst]
    order = [a for a in range(x.ndim) if a not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return ops.transpose(x, tuple(order))


def movedim(x, source, destination):
    return moveaxis(x, source, destination)


def flip(input, dims):  # noqa: A002
    """Reverse the order along ``dims``."""
    x = tensor(input)
    dims = (dims,) if isinstance(dims, (int, np.integer)) else tuple(dims)
    return ops.flip(x, tuple(canonical_axis(a, x.ndim, "ops.flip") for a in dims))


def reverse(x, axis):
    """Deprecated alias of :func:`flip`."""
    return flip(x, axis)


def fliplr(input):  # noqa: A002
    return flip(input, 1)


def flipud(input):  # noqa: A002
    return flip(input, 0)


def tile(input, dims):  # noqa: A002
    return ops.tile(tensor(input), tuple(int(d) for d in dims))


def repeat_elements(x, rep, axis=0):
    """Each element repeated ``rep`` times along ``axis``."""
    x = tensor(x)
    return ops.repeat(x, int(rep), axis=canonical_axis(axis, x.ndim, "ops.repeat_elements"))


def repeat_interleave(input, repeats, axis=None):  # noqa: A002
    """Each element repeated ``repeats`` times (an int, or one count per element: PyNative
    reads the counts) along ``axis`` (None: the flattened input)."""
    x = tensor(input)
    if axis is None:
        x, axis = ops.reshape(x, (-1,)), 0
    axis = canonical_axis(axis, x.ndim, "ops.repeat_interleave")
    if isinstance(repeats, (int, np.integer)):
        return ops.repeat(x, int(repeats), axis=axis)
    counts = value_of(repeats, "ops.repeat_interleave", "repeats").astype(np.int64).reshape(-1)
    if counts.size == 1:
        return ops.repeat(x, int(counts[0]), axis=axis)
    return ops.index_select(x, tensor(np.repeat(np.arange(x.shape[axis]), counts)), axis=axis)


def narrow(input, axis, start, length):  # noqa: A002
    """``length`` elements from ``start`` along ``axis``."""
    x = tensor(input)
    axis = canonical_axis(axis, x.ndim, "ops.narrow")
    if not 0 <= start <= start + length <= x.shape[axis]:
        raise SporelingError("range out of the axis", op="ops.narrow",
                             expected=f"0 <= start <= start + length <= {x.shape[axis]}",
                             got=f"start={start}, length={length}")
    return ops.getitem(x, (slice(None),) * axis + (slice(start, start + length),))


def tril(input, diagonal=0):  # noqa: A002
    return ops.tril(tensor(input), int(diagonal))


def triu(input, diagonal=0):  # noqa: A002
    return ops.triu(tensor(input), int(diagonal))


def where(condition, x, y):
    """x where ``condition`` holds, else y (broadcasting)."""
    return ops.where(tensor(condition), x if isinstance(x, (int, float)) else tensor(x),
                     y if isinstance(y, (int, float)) else tensor(y))


def select(cond, x, y):
    """Alias of :func:`where`."""
    return where(cond, x, y)


def nan_to_num(input, nan=0.0, posinf=None, neginf=None):  # noqa: A002
    """NaN -> ``nan``, +inf -> ``posinf`` (the dtype's max), -inf -> ``neginf`` (its min)."""
    x = float_like(input)
    info = np.finfo(x.dtype)
    hi = float(info.max) if posinf is None else float(posinf)
    lo = float(info.min) if neginf is None else float(neginf)
    clean = ops.where(ops.isnan(x), full_like(x, nan), x)
    clean = ops.where(ops.logical_and(ops.isinf(clean), clean > 0), full_like(x, hi), clean)
    return ops.where(ops.logical_and(ops.isinf(clean), clean < 0), full_like(x, lo), clean)


def deepcopy(input_x):
    """A copy sharing no memory with ``input_x``."""
    x = tensor(input_x)
    return ops.mul(x, 1) if x.dtype.kind != "b" else ops.logical_and(x, True)


def shape(input_x):
    """The shape, a tuple of ints."""
    return tuple(tensor(input_x).shape)


def dyn_shape(input_x):
    """The shape as an int64 Tensor."""
    return tensor(np.array(tensor(input_x).shape, np.int64))


def rank(input_x):
    """The number of axes."""
    return tensor(input_x).ndim


def size(input_x):
    """The number of elements."""
    return int(np.prod(tensor(input_x).shape))


def numel(input):  # noqa: A002
    return size(input)


def meshgrid(*inputs, indexing="xy"):
    """Coordinate grids from 1-d tensors ('xy': Cartesian, 'ij': matrix indexing)."""
    if len(inputs) == 1 and isinstance(inputs[0], (list, tuple)):
        inputs = tuple(inputs[0])
    if indexing not in ("xy", "ij"):
        raise SporelingError("unknown indexing", op="ops.meshgrid", expected="'xy' or 'ij'",
                             got=repr(indexing))
    ts = [ops.reshape(tensor(t), (-1,)) for t in inputs]
    sizes = [t.shape[0] for t in ts]
    if indexing == "xy" and len(ts) >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(ts):
        axis = i
        if indexing == "xy" and len(ts) >= 2 and i < 2:
            axis = 1 - i
        view = [1] * len(ts)
        view[axis] = t.shape[0]
        out.append(ops.broadcast_to(ops.reshape(t, tuple(view)), tuple(sizes)))
    return tuple(out)


def reverse_sequence(x, seq_lengths, seq_dim, batch_dim=0):
    """Reverse the first ``seq_lengths[b]`` elements along ``seq_dim`` of each batch row."""
    x = tensor(x)
    seq_dim = canonical_axis(seq_dim, x.ndim, "ops.reverse_sequence")
    batch_dim = canonical_axis(batch_dim, x.ndim, "ops.reverse_sequence")
    lengths = ops.cast(tensor(seq_lengths), np.int64)
    n = x.shape[seq_dim]
    pos = tensor(np.arange(n, dtype=np.int64))
    view = [1] * x.ndim
    view[seq_dim] = n
    bview = [1] * x.ndim
    bview[batch_dim] = x.shape[batch_dim]
    pos = ops.reshape(pos, tuple(view))
    lens = ops.reshape(lengths, tuple(bview))
    index = ops.where(pos < lens, lens - 1 - pos, pos)
    index = ops.broadcast_to(index, tuple(x.shape))
    return ops.take_along_axis(x, index, seq_dim)


def view_as_real(input):  # noqa: A002
    """A complex array as (..., 2) real/imaginary pairs. Sporeling Tensors are real, so the
    input is a complex NumPy array (or anything ``np.asarray`` makes complex)."""
    v = value_of(input)
    if v.dtype.kind != "c":
        raise SporelingError("view_as_real takes complex values", op="ops.view_as_real",
                             expected="a complex64 or complex128 array", got=str(v.dtype))
    return tensor(np.stack([v.real, v.imag], axis=-1))
