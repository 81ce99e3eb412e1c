"""mindcv.models.layers: the models here import its modules directly (see ../../__init__.py)."""
