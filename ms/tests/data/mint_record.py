"""Records the expected ``mint`` outputs of ``mint_cases.py`` into ``mint_2_10.npz``: real
MindSpore 2.10's ``mint`` where its CPU build has the kernel, else PyTorch's (``mint``
follows PyTorch's semantics: names, signatures, numerics); ``source`` in the npz says which
per key. Run from the repository root with both interpreters:

    /work/ms-venv/bin/python ms/tests/data/mint_record.py mindspore   # -> mint_ms.npz (tmp)
    /work/venv/bin/python ms/tests/data/mint_record.py torch          # merges -> mint_2_10.npz
"""
import sys
import types
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))
import mint_cases as C  # noqa: E402

MS_PART = Path("/tmp/mint_ms_part.npz")


def record(b, skip=(), sync=lambda: None):
    """``sync``: MindSpore's PyNative runs kernels asynchronously and reports a failed launch
    at a later op; synchronizing after each case (and trying a failed case once more, after
    the stale error is out) keeps each error with its case."""
    out, failed = {}, []
    for key, thunk in C.all_runs(b):
        if key.startswith(skip):
            failed.append(key)
            continue
        for attempt in (1, 2):
            try:
                result = thunk()
                sync()
                C.flatten_result(key, result, out)
                break
            except Exception as exc:  # noqa: BLE001 - not recordable with this backend
                try:
                    sync()
                except Exception:  # noqa: BLE001
                    pass
                if attempt == 2:
                    failed.append(key)
                    print(f"  {key}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
    return out, failed


class TorchBackend(C.MindSporeBackend):
    def __init__(self):
        import torch
        self.torch = torch
        nn = types.SimpleNamespace(**{n: getattr(torch.nn, n) for n in dir(torch.nn)
                                      if not n.startswith("_")})
        nn.functional = types.SimpleNamespace(**vars(torch.nn.functional))
        nn.functional.sigmoid_ = torch.sigmoid_  # mint's name; PyTorch has it on torch
        optim = types.SimpleNamespace(SGD=torch.optim.SGD, Adam=torch.optim.Adam,
                                      AdamW=torch.optim.AdamW, FusedAdamW=torch.optim.AdamW)
        self.mint = types.SimpleNamespace(**{n: getattr(torch, n) for n in dir(torch)
                                             if not n.startswith("_")})
        self.mint.nn, self.mint.optim = nn, optim
        self.mint.addr_ = lambda x, *args, **kwargs: x.addr_(*args, **kwargs)
        self.mint.npu_gelu = torch.nn.functional.gelu
        self.mint.linalg, self.mint.special = torch.linalg, torch.special

    def tensor(self, a):
        return self.torch.tensor(a)

    def to_np(self, t):
        return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t)

    def set_param(self, layer, name, a):
        with self.torch.no_grad():
            getattr(layer, name).copy_(self.torch.tensor(a))

    def train(self, layer, flag):
        layer.train(flag)

    def stats(self, layer):
        return [layer.running_mean, layer.running_var]

    def param(self, a):
        return self.torch.nn.Parameter(self.torch.tensor(a))

    def step(self, opt, w, g):
        w.grad = self.torch.tensor(g)
        opt.step()

    def grad(self, fn, args):
        ts = [self.torch.tensor(a, requires_grad=True) for a in args]
        return self.torch.autograd.grad(fn(*ts), ts)


def main(which):
    if which == "mindspore":
        import mindspore as ms
        ms.set_context(mode=ms.PYNATIVE_MODE, device_target="CPU")
        # MindSpore 2.10's CPU build runs mint.optim's step without changing the parameters
        # (no CPU kernels; no error either): those come from PyTorch
        out, failed = record(C.MindSporeBackend(ms), skip=("optim.",),
                             sync=ms.runtime.synchronize)
        out["failed"] = np.array(failed, dtype=str)
        np.savez(MS_PART, **out)
        print(f"MindSpore: {len(C.all_runs(C.MindSporeBackend(ms)))- len(failed)} cases, "
              f"{len(failed)} without a CPU kernel")
        return
    part = dict(np.load(MS_PART))
    ms_failed = set(part.pop("failed").tolist())
    b = TorchBackend()
    out, failed, source = part, [], {}
    for key, thunk in C.all_runs(b):
        if key not in ms_failed:
            source[key] = "mindspore"
            continue
        try:
            C.flatten_result(key, thunk(), out)
            source[key] = "torch"
        except Exception as exc:  # noqa: BLE001
            failed.append(key)
            print(f"  {key}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
    out["source_keys"] = np.array(list(source), dtype=str)
    out["source"] = np.array(list(source.values()), dtype=str)
    np.savez_compressed(HERE / "mint_2_10.npz", **out)
    print(f"{sum(v == 'mindspore' for v in source.values())} from MindSpore, "
          f"{sum(v == 'torch' for v in source.values())} from PyTorch, {len(failed)} neither")


if __name__ == "__main__":
    main(sys.argv[1])
