"""MindSpore 2.10's optimizer primitive classes (``ops.ApplyMomentum``, ``ops.Adam``,
``ops.SparseApplyFtrl``, ...): each updates its Parameter inputs in place by MindSpore's
documented rule and returns them. A rule maps the inputs (by MindSpore's names) to the new
values of the state it updates; the sparse forms apply the dense rule to the rows at
``indices``; the fused sparse Adam applies it densely with the rows' gradient scattered."""
from __future__ import annotations

import numpy as np

from sporeling.core.errors import SporelingError

from ..functional_array._common import tensor
from ._args import ops
from ._table import F, op, table


def _apply(inputs: str, rule, returns: str):
    """A call taking ``inputs`` (space-separated), assigning ``rule``'s new values to those
    inputs and returning the ``returns`` inputs (one, or a tuple)."""
    names, out = inputs.split(), returns.split()

    def call(self, *args, **kwargs):
        if len(args) + len(kwargs) != len(names):
            raise SporelingError(f"{len(names)} inputs expected", op=f"ops.{self.name}",
                                 expected=f"({', '.join(names)})", got=len(args) + len(kwargs))
        values = {**dict(zip(names, args)), **kwargs}
        new = rule(self, **{k: tensor(v) if not isinstance(v, (int, float)) else v
                            for k, v in values.items()})
        for key, value in new.items():
            F.assign(values[key], ops.cast(value, values[key].dtype))
        result = tuple(values[k] for k in out)
        return result[0] if len(result) == 1 else result
    return call


def _sparse(rule, dense_names: str):
    """``rule`` on the rows at ``indices`` of the ``dense_names`` inputs; the new rows are
    scattered back into the whole tensors."""
    rows_of = dense_names.split()

    def sparse_rule(self, indices, **values):
        idx = ops.cast(tensor(indices), np.int64)
        picked = {k: F.gather(v, idx, 0) if k in rows_of else v for k, v in values.items()}
        new = rule(self, **picked)
        nd = F.reshape(idx, (-1, 1))
        return {k: _scatter_rows(values[k], nd, v) for k, v in new.items()}
    return sparse_rule


def _scatter_rows(full, nd_indices, rows):
    mask = F.scatter_nd(nd_indices, F.ones_like(rows), full.shape)
    return F.where(ops.greater(mask, 0), F.scatter_nd(nd_indices, rows, full.shape), full)


def _sign(x):
    return ops.sign(x)


def _momentum(s, variable, accumulation, learning_rate, gradient, momentum):
    grad = gradient * s.gradient_scale if s.gradient_scale != 1.0 else gradient
    accum = accumulation * momentum + grad
    step = grad * learning_rate + accum * momentum * learning_rate if s.use_nesterov \
        else learning_rate * accum
    return {"accumulation": accum, "variable": variable - step}


def _weight_scale_momentum(s, weight_decay, loss_scale, variable, accumulation, learning_rate,
                           gradient, momentum):
    grad = gradient / loss_scale + weight_decay * variable
    accum = accumulation * momentum + grad
    return {"accumulation": accum, "variable": variable - learning_rate * accum}


def _sgd(s, parameters, gradient, learning_rate, accum, momentum, stat):
    grad = gradient + s.weight_decay * parameters if s.weight_decay else gradient
    first = ops.greater(stat, 0)
    new_accum = F.where(first, F.broadcast_to(grad, accum.shape) + accum * 0,
                        accum * momentum + (1 - s.dampening) * grad)
    step = grad + momentum * new_accum if s.nesterov else new_accum
    return {"accum": new_accum, "parameters": parameters - learning_rate * step,
            "stat": F.zeros_like(stat)}


def _prox(prox_v, alpha, l1, l2):
    return _sign(prox_v) / (1 + alpha * l2) * ops.maximum(ops.abs(prox_v) - alpha * l1, 0)


def _adagrad(eps):
    def rule(s, var, accum, lr, grad):
        new_accum = accum + grad * grad if getattr(s, "update_slots", True) else accum
        e = s.epsilon if eps else 0.0
        return {"accum": new_accum, "var": var - lr * grad / (ops.sqrt(new_accum) + e)}
    return rule


def _adadelta(s, var, accum, accum_update, lr, rho, epsilon, grad):
    new_accum = rho * accum + (1 - rho) * grad * grad
    update = ops.sqrt(accum_update + epsilon) / ops.sqrt(new_accum + epsilon) * grad
    return {"accum": new_accum, "accum_update": rho * accum_update + (1 - rho) * update * update,
            "var": var - lr * update}


