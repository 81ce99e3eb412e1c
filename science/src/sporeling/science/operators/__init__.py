"""Neural operators: Fourier transforms as primitives, the Fourier neural operator (FNO-1D)
with Burgers data from a pseudo-spectral solver, and DeepONet."""
from .burgers import burgers_dataset, random_initial_conditions, solve_burgers
from .deeponet import (DeepONet, antiderivative_dataset, gaussian_random_functions,
                       train_deeponet)
from .fft import fft, ifft, irfft, rfft
from .fno import FNO1d, FourierLayer1d, SpectralConv1d
from .train_fno import evaluate, relative_l2, train_fno1d

__all__ = ["rfft", "irfft", "fft", "ifft", "SpectralConv1d", "FourierLayer1d", "FNO1d",
           "solve_burgers", "random_initial_conditions", "burgers_dataset", "relative_l2",
           "train_fno1d", "evaluate", "DeepONet", "antiderivative_dataset",
           "gaussian_random_functions", "train_deeponet"]
