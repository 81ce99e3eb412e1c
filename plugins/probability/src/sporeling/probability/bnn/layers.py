"""Bayesian layers trained by Bayes by backprop (Blundell et al., 2015): each forward draws
the weights from their variational posterior with the reparameterisation trick, and
``compute_kl_loss()`` gives ``KL(posterior || prior)`` in closed form (MindSpore's
``DenseReparameterization`` and ``ConvReparameterization``)."""
from __future__ import annotations

from sporeling.compiler import ops
from sporeling.compiler.core import locate
from sporeling.core import ShapeError, SporelingError
from sporeling.expression.nn import Cell
from sporeling.expression.nn.layers.activation import get_activation

from ..distribution import kl_divergence
from .priors import NormalPrior, normal_post_fn

__all__ = ["DenseReparameterization", "ConvReparameterization", "BayesianLayer"]


def _prior(fn):
    return fn() if isinstance(fn, type) else fn


class BayesianLayer(Cell):
    """What the reparameterised layers share: weight (and bias) posteriors and priors, and
    the KL term of the ELBO."""

    def _build(self, weight_shape, bias_shape, weight_prior_fn, weight_posterior_fn,
               bias_prior_fn, bias_posterior_fn):
        self.weight_prior = _prior(weight_prior_fn)
        self.weight_posterior = weight_posterior_fn(name="bnn_weight", shape=weight_shape)
        if self.has_bias:
            self.bias_prior = _prior(bias_prior_fn)
            self.bias_posterior = bias_posterior_fn(name="bnn_bias", shape=bias_shape)

    @staticmethod
    def _kl(posterior, prior):
        q = posterior.distribution()
        p = prior.distribution(posterior.shape) if isinstance(prior, NormalPrior) \
            else prior.distribution()
        return ops.sum(kl_divergence(q, p))

    def compute_kl_loss(self):
        """``KL(q(w) || p(w))`` summed over every weight (and bias) of the layer."""
        kl = self._kl(self.weight_posterior, self.weight_prior)
        if self.has_bias:
            kl = ops.add(kl, self._kl(self.bias_posterior, self.bias_prior))
        return kl

    def _activate(self, y):
        return self.activation(y) if self.activation is not None else y


def _activation(activation):
    return get_activation(activation) if isinstance(activation, str) else activation


class DenseReparameterization(BayesianLayer):
    """A Dense layer ``y = activation(x @ W.T + b)`` with ``W`` (out, in) and ``b`` drawn
    from their posteriors on every call. ``*_prior_fn``: a prior Cell or its class (called
    without arguments); ``*_posterior_fn(name=, shape=)``: a posterior Cell."""

    def __init__(self, in_channels, out_channels, activation=None, has_bias=True,
                 weight_prior_fn=NormalPrior, weight_posterior_fn=normal_post_fn,
                 bias_prior_fn=NormalPrior, bias_posterior_fn=normal_post_fn):
        super().__init__()
        self.in_channels, self.out_channels = int(in_channels), int(out_channels)
        self.has_bias = bool(has_bias)
        self.activation = _activation(activation)
        self._build((self.out_channels, self.in_channels), (self.out_channels,),
                    weight_prior_fn, weight_posterior_fn, bias_prior_fn, bias_posterior_fn)

    def construct(self, x):
        if not x.shape or x.shape[-1] != self.in_channels:
            raise locate(ShapeError("wrong input shape", op="DenseReparameterization",
                                    expected=f"(..., {self.in_channels})", got=tuple(x.shape)))
        y = ops.matmul(x, ops.swap_last_axes(self.weight_posterior()))
        if self.has_bias:
            y = ops.add(y, self.bias_posterior())
        return self._activate(y)

    def extend_repr(self) -> str:
        return (f"in_channels={self.in_channels}, out_channels={self.out_channels}, "
                f"has_bias={self.has_bias}")


def _pair(name, value):
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or not all(isinstance(v, int) and v >= 0 for v in pair):
        raise locate(SporelingError(f"bad {name}", op="ConvReparameterization",
                                    expected="an int or 2 ints >= 0", got=repr(value)))
    return pair


def _same_pads(size, kernel, stride, dilation):
    """MindSpore's "same": output ``ceil(size / stride)``, the odd row at the end."""
    out = -(-size // stride)
    total = max((out - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    return total // 2, total - total // 2


class ConvReparameterization(BayesianLayer):
    """A 2-d convolution over NCHW inputs whose kernel (out, in/group, kh, kw) and bias are
    drawn from their posteriors on every call. Arguments as ``nn.Conv2d`` (MindSpore's
    defaults: ``pad_mode="same"``, ``has_bias=False``)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, pad_mode="same",
                 padding=0, dilation=1, group=1, has_bias=False, activation=None,
                 weight_prior_fn=NormalPrior, weight_posterior_fn=normal_post_fn,
                 bias_prior_fn=NormalPrior, bias_posterior_fn=normal_post_fn):
        super().__init__()
        self.in_channels, self.out_channels = int(in_channels), int(out_channels)
        self.kernel_size = _pair("kernel_size", kernel_size)
        self.stride, self.dilation = _pair("stride", stride), _pair("dilation", dilation)
        if pad_mode not in ("same", "valid", "pad"):
            raise locate(SporelingError("bad pad_mode", op="ConvReparameterization",
                                        expected='"same", "valid" or "pad"', got=repr(pad_mode)))
        self.pad_mode, self.padding = pad_mode, _pair("padding", padding)
        self.group, self.has_bias = int(group), bool(has_bias)
        if self.in_channels % self.group or self.out_channels % self.group:
            raise locate(SporelingError("channels not divisible by group",
                                        op="ConvReparameterization",
                                        expected=f"in/out channels multiples of group={self.group}",
                                        got=(self.in_channels, self.out_channels)))
        self.activation = _activation(activation)
        shape = (self.out_channels, self.in_channels // self.group) + self.kernel_size
        self._build(shape, (self.out_channels,), weight_prior_fn, weight_posterior_fn,
                    bias_prior_fn, bias_posterior_fn)

    def construct(self, x):
        if len(x.shape) != 4 or x.shape[1] != self.in_channels:
            raise locate(ShapeError("wrong input shape", op="ConvReparameterization",
                                    expected=f"(N, C={self.in_channels}, H, W)",
                                    got=tuple(x.shape)))
        if self.pad_mode == "same":
            pads = tuple(_same_pads(s, k, st, d) for s, k, st, d in zip(
                x.shape[2:], self.kernel_size, self.stride, self.dilation))
        elif self.pad_mode == "pad":
            pads = tuple((p, p) for p in self.padding)
        else:
            pads = ((0, 0), (0, 0))
        if any(a != b for a, b in pads):  # an odd "same" padding: pre-pad the input
            x = ops.pad(x, ((0, 0), (0, 0)) + pads)
            pads = ((0, 0), (0, 0))
        bias = self.bias_posterior() if self.has_bias else None
        y = ops.conv2d(x, self.weight_posterior(), bias, self.stride,
                       tuple(a for a, _ in pads), self.dilation, self.group)
        return self._activate(y)

    def extend_repr(self) -> str:
        return (f"in_channels={self.in_channels}, out_channels={self.out_channels}, "
                f"kernel_size={self.kernel_size}, stride={self.stride}, "
                f"pad_mode={self.pad_mode}, has_bias={self.has_bias}")
