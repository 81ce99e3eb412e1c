"""sporeling.probability: Probabilistic programming: distributions, bijectors, Bayesian layers."""
