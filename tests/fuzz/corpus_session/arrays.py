# Array expressions, broadcasting and printing: runs under `numjit run` and under CPython.
import numpy as np

x = np.arange(12.0)
z = np.linspace(1.0, 2.0, 12)
y = 2*(x - z)/(x + z)
print(y)
w = np.sin(x)**2 + np.cos(x)**2
print(w)
m = x.reshape(3, 4)
print(m)
print(m * 10 + np.arange(4.0))
i = np.arange(10)
print(i * 3 - 7, i // 3, i % 4)
print(i / 4)
f = np.ones(5, dtype=np.float32) * np.float32(0.5)
print(f, f.dtype)
print(np.where(x > 5, x, 0.0))
print(np.sqrt(np.abs(x - 6)))
big = np.arange(2000.0)
print(big * 0.5)
print(np.zeros((2, 3)), np.full(3, 7), np.ones(2, dtype=np.int32))
print(x[2:9:3], x[-1], m[1], m[1, 2], m.T.shape)
x[1:4] = -1.0
x += 0.5
print(x)
print(np.array([[1, 2], [3, 4]]) * 2)
