"""Tutorial "Loss Function" (docs r2.3.1, tutorials/source_en/advanced/modules/loss.md): its
code with only the import renamed: built-in ``L1Loss``, custom losses on ``Cell`` and
``LossBase``, ``Model.train`` and a multi-label loop. Data from a seeded ``np.random``, read in
order (``shuffle=False``: the frameworks shuffle differently), weights set from NumPy; in
PyNative and Graph mode."""
import numpy as np
import pytest

from sporeling.ms import nn
from sporeling.ms import Tensor
from sporeling.ms import ops
import sporeling.ms as ms
from sporeling.ms.train import Model, LossMonitor
from sporeling.ms.dataset import GeneratorDataset

from ._tutorial import MODES, check, init_weights, set_mode


class MAELoss(nn.Cell):
    """Customize the loss function MAELoss."""
    def construct(self, base, target):
        return ops.abs(base - target).mean()


class MAELossBase(nn.LossBase):
    """Customize the loss function MAELoss."""
    def construct(self, base, target):
        x = ops.abs(base - target)
        return self.get_loss(x)  # Return the mean loss value.


class MAELossForMultiLabel(nn.LossBase):

    def construct(self, base, target1, target2):
        x1 = ops.abs(base - target1)
        x2 = ops.abs(base - target2)
        return (self.get_loss(x1) + self.get_loss(x2)) / 2


def get_data(num, w=2.0, b=3.0):
    for _ in range(num):
        x = np.random.uniform(-10.0, 10.0)
        noise = np.random.normal(0, 1)
        y = x * w + b + noise
        yield np.array([x]).astype(np.float32), np.array([y]).astype(np.float32)


def get_multilabel_data(num, w=2.0, b=3.0):
    for _ in range(num):
        x = np.random.uniform(-10.0, 10.0)
        noise1 = np.random.normal(0, 1)
        noise2 = np.random.normal(-1, 1)
        y1 = x * w + b + noise1
        y2 = x * w + b + noise2
        yield (np.array([x]).astype(np.float32), np.array([y1]).astype(np.float32),
               np.array([y2]).astype(np.float32))


def loss_program(mode):
    set_mode(mode)
    np.random.seed(0)
    out = {}
    loss = nn.L1Loss()
    loss_sum = nn.L1Loss(reduction='sum')
    loss_none = nn.L1Loss(reduction='none')
    input_data = Tensor(np.array([[1, 2, 3], [2, 3, 4]]).astype(np.float32))
    target_data = Tensor(np.array([[0, 2, 5], [3, 1, 1]]).astype(np.float32))
    out["l1"] = (loss(input_data, target_data), loss_sum(input_data, target_data),
                 loss_none(input_data, target_data))

    input_data = Tensor(np.array([0.1, 0.2, 0.3]).astype(np.float32))
    target_data = Tensor(np.array([0.1, 0.2, 0.2]).astype(np.float32))
    out["mae_cell"] = MAELoss()(input_data, target_data)
    out["mae_lossbase"] = MAELossBase()(input_data, target_data)

    def create_dataset(num_data, batch_size=16):
        dataset = GeneratorDataset(list(get_data(num_data)), column_names=['data', 'label'],
                                   shuffle=False)
        dataset = dataset.batch(batch_size)
        return dataset

    train_dataset = create_dataset(num_data=160)
    network = init_weights(nn.Dense(1, 1))
    loss_fn = MAELossBase()
    optimizer = nn.Momentum(network.trainable_params(), learning_rate=0.005, momentum=0.9)
    model = Model(network, loss_fn, optimizer)
    model.train(10, train_dataset, callbacks=[LossMonitor(10)])
    out["model_trained"] = (network.weight.asnumpy(), network.bias.asnumpy())  # copies

    def create_multilabel_dataset(num_data, batch_size=16):
        dataset = GeneratorDataset(list(get_multilabel_data(num_data)),
                                   column_names=['data', 'label1', 'label2'], shuffle=False)
        dataset = dataset.batch(batch_size)
        return dataset

    np.random.seed(1)  # 2.10's nn.Dense(1, 1) above drew from np.random; the facade does not
    train_dataset = create_multilabel_dataset(num_data=160)
    loss_fn = MAELossForMultiLabel()
    opt = nn.Momentum(network.trainable_params(), learning_rate=0.005, momentum=0.9)

    def forward_fn(data, label1, label2):
        output = network(data)
        return loss_fn(output, label1, label2)

    grad_fn = ms.value_and_grad(forward_fn, None, opt.parameters)

    def train_step(data, label1, label2):
        loss, grads = grad_fn(data, label1, label2)
        opt(grads)
        return loss

    losses = []

    def train(model, dataset):
        model.set_train()
        for batch, (data, label1, label2) in enumerate(dataset.create_tuple_iterator()):
            loss = train_step(data, label1, label2)
            losses.append(loss.asnumpy())

    epochs = 5
    for t in range(epochs):
        train(network, train_dataset)
    out["multilabel_losses"] = losses
    out["multilabel_trained"] = (network.weight.asnumpy(), network.bias.asnumpy())
    return out


@pytest.mark.parametrize("mode", MODES)
def test_loss(mode):
    check("test_loss", "loss_program", loss_program(mode), mode, rtol=1e-4, atol=1e-5)
