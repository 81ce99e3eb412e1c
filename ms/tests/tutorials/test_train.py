"""Tutorial "Model Training" (docs r2.3.1, tutorials/source_en/beginner/train.md): its code
with only the import renamed, on a small synthetic MNIST read in order (``shuffle=False``: the
frameworks shuffle differently), weights set from NumPy, one epoch, in PyNative and Graph
mode; every step's loss and the test metrics compared with MindSpore 2.10's."""
import pytest

import sporeling.ms as mindspore
from sporeling.ms import nn
from sporeling.ms.dataset import vision, transforms
from sporeling.ms.dataset import MnistDataset

from ._tutorial import MODES, check, fake_mnist, init_weights, set_mode


def train_program(mode):
    set_mode(mode)
    out = {"losses": [], "test": []}
    root = fake_mnist()

    def datapipe(path, batch_size):
        image_transforms = [
            vision.Rescale(1.0 / 255.0, 0),
            vision.Normalize(mean=(0.1307,), std=(0.3081,)),
            vision.HWC2CHW()
        ]
        label_transform = transforms.TypeCast(mindspore.int32)

        dataset = MnistDataset(path, shuffle=False)
        dataset = dataset.map(image_transforms, 'image')
        dataset = dataset.map(label_transform, 'label')
        dataset = dataset.batch(batch_size)
        return dataset

    train_dataset = datapipe(root + '/train', batch_size=16)
    test_dataset = datapipe(root + '/test', batch_size=16)

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

    model = init_weights(Network(), scale=0.03)
    epochs = 1
    learning_rate = 1e-2
    loss_fn = nn.CrossEntropyLoss()
    optimizer = nn.SGD(model.trainable_params(), learning_rate=learning_rate)

    def forward_fn(data, label):
        logits = model(data)
        loss = loss_fn(logits, label)
        return loss, logits

    grad_fn = mindspore.value_and_grad(forward_fn, None, optimizer.parameters, has_aux=True)

    def train_step(data, label):
        (loss, _), grads = grad_fn(data, label)
        optimizer(grads)
        return loss

    def train_loop(model, dataset):
        model.set_train()
        for batch, (data, label) in enumerate(dataset.create_tuple_iterator()):
            loss = train_step(data, label)
            out["losses"].append(loss.asnumpy())

    def test_loop(model, dataset, loss_fn):
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
        out["test"].append((float(test_loss), float(correct)))

    for t in range(epochs):
        train_loop(model, train_dataset)
        test_loop(model, test_dataset, loss_fn)
    return out


@pytest.mark.parametrize("mode", MODES)
def test_train(mode):
    check("test_train", "train_program", train_program(mode), mode, rtol=1e-4)
