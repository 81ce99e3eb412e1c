"""Neural operators: Fourier transforms as primitives, the Fourier neural operator (FNO-1D)
with Burgers data from a pseudo-spectral solver, and DeepONet."""
from .fft import fft, ifft, irfft, rfft

__all__ = ["rfft", "irfft", "fft", "ifft"]
