/* The compiled search kernel of the ``kernel`` back end (cp_sudoku/backends/kernel.py),
 * and at the end the chain searches of the deduction engine (see there).
 *
 * Puzzles of all-different units and givens, any number of cells, n <= 64
 * values: a cell's candidates are one 64-bit mask (bit v - 1 for value v).
 * Propagation to a fixpoint, in this order:
 *   - naked singles: a cell with one candidate removes it from its peers;
 *   - hidden singles: in a full unit (n cells, so every value appears), a
 *     value with one place left goes there; a value with no place left is a
 *     contradiction;
 *   - locked candidates: for two units A and B sharing at least two cells,
 *     a value that full unit A can only take inside A & B leaves the rest of
 *     B (both directions: "pointing" and "claiming" for rows, columns and
 *     boxes).
 * Then it branches on an open cell with the fewest candidates (the first in
 * cell order), values in ascending order; each level of the search keeps its
 * own copy of the masks (copied, not undone).  Restarts (see k_search) tame
 * heavy tails; grids are counted once across runs (Found).  The search stops at the solution limit, after ``max_tries`` tries,
 * past a deadline (checked every CHECK_EVERY tries), or when a signal handler
 * raised (Ctrl-C).
 *
 * Sources: the singles-and-fewest-candidates scheme is Norvig's, "Solving
 * Every Sudoku Puzzle" (2006); the bit-parallel once/twice scan of a unit for
 * hidden singles follows the idea of tdoku's bit-parallel unit counts
 * (t-dillon/tdoku, src/solver_basic.cc and the README's notes on
 * "hidden singles"), written afresh for arbitrary units; no tdoku code is
 * used.  See docs/performance.md for the measurements.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CHECK_EVERY 256

typedef uint64_t mask_t;

/* A structure: units and the lock pairs, as flat index arrays. */
typedef struct {
    int ncells, n, nunits, nlocks;
    mask_t all;          /* the n value bits */
    int *unit_start;     /* nunits + 1 offsets into unit_cells */
    int *unit_cells;
    char *unit_full;     /* whether the unit has n cells */
    int *peer_start;     /* ncells + 1 offsets into peers */
    int *peers;
    /* lock k: inside cells, rest of A, rest of B; A full / B full flags */
    int *lock_start;     /* 3 * nlocks + 1 offsets into lock_cells */
    int *lock_cells;
    char *lock_full;     /* 2 * nlocks: A full, B full */
    int *lock_units;     /* 2 * nlocks: the units A and B of each lock */
    int *cell_unit_start; /* ncells + 1 offsets into cell_units */
    int *cell_units;     /* the units of each cell */
} Shape;

static void shape_free(Shape *s) {
    if (!s) return;
    free(s->unit_start); free(s->unit_cells); free(s->unit_full);
    free(s->peer_start); free(s->peers);
    free(s->lock_start); free(s->lock_cells); free(s->lock_full);
    free(s->lock_units); free(s->cell_unit_start); free(s->cell_units);
    free(s);
}

static void capsule_destructor(PyObject *capsule) {
    shape_free((Shape *)PyCapsule_GetPointer(capsule, "cp_sudoku.kernel.shape"));
}

/* Read a list of lists of ints into offsets + flat array; returns 0 on error. */
static int read_lists(PyObject *lists, int count_expected, int **start_out, int **flat_out,
                      int *count_out, int ncells) {
    PyObject *seq = PySequence_Fast(lists, "expected a list of lists of cell indices");
    if (!seq) return 0;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    if (count_expected >= 0 && count != count_expected) {
        PyErr_SetString(PyExc_ValueError, "wrong number of lists");
        Py_DECREF(seq);
        return 0;
    }
    int *start = malloc(sizeof(int) * (count + 1));
    Py_ssize_t total = 0, cap = 64;
    int *flat = malloc(sizeof(int) * cap);
    if (!start || !flat) { free(start); free(flat); Py_DECREF(seq); PyErr_NoMemory(); return 0; }
    for (Py_ssize_t k = 0; k < count; k++) {
        start[k] = (int)total;
        PyObject *inner = PySequence_Fast(PySequence_Fast_GET_ITEM(seq, k), "expected a list of ints");
        if (!inner) goto fail;
        Py_ssize_t m = PySequence_Fast_GET_SIZE(inner);
        for (Py_ssize_t j = 0; j < m; j++) {
            long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(inner, j));
            if (v == -1 && PyErr_Occurred()) { Py_DECREF(inner); goto fail; }
            if (v < 0 || v >= ncells) {
                PyErr_SetString(PyExc_ValueError, "cell index out of range");
                Py_DECREF(inner);
                goto fail;
            }
            if (total == cap) {
                cap *= 2;
                int *grown = realloc(flat, sizeof(int) * cap);
                if (!grown) { Py_DECREF(inner); PyErr_NoMemory(); goto fail; }
                flat = grown;
            }
            flat[total++] = (int)v;
        }
        Py_DECREF(inner);
    }
    start[count] = (int)total;
    Py_DECREF(seq);
    *start_out = start; *flat_out = flat; *count_out = (int)count;
    return 1;
fail:
    free(start); free(flat); Py_DECREF(seq);
    return 0;
}

/* shape(ncells, n, units, peers, locks, lock_full, lock_units) -> capsule
 * units: list of lists of cell indices; peers: per cell, its peers;
 * locks: 3 lists per lock (inside, rest of A, rest of B);
 * lock_full: bytes, 2 per lock (A full, B full);
 * lock_units: per lock, the list [A, B] of its two unit indices. */
static PyObject *k_shape(PyObject *self, PyObject *args) {
    int ncells, n;
    PyObject *units, *peers, *locks, *lock_units;
    Py_buffer full;
    if (!PyArg_ParseTuple(args, "iiOOOy*O", &ncells, &n, &units, &peers, &locks, &full,
                          &lock_units))
        return NULL;
    if (n < 1 || n > 64 || ncells < 1) {
        PyBuffer_Release(&full);
        PyErr_SetString(PyExc_ValueError, "the kernel takes 1..64 values and at least one cell");
        return NULL;
    }
    Shape *s = calloc(1, sizeof(Shape));
    if (!s) { PyBuffer_Release(&full); return PyErr_NoMemory(); }
    s->ncells = ncells;
    s->n = n;
    s->all = n == 64 ? ~(mask_t)0 : (((mask_t)1 << n) - 1);
    int npeer_lists, nlock_lists;
    if (!read_lists(units, -1, &s->unit_start, &s->unit_cells, &s->nunits, ncells)) goto fail;
    if (!read_lists(peers, ncells, &s->peer_start, &s->peers, &npeer_lists, ncells)) goto fail;
    if (!read_lists(locks, -1, &s->lock_start, &s->lock_cells, &nlock_lists, ncells)) goto fail;
    s->nlocks = nlock_lists / 3;
    if (nlock_lists % 3 || full.len != 2 * s->nlocks) {
        PyErr_SetString(PyExc_ValueError, "locks: three lists and two flags per lock");
        goto fail;
    }
    s->unit_full = malloc(s->nunits + 1);
    s->lock_full = malloc(2 * s->nlocks + 1);
    if (!s->unit_full || !s->lock_full) { PyErr_NoMemory(); goto fail; }
    for (int u = 0; u < s->nunits; u++)
        s->unit_full[u] = (s->unit_start[u + 1] - s->unit_start[u]) == n;
    memcpy(s->lock_full, full.buf, 2 * s->nlocks);
    int *pair_start = NULL, npairs = 0;
    int ok = read_lists(lock_units, s->nlocks, &pair_start, &s->lock_units, &npairs, s->nunits);
    free(pair_start);
    if (!ok) goto fail;
    if (npairs != s->nlocks || (s->nlocks && s->lock_units == NULL)) {
        PyErr_SetString(PyExc_ValueError, "lock_units: two units per lock");
        goto fail;
    }
    s->cell_unit_start = calloc(ncells + 1, sizeof(int));
    s->cell_units = malloc(sizeof(int) * (s->unit_start[s->nunits] + 1));
    if (!s->cell_unit_start || !s->cell_units) { PyErr_NoMemory(); goto fail; }
    for (int k = 0; k < s->unit_start[s->nunits]; k++) s->cell_unit_start[s->unit_cells[k] + 1]++;
    for (int c = 0; c < ncells; c++) s->cell_unit_start[c + 1] += s->cell_unit_start[c];
    int *fill = malloc(sizeof(int) * (ncells + 1));
    if (!fill) { PyErr_NoMemory(); goto fail; }
    memcpy(fill, s->cell_unit_start, sizeof(int) * (ncells + 1));
    for (int u = 0; u < s->nunits; u++)
        for (int k = s->unit_start[u]; k < s->unit_start[u + 1]; k++)
            s->cell_units[fill[s->unit_cells[k]]++] = u;
    free(fill);
    PyBuffer_Release(&full);
    return PyCapsule_New(s, "cp_sudoku.kernel.shape", capsule_destructor);
fail:
    PyBuffer_Release(&full);
    shape_free(s);
    return NULL;
}

