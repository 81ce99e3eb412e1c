"""One unit ``j`` of sample ``n`` of an LSTM or GRU cell at step ``t``, forward and back,
as TVMScript statements inside a loop over lanes (:func:`.tir_text.lanes`).

Forward: the gates' hidden-side products are in ``pre`` (LSTM: with the input projection
``xw[t]`` and both biases; GRU: ``W_hh h + b_hh`` alone, the input side in ``xw[t]``); the
state is in ``hs`` (and ``cs``); the output goes to ``out`` at the direction's offset. For
the gradient the forward also keeps what back-propagation reads: the gate activations
(``acts``), the previous state (``hprev``, ``cprev``), ``tanh(c)`` (``tc``) or the GRU's
``W_hn h + b_hn`` (``hn``). Back: ``dh`` holds the output's cotangent from the later step
(and ``dc`` the cell state's); the gates' pre-activation cotangents go to ``dgates``
(LSTM), or to ``dxg`` / ``dhg``, input and hidden side (GRU). The formulas are NumPy's
kernel's (``sporeling.runtime.kernels.nn.rnn``), in its order of operations.
"""
from __future__ import annotations

from .tir_text import Writer, at
from .vecmath import sigmoid, tanh

__all__ = ["lstm_cell", "lstm_cell_grad", "gru_cell", "gru_cell_grad", "offset"]


def lstm_cell(w: Writer, h: int, dt: str, grad: bool, k: int, t: str, out: str) -> None:
    sigmoid(w.let, "gi", "pre[n, j]", dt)
    sigmoid(w.let, "gf", f"pre[n, j + {h}]", dt)
    tanh(w.let, "gg", f"pre[n, j + {2 * h}]", dt)
    sigmoid(w.let, "go", f"pre[n, j + {3 * h}]", dt)
    w.let("c_new", "gf * cs[n, j] + gi * gg")
    tanh(w.let, "tc_new", "c_new", dt)
    if grad:
        for q, v in enumerate(("gi", "gf", "gg", "go")):
            w(f"acts[{k}, {t}, n, j + {q * h}] = {v}")
        w(f"hprev[{k}, {t}, n, j] = hs[n, j]")
        w(f"cprev[{k}, {t}, n, j] = cs[n, j]")
        w(f"tc[{k}, {t}, n, j] = tc_new")
    w("cs[n, j] = c_new")
    w("hs[n, j] = go * tc_new")
    w(f"{out} = go * tc_new")


def lstm_cell_grad(w: Writer, h: int, dt: str, k: int, t: str, d_out: str | None) -> None:
    one = f"T.{dt}(1)"
    w.let("dh_c", "dh[n, j]" + (f" + {d_out}" if d_out else ""))
    for q, v in enumerate(("gi", "gf", "gg", "go")):
        w.let(v, f"acts[{k}, {t}, n, j + {q * h}]")
    w.let("tcv", f"tc[{k}, {t}, n, j]")
    w.let("dc_c", f"dc[n, j] + dh_c * go * ({one} - tcv * tcv)")
    w(f"dgates[{t}, n, j] = dc_c * gg * gi * ({one} - gi)")
    w(f"dgates[{t}, n, j + {h}] = dc_c * cprev[{k}, {t}, n, j] * gf * ({one} - gf)")
    w(f"dgates[{t}, n, j + {2 * h}] = dc_c * gi * ({one} - gg * gg)")
    w(f"dgates[{t}, n, j + {3 * h}] = dh_c * tcv * go * ({one} - go)")
    w("dc[n, j] = dc_c * gf")


def gru_cell(w: Writer, h: int, dt: str, grad: bool, k: int, t: str, out: str) -> None:
    sigmoid(w.let, "gr", f"xw[{t}, n, j] + pre[n, j]", dt)
    sigmoid(w.let, "gz", f"xw[{t}, n, j + {h}] + pre[n, j + {h}]", dt)
    tanh(w.let, "gn", f"gr * pre[n, j + {2 * h}] + xw[{t}, n, j + {2 * h}]", dt)
    w.let("h_new", "(hs[n, j] - gn) * gz + gn")  # (1 - z) n + z h
    if grad:
        for q, v in enumerate(("gr", "gz", "gn")):
            w(f"acts[{k}, {t}, n, j + {q * h}] = {v}")
        w(f"hprev[{k}, {t}, n, j] = hs[n, j]")
        w(f"hn[{k}, {t}, n, j] = pre[n, j + {2 * h}]")
    w("hs[n, j] = h_new")
    w(f"{out} = h_new")


def gru_cell_grad(w: Writer, h: int, dt: str, k: int, t: str, d_out: str | None) -> None:
    """Also leaves ``dh = dh_c * z``: the state's direct path, to which the step's
    ``dhg W_hh`` is added."""
    one = f"T.{dt}(1)"
    w.let("dh_c", "dh[n, j]" + (f" + {d_out}" if d_out else ""))
    for q, v in enumerate(("gr", "gz", "gn")):
        w.let(v, f"acts[{k}, {t}, n, j + {q * h}]")
    w.let("dxn", f"dh_c * ({one} - gz) * ({one} - gn * gn)")
    w.let("dxr", f"dxn * hn[{k}, {t}, n, j] * (gr * ({one} - gr))")
    w.let("dxz", f"dh_c * (hprev[{k}, {t}, n, j] - gn) * (gz * ({one} - gz))")
    w(f"dxg[{t}, n, j] = dxr")
    w(f"dxg[{t}, n, j + {h}] = dxz")
    w(f"dxg[{t}, n, j + {2 * h}] = dxn")
    w(f"dhg[{t}, n, j] = dxr")
    w(f"dhg[{t}, n, j + {h}] = dxz")
    w(f"dhg[{t}, n, j + {2 * h}] = dxn * gr")
    w("dh[n, j] = dh_c * gz")


def offset(buffer: str, t: str, j_offset: int) -> str:
    """``buffer[t, n, j + j_offset]`` (``buffer`` may be a layer of ``seq``)."""
    return at(buffer, f"{t}, n, j + {j_offset}")
