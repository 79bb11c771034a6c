def f(x):
    if x:
        y = 1
      z = 2
    return y

x = 1
    y = 2
z = 3

def g():
return 1