static inline int single(mask_t m) { return (m & (m - 1)) == 0; }

/* The working state of one propagation: the queue of cells that turned
 * single and whose value has not yet left their peers, and per unit whether
 * a cell of it lost a candidate since the unit was last scanned for hidden
 * singles (`hidden`) or for locked candidates (`lock`); `current` is the lock
 * pass's copy of `lock`. */
typedef struct {
    int *queue;
    int qlen;
    char *hidden, *lock, *current;
} Work;

/* Mark the units of cell c as changed. */
static inline void touch(const Shape *s, Work *w, int c) {
    for (int k = s->cell_unit_start[c]; k < s->cell_unit_start[c + 1]; k++) {
        int u = s->cell_units[k];
        w->hidden[u] = 1;
        w->lock[u] = 1;
    }
}

/* Remove `bits` from cell p; 0 when p is left empty.  A cell left single is queued. */
static inline int eliminate(const Shape *s, Work *w, mask_t *cand, int p, mask_t bits) {
    mask_t m = cand[p];
    if (!(m & bits)) return 1;
    m &= ~bits;
    cand[p] = m;
    touch(s, w, p);
    if (!m) return 0;
    if (single(m)) w->queue[w->qlen++] = p;
    return 1;
}

/* Remove `bits` from each cell of [p, end); 0 when one is left empty, with `*blame` set
 * to it. */
static inline int eliminate_all(const Shape *s, Work *w, mask_t *cand, const int *p,
                                const int *end, mask_t bits, int *blame) {
    for (; p < end; p++)
        if (!eliminate(s, w, cand, *p, bits)) {
            *blame = *p;
            return 0;
        }
    return 1;
}

/* Singles and locked candidates to a fixpoint; 0 on a contradiction, with
 * `*blame` set to the cell left without candidates, or to -1 - u for a unit u
 * left without a place for some value.  On entry the queue holds the cells
 * that turned single and `w->hidden`, `w->lock` mark the units changed since
 * the last fixpoint (all of them at the root).  A cell is queued when it
 * turns single, which happens once per call, so the queue never holds more
 * than ncells + 1 entries.  Only changed units are scanned: an unchanged unit
 * was clean at the last fixpoint and still is. */
static int propagate(const Shape *s, Work *w, mask_t *cand, int *blame) {
    const int *us = s->unit_start, *uc = s->unit_cells;
    for (;;) {
        while (w->qlen) {
            int c = w->queue[--w->qlen];
            const int *peers = s->peers + s->peer_start[c], *end = s->peers + s->peer_start[c + 1];
            if (!eliminate_all(s, w, cand, peers, end, cand[c], blame)) return 0;
        }
        /* hidden singles in the full units */
        for (int u = 0; u < s->nunits; u++) {
            if (!w->hidden[u] || !s->unit_full[u]) continue;
            w->hidden[u] = 0;
            mask_t once = 0, twice = 0, fixed = 0;
            for (int k = us[u]; k < us[u + 1]; k++) {
                mask_t m = cand[uc[k]];
                twice |= once & m;
                once |= m;
                if (single(m)) fixed |= m;
            }
            if (once != s->all) {
                *blame = -1 - u;
                return 0;
            }
            mask_t hidden = once & ~twice & ~fixed;
            while (hidden) {
                mask_t bit = hidden & (~hidden + 1);
                hidden ^= bit;
                int k = us[u];
                while (k < us[u + 1] && !(cand[uc[k]] & bit)) k++;
                if (k == us[u + 1]) { /* its one place took another hidden single */
                    *blame = -1 - u;
                    return 0;
                }
                int c = uc[k];
                if (cand[c] != bit) {
                    cand[c] = bit;
                    touch(s, w, c);
                    w->queue[w->qlen++] = c;
                }
            }
        }
        if (w->qlen) continue;
        /* locked candidates, for the pairs with a changed unit */
        int changed = 0;
        memcpy(w->current, w->lock, s->nunits);
        memset(w->lock, 0, s->nunits);
        const int *ls = s->lock_start, *lc = s->lock_cells;
        for (int k = 0; k < s->nlocks; k++) {
            if (!w->current[s->lock_units[2 * k]] && !w->current[s->lock_units[2 * k + 1]])
                continue;
            const int *in0 = lc + ls[3 * k], *in1 = lc + ls[3 * k + 1];
            const int *a1 = lc + ls[3 * k + 2], *b1 = lc + ls[3 * k + 3];
            mask_t inside = 0, rest_a = 0, rest_b = 0;
            for (const int *p = in0; p < in1; p++) inside |= cand[*p];
            for (const int *p = in1; p < a1; p++) rest_a |= cand[*p];
            for (const int *p = a1; p < b1; p++) rest_b |= cand[*p];
            if (s->lock_full[2 * k]) {
                mask_t locked = inside & ~rest_a & rest_b;
                if (locked) {
                    changed = 1;
                    if (!eliminate_all(s, w, cand, a1, b1, locked, blame)) return 0;
                    rest_b &= ~locked;
                }
            }
            if (s->lock_full[2 * k + 1]) {
                mask_t locked = inside & ~rest_b & rest_a;
                if (locked) {
                    changed = 1;
                    if (!eliminate_all(s, w, cand, in1, a1, locked, blame)) return 0;
                }
            }
        }
        if (w->qlen || changed) continue;
        return 1;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int value_of(mask_t m) { return __builtin_ctzll(m) + 1; }

static inline uint64_t next_random(uint64_t *state) { /* xorshift64 (Marsaglia 2003) */
    uint64_t x = *state;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *state = x;
}

/* The grids found so far, distinct: the first `store` kept in full (the
 * first two compared exactly), every one after the second known by a 64-bit
 * FNV-1a hash in an open-addressing set. */
typedef struct {
    unsigned char *grids;
    long long stored, store, room; /* room: grids the buffer holds */
    uint64_t *slots;
    size_t cap, used;
} Found;

static uint64_t grid_hash(const unsigned char *grid, int n) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++) h = (h ^ grid[i]) * 1099511628211ULL;
    return h ? h : 1; /* 0 marks an empty slot */
}

