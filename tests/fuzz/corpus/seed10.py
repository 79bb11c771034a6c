import numpy as np

class Foo:
    x = 1

def f(x):
    y = lambda z: z + 1
    s = [i for i in range(3)]
    d = {1: 2}
    with open("f") as fh:
        pass
    try:
        x = 1
    except Exception:
        x = 2
    finally:
        x = 3
    return f"{x}"

def g(a)
    return a

def h(a):
    if a
        return 1
    x = (1 +
    return x

  z = 3
    w = 4
x = = 2
y = 3 +
global q
assert x
raise ValueError
del x
