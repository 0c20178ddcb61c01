/*
 * The RL adapters' game-independent C: one interpreter of declared observation blocks,
 * legal-action masks and legal maps.
 *
 * No game is known here. Each game's observation is declared in Python, as blocks of
 * generic operations (boneyard/rl/layout.py: tile counts of a list, a relative-seat
 * one-hot, a one-hot through a mapping, scaled numbers, tests, loops over a list, the
 * window of the view's last events); boneyard/rl/layout.py runs them in Python, and this
 * module runs the same declaration, from the flat form layout.flatten() makes of it:
 * every key, offset, scale, mapping and tile index below comes from there.
 *
 * program(flat, size, players, seat_key, slots, error): compiles the flat form once into
 * an array of instructions (a capsule), with a scratch buffer of `size` doubles and a
 * cache of `slots` window rows (a power of two). The observing seat is view[seat_key].
 *
 * run(program, view, as_list, rows_of): the observation of the view's seat, a bytearray of
 * float32 values (as_list false; NumPy wraps it without a copy) or a list of Python floats
 * (the doubles unrounded, as the Python writer keeps them). Entries are summed as doubles
 * and each rounded once, as the Python writer's list packed as float32 is. A view that
 * cannot be read raises `error` (layout.ViewError, a ValueError) with the message the
 * Python writer gives.
 *
 * The window (at most one per program) writes a row for each of the view's last events:
 * its seats (relative to the observer) and its other entries (the verb's, the tile's).
 * For a kind its table tells (kind -> the verb's entry, the field of the acting seat, the
 * field of the tile or list of tiles whose first is taken: the encoding's Told rows, as
 * data) the row is read here from the event's fields; any other kind, and anything that
 * table cannot read (an event that is not a dict, a seat out of range, a tile not in the
 * index), is left to rows_of(event), the encoding's Python, which gives (seats, entries)
 * or raises. Rows are cached by the event's identity, in sets of four slots; a cached
 * event is held (so that its address cannot be reused while it is cached) and the oldest
 * of its set leaves when a new one comes: the memory stays bounded.
 *
 * cached(program): how many events the window cache holds.
 *
 * mask(size, legal): a bytearray of `size` zero bytes with 1 at each key of the dict
 * `legal` (index -> action).
 *
 * legal_mask(known, legal_actions, size): (index -> action, mask bytes) for a position
 * whose listed actions (a tuple) all have an index in `known` (action -> index); None
 * when one has none yet or two share one, so that the caller's Python path indexes the
 * new action or says what is wrong.
 *
 * run_legal(program, view, rows_of, known, legal_actions, size): what run() and
 * legal_mask() give, in one call (every step of an AEC loop asks for both): (observation
 * bytes, mask bytes, index -> action), or None where legal_mask gives None.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <limits.h>
#include <string.h>

/* The operation codes: layout.py's GROUP ... WINDOW, in the same order; then the two the
 * compiler adds: JUMP (to the end of a test's branch) and NEXT (a loop's next item). */
enum { GROUP, SET, TILES, TILE, SEAT, NUMBER, LOOKUP, SCALE, LENGTH, FLAG, IF, MATCH, EACH, SEATS, WINDOW, EQUALS,
       N_OPS, JUMP = N_OPS, NEXT, END, BAD };
#if defined(__GNUC__) || defined(__clang__)
#define THREADED  /* "labels as values": each operation jumps to the next itself */
#endif
#define MAX_DEPTH 32  /* loops within loops */
enum { LO = 1, HI = 2 };
#define FLAT_FIELDS 17

/* A constant of a Lookup or a Match and its slot or case. */
typedef struct {
    PyObject *key;
    long value;
} Case;
#define CASES 16
#define SETTLES_STR 1
#define SETTLES_NONE 2
#define SETTLES_NUMBER 4

typedef struct {
    int op, at;
    int npath, keys;       /* the path's length; its first entry in the program's key tables */
    PyObject *key0;        /* the path's first key */
    int jump;              /* IF: its otherwise branch; JUMP: where to; EACH, SEATS: past the loop; NEXT: the body */
    int leaf;              /* EACH, SEATS: the body is operations that write, no test or loop (run inline) */
    int nbr, br;           /* MATCH: case b starts at instruction brs[br + b] (case 0: the default) */
    int ncases, settled;   /* a Lookup's or a Match's constants (up to CASES), tried before the dict */
    Case *cases;
    long i1, i2, i3;
    double f1, f2, f3, f4;
    PyObject *obj, *key;
    int key_index;         /* an item's key as a list index (-1: a dict key, or none) */
    Py_ssize_t key_at;
    short *fast;           /* a tile index's keys spelled "d-d": fast[10 * d + d] their value, -1 none */
    PyObject *tiles;       /* a window's tile index (its obj: the table of kinds) */
    PyObject *path;        /* tuple of keys (borrowed from the flat form, which the program holds) */
    PyObject *where, *inner, *detail;
    /* A weighted Tiles: each item adds wsteps[item[wkey]], else wdefault (wnone: the step of None). */
    PyObject *wkey, *wsteps, *wwhere;
    double wdefault, wnone;
    int weighted, has_none;
} Ins;

/* A window row: the seats it marks (absolute: relative to the observer when written) and
 * the other entries it sets (the verb's, the tile's), from the row's start. */
#define ROW_MAX 8
typedef struct {
    unsigned char nact, ncom;
    unsigned char act[ROW_MAX];
    unsigned short com[ROW_MAX];
} Row;

/* A cached row: the event is held, so that its address cannot be reused while it is here. */
typedef struct {
    PyObject *event;
    Row row;
} Slot;
#define WAYS 4

typedef struct {
    Ins *ins;
    int nins, cap;
    int *brs;
    int nbrs, brcap;
    signed char *kint;     /* per path key: 1 when it is an int (a list index) */
    Py_ssize_t *kat;       /* ... and that index */
    int nkeys, kcap;
    PyObject *flat, *seat_key, *error;
    int size, players;
    double *d;             /* the scratch: zero between runs */
    unsigned char *mark;   /* 1 where the running observation wrote */
    int *touched;          /* where it wrote, in order */
    int busy;              /* a run is under way (a row callback may let another thread in) */
    int direct;            /* float32 entries may be written straight (see program()) */
    Slot *cache;           /* sets of `ways` slots, newest first */
    Py_ssize_t slots, ways, held;
    int windows;
    short **tables;        /* the tile tables, each kept once (the operations share them) */
    int ntables, tcap;
    /* The last window's events (held) and rows, in order: the next view's window, which
     * mostly slides along the same events, finds its rows here first. */
#define LAST_MAX 64
    PyObject *last[LAST_MAX];
    Row last_row[LAST_MAX];
    int nlast;
} Prog;

static PyObject *zero;  /* the float 0.0, shared by the entries of every list made */

/* ----- compiling the flat form ---------------------------------------------------------------- */

static int grow(void **arr, int *cap, int need, size_t item)
{
    if (need <= *cap)
        return 0;
    int n = *cap ? *cap : 64;
    while (n < need)
        n *= 2;
    void *p = PyMem_Realloc(*arr, (size_t)n * item);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *arr = p;
    *cap = n;
    return 0;
}

/* `v` as an int that is not a bool, in `*out`: 1; 0 when it is none (or too large for a long). */
static inline int small_int(PyObject *v, long *out)
{
#if PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(v) && Py_SIZE(v) >= -1 && Py_SIZE(v) <= 1) {  /* one digit at most */
        *out = Py_SIZE(v) * (long)((PyLongObject *)v)->ob_digit[0];
        return 1;
    }
#endif
    if (!PyLong_Check(v) || PyBool_Check(v))
        return 0;
    int overflow;
    *out = PyLong_AsLongAndOverflow(v, &overflow);
    if (overflow || (*out == -1 && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* A tile index's "d-d" keys as a table of 100 (the index stays the dict's: a string of that
 * form that the table lacks is not a key). NULL with an error. */
static short *fast_tiles(PyObject *index)
{
    short *fast = PyMem_Malloc(100 * sizeof(short));
    if (fast == NULL)
        return PyErr_NoMemory(), NULL;
    for (int i = 0; i < 100; i++)
        fast[i] = -1;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(index, &pos, &key, &value)) {
        long k;
        if (!small_int(value, &k) || k < 0 || k > SHRT_MAX) {
            PyMem_Free(fast);
            PyErr_Format(PyExc_ValueError, "program: a tile index's values are entries, got %R", value);
            return NULL;
        }
        if (PyUnicode_Check(key) && PyUnicode_IS_ASCII(key) && PyUnicode_GET_LENGTH(key) == 3) {
            const Py_UCS1 *c = PyUnicode_1BYTE_DATA(key);
            unsigned a = (unsigned)(c[0] - '0'), b = (unsigned)(c[2] - '0');
            if (c[1] == '-' && a < 10 && b < 10)
                fast[10 * a + b] = (short)k;
        }
    }
    return fast;
}

/* A Lookup's or Match's constants, when few, tried before the dict: by identity, then strings
 * by their characters. When every constant is None, a str or a number, a value of one of those
 * kinds that none of them matches is in the dict only if a constant of its kind equals it: a
 * str none of the strings, None no None, a number (int or float) when no constant is one. */
