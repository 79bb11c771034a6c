# Arrays saved and loaded as .npy files (NumPy's format) and random numbers' statistics.
import numpy as np

a = np.arange(12, dtype=np.int32).reshape(3, 4)
np.save("nj_script_a.npy", a)
b = np.load("nj_script_a.npy")
print(b, b.dtype, b.shape)
c = np.load("nj_script_a.npy") * 1.5
np.save("nj_script_c.npy", c)
print(np.load("nj_script_c.npy"))
rng = np.random.default_rng(42)
r = rng.uniform(0.0, 1.0, 1000000)
g = rng.normal(2.0, 0.5, 1000000)
print(round(r.mean(), 2), round(g.mean(), 2), round(((g - 2.0) * (g - 2.0)).mean(), 2))
print(r.min() >= 0.0, r.max() < 1.0)
