/* test_cuda_driver.h — the kernels (IR text, test_cuda_driver_kernels.c) that
 * test_cuda_driver.c compiles to PTX and runs on a real GPU. */
#ifndef NUMJIT_TEST_CUDA_DRIVER_H
#define NUMJIT_TEST_CUDA_DRIVER_H

extern const char *const k_axpy, *const k_empty, *const k_block_sum, *const k_trig,
    *const k_fast, *const k_atomics, *const k_hist, *const k_local2d, *const k_device;

#endif