static int cases_of(Ins *in)
{
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    int plain = 1, numbers = 0;
    in->ncases = 0;
    in->settled = 0;
    in->cases = PyMem_Calloc((size_t)(PyDict_GET_SIZE(in->obj) < CASES ? PyDict_GET_SIZE(in->obj) + 1 : CASES),
                             sizeof(Case));
    if (in->cases == NULL)
        return PyErr_NoMemory(), -1;
    while (PyDict_Next(in->obj, &pos, &key, &value)) {
        long k;
        if (!small_int(value, &k) || k < 0)
            return PyErr_Format(PyExc_ValueError, "program: a slot or case must be an entry, got %R", value), -1;
        if (in->ncases < CASES) {
            in->cases[in->ncases].key = key;
            in->cases[in->ncases].value = k;
        }
        in->ncases++;
        if (PyLong_CheckExact(key) || PyFloat_CheckExact(key) || PyBool_Check(key))
            numbers = 1;
        else if (key != Py_None && !PyUnicode_CheckExact(key))
            plain = 0;
    }
    if (in->ncases > CASES)
        in->ncases = 0;  /* too many to try in turn: the dict alone */
    else if (plain)
        in->settled = SETTLES_STR | SETTLES_NONE | (numbers ? 0 : SETTLES_NUMBER);
    return 0;
}

static int append(Prog *p, const Ins *in)
{
    if (grow((void **)&p->ins, &p->cap, p->nins + 1, sizeof(Ins)) < 0)
        return -1;
    p->ins[p->nins] = *in;
    return p->nins++;
}

static int append_jump(Prog *p, int op, int jump)
{
    Ins in;
    memset(&in, 0, sizeof in);
    in.op = op;
    in.jump = jump;
    return append(p, &in);
}

static int emit(Prog *p, PyObject *t, int shift, int depth);

/* Emit operations whose entries lie `shift` further (a block's, run from the block's start). */
static int emit_all(Prog *p, PyObject *ops, int shift, int depth)
{
    if (!PyTuple_Check(ops)) {
        PyErr_SetString(PyExc_TypeError, "program: a branch is a tuple of operations");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(ops); i++)
        if (emit(p, PyTuple_GET_ITEM(ops, i), shift, depth) < 0)
            return -1;
    return 0;
}

/* Check a window's tables (kinds: kind -> (entry, actor key, tile key) or None; tiles: the
 * index of its tiles), and split its obj into them. */
static int window_tables(Prog *p, Ins *in)
{
    if (in->i1 < 1 || in->i1 > LAST_MAX || in->i2 < 1 || in->i2 > USHRT_MAX || p->windows++ > 0)
        return PyErr_Format(PyExc_ValueError, "program: one window, of 1 to %d rows of at most %d entries",
                            LAST_MAX, USHRT_MAX), -1;
    if (!PyTuple_Check(in->obj) || PyTuple_GET_SIZE(in->obj) != 2 || !PyDict_Check(PyTuple_GET_ITEM(in->obj, 0)) ||
        !PyDict_Check(PyTuple_GET_ITEM(in->obj, 1)) || !PyUnicode_Check(in->key))
        return PyErr_Format(PyExc_TypeError, "program: a window's obj is (kinds, tiles), two dicts"), -1;
    in->tiles = PyTuple_GET_ITEM(in->obj, 1);
    in->obj = PyTuple_GET_ITEM(in->obj, 0);
    Py_ssize_t pos = 0;
    PyObject *kind, *spec;
    while (PyDict_Next(in->obj, &pos, &kind, &spec)) {
        long entry;
        PyObject *among = spec != Py_None && PyTuple_Check(spec) && PyTuple_GET_SIZE(spec) == 4
                              ? PyTuple_GET_ITEM(spec, 3) : NULL;
        if (spec != Py_None &&
            (among == NULL || !small_int(PyTuple_GET_ITEM(spec, 0), &entry) || entry < -1 || entry >= in->i2 ||
             (among != Py_None && (!PyTuple_Check(among) || PyTuple_GET_SIZE(among) != 4))))
            return PyErr_Format(PyExc_ValueError, "program: a kind is told by (entry, actor key, tile key, among), "
                                                  "got %R", spec), -1;
    }
    pos = 0;
    while (PyDict_Next(in->tiles, &pos, &kind, &spec)) {
        long k;
        if (!small_int(spec, &k) || k < 0 || in->i3 + k >= in->i2)
            return PyErr_Format(PyExc_ValueError, "program: a tile's entry outside the row: %R", spec), -1;
    }
    return 0;
}

/* One operation (a flat tuple), with its branches: a group as its operations; a test as the
 * test, its branches and the jumps past them; a loop as its head, its body and NEXT. */
static int emit(Prog *p, PyObject *t, int shift, int depth)
{
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != FLAT_FIELDS)
        return PyErr_Format(PyExc_TypeError, "program: an operation is a tuple of %d fields", FLAT_FIELDS), -1;
    Ins in;
    memset(&in, 0, sizeof in);
    PyObject *branches, *extra;
    if (!PyArg_ParseTuple(t, "iiO!UUlllddddOOUOO!", &in.op, &in.at, &PyTuple_Type, &in.path, &in.where, &in.inner,
                          &in.i1, &in.i2, &in.i3, &in.f1, &in.f2, &in.f3, &in.f4, &in.obj, &in.key, &in.detail,
                          &extra, &PyTuple_Type, &branches))
        return -1;
    if (in.op == TILES && extra != Py_None) {
        /* extra: (key, steps: dict of floats, default, where) */
        if (!PyTuple_Check(extra) || PyTuple_GET_SIZE(extra) != 4 || !PyDict_Check(PyTuple_GET_ITEM(extra, 1)) ||
            !PyFloat_Check(PyTuple_GET_ITEM(extra, 2)) || !PyUnicode_Check(PyTuple_GET_ITEM(extra, 3)))
            return PyErr_Format(PyExc_TypeError, "program: a weight is (key, steps, default, where)"), -1;
        in.weighted = 1;
        in.wkey = PyTuple_GET_ITEM(extra, 0);
        in.wsteps = PyTuple_GET_ITEM(extra, 1);
        in.wdefault = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(extra, 2));
        in.wwhere = PyTuple_GET_ITEM(extra, 3);
        Py_ssize_t pos = 0;
        PyObject *k, *step;
        while (PyDict_Next(in.wsteps, &pos, &k, &step)) {
            if (!PyFloat_Check(step))
                return PyErr_Format(PyExc_TypeError, "program: a weight's steps are floats, got %R", step), -1;
            if (k == Py_None) {
                in.has_none = 1;
                in.wnone = PyFloat_AS_DOUBLE(step);
            }
        }
    }
    if (in.op < 0 || in.op >= N_OPS)
        return PyErr_Format(PyExc_ValueError, "program: unknown operation %d", in.op), -1;
    int nbr = (int)PyTuple_GET_SIZE(branches);
    int want = in.op == IF ? 2 : (in.op == GROUP || in.op == EACH || in.op == SEATS) ? 1 : in.op == MATCH ? -1 : 0;
    if (want >= 0 ? nbr != want : (!PyDict_Check(in.obj) || nbr < 1 || PyDict_GET_SIZE(in.obj) != nbr - 1))
        return PyErr_Format(PyExc_ValueError, "program: operation %d with %d branches", in.op, nbr), -1;
    in.at += shift;
    if (in.op == GROUP)
        return emit_all(p, PyTuple_GET_ITEM(branches, 0), in.at, depth);
    if ((in.op == TILES || in.op == TILE || in.op == LOOKUP) && !PyDict_Check(in.obj))
        return PyErr_Format(PyExc_TypeError, "program: operation %d looks values up in a dict", in.op), -1;
    if ((in.op == SCALE || in.op == LENGTH) && in.f2 == 0.0)
        return PyErr_Format(PyExc_ValueError, "program: a scale of zero"), -1;
    if ((in.op == EACH || in.op == SEATS) && (in.i1 < 0 || ++depth > MAX_DEPTH))
        return PyErr_Format(PyExc_ValueError, "program: a loop needs a stride of 0 or more, within %d loops",
                            MAX_DEPTH), -1;
    if (in.op == WINDOW && window_tables(p, &in) < 0)
        return -1;
    if ((in.op == LOOKUP || in.op == MATCH) && cases_of(&in) < 0) {
        PyMem_Free(in.cases);
        return -1;
    }
    in.npath = (int)PyTuple_GET_SIZE(in.path);
    in.keys = p->nkeys;
    int kcap = p->kcap;
    if (grow((void **)&p->kint, &p->kcap, p->nkeys + in.npath, sizeof(signed char)) < 0)
        return -1;
    if (p->kcap != kcap) {  /* kat grows alongside kint */
        Py_ssize_t *kat = PyMem_Realloc(p->kat, (size_t)p->kcap * sizeof(Py_ssize_t));
        if (kat == NULL)
            return PyErr_NoMemory(), -1;
        p->kat = kat;
    }
    for (int k = 0; k < in.npath; k++) {
        PyObject *key = PyTuple_GET_ITEM(in.path, k);
        int is_int = PyLong_CheckExact(key);
        p->kint[p->nkeys] = (signed char)is_int;
        p->kat[p->nkeys] = is_int ? PyLong_AsSsize_t(key) : 0;
        if (is_int && p->kat[p->nkeys] == -1 && PyErr_Occurred())
            return -1;
        p->nkeys++;
    }
    in.key_index = -1;
    if (in.key != Py_None && PyLong_CheckExact(in.key)) {
        in.key_index = 1;
        in.key_at = PyLong_AsSsize_t(in.key);
        if (in.key_at == -1 && PyErr_Occurred())
            return -1;
    }
    in.key0 = in.npath > 0 ? PyTuple_GET_ITEM(in.path, 0) : NULL;
    if (in.op == TILES || in.op == TILE || in.op == WINDOW) {
        in.fast = fast_tiles(in.op == WINDOW ? in.tiles : in.obj);
        if (in.fast == NULL) {
            PyMem_Free(in.cases);
            return -1;
        }
        int shared = 0;  /* one table per index: less memory to bring in at each observation */
        for (int i = 0; i < p->ntables && !shared; i++)
            if (memcmp(p->tables[i], in.fast, 100 * sizeof(short)) == 0) {
                PyMem_Free(in.fast);
                in.fast = p->tables[i];
                shared = 1;
            }
        if (!shared) {
            if (grow((void **)&p->tables, &p->tcap, p->ntables + 1, sizeof(short *)) < 0) {
                PyMem_Free(in.fast);
                PyMem_Free(in.cases);
                return -1;
            }
            p->tables[p->ntables++] = in.fast;
        }
    }
    if (in.op == MATCH) {
        in.nbr = nbr;
        in.br = p->nbrs;
        if (grow((void **)&p->brs, &p->brcap, p->nbrs + nbr, sizeof(int)) < 0) {
            PyMem_Free(in.cases);
            return -1;
        }
        p->nbrs += nbr;
    }
    int self = append(p, &in);  /* (its tile table, if any, is the program's) */
    if (self < 0) {
        PyMem_Free(in.cases);
        return -1;
    }
    if (in.op == IF) {
        PyObject *otherwise = PyTuple_GET_ITEM(branches, 1);
        if (emit_all(p, PyTuple_GET_ITEM(branches, 0), shift, depth) < 0)
            return -1;
        if (PyTuple_GET_SIZE(otherwise) > 0) {
            int past = append_jump(p, JUMP, 0);
            if (past < 0)
                return -1;
            p->ins[self].jump = p->nins;
            if (emit_all(p, otherwise, shift, depth) < 0)
                return -1;
            p->ins[past].jump = p->nins;
        } else {
            p->ins[self].jump = p->nins;
        }
    } else if (in.op == MATCH) {
        int *past = PyMem_Calloc((size_t)nbr, sizeof(int));
        if (past == NULL)
            return PyErr_NoMemory(), -1;
        for (int b = 0; b < nbr; b++) {
            p->brs[in.br + b] = p->nins;
            if (emit_all(p, PyTuple_GET_ITEM(branches, b), shift, depth) < 0 ||
                (b + 1 < nbr && (past[b] = append_jump(p, JUMP, 0)) < 0)) {  /* the last falls through */
                PyMem_Free(past);
                return -1;
            }
        }
        for (int b = 0; b + 1 < nbr; b++)
            p->ins[past[b]].jump = p->nins;
        PyMem_Free(past);
    } else if (in.op == EACH || in.op == SEATS) {
        /* The body reads each item, from the item's own base. */
        if (emit_all(p, PyTuple_GET_ITEM(branches, 0), 0, depth) < 0 || append_jump(p, NEXT, self + 1) < 0)
            return -1;
        p->ins[self].jump = p->nins;
        int leaf = 1;
        for (int i = self + 1; i < p->nins - 1; i++) {
            int op = p->ins[i].op;
            leaf &= op != IF && op != MATCH && op != EACH && op != SEATS && op != WINDOW && op != JUMP && op != NEXT;
        }
        p->ins[self].leaf = leaf;
    }
    return 0;
}

