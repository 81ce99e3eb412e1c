"""Which internal layout makes im2col convolution fastest? LeNet-5's two convolutions.

Times forward + backward (input and weight gradients) of one convolution, NCHW in and NCHW
out as the public API has it (so each layout pays its own conversions), with im2col by
``sliding_window_view`` and one big matmul per product:

* ``nchw``         columns (N, C*KH*KW, OH*OW), batched matmul against the weight;
* ``nchw-flat``    columns (C*KH*KW, N*OH*OW), one matmul, output transposed back;
* ``nhwc``         channel-last: columns (N*OH*OW, KH*KW*C);
* ``batch-last``   (C, H, W, N): columns (C*KH*KW, OH*OW*N), batch innermost;
* ``sporeling``    the kernels of ``sporeling.runtime`` (``conv2d``, its two gradients);
* ``pytorch``      ``torch.nn.functional.conv2d`` forward and ``torch.autograd.grad`` for
  the two gradients (optional: the "x torch" yardstick).

    python bench/conv_layouts.py [--blocks 5 --steps 10]

Timed with ``bench/timing.compare`` (blocks of calls, 0.3 s idle before each, the order
alternating); prints per layer the median milliseconds with the spread over blocks, the
ratio to the fastest layout and to PyTorch.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

sys.path.insert(0, str(Path(__file__).parent))
from timing import compare, print_table, ratio  # noqa: E402

try:
    import torch
    torch.set_num_threads(2)
except ImportError:  # PyTorch is optional: only a yardstick
    torch = None

LAYERS = {"conv1 1->6 @28x28": ((64, 1, 28, 28), (6, 1, 5, 5)),
          "conv2 6->16 @12x12": ((64, 6, 12, 12), (16, 6, 5, 5))}


def _scatter(dcols, shape, kh, kw, oh, ow, axes):
    """col2im: add each kernel offset's slab back into an input-shaped buffer."""
    dx = np.zeros(shape, np.float32)
    h_ax, w_ax = axes
    for i in range(kh):
        for j in range(kw):
            index = [slice(None)] * len(shape)
            index[h_ax], index[w_ax] = slice(i, i + oh), slice(j, j + ow)
            dx[tuple(index)] += dcols[i, j]
    return dx


def nchw(x, w, ct):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = h - kh + 1, wd - kw + 1
    win = sliding_window_view(x, (kh, kw), axis=(2, 3))           # N C OH OW KH KW
    cols = win.transpose(0, 1, 4, 5, 2, 3).reshape(n, c * kh * kw, oh * ow)
    w2 = w.reshape(o, -1)
    y = np.matmul(w2, cols).reshape(n, o, oh, ow)
    ct3 = ct.reshape(n, o, oh * ow)
    dw = np.matmul(ct3, cols.transpose(0, 2, 1)).sum(0).reshape(w.shape)
    dcols = np.matmul(w2.T, ct3).reshape(n, c, kh, kw, oh, ow).transpose(2, 3, 0, 1, 4, 5)
    return y, _scatter(dcols, x.shape, kh, kw, oh, ow, (2, 3)), dw


def nchw_flat(x, w, ct):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = h - kh + 1, wd - kw + 1
    win = sliding_window_view(x, (kh, kw), axis=(2, 3))
    cols = win.transpose(1, 4, 5, 0, 2, 3).reshape(c * kh * kw, n * oh * ow)
    w2 = w.reshape(o, -1)
    y = np.ascontiguousarray((w2 @ cols).reshape(o, n, oh, ow).transpose(1, 0, 2, 3))
    ct2 = ct.transpose(1, 0, 2, 3).reshape(o, -1)
    dw = (ct2 @ cols.T).reshape(w.shape)
    dcols = (w2.T @ ct2).reshape(c, kh, kw, n, oh, ow).transpose(1, 2, 3, 0, 4, 5)
    return y, _scatter(dcols, x.shape, kh, kw, oh, ow, (2, 3)), dw


