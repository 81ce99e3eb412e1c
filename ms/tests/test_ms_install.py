def test_facade_imports():
    import sporeling.ms as ms
    assert ms.__name__ == "sporeling.ms"
