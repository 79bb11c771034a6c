def f(x)
    return x

def g(x):
    if x
        return 1
    y = = 2
    z = x +
    return y z

def h(a, b):
    print(a b)
    for i in range(10) pass
    return a, 

x = (1, 2]
