"""Hand-written NumPy forward/backward of the benchmark models: the speed a framework on
NumPy is measured against (no framework, no autodiff, no pool)."""