static void prog_clear_cache(Prog *p)
{
    for (Py_ssize_t i = 0; p->cache != NULL && i < p->slots; i++)
        Py_CLEAR(p->cache[i].event);
    for (int i = 0; i < p->nlast; i++)
        Py_CLEAR(p->last[i]);
    p->nlast = 0;
    p->held = 0;
}

static void prog_free(PyObject *capsule)
{
    Prog *p = (Prog *)PyCapsule_GetPointer(capsule, "boneyard.rl._observe.program");
    if (p == NULL) {
        PyErr_Clear();
        return;
    }
    prog_clear_cache(p);
    for (int i = 0; i < p->nins; i++) {
        PyMem_Free(p->ins[i].cases);
    }
    for (int i = 0; i < p->ntables; i++)
        PyMem_Free(p->tables[i]);
    PyMem_Free(p->tables);
    PyMem_Free(p->cache);
    PyMem_Free(p->ins);
    PyMem_Free(p->brs);
    PyMem_Free(p->kint);
    PyMem_Free(p->kat);
    PyMem_Free(p->d);
    PyMem_Free(p->mark);
    PyMem_Free(p->touched);
    Py_XDECREF(p->flat);
    Py_XDECREF(p->seat_key);
    Py_XDECREF(p->error);
    PyMem_Free(p);
}

static PyObject *program(PyObject *self, PyObject *args)
{
    PyObject *flat, *seat_key, *error;
    int size, players, direct;
    Py_ssize_t slots;
    if (!PyArg_ParseTuple(args, "O!iiOnOp", &PyTuple_Type, &flat, &size, &players, &seat_key, &slots, &error,
                          &direct))
        return NULL;
    if (size < 1 || players < 1 || players > 255)
        return PyErr_Format(PyExc_ValueError, "program: size must be positive, players from 1 to 255");
    if (slots < 1 || (slots & (slots - 1)) != 0)
        return PyErr_Format(PyExc_ValueError, "program: slots must be a power of two, got %zd", slots);
    if (!PyType_Check(error) || !PyType_IsSubtype((PyTypeObject *)error, (PyTypeObject *)PyExc_ValueError))
        return PyErr_Format(PyExc_TypeError, "program: error must be a ValueError class");
    Prog *p = PyMem_Calloc(1, sizeof(Prog));
    if (p == NULL)
        return PyErr_NoMemory();
    p->size = size;
    p->players = players;
    p->slots = slots;
    p->ways = slots < WAYS ? slots : WAYS;
    p->direct = direct;
    p->flat = Py_NewRef(flat);
    p->seat_key = Py_NewRef(seat_key);
    p->error = Py_NewRef(error);
    PyObject *capsule = PyCapsule_New(p, "boneyard.rl._observe.program", prog_free);
    if (capsule == NULL) {
        Py_DECREF(p->flat);
        Py_DECREF(p->seat_key);
        Py_DECREF(p->error);
        PyMem_Free(p);
        return NULL;
    }
    p->d = PyMem_Calloc((size_t)size, sizeof(double));
    p->mark = PyMem_Calloc((size_t)size, 1);
    p->touched = PyMem_Calloc((size_t)size, sizeof(int));
    p->cache = PyMem_Calloc((size_t)slots, sizeof(Slot));
    if (p->d == NULL || p->mark == NULL || p->touched == NULL || p->cache == NULL) {
        Py_DECREF(capsule);
        return PyErr_NoMemory();
    }
    if (emit_all(p, flat, 0, 0) < 0 || append_jump(p, END, 0) < 0) {
        Py_DECREF(capsule);
        return NULL;
    }
    return capsule;
}

/* ----- running it ----------------------------------------------------------------------------- */

#define HOT static inline __attribute__((always_inline))
#define COLD static __attribute__((noinline, cold))

typedef struct {
    Prog *p;
    double *d;
    unsigned char *mark;
    int *touched;
    int nt;
    long me;
    PyObject *rows_of;
    float *f;              /* writing float32 entries straight (a program whose sums are exact so) */
    long adds;
} Run;

/* Past this many additions, sums of steps of 1/256 may leave float32's exact range. */
#define EXACT_ADDS 65536

COLD int outside(Run *r, int i)
{
    PyErr_Format(PyExc_SystemError, "observation: a write at entry %d, outside 0 to %d", i, r->p->size - 1);
    return -1;
}

/* Entry i is x (set) or grows by x (add): kept as a double, and noted for the output. */
HOT int put(Run *r, int i, double x)
{
    if ((unsigned)i >= (unsigned)r->p->size)
        return outside(r, i);
    if (r->f != NULL) {
        r->f[i] = (float)x;
        return 0;
    }
    if (!r->mark[i]) {
        r->mark[i] = 1;
        r->touched[r->nt++] = i;
    }
    r->d[i] = x;
    return 0;
}

HOT int add(Run *r, int i, double x)
{
    if ((unsigned)i >= (unsigned)r->p->size)
        return outside(r, i);
    if (r->f != NULL) {
        r->f[i] = (float)((double)r->f[i] + x);
        r->adds++;
        return 0;
    }
    if (!r->mark[i]) {
        r->mark[i] = 1;
        r->touched[r->nt++] = i;
    }
    r->d[i] += x;
    return 0;
}

/* Raise the program's error: "<where> <what>". */
COLD void fail(Run *r, PyObject *where, const char *what)
{
    PyErr_Format(r->p->error, "%U %s", where, what);
}

/* "<where> must be <detail>, got <repr>" */
COLD void refused(Run *r, PyObject *where, PyObject *detail, PyObject *v)
{
    PyErr_Format(r->p->error, "%U must be %U, got %R", where, detail, v);
}