/* The hashes a count keeps across restarts, at most: past them (a count of a grid with
 * millions of solutions: 16 bytes a grid, 426 MB at 12 million) the count starts again
 * from the root in one plain run, which finds every grid once and keeps no hash. */
#define FOUND_CAP (1 << 16)

/* Keep `grid` in full while fewer than `store` are kept: 1, or -1 out of memory. */
static int found_store(Found *f, const unsigned char *grid, int n) {
    if (f->stored < f->store) {
        if (f->stored == f->room) {
            long long room = f->room ? 2 * f->room : 4;
            unsigned char *grids = realloc(f->grids, (size_t)n * (size_t)room);
            if (!grids) return -1;
            f->grids = grids;
            f->room = room;
        }
        memcpy(f->grids + f->stored * n, grid, n);
        f->stored++;
    }
    return 1;
}

/* Forget every grid found (kept and hashed): a plain run counts them again. */
static void found_clear(Found *f) {
    free(f->slots);
    f->slots = NULL;
    f->cap = f->used = 0;
    f->stored = 0;
}

/* 1 when `grid` is new (and now recorded), 0 when found before, -1 out of memory.
 * The first two distinct grids are compared exactly, so the line between one
 * solution and several never rests on a hash; later ones by their hash. */
static int found_add(Found *f, const unsigned char *grid, int n) {
    long long exact = f->stored < 2 ? f->stored : 2;
    for (long long k = 0; k < exact; k++)
        if (!memcmp(f->grids + k * n, grid, n)) return 0;
    if (f->stored >= 2) {
        if (2 * (f->used + 1) > f->cap) {
            size_t cap = f->cap ? 2 * f->cap : 1024;
            uint64_t *slots = calloc(cap, sizeof(uint64_t));
            if (!slots) return -1;
            for (size_t k = 0; k < f->cap; k++) {
                uint64_t h = f->slots[k];
                if (!h) continue;
                size_t j = h & (cap - 1);
                while (slots[j]) j = (j + 1) & (cap - 1);
                slots[j] = h;
            }
            free(f->slots);
            f->slots = slots;
            f->cap = cap;
        }
        uint64_t h = grid_hash(grid, n);
        size_t j = h & (f->cap - 1);
        while (f->slots[j]) {
            if (f->slots[j] == h) return 0;
            j = (j + 1) & (f->cap - 1);
        }
        f->slots[j] = h;
        f->used++;
    }
    return found_store(f, grid, n);
}

/* The open cell to branch on, or -1 when every cell is single (a solution).
 * First run: fewest candidates, the first in cell order.  After a restart:
 * fewest candidates per (1 + weight) (dom/wdeg, Boussemart et al., ECAI 2004,
 * with weights on cells), ties drawn at random. */
static int choose(const mask_t *cand, int N, const long long *weight, uint64_t *random) {
    int best = -1, fewest = 65;
    if (!random) {
        for (int c = 0; c < N; c++) {
            mask_t m = cand[c];
            if (single(m)) continue;
            int k = __builtin_popcountll(m);
            if (k < fewest) {
                fewest = k;
                best = c;
                if (k == 2) break;
            }
        }
        return best;
    }
    long long best_weight = 0;
    uint64_t ties = 0;
    for (int c = 0; c < N; c++) {
        mask_t m = cand[c];
        if (single(m)) continue;
        long long k = __builtin_popcountll(m);
        /* k / (1 + w) against fewest / (1 + best_weight), cross-multiplied */
        long long left = k * (1 + best_weight), right = (long long)fewest * (1 + weight[c]);
        if (best < 0 || left < right) {
            best = c, fewest = (int)k, best_weight = weight[c], ties = 1;
        } else if (left == right && next_random(random) % ++ties == 0) {
            best = c, fewest = (int)k, best_weight = weight[c];
        }
    }
    return best;
}

static void blame_on(const Shape *s, long long *weight, int blame) {
    if (blame >= 0) {
        weight[blame]++;
        return;
    }
    int u = -1 - blame;
    for (int k = s->unit_start[u]; k < s->unit_start[u + 1]; k++) weight[s->unit_cells[k]]++;
}

/* search(shape, givens: bytes (0 blank, else 1..n), limit, keep, max_tries (-1: none),
 *        seconds (< 0: none))
 * -> (count, complete, stopped, grids, tries, backtracks)
 * stopped: None, "solution limit", "effort limit" or "time limit";
 * grids: the first `keep` distinct grids found, bytes, one value 1..n per cell.
 *
 * Restarts tame heavy tails: when a run passes its budget of tries (first
 * RESTART_TRIES, then twice as many each time), the search starts again from
 * the root with the weighted, randomised choice of choose().  Grids found in
 * any run are counted once (Found); a run that ends within its budget has
 * explored the whole space, so its count is exact.  Past FOUND_CAP grids the count
 * starts again in one plain run without restarts (final), whose grids need no hash. */
#define RESTART_TRIES 2000
#define RANDOM_SEED 20061