def nhwc(x, w, ct):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = h - kh + 1, wd - kw + 1
    xh = np.ascontiguousarray(x.transpose(0, 2, 3, 1))
    win = sliding_window_view(xh, (kh, kw), axis=(1, 2))          # N OH OW C KH KW
    cols = win.transpose(0, 1, 2, 4, 5, 3).reshape(n * oh * ow, kh * kw * c)
    w2 = w.transpose(0, 2, 3, 1).reshape(o, -1)
    y = np.ascontiguousarray((cols @ w2.T).reshape(n, oh, ow, o).transpose(0, 3, 1, 2))
    ct2 = ct.transpose(0, 2, 3, 1).reshape(-1, o)
    dw = (ct2.T @ cols).reshape(o, kh, kw, c).transpose(0, 3, 1, 2)
    dcols = (ct2 @ w2).reshape(n, oh, ow, kh, kw, c).transpose(3, 4, 0, 1, 2, 5)
    dxh = _scatter(dcols, xh.shape, kh, kw, oh, ow, (1, 2))
    return y, np.ascontiguousarray(dxh.transpose(0, 3, 1, 2)), np.ascontiguousarray(dw)


def batch_last(x, w, ct):
    n, c, h, wd = x.shape
    o, _, kh, kw = w.shape
    oh, ow = h - kh + 1, wd - kw + 1
    xb = np.ascontiguousarray(x.transpose(1, 2, 3, 0))              # C H W N
    win = sliding_window_view(xb, (kh, kw), axis=(1, 2))          # C OH OW N KH KW
    cols = win.transpose(0, 4, 5, 1, 2, 3).reshape(c * kh * kw, oh * ow * n)
    w2 = w.reshape(o, -1)
    y = np.ascontiguousarray((w2 @ cols).reshape(o, oh, ow, n).transpose(3, 0, 1, 2))
    ct2 = ct.transpose(1, 2, 3, 0).reshape(o, -1)
    dw = (ct2 @ cols.T).reshape(w.shape)
    dcols = (w2.T @ ct2).reshape(c, kh, kw, oh, ow, n).transpose(1, 2, 0, 3, 4, 5)
    dxb = _scatter(dcols, xb.shape, kh, kw, oh, ow, (1, 2))
    return y, np.ascontiguousarray(dxb.transpose(3, 0, 1, 2)), dw


def sporeling_kernels(x, w, ct):
    from sporeling.runtime import get_backend
    cpu = get_backend("CPU")
    params = dict(stride=(1, 1), padding=((0, 0), (0, 0)), dilation=(1, 1), groups=1)
    y = cpu.run("conv2d", x, w, **params)
    dx = cpu.run("conv_transpose2d", ct, w, output_padding=(0, 0), **params)
    dw = cpu.run("conv2d_weight_grad", x, ct, kernel_size=w.shape[2:], **params)
    return y, dx, dw


def pytorch(x, w, ct):
    tx, tw = torch.from_numpy(x).requires_grad_(), torch.from_numpy(w).requires_grad_()
    y = torch.nn.functional.conv2d(tx, tw)
    dx, dw = torch.autograd.grad(y, (tx, tw), torch.from_numpy(ct))
    return y.detach().numpy(), dx.numpy(), dw.numpy()


LAYOUTS = {"nchw": nchw, "nchw-flat": nchw_flat, "nhwc": nhwc, "batch-last": batch_last,
           "sporeling": sporeling_kernels}
if torch is not None:
    LAYOUTS["pytorch"] = pytorch


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=5, help="timed blocks per layout")
    parser.add_argument("--steps", type=int, default=10, help="calls per block")
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    rows = []
    for layer, (xs, ws) in LAYERS.items():
        x = rng.standard_normal(xs, dtype=np.float32)
        w = rng.standard_normal(ws, dtype=np.float32)
        ct = rng.standard_normal((xs[0], ws[0], xs[2] - ws[2] + 1, xs[3] - ws[3] + 1),
                                 dtype=np.float32)
        reference = nchw(x, w, ct)
        for fn in LAYOUTS.values():
            for got, want in zip(fn(x, w, ct), reference):  # every layout computes the same
                np.testing.assert_allclose(got, want, rtol=1e-3, atol=1e-3)
        times = compare({name: (lambda fn=fn: fn(x, w, ct)) for name, fn in LAYOUTS.items()},
                        steps=args.steps, blocks=args.blocks)
        best = min(times.values(), key=lambda t: t.median)
        for name, t in times.items():
            rows.append([layer, name, t.ms(), ratio(t, best), ratio(t, times.get("pytorch"))])
    print("forward + backward (input and weight gradients), batch 64, float32")
    print_table(["layer", "layout", "per call: median (low-high)", "x fastest", "x torch"],
                rows)


if __name__ == "__main__":
    main()
