"""sporeling.armour.adv: adversarial attacks (FGSM, PGD L∞/L2, Carlini–Wagner L2, DeepFool),
Madry adversarial training usable with ``Model``, and accuracy-against-ε evaluation.

Attacks take NumPy arrays or Tensors and return NumPy arrays; they run in PyNative and Graph
mode (in Graph mode each gradient is a compiled ``sx.jit`` function)."""
from ._checks import AttackConfigError
from .carlini_wagner import CarliniWagnerL2Attack, carlini_wagner_l2
from .deepfool import DeepFool, deepfool
from .evaluation import RobustnessCurve, format_table, plot_robustness, robustness_curve
from .gradient_attacks import FastGradientSignMethod, ProjectedGradientDescent, fgsm, pgd
from .training import AdversarialTrainOneStepCell, adversarial_model

__all__ = ["AttackConfigError", "FastGradientSignMethod", "ProjectedGradientDescent",
           "CarliniWagnerL2Attack", "DeepFool", "fgsm", "pgd", "carlini_wagner_l2", "deepfool",
           "AdversarialTrainOneStepCell", "adversarial_model", "RobustnessCurve",
           "robustness_curve", "format_table", "plot_robustness"]
