"""Neural-network kernels (being written)."""
