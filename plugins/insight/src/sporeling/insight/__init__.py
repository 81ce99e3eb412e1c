"""sporeling.insight: Training insight: TensorBoard summaries, profiler, HTML report."""
