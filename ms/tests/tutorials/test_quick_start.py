"""Tutorial "Quick Start" (docs r2.3.1, tutorials/source_en/beginner/quick_start.md), recorded:
``ms/tests/test_quickstart.py`` runs the whole tutorial and checks that it learns; here its
code (only the import renamed; synthetic MNIST read in order, weights set from NumPy, a few
batches) gives MindSpore 2.10's losses, test metrics and predictions, in both modes."""
import os
import tempfile

import pytest

import sporeling.ms as mindspore
from sporeling.ms import nn
from sporeling.ms.dataset import vision, transforms
from sporeling.ms.dataset import MnistDataset

from ._tutorial import MODES, check, fake_mnist, init_weights, set_mode


class Network(nn.Cell):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.dense_relu_sequential = nn.SequentialCell(
            nn.Dense(28*28, 512),
            nn.ReLU(),
            nn.Dense(512, 512),
            nn.ReLU(),
            nn.Dense(512, 10)
        )

    def construct(self, x):
        x = self.flatten(x)
        logits = self.dense_relu_sequential(x)
        return logits


def quick_start_program(mode):
    set_mode(mode)
    out = {"losses": []}
    root = fake_mnist(n_train=64, n_test=32)
    train_dataset = MnistDataset(root + "/train", shuffle=False)
    test_dataset = MnistDataset(root + "/test", shuffle=False)
    out["columns"] = train_dataset.get_col_names()

    def datapipe(dataset, batch_size):
        image_transforms = [
            vision.Rescale(1.0 / 255.0, 0),
            vision.Normalize(mean=(0.1307,), std=(0.3081,)),
            vision.HWC2CHW()
        ]
        label_transform = transforms.TypeCast(mindspore.int32)

        dataset = dataset.map(image_transforms, 'image')
        dataset = dataset.map(label_transform, 'label')
        dataset = dataset.batch(batch_size)
        return dataset

    train_dataset = datapipe(train_dataset, 16)
    test_dataset = datapipe(test_dataset, 16)

    model = init_weights(Network(), scale=0.03)
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), 1e-2)

    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        return loss, logits

    grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    def train(model, dataset):
        model.set_train()
        for batch, (data, label) in enumerate(dataset.create_tuple_iterator()):
            loss = train_step(data, label)
            out["losses"].append(loss.asnumpy())

    def test(model, dataset, loss_fn):
        num_batches = dataset.get_dataset_size()
        model.set_train(False)
        total, test_loss, correct = 0, 0, 0
        for data, label in dataset.create_tuple_iterator():
            pred = model(data)
            total += len(data)
            test_loss += loss_fn(pred, label).asnumpy()
            correct += (pred.argmax(1) == label).asnumpy().sum()
        test_loss /= num_batches
        correct /= total
        out["test"] = (float(test_loss), float(correct))

    epochs = 2
    for t in range(epochs):
        train(model, train_dataset)
        test(model, test_dataset, loss_fn)

    ckpt = os.path.join(tempfile.mkdtemp(), "model.ckpt")
    mindspore.save_checkpoint(model, ckpt)
    model = Network()
    param_dict = mindspore.load_checkpoint(ckpt)
    param_not_load, _ = mindspore.load_param_into_net(model, param_dict)
    out["param_not_load"] = param_not_load
    model.set_train(False)
    for data, label in test_dataset:
        pred = model(data)
        predicted = pred.argmax(1)
        out["predicted"], out["actual"] = predicted[:10], label[:10]
        break
    return out


@pytest.mark.parametrize("mode", MODES)
def test_quick_start(mode):
    check("test_quick_start", "quick_start_program", quick_start_program(mode), mode,
          rtol=1e-4)
