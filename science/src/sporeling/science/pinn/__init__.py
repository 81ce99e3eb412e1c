"""Physics-informed neural networks: geometries, samplers, conditions, PDE residuals through
autodiff with respect to the inputs, and training by Adam then L-BFGS (see the README)."""
from .callbacks import Callback, ErrorMonitor, History, LossLogger, StepInfo, TargetLoss
from .conditions import Condition, DirichletBC, InitialCondition, PointCondition
from .errors import GeometryError, ResidualError
from .geometry import Disk, Geometry, Interval, Polygon, Rectangle, TimeDomain, l_shape
from .network import MLP
from .residual import DerivativePlan, Fields, evaluate_fields, plan_derivatives
from .sampling import SAMPLERS, sample_unit
from .solver import MODES, PINN

__all__ = ["Callback", "ErrorMonitor", "History", "LossLogger", "StepInfo", "TargetLoss",
           "Condition", "DirichletBC", "InitialCondition", "PointCondition",
           "GeometryError", "ResidualError", "Disk", "Geometry", "Interval", "Polygon",
           "Rectangle", "TimeDomain", "l_shape", "MLP", "DerivativePlan", "Fields",
           "evaluate_fields", "plan_derivatives", "SAMPLERS", "sample_unit", "MODES", "PINN"]
