/* c_loops.c — the plain C baselines of bench/cpu_ufunc.py: each workload as the loop a C
 * programmer would write, compiled by the benchmark itself with `cc -O3 -march=native` (no
 * fast-math, so sin/cos are libm calls) into a shared object loaded through ctypes.
 *
 * Every loop takes a thread count: the index range is cut into that many contiguous pieces
 * (pieces rounded to 64-byte lines), each run by one pthread; 1 runs on the calling thread.
 * spin() is a CPU-bound loop without memory traffic: timing it on 1 and on 2 threads tells
 * whether two threads really run on two cores on this machine.
 */
#include <math.h>
#include <pthread.h>
#include <stdint.h>

typedef struct Job {
    int kind;
    const void *a, *b, *c;
    void *o;
    float fa;
    long lo, hi, k, w;
    volatile double spin;
} Job;

static void w1_f64(const double *x, const double *y, double *o, long lo, long hi)
{
    for (long i = lo; i < hi; i++)
        o[i] = 2.0 * (x[i] - y[i]) / (x[i] + y[i]);
}

static void w1_f32(const float *x, const float *y, float *o, long lo, long hi)
{
    for (long i = lo; i < hi; i++)
        o[i] = 2.0f * (x[i] - y[i]) / (x[i] + y[i]);
}

static void w2_f64(const double *x, double *o, long lo, long hi)
{
    for (long i = lo; i < hi; i++) {
        double s = sin(x[i]), c = cos(x[i]);
        o[i] = s * s + c * c;
    }
}

static void w3_f32(float a, const float *x, const float *y, float *o, long lo, long hi)
{
    for (long i = lo; i < hi; i++)
        o[i] = a * x[i] + y[i];
}

static void w4_f64(const double *x, double *o, long lo, long hi)
{
    for (long i = lo; i < hi; i++) {
        double v = x[i];
        o[i] = (((0.5 * v - 1.25) * v + 2.0) * v - 3.5) * v + 1.0;
    }
}

/* rows lo..hi of x, y (rows of k): o[r] = sum x[r, :] * y[r, :] */
static void w5_f64(const double *x, const double *y, double *o, long k, long lo, long hi)
{
    for (long r = lo; r < hi; r++) {
        const double *p = x + r * k, *q = y + r * k;
        double s = 0.0;
        for (long j = 0; j < k; j++)
            s += p[j] * q[j];
        o[r] = s;
    }
}

/* rows lo..hi (interior only) of a w-wide grid */
static void w6_f64(const double *a, double *o, long w, long lo, long hi)
{
    if (lo < 1)
        lo = 1;
    for (long i = lo; i < hi; i++)
        for (long j = 1; j < w - 1; j++)
            o[i * w + j] = 0.25 * (a[(i - 1) * w + j] + a[(i + 1) * w + j] + a[i * w + j - 1] +
                                   a[i * w + j + 1]);
}

static void *run_job(void *arg)
{
    Job *j = arg;
    switch (j->kind) {
    case 1: w1_f64(j->a, j->b, j->o, j->lo, j->hi); break;
    case 2: w1_f32(j->a, j->b, j->o, j->lo, j->hi); break;
    case 3: w2_f64(j->a, j->o, j->lo, j->hi); break;
    case 4: w3_f32(j->fa, j->a, j->b, j->o, j->lo, j->hi); break;
    case 5: w4_f64(j->a, j->o, j->lo, j->hi); break;
    case 6: w5_f64(j->a, j->b, j->o, j->k, j->lo, j->hi); break;
    case 7: w6_f64(j->a, j->o, j->w, j->lo, j->hi); break;
    case 8: {
        double s = 0.0;
        for (long i = j->lo; i < j->hi; i++)
            s += (double)(i & 7) * 1e-9;
        j->spin = s;
        break;
    }
    }
    return NULL;
}

/* Runs workload kind over [0, n) on nthreads threads (n: elements, rows for 6 and 7). */
static void run(Job proto, long n, int nthreads)
{
    Job jobs[64];
    pthread_t th[64];
    if (nthreads < 1)
        nthreads = 1;
    if (nthreads > 64)
        nthreads = 64;
    long piece = (n + nthreads - 1) / nthreads;
    piece = (piece + 15) / 16 * 16;
    int started = 0;
    for (int t = 0; t < nthreads; t++) {
        jobs[t] = proto;
        jobs[t].lo = t * piece < n ? t * piece : n;
        jobs[t].hi = (t + 1) * piece < n ? (t + 1) * piece : n;
        if (t > 0 && pthread_create(&th[t], NULL, run_job, &jobs[t]) == 0)
            started |= 1 << (t < 31 ? t : 31);
        else if (t > 0)
            run_job(&jobs[t]);
    }
    run_job(&jobs[0]);
    for (int t = 1; t < nthreads; t++)
        if (started & 1 << (t < 31 ? t : 31))
            pthread_join(th[t], NULL);
}

void c_w1_f64(const double *x, const double *y, double *o, long n, int nt)
{
    run((Job){.kind = 1, .a = x, .b = y, .o = o}, n, nt);
}

void c_w1_f32(const float *x, const float *y, float *o, long n, int nt)
{
    run((Job){.kind = 2, .a = x, .b = y, .o = o}, n, nt);
}

void c_w2_f64(const double *x, double *o, long n, int nt)
{
    run((Job){.kind = 3, .a = x, .o = o}, n, nt);
}

void c_w3_f32(float a, const float *x, const float *y, float *o, long n, int nt)
{
    run((Job){.kind = 4, .fa = a, .a = x, .b = y, .o = o}, n, nt);
}

void c_w4_f64(const double *x, double *o, long n, int nt)
{
    run((Job){.kind = 5, .a = x, .o = o}, n, nt);
}

void c_w5_f64(const double *x, const double *y, double *o, long rows, long k, int nt)
{
    run((Job){.kind = 6, .a = x, .b = y, .o = o, .k = k}, rows, nt);
}

void c_w6_f64(const double *a, double *o, long h, long w, int nt)
{
    run((Job){.kind = 7, .a = a, .o = o, .w = w}, h - 1, nt);
}

void c_spin(long iters, int nt)
{
    run((Job){.kind = 8}, iters * nt, nt);
}
