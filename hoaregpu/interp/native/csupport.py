"""The C text of the native executor: the CUDA emulation header and the generated `main`.

The kernel's own source file is compiled unchanged between the two, by the system C or
C++ compiler. Choices that make C agree with the paper's model rather than with CUDA's
(documented in docs/running.md):

- `int` is `long long` (`#define int long long`, `unsigned` is `signed`): our semantics
  uses mathematical integers, and 64 bits with a trap on signed overflow
  (`-fsanitize=signed-integer-overflow` in trap mode) tells an overflowing run apart
  instead of silently wrapping. `threadIdx.x` and friends are `long long` for the same
  reason (CUDA's are `unsigned`, our model's are integers).
- locals start at 0 (`-ftrivial-auto-var-init=zero`), as in the interpreter; C leaves
  them indeterminate.
- `__shared__` is `static`: one copy for all OS threads, zero-initialised like the
  interpreter's shared memory.
- arrays are windows of cells `-W..W-1` around index 0 with huge `PROT_NONE` guard
  regions on each side, so an access outside the window faults (SIGSEGV) instead of
  reading some other array: our arrays are unbounded maps, C's are not.
- `__syncthreads()` is a barrier that also detects divergence: a thread that finishes
  while others wait, or threads waiting at barriers on different source lines.

Exit statuses and the one line of JSON printed on stdout are read by `execute.py`.
"""

from __future__ import annotations

# Exit codes of the generated program (besides 0); `execute.py` maps them to statuses.
EXIT_INPUT = 20
EXIT_DIVERGENCE = 21
EXIT_SEGV = 22
EXIT_TRAP = 23
EXIT_FPE = 24

# Stub headers a CUDA file may include: the emulation header defines what they would.
STUB_HEADERS = ("cuda.h", "cuda_runtime.h", "cuda_runtime_api.h", "device_launch_parameters.h")

HEADER = r"""/* hoaregpu native emulation of the CUDA subset (generated; see csupport.py). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#ifdef __cplusplus
#define HG_TLS thread_local
#else
#include <stdbool.h>
#define HG_TLS _Thread_local
#endif

typedef struct { long long x, y, z; } hg_dim3;
static HG_TLS hg_dim3 threadIdx;
static hg_dim3 blockDim = {1, 1, 1};
static hg_dim3 blockIdx = {0, 0, 0};
static hg_dim3 gridDim = {1, 1, 1};

/* Called from signal handlers too: write(2) and _exit(2) only. */
static void hg_die(int code, const char *json) {
    ssize_t ignored = write(1, json, strlen(json));
    (void)ignored;
    _exit(code);
}

#define HG_STOP(code, status, why) hg_die(code, "{\"status\":\"" status "\",\"detail\":\"" why "\"}\n")
#define HG_DIVERGE(why) HG_STOP(%(EXIT_DIVERGENCE)d, "barrier-divergence", why)

static pthread_mutex_t hg_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t hg_cv = PTHREAD_COND_INITIALIZER;
static long long hg_waiting, hg_finished, hg_generation, hg_line;

static void hg_sync_at(long long line) {
    pthread_mutex_lock(&hg_mu);
    if (hg_finished > 0)
        HG_DIVERGE("a thread reached __syncthreads() after another thread had finished");
    if (hg_waiting == 0)
        hg_line = line;
    else if (hg_line != line)
        HG_DIVERGE("threads wait at __syncthreads() on different lines");
    hg_waiting++;
    if (hg_waiting == blockDim.x) {
        hg_waiting = 0;
        hg_generation++;
        pthread_cond_broadcast(&hg_cv);
    } else {
        long long gen = hg_generation;
        while (gen == hg_generation)
            pthread_cond_wait(&hg_cv, &hg_mu);
    }
    pthread_mutex_unlock(&hg_mu);
}

static void hg_thread_finished(void) {
    pthread_mutex_lock(&hg_mu);
    hg_finished++;
    if (hg_waiting > 0)
        HG_DIVERGE("a thread finished while others wait at __syncthreads()");
    pthread_mutex_unlock(&hg_mu);
}

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __restrict__
#define __shared__ static
#define __syncthreads() hg_sync_at(__LINE__)
/* GPUVerify's annotation calls (docs/gpuverify-dialect.md): checked by the interpreter, no-ops here */
#define __requires(e) ((void)0)
#define __ensures(e) ((void)0)
#define __global_requires(e) ((void)0)
#define __global_ensures(e) ((void)0)
#define __invariant(e) ((void)0)
#define __global_invariant(e) ((void)0)
#define __assert(e) ((void)0)
#define __global_assert(e) ((void)0)
#define __assume(e) ((void)0)
#define __requires_fresh_array(p) ((void)0)
#define __axiom(e) typedef int hg_axiom_unused
#define size_t long long
#define unsigned signed
#define int long long
"""

