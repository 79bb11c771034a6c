@guvectorize([(f8[:], f8[:])], "(m,n),(n,p)->(m,p)")
def g(a, b): pass