/* "<where> <before> <type name of v><after>" */
COLD void refused_type(Run *r, PyObject *where, const char *before, PyObject *v, PyObject *key)
{
    PyObject *name = PyType_GetName(Py_TYPE(v));
    if (name == NULL)
        return;
    if (key != NULL)
        PyErr_Format(r->p->error, "%U %s%U has no entry %R", where, before, name, key);
    else
        PyErr_Format(r->p->error, "%U %s%U", where, before, name);
    Py_DECREF(name);
}

/* v[key] (a new reference) as the Python writer reads it, or NULL with its error: a dict's key,
 * a list's index (negative from the end), or any other subscript. */
COLD PyObject *entry_slow(Run *r, PyObject *where, PyObject *v, PyObject *key)
{
    PyObject *x = PyObject_GetItem(v, key);
    if (x == NULL) {
        if (PyErr_ExceptionMatches(PyExc_KeyError) || PyErr_ExceptionMatches(PyExc_IndexError)) {
            PyErr_Clear();
            fail(r, where, "is missing");
        } else if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            refused_type(r, where, "is missing: ", v, key);
        }
    }
    return x;
}

HOT PyObject *entry(Run *r, PyObject *where, PyObject *v, PyObject *key, int is_index, Py_ssize_t index)
{
    if (PyDict_CheckExact(v)) {
        PyObject *x = PyDict_GetItemWithError(v, key);
        if (x == NULL) {
            if (!PyErr_Occurred())
                fail(r, where, "is missing");
            return NULL;
        }
        return Py_NewRef(x);
    }
    if (is_index && (PyList_CheckExact(v) || PyTuple_CheckExact(v))) {
        Py_ssize_t n = Py_SIZE(v);
        if (index < 0)
            index += n;
        if (index < 0 || index >= n) {
            fail(r, where, "is missing");
            return NULL;
        }
        return Py_NewRef(PyList_CheckExact(v) ? PyList_GET_ITEM(v, index) : PyTuple_GET_ITEM(v, index));
    }
    return entry_slow(r, where, v, key);
}

/* The value at the path of `in` from `ctx` (a new reference), or NULL with the error raised. */
static PyObject *get_path(Run *r, const Ins *in, PyObject *ctx)
{
    const Prog *p = r->p;
    PyObject *v = entry(r, in->where, ctx, PyTuple_GET_ITEM(in->path, 0), p->kint[in->keys], p->kat[in->keys]);
    for (int k = 1; k < in->npath && v != NULL; k++) {
        PyObject *x = entry(r, in->where, v, PyTuple_GET_ITEM(in->path, k), p->kint[in->keys + k], p->kat[in->keys + k]);
        Py_SETREF(v, x);
    }
    return v;
}

HOT PyObject *get(Run *r, const Ins *in, PyObject *ctx)
{
    if (in->npath == 1 && PyDict_CheckExact(ctx)) {
        PyObject *x = PyDict_GetItemWithError(ctx, in->key0);
        if (x == NULL) {
            if (!PyErr_Occurred())
                fail(r, in->where, "is missing");
            return NULL;
        }
        return Py_NewRef(x);
    }
    if (in->npath == 1 && PyList_CheckExact(ctx) && r->p->kint[in->keys]) {
        Py_ssize_t i = r->p->kat[in->keys], n = PyList_GET_SIZE(ctx);
        if (i < 0)
            i += n;
        if (i >= 0 && i < n)
            return Py_NewRef(PyList_GET_ITEM(ctx, i));
    }
    if (in->npath == 0)
        return Py_NewRef(ctx);
    return get_path(r, in, ctx);
}

/* A list's items without a copy, or NULL with "<where> must be a list". */
HOT PyObject **items(Run *r, PyObject *where, PyObject *v, Py_ssize_t *n)
{
    static PyObject *none[1];
    if (PyList_Check(v)) {
        *n = PyList_GET_SIZE(v);
        return *n ? ((PyListObject *)v)->ob_item : none;
    }
    if (PyTuple_Check(v)) {
        *n = PyTuple_GET_SIZE(v);
        return ((PyTupleObject *)v)->ob_item;
    }
    refused_type(r, where, "must be a list, got ", v, NULL);
    return NULL;
}

COLD PyObject **changed(PyObject *where)
{
    PyErr_Format(PyExc_RuntimeError, "%U changed while it was read", where);
    return NULL;
}

/* A list's items again after Python code may have run (a hash, a row callback): NULL with an
 * error if its length changed meanwhile. */
HOT PyObject **again(PyObject *v, Py_ssize_t n, PyObject *where)
{
    if (Py_SIZE(v) != n)
        return changed(where);
    return PyList_Check(v) ? ((PyListObject *)v)->ob_item : ((PyTupleObject *)v)->ob_item;
}

/* The entry of a tile spelled "d-d" in a table of such keys: >= 0, -1 when the index lacks it;
 * -2 for any other spelling (left to the index itself). */
HOT long tile_fast(const short *fast, PyObject *t)
{
    if (PyUnicode_CheckExact(t) && PyUnicode_IS_COMPACT_ASCII(t) && PyUnicode_GET_LENGTH(t) == 3) {
        const Py_UCS1 *c = PyUnicode_1BYTE_DATA(t);
        unsigned a = (unsigned)(c[0] - '0'), b = (unsigned)(c[2] - '0');
        if (c[1] == '-' && a < 10 && b < 10)
            return fast[10 * a + b];
    }
    return -2;
}

/* The position of a tile in the index of `in`, or -1 with the error raised ("<where> must be
 * <detail>, got <tile>"). */
COLD long tile_slow(Run *r, const Ins *in, PyObject *t, PyObject *where)
{
    PyObject *k = PyDict_GetItemWithError(in->obj, t);
    if (k == NULL) {
        if (PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError))
                return -1;
            PyErr_Clear();
        }
        refused(r, where, in->detail, t);
        return -1;
    }
    return PyLong_AsLong(k);
}

HOT long tile_at(Run *r, const Ins *in, PyObject *t, PyObject *where)
{
    long k = tile_fast(in->fast, t);
    if (k >= 0)
        return k;
    if (k == -1) {
        refused(r, where, in->detail, t);
        return -1;
    }
    return tile_slow(r, in, t, where);
}

/* A value looked up among an operation's constants: identical ones, then equal strings, then
 * (unless that settles it) the dict; the found value, or -1 (unhashable values count as not
 * found); -1 in *err when the look-up itself failed otherwise. */
COLD long among_dict(const Ins *in, PyObject *v, int *err)
{
    PyObject *found = PyDict_GetItemWithError(in->obj, v);
    if (found == NULL) {
        if (PyErr_Occurred()) {
            if (PyErr_ExceptionMatches(PyExc_TypeError))
                PyErr_Clear();
            else
                *err = -1;
        }
        return -1;
    }
    return PyLong_AsLong(found);
}

HOT long among(const Ins *in, PyObject *v, int *err)
{
    *err = 0;
    const Case *c = in->cases;
    for (int i = 0; i < in->ncases; i++)
        if (c[i].key == v)
            return c[i].value;
    if (PyUnicode_CheckExact(v)) {
        Py_ssize_t len = PyUnicode_GET_LENGTH(v);
        int kind = PyUnicode_KIND(v);
        for (int i = 0; i < in->ncases; i++) {
            PyObject *k = c[i].key;
            if (PyUnicode_CheckExact(k) && PyUnicode_GET_LENGTH(k) == len && PyUnicode_KIND(k) == kind &&
                memcmp(PyUnicode_DATA(k), PyUnicode_DATA(v), (size_t)(len * kind)) == 0)
                return c[i].value;
        }
        if (in->settled & SETTLES_STR)
            return -1;
    } else if (v == Py_None) {
        if (in->settled & SETTLES_NONE)
            return -1;
    } else if (PyLong_CheckExact(v) || PyFloat_CheckExact(v)) {
        if (in->settled & SETTLES_NUMBER)
            return -1;
    }
    return among_dict(in, v, err);
}

static double bounded(double x, long flags, double lo, double hi)
{
    if ((flags & LO) && x < lo)
        return lo;
    if ((flags & HI) && x > hi)
        return hi;
    return x;
}

/* ----- the window's rows ----- */

/* The row of an event of a kind the window's table tells: 1 made, 0 left to rows_of (a kind
 * it leaves to Python, or anything the Python writer refuses or reads otherwise), -1 error. */