static PyObject *k_search(PyObject *self, PyObject *args) {
    PyObject *capsule;
    Py_buffer givens;
    long long limit, keep, max_tries;
    double seconds;
    if (!PyArg_ParseTuple(args, "Oy*LLLd", &capsule, &givens, &limit, &keep, &max_tries, &seconds))
        return NULL;
    Shape *s = PyCapsule_GetPointer(capsule, "cp_sudoku.kernel.shape");
    if (!s) { PyBuffer_Release(&givens); return NULL; }
    int N = s->ncells;
    if (givens.len != N) {
        PyBuffer_Release(&givens);
        PyErr_SetString(PyExc_ValueError, "one given (or 0) per cell expected");
        return NULL;
    }
    if (keep < 0) keep = 0;
    double deadline = seconds >= 0 ? now() + seconds : -1.0;
    Work work = {malloc(sizeof(int) * ((size_t)N + 1)), 0, calloc(s->nunits + 1, 1),
                 calloc(s->nunits + 1, 1), calloc(s->nunits + 1, 1)};
    int depth_cap = 16;
    mask_t *states = malloc(sizeof(mask_t) * (size_t)N * depth_cap);
    int *branch_cell = malloc(sizeof(int) * depth_cap);
    mask_t *branch_rest = malloc(sizeof(mask_t) * depth_cap);
    long long *weight = calloc(N, sizeof(long long));
    unsigned char *grid = malloc(N);
    Found found = {0};
    found.store = keep > 2 ? keep : 2;
    if (found.store > limit) found.store = limit;
    PyObject *grids = NULL, *result = NULL;
    if (!work.queue || !work.hidden || !work.lock || !work.current || !states || !branch_cell ||
        !branch_rest || !weight || !grid) {
        PyErr_NoMemory();
        goto done;
    }
    long long count = 0, tries = 0, backtracks = 0;
    long long budget = RESTART_TRIES, run_start = 0;
    uint64_t random_state = RANDOM_SEED, *random = NULL; /* NULL: the first, plain run */
    const char *stopped = NULL;
    int complete = 1, failed = 0, blame = 0, final = 0;
    const unsigned char *g = givens.buf;
    for (int c = 0; c < N; c++) {
        if (g[c]) {
            if (g[c] > s->n) {
                PyErr_SetString(PyExc_ValueError, "a given past n");
                goto done;
            }
            states[c] = (mask_t)1 << (g[c] - 1);
            work.queue[work.qlen++] = c;
        } else {
            states[c] = s->all;
        }
    }
    /* states[0..N) is the root, never changed after this */
    memset(work.hidden, 1, s->nunits);
    memset(work.lock, 1, s->nunits);
    int depth = propagate(s, &work, states, &blame) ? 0 : -1; /* -1: no solution */
    int descend = 1; /* choose a branching cell at states[depth] */
    while (depth >= 0) {
        mask_t *cand = states + (size_t)depth * N;
        if (descend) {
            descend = 0;
            int best = choose(cand, N, weight, random);
            if (best < 0) { /* a solution */
                for (int c = 0; c < N; c++) grid[c] = (unsigned char)value_of(cand[c]);
                if (!final && found.used >= FOUND_CAP) { /* count again, plainly */
                    found_clear(&found);
                    count = 0;
                    final = 1;
                    random = NULL;
                    depth = 0;
                    descend = 1;
                    continue;
                }
                int added = final ? found_store(&found, grid, N) : found_add(&found, grid, N);
                if (added < 0) { PyErr_NoMemory(); goto done; }
                count += added;
                if (count >= limit) { stopped = "solution limit"; complete = 0; break; }
                depth--;
                continue;
            }
            branch_cell[depth] = best;
            branch_rest[depth] = cand[best];
        }
        mask_t rest = branch_rest[depth];
        if (!rest) { depth--; continue; }
        if (!final && tries - run_start >= budget) { /* restart from the root */
            budget *= 2;
            run_start = tries;
            random = &random_state;
            depth = 0;
            descend = 1;
            continue;
        }
        mask_t bit = rest & (~rest + 1);
        if (random) { /* a value drawn at random */
            int skip = (int)(next_random(random) % (uint64_t)__builtin_popcountll(rest));
            while (skip--) {
                rest ^= bit;
                bit = rest & (~rest + 1);
            }
        }
        branch_rest[depth] ^= bit;
        tries++;
        if (max_tries >= 0 && tries > max_tries) { stopped = "effort limit"; complete = 0; break; }
        if (tries % CHECK_EVERY == 0) {
            if (deadline >= 0 && now() >= deadline) { stopped = "time limit"; complete = 0; break; }
            if (PyErr_CheckSignals() < 0) { failed = 1; break; }
        }
        if (depth + 1 >= depth_cap) {
            int cap = depth_cap * 2;
            mask_t *st = realloc(states, sizeof(mask_t) * (size_t)N * cap);
            if (!st) { PyErr_NoMemory(); goto done; }
            states = st;
            int *bc = realloc(branch_cell, sizeof(int) * cap);
            if (!bc) { PyErr_NoMemory(); goto done; }
            branch_cell = bc;
            mask_t *br = realloc(branch_rest, sizeof(mask_t) * cap);
            if (!br) { PyErr_NoMemory(); goto done; }
            branch_rest = br;
            depth_cap = cap;
            cand = states + (size_t)depth * N;
        }
        mask_t *next = cand + N;
        memcpy(next, cand, sizeof(mask_t) * N);
        int c = branch_cell[depth];
        next[c] = bit;
        memset(work.hidden, 0, s->nunits);
        memset(work.lock, 0, s->nunits);
        touch(s, &work, c);
        work.queue[0] = c;
        work.qlen = 1;
        if (propagate(s, &work, next, &blame)) {
            depth++;
            descend = 1;
        } else {
            backtracks++;
            blame_on(s, weight, blame);
        }
    }
    if (failed) goto done;
    grids = PyList_New(0);
    if (!grids) goto done;
    for (long long k = 0; k < found.stored && k < keep; k++) {
        PyObject *b = PyBytes_FromStringAndSize((const char *)found.grids + k * N, N);
        if (!b || PyList_Append(grids, b) < 0) { Py_XDECREF(b); goto done; }
        Py_DECREF(b);
    }
    result = Py_BuildValue("LOsOLL", count, complete ? Py_True : Py_False, stopped, grids, tries,
                           backtracks);
done:
    PyBuffer_Release(&givens);
    free(work.queue); free(work.hidden); free(work.lock); free(work.current); free(states); free(branch_cell); free(branch_rest); free(weight); free(grid);
    free(found.grids); free(found.slots);
    Py_XDECREF(grids);
    return result;
}

/* ---- Chain searches of the deduction engine (cp_sudoku/deduction/chains.py) ----
 *
 * The link graphs and searches of chains.py, over bit sets of candidates (candidate
 * k = digit * cells + cell) held as arrays of 64-bit words instead of Python ints:
 *   - chain_shape / chain_links: a grid's strong and weak links for one kind of chain,
 *     as chains.py's _links and _digit_links build them;
 *   - first_shortest, shortest_from: chains.py's _first_shortest and _shortest_from
 *     (the same breadth-first searches, the same order, the same parents);
 *   - forcing: the loop of chains.py's _agreements over the options of forcing chains,
 *     with each branch's _reach.
 * Each returns what the Python function returns.  The engine runs the pure-Python code
 * when this extension is not built; tests/test_deduction.py compares the two paths.
 */

static int grow(uint64_t **rows, Py_ssize_t *cap, Py_ssize_t need, Py_ssize_t W);

typedef struct {
    Py_ssize_t bits, words;
    int32_t *strong_row, *weak_row; /* per candidate: its row in strong/weak, or -1 */
    uint64_t *strong, *weak;        /* rows of `words` words */
    uint64_t *linked;
} ChainGraph;

static void chain_graph_free(PyObject *capsule) {
    ChainGraph *g = PyCapsule_GetPointer(capsule, "cp_sudoku.chain_graph");
    if (!g) return;
    free(g->strong_row); free(g->weak_row); free(g->strong); free(g->weak); free(g->linked);
    free(g);
}

/* A non-negative Python int into `words` words (bits past them are an error). */
static int int_to_words(PyObject *value, uint64_t *out, Py_ssize_t words) {
    if (!PyLong_Check(value)) { PyErr_SetString(PyExc_TypeError, "expected an int"); return -1; }
    unsigned char *bytes = (unsigned char *)out;
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t need = PyLong_AsNativeBytes(value, bytes, words * 8,
        Py_ASNATIVEBYTES_LITTLE_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER | Py_ASNATIVEBYTES_REJECT_NEGATIVE);
    if (need < 0) return -1;
    if (need > words * 8) { PyErr_SetString(PyExc_OverflowError, "bit set too large"); return -1; }
    return 0;
#else
    return _PyLong_AsByteArray((PyLongObject *)value, bytes, (size_t)(words * 8), 1, 0);
#endif
}

