"""The JAX contender of ``peers.py``: pure functions over the same named arrays, the whole
training step (forward, backward, SGD with momentum) under one ``jax.jit``."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from peers_workloads import HEADS, LR, MOMENTUM, resnet_batch_norms, resnet_blocks

BN_EPS, LN_EPS, BN_MOMENTUM = 1e-5, 1e-5, 0.1


def start() -> str:
    jax.config.update("jax_platforms", "cpu")
    return jax.__version__


def dense(p, name, x):
    return x @ p[f"{name}.weight"].T + p[f"{name}.bias"]


def conv(p, name, x, stride=1, padding=0):
    y = lax.conv_general_dilated(x, p[f"{name}.weight"], (stride, stride),
                                 [(padding, padding)] * 2,
                                 dimension_numbers=("NCHW", "OIHW", "NCHW"))
    bias = p.get(f"{name}.bias")
    return y if bias is None else y + bias[None, :, None, None]


def max_pool2(x):
    return lax.reduce_window(x, -jnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")


def batch_norm(p, state, name, x):
    """Training-mode BatchNorm: normalises by the batch, updates the running statistics."""
    mean, var = x.mean((0, 2, 3)), x.var((0, 2, 3))
    n = x.size / x.shape[1]
    mean_key, var_key = f"{name}.running_mean", f"{name}.running_var"
    state[mean_key] = (1 - BN_MOMENTUM) * state[mean_key] + BN_MOMENTUM * mean
    state[var_key] = (1 - BN_MOMENTUM) * state[var_key] + BN_MOMENTUM * var * n / (n - 1)
    shape = (1, -1, 1, 1)
    x = (x - mean.reshape(shape)) * lax.rsqrt(var.reshape(shape) + BN_EPS)
    return x * p[f"{name}.weight"].reshape(shape) + p[f"{name}.bias"].reshape(shape)


def layer_norm(p, name, x):
    mean, var = x.mean(-1, keepdims=True), x.var(-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + LN_EPS) * p[f"{name}.weight"] + p[f"{name}.bias"]


def mlp(p, state, x):
    x = jax.nn.relu(dense(p, "fc1", x))
    return dense(p, "fc3", jax.nn.relu(dense(p, "fc2", x)))


def lenet(p, state, x):
    x = max_pool2(jax.nn.relu(conv(p, "conv1", x, padding=2)))
    x = max_pool2(jax.nn.relu(conv(p, "conv2", x))).reshape(x.shape[0], -1)
    x = jax.nn.relu(dense(p, "fc1", x))
    return dense(p, "fc3", jax.nn.relu(dense(p, "fc2", x)))


def lstm(p, state, x):
    h_seq = jnp.swapaxes(x, 0, 1)  # (seq, batch, features): scan over time
    for layer in range(2):
        w_ih, w_hh = p[f"lstm.weight_ih_l{layer}"], p[f"lstm.weight_hh_l{layer}"]
        bias = p[f"lstm.bias_ih_l{layer}"] + p[f"lstm.bias_hh_l{layer}"]
        hidden = w_hh.shape[1]
        x_proj = h_seq @ w_ih.T + bias  # the input projection of all steps at once

        def cell(carry, xp, w_hh=w_hh):
            h, c = carry
            i, f, g, o = jnp.split(xp + h @ w_hh.T, 4, axis=-1)  # PyTorch's gate order
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h

        zeros = jnp.zeros((x.shape[0], hidden), x.dtype)
        _, h_seq = lax.scan(cell, (zeros, zeros), x_proj)
    return dense(p, "fc", h_seq[-1])


def resnet20(p, state, x):
    x = jax.nn.relu(batch_norm(p, state, "bn1", conv(p, "conv1", x, padding=1)))
    for prefix, c_in, c_out, stride in resnet_blocks():
        out = conv(p, f"{prefix}.conv1", x, stride, 1)
        out = jax.nn.relu(batch_norm(p, state, f"{prefix}.bn1", out))
        out = batch_norm(p, state, f"{prefix}.bn2", conv(p, f"{prefix}.conv2", out, 1, 1))
        if f"{prefix}.downsample.0.weight" in p:
            x = batch_norm(p, state, f"{prefix}.downsample.1",
                           conv(p, f"{prefix}.downsample.0", x, stride))
        x = jax.nn.relu(out + x)
    return dense(p, "fc", x.mean((2, 3)))


def transformer(p, state, x):
    """PyTorch's ``TransformerEncoderLayer`` (post-norm, ReLU, no dropout), batch first."""
    b, s, d = x.shape
    dh = d // HEADS
    qkv = x @ p["encoder.self_attn.in_proj_weight"].T + p["encoder.self_attn.in_proj_bias"]
    q, k, v = (t.reshape(b, s, HEADS, dh).transpose(0, 2, 1, 3) for t in jnp.split(qkv, 3, -1))
    attn = jax.nn.softmax(q @ k.transpose(0, 1, 3, 2) / np.sqrt(dh), axis=-1) @ v
    attn = dense(p, "encoder.self_attn.out_proj", attn.transpose(0, 2, 1, 3).reshape(b, s, d))
    x = layer_norm(p, "encoder.norm1", x + attn)
    ff = dense(p, "encoder.linear2", jax.nn.relu(dense(p, "encoder.linear1", x)))
    return layer_norm(p, "encoder.norm2", x + ff)


