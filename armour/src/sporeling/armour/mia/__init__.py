"""Membership inference: loss-threshold and shadow-model attacks, AUC and advantage.

See the "Membership inference" section of armour's README.
"""
from .attacks import (AttackResult, example_losses, loss_threshold_attack, output_features,
                      shadow_model_attack)
from .metrics import membership_advantage, roc_auc, roc_curve

__all__ = ["AttackResult", "example_losses", "output_features", "loss_threshold_attack",
           "shadow_model_attack", "roc_auc", "roc_curve", "membership_advantage"]