static PyObject *words_to_int(const uint64_t *in, Py_ssize_t words) {
    Py_ssize_t t = 0;
    while (t < words && !in[t]) t++;
    if (t == words) return PyLong_FromLong(0); /* (CPython 3.11 reads an unset digit for 0) */
#if PY_VERSION_HEX >= 0x030D0000
    return PyLong_FromUnsignedNativeBytes(in, (size_t)(words * 8), Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    return _PyLong_FromByteArray((const unsigned char *)in, (size_t)(words * 8), 1, 0);
#endif
}

/* A puzzle's shape for chain_links: cells, values, each cell's group peers and each full
 * group's cells (cell sets of `cell_words` words). */
typedef struct {
    Py_ssize_t cells, values, cell_words, groups;
    uint64_t *peers, *group; /* cells rows, groups rows */
} ChainShape;

static void chain_shape_free(PyObject *capsule) {
    ChainShape *sh = PyCapsule_GetPointer(capsule, "cp_sudoku.chain_shape");
    if (!sh) return;
    free(sh->peers); free(sh->group); free(sh);
}

static int load_rows(PyObject *list, Py_ssize_t rows, Py_ssize_t words, uint64_t **out) {
    PyObject *seq = PySequence_Fast(list, "expected a sequence of ints");
    if (!seq) return -1;
    if (PySequence_Fast_GET_SIZE(seq) != rows) {
        PyErr_SetString(PyExc_ValueError, "wrong number of rows");
        Py_DECREF(seq);
        return -1;
    }
    *out = calloc((size_t)(rows ? rows : 1) * (size_t)words, sizeof(uint64_t));
    if (!*out) { Py_DECREF(seq); PyErr_NoMemory(); return -1; }
    for (Py_ssize_t r = 0; r < rows; r++)
        if (int_to_words(PySequence_Fast_GET_ITEM(seq, r), *out + r * words, words) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    return 0;
}

/* chain_shape(cells, values, peer_masks, group_masks) */
static PyObject *k_chain_shape(PyObject *self, PyObject *args) {
    Py_ssize_t cells, values;
    PyObject *peers, *groups;
    if (!PyArg_ParseTuple(args, "nnOO", &cells, &values, &peers, &groups)) return NULL;
    if (cells <= 0 || values <= 0 || values > 64) {
        PyErr_SetString(PyExc_ValueError, "1..64 values and at least one cell");
        return NULL;
    }
    ChainShape *sh = calloc(1, sizeof(ChainShape));
    if (!sh) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(sh, "cp_sudoku.chain_shape", chain_shape_free);
    if (!capsule) { free(sh); return NULL; }
    sh->cells = cells;
    sh->values = values;
    sh->cell_words = (cells + 63) / 64;
    sh->groups = PySequence_Size(groups);
    if (sh->groups < 0 || load_rows(peers, cells, sh->cell_words, &sh->peers) < 0
        || load_rows(groups, sh->groups, sh->cell_words, &sh->group) < 0) {
        Py_DECREF(capsule);
        return NULL;
    }
    return capsule;
}

/* Rows of a table being built: row_of[k] = row of candidate k or -1. */
typedef struct {
    int32_t *row_of;
    uint64_t *rows;
    Py_ssize_t count, cap;
} Table;

static uint64_t *table_row(Table *t, Py_ssize_t k, Py_ssize_t W) {
    if (t->row_of[k] < 0) {
        if (grow(&t->rows, &t->cap, t->count + 1, W) < 0) return NULL;
        memset(t->rows + t->count * W, 0, sizeof(uint64_t) * (size_t)W);
        t->row_of[k] = (int32_t)t->count++;
    }
    return t->rows + (Py_ssize_t)t->row_of[k] * W;
}

#define SET_BIT(words, k) ((words)[(k) / 64] |= (uint64_t)1 << ((k) % 64))

static int strong_link(Table *t, uint64_t *linked, Py_ssize_t a, Py_ssize_t b, Py_ssize_t W) {
    uint64_t *row = table_row(t, a, W);
    if (!row) return -1;
    SET_BIT(row, b);
    if (!(row = table_row(t, b, W))) return -1;
    SET_BIT(row, a);
    SET_BIT(linked, a);
    SET_BIT(linked, b);
    return 0;
}

/* chain_links(shape, cand, placed, kind, digit): the link graph of a candidate grid, as
 * chains.py's pure-Python links_of builds it, and (linked, present) as ints.  kind 0: one
 * digit's X-chain links (`digit`); 1: XY-chains; 2: AICs; 3: AICs with the weak links of
 * every candidate (forcing chains). */
static PyObject *k_chain_links(PyObject *self, PyObject *args) {
    PyObject *shape_capsule, *cand_list, *placed_list;
    int kind;
    Py_ssize_t digit;
    if (!PyArg_ParseTuple(args, "OOOin", &shape_capsule, &cand_list, &placed_list, &kind, &digit))
        return NULL;
    ChainShape *sh = PyCapsule_GetPointer(shape_capsule, "cp_sudoku.chain_shape");
    if (!sh) return NULL;
    Py_ssize_t n = sh->cells, V = sh->values, Wc = sh->cell_words, K = n * V, W = (K + 63) / 64;
    PyObject *cand_seq = PySequence_Fast(cand_list, "cand must be a sequence");
    if (!cand_seq) return NULL;
    PyObject *placed_seq = PySequence_Fast(placed_list, "placed must be a sequence");
    if (!placed_seq) { Py_DECREF(cand_seq); return NULL; }
    PyObject *result = NULL;
    uint64_t *cand = calloc((size_t)n, sizeof(uint64_t));
    uint64_t *digit_cells = calloc((size_t)(V * Wc), sizeof(uint64_t));
    uint64_t *places = calloc((size_t)Wc, sizeof(uint64_t));
    char *open = calloc((size_t)n, 1);
    ChainGraph *g = calloc(1, sizeof(ChainGraph));
    PyObject *capsule = g ? PyCapsule_New(g, "cp_sudoku.chain_graph", chain_graph_free) : NULL;
    uint64_t *present = calloc((size_t)W, sizeof(uint64_t));
    Table strong = {NULL, NULL, 0, 0}, weak = {NULL, NULL, 0, 0};
    if (g && !capsule) free(g);
    if (!capsule || !cand || !digit_cells || !places || !open || !present) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto fail;
    }
    if (PySequence_Fast_GET_SIZE(cand_seq) != n || PySequence_Fast_GET_SIZE(placed_seq) != n) {
        PyErr_SetString(PyExc_ValueError, "cand and placed must have one entry per cell");
        goto fail;
    }
    g->bits = K;
    g->words = W;
    g->linked = calloc((size_t)W, sizeof(uint64_t));
    g->strong_row = strong.row_of = malloc(sizeof(int32_t) * (size_t)K);
    g->weak_row = weak.row_of = malloc(sizeof(int32_t) * (size_t)K);
    if (!g->linked || !strong.row_of || !weak.row_of) { PyErr_NoMemory(); goto fail; }
    for (Py_ssize_t k = 0; k < K; k++) strong.row_of[k] = weak.row_of[k] = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = PySequence_Fast_GET_ITEM(cand_seq, i);
        cand[i] = PyLong_AsUnsignedLongLong(c);
        if (cand[i] == (uint64_t)-1 && PyErr_Occurred()) goto fail;
        int is_placed = PyObject_IsTrue(PySequence_Fast_GET_ITEM(placed_seq, i));
        if (is_placed < 0) goto fail;
        open[i] = !is_placed;
        if (open[i])
            for (uint64_t m = cand[i]; m; m &= m - 1) {
                Py_ssize_t d = __builtin_ctzll(m);
                if (d >= V) continue;
                digit_cells[d * Wc + i / 64] |= (uint64_t)1 << (i % 64);
                SET_BIT(present, d * n + i);
            }
    }
    /* strong links in bivalue cells */
    if (kind != 0)
        for (Py_ssize_t i = 0; i < n; i++)
            if (open[i] && __builtin_popcountll(cand[i]) == 2) {
                Py_ssize_t a = __builtin_ctzll(cand[i]), b = 63 - __builtin_clzll(cand[i]);
                if (strong_link(&strong, g->linked, a * n + i, b * n + i, W) < 0) { PyErr_NoMemory(); goto fail; }
            }
    /* strong links in full groups: a digit with exactly two places */
    if (kind != 1)
        for (Py_ssize_t d = (kind == 0 ? digit : 0); d < (kind == 0 ? digit + 1 : V); d++)
            for (Py_ssize_t gi = 0; gi < sh->groups; gi++) {
                int count = 0;
                for (Py_ssize_t t = 0; t < Wc; t++) {
                    places[t] = sh->group[gi * Wc + t] & digit_cells[d * Wc + t];
                    count += __builtin_popcountll(places[t]);
                }
                if (count != 2) continue;
                Py_ssize_t two[2], found = 0;
                for (Py_ssize_t t = 0; t < Wc; t++)
                    for (uint64_t m = places[t]; m; m &= m - 1) two[found++] = t * 64 + __builtin_ctzll(m);
                if (strong_link(&strong, g->linked, d * n + two[0], d * n + two[1], W) < 0) { PyErr_NoMemory(); goto fail; }
            }
    /* weak links of the linked candidates (kind 3: of every candidate) */
    const uint64_t *keys = kind == 3 ? present : g->linked;
    for (Py_ssize_t j = 0; j < W; j++)
        for (uint64_t m = keys[j]; m; m &= m - 1) {
            Py_ssize_t k = j * 64 + __builtin_ctzll(m), d = k / n, i = k % n;
            uint64_t *row = table_row(&weak, k, W);
            if (!row) { PyErr_NoMemory(); goto fail; }
            for (Py_ssize_t t = 0; t < Wc; t++)
                for (uint64_t p = sh->peers[i * Wc + t] & digit_cells[d * Wc + t]; p; p &= p - 1)
                    SET_BIT(row, d * n + t * 64 + __builtin_ctzll(p));
            if (kind >= 2)
                for (uint64_t c = cand[i]; c; c &= c - 1) {
                    Py_ssize_t e = __builtin_ctzll(c);
                    if (e != d && e < V) SET_BIT(row, e * n + i);
                }
        }
    g->strong = strong.rows;
    g->weak = weak.rows;
    strong.rows = weak.rows = NULL;
    PyObject *linked_int = words_to_int(g->linked, W), *present_int = words_to_int(present, W);
    if (linked_int && present_int) result = PyTuple_Pack(3, capsule, linked_int, present_int);
    Py_XDECREF(linked_int); Py_XDECREF(present_int);
fail:
    free(strong.rows); free(weak.rows); free(present);
    Py_XDECREF(capsule);
    free(cand); free(digit_cells); free(places); free(open);
    Py_DECREF(cand_seq); Py_DECREF(placed_seq);
    return result;
}