MODELS = {"mlp": mlp, "lenet": lenet, "lstm": lstm, "resnet20": resnet20,
          "transformer": transformer}


def cross_entropy(logits, y):
    logp = jax.nn.log_softmax(logits)
    return -jnp.take_along_axis(logp, y[:, None], axis=1).mean()


def mse(out, y):
    return ((out - y) ** 2).mean()


def build(workload, weights, data):
    if workload.loss == "chain":
        return chain(data["x"])
    model = MODELS[workload.key]
    loss_of = cross_entropy if workload.loss == "ce" else mse

    def loss_fn(params, state, x, y):
        state = dict(state)
        return loss_of(model(params, state, x), y), state

    @jax.jit
    def train_step(params, velocity, state, x, y):
        (loss, state), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, state, x, y)
        velocity = jax.tree.map(lambda v, g: MOMENTUM * v + g, velocity, grads)
        params = jax.tree.map(lambda w, v: w - LR * v, params, velocity)
        return params, velocity, state, loss

    params = {k: jnp.asarray(v) for k, v in weights.items()}
    carry = {"params": params, "velocity": jax.tree.map(jnp.zeros_like, params),
             "state": bn_state(workload.key, weights)}
    x, y = jnp.asarray(data["x"]), jnp.asarray(data["y"])

    def step():
        (carry["params"], carry["velocity"], carry["state"],
         loss) = train_step(carry["params"], carry["velocity"], carry["state"], x, y)
        return float(loss)
    return step, None


def bn_state(key, weights):
    """Running mean and variance of every BatchNorm, carried from step to step."""
    state = {}
    for name in resnet_batch_norms() if key == "resnet20" else []:
        state[f"{name}.running_mean"] = jnp.zeros_like(weights[f"{name}.weight"])
        state[f"{name}.running_var"] = jnp.ones_like(weights[f"{name}.weight"])
    return state


def chain(x_np):
    def f(x):
        y = x * 1.5
        y = y + 0.5
        y = jnp.tanh(y)
        y = y * x
        y = jnp.exp(y)
        y = y - x
        y = jax.nn.sigmoid(y)
        y = y * y
        y = y + x
        return y.sum()

    value_and_grad = jax.jit(jax.value_and_grad(f))
    x, last = jnp.asarray(x_np), {}

    def step():
        value, last["grad"] = value_and_grad(x)
        return float(value)
    return step, lambda: {"grad sum": float(last["grad"].sum())}