def _adamax(s, var, m, v, beta1_power, lr, beta1, beta2, epsilon, grad):
    new_m = beta1 * m + (1 - beta1) * grad
    new_v = ops.maximum(beta2 * v, ops.abs(grad))
    return {"m": new_m, "v": new_v, "var": var - lr / (1 - beta1_power) * new_m / (new_v + epsilon)}


def _adagrad_da(s, var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2,
                global_step):
    ga = gradient_accumulator + grad
    gsa = gradient_squared_accumulator + grad * grad
    tmp = _sign(ga) * ops.maximum(ops.abs(ga) - l1 * global_step, 0)
    tmp = F.where(ops.greater(tensor(l1) + ga * 0, 0), tmp, ga)
    return {"gradient_accumulator": ga, "gradient_squared_accumulator": gsa,
            "var": -1 * lr * tmp / (l2 * global_step * lr + ops.sqrt(gsa))}


def _amsgrad(s, var, m, v, vhat, beta1_power, beta2_power, lr, grad, beta1=None, beta2=None,
             epsilon=None):
    b1 = s.beta1 if beta1 is None else beta1
    b2 = s.beta2 if beta2 is None else beta2
    eps = s.epsilon if epsilon is None else epsilon
    new_m = b1 * m + (1 - b1) * grad
    new_v = b2 * v + (1 - b2) * grad * grad
    new_vhat = ops.maximum(vhat, new_v)
    lr_t = lr * ops.sqrt(1 - beta2_power) / (1 - beta1_power)
    return {"m": new_m, "v": new_v, "vhat": new_vhat,
            "var": var - lr_t * new_m / (ops.sqrt(new_vhat) + eps)}


def _sign_rule(power):
    def rule(s, var, m, lr, alpha_or_logbase, sign_decay, beta, grad):
        new_m = beta * m + (1 - beta) * grad
        signs = _sign(grad) * _sign(new_m)
        scale = ops.exp(alpha_or_logbase * sign_decay * signs) if power \
            else alpha_or_logbase + sign_decay * signs
        return {"m": new_m, "var": var - lr * scale * grad}
    return rule


def _add_sign(s, var, m, lr, alpha, sign_decay, beta, grad):
    return _sign_rule(False)(s, var, m, lr, alpha, sign_decay, beta, grad)


def _power_sign(s, var, m, lr, logbase, sign_decay, beta, grad):
    return _sign_rule(True)(s, var, m, lr, logbase, sign_decay, beta, grad)


def _centered_rmsprop(s, var, mean_grad, mean_square, moment, grad, learning_rate, decay,
                      momentum, epsilon):
    mg = decay * mean_grad + (1 - decay) * grad
    ms = decay * mean_square + (1 - decay) * grad * grad
    mom = momentum * moment + learning_rate * grad / ops.sqrt(ms - mg * mg + epsilon)
    return {"mean_grad": mg, "mean_square": ms, "moment": mom, "var": var - mom}


def _rmsprop(s, var, mean_square, moment, learning_rate, grad, decay, momentum, epsilon):
    ms = decay * mean_square + (1 - decay) * grad * grad
    mom = momentum * moment + learning_rate * grad / ops.sqrt(ms + epsilon)
    return {"mean_square": ms, "moment": mom, "var": var - mom}


def _ftrl(s, var, accum, linear, grad, lr, l1, l2, lr_power, l2_shrinkage=0.0):
    shrunk = grad + 2 * l2_shrinkage * var if l2_shrinkage else grad
    new_accum = accum + grad * grad
    new_linear = linear + shrunk - (ops.pow(new_accum, -lr_power) -
                                    ops.pow(accum, -lr_power)) / lr * var
    quadratic = ops.pow(new_accum, -lr_power) / lr + 2 * l2
    new_var = F.where(ops.greater(ops.abs(new_linear), l1),
                      (_sign(new_linear) * l1 - new_linear) / quadratic, var * 0)
    return {"accum": new_accum, "linear": new_linear, "var": new_var}


def _ftrl_attrs(s, var, accum, linear, grad):
    return _ftrl(s, var, accum, linear, grad, s.lr, s.l1, s.l2, s.lr_power,
                 getattr(s, "l2_shrinkage", 0.0))


def _keras_momentum(s, var, accum, lr, grad, momentum):
    new_accum = accum * momentum - lr * grad
    step = new_accum * momentum - lr * grad if s.use_nesterov else new_accum
    return {"accum": new_accum, "var": var + step}


