"""The MindSpore 2.10 oracle: cases defined as data (``cases/``), recorded once with the real
MindSpore wheel (``record.py``, into ``recorded/``) and replayed through ``sporeling.ms``
(``replay.py``, ``ms/tests/test_oracle.py``). Nothing here imports MindSpore except
``record.py``; the same ``runner`` code drives both sides, given the ``ms`` module."""