static int told_row(Run *r, const Ins *in, PyObject *event, Row *row)
{
    if (!PyDict_CheckExact(event))
        return 0;
    PyObject *kind = PyDict_GetItemWithError(event, in->key);
    if (kind == NULL)
        return PyErr_Occurred() ? -1 : 0;
    PyObject *spec = PyDict_GetItemWithError(in->obj, kind);
    row->nact = row->ncom = 0;
    if (spec == NULL) {
        if (!PyErr_Occurred())
            return 1;  /* a kind not told: an all-zero row */
        if (!PyErr_ExceptionMatches(PyExc_TypeError))
            return -1;
        PyErr_Clear();
        return 0;
    }
    if (spec == Py_None)
        return 0;
    PyObject *actor = PyTuple_GET_ITEM(spec, 1), *tile = PyTuple_GET_ITEM(spec, 2), *x;
    if (actor != Py_None) {
        if ((x = PyDict_GetItemWithError(event, actor)) == NULL && PyErr_Occurred())
            return -1;
        if (x != NULL && x != Py_None) {
            long seat;
            if (!small_int(x, &seat) || seat < 0 || seat >= r->p->players)
                return 0;
            row->act[row->nact++] = (unsigned char)seat;
        }
    }
    PyObject *among = PyTuple_GET_ITEM(spec, 3);
    if (among != Py_None) {
        /* The seat of each record of event[field] whose skip field is not the value. Anything
         * but exact dicts, lists, ints and strings is left to Python (an __eq__ may run). */
        PyObject *list = PyDict_GetItemWithError(event, PyTuple_GET_ITEM(among, 0));
        PyObject *key = PyTuple_GET_ITEM(among, 1), *skip = PyTuple_GET_ITEM(among, 2);
        PyObject *value = PyTuple_GET_ITEM(among, 3);
        if (list == NULL)
            return PyErr_Occurred() ? -1 : 0;
        if (!PyList_CheckExact(list) || !(value == Py_None || PyUnicode_CheckExact(value)))
            return 0;
        for (Py_ssize_t j = 0; j < PyList_GET_SIZE(list); j++) {
            PyObject *rec = PyList_GET_ITEM(list, j);
            if (!PyDict_CheckExact(rec))
                return 0;
            PyObject *v = PyDict_GetItemWithError(rec, skip);
            if (v == NULL && PyErr_Occurred())
                return -1;
            int skipped;
            if (v == NULL || v == Py_None || PyLong_CheckExact(v))
                skipped = (v == NULL ? Py_None : v) == value;  /* (a missing field reads None) */
            else if (PyUnicode_CheckExact(v))
                skipped = PyUnicode_CheckExact(value) && PyUnicode_Compare(v, value) == 0;
            else
                return 0;
            if (skipped)
                continue;
            PyObject *x = PyDict_GetItemWithError(rec, key);
            long seat;
            if (x == NULL)
                return PyErr_Occurred() ? -1 : 0;
            if (!small_int(x, &seat) || seat < 0 || seat >= r->p->players || row->nact >= ROW_MAX)
                return 0;
            row->act[row->nact++] = (unsigned char)seat;
        }
    }
    long entry = PyLong_AsLong(PyTuple_GET_ITEM(spec, 0));
    if (entry >= 0)
        row->com[row->ncom++] = (unsigned short)entry;
    if (tile != Py_None) {
        if ((x = PyDict_GetItemWithError(event, tile)) == NULL && PyErr_Occurred())
            return -1;
        if (x != NULL && PyList_Check(x))
            x = PyList_GET_SIZE(x) ? PyList_GET_ITEM(x, 0) : NULL;
        if (x != NULL && x != Py_None) {
            long k = tile_fast(in->fast, x);
            if (k < 0)
                return 0;  /* another spelling, or not a tile: the encoding's Python reads it or says why not */
            row->com[row->ncom++] = (unsigned short)(in->i3 + k);
        }
    }
    return 1;
}

/* The row rows_of(event) gives: (actors, entries), two tuples of ints; 0, or -1 with an error. */
static int python_row(Run *r, const Ins *in, PyObject *event, Row *row)
{
    PyObject *got = PyObject_CallOneArg(r->rows_of, event);
    if (got == NULL)
        return -1;
    int ok = PyTuple_CheckExact(got) && PyTuple_GET_SIZE(got) == 2;
    PyObject *actors = ok ? PyTuple_GET_ITEM(got, 0) : NULL, *entries = ok ? PyTuple_GET_ITEM(got, 1) : NULL;
    ok = ok && PyTuple_CheckExact(actors) && PyTuple_CheckExact(entries) && PyTuple_GET_SIZE(actors) <= ROW_MAX &&
         PyTuple_GET_SIZE(entries) <= ROW_MAX;
    row->nact = row->ncom = 0;
    for (Py_ssize_t j = 0; ok && j < PyTuple_GET_SIZE(actors); j++) {
        long seat = 0;
        ok = small_int(PyTuple_GET_ITEM(actors, j), &seat) && seat >= 0 && seat < r->p->players;
        row->act[row->nact++] = (unsigned char)seat;
    }
    for (Py_ssize_t j = 0; ok && j < PyTuple_GET_SIZE(entries); j++) {
        long e = 0;
        ok = small_int(PyTuple_GET_ITEM(entries, j), &e) && e >= 0 && e < in->i2;
        row->com[row->ncom++] = (unsigned short)e;
    }
    if (!ok)
        PyErr_Format(PyExc_TypeError, "observation: rows_of gives (seats, entries): at most %d seats from 0 to %d "
                     "and %d entries from 0 to %ld, got %R", ROW_MAX, r->p->players - 1, ROW_MAX, in->i2 - 1, got);
    Py_DECREF(got);
    return ok ? 0 : -1;
}

/* The row of one window event: read from its fields where the table tells its kind (cheap,
 * and nothing kept); else the row rows_of made for it, cached by the event's identity at
 * the front of its set (the set's oldest leaving), or made now. */
static int row_of(Run *r, const Ins *in, PyObject *event, Row *row)
{
    int made = told_row(r, in, event, row);
    if (made != 0)
        return made < 0 ? -1 : 0;
    Prog *p = r->p;
    uintptr_t h = ((uintptr_t)event >> 4) * (uintptr_t)0x9E3779B97F4A7C15ull;
    Py_ssize_t sets = p->slots / p->ways;
    Slot *set = &p->cache[(Py_ssize_t)((h >> 32) & (uintptr_t)(sets - 1)) * p->ways];
    for (Py_ssize_t w = 0; w < p->ways; w++)
        if (set[w].event == event) {
            *row = set[w].row;
            return 0;
        }
    Py_INCREF(event);  /* alive while rows_of runs, then held by its slot */
    if (python_row(r, in, event, row) < 0) {
        Py_DECREF(event);
        return -1;
    }
    PyObject *out = set[p->ways - 1].event;
    memmove(&set[1], &set[0], (size_t)(p->ways - 1) * sizeof(Slot));
    set[0].event = event;
    set[0].row = *row;
    if (out == NULL)
        p->held++;
    else
        Py_DECREF(out);
    return 0;
}

/* ----- the operations: each reads `v`, the value at its path, and writes from `at` ----- */

/* The tile of one item of a Tiles list (borrowed: the item itself, or its entry at the key);
 * NULL with the error raised. Dicts and lists are read in place, where no Python code runs;
 * anything else through its own subscript, into `*held` (a reference the caller drops). */
HOT PyObject *tile_of(Run *r, const Ins *in, PyObject *item, PyObject **held)
{
    PyObject *key = in->key;
    if (key == Py_None)
        return item;
    if (in->key_index >= 0 && PyList_CheckExact(item)) {
        Py_ssize_t i = in->key_at, n = PyList_GET_SIZE(item);
        if (i < 0)
            i += n;
        if (i >= 0 && i < n)
            return PyList_GET_ITEM(item, i);
    } else if (PyDict_CheckExact(item) && PyUnicode_CheckExact(key)) {
        PyObject *x = PyDict_GetItemWithError(item, key);
        if (x != NULL)
            return x;
        if (PyErr_Occurred())
            return NULL;
    }
    return *held = entry(r, in->inner, item, key, in->key_index >= 0, in->key_at);
}

/* A weighted item's step: 0, or -1 with the error raised ("<where> is missing").
   The step of ``item`` by its weight field; ``*pure`` is set when no Python code can have
   run (an exact dict holding None, an int or a str), so that the caller's list still holds. */
static int weight_of(Run *r, const Ins *in, PyObject *item, double *step, int *pure)
{
    PyObject *x;
    *pure = 0;
    if (PyDict_CheckExact(item)) {
        x = PyDict_GetItemWithError(item, in->wkey);
        if (x == NULL) {
            if (!PyErr_Occurred())
                fail(r, in->wwhere, "is missing");
            return -1;
        }
        Py_INCREF(x);
    } else if ((x = entry(r, in->wwhere, item, in->wkey, PyLong_CheckExact(in->wkey),
                          PyLong_CheckExact(in->wkey) ? PyLong_AsSsize_t(in->wkey) : 0)) == NULL) {
        return -1;
    }
    *pure = PyDict_CheckExact(item) && (x == Py_None || PyLong_CheckExact(x) || PyUnicode_CheckExact(x));
    if (x == Py_None && in->has_none) {
        *step = in->wnone;
    } else {
        PyObject *found = PyDict_GetItemWithError(in->wsteps, x);
        if (found == NULL && PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError)) {
                Py_DECREF(x);
                return -1;
            }
            PyErr_Clear();
        }
        *step = found == NULL ? in->wdefault : PyFloat_AS_DOUBLE(found);
    }
    Py_DECREF(x);
    return 0;
}

static __attribute__((noinline)) int op_tiles(Run *r, const Ins *in, PyObject *v, int at)
{
    Py_ssize_t n;
    PyObject **it = items(r, in->where, v, &n);
    if (it == NULL)
        return -1;
    int set = in->i1 == 1;
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *held = NULL, *item = Py_NewRef(it[j]);
        PyObject *t = tile_of(r, in, item, &held);
        long k = t == NULL ? -1 : tile_fast(in->fast, t);
        int slow = held != NULL;  /* Python code may have run: the list is looked at again */
        if (k < 0 && t != NULL) {  /* another spelling, or no tile: the index says */
            Py_INCREF(t);
            k = k == -1 ? (refused(r, in->inner, in->detail, t), -1) : tile_slow(r, in, t, in->inner);
            Py_DECREF(t);
            slow = 1;
        }
        Py_XDECREF(held);
        double step = in->f1;
        if (k >= 0 && in->weighted) {
            int pure;
            if (weight_of(r, in, item, &step, &pure) < 0)
                k = -1;
            slow |= !pure;
        }
        Py_DECREF(item);
        if (k < 0 || (set && !in->weighted ? put(r, at + (int)k, 1.0) : add(r, at + (int)k, step)) < 0)
            return -1;
        if (slow && j + 1 < n && (it = again(v, n, in->where)) == NULL)
            return -1;
    }
    return 0;
}

