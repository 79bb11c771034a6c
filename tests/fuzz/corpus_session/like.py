a = np.zeros((3, 4))
b = a.T.copy()
print(np.ones_like(b).sum())