static ChainGraph *graph_of(PyObject *capsule) {
    return PyCapsule_GetPointer(capsule, "cp_sudoku.chain_graph");
}

/* out = OR of table rows over the bits of keys (absent rows are empty). */
static void union_rows(const ChainGraph *g, const int32_t *row_of, const uint64_t *rows,
                       const uint64_t *keys, uint64_t *out) {
    Py_ssize_t W = g->words;
    memset(out, 0, sizeof(uint64_t) * (size_t)W);
    for (Py_ssize_t j = 0; j < W; j++) {
        uint64_t m = keys[j];
        while (m) {
            Py_ssize_t k = j * 64 + __builtin_ctzll(m);
            m &= m - 1;
            int32_t r = row_of[k];
            if (r >= 0) {
                const uint64_t *src = rows + (Py_ssize_t)r * W;
                for (Py_ssize_t t = 0; t < W; t++) out[t] |= src[t];
            }
        }
    }
}

static int any_bits(const uint64_t *a, Py_ssize_t W) {
    for (Py_ssize_t t = 0; t < W; t++) if (a[t]) return 1;
    return 0;
}

static const uint64_t *row(const ChainGraph *g, const int32_t *row_of, const uint64_t *rows,
                           Py_ssize_t k, const uint64_t *zero) {
    int32_t r = row_of[k];
    return r >= 0 ? rows + (Py_ssize_t)r * g->words : zero;
}

/* One level of a search over the links in rows_of/rows: every candidate linked to one of
 * from[0..n_from) and not yet in seen is added to seen, gets its parent, and is written to
 * out in the order met; returns how many. */
static Py_ssize_t advance(const ChainGraph *g, const int32_t *row_of, const uint64_t *rows,
                          const Py_ssize_t *from, Py_ssize_t n_from, uint64_t *seen,
                          int32_t *parent, Py_ssize_t *out, const uint64_t *zero) {
    Py_ssize_t n_out = 0, W = g->words;
    for (Py_ssize_t f = 0; f < n_from; f++) {
        Py_ssize_t u = from[f];
        const uint64_t *linked = row(g, row_of, rows, u, zero);
        for (Py_ssize_t j = 0; j < W; j++) {
            uint64_t fresh = linked[j] & ~seen[j];
            seen[j] |= fresh;
            for (; fresh; fresh &= fresh - 1) {
                Py_ssize_t v = j * 64 + __builtin_ctzll(fresh);
                parent[v] = (int32_t)u;
                out[n_out++] = v;
            }
        }
    }
    return n_out;
}

