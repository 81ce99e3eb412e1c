"""Every parity case, by family (one module each); names are unique across families."""
from . import losses, nn_functional, nn_layers, ops_array, ops_math, optimizers, training

FAMILIES = {m.__name__.rsplit(".", 1)[1]: m.CASES
            for m in (ops_math, ops_array, nn_functional, nn_layers, losses, optimizers,
                      training)}


def all_cases():
    """``{family: [Case, ...]}`` after checking that names are unique."""
    seen = set()
    for family, cases in FAMILIES.items():
        for case in cases:
            assert case.name not in seen, f"duplicate case name {case.name!r} in {family}"
            seen.add(case.name)
    return FAMILIES