def _proximal_adagrad(s, var, accum, lr, l1, l2, grad):
    new_accum = accum + grad * grad
    return {"accum": new_accum, "var": _prox(var - lr * grad / ops.sqrt(new_accum), lr, l1, l2)}


def _adam_moments(m, v, beta1, beta2, gradient):
    return beta1 * m + (1 - beta1) * gradient, beta2 * v + (1 - beta2) * gradient * gradient


def _adam_delta(s, m, v, beta1_power, beta2_power, lr, beta1, epsilon, gradient):
    lr_t = lr * ops.sqrt(1 - beta2_power) / (1 - beta1_power)
    direction = m * beta1 + (1 - beta1) * gradient if s.use_nesterov else m
    return lr_t * direction / (ops.sqrt(v) + epsilon)


def _adam(s, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, gradient):
    new_m, new_v = _adam_moments(m, v, beta1, beta2, gradient)
    return {"m": new_m, "v": new_v, "var": var - _adam_delta(
        s, new_m, new_v, beta1_power, beta2_power, lr, beta1, epsilon, gradient)}


def _adam_no_update(self, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon,
                    gradient):
    m_, v_, g = tensor(m), tensor(v), tensor(gradient)
    new_m, new_v = _adam_moments(m_, v_, beta1, beta2, g)
    F.assign(m, new_m)
    F.assign(v, new_v)
    return -_adam_delta(self, new_m, new_v, beta1_power, beta2_power, lr, beta1, epsilon, g)


def _adam_weight_decay(s, var, m, v, lr, beta1, beta2, epsilon, decay, gradient,
                       global_norm=None):
    grad = gradient / global_norm if global_norm is not None else gradient
    grad = ops.cast(grad, np.float32)
    new_m, new_v = _adam_moments(m, v, beta1, beta2, grad)
    update = new_m / (ops.sqrt(new_v) + epsilon) + decay * ops.cast(var, np.float32)
    return {"m": new_m, "v": new_v, "var": ops.cast(var, np.float32) - lr * update}


def _lars(self, weight, gradient, norm_weight, norm_gradient, weight_decay, learning_rate):
    w, g = tensor(weight), tensor(gradient)
    nw, ng = tensor(norm_weight), tensor(norm_gradient)
    coeff = self.hyperpara * nw / (ng + weight_decay * nw + self.epsilon)
    coeff = F.where(ops.logical_and(ops.greater(nw, 0), ops.greater(ng, 0)), coeff,
                    F.ones_like(coeff))
    if self.use_clip:
        coeff = ops.minimum(coeff / learning_rate, 1.0)
    return coeff * (g + weight_decay * w)


def _ada_factor(s, epsilon, clip_threshold, beta1, beta2t, weight_decay, learning_rate,
                gradient, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq,
                global_norm=None):
    """Adafactor (Shazeer & Stern 2018) with factored second moments for matrices."""
    eps1, eps2 = (epsilon[0], epsilon[1]) if epsilon.ndim and epsilon.shape[0] == 2 \
        else (epsilon, epsilon)
    grad = gradient / global_norm if global_norm is not None and global_norm.ndim == 0 and \
        bool((global_norm > clip_threshold).asnumpy()) else gradient
    grad = ops.cast(grad, np.float32)
    sq = grad * grad + eps1
    new = {}
    if param.ndim >= 2:
        row = beta2t * exp_avg_sq_row + (1 - beta2t) * F.mean(sq, -1)
        col = beta2t * exp_avg_sq_col + (1 - beta2t) * F.mean(sq, -2)
        r = row / F.mean(row, -1, True)
        update = grad * F.expand_dims(ops.rsqrt(r), -1) * F.expand_dims(ops.rsqrt(col), -2)
        new.update(exp_avg_sq_row=row, exp_avg_sq_col=col)
    else:
        avg = beta2t * exp_avg_sq + (1 - beta2t) * sq
        update = grad * ops.rsqrt(avg)
        new["exp_avg_sq"] = avg
    rms = ops.sqrt(F.mean(update * update))
    update = update / ops.maximum(rms / clip_threshold, 1.0)
    lr = learning_rate
    if s.enable_scale_parameter:
        lr = lr * ops.maximum(ops.sqrt(F.mean(param * param)), eps2)
    update = lr * update
    if s.enable_first_moment:
        avg = beta1 * exp_avg + (1 - beta1) * update
        new["exp_avg"] = avg
        update = avg
    if s.enable_weight_decay:
        update = update + weight_decay * lr * param
    new["param"] = param - update
    return new


