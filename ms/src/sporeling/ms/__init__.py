"""sporeling.ms: MindSpore 2.x's API over Sporeling (``import sporeling.ms as ms``)."""
