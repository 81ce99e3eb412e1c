"""NumPy kernels of the Fourier primitives (:mod:`.fft`): ``np.fft`` in the operands' float
dtype, results split into real and imaginary parts. Kept apart from the primitives so that
registering kernels defines no primitive."""
from __future__ import annotations

import numpy as np

__all__ = ["add_kernels", "KERNELS"]


def _into(backend, out, value, dtype):
    """``value`` cast to ``dtype``, in ``out`` when the caller planned a buffer, else in a
    buffer from the backend's pool."""
    buffer = backend.allocate(value.shape, dtype) if out is None else out
    np.copyto(buffer, value, casting="unsafe")
    return buffer


def _pair_out(backend, out, spectrum, dtype):
    out_re, out_im = (None, None) if out is None else out
    return (_into(backend, out_re, spectrum.real, dtype),
            _into(backend, out_im, spectrum.imag, dtype))


def _k_rfft(backend, x, out=None):
    x = np.asarray(x)
    return _pair_out(backend, out, np.fft.rfft(x, axis=-1), x.dtype)


def _k_irfft(backend, re, im, out=None, *, n):
    re = np.asarray(re)
    return _into(backend, out, np.fft.irfft(re + 1j * np.asarray(im), n=n, axis=-1), re.dtype)


def _k_fft(backend, re, im, out=None):
    re = np.asarray(re)
    return _pair_out(backend, out, np.fft.fft(re + 1j * np.asarray(im), axis=-1), re.dtype)


def _k_ifft(backend, re, im, out=None):
    re = np.asarray(re)
    return _pair_out(backend, out, np.fft.ifft(re + 1j * np.asarray(im), axis=-1), re.dtype)


KERNELS = {"science_rfft": _k_rfft, "science_irfft": _k_irfft, "science_fft": _k_fft,
           "science_ifft": _k_ifft}


def add_kernels(kernels) -> None:
    """The Fourier kernels for the NumPy backend (called by the plugin), with what each
    does with memory: irfft writes a planned ``out`` buffer; the pair-valued ones allocate
    their two results (never views of an input)."""
    from sporeling.runtime import KernelMemory
    for name, fn in KERNELS.items():
        memory = KernelMemory.writes_out() if name == "science_irfft" else KernelMemory("fresh")
        kernels.add_kernel("numpy", name, fn, memory=memory)