def _ada_factor_global(s, epsilon, clip_threshold, beta1, beta2t, weight_decay, learning_rate,
                       gradient, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq,
                       global_norm):
    return _ada_factor(s, epsilon, clip_threshold, beta1, beta2t, weight_decay, learning_rate,
                       gradient, param, exp_avg, exp_avg_sq_row, exp_avg_sq_col, exp_avg_sq,
                       global_norm)


def _dense_grad(rule):
    """The fused sparse Adam: the rows' gradient scattered into a dense one (repeated
    indices add), then the dense rule on every row."""
    def dense(s, indices, grad, **values):
        idx = F.reshape(ops.cast(tensor(indices), np.int64), (-1, 1))
        full = F.scatter_nd(idx, grad, values["var"].shape)
        return rule(s, gradient=full, **values)
    return dense


def _lazy_adam(s, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad):
    return _adam(s, var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad)


def _sparse_adadelta(s, var, accum, accum_update, lr, rho, grad):
    return _adadelta(s, var, accum, accum_update, lr, rho, s.epsilon, grad)


def _sparse_adagrad(eps):
    def rule(s, var, accum, grad):
        return _adagrad(eps)(s, var, accum, s.lr, grad)
    return rule


def _sparse_proximal(s, var, accum, lr, l1, l2, grad):
    return _proximal_adagrad(s, var, accum, lr, l1, l2, grad)


def _sparse_rmsprop(s, var, ms, mom, lr, grad):
    out = _rmsprop(s, var, ms, mom, lr, grad, s.rho, s.momentum, s.epsilon)
    return {"var": out["var"], "ms": out["mean_square"], "mom": out["moment"]}


_ADAM_IN = "var m v beta1_power beta2_power lr beta1 beta2 epsilon gradient"

