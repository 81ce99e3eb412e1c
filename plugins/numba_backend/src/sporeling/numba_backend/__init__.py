"""sporeling.numba_backend: A compiled CPU backend for Sporeling on numba."""
