# A jitclass built from Python with keyword arguments, as Numba binds them to __init__'s
# parameters: Curve(3, nodes=x, weights=w, scale=s), all keywords in another order, and a
# keyword __init__ does not have (TypeError, as Python raises it).
import numpy as np
from numba import float64, int64
from numba.experimental import jitclass

spec = [("order", int64), ("nodes", float64[:]), ("weights", float64[:]), ("scale", float64)]


@jitclass(spec)
class Curve:
    def __init__(self, order, nodes, weights, scale):
        self.order = order
        self.nodes = nodes
        self.weights = weights
        self.scale = scale

    def evaluate(self, x, out):
        for i in range(x.shape[0]):
            acc = 0.0
            for j in range(self.nodes.shape[0]):
                acc += self.weights[j] * (x[i] - self.nodes[j]) ** self.order
            out[i] = acc * self.scale


if __name__ == "__main__":
    x = np.linspace(0.0, 1.0, 5)
    nodes = np.array([0.25, 0.5, 0.75])
    weights = np.array([1.0, -2.0, 0.5])
    out = np.empty(5)
    c = Curve(3, nodes=nodes, weights=weights, scale=1.0)
    c.evaluate(x, out)
    print(c.order, c.scale, out.tolist())
    c = Curve(weights=weights, scale=2.0, nodes=nodes, order=2)
    c.evaluate(x, out)
    print(c.order, c.scale, out.tolist())
    c = Curve(1, nodes, weights, scale=0.5)
    c.evaluate(x, out)
    print(c.order, c.scale, out.tolist())
    try:
        Curve(1, nodes, weights, 1.0, shift=3.0)
    except TypeError:
        print("TypeError")
