// Shared by the kernel and the host.
#ifndef SCALE_PARAMS_H
#define SCALE_PARAMS_H
#define ELEMS_PER_THREAD 8
#define GROUP_THREADS 16
#endif
