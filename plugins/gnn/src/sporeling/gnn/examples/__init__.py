"""Runnable examples: ``python -m sporeling.gnn.examples.karate_club``."""