/* first_shortest(graph, starts, limit): chains.py's _first_shortest. */
static PyObject *k_first_shortest(PyObject *self, PyObject *args) {
    PyObject *capsule, *starts;
    Py_ssize_t limit;
    if (!PyArg_ParseTuple(args, "OOn", &capsule, &starts, &limit)) return NULL;
    ChainGraph *g = graph_of(capsule);
    if (!g) return NULL;
    PyObject *seq;
    if (starts == Py_None) { /* every linked candidate, ascending */
        seq = PyList_New(0);
        if (!seq) return NULL;
        for (Py_ssize_t j = 0; j < g->words; j++)
            for (uint64_t m = g->linked[j]; m; m &= m - 1) {
                PyObject *k = PyLong_FromSsize_t(j * 64 + __builtin_ctzll(m));
                if (!k || PyList_Append(seq, k) < 0) { Py_XDECREF(k); Py_DECREF(seq); return NULL; }
                Py_DECREF(k);
            }
    } else if (!(seq = PySequence_Fast(starts, "starts must be a sequence"))) {
        return NULL;
    }
    Py_ssize_t S = PySequence_Fast_GET_SIZE(seq), W = g->words;
    /* per search: w_weak, seen_off, seen_on, frontier (W words each) */
    uint64_t *state = calloc((size_t)(S ? S : 1) * 4 * (size_t)W + 3 * (size_t)W, sizeof(uint64_t));
    Py_ssize_t *start = malloc(sizeof(Py_ssize_t) * (size_t)(S ? S : 1));
    Py_ssize_t *alive = malloc(sizeof(Py_ssize_t) * (size_t)(S ? S : 1));
    PyObject *result = NULL;
    if (!state || !start || !alive) { PyErr_NoMemory(); goto done; }
    uint64_t *zero = state + S * 4 * W, *reached = zero + W, *keys = reached + W;
    Py_ssize_t live = 0;
    for (Py_ssize_t s = 0; s < S; s++) {
        Py_ssize_t w = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(seq, s));
        if (w == -1 && PyErr_Occurred()) goto done;
        if (w < 0 || w >= g->bits) { PyErr_SetString(PyExc_ValueError, "start out of range"); goto done; }
        uint64_t *mine = state + s * 4 * W;
        memcpy(mine, row(g, g->weak_row, g->weak, w, zero), sizeof(uint64_t) * (size_t)W);
        mine[W + w / 64] |= (uint64_t)1 << (w % 64);     /* seen_off */
        mine[3 * W + w / 64] |= (uint64_t)1 << (w % 64); /* frontier */
        start[s] = w;
        alive[live++] = s;
    }
    Py_ssize_t nodes = 1;
    while (live && nodes + 1 <= limit) {
        nodes += 1;
        Py_ssize_t going = 0;
        for (Py_ssize_t a = 0; a < live; a++) {
            Py_ssize_t s = alive[a];
            uint64_t *w_weak = state + s * 4 * W, *seen_off = w_weak + W, *seen_on = seen_off + W,
                     *frontier = seen_on + W;
            for (Py_ssize_t t = 0; t < W; t++) keys[t] = frontier[t] & g->linked[t];
            union_rows(g, g->strong_row, g->strong, keys, reached);
            int hit = 0;
            for (Py_ssize_t t = 0; t < W; t++) {
                reached[t] &= ~seen_on[t];
                seen_on[t] |= reached[t];
                frontier[t] = 0;
            }
            for (Py_ssize_t j = 0; j < W && !hit; j++) {
                uint64_t m = reached[j];
                while (m) {
                    Py_ssize_t y = j * 64 + __builtin_ctzll(m);
                    m &= m - 1;
                    const uint64_t *wy = row(g, g->weak_row, g->weak, y, zero);
                    for (Py_ssize_t t = 0; t < W; t++) {
                        if (w_weak[t] & wy[t]) { hit = 1; break; }
                        frontier[t] |= wy[t];
                    }
                    if (hit) break;
                }
            }
            if (hit) {
                result = Py_BuildValue("(nn)", nodes, start[s]);
                goto done;
            }
            int any = 0;
            for (Py_ssize_t t = 0; t < W; t++) {
                frontier[t] &= ~seen_off[t];
                seen_off[t] |= frontier[t];
                any |= frontier[t] != 0;
            }
            if (any) alive[going++] = s;
        }
        if (nodes + 2 > limit) break;
        live = going;
        nodes += 1;
    }
    result = Py_NewRef(Py_None);
done:
    Py_DECREF(seq);
    free(state); free(start); free(alive);
    return result;
}

/* shortest_from(graph, w, limit): chains.py's _shortest_from, ((nodes ...), targets) or
 * None: the same breadth-first search, the same order of the frontier, the same parents. */
static PyObject *k_shortest_from(PyObject *self, PyObject *args) {
    PyObject *capsule;
    Py_ssize_t w, limit;
    if (!PyArg_ParseTuple(args, "Onn", &capsule, &w, &limit)) return NULL;
    ChainGraph *g = graph_of(capsule);
    if (!g) return NULL;
    Py_ssize_t W = g->words, K = g->bits;
    if (w < 0 || w >= K) { PyErr_SetString(PyExc_ValueError, "start out of range"); return NULL; }
    uint64_t *buf = calloc(4 * (size_t)W, sizeof(uint64_t));
    int32_t *parent = malloc(sizeof(int32_t) * 2 * (size_t)K); /* [on][k] */
    Py_ssize_t *frontier = malloc(sizeof(Py_ssize_t) * (size_t)K), *reached = malloc(sizeof(Py_ssize_t) * (size_t)K);
    PyObject *result = NULL;
    if (!buf || !parent || !frontier || !reached) { PyErr_NoMemory(); goto done; }
    uint64_t *zero = buf, *seen_off = buf + W, *seen_on = buf + 2 * W, *targets = buf + 3 * W;
    const uint64_t *w_weak = row(g, g->weak_row, g->weak, w, zero);
    SET_BIT(seen_off, w);
    Py_ssize_t n_front = 1, nodes = 1;
    frontier[0] = w;
    while (n_front && nodes + 1 <= limit) {
        Py_ssize_t n_reached = advance(g, g->strong_row, g->strong, frontier, n_front, seen_on,
                                       parent + K, reached, zero);
        nodes += 1;
        for (Py_ssize_t r = 0; r < n_reached; r++) {
            Py_ssize_t y = reached[r];
            const uint64_t *wy = row(g, g->weak_row, g->weak, y, zero);
            int hit = 0;
            for (Py_ssize_t t = 0; t < W; t++) hit |= (targets[t] = w_weak[t] & wy[t]) != 0;
            if (!hit) continue;
            /* the path back from y (on) to w (off), then reversed */
            Py_ssize_t length = 1, node = y;
            int on = 1;
            while (!(node == w && !on)) { node = parent[(on ? K : 0) + node]; on = !on; length++; }
            PyObject *path = PyTuple_New(length), *target_int = NULL;
            if (!path) goto done;
            node = y;
            on = 1;
            for (Py_ssize_t p = length - 1; p >= 0; p--) {
                PyObject *item = PyLong_FromSsize_t(node);
                if (!item) { Py_DECREF(path); goto done; }
                PyTuple_SET_ITEM(path, p, item);
                if (p) { node = parent[(on ? K : 0) + node]; on = !on; }
            }
            target_int = words_to_int(targets, W);
            if (target_int) result = PyTuple_Pack(2, path, target_int);
            Py_DECREF(path);
            Py_XDECREF(target_int);
            goto done;
        }
        n_front = 0;
        if (nodes + 2 > limit) break;
        n_front = advance(g, g->weak_row, g->weak, reached, n_reached, seen_off, parent, frontier,
                          zero);
        nodes += 1;
    }
    result = Py_NewRef(Py_None);
done:
    free(buf); free(parent); free(frontier); free(reached);
    return result;
}

/* One candidate's reach (chains.py's _reach): everything it implies when true, and per
 * level the candidates first made true (made_on, levels 0..n_on-1) and false. */
typedef struct {
    uint64_t *on, *off, *made_on, *made_off; /* on, off: W words; made_*: n_* rows of W */
    Py_ssize_t n_on, n_off;
} Reach;

static int grow(uint64_t **rows, Py_ssize_t *cap, Py_ssize_t need, Py_ssize_t W) {
    if (need <= *cap) return 0;
    Py_ssize_t cap2 = *cap ? *cap * 2 : 8;
    while (cap2 < need) cap2 *= 2;
    uint64_t *bigger = realloc(*rows, sizeof(uint64_t) * (size_t)(cap2 * W));
    if (!bigger) return -1;
    *rows = bigger;
    *cap = cap2;
    return 0;
}