# The part after the kernel's source. %(...)s fields are filled by build.py.
MAIN = r"""
#undef int
#undef unsigned
#undef size_t

#define HG_NPARAMS %(nparams)d
static const char *hg_names[HG_NPARAMS + 1] = {%(names)s};
static const int hg_is_array[HG_NPARAMS + 1] = {%(is_array)s};
static long long hg_scalar[HG_NPARAMS + 1];
static long long *hg_array[HG_NPARAMS + 1];
static long long hg_default[HG_NPARAMS + 1];
static long long hg_lo, hg_hi; /* the cells every array can hold: hg_lo..hg_hi-1 */

static void hg_bad_input(const char *what) {
    printf("{\"status\":\"bad-input\",\"detail\":\"%%s\"}\n", what);
    exit(%(EXIT_INPUT)d);
}

static void hg_on_signal(int sig) {
    if (sig == SIGSEGV || sig == SIGBUS)
        HG_STOP(%(EXIT_SEGV)d, "out-of-window", "an array access left the native window of cells (SIGSEGV)");
    if (sig == SIGFPE)
        HG_STOP(%(EXIT_FPE)d, "division-by-zero", "SIGFPE");
    HG_STOP(%(EXIT_TRAP)d, "trap",
            "undefined behaviour trapped: signed overflow, shift, division"
            " or an index out of the bounds of a fixed-size array");
}

/* 2^33 bytes of PROT_NONE on each side: far accesses fault instead of hitting other data. */
#define HG_GUARD (((size_t)1) << 33)

static long long *hg_alloc(long long window, long long dflt) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t body = (size_t)(2 * window) * sizeof(long long);
    body = (body + page - 1) / page * page;
    char *base = (char *)mmap(NULL, body + 2 * HG_GUARD, PROT_NONE,
                              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (base == (char *)MAP_FAILED || mprotect(base + HG_GUARD, body, PROT_READ | PROT_WRITE) != 0)
        hg_bad_input("cannot map the array window");
    long long cells = (long long)(body / sizeof(long long));
    long long *mid = (long long *)(base + HG_GUARD) + cells / 2;
    hg_lo = -(cells / 2);
    hg_hi = cells - cells / 2;
    for (long long i = hg_lo; i < hg_hi; i++)
        mid[i] = dflt;
    return mid;
}

/* A reader for the JSON input format of values.py, 1-D arrays only. */
static const char *hg_p;
static void hg_ws(void) { while (*hg_p == ' ' || *hg_p == '\n' || *hg_p == '\t' || *hg_p == '\r') hg_p++; }
static void hg_expect(char c) {
    hg_ws();
    if (*hg_p != c) hg_bad_input("malformed JSON input");
    hg_p++;
}
static int hg_peek(char c) { hg_ws(); return *hg_p == c; }
static long long hg_int(void) {
    hg_ws();
    char *end;
    errno = 0;
    long long v = strtoll(hg_p, &end, 10);
    if (end == hg_p || errno != 0) hg_bad_input("expected an integer");
    hg_p = end;
    return v;
}
static void hg_string(char *buf, size_t size) {
    hg_expect('"');
    size_t n = 0;
    while (*hg_p && *hg_p != '"') {
        if (*hg_p == '\\' || n + 1 >= size) hg_bad_input("unsupported string in JSON input");
        buf[n++] = *hg_p++;
    }
    buf[n] = 0;
    hg_expect('"');
}

static void hg_read_array(int k, long long window) {
    long long *idx = (long long *)malloc(sizeof(long long) * 1);
    long long *val = (long long *)malloc(sizeof(long long) * 1);
    long long n = 0, cap = 1, dflt = 0;
    char key[64];
    int is_list = hg_peek('[');
    hg_expect(is_list ? '[' : '{');
    while (!hg_peek(is_list ? ']' : '}')) {
        long long i = n;
        int is_default = 0;
        if (!is_list) {
            hg_string(key, sizeof key);
            hg_expect(':');
            if (strcmp(key, "*") == 0) is_default = 1;
            else {
                char *end;
                errno = 0;
                i = strtoll(key, &end, 10);
                if (*end != 0 || end == key || errno != 0)
                    hg_bad_input("array keys must be integers (1-D) or *");
            }
        }
        long long v = hg_int();
        if (is_default) dflt = v;
        else {
            if (n == cap) {
                cap *= 2;
                idx = (long long *)realloc(idx, sizeof(long long) * cap);
                val = (long long *)realloc(val, sizeof(long long) * cap);
            }
            idx[n] = i;
            val[n] = v;
            n++;
        }
        if (!hg_peek(is_list ? ']' : '}')) hg_expect(',');
    }
    hg_expect(is_list ? ']' : '}');
    hg_array[k] = hg_alloc(window, dflt);
    hg_default[k] = dflt;
    for (long long j = 0; j < n; j++) {
        if (idx[j] < hg_lo || idx[j] >= hg_hi) hg_bad_input("an input index lies outside the window");
        hg_array[k][idx[j]] = val[j];
    }
    free(idx);
    free(val);
}

static void hg_read_inputs(long long window) {
    size_t cap = 4096, len = 0;
    char *buf = (char *)malloc(cap);
    size_t got;
    while ((got = fread(buf + len, 1, cap - len - 1, stdin)) > 0) {
        len += got;
        if (len + 1 >= cap) buf = (char *)realloc(buf, cap *= 2);
    }
    buf[len] = 0;
    hg_p = buf;
    char name[256];
    hg_expect('{');
    while (!hg_peek('}')) {
        hg_string(name, sizeof name);
        hg_expect(':');
        int k = 0;
        while (k < HG_NPARAMS && strcmp(hg_names[k], name) != 0) k++;
        if (k == HG_NPARAMS) hg_bad_input("an input names no parameter of the kernel");
        if (hg_is_array[k]) hg_read_array(k, window);
        else hg_scalar[k] = hg_int();
        if (!hg_peek('}')) hg_expect(',');
    }
    free(buf);
    for (int k = 0; k < HG_NPARAMS; k++)
        if (hg_is_array[k] && hg_array[k] == NULL) hg_array[k] = hg_alloc(window, 0);
}

static void hg_launch(void) { %(kernel)s(%(args)s); }

static void *hg_thread(void *arg) {
    threadIdx.x = (long long)(intptr_t)arg;
    threadIdx.y = 0;
    threadIdx.z = 0;
    hg_launch();
    hg_thread_finished();
    return NULL;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: %%s THREADS WINDOW < inputs.json\n", argv[0]);
        return 2;
    }
    long long threads = atoll(argv[1]), window = atoll(argv[2]);
    if (threads < 1 || window < 1) hg_bad_input("THREADS and WINDOW must be positive");
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = hg_on_signal;
    sigaction(SIGSEGV, &sa, NULL);
    sigaction(SIGBUS, &sa, NULL);
    sigaction(SIGFPE, &sa, NULL);
    sigaction(SIGILL, &sa, NULL);
    sigaction(SIGTRAP, &sa, NULL);
    hg_read_inputs(window);
    blockDim.x = threads;
    if (%(use_threads)d) {
        /* one OS thread per CUDA thread: __syncthreads() is a real barrier */
        pthread_t *ts = (pthread_t *)malloc(sizeof(pthread_t) * (size_t)threads);
        for (long long t = 0; t < threads; t++)
            if (pthread_create(&ts[t], NULL, hg_thread, (void *)(intptr_t)t) != 0)
                hg_bad_input("cannot create a thread");
        for (long long t = 0; t < threads; t++) pthread_join(ts[t], NULL);
        free(ts);
    } else {
        /* no barrier in the source: the threads run one after another */
        for (long long t = 0; t < threads; t++) {
            threadIdx.x = t;
            hg_launch();
        }
    }
    printf("{\"status\":\"ok\",\"lo\":%%lld,\"hi\":%%lld,\"arrays\":{", hg_lo, hg_hi);
    int first = 1;
    for (int k = 0; k < HG_NPARAMS; k++) {
        if (!hg_is_array[k]) continue;
        printf("%%s\"%%s\":{", first ? "" : ",", hg_names[k]);
        first = 0;
        for (long long i = hg_lo; i < hg_hi; i++)
            if (hg_array[k][i] != hg_default[k]) printf("\"%%lld\":%%lld,", i, hg_array[k][i]);
        printf("\"*\":%%lld}", hg_default[k]);
    }
    printf("}}\n");
    return 0;
}
"""


def header_text() -> str:
    return HEADER % {"EXIT_DIVERGENCE": EXIT_DIVERGENCE}


def main_text(kernel: str, params: list[tuple[str, bool]], use_threads: bool) -> str:
    """`main` for a kernel with `params` (name, is_array) in order."""
    names = ", ".join(f'"{n}"' for n, _ in params) or ""
    args = ", ".join(f"hg_array[{k}]" if arr else f"hg_scalar[{k}]" for k, (_, arr) in enumerate(params))
    return MAIN % {
        "nparams": len(params),
        "names": (names + ", " if names else "") + "0",
        "is_array": "".join(f"{int(a)}, " for _, a in params) + "0",
        "kernel": kernel,
        "args": args,
        "use_threads": int(use_threads),
        "EXIT_INPUT": EXIT_INPUT,
        "EXIT_SEGV": EXIT_SEGV,
        "EXIT_TRAP": EXIT_TRAP,
        "EXIT_FPE": EXIT_FPE,
    }