__all__ = table(globals(), [
    op("ApplyMomentum", "use_nesterov=False, use_locking=False, gradient_scale=1.0", _apply(
        "variable accumulation learning_rate gradient momentum", _momentum, "variable")),
    op("FusedWeightScaleApplyMomentum", "", _apply(
        "weight_decay loss_scale variable accumulation learning_rate gradient momentum",
        _weight_scale_momentum, "variable")),
    op("SGD", "dampening=0.0, weight_decay=0.0, nesterov=False", _apply(
        "parameters gradient learning_rate accum momentum stat", _sgd, "parameters")),
    op("ApplyGradientDescent", "", _apply(
        "var alpha delta", lambda s, var, alpha, delta: {"var": var - alpha * delta}, "var")),
    op("ApplyProximalGradientDescent", "", _apply(
        "var alpha l1 l2 delta", lambda s, var, alpha, l1, l2, delta: {
            "var": _prox(var - alpha * delta, alpha, l1, l2)}, "var")),
    op("ApplyAdagrad", "update_slots=True", _apply("var accum lr grad", _adagrad(False),
                                                   "var accum")),
    op("ApplyAdagradV2", "epsilon, update_slots=True", _apply(
        "var accum lr grad", _adagrad(True), "var accum")),
    op("ApplyAdadelta", "", _apply("var accum accum_update lr rho epsilon grad", _adadelta,
                                   "var accum accum_update")),
    op("ApplyAdaMax", "", _apply("var m v beta1_power lr beta1 beta2 epsilon grad", _adamax,
                                 "var m v")),
    op("ApplyAdagradDA", "use_locking=False", _apply(
        "var gradient_accumulator gradient_squared_accumulator grad lr l1 l2 global_step",
        _adagrad_da, "var gradient_accumulator gradient_squared_accumulator")),
    op("ApplyAdamWithAmsgrad", "beta1=0.9, beta2=0.999, epsilon=1e-8, use_locking=False",
       _apply("var m v vhat beta1_power beta2_power lr grad", _amsgrad, "var m v vhat")),
    op("ApplyAdamWithAmsgradV2", "use_locking=False", _apply(
        "var m v vhat beta1_power beta2_power lr beta1 beta2 epsilon grad", _amsgrad,
        "var m v vhat")),
    op("ApplyAddSign", "", _apply("var m lr alpha sign_decay beta grad", _add_sign, "var m")),
    op("ApplyPowerSign", "", _apply("var m lr logbase sign_decay beta grad", _power_sign,
                                    "var m")),
    op("ApplyCenteredRMSProp", "use_locking=False", _apply(
        "var mean_grad mean_square moment grad learning_rate decay momentum epsilon",
        _centered_rmsprop, "var")),
    op("ApplyRMSProp", "use_locking=False", _apply(
        "var mean_square moment learning_rate grad decay momentum epsilon", _rmsprop, "var")),
    op("ApplyFtrl", "use_locking=False", _apply("var accum linear grad lr l1 l2 lr_power",
                                                _ftrl, "var")),
    op("ApplyKerasMomentum", "use_locking=False, use_nesterov=False", _apply(
        "var accum lr grad momentum", _keras_momentum, "var accum")),
    op("ApplyProximalAdagrad", "use_locking=False", _apply(
        "var accum lr l1 l2 grad", _proximal_adagrad, "var accum")),
    op("Adam", "use_locking=False, use_nesterov=False", _apply(_ADAM_IN, _adam, "var m v")),
    op("AdamNoUpdateParam", "use_locking=False, use_nesterov=False", _adam_no_update),
    op("AdamWeightDecay", "use_locking=False", _apply(
        "var m v lr beta1 beta2 epsilon decay gradient", _adam_weight_decay, "var m v")),
    op("FusedCastAdamWeightDecay", "use_locking=False", _apply(
        "var m v lr beta1 beta2 epsilon decay gradient global_norm", _adam_weight_decay,
        "var m v")),
    op("LARSUpdate", "epsilon=1e-05, hyperpara=0.001, use_clip=False", _lars),
    op("FusedAdaFactor", "enable_scale_parameter=False, enable_first_moment=False, "
       "enable_weight_decay=False", _apply(
           "epsilon clip_threshold beta1 beta2t weight_decay learning_rate gradient param "
           "exp_avg exp_avg_sq_row exp_avg_sq_col exp_avg_sq", _ada_factor, "param")),
    op("FusedAdaFactorWithGlobalNorm", "enable_scale_parameter=False, "
       "enable_first_moment=False, enable_weight_decay=False", _apply(
           "epsilon clip_threshold beta1 beta2t weight_decay learning_rate gradient param "
           "exp_avg exp_avg_sq_row exp_avg_sq_col exp_avg_sq global_norm", _ada_factor_global,
           "param")),
    op("FusedSparseAdam", "use_locking=False, use_nesterov=False", _apply(
        "var m v beta1_power beta2_power lr beta1 beta2 epsilon grad indices",
        _dense_grad(_adam), "var m v")),
    op("FusedSparseLazyAdam", "use_locking=False, use_nesterov=False", _apply(
        "var m v beta1_power beta2_power lr beta1 beta2 epsilon grad indices",
        _sparse(_lazy_adam, "var m v"), "var m v")),
    op("FusedSparseFtrl", "lr, l1, l2, lr_power, use_locking=False", _apply(
        "var accum linear grad indices", _sparse(_ftrl_attrs, "var accum linear"),
        "var accum linear")),
    op("FusedSparseProximalAdagrad", "use_locking=False", _apply(
        "var accum lr l1 l2 grad indices", _sparse(_sparse_proximal, "var accum"),
        "var accum")),
    op("SparseApplyAdadelta", "epsilon, use_locking=False", _apply(
        "var accum accum_update lr rho grad indices",
        _sparse(_sparse_adadelta, "var accum accum_update"), "var accum accum_update")),
    op("SparseApplyAdagrad", "lr, update_slots=True, use_locking=False", _apply(
        "var accum grad indices", _sparse(_sparse_adagrad(False), "var accum"), "var accum")),
    op("SparseApplyAdagradV2", "lr, epsilon, use_locking=False, update_slots=True", _apply(
        "var accum grad indices", _sparse(_sparse_adagrad(True), "var accum"), "var accum")),
    op("SparseApplyFtrl", "lr, l1, l2, lr_power, use_locking=False", _apply(
        "var accum linear grad indices", _sparse(_ftrl_attrs, "var accum linear"),
        "var accum linear")),
    op("SparseApplyFtrlV2", "lr, l1, l2, l2_shrinkage, lr_power, use_locking=False", _apply(
        "var accum linear grad indices", _sparse(_ftrl_attrs, "var accum linear"),
        "var accum linear")),
    op("SparseApplyProximalAdagrad", "use_locking=False", _apply(
        "var accum lr l1 l2 grad indices", _sparse(_sparse_proximal, "var accum"),
        "var accum")),
    op("SparseApplyRMSProp", "rho, momentum, epsilon, use_locking=False", _apply(
        "var ms mom lr grad indices", _sparse(_sparse_rmsprop, "var ms mom"),
        "var ms mom")),
])
