x = np.arange(10.0)
y = x[::-2] * 2 + 1
print(y.sum(), y.shape)
for i in range(3):
    x[i] = i * 0.5
print(x)