static int reach_of(const ChainGraph *g, Py_ssize_t start, Reach *r) {
    Py_ssize_t W = g->words, cap_on = 0, cap_off = 0;
    uint64_t *tmp = calloc(2 * (size_t)W, sizeof(uint64_t));
    r->on = calloc(2 * (size_t)W, sizeof(uint64_t));
    r->made_on = r->made_off = NULL;
    r->n_on = r->n_off = 0;
    if (!tmp || !r->on) { free(tmp); return -1; }
    r->off = r->on + W;
    uint64_t *fresh = tmp, *keys = tmp + W;
    if (grow(&r->made_on, &cap_on, 1, W) < 0) { free(tmp); return -1; }
    memset(r->made_on, 0, sizeof(uint64_t) * (size_t)W);
    r->on[start / 64] = r->made_on[start / 64] = (uint64_t)1 << (start % 64);
    r->n_on = 1;
    while (any_bits(r->made_on + (r->n_on - 1) * W, W)) {
        union_rows(g, g->weak_row, g->weak, r->made_on + (r->n_on - 1) * W, fresh);
        if (grow(&r->made_off, &cap_off, r->n_off + 1, W) < 0) { free(tmp); return -1; }
        uint64_t *level = r->made_off + r->n_off * W;
        for (Py_ssize_t t = 0; t < W; t++) {
            level[t] = fresh[t] & ~r->off[t];
            r->off[t] |= level[t];
            keys[t] = level[t] & g->linked[t];
        }
        r->n_off++;
        if (grow(&r->made_on, &cap_on, r->n_on + 1, W) < 0) { free(tmp); return -1; }
        level = r->made_on + r->n_on * W;
        union_rows(g, g->strong_row, g->strong, keys, level);
        for (Py_ssize_t t = 0; t < W; t++) {
            level[t] &= ~r->on[t];
            r->on[t] |= level[t];
        }
        r->n_on++;
    }
    free(tmp);
    return 0;
}

/* chains.py's _nodes: nodes to the nearest candidate of mask in levels (99 if none). */
static Py_ssize_t nodes_to(const uint64_t *levels, Py_ssize_t count, const uint64_t *mask,
                           Py_ssize_t W, Py_ssize_t first) {
    for (Py_ssize_t j = 0; j < count; j++)
        for (Py_ssize_t t = 0; t < W; t++)
            if (levels[j * W + t] & mask[t]) return first + 2 * j;
    return 99;
}

/* forcing(graph, options, present): for forcing chains (chains.py's forcing_chains), per
 * option (a list of candidates, one of which is true) whose branches all make some
 * candidate true or false: (index, on, off, length), in order; on leaves the option's
 * own candidates out, length is the nodes summed over the branches to the nearest
 * conclusion. */
static PyObject *k_forcing(PyObject *self, PyObject *args) {
    PyObject *capsule, *options, *present_int;
    if (!PyArg_ParseTuple(args, "OOO", &capsule, &options, &present_int)) return NULL;
    ChainGraph *g = graph_of(capsule);
    if (!g) return NULL;
    PyObject *opts = PySequence_Fast(options, "options must be a sequence");
    if (!opts) return NULL;
    Py_ssize_t W = g->words, K = g->bits, count = PySequence_Fast_GET_SIZE(opts);
    Reach *reach = calloc((size_t)K, sizeof(Reach));
    char *known = calloc((size_t)K, 1);
    uint64_t *buf = calloc(3 * (size_t)W, sizeof(uint64_t));
    PyObject *found = PyList_New(0), *result = NULL;
    if (!reach || !known || !buf) { PyErr_NoMemory(); goto done; }
    if (!found) goto done;
    uint64_t *present = buf, *on = buf + W, *off = buf + 2 * W;
    if (int_to_words(present_int, present, W) < 0) goto done;
    for (Py_ssize_t o = 0; o < count; o++) {
        PyObject *starts = PySequence_Fast(PySequence_Fast_GET_ITEM(opts, o), "an option must be a sequence");
        if (!starts) goto done;
        Py_ssize_t S = PySequence_Fast_GET_SIZE(starts), s;
        memcpy(on, present, sizeof(uint64_t) * (size_t)W);
        memcpy(off, present, sizeof(uint64_t) * (size_t)W);
        int bad = 0, empty = 0;
        for (s = 0; s < S; s++) {
            Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(starts, s));
            if (k < 0 || k >= K) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "candidate out of range");
                bad = 1;
                break;
            }
            if (!known[k]) {
                if (reach_of(g, k, &reach[k]) < 0) { PyErr_NoMemory(); bad = 1; break; }
                known[k] = 1;
            }
            int any = 0;
            for (Py_ssize_t t = 0; t < W; t++) {
                on[t] &= reach[k].on[t];
                off[t] &= reach[k].off[t];
                any |= (on[t] | off[t]) != 0;
            }
            if (!any) { empty = 1; break; }
        }
        if (bad) { Py_DECREF(starts); goto done; }
        if (empty) { Py_DECREF(starts); continue; }
        for (s = 0; s < S; s++) {
            Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(starts, s));
            on[k / 64] &= ~((uint64_t)1 << (k % 64));
        }
        if (!any_bits(on, W) && !any_bits(off, W)) { Py_DECREF(starts); continue; }
        Py_ssize_t length = 0;
        for (s = 0; s < S; s++) {
            Py_ssize_t k = PyLong_AsSsize_t(PySequence_Fast_GET_ITEM(starts, s));
            Py_ssize_t a = nodes_to(reach[k].made_on, reach[k].n_on, on, W, 1);
            Py_ssize_t b = nodes_to(reach[k].made_off, reach[k].n_off, off, W, 2);
            length += a < b ? a : b;
        }
        Py_DECREF(starts);
        PyObject *on_int = words_to_int(on, W), *off_int = words_to_int(off, W), *item = NULL;
        if (on_int && off_int) item = Py_BuildValue("(nOOn)", o, on_int, off_int, length);
        Py_XDECREF(on_int); Py_XDECREF(off_int);
        if (!item || PyList_Append(found, item) < 0) { Py_XDECREF(item); goto done; }
        Py_DECREF(item);
    }
    result = Py_NewRef(found);
done:
    if (reach)
        for (Py_ssize_t k = 0; k < K; k++)
            if (known && known[k]) { free(reach[k].on); free(reach[k].made_on); free(reach[k].made_off); }
    free(reach); free(known); free(buf);
    Py_XDECREF(found);
    Py_DECREF(opts);
    return result;
}

static PyMethodDef methods[] = {
    {"shape", k_shape, METH_VARARGS, "Compile a structure (units, peers, locks) for search()."},
    {"search", k_search, METH_VARARGS, "Count the solutions of one puzzle up to a limit."},
    {"chain_shape", k_chain_shape, METH_VARARGS, "A puzzle's cells, peers and groups for chain_links()."},
    {"chain_links", k_chain_links, METH_VARARGS, "The link graph of a candidate grid, with linked and present."},
    {"shortest_from", k_shortest_from, METH_VARARGS, "chains.py's _shortest_from, compiled."},
    {"first_shortest", k_first_shortest, METH_VARARGS, "chains.py's _first_shortest, compiled."},
    {"forcing", k_forcing, METH_VARARGS, "The branches' common conclusions of forcing chains."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_kernel",
    "The compiled search kernel of the kernel back end (see cp_sudoku/backends/kernel.py) "
    "and the deduction engine's chain searches (cp_sudoku/deduction/chains.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__kernel(void) { return PyModule_Create(&module); }
