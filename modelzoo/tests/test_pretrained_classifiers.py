"""Each shipped digits classifier reproduces its recorded test accuracy (evaluation only;
training is ``sporeling zoo train NAME``)."""
import pytest

from sporeling.zoo import recipes
from sporeling.zoo.pretrained import SHIPPED, load_pretrained

CLASSIFIERS = ["lenet5", "mlp", "resnet20", "resnet18", "mobilenet_v2", "vit_tiny"]


@pytest.mark.parametrize("name", CLASSIFIERS)
def test_shipped_classifier_reproduces_its_recorded_accuracy(name):
    measured = recipes.evaluate(name, load_pretrained(name))["test_accuracy"]
    assert measured == pytest.approx(SHIPPED[name].metrics["test_accuracy"], abs=2e-6)


def test_shipped_lenet_reaches_98_percent_on_the_digits_test_split():
    assert SHIPPED["lenet5"].metrics["test_accuracy"] >= 0.98
    assert recipes.evaluate("lenet5", load_pretrained("lenet5"))["test_accuracy"] >= 0.98
