"""Array, indexing, scatter/gather, segment, sparse and parameter primitive classes of
MindSpore 2.10, one declaration each over the facade's functions (``_table.py``)."""
from __future__ import annotations

import numpy as np

from sporeling.ms.common import eager_only

from ..functional_array._common import tensor
from ._args import check, ops
from ._table import F, op, same, table


def _ints(v):
    """A shape-like value (a tuple, a list, a Tensor) as a tuple of ints."""
    if hasattr(v, "asnumpy"):
        v = v.asnumpy()
    return tuple(int(i) for i in np.asarray(v).reshape(-1))


def _int(v):
    return int(np.asarray(v.asnumpy() if hasattr(v, "asnumpy") else v).reshape(-1)[0])


def _batch_to_space(self, x):
    return F.batch_to_space_nd(x, (self.block_size,) * 2, self.crops)


def _space_to_batch(self, x):
    return F.space_to_batch_nd(x, (self.block_size,) * 2, self.paddings)


def _nhwc_to_nchw(fn):
    def call(self, x):
        if self.data_format == "NHWC":
            return F.transpose(fn(F.transpose(x, (0, 3, 1, 2)), self.block_size), (0, 2, 3, 1))
        return fn(x, self.block_size)
    return call


def _depth_to_space(x, block):
    """MindSpore's (TensorFlow's) DCR order: channels split as (block, block, C)."""
    x = tensor(x)
    n, c, h, w = x.shape
    y = F.reshape(x, (n, block, block, c // block ** 2, h, w))
    y = F.transpose(y, (0, 3, 4, 1, 5, 2))
    return F.reshape(y, (n, c // block ** 2, h * block, w * block))


def _space_to_depth(x, block):
    x = tensor(x)
    n, c, h, w = x.shape
    y = F.reshape(x, (n, c, h // block, block, w // block, block))
    y = F.transpose(y, (0, 3, 5, 1, 2, 4))
    return F.reshape(y, (n, c * block ** 2, h // block, w // block))


def _format_dim_map(self, x):
    table_ = np.array([self.dst_format.index(c) for c in self.src_format], np.int32)
    idx = tensor(x).asnumpy() % 4
    return tensor(table_[idx].astype(tensor(x).asnumpy().dtype))


def _format_vec_permute(self, x):
    perm = [self.src_format.index(c) for c in self.dst_format]
    x = tensor(x)
    return F.gather(x, tensor(np.array(perm, np.int32)), 0)


def _dynamic_shape(x):
    return tensor(np.array(tensor(x).shape, np.int64))


def _patches(self, x):
    """(N, C*kh*kw, out_h, out_w) patches, MindSpore's channel-last order of the patch."""
    x = tensor(x)
    kh, kw = self.ksizes[-2:]
    sh, sw = self.strides[-2:]
    rh, rw = self.rates[-2:]
    if str(self.padding).upper() == "SAME":
        pads = []
        for n, k, s, r in zip(x.shape[2:], (kh, kw), (sh, sw), (rh, rw)):
            eff = (k - 1) * r + 1
            total = max((-(-n // s) - 1) * s + eff - n, 0)
            pads += [total // 2, total - total // 2]
        x = ops.pad(x, [(0, 0), (0, 0), tuple(pads[:2]), tuple(pads[2:])])
    n, c = x.shape[:2]
    cols = F.unfold(x, (kh, kw), (rh, rw), 0, (sh, sw))     # (N, C*kh*kw, L)
    out_h = (x.shape[2] - (kh - 1) * rh - 1) // sh + 1
    out_w = (x.shape[3] - (kw - 1) * rw - 1) // sw + 1
    cols = F.reshape(cols, (n, c, kh * kw, out_h, out_w))
    cols = F.transpose(cols, (0, 2, 1, 3, 4))
    return F.reshape(cols, (n, kh * kw * c, out_h, out_w))


def _volume_patches(self, x):
    x = tensor(x)
    kd, kh, kw = self.kernel_size[-3:]
    sd, sh, sw = self.strides[-3:]
    n, c, d, h, w = x.shape
    od, oh, ow = (d - kd) // sd + 1, (h - kh) // sh + 1, (w - kw) // sw + 1
    pieces = [x[:, :, i:i + (od - 1) * sd + 1:sd, j:j + (oh - 1) * sh + 1:sh,
                k:k + (ow - 1) * sw + 1:sw]
              for i in range(kd) for j in range(kh) for k in range(kw)]
    stacked = F.stack(pieces, 1)                      # (N, kd*kh*kw, C, od, oh, ow)
    return F.reshape(stacked, (n, kd * kh * kw * c, od, oh, ow))


def _im2col(self, x):
    pads = self.pads if isinstance(self.pads, int) else tuple(self.pads)[:2]
    return F.unfold(x, self.ksizes, self.dilations, pads, self.strides)


def _col2im(self, x, output_size):
    return F.fold(x, _ints(output_size), self.kernel_size, self.dilation, self.padding,
                  self.stride)


def _index_put(self, x1, x2, indices):
    x1 = tensor(x1)
    index = tuple(tensor(i).asnumpy() for i in indices)
    base = x1.asnumpy().copy()
    values = tensor(x2).asnumpy()
    if self.accumulate:
        np.add.at(base, index, values)
    else:
        base[index] = values
    return tensor(base)


def _masked_scatter(x, mask, updates):
    x, m = tensor(x), tensor(mask)
    m = F.broadcast_to(m, x.shape)
    flat_m = m.asnumpy().reshape(-1)
    positions = np.cumsum(flat_m) - 1
    source = F.reshape(tensor(updates), (-1,))
    picked = F.gather(source, tensor(np.where(flat_m, positions, 0).astype(np.int64)), 0)
    return F.where(m, F.reshape(picked, x.shape), x)


def _mirror_pad(self, x, paddings):
    """'REFLECT' mirrors without the edge, 'SYMMETRIC' with it ((before, after) per axis)."""
    pads = [tuple(int(v) for v in p) for p in np.asarray(
        paddings.asnumpy() if hasattr(paddings, "asnumpy") else paddings)]
    if self.mode == "REFLECT":
        return F.pad(x, [v for pair in reversed(pads) for v in pair], "reflect")
    check(self.mode == "SYMMETRIC", "MirrorPad", "mode", "'REFLECT' or 'SYMMETRIC'", self.mode)
    x = tensor(x)
    for axis, (before, after) in enumerate(pads):
        n = x.shape[axis]
        parts = [F.flip(F.narrow(x, axis, 0, before), (axis,))] if before else []
        parts.append(x)
        if after:
            parts.append(F.flip(F.narrow(x, axis, n - after, after), (axis,)))
        x = F.concat(parts, axis) if len(parts) > 1 else x
    return x


def _pad_v3(self, x, paddings, constant_value=None):
    flat = list(_ints(paddings))
    if not self.paddings_contiguous:
        half = len(flat) // 2
        flat = [v for pair in zip(flat[:half], flat[half:]) for v in pair]
    mode = {"edge": "replicate"}.get(self.mode, self.mode)
    value = None if constant_value is None else float(np.asarray(
        constant_value.asnumpy() if hasattr(constant_value, "asnumpy") else constant_value))
    return F.pad(x, flat, mode, value if mode == "constant" else None)


def _reverse_sequence(self, x, seq_lengths):
    return F.reverse_sequence(x, seq_lengths, self.seq_dim, self.batch_dim)


def _roll(self, x):
    shifts = self.shift if isinstance(self.shift, (list, tuple)) else (self.shift,)
    dims = self.axis if isinstance(self.axis, (list, tuple)) else (self.axis,)
    return F.roll(x, tuple(shifts), tuple(dims))


def _split_v(self, x):
    x = tensor(x)
    sizes = list(self.size_splits)
    if -1 in sizes:
        sizes[sizes.index(-1)] = x.shape[self.split_dim] - (sum(sizes) + 1)
    return tuple(F.split(x, sizes, self.split_dim))


def _scatter_non_aliasing_add(x, indices, updates):
    return F.tensor_scatter_add(x, indices, updates)


def _unravel_index(indices, dims):
    out = np.stack(np.unravel_index(tensor(indices).asnumpy(), _ints(dims)))
    return tensor(out.astype(tensor(indices).asnumpy().dtype))


def _segment(fn):
    """Sorted-segment reductions: ``num_segments`` is one past the last id."""
    def call(x, segment_ids):
        ids = tensor(segment_ids)
        count = int(ids.asnumpy().max()) + 1 if ids.shape[0] else 0
        return fn(x, ids, count)
    return call


def _segment_mean(x, ids, count):
    x = tensor(x)
    total = F.unsorted_segment_sum(x, ids, count)
    n = F.unsorted_segment_sum(F.ones_like(ops.cast(tensor(ids), x.dtype)), ids, count)
    n = F.reshape(n, n.shape + (1,) * (x.ndim - 1))
    return total / F.where(ops.equal(n, 0), F.ones_like(n), n)


def _segment_extreme(fn):
    """Empty segments are 0 in MindSpore's SegmentMax/Min (not the dtype's extreme)."""
    def call(x, ids, count):
        x = tensor(x)
        out = fn(x, ids, count)
        present = np.isin(np.arange(count), tensor(ids).asnumpy())
        keep = tensor(present.reshape((count,) + (1,) * (x.ndim - 1)))
        return F.where(F.broadcast_to(keep, out.shape), out, F.zeros_like(out))
    return call


def _embedding_lookup(params, indices, offset):
    params, idx = tensor(params), tensor(indices) - _int(offset)
    valid = ops.logical_and(ops.greater_equal(idx, 0), ops.less(idx, params.shape[0]))
    safe = F.where(valid, idx, F.zeros_like(idx))
    out = F.gather(params, safe, 0)
    mask = F.reshape(valid, valid.shape + (1,) * (params.ndim - 1))
    return F.where(F.broadcast_to(mask, out.shape), out, F.zeros_like(out))


def _sparse_to_dense(indices, values, sparse_shape):
    return F.scatter_nd(indices, F.broadcast_to(tensor(values), (tensor(indices).shape[0],))
                        if tensor(values).ndim == 0 else values, _ints(sparse_shape))


def _sparse_dense_add(indices, values, shape, x2):
    return tensor(x2) + _sparse_to_dense(indices, values, shape)


def _sparse_dense_matmul(self, indices, values, sparse_shape, dense):
    a = _sparse_to_dense(indices, values, sparse_shape)
    a = F.swapaxes(a, 0, 1) if self.adjoint_st else a
    b = F.swapaxes(dense, 0, 1) if self.adjoint_dt else dense
    return F.matmul(a, b)


@eager_only("ops.SparseSlice")
def _sparse_slice(indices, values, shape, start, size):
    idx, vals = tensor(indices).asnumpy(), tensor(values).asnumpy()
    lo, n = np.array(_ints(start)), np.array(_ints(size))
    hi = np.minimum(lo + n, np.array(_ints(shape)))
    keep = np.all((idx >= lo) & (idx < hi), axis=1)
    return (tensor((idx[keep] - lo).astype(idx.dtype)), tensor(vals[keep]),
            tensor((hi - lo).astype(np.int64)))


@eager_only("ops.Coalesce")
def _coalesce(x_indices, x_values, x_shape):
    idx, vals = tensor(x_indices).asnumpy(), tensor(x_values).asnumpy()
    keys, inverse = np.unique(idx.T, axis=0, return_inverse=True)
    summed = np.zeros(len(keys), vals.dtype)
    np.add.at(summed, inverse.reshape(-1), vals)
    return tensor(keys.T.astype(idx.dtype)), tensor(summed), tensor(x_shape)


def _nth_element(self, x, n):
    x = tensor(x)
    values = ops.sort(x, axis=-1, descending=self.reverse)[0]
    return F.gather(values, tensor(np.int64(_int(n))), x.ndim - 1)


def _in_top_k(self, x1, x2):
    return F.intopk(x1, x2, self.k)


def _edit_distance(self, h_idx, h_val, h_shape, t_idx, t_val, t_shape):
    """Levenshtein distance between the sparse sequences of each batch position."""
    def sequences(idx, val, shape):
        idx, val, shape = (tensor(v).asnumpy() for v in (idx, val, shape))
        out = {}
        for i, v in zip(idx, val):
            out.setdefault(tuple(i[:-1]), []).append((i[-1], v))
        return {k: [v for _, v in sorted(items)] for k, items in out.items()}, shape
    hyp, hs = sequences(h_idx, h_val, h_shape)
    truth, ts = sequences(t_idx, t_val, t_shape)
    batch = tuple(np.maximum(hs[:-1], ts[:-1]))
    out = np.zeros(batch, np.float32)
    for pos in np.ndindex(*batch):
        a, b = hyp.get(pos, []), truth.get(pos, [])
        row = list(range(len(b) + 1))
        for i, x in enumerate(a, 1):
            prev, row[0] = row[0], i
            for j, y in enumerate(b, 1):
                prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
        dist = row[-1]
        out[pos] = dist / len(b) if self.normalize and b else (np.inf if self.normalize and a
                                                               else dist)
    return tensor(out)


def _confusion(self, labels, predictions, weights=None):
    n = self.num_classes
    pairs = ops.cast(tensor(labels), np.int64) * n + ops.cast(tensor(predictions), np.int64)
    w = F.ones_like(ops.cast(tensor(labels), np.float32)) if weights is None else tensor(weights)
    flat = F.unsorted_segment_sum(w, pairs, n * n)
    return ops.cast(F.reshape(flat, (n, n)), np.dtype(self.dtype))


def _no_repeat_ngram(self, state_seq, log_probs):
    """-inf for the tokens that would repeat an n-gram already in ``state_seq``."""
    seq, probs = tensor(state_seq).asnumpy(), tensor(log_probs).asnumpy().copy()
    n = self.ngram_size
    for index in np.ndindex(*seq.shape[:-1]):
        s = seq[index]
        if len(s) + 1 < n:
            continue
        tail = tuple(s[len(s) - n + 1:]) if n > 1 else ()
        for i in range(len(s) - n + 1):
            if tuple(s[i:i + n - 1]) == tail:
                probs[index + (int(s[i + n - 1]),)] = -np.finfo(probs.dtype).max
    return tensor(probs)


def _compare_and_bitpack(x, threshold):
    bits = tensor(x).asnumpy() > tensor(threshold).asnumpy()
    return tensor(np.packbits(bits, axis=-1))


def _sub_and_filter(x, max_value, offset):
    x = tensor(x).asnumpy()
    shifted = x - _int(offset)
    keep = (shifted >= 0) & (shifted < _int(max_value))
    return tensor(shifted[keep]), tensor(np.nonzero(keep)[0].astype(x.dtype))


def _inplace(fn):
    return lambda self, x, v: fn(x, v, self.indices)


def _merge(inputs):
    return inputs[0], tensor(np.int32(0))


def _ge_switch(data, pred):
    """(false branch, true branch): the data on the taken side, a zero tensor on the other."""
    zero = F.zeros_like(data)
    return (zero, data) if bool(tensor(pred).asnumpy()) else (data, zero)


_scatter_nd = {n: getattr(F, f"scatter_nd_{n.lower()}") for n in
               ("Add", "Div", "Max", "Min", "Mul", "Sub", "Update")}
_scatter = {n: getattr(F, f"scatter_{n.lower()}") for n in
            ("Add", "Div", "Max", "Min", "Mul", "Sub", "Update")}
_tensor_scatter = {n: getattr(F, f"tensor_scatter_{n.lower()}") for n in
                   ("Add", "Div", "Max", "Min", "Mul", "Sub")}


def _tensor_scatter_update(x, indices, updates):
    x = tensor(x)
    idx = tuple(np.moveaxis(tensor(indices).asnumpy(), -1, 0))
    mask = np.zeros(x.shape, bool)
    mask[idx] = True
    return F.where(tensor(mask), F.scatter_nd(indices, updates, x.shape), x)


def _locking(fn):
    return op(fn[0], "use_locking=False", lambda self, x, i, u: fn[1](x, i, u))


__all__ = table(globals(), [
    same("AccumulateNV2", F.addn),
    op("AffineGrid", "align_corners=False",
       lambda self, theta, size: F.affine_grid(theta, _ints(size), self.align_corners)),
    same("AssignSub", F.assign_sub),
    op("BatchToSpace", "block_size, crops", _batch_to_space),
    op("BatchToSpaceND", "block_shape, crops",
       lambda self, x: F.batch_to_space_nd(x, self.block_shape, self.crops)),
    same("BatchToSpaceNDV2", lambda x, block_shape, crops: F.batch_to_space_nd(
        x, _ints(block_shape), np.asarray(crops.asnumpy() if hasattr(crops, "asnumpy")
                                          else crops).tolist())),
    op("SpaceToBatch", "block_size, paddings", _space_to_batch),
    op("SpaceToBatchND", "block_shape, paddings",
       lambda self, x: F.space_to_batch_nd(x, self.block_shape, self.paddings)),
    op("DepthToSpace", "block_size, data_format='NCHW'", _nhwc_to_nchw(_depth_to_space)),
    op("SpaceToDepth", "block_size, data_format='NCHW'", _nhwc_to_nchw(_space_to_depth)),
    op("DataFormatDimMap", "src_format='NHWC', dst_format='NCHW'", _format_dim_map, eager=True),
    op("DataFormatVecPermute", "src_format='NHWC', dst_format='NCHW'", _format_vec_permute),
    same("DType", F.dtype), op("DynamicShape", "dtype=9", lambda self, x: _dynamic_shape(x)),
    same("TensorShape", _dynamic_shape), same("Rank", F.rank), same("Size", F.size),
    same("Expand", lambda x, shape: F.broadcast_to(x, _ints(shape))),
    op("ExtractImagePatches", "ksizes, strides, rates, padding='valid'", _patches),
    op("ExtractVolumePatches", "kernel_size, strides, padding='VALID'", _volume_patches),
    op("Im2Col", "ksizes, strides=1, dilations=1, pads=0", _im2col),
    op("Col2Im", "kernel_size, dilation=1, padding=0, stride=1", _col2im),
    same("GatherD", F.gather_d), same("GatherNd", F.gather_nd),
    op("GatherV2", "batch_dims=0", lambda self, p, i, axis: F.gather(p, i, axis,
                                                                     self.batch_dims)),
    same("SparseGatherV2", lambda p, i, axis: F.gather(p, i, axis)),
    op("IndexAdd", "axis, use_lock=True, check_index_bound=True",
       lambda self, x, indices, y: F.index_add(x, indices, y, self.axis)),
    same("IndexFill", F.index_fill),
    op("IndexPut", "accumulate=0", _index_put, eager=True),
    op("InplaceAdd", "indices", _inplace(F.inplace_add)),
    op("InplaceSub", "indices", _inplace(F.inplace_sub)),
    op("InplaceUpdate", "indices", _inplace(F.inplace_update)),
    same("InplaceUpdateV2", lambda x, indices, v: F.inplace_update(x, v, indices)),
    op("InplaceIndexAdd", "axis", lambda self, var, indices, updates: F.inplace_index_add(
        var, indices, updates, self.axis)),
    same("MaskedFill", F.masked_fill), same("MaskedScatter", _masked_scatter),
    same("MaskedSelect", F.masked_select),
    op("MirrorPad", "mode='REFLECT'", _mirror_pad),
    op("PadV3", "mode='constant', paddings_contiguous=True", _pad_v3),
    op("Padding", "pad_dim_size=8", lambda self, x: F.padding(x, self.pad_dim_size)),
    op("Pack", "axis=0", lambda self, x: F.stack(x, self.axis)),
    op("Unpack", "axis=0, num=None", lambda self, x: F.unstack(x, self.axis)),
    same("ParallelConcat", lambda values: F.concat(values, 0)),
    op("ReverseSequence", "seq_dim, batch_dim=0", _reverse_sequence),
    op("ReverseV2", "axis", lambda self, x: F.flip(x, tuple(self.axis))),
    op("Roll", "shift, axis", _roll),
    same("ScalarCast", F.scalar_cast),
    same("ScalarToArray", lambda x: tensor(x)),
    op("ScalarToTensor", "", lambda self, x, dtype=None: F.scalar_to_tensor(
        x, dtype if dtype is not None else np.float32)),
    same("TupleToArray", F.tuple_to_array),
    same("TensorToTuple", lambda x: tuple(tensor(x).asnumpy().tolist()), eager=True),
    *(_locking((f"Scatter{n}", fn)) for n, fn in _scatter.items()),
    *(_locking((f"ScatterNd{n}", fn)) for n, fn in _scatter_nd.items()),
    op("ScatterAddWithAxis", "axis=0", lambda self, x, i, u: F.tensor_scatter_elements(
        x, i, u, self.axis, "add")),
    same("ScatterNd", lambda indices, updates, shape: F.scatter_nd(indices, updates,
                                                                    _ints(shape))),
    same("ScatterNonAliasingAdd", _scatter_non_aliasing_add),
    *(same(f"TensorScatter{n}", fn) for n, fn in _tensor_scatter.items()),
    same("TensorScatterUpdate", _tensor_scatter_update),
    op("TensorScatterElements", "axis=0, reduction='none'", lambda self, x, i, u:
       F.tensor_scatter_elements(x, i, u, self.axis, self.reduction)),
    op("SplitV", "size_splits, split_dim, num_split", _split_v),
    same("StopGradient", F.stop_gradient),
    same("UnravelIndex", _unravel_index, eager=True),
    *(same(f"UnsortedSegment{n}", getattr(F, f"unsorted_segment_{n.lower()}"))
      for n in ("Max", "Min", "Prod", "Sum")),
    same("SegmentSum", _segment(F.unsorted_segment_sum)),
    same("SegmentProd", _segment(F.unsorted_segment_prod)),
    same("SegmentMean", _segment(_segment_mean)),
    same("SegmentMax", _segment(_segment_extreme(F.unsorted_segment_max))),
    same("SegmentMin", _segment(_segment_extreme(F.unsorted_segment_min))),
    same("EmbeddingLookup", _embedding_lookup),
    same("SparseToDense", _sparse_to_dense), same("SparseTensorDenseAdd", _sparse_dense_add),
    op("SparseTensorDenseMatmul", "adjoint_st=False, adjoint_dt=False", _sparse_dense_matmul),
    same("SparseSlice", _sparse_slice), same("Coalesce", _coalesce),
    op("NthElement", "reverse=False", _nth_element),
    op("InTopK", "k", _in_top_k),
    same("IdentityN", lambda x: tuple(tensor(t) + 0 for t in x)),
    op("EditDistance", "normalize=True", _edit_distance, eager=True),
    op("ConfusionMatrix", "num_classes, dtype='int32'", _confusion),
    op("NoRepeatNGram", "ngram_size=1", _no_repeat_ngram, eager=True),
    same("CompareAndBitpack", eager_only("ops.CompareAndBitpack")(_compare_and_bitpack)),
    same("SubAndFilter", eager_only("ops.SubAndFilter")(_sub_and_filter)),
    same("Merge", _merge), same("GeSwitch", eager_only("ops.GeSwitch")(_ge_switch)),
])