HOT int op_seat(Run *r, const Ins *in, PyObject *v, int at)
{
    long k;
    if (v == Py_None && in->i1 >= 0)
        return put(r, at + (int)in->i1, 1.0);
    if (small_int(v, &k) && k >= 0 && k < r->p->players)
        return put(r, at + (int)((k - r->me + r->p->players) % r->p->players), 1.0);
    PyErr_Format(r->p->error, "%U must be a seat from 0 to %d%s, got %R", in->where, r->p->players - 1,
                 in->i1 >= 0 ? " or None" : "", v);
    return -1;
}

HOT int op_number(Run *r, const Ins *in, PyObject *v, int at)
{
    long k;
    if (v == Py_None && in->i3 >= 0)
        return put(r, at + (int)in->i3, 1.0);
    if (small_int(v, &k) && k + in->i2 >= 0 && k + in->i2 < in->i1)
        return put(r, at + (int)(k + in->i2), 1.0);
    refused(r, in->where, in->detail, v);
    return -1;
}

HOT int op_scale(Run *r, const Ins *in, PyObject *v, int at)
{
    double x;
    long k;
#if PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(v) && Py_SIZE(v) >= -1 && Py_SIZE(v) <= 1 && small_int(v, &k)) {
        x = (double)k;
    } else
#else
    (void)k;
#endif
    if (PyFloat_CheckExact(v) || PyFloat_Check(v)) {
        x = PyFloat_AS_DOUBLE(v);
    } else if (PyLong_Check(v)) {
        x = PyLong_AsDouble(v);
        if (x == -1.0 && PyErr_Occurred()) {
            PyErr_Clear();
            PyErr_Format(r->p->error, "%U must be a number, got %R", in->where, v);
            return -1;
        }
    } else {
        PyErr_Format(r->p->error, "%U must be a number, got %R", in->where, v);
        return -1;
    }
    return put(r, at, bounded((x - in->f1) / in->f2, in->i1, in->f3, in->f4));
}

static __attribute__((noinline)) int op_window(Run *r, const Ins *in, PyObject *v, int at)
{
    Prog *p = r->p;
    Py_ssize_t n;
    PyObject **it = items(r, in->where, v, &n);
    if (it == NULL)
        return -1;
    long size = in->i1, width = in->i2;
    int players = p->players;
    Py_ssize_t first = n > size ? n - size : 0, count = n - first;
    int row = at + (int)(size - count) * (int)width;
    PyObject *events[LAST_MAX];
    Row rows[LAST_MAX];
    /* Where the last window's events line up with these: the first of these among them. */
    int d = -1;
    for (int i = 0; count > 0 && i < p->nlast; i++)
        if (p->last[i] == it[first]) {
            d = i;
            break;
        }
    for (Py_ssize_t j = 0; j < count; j++) {
        PyObject *event = it[first + j];
        Py_ssize_t i = d + j;
        if (d >= 0 && i < p->nlast && p->last[i] == event) {
            rows[j] = p->last_row[i];
        } else if (row_of(r, in, event, &rows[j]) < 0 ||
                   (j + 1 < count && (it = again(v, n, in->where)) == NULL)) {
            for (Py_ssize_t q = 0; q < j; q++)
                Py_DECREF(events[q]);
            return -1;
        } else {
            event = it[first + j];  /* (the list is as it was: again() said so) */
        }
        events[j] = Py_NewRef(event);
        const Row *e = &rows[j];
        int rc = 0;
        for (int a = 0; a < e->nact; a++)
            rc |= put(r, row + (int)((e->act[a] - r->me + players) % players), 1.0);
        for (int c = 0; c < e->ncom; c++)
            rc |= put(r, row + e->com[c], 1.0);
        if (rc < 0) {
            for (Py_ssize_t q = 0; q <= j; q++)
                Py_DECREF(events[q]);
            return -1;
        }
        row += (int)width;
    }
    /* These rows become the last window (the old one let go after: it may hold the same events). */
    PyObject *old[LAST_MAX];
    int nold = p->nlast;
    memcpy(old, p->last, sizeof(PyObject *) * (size_t)nold);
    memcpy(p->last, events, sizeof(PyObject *) * (size_t)count);
    memcpy(p->last_row, rows, sizeof(Row) * (size_t)count);
    p->nlast = (int)count;
    for (int q = 0; q < nold; q++)
        Py_DECREF(old[q]);
    return 0;
}

HOT int seat_row(Run *r, const Ins *loop, int at, Py_ssize_t j);

/* The value at the path of `in` (a new reference); NULL with *absent set and no error where a
 * key or an index is not there (an Equals that allows it), or NULL with the error raised. */
static PyObject *get_or_absent(Run *r, const Ins *in, PyObject *ctx, int *absent)
{
    *absent = 0;
    PyObject *v = Py_NewRef(ctx);
    for (int k = 0; k < in->npath; k++) {
        PyObject *key = PyTuple_GET_ITEM(in->path, k), *x;
        if (PyDict_CheckExact(v)) {
            x = PyDict_GetItemWithError(v, key);
            if (x == NULL) {
                *absent = !PyErr_Occurred();
                Py_DECREF(v);
                return NULL;
            }
            Py_INCREF(x);
        } else if (r->p->kint[in->keys + k] && (PyList_CheckExact(v) || PyTuple_CheckExact(v))) {
            Py_ssize_t n = Py_SIZE(v), i = r->p->kat[in->keys + k];
            if (i < 0)
                i += n;
            if (i < 0 || i >= n) {
                *absent = 1;
                Py_DECREF(v);
                return NULL;
            }
            x = Py_NewRef(PyList_CheckExact(v) ? PyList_GET_ITEM(v, i) : PyTuple_GET_ITEM(v, i));
        } else if ((x = PyObject_GetItem(v, key)) == NULL) {
            if (PyErr_ExceptionMatches(PyExc_KeyError) || PyErr_ExceptionMatches(PyExc_IndexError)) {
                PyErr_Clear();
                *absent = 1;
            } else if (PyErr_ExceptionMatches(PyExc_TypeError)) {
                PyErr_Clear();
                refused_type(r, in->where, "is missing: ", v, key);
            }
            Py_DECREF(v);
            return NULL;
        }
        Py_SETREF(v, x);
    }
    return v;
}

/* Equals: 1 at `at` when the value at its path equals its constant (or, negated, does not). */
static int op_equals(Run *r, const Ins *in, PyObject *ctx, int at)
{
    int absent = 0, eq;
    PyObject *v = in->i2 ? get_or_absent(r, in, ctx, &absent) : get(r, in, ctx);
    if (v == NULL)
        return in->i2 && absent ? 0 : -1;
    if (v == in->obj)
        eq = 1;
    else if (in->obj == Py_None && (PyLong_CheckExact(v) || PyUnicode_CheckExact(v) || PyDict_CheckExact(v) ||
                                    PyList_CheckExact(v)))
        eq = 0;  /* (None is only None) */
    else if ((eq = PyObject_RichCompareBool(v, in->obj, Py_EQ)) < 0) {
        Py_DECREF(v);
        return -1;
    }
    Py_DECREF(v);
    return eq != (int)in->i1 ? put(r, at, 1.0) : 0;
}

/* One operation that writes, given the value at its path (a loop's body of one operation). */
static int leaf(Run *r, const Ins *in, PyObject *v, int at)
{
    long k;
    int err;
    Py_ssize_t n;
    switch (in->op) {
    case SET:
        return put(r, at, in->f1);
    case TILES:
        return op_tiles(r, in, v, at);
    case TILE:
        k = tile_at(r, in, v, in->where);
        return k < 0 ? -1 : in->i1 ? add(r, at + (int)k, in->f1) : put(r, at + (int)k, in->f1);
    case SEAT:
        return op_seat(r, in, v, at);
    case NUMBER:
        return op_number(r, in, v, at);
    case LOOKUP:
        k = among(in, v, &err);
        if (err < 0)
            return -1;
        if (k >= 0)
            return put(r, at + (int)k, 1.0);
        if (in->i1)
            return 0;
        refused(r, in->where, in->detail, v);
        return -1;
    case SCALE:
        return op_scale(r, in, v, at);
    case LENGTH:
        return items(r, in->where, v, &n) == NULL ? -1 : put(r, at, bounded((double)n / in->f2, in->i1, in->f3, in->f4));
    case FLAG:
        k = PyObject_IsTrue(v);
        return k < 0 ? -1 : k ? put(r, at, 1.0) : 0;
    }
    PyErr_Format(PyExc_SystemError, "observation: operation %d in a loop of one", in->op);
    return -1;
}

/* A loop whose body only writes (no test, no loop): each item in turn, its operations run
 * here rather than through the program's loop and NEXT. */
