# np.random.multinomial, dirichlet and noncentral_chisquare in @njit functions, seeded inside
# compiled code: Numba's loops (multinomial by conditional binomials, dirichlet by normalized
# gammas, noncentral_chisquare by a chi-square plus a squared shifted normal above df 1, a
# poisson-mixed chi-square below), one row, `size=` rows (an integer and a tuple), pvals and
# alpha as arrays or lists; Numba's ValueErrors.
import numpy as np
from numba import njit


@njit
def multinomial(seed, n, pvals):
    np.random.seed(seed)
    return (np.random.multinomial(n, pvals), np.random.multinomial(n, pvals, 3),
            np.random.multinomial(n, pvals, size=(2, 2)))


@njit
def multinomial_list(seed):
    np.random.seed(seed)
    return np.random.multinomial(20, [0.5, 0.25, 0.25])


@njit
def dirichlet(seed, alpha):
    np.random.seed(seed)
    return (np.random.dirichlet(alpha), np.random.dirichlet(alpha, 2),
            np.random.dirichlet(alpha, size=(1, 2)))


@njit
def noncentral(seed):
    np.random.seed(seed)
    return (np.random.noncentral_chisquare(3.0, 2.0), np.random.noncentral_chisquare(0.5, 1.5),
            np.random.noncentral_chisquare(1, 0), np.random.noncentral_chisquare(2.0, 1.0, 3))


@njit
def dirichlet_bad(alpha):
    return np.random.dirichlet(alpha)


@njit
def noncentral_bad(df, nonc):
    return np.random.noncentral_chisquare(df, nonc)


def show(t):
    for v in t:
        if isinstance(v, np.ndarray):
            vals = v.ravel().tolist()
            if v.dtype.kind == "f":
                vals = [round(x, 12) for x in vals]
            print(type(v).__name__, v.dtype, v.shape, vals)
        else:
            print(type(v).__name__, round(v, 12))


if __name__ == "__main__":
    for seed in (0, 5, 123):
        show(multinomial(seed, 10, np.array([0.2, 0.3, 0.5])))
        show(multinomial(seed, 1000, np.array([0.1, 0.0, 0.6, 0.3])))
        show(multinomial(seed, 0, np.array([0.5, 0.5])))
        show((multinomial_list(seed),))
        show(dirichlet(seed, np.array([0.5, 1.0, 2.5])))
        show(dirichlet(seed, np.array([1, 2])))
        show(noncentral(seed))
    for f, args in ((dirichlet_bad, (np.array([1.0, 0.0]),)), (noncentral_bad, (0.0, 1.0)),
                    (noncentral_bad, (1.0, -1.0))):
        try:
            print(f(*args))
        except ValueError as e:
            print("ValueError", e)
