"""Tutorial "Evaluation Metrics" (docs r2.3.1, tutorials/source_en/advanced/model/metric.md):
its code with only the import renamed: a custom ``Metric``, ``Model.fit`` with the built-in
``MAE`` and with the custom one. Data from a seeded ``np.random``, read in order
(``shuffle=False``), the Dense's weights set from NumPy; in PyNative and Graph mode."""
import numpy as np
import pytest

import sporeling.ms as ms
from sporeling.ms import dataset as ds
import sporeling.ms.nn as nn
from sporeling.ms.train import Model, MAE, LossMonitor

from ._tutorial import MODES, check, init_weights, set_mode


class MyMAE(ms.train.Metric):
    def __init__(self):
        super(MyMAE, self).__init__()
        self.clear()

    def clear(self):
        """Initialize variables _abs_error_sum and _samples_num."""
        self._abs_error_sum = 0
        self._samples_num = 0

    def update(self, *inputs):
        """Update _abs_error_sum and _samples_num."""
        y_pred = inputs[0].asnumpy()
        y = inputs[1].asnumpy()
        abs_error_sum = np.abs(y - y_pred)
        self._abs_error_sum += abs_error_sum.sum()
        self._samples_num += y.shape[0]

    def eval(self):
        """Compute the final evaluation result."""
        return self._abs_error_sum / self._samples_num


def get_data(num, w=2.0, b=3.0):
    for _ in range(num):
        x = np.random.uniform(-10.0, 10.0)
        noise = np.random.normal(0, 1)
        y = x * w + b + noise
        yield np.array([x]).astype(np.float32), np.array([y]).astype(np.float32)


def create_dataset(num_data, batch_size=16):
    dataset = ds.GeneratorDataset(list(get_data(num_data)), column_names=['data', 'label'],
                                  shuffle=False)
    dataset = dataset.batch(batch_size)
    return dataset


class Recorder(ms.train.Callback):
    """Not the tutorial's: keeps each epoch's evaluation results."""
    def __init__(self, out):
        super().__init__()
        self.out = out

    def on_eval_end(self, run_context):
        self.out.append(dict(run_context.original_args().metrics))


def metric_program(mode):
    set_mode(mode)
    out = {}
    y_pred = ms.Tensor(np.array([[0.1, 0.2, 0.6, 0.9], [0.1, 0.2, 0.6, 0.9]]), ms.float32)
    y = ms.Tensor(np.array([[0.1, 0.25, 0.7, 0.9], [0.1, 0.25, 0.7, 0.9]]), ms.float32)
    error = MyMAE()
    error.clear()
    error.update(y_pred, y)
    out["my_mae"] = error.eval()

    net = init_weights(nn.Dense(1, 1))
    loss_fn = nn.L1Loss()
    optimizer = nn.Momentum(net.trainable_params(), learning_rate=0.005, momentum=0.9)
    model = Model(net, loss_fn, optimizer, metrics={"MAE": MAE()})
    np.random.seed(0)
    train_dataset = create_dataset(num_data=160)
    eval_dataset = create_dataset(num_data=160)
    train_dataset_size = train_dataset.get_dataset_size()
    evals = []
    model.fit(10, train_dataset, eval_dataset,
              callbacks=[LossMonitor(train_dataset_size), Recorder(evals)])
    out["fit_mae"] = [e["MAE"] for e in evals]
    out["fit_weights"] = (net.weight.asnumpy(), net.bias.asnumpy())

    np.random.seed(1)
    train_dataset = create_dataset(num_data=160)
    eval_dataset = create_dataset(num_data=160)
    model = Model(net, loss_fn, optimizer, metrics={"MAE": MyMAE()})
    evals = []
    model.fit(10, train_dataset, eval_dataset,
              callbacks=[LossMonitor(train_dataset_size), Recorder(evals)])
    out["fit_my_mae"] = [e["MAE"] for e in evals]
    return out


@pytest.mark.parametrize("mode", MODES)
def test_metric(mode):
    # my_mae: 0 + np.float32 is float64 under MindSpore's NumPy 1.x, float32 under NumPy 2
    check("test_metric", "metric_program", metric_program(mode), mode, rtol=1e-4, atol=1e-5,
          values_only=("my_mae", "fit_my_mae"))