static __attribute__((noinline)) int leaf_loop(Run *r, const Ins *in, PyObject *v, PyObject **it, Py_ssize_t n,
                                               Py_ssize_t first, Py_ssize_t stop, int row)
{
    const Ins *body = in + 1, *end = r->p->ins + in->jump - 1;  /* the body, up to its NEXT */
    for (Py_ssize_t j = first; j < stop; j++) {
        PyObject *item = Py_NewRef(it[j]);
        int b = in->op == EACH ? row + (int)(j - first) * (int)in->i1 : seat_row(r, in, row, j);
        int rc = 0;
        for (const Ins *op = body; op < end && rc == 0; op++) {
            if (op->op == SET) {
                rc = put(r, b + op->at, op->f1);
            } else if (op->op == EQUALS) {
                rc = op_equals(r, op, item, b + op->at);
            } else {
                PyObject *x = get(r, op, item);
                rc = x == NULL ? -1 : leaf(r, op, x, b + op->at);
                Py_XDECREF(x);
            }
        }
        Py_DECREF(item);
        if (rc < 0 || (j + 1 < stop && (it = again(v, n, in->where)) == NULL))
            return -1;
    }
    return 0;
}

/* ----- the program's loop ----- */

/* A loop under way: its list (held), its items' range, where the next item's entries start,
 * and the context and base to return to. */
typedef struct {
    const Ins *loop;
    PyObject *list, *ctx;
    Py_ssize_t n, j, stop;
    int row, base;
} Frame;

/* The entries of the item j of a Seats loop start at its relative seat's place. */
HOT int seat_row(Run *r, const Ins *loop, int at, Py_ssize_t j)
{
    long m = loop->i2 > 0 ? loop->i2 : r->p->players;
    return at + (int)(((j - r->me) % m + m) % m) * (int)loop->i1;
}

/* Run the program on the view: each instruction in turn; a test jumps to its branch, a loop
 * enters its first item and NEXT moves to the next (or out). 0, or -1 with the error raised.
 * A leaf reads its value (GET), writes, and lets it go (DONE). */
static int execute(Run *r, PyObject *view)
{
    const Prog *p = r->p;
    const Ins *ins = p->ins;
    Frame stack[MAX_DEPTH];
    int depth = 0, pc = 0, base = 0, err, rc;
    PyObject *ctx = view, *v;
    long k;
    Py_ssize_t n;
    PyObject **it;
#define GET()                          \
    if ((v = get(r, in, ctx)) == NULL) \
        goto error
#define DONE()         \
    Py_DECREF(v);      \
    if (rc < 0)        \
        goto error;    \
    pc++;              \
    NEXT_OP()
#ifdef THREADED
    /* Each operation's code ends by jumping to the next one's (its own indirect jump, which
     * the processor predicts better than one shared by all). */
    static void *const labels[] = {
        [SET] = &&do_SET, [TILES] = &&do_TILES, [TILE] = &&do_TILE, [SEAT] = &&do_SEAT, [NUMBER] = &&do_NUMBER,
        [LOOKUP] = &&do_LOOKUP, [SCALE] = &&do_SCALE, [LENGTH] = &&do_LENGTH, [FLAG] = &&do_FLAG, [IF] = &&do_IF,
        [MATCH] = &&do_MATCH, [EACH] = &&do_EACH, [SEATS] = &&do_SEATS, [WINDOW] = &&do_WINDOW, [JUMP] = &&do_JUMP,
        [NEXT] = &&do_NEXT, [END] = &&do_END, [GROUP] = &&do_BAD, [EQUALS] = &&do_EQUALS,
    };
    const Ins *in;
    int at;
#define OP(name) do_##name
#define NEXT_OP()                   \
    in = &ins[pc];                  \
    at = base + in->at;             \
    goto *labels[in->op]
    NEXT_OP();
    {
        {
#else
#define OP(name) case name
#define NEXT_OP() continue
    for (;;) {
        const Ins *in = &ins[pc];
        int at = base + in->at;
        switch (in->op) {
#endif
        OP(SET):
            if (put(r, at, in->f1) < 0)
                goto error;
            pc++;
            NEXT_OP();
        OP(JUMP):
            pc = in->jump;
            NEXT_OP();
        OP(EQUALS):
            if (op_equals(r, in, ctx, at) < 0)
                goto error;
            pc++;
            NEXT_OP();
        OP(TILES):
            GET();
            rc = op_tiles(r, in, v, at);
            DONE();
        OP(TILE):
            GET();
            k = tile_at(r, in, v, in->where);
            rc = k < 0 ? -1 : in->i1 ? add(r, at + (int)k, in->f1) : put(r, at + (int)k, in->f1);
            DONE();
        OP(SEAT):
            GET();
            rc = op_seat(r, in, v, at);
            DONE();
        OP(NUMBER):
            GET();
            rc = op_number(r, in, v, at);
            DONE();
        OP(LOOKUP):
            GET();
            k = among(in, v, &err);
            if (err < 0)
                rc = -1;
            else if (k >= 0)
                rc = put(r, at + (int)k, 1.0);
            else if (in->i1)
                rc = 0;
            else
                refused(r, in->where, in->detail, v), rc = -1;
            DONE();
        OP(SCALE):
            GET();
            rc = op_scale(r, in, v, at);
            DONE();
        OP(LENGTH):
            GET();
            rc = items(r, in->where, v, &n) == NULL ? -1 : put(r, at, bounded((double)n / in->f2, in->i1, in->f3, in->f4));
            DONE();
        OP(FLAG):
            GET();
            k = PyObject_IsTrue(v);
            rc = k < 0 ? -1 : k ? put(r, at, 1.0) : 0;
            DONE();
        OP(WINDOW):
            GET();
            rc = op_window(r, in, v, at);
            DONE();
        OP(IF):
            GET();
            k = PyObject_IsTrue(v);
            Py_DECREF(v);
            if (k < 0)
                goto error;
            pc = k ? pc + 1 : in->jump;
            NEXT_OP();
        OP(MATCH):
            GET();
            k = among(in, v, &err);
            Py_DECREF(v);
            if (err < 0)
                goto error;
            pc = p->brs[in->br + (k < 0 ? 0 : k)];
            NEXT_OP();
        OP(EACH):
        OP(SEATS): {
            GET();
            if ((it = items(r, in->where, v, &n)) == NULL) {
                Py_DECREF(v);
                goto error;
            }
            Py_ssize_t first = 0, stop = n;
            int row = at;
            if (in->op == EACH) {
                if (in->i2 >= 0 && n > in->i2) {
                    stop = in->i2;
                    if (in->i3)
                        first = n - in->i2, stop = n;
                }
                if (in->i2 >= 0 && in->i3)
                    row += (int)(in->i2 - (stop - first)) * (int)in->i1;
            } else {
                long m = in->i2 > 0 ? in->i2 : p->players;
                if (n > m) {
                    PyErr_Format(p->error, "%U has %zd entries, for %ld seats", in->where, n, m);
                    Py_DECREF(v);
                    goto error;
                }
            }
            if (first >= stop || in->leaf) {
                rc = first >= stop ? 0 : leaf_loop(r, in, v, it, n, first, stop, row);
                Py_DECREF(v);
                if (rc < 0)
                    goto error;
                pc = in->jump;
                NEXT_OP();
            }
            Frame *f = &stack[depth++];
            *f = (Frame){in, v, ctx, n, first, stop, row, base};
            ctx = Py_NewRef(it[first]);
            base = in->op == EACH ? row : seat_row(r, in, row, first);
            pc++;
            NEXT_OP();
        }
        OP(NEXT): {
            Frame *f = &stack[depth - 1];
            Py_DECREF(ctx);
            ctx = NULL;
            if (++f->j < f->stop) {
                if ((it = again(f->list, f->n, f->loop->where)) == NULL)
                    goto error;
                ctx = Py_NewRef(it[f->j]);
                if (f->loop->op == EACH)
                    base = f->row += (int)f->loop->i1;
                else
                    base = seat_row(r, f->loop, f->row, f->j);
                pc = in->jump;
            } else {
                Py_DECREF(f->list);
                ctx = f->ctx;
                base = f->base;
                depth--;
                pc++;
            }
            NEXT_OP();
        }
        OP(END):
            return 0;
#ifndef THREADED
        default:
#endif
        OP(BAD):
            PyErr_Format(PyExc_SystemError, "observation: operation %d", in->op);
            goto error;
        }
    }
#undef GET
#undef DONE
#undef OP
#undef NEXT_OP
error:
    while (depth > 0) {
        Frame *f = &stack[--depth];
        Py_XDECREF(ctx);
        ctx = f->ctx;
        Py_DECREF(f->list);
    }
    return -1;
}

/* The observing seat, or -1 with the error raised. */
static long seat_of(Prog *p, PyObject *view)
{
    PyObject *s = PyDict_CheckExact(view) ? Py_XNewRef(PyDict_GetItemWithError(view, p->seat_key))
                                          : PyObject_GetItem(view, p->seat_key);
    if (s == NULL) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_KeyError) || PyErr_ExceptionMatches(PyExc_IndexError) ||
            PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            PyErr_Format(p->error, "view[%R] is missing", p->seat_key);
        }
        return -1;
    }
    long me;
    if (s == Py_None)
        PyErr_SetString(p->error, "observations are made for a seat, not for a spectator's view");
    else if (!small_int(s, &me) || me < 0 || me >= p->players)
        PyErr_Format(p->error, "a view's seat is one of 0 to %d, got %R", p->players - 1, s);
    else {
        Py_DECREF(s);
        return me;
    }
    Py_DECREF(s);
    return -1;
}

