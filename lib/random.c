/* random.c — the functions of numpy.random and of Python's random module.
 *
 * typer_random.c types them: each draws from the calling thread's Mersenne Twister of its
 * module (runtime/random.c, as Numba 0.56's), np.random's with `size=` fills a new array.
 * The distributions that are formulas over those draws (laplace, logistic, lognormal, gumbel,
 * wald, pareto, power, weibull, rayleigh, standard_cauchy, triangular, the gamma family gamma,
 * standard_gamma, chisquare, f, standard_t, beta, vonmises, and those of integers geometric,
 * logseries, zipf, poisson, binomial, negative_binomial, hypergeometric, noncentral_chisquare,
 * multinomial and dirichlet (typer_random_seq.c); random.lognormvariate,
 * paretovariate, weibullvariate, triangular, gammavariate, betavariate, vonmisesvariate) are
 * functions of stdlib/random_dists.py.
 * np.random.shuffle, permutation and choice and random.shuffle are loops of
 * stdlib/npfunc.py over those draws (typer_random_seq.c).  They are CPU only: in a CUDA kernel the name itself is refused, pointing at
 * numba.cuda.random.
 */
#include "lib.h"

#include <string.h>

static Val random_value(Fn *fn, const LibEntry *le, Loc loc) {
    return ty_random_attr(fn, le->spell, strrchr(le->name, '.') + 1, loc);
}

static Val random_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_random_call(fn, callee.name, call);
}

static Val seq_call(Fn *fn, const LibEntry *le, Node *call, Val callee) {
    return ty_random_seq_call(fn, le->spell, call);
}

static const LibEntry py_rows[] = {
    {"random.seed", "a=None, version=2", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.random", "", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.uniform", "a, b", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.gauss", "mu=0.0, sigma=1.0", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.normalvariate", "mu=0.0, sigma=1.0", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.expovariate", "lambd", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.randint", "a, b", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.randrange", "start, stop=None, step=1", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.getrandbits", "k", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.lognormvariate", "mu, sigma", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.paretovariate", "alpha", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.weibullvariate", "alpha, beta", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.triangular", "low, high, mode=None", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.gammavariate", "alpha, beta", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.betavariate", "alpha, beta", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.vonmisesvariate", "mu, kappa", LIB_CPU, random_value, random_call, "random", 0, 0},
    {"random.shuffle", "x", LIB_CPU | LIB_KEYWORDS, NULL, seq_call, "random.shuffle", 0, 0},
    {NULL},
};
const LibTable lib_random_table = {"random", py_rows};

static const LibEntry np_rows[] = {
    {"numpy.random.seed", "seed=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.random", "size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.random_sample", "size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.sample", "size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.ranf", "size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.rand", "d0, d1, ..., dn", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.randn", "d0, d1, ..., dn", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.uniform", "low=0.0, high=1.0, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.normal", "loc=0.0, scale=1.0, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.standard_normal", "size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.exponential", "scale=1.0, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.standard_exponential", "size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.randint", "low, high=None, size=None, dtype=int", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.laplace", "loc=0.0, scale=1.0, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.logistic", "loc=0.0, scale=1.0, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.lognormal", "loc=0.0, scale=1.0, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.gumbel", "a, b, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.wald", "a, b, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.pareto", "a, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.power", "a, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.weibull", "a, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.rayleigh", "scale=1.0, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.standard_cauchy", "size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.triangular", "left, mode, right, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.gamma", "shape, scale=1.0, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.standard_gamma", "a, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.chisquare", "a, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.f", "a, b, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.standard_t", "a, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.beta", "a, b, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.vonmises", "a, b, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.geometric", "a, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.logseries", "a, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.zipf", "a, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.poisson", "lam=1.0, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.binomial", "n, p, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.negative_binomial", "n, p, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.hypergeometric", "ngood, nbad, nsample, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.noncentral_chisquare", "df, nonc, size=None", LIB_CPU, random_value, random_call, "numpy.random", 0, 0},
    {"numpy.random.shuffle", "x", LIB_CPU | LIB_KEYWORDS, NULL, seq_call, "np.random.shuffle", 0, 0},
    {"numpy.random.permutation", "x", LIB_CPU | LIB_KEYWORDS, NULL, seq_call, "np.random.permutation", 0, 0},
    {"numpy.random.choice", "a, size=None, replace=True", LIB_CPU | LIB_KEYWORDS, NULL, seq_call, "np.random.choice", 0, 0},
    {"numpy.random.multinomial", "n, pvals, size=None", LIB_CPU | LIB_KEYWORDS, NULL, seq_call, "np.random.multinomial", 0, 0},
    {"numpy.random.dirichlet", "alpha, size=None", LIB_CPU | LIB_KEYWORDS, NULL, seq_call, "np.random.dirichlet", 0, 0},
    {NULL},
};
const LibTable lib_nprandom_table = {"numpy.random", np_rows};
