# Reductions fused with the expressions they reduce; whole array and axis=.
import numpy as np

x = np.arange(1.0, 101.0)
z = np.linspace(0.0, 1.0, 100)
print(x.sum(), round(np.sum(x * z), 9), (x - 50).min(), (x * z).max(), round(x.mean(), 6))
print(np.prod(np.arange(1, 11)), np.arange(1, 11).sum(), np.arange(7).max())
m = np.arange(24).reshape(4, 6)
print(m.sum(axis=0), m.sum(axis=1), m.min(axis=1), m.max(axis=0))
print(m.mean(axis=0), m.mean(axis=1))
print(round(np.mean(np.sin(x) ** 2), 10), np.max(np.abs(np.cos(z))))
total = 0.0
for k in range(10):
    total += (x * k).sum()
print(total)
# a 1-d array reduced along its only axis is a number
v = np.arange(3.0)
print(v.sum(axis=0), v.mean(axis=0), np.arange(4).max(axis=-1), np.sum(v, axis=0) + 1)