/* The observation of the view (see run()). */
static PyObject *observation(Prog *p, PyObject *view, int as_list, PyObject *rows_of)
{
    long me = seat_of(p, view);
    if (me < 0)
        return NULL;
    Run r = {p, p->d, p->mark, p->touched, 0, me, rows_of, NULL, 0};
    PyObject *out = NULL;
    if (!as_list && p->direct) {
        /* Straight into the float32 bytes: a set rounds as a double rounded once does, and the
         * additions (steps of 1/256 at least, never mixed with sets in one block) are exact
         * below EXACT_ADDS; past that the run is made again through the doubles. */
        out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)p->size * 4);
        if (out == NULL)
            return NULL;
        r.f = (float *)PyByteArray_AS_STRING(out);
        memset(r.f, 0, sizeof(float) * (size_t)p->size);
        if (execute(&r, view) < 0) {
            Py_DECREF(out);
            return NULL;
        }
        if (r.adds < EXACT_ADDS)
            return out;
        Py_CLEAR(out);
        r.f = NULL;
    }
    int own = p->busy;  /* a run under way (another thread, in a row callback): scratch of its own */
    if (own) {
        r.d = PyMem_Calloc((size_t)p->size, sizeof(double));
        r.mark = PyMem_Calloc((size_t)p->size, 1);
        r.touched = PyMem_Calloc((size_t)p->size, sizeof(int));
        if (r.d == NULL || r.mark == NULL || r.touched == NULL) {
            PyMem_Free(r.d);
            PyMem_Free(r.mark);
            PyMem_Free(r.touched);
            return PyErr_NoMemory();
        }
    } else {
        p->busy = 1;
    }
    if (execute(&r, view) == 0) {
        if (as_list) {
            out = PyList_New(p->size);
            if (out != NULL) {
                for (int i = 0; i < p->size; i++)
                    PyList_SET_ITEM(out, i, Py_NewRef(zero));
                for (int j = 0; j < r.nt; j++) {
                    int i = r.touched[j];
                    PyObject *f = PyFloat_FromDouble(r.d[i]);
                    if (f == NULL) {
                        Py_CLEAR(out);
                        break;
                    }
                    Py_SETREF(((PyListObject *)out)->ob_item[i], f);
                }
            }
        } else {
            out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)p->size * 4);
            if (out != NULL) {
                float *f = (float *)PyByteArray_AS_STRING(out);
                memset(f, 0, sizeof(float) * (size_t)p->size);
                for (int j = 0; j < r.nt; j++)
                    f[r.touched[j]] = (float)r.d[r.touched[j]];
            }
        }
    }
    for (int j = 0; j < r.nt; j++) {
        r.d[r.touched[j]] = 0.0;
        r.mark[r.touched[j]] = 0;
    }
    if (own) {
        PyMem_Free(r.d);
        PyMem_Free(r.mark);
        PyMem_Free(r.touched);
    } else {
        p->busy = 0;
    }
    return out;
}

static PyObject *run(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4)
        return PyErr_Format(PyExc_TypeError, "run(program, view, as_list, rows_of)");
    Prog *p = (Prog *)PyCapsule_GetPointer(args[0], "boneyard.rl._observe.program");
    if (p == NULL)
        return NULL;
    int as_list = PyObject_IsTrue(args[2]);
    return as_list < 0 ? NULL : observation(p, args[1], as_list, args[3]);
}

static PyObject *cached(PyObject *self, PyObject *capsule)
{
    Prog *p = (Prog *)PyCapsule_GetPointer(capsule, "boneyard.rl._observe.program");
    return p == NULL ? NULL : PyLong_FromSsize_t(p->held);
}

/* ----- masks and legal maps ------------------------------------------------------------------- */

static PyObject *mask(PyObject *self, PyObject *args)
{
    Py_ssize_t size;
    PyObject *legal;
    if (!PyArg_ParseTuple(args, "nO!", &size, &PyDict_Type, &legal))
        return NULL;
    if (size < 0)
        return PyErr_Format(PyExc_ValueError, "size must not be negative, got %zd", size);
    PyObject *out = PyByteArray_FromStringAndSize(NULL, size);
    if (out == NULL)
        return NULL;
    char *m = PyByteArray_AS_STRING(out);
    memset(m, 0, (size_t)size);
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(legal, &pos, &key, &value)) {
        /* Any integer (a NumPy one too), as a bytearray index takes it. */
        Py_ssize_t i = -1;
        if (PyIndex_Check(key))
            i = PyNumber_AsSsize_t(key, NULL);
        else
            PyErr_Format(PyExc_TypeError, "action indices are ints, got %R", key);
        if (i < 0 || i >= size) {
            Py_DECREF(out);
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "action index %zd outside 0 to %zd", i, size - 1);
            return NULL;
        }
        m[i] = 1;
    }
    return out;
}

/* The legal map and mask of a position whose listed actions (a tuple) all have an index in
 * `known`: 1 with them made, 0 when one has none yet or two share one, -1 with an error. */
static int legal_of(PyObject *known, PyObject *legal, Py_ssize_t size, PyObject **map_out, PyObject **mask_out)
{
    PyObject *map = PyDict_New();
    if (map == NULL)
        return -1;
    PyObject *mask = PyByteArray_FromStringAndSize(NULL, size);
    if (mask == NULL) {
        Py_DECREF(map);
        return -1;
    }
    char *m = PyByteArray_AS_STRING(mask);
    memset(m, 0, (size_t)size);
    Py_ssize_t n = PyTuple_GET_SIZE(legal);
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *action = PyTuple_GET_ITEM(legal, j);
        PyObject *index = PyDict_GetItemWithError(known, action);
        Py_ssize_t i = (index == NULL || !PyLong_Check(index)) ? -1 : PyLong_AsSsize_t(index);
        if (i < 0 || i >= size || m[i] || PyDict_SetItem(map, index, action) < 0) {
            Py_DECREF(map);
            Py_DECREF(mask);
            if (PyErr_Occurred())
                return -1;
            return 0;
        }
        m[i] = 1;
    }
    *map_out = map;
    *mask_out = mask;
    return 1;
}

static PyObject *legal_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyDict_Check(args[0]) || !PyTuple_Check(args[1]) || !PyLong_Check(args[2]))
        return PyErr_Format(PyExc_TypeError, "legal_mask(known: dict, legal_actions: tuple, size: int)");
    Py_ssize_t size = PyLong_AsSsize_t(args[2]);
    if (size < 0)
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "size must not be negative");
    PyObject *map, *mask;
    int found = legal_of(args[0], args[1], size, &map, &mask);
    if (found <= 0) {
        if (found < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    PyObject *out = PyTuple_Pack(2, map, mask);
    Py_DECREF(map);
    Py_DECREF(mask);
    return out;
}

/* run_legal(program, view, rows_of, known, legal_actions, size): the seat to act's float32
 * observation with its legal map and mask, (observation, mask, map), in one call; None when
 * legal_mask would give None (nothing is observed then). */
static PyObject *run_legal(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 || !PyDict_Check(args[3]) || !PyTuple_Check(args[4]) || !PyLong_Check(args[5]))
        return PyErr_Format(PyExc_TypeError, "run_legal(program, view, rows_of, known: dict, legal_actions: tuple, "
                                             "size: int)");
    Prog *p = (Prog *)PyCapsule_GetPointer(args[0], "boneyard.rl._observe.program");
    if (p == NULL)
        return NULL;
    Py_ssize_t size = PyLong_AsSsize_t(args[5]);
    if (size < 0)
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "size must not be negative");
    PyObject *map, *mask;
    int found = legal_of(args[3], args[4], size, &map, &mask);
    if (found <= 0) {
        if (found < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    PyObject *obs = observation(p, args[1], 0, args[2]);
    if (obs == NULL) {
        Py_DECREF(map);
        Py_DECREF(mask);
        return NULL;
    }
    PyObject *out = PyTuple_Pack(3, obs, mask, map);
    Py_DECREF(obs);
    Py_DECREF(map);
    Py_DECREF(mask);
    return out;
}

static PyMethodDef METHODS[] = {
    {"program", program, METH_VARARGS,
     "program(flat, size, players, seat_key, slots, error): an observation's declared blocks, compiled."},
    {"run", (PyCFunction)(void (*)(void))run, METH_FASTCALL,
     "run(program, view, as_list, rows_of): the observation of the view's seat (float32 bytes, or a list)."},
    {"cached", cached, METH_O, "cached(program): how many events the window cache holds."},
    {"mask", mask, METH_VARARGS, "mask(size, legal): a bytearray of size, 1 at each key of the dict legal."},
    {"run_legal", (PyCFunction)(void (*)(void))run_legal, METH_FASTCALL,
     "run_legal(program, view, rows_of, known, legal_actions, size): (observation, mask, legal map), or None."},
    {"legal_mask", (PyCFunction)(void (*)(void))legal_mask, METH_FASTCALL,
     "legal_mask(known, legal_actions, size): (index -> action, mask bytes), or None: left to Python."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_observe",
                                    "Game-independent C of boneyard's RL adapters: the interpreter of declared "
                                    "observation blocks, masks, legal maps.", -1,
                                    METHODS, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__observe(void)
{
    if ((zero = PyFloat_FromDouble(0.0)) == NULL)
        return NULL;
    return PyModule_Create(&MODULE);
}
