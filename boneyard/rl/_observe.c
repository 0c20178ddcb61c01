/*
 * The RL observation writers in C: the same vectors as the Python writers of
 * boneyard/rl/encoding.py and boneyard/rl/encodings/<game>.py, written from the same
 * view(seat) dictionaries, at a fraction of the cost.
 *
 * The Python writers stay the definition: every block, offset, scale and per-game
 * constant reaches this module from them (Encoding.__init__ passes them to spec()), the
 * tests compare both writers over thousands of positions of every game, and the Python
 * writers run wherever this module could not be built.
 *
 * spec(...) packs one encoding's numbers into a capsule, once. observe(spec, view,
 * as_list) then returns the observation: a bytearray of float32 values (as_list false;
 * the caller wraps it in a numpy array without a copy) or a list of Python floats
 * (OpenSpiel's observation_tensor). It returns None for a view whose history holds a line
 * this reader leaves to Python (not ASCII, or an actor number of more than six digits):
 * the caller then runs the Python writers.
 *
 * observe_legal(...) gives the seat to act's observation together with its mask and legal
 * map (what every PettingZoo step asks for) in one call; mask(...) makes a mask alone.
 *
 * Entries are written in the Python writers' order: into the float32 bytes, each rounded
 * at its store as the Python writers' stores into a float32 buffer are; into the list's
 * doubles unrounded, as the Python list writer keeps them (the only sums, of halves and
 * quarters, are exact in both).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

enum { ROUNCE, EIGHTY, TWOBOX, MONTANA, RUMMIKUB, N_GAMES };
static const char *GAME_IDS[N_GAMES] = {"rounce", "eighty", "twobox", "montana", "rummikub"};
#define MAX_OFF 16

typedef struct {
    int game, players, size;
    PyObject *phases;   /* phase name -> index */
    PyObject *extra;    /* the game's own constants (a tuple) */
    PyObject *verbs;    /* the verbs of history lines, in the encoding's order (a tuple of str) */
    int at_phase, at_to_act, at_scores, at_history, width, window;
    double lo, span;
    int off[MAX_OFF];
    int n_off;
    double *buf;        /* the list writer's doubles */
} Spec;

static PyObject *zero;  /* the float 0.0, shared by every list made */

/* Where an observation is written: float32 entries (the bytes wrapped by numpy), or
 * doubles (the list OpenSpiel takes). A float entry is rounded at each store, as the Python
 * writers' stores into a float32 buffer are. */
typedef struct {
    float *f;   /* non-NULL: write float32 entries here */
    double *d;  /* otherwise: doubles here */
} Out;

#define SET(o, i, x) do { int i_ = (i); double x_ = (x); if ((o)->f) (o)->f[i_] = (float)x_; else (o)->d[i_] = x_; } while (0)
#define ADD(o, i, x) do { int i_ = (i); double x_ = (x); \
    if ((o)->f) (o)->f[i_] = (float)((double)(o)->f[i_] + x_); else (o)->d[i_] += x_; } while (0)

/* Interned keys of the views. */
#define KEYS(X) X(seat) X(phase) X(current_player) X(scores) X(history) X(hand) X(discarded) \
    X(trump) X(turn_up) X(turn_up_taken) X(dealer) X(calls) X(defending) X(dummies) \
    X(discards_due) X(boneyard) X(out) X(hand_sizes) X(leader) X(trick) X(suit) X(tile) \
    X(tricks) X(plays) X(tricks_won) X(shuffler) X(bids) X(bidder) X(high_bid) \
    X(sitting_out) X(led_suit) X(sides) X(taken) X(count) X(rules) X(drawn) X(spinner) \
    X(spinner_stacked_by) X(arms) X(open_end) X(tiles) X(stacked_by) X(passes) \
    X(passed_on) X(steal) X(points) X(target) X(pulled) X(exposed) X(discards) X(claim) \
    X(from) X(answered) X(ready) X(stakes) X(woodpile) X(deal_passes) X(mode) \
    X(one_pair) X(table) X(opened)
#define DECLARE(name) static PyObject *K_##name;
KEYS(DECLARE)
static PyObject *S_pass, *S_nelo, *S_shootout;

static void spec_free(PyObject *capsule)
{
    Spec *s = (Spec *)PyCapsule_GetPointer(capsule, "boneyard.rl._observe.spec");
    if (s == NULL) {
        PyErr_Clear();
        return;
    }
    Py_XDECREF(s->phases);
    Py_XDECREF(s->extra);
    Py_XDECREF(s->verbs);
    PyMem_Free(s->buf);
    PyMem_Free(s);
}

/* ----- reading views ------------------------------------------------------------- */

/* view[key] (borrowed), or NULL with KeyError / TypeError naming what is missing. */
static PyObject *get(PyObject *d, PyObject *key)
{
    if (!PyDict_Check(d)) {
        PyErr_Format(PyExc_TypeError, "expected a dict holding %R, got %.100s", key, Py_TYPE(d)->tp_name);
        return NULL;
    }
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (v == NULL && !PyErr_Occurred())
        PyErr_Format(PyExc_KeyError, "the view has no %R", key);
    return v;
}

static int as_int(PyObject *o, long *out)
{
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "expected an int, got %R", o);
        return -1;
    }
    *out = PyLong_AsLong(o);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

static int as_num(PyObject *o, double *out)
{
    if (PyLong_Check(o)) {
        *out = PyLong_AsDouble(o);
    } else if (PyFloat_Check(o)) {
        *out = PyFloat_AS_DOUBLE(o);
    } else {
        PyErr_Format(PyExc_TypeError, "expected a number, got %R", o);
        return -1;
    }
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static int num_at(PyObject *d, PyObject *key, double *out)
{
    PyObject *v = get(d, key);
    return v == NULL ? -1 : as_num(v, out);
}

static PyObject *no_items[1];  /* what an empty list's items are (its own pointer may be NULL) */

/* A sequence's items without a copy (lists and tuples); NULL with TypeError otherwise. */
static PyObject **items(PyObject *o, Py_ssize_t *n)
{
    if (PyList_Check(o)) {
        *n = PyList_GET_SIZE(o);
        return *n ? ((PyListObject *)o)->ob_item : no_items;
    }
    if (PyTuple_Check(o)) {
        *n = PyTuple_GET_SIZE(o);
        return ((PyTupleObject *)o)->ob_item;
    }
    PyErr_Format(PyExc_TypeError, "expected a list, got %.100s", Py_TYPE(o)->tp_name);
    return NULL;
}

static PyObject **items_at(PyObject *d, PyObject *key, Py_ssize_t *n)
{
    PyObject *v = get(d, key);
    return v == NULL ? NULL : items(v, n);
}

/* The kind index of a tile as views write it ("a-b", a >= b): 0-0 = 0, 1-0 = 1, 1-1 = 2...;
 * without blanks (Eighty's set) 1-1 = 0, 2-1 = 1... */
static int tile_index(PyObject *o, int no_blank)
{
    if (PyUnicode_Check(o) && PyUnicode_GET_LENGTH(o) == 3 && PyUnicode_KIND(o) == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *c = PyUnicode_1BYTE_DATA(o);
        int a = c[0] - '0', b = c[2] - '0';
        if (c[1] == '-' && a >= 0 && a <= 6 && b >= 0 && b <= a) {
            if (!no_blank)
                return a * (a + 1) / 2 + b;
            if (b >= 1)
                return (a - 1) * a / 2 + (b - 1);
        }
    }
    PyErr_Format(PyExc_KeyError, "%R is not a tile of this game's set", o);
    return -1;
}

/* A seat relative to the observer, from an int seat; -1 with an error otherwise. */
static int rel_seat(const Spec *s, long me, PyObject *o)
{
    long seat;
    if (as_int(o, &seat) < 0)
        return -1;
    if (seat < 0 || seat >= s->players) {
        PyErr_Format(PyExc_ValueError, "seat %ld out of range", seat);
        return -1;
    }
    return (int)((seat - me + s->players) % s->players);
}

/* The relative seat of an int, or `none` for None. */
static int rel_or(const Spec *s, long me, PyObject *o, int none)
{
    return o == Py_None ? none : rel_seat(s, me, o);
}

/* The relative seat of entry i of a per-seat list; IndexError past the last seat, where the
 * Python writers' rel[i] raises. */
static int seat_at(const Spec *s, long me, Py_ssize_t i)
{
    if (i >= s->players) {
        PyErr_Format(PyExc_IndexError, "a per-seat list has an entry %zd, for %d players", i, s->players);
        return -1;
    }
    return (int)((i - me + s->players) % s->players);
}

static int truthy(PyObject *o) { return PyObject_IsTrue(o); }

#define CHECK(x) do { if ((x) < 0) return -1; } while (0)
#define NEED(p) do { if ((p) == NULL) return -1; } while (0)

/* Every tile of a list (key of d) adds `step` at base + its kind (step 0: set to 1). */
static int tiles_at(PyObject *d, PyObject *key, Out *buf, int base, double step, int no_blank)
{
    Py_ssize_t n;
    PyObject **it = items_at(d, key, &n);
    NEED(it);
    for (Py_ssize_t i = 0; i < n; i++) {
        int k = tile_index(it[i], no_blank);
        CHECK(k);
        if (step == 0.0)
            SET(buf, base + k, 1.0);
        else
            ADD(buf, base + k, step);
    }
    return 0;
}

static double cap1(double x) { return x < 1.0 ? x : 1.0; }

/* Every tile played to the hand's finished tricks (view["tricks"][i]["plays"][j]["tile"])
 * adds `step` at base + its kind (step 0: set to 1). */
static int tricks_played(PyObject *v, Out *buf, int base, double step, int no_blank)
{
    Py_ssize_t m;
    PyObject **it = items_at(v, K_tricks, &m);
    NEED(it);
    for (Py_ssize_t i = 0; i < m; i++) {
        Py_ssize_t q;
        PyObject **p;
        NEED(p = items_at(it[i], K_plays, &q));
        for (Py_ssize_t j = 0; j < q; j++) {
            PyObject *x;
            NEED(x = get(p[j], K_tile));
            int t = tile_index(x, no_blank);
            CHECK(t);
            if (step == 0.0)
                SET(buf, base + t, 1.0);
            else
                ADD(buf, base + t, step);
        }
    }
    return 0;
}

enum { SKIP_ZERO = 1, CAP_ONE = 2 };

/* A per-seat list of numbers (view[key]): entry base + relative seat = value / scale, capped
 * at 1 with CAP_ONE; zero values left unwritten with SKIP_ZERO (as the Python writers skip
 * them, an extra zero entry is no error then). */
static int per_seat(const Spec *s, PyObject *v, PyObject *key, Out *buf, int base, long me, double scale, int flags)
{
    Py_ssize_t m;
    PyObject **it = items_at(v, key, &m);
    NEED(it);
    for (Py_ssize_t i = 0; i < m; i++) {
        double d;
        CHECK(as_num(it[i], &d));
        if ((flags & SKIP_ZERO) && d == 0.0)
            continue;
        int r = seat_at(s, me, i);
        CHECK(r);
        SET(buf, base + r, (flags & CAP_ONE) ? cap1(d / scale) : d / scale);
    }
    return 0;
}

/* ----- the games' own blocks ------------------------------------------------------ */

static int fill_rounce(const Spec *s, Out *buf, PyObject *v, long me)
{
    const int *o = s->off;
    int at_hand = o[0], at_discarded = o[1], at_trump = o[2], at_turn_up = o[3], at_dealer = o[4], at_calls = o[5],
        at_counts = o[6], at_sizes = o[7], at_leader = o[8], at_led = o[9], at_trick = o[10], at_played = o[11],
        at_won = o[12];
    int n = s->players;
    PyObject *call_index = PyTuple_GET_ITEM(s->extra, 0);
    PyObject *x;
    long k;
    double d;
    Py_ssize_t m;
    PyObject **it;

    CHECK(tiles_at(v, K_hand, buf, at_hand, 0.0, 0));
    CHECK(tiles_at(v, K_discarded, buf, at_discarded, 0.0, 0));
    NEED(x = get(v, K_trump));
    CHECK(as_int(x, &k));
    if (k < 0 || k > 6) {
        PyErr_Format(PyExc_ValueError, "trump %ld out of range", k);
        return -1;
    }
    SET(buf, at_trump + k, 1.0);
    NEED(x = get(v, K_turn_up));
    int t = tile_index(x, 0);
    CHECK(t);
    SET(buf, at_turn_up + t, 1.0);
    NEED(x = get(v, K_turn_up_taken));
    int yes = truthy(x);
    CHECK(yes);
    if (yes)
        SET(buf, at_turn_up + 28, 1.0);
    NEED(x = get(v, K_dealer));
    int r = rel_seat(s, me, x);
    CHECK(r);
    SET(buf, at_dealer + r, 1.0);
    NEED(it = items_at(v, K_calls, &m));
    for (Py_ssize_t i = 0; i < m; i++) {
        CHECK(r = seat_at(s, me, i));
        PyObject *c = PyDict_GetItemWithError(call_index, it[i]);
        if (c == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_KeyError, "unknown call %R", it[i]);
            return -1;
        }
        SET(buf, at_calls + r * 6 + PyLong_AsLong(c), 1.0);
    }
    NEED(x = get(v, K_defending));
    CHECK(yes = truthy(x));
    if (yes)
        SET(buf, at_counts, 1.0);
    CHECK(num_at(v, K_dummies, &d));
    SET(buf, at_counts + 1, d / 2);
    CHECK(num_at(v, K_discards_due, &d));
    SET(buf, at_counts + 2, d / 2);
    CHECK(num_at(v, K_boneyard, &d));
    SET(buf, at_counts + 3, d / 28);
    CHECK(num_at(v, K_out, &d));
    SET(buf, at_counts + 4, d / 28);
    CHECK(per_seat(s, v, K_hand_sizes, buf, at_sizes, me, 7, 0));
    NEED(x = get(v, K_leader));
    CHECK(r = rel_or(s, me, x, n));
    SET(buf, at_leader + r, 1.0);
    Py_ssize_t plays;
    PyObject **trick;
    NEED(trick = items_at(v, K_trick, &plays));
    if (plays > 0) {
        NEED(x = get(trick[0], K_suit));
        if (x == Py_None) {
            SET(buf, at_led + 7, 1.0);
        } else {
            CHECK(as_int(x, &k));
            if (k < 0 || k > 6) {
                PyErr_Format(PyExc_ValueError, "suit %ld out of range", k);
                return -1;
            }
            SET(buf, at_led + k, 1.0);
        }
        int row = at_trick;
        for (Py_ssize_t i = 0; i < plays; i++) {
            NEED(x = get(trick[i], K_tile));
            CHECK(t = tile_index(x, 0));
            if (i < n - 1) {
                NEED(x = get(trick[i], K_seat));
                CHECK(r = rel_seat(s, me, x));
                SET(buf, row + r, 1.0);
                SET(buf, row + n + t, 1.0);
                row += n + 28;
            }
            SET(buf, at_played + t, 1.0);
        }
    } else {
        SET(buf, at_led + 7, 1.0);
    }
    CHECK(tricks_played(v, buf, at_played, 0.0, 0));
    CHECK(per_seat(s, v, K_tricks_won, buf, at_won, me, 5, SKIP_ZERO));
    return 0;
}

static int fill_eighty(const Spec *s, Out *buf, PyObject *v, long me)
{
    const int *o = s->off;
    int at_hand = o[0], at_shuffler = o[1], at_bids = o[2], at_bidder = o[3], at_high = o[4], at_trump = o[5],
        at_out = o[6], at_sizes = o[7], at_leader = o[8], at_led = o[9], at_trick = o[10], at_played = o[11],
        at_won = o[12], at_sides = o[13], at_options = o[14];
    PyObject *led_index = PyTuple_GET_ITEM(s->extra, 0);
    PyObject *options = PyTuple_GET_ITEM(s->extra, 1);
    double min_bid = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(s->extra, 2));
    double bid_span = PyFloat_AS_DOUBLE(PyTuple_GET_ITEM(s->extra, 3));
    PyObject *x;
    long k;
    double d;
    int r, t;
    Py_ssize_t m;
    PyObject **it;

    CHECK(tiles_at(v, K_hand, buf, at_hand, 0.5, 1));
    NEED(x = get(v, K_shuffler));
    CHECK(r = rel_seat(s, me, x));
    SET(buf, at_shuffler + r, 1.0);
    NEED(it = items_at(v, K_bids, &m));
    for (Py_ssize_t i = 0; i < m; i++) {
        CHECK(r = seat_at(s, me, i));
        int row = at_bids + r * 5;
        PyObject *b = it[i];
        if (b == Py_None) {
            SET(buf, row, 1.0);
        } else if (PyUnicode_Check(b)) {
            if (PyUnicode_Compare(b, S_pass) == 0)
                SET(buf, row + 1, 1.0);
            else if (PyUnicode_Compare(b, S_nelo) == 0)
                SET(buf, row + 4, 1.0);
            else {
                PyErr_Format(PyExc_ValueError, "unknown bid %R", b);
                return -1;
            }
        } else {
            CHECK(as_num(b, &d));
            SET(buf, row + 2, 1.0);
            SET(buf, row + 3, (d - min_bid) / bid_span);
        }
    }
    NEED(x = get(v, K_bidder));
    CHECK(r = rel_or(s, me, x, 4));
    SET(buf, at_bidder + r, 1.0);
    NEED(x = get(v, K_high_bid));
    if (PyUnicode_Check(x) && PyUnicode_Compare(x, S_nelo) == 0) {
        SET(buf, at_high + 1, 1.0);
    } else if (x != Py_None) {
        CHECK(as_num(x, &d));
        SET(buf, at_high, (d - min_bid) / bid_span);
    }
    NEED(x = get(v, K_trump));
    k = 0;
    if (x != Py_None) {
        CHECK(as_int(x, &k));
        if (k < 0 || k > 6) {
            PyErr_Format(PyExc_ValueError, "trump %ld out of range", k);
            return -1;
        }
    }
    SET(buf, at_trump + k, 1.0);
    NEED(x = get(v, K_sitting_out));
    CHECK(r = rel_or(s, me, x, 4));
    SET(buf, at_out + r, 1.0);
    CHECK(per_seat(s, v, K_hand_sizes, buf, at_sizes, me, 10, 0));
    NEED(x = get(v, K_leader));
    CHECK(r = rel_or(s, me, x, 4));
    SET(buf, at_leader + r, 1.0);
    NEED(x = get(v, K_led_suit));
    if (x == Py_None) {
        SET(buf, at_led, 1.0);
    } else {
        PyObject *j = PyDict_GetItemWithError(led_index, x);
        if (j == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_KeyError, "unknown suit led %R", x);
            return -1;
        }
        SET(buf, at_led + PyLong_AsLong(j), 1.0);
    }
    PyObject **trick;
    Py_ssize_t plays;
    NEED(trick = items_at(v, K_trick, &plays));
    int row = at_trick;
    for (Py_ssize_t i = 0; i < plays; i++) {
        NEED(x = get(trick[i], K_tile));
        CHECK(t = tile_index(x, 1));
        if (i < 3) {
            NEED(x = get(trick[i], K_seat));
            CHECK(r = rel_seat(s, me, x));
            SET(buf, row + r, 1.0);
            SET(buf, row + 4 + t, 1.0);
            row += 25;
        }
        ADD(buf, at_played + t, 0.5);
    }
    CHECK(tricks_played(v, buf, at_played, 0.5, 1));
    CHECK(per_seat(s, v, K_tricks_won, buf, at_won, me, 10, SKIP_ZERO));
    NEED(it = items_at(v, K_sides, &m));
    if (m < 2) {
        PyErr_SetString(PyExc_ValueError, "the view names fewer than two sides");
        return -1;
    }
    PyObject *mine = it[me % 2], *theirs = it[1 - me % 2];
    CHECK(num_at(mine, K_taken, &d));
    SET(buf, at_sides, d / 80);
    CHECK(num_at(theirs, K_taken, &d));
    SET(buf, at_sides + 1, d / 80);
    CHECK(num_at(mine, K_count, &d));
    SET(buf, at_sides + 2, d / 60);
    CHECK(num_at(theirs, K_count, &d));
    SET(buf, at_sides + 3, d / 60);
    PyObject *rules;
    NEED(rules = get(v, K_rules));
    for (Py_ssize_t j = 0; j < PyTuple_GET_SIZE(options); j++) {
        NEED(x = get(rules, PyTuple_GET_ITEM(options, j)));
        int yes = truthy(x);
        CHECK(yes);
        if (yes)
            SET(buf, at_options + j, 1.0);
    }
    return 0;
}

static int fill_twobox(const Spec *s, Out *buf, PyObject *v, long me)
{
    const int *o = s->off;
    int at_hand = o[0], at_sizes = o[1], at_drawn = o[2], at_boneyard = o[3], at_spinner = o[4], at_arms = o[5],
        at_count = o[6], at_passed = o[7], at_steal = o[8], lay = o[9], at_target = o[10];
    int n = s->players;
    PyObject *spinner_number = PyTuple_GET_ITEM(s->extra, 0);
    PyObject *x;
    long k;
    double d;
    int r, t;
    Py_ssize_t m;
    PyObject **it;

    CHECK(tiles_at(v, K_hand, buf, at_hand, 0.5, 0));
    CHECK(per_seat(s, v, K_hand_sizes, buf, at_sizes, me, 28, CAP_ONE));
    CHECK(per_seat(s, v, K_drawn, buf, at_drawn, me, 28, SKIP_ZERO | CAP_ONE));
    CHECK(num_at(v, K_boneyard, &d));
    SET(buf, at_boneyard, d / 56);
    PyObject *spinner;
    NEED(spinner = get(v, K_spinner));
    PyObject *number = PyDict_GetItemWithError(spinner_number, spinner);
    if (number == NULL) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_KeyError, "%R is not a spinner", spinner);
        return -1;
    }
    SET(buf, at_spinner + PyLong_AsLong(number), 1.0);
    CHECK(t = tile_index(spinner, 0));
    NEED(x = get(v, K_spinner_stacked_by));
    if (x != Py_None) {
        SET(buf, at_spinner + 7, 1.0);
        ADD(buf, lay + t, 1.0);
    } else {
        ADD(buf, lay + t, 0.5);
    }
    NEED(it = items_at(v, K_arms, &m));
    int row = at_arms;
    for (Py_ssize_t i = 0; i < m; i++) {
        NEED(x = get(it[i], K_open_end));
        k = -1;
        if (x != Py_None) {
            CHECK(as_int(x, &k));
            if (k < 0 || k > 6) {
                PyErr_Format(PyExc_ValueError, "open end %ld out of range", k);
                return -1;
            }
        }
        SET(buf, row + k + 1, 1.0);
        Py_ssize_t q;
        PyObject **tiles;
        NEED(tiles = items_at(it[i], K_tiles, &q));
        if (q > 0) {
            NEED(x = get(tiles[q - 1], K_stacked_by));
            if (x == Py_None)
                SET(buf, row + 8, 1.0);
            SET(buf, row + 9, q < 14 ? (double)q / 14 : 1.0);
            for (Py_ssize_t j = 0; j < q; j++) {
                NEED(x = get(tiles[j], K_tile));
                CHECK(t = tile_index(x, 0));
                NEED(x = get(tiles[j], K_stacked_by));
                ADD(buf, lay + t, x == Py_None ? 0.5 : 1.0);
            }
        }
        row += 10;
    }
    CHECK(num_at(v, K_count, &d));
    SET(buf, at_count, cap1(d / 50));
    CHECK(num_at(v, K_passes, &d));
    SET(buf, at_count + 1, d / n);
    NEED(it = items_at(v, K_passed_on, &m));
    for (Py_ssize_t i = 0; i < m; i++) {
        CHECK(r = seat_at(s, me, i));
        int base = at_passed + r * 7;
        Py_ssize_t q;
        PyObject **numbers;
        NEED(numbers = items(it[i], &q));
        for (Py_ssize_t j = 0; j < q; j++) {
            CHECK(as_int(numbers[j], &k));
            if (k < 0 || k > 6) {
                PyErr_Format(PyExc_ValueError, "number %ld out of range", k);
                return -1;
            }
            SET(buf, base + k, 1.0);
        }
    }
    PyObject *steal;
    NEED(steal = get(v, K_steal));
    if (steal == Py_None) {
        SET(buf, at_steal + n, 1.0);
    } else {
        NEED(x = get(steal, K_seat));
        CHECK(r = rel_seat(s, me, x));
        SET(buf, at_steal + r, 1.0);
        CHECK(num_at(steal, K_points, &d));
        SET(buf, at_steal + n + 1, cap1(d / 50));
    }
    CHECK(num_at(v, K_target, &d));
    SET(buf, at_target, cap1(d / 300));
    return 0;
}

static int fill_montana(const Spec *s, Out *buf, PyObject *v, long me)
{
    const int *o = s->off;
    int at_hand = o[0], at_pulled = o[1], at_exposed = o[2], at_discards = o[3], at_recent = o[4], at_claim = o[5],
        at_ready = o[6], at_sizes = o[7], at_dealer = o[8], at_counts = o[9], at_options = o[10];
    int n = s->players;
    long recent = PyLong_AsLong(PyTuple_GET_ITEM(s->extra, 0));
    PyObject *x;
    double d;
    int r, t;
    Py_ssize_t m;
    PyObject **it;

    CHECK(tiles_at(v, K_hand, buf, at_hand, 0.25, 0));
    CHECK(tiles_at(v, K_pulled, buf, at_pulled, 0.0, 0));
    NEED(it = items_at(v, K_exposed, &m));
    for (Py_ssize_t i = 0; i < m; i++) {
        Py_ssize_t q;
        PyObject **sets;
        NEED(sets = items(it[i], &q));
        if (q == 0)
            continue;
        CHECK(r = seat_at(s, me, i));
        int base = at_exposed + r * 28;
        for (Py_ssize_t j = 0; j < q; j++)
            CHECK(tiles_at(sets[j], K_tiles, buf, base, 0.25, 0));
    }
    NEED(it = items_at(v, K_discards, &m));
    int width = n + 28;
    Py_ssize_t first = m > recent ? m - recent : 0;
    int row = at_recent + (int)(recent - (m - first)) * width;
    for (Py_ssize_t i = 0; i < m; i++) {
        Py_ssize_t q;
        PyObject **pair;
        NEED(pair = items(it[i], &q));
        if (q != 2) {
            PyErr_SetString(PyExc_ValueError, "a discard is a (seat, tile) pair");
            return -1;
        }
        CHECK(t = tile_index(pair[1], 0));
        ADD(buf, at_discards + t, 0.25);
        if (i >= first) {
            CHECK(r = rel_seat(s, me, pair[0]));
            SET(buf, row + r, 1.0);
            SET(buf, row + n + t, 1.0);
            row += width;
        }
    }
    PyObject *claim;
    NEED(claim = get(v, K_claim));
    if (claim == Py_None) {
        SET(buf, at_claim + 28 + n, 1.0);
    } else {
        NEED(x = get(claim, K_tile));
        CHECK(t = tile_index(x, 0));
        SET(buf, at_claim + t, 1.0);
        NEED(x = get(claim, K_from));
        CHECK(r = rel_seat(s, me, x));
        SET(buf, at_claim + 28 + r, 1.0);
        Py_ssize_t q;
        PyObject **answered;
        NEED(answered = items_at(claim, K_answered, &q));
        for (Py_ssize_t j = 0; j < q; j++) {
            CHECK(r = rel_seat(s, me, answered[j]));
            SET(buf, at_claim + 28 + n + 1 + r, 1.0);
        }
    }
    Py_ssize_t nr, ns, nz;
    PyObject **ready, **stakes, **sizes;
    NEED(ready = items_at(v, K_ready, &nr));
    NEED(stakes = items_at(v, K_stakes, &ns));
    NEED(sizes = items_at(v, K_hand_sizes, &nz));
    if (nr < n || ns < n || nz < n) {
        PyErr_SetString(PyExc_ValueError, "the view's ready, stakes and hand_sizes need one entry per seat");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        r = (i - (int)me + n) % n;
        int yes = truthy(ready[i]);
        CHECK(yes);
        if (yes)
            SET(buf, at_ready + 2 * r, 1.0);
        CHECK(as_num(stakes[i], &d));
        if (d != 0.0)
            SET(buf, at_ready + 2 * r + 1, d / 4);
        CHECK(as_num(sizes[i], &d));
        SET(buf, at_sizes + r, d / 14);
    }
    NEED(x = get(v, K_dealer));
    CHECK(r = rel_seat(s, me, x));
    SET(buf, at_dealer + r, 1.0);
    CHECK(num_at(v, K_woodpile, &d));
    SET(buf, at_counts, d / 112);
    CHECK(num_at(v, K_deal_passes, &d));
    SET(buf, at_counts + 1, cap1(d / n));
    NEED(x = get(v, K_mode));
    if (PyUnicode_Check(x) && PyUnicode_Compare(x, S_shootout) == 0)
        SET(buf, at_options, 1.0);
    PyObject *rules;
    NEED(rules = get(v, K_rules));
    NEED(x = get(rules, K_one_pair));
    int yes = truthy(x);
    CHECK(yes);
    if (yes)
        SET(buf, at_options + 1, 1.0);
    return 0;
}

static int fill_rummikub(const Spec *s, Out *buf, PyObject *v, long me)
{
    const int *o = s->off;
    int at_hand = o[0], at_table = o[1], at_groups = o[2], at_opened = o[3], at_sizes = o[4], at_dealer = o[5],
        at_counts = o[6];
    int n = s->players;
    long max_groups = PyLong_AsLong(PyTuple_GET_ITEM(s->extra, 0));
    PyObject *x;
    double d;
    int r, t;
    Py_ssize_t m;
    PyObject **it;

    CHECK(tiles_at(v, K_hand, buf, at_hand, 0.5, 0));
    NEED(it = items_at(v, K_table, &m));
    if (m > max_groups) {
        PyErr_Format(PyExc_ValueError, "the table has %zd groups, more than %ld", m, max_groups);
        return -1;
    }
    int base = at_groups;
    for (Py_ssize_t i = 0; i < m; i++) {
        Py_ssize_t q;
        PyObject **group;
        NEED(group = items(it[i], &q));
        for (Py_ssize_t j = 0; j < q; j++) {
            CHECK(t = tile_index(group[j], 0));
            ADD(buf, at_table + t, 0.5);
            ADD(buf, base + t, 0.5);
        }
        base += 28;
    }
    Py_ssize_t no, nz;
    PyObject **opened, **sizes;
    NEED(opened = items_at(v, K_opened, &no));
    NEED(sizes = items_at(v, K_hand_sizes, &nz));
    if (no < n || nz < n) {
        PyErr_SetString(PyExc_ValueError, "the view's opened and hand_sizes need one entry per seat");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        r = (i - (int)me + n) % n;
        int yes = truthy(opened[i]);
        CHECK(yes);
        if (yes)
            SET(buf, at_opened + r, 1.0);
        CHECK(as_num(sizes[i], &d));
        SET(buf, at_sizes + r, cap1(d / 28));
    }
    NEED(x = get(v, K_dealer));
    CHECK(r = rel_seat(s, me, x));
    SET(buf, at_dealer + r, 1.0);
    CHECK(num_at(v, K_boneyard, &d));
    SET(buf, at_counts, d / 56);
    CHECK(num_at(v, K_passes, &d));
    SET(buf, at_counts + 1, d / n);
    CHECK(num_at(v, K_target, &d));
    SET(buf, at_counts + 2, cap1(d / 200));
    return 0;
}


/* ----- history lines ------------------------------------------------------------- */

static int is_word(Py_UCS1 c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_digit(Py_UCS1 c) { return c >= '0' && c <= '9'; }
static int is_alpha(Py_UCS1 c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/* Set a history line's row at `base`, read as the Python writers' _parse_line reads it: an
 * actor ("seat <n>"), a verb and the first tile named after it. 1 done, 0 a line this reader
 * leaves to Python (not ASCII, or a form it does not take), -1 error. */
static int history_row(const Spec *s, Out *buf, int base, PyObject *line, long me)
{
    if (!PyUnicode_Check(line) || !PyUnicode_IS_ASCII(line))
        return 0;
    const Py_UCS1 *c = PyUnicode_1BYTE_DATA(line);
    Py_ssize_t len = PyUnicode_GET_LENGTH(line), i;
    int n = s->players;
    if (len < 5 || memcmp(c, "seat ", 5) != 0)
        return 1;  /* not an actor's line: an empty row */
    /* "seat <digits> <verb>": the verb is the third space-separated word when it is all
     * letters; otherwise the word characters after the second space. */
    for (i = 5; i < len && is_digit(c[i]); i++)
        ;
    Py_ssize_t digits = i - 5;
    if (digits == 0 || digits > 6 || i >= len || c[i] != ' ')
        return digits > 6 ? 0 : 1;
    long actor = 0;
    for (Py_ssize_t j = 5; j < i; j++)
        actor = actor * 10 + (c[j] - '0');
    Py_ssize_t vs = i + 1, ve = vs;
    while (ve < len && c[ve] != ' ')
        ve++;
    int letters = ve > vs;
    for (Py_ssize_t j = vs; j < ve; j++)
        letters &= is_alpha(c[j]);
    Py_ssize_t rest;
    if (letters) {
        rest = ve < len ? ve + 1 : len;
    } else {
        for (ve = vs; ve < len && is_word(c[ve]); ve++)
            ;
        if (ve == vs)
            return 1;  /* no verb: an empty row */
        rest = ve;
    }
    Py_ssize_t nverbs = PyTuple_GET_SIZE(s->verbs), verb = nverbs;
    for (Py_ssize_t j = 0; j < nverbs; j++) {
        PyObject *w = PyTuple_GET_ITEM(s->verbs, j);
        if (PyUnicode_GET_LENGTH(w) == ve - vs && memcmp(PyUnicode_1BYTE_DATA(w), c + vs, (size_t)(ve - vs)) == 0) {
            verb = j;
            break;
        }
    }
    if (actor < n)
        SET(buf, base + (int)((actor - me + n) % n), 1.0);
    SET(buf, base + n + (int)verb, 1.0);
    /* The first "a-b" standing as a word of its own after the verb. */
    for (Py_ssize_t j = rest; j + 2 < len; j++) {
        if (is_digit(c[j]) && c[j + 1] == '-' && is_digit(c[j + 2]) && (j == rest || !is_word(c[j - 1])) &&
            (j + 3 == len || !is_word(c[j + 3]))) {
            int a = c[j] - '0', b = c[j + 2] - '0';
            if (a > 6 || b > 6)
                return 0;
            if (a < b) {
                int t = a;
                a = b;
                b = t;
            }
            SET(buf, base + n + (int)nverbs + 1 + a * (a + 1) / 2 + b, 1.0);
            break;
        }
    }
    return 1;
}

typedef int (*Fill)(const Spec *, Out *, PyObject *, long);
static const Fill FILLS[N_GAMES] = {fill_rounce, fill_eighty, fill_twobox, fill_montana, fill_rummikub};

/* ----- the module's functions ------------------------------------------------------- */

static PyObject *spec(PyObject *self, PyObject *args)
{
    const char *game;
    int players, size, at_phase, at_to_act, at_scores, at_history, width, window;
    double lo, span;
    PyObject *phases, *verbs, *offsets, *extra;
    if (!PyArg_ParseTuple(args, "siiO!O!iiiiiiddO!O!", &game, &players, &size, &PyDict_Type, &phases, &PyTuple_Type,
                          &verbs, &at_phase, &at_to_act, &at_scores, &at_history, &width, &window, &lo, &span,
                          &PyTuple_Type, &offsets, &PyTuple_Type, &extra))
        return NULL;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(verbs); i++)
        if (!PyUnicode_Check(PyTuple_GET_ITEM(verbs, i)) || !PyUnicode_IS_ASCII(PyTuple_GET_ITEM(verbs, i)))
            return PyErr_Format(PyExc_ValueError, "verbs must be ASCII strings");
    int g = -1;
    for (int i = 0; i < N_GAMES; i++)
        if (strcmp(game, GAME_IDS[i]) == 0)
            g = i;
    if (g < 0)
        return PyErr_Format(PyExc_ValueError, "no C observation writer for %s", game);
    if (PyTuple_GET_SIZE(offsets) > MAX_OFF)
        return PyErr_Format(PyExc_ValueError, "more than %d blocks", MAX_OFF);
    if (players < 1 || size < 1 || span == 0.0)
        return PyErr_Format(PyExc_ValueError, "bad sizes");
    Spec *s = PyMem_Calloc(1, sizeof(Spec));
    if (s == NULL)
        return PyErr_NoMemory();
    s->buf = PyMem_Calloc((size_t)size, sizeof(double));
    if (s->buf == NULL) {
        PyMem_Free(s);
        return PyErr_NoMemory();
    }
    s->game = g;
    s->players = players;
    s->size = size;
    s->at_phase = at_phase;
    s->at_to_act = at_to_act;
    s->at_scores = at_scores;
    s->at_history = at_history;
    s->width = width;
    s->window = window;
    s->lo = lo;
    s->span = span;
    s->n_off = (int)PyTuple_GET_SIZE(offsets);
    for (int i = 0; i < s->n_off; i++) {
        s->off[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(offsets, i));
        if (s->off[i] < 0 || s->off[i] >= size) {
            PyMem_Free(s->buf);
            PyMem_Free(s);
            return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "offset out of range");
        }
    }
    Py_INCREF(phases);
    Py_INCREF(extra);
    Py_INCREF(verbs);
    s->phases = phases;
    s->extra = extra;
    s->verbs = verbs;
    PyObject *capsule = PyCapsule_New(s, "boneyard.rl._observe.spec", spec_free);
    if (capsule == NULL) {
        Py_DECREF(phases);
        Py_DECREF(extra);
        Py_DECREF(verbs);
        PyMem_Free(s->buf);
        PyMem_Free(s);
    }
    return capsule;
}

/* The common blocks and the game's; 1 written, 0 a history line left to Python, -1 error. */
static int write_all(const Spec *s, Out *buf, PyObject *view)
{
    int n = s->players;
    PyObject *x;
    long me;
    NEED(x = get(view, K_seat));
    if (x == Py_None) {
        PyErr_SetString(PyExc_ValueError, "observations are made for a seat, not for a spectator's view");
        return -1;
    }
    CHECK(as_int(x, &me));
    if (me < 0 || me >= n) {
        PyErr_Format(PyExc_ValueError, "seat %ld out of range", me);
        return -1;
    }
    /* The history window: a row for each of its last lines, oldest first. */
    Py_ssize_t m;
    PyObject **lines;
    NEED(lines = items_at(view, K_history, &m));
    Py_ssize_t first = m > s->window ? m - s->window : 0;
    int base = s->at_history + (int)(s->window - (m - first)) * s->width;
    for (Py_ssize_t i = first; i < m; i++) {
        int done = history_row(s, buf, base, lines[i], me);
        if (done <= 0)
            return done;
        base += s->width;
    }
    NEED(x = get(view, K_phase));
    PyObject *phase = PyDict_GetItemWithError(s->phases, x);
    if (phase != NULL)
        SET(buf, s->at_phase + PyLong_AsLong(phase), 1.0);
    else if (PyErr_Occurred())
        return -1;
    NEED(x = get(view, K_current_player));
    int r = rel_or(s, me, x, n);
    CHECK(r);
    SET(buf, s->at_to_act + r, 1.0);
    NEED(lines = items_at(view, K_scores, &m));
    for (Py_ssize_t i = 0; i < m; i++) {
        double v;
        CHECK(as_num(lines[i], &v));
        double y = (v - s->lo) / s->span;
        CHECK(r = seat_at(s, me, i));
        SET(buf, s->at_scores + r, y < 0.0 ? 0.0 : y > 1.0 ? 1.0 : y);
    }
    CHECK(FILLS[s->game](s, buf, view, me));
    return 1;
}

static PyObject *observe(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyDict_Check(args[1]))
        return PyErr_Format(PyExc_TypeError, "observe(spec, view: dict, as_list)");
    Spec *s = (Spec *)PyCapsule_GetPointer(args[0], "boneyard.rl._observe.spec");
    if (s == NULL)
        return NULL;
    int as_list = PyObject_IsTrue(args[2]);
    if (as_list < 0)
        return NULL;
    Out buf = {NULL, s->buf};
    PyObject *out = NULL;
    if (as_list) {
        memset(s->buf, 0, sizeof(double) * (size_t)s->size);
    } else {
        /* Written straight into the bytes returned: no copy follows. */
        out = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)s->size * 4);
        if (out == NULL)
            return NULL;
        buf.f = (float *)PyByteArray_AS_STRING(out);
        memset(buf.f, 0, sizeof(float) * (size_t)s->size);
    }
    int done = write_all(s, &buf, args[1]);
    if (done <= 0) {
        Py_XDECREF(out);
        if (done < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    if (!as_list)
        return out;
    const double *d = s->buf;
    out = PyList_New(s->size);
    if (out == NULL)
        return NULL;
    for (int i = 0; i < s->size; i++) {
        PyObject *f;
        if (d[i] == 0.0) {
            Py_INCREF(zero);
            f = zero;
        } else if ((f = PyFloat_FromDouble(d[i])) == NULL) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, f);
    }
    return out;
}

static PyObject *mask(PyObject *self, PyObject *args)
{
    Py_ssize_t size;
    PyObject *legal;
    if (!PyArg_ParseTuple(args, "nO!", &size, &PyDict_Type, &legal))
        return NULL;
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

/* legal_mask(known, legal_actions, size): (index -> action, mask bytes) of a position whose
 * actions all have a known index (known: action -> index); None when one has none yet or
 * two share one (the caller's Python path indexes new actions and says what is wrong). */
static PyObject *legal_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyDict_Check(args[0]) || !PyTuple_Check(args[1]) || !PyLong_Check(args[2]))
        return PyErr_Format(PyExc_TypeError, "legal_mask(known: dict, legal_actions: tuple, size: int)");
    PyObject *known = args[0], *legal = args[1];
    Py_ssize_t size = PyLong_AsSsize_t(args[2]);
    if (size < 0)
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "size must be positive");
    PyObject *map = PyDict_New();
    if (map == NULL)
        return NULL;
    PyObject *mask = PyByteArray_FromStringAndSize(NULL, size);
    if (mask == NULL) {
        Py_DECREF(map);
        return NULL;
    }
    char *m = PyByteArray_AS_STRING(mask);
    memset(m, 0, (size_t)size);
    Py_ssize_t n = PyTuple_GET_SIZE(legal);
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *action = PyTuple_GET_ITEM(legal, j);
        PyObject *index = PyDict_GetItemWithError(known, action);
        Py_ssize_t i = index == NULL ? -1 : PyLong_AsSsize_t(index);
        if (i < 0 || i >= size || m[i]) {
            Py_DECREF(map);
            Py_DECREF(mask);
            if (PyErr_Occurred())
                return NULL;
            Py_RETURN_NONE;
        }
        m[i] = 1;
        if (PyDict_SetItem(map, index, action) < 0) {
            Py_DECREF(map);
            Py_DECREF(mask);
            return NULL;
        }
    }
    PyObject *out = PyTuple_Pack(2, map, mask);
    Py_DECREF(map);
    Py_DECREF(mask);
    return out;
}

/* observe_legal(spec, view, known, legal_actions, size): (observation bytes, mask bytes,
 * index -> action) of the seat to act, in one call (what every AEC step asks for); None
 * where either part is left to Python. */
static PyObject *observe_legal(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5)
        return PyErr_Format(PyExc_TypeError, "observe_legal(spec, view, known, legal_actions, size)");
    PyObject *pair = legal_mask(self, args + 2, 3);
    if (pair == NULL || pair == Py_None)
        return pair;
    PyObject *obs_args[3] = {args[0], args[1], Py_False};
    PyObject *obs = observe(self, obs_args, 3);
    if (obs == NULL || obs == Py_None) {
        Py_DECREF(pair);
        return obs;
    }
    PyObject *out = PyTuple_Pack(3, obs, PyTuple_GET_ITEM(pair, 1), PyTuple_GET_ITEM(pair, 0));
    Py_DECREF(obs);
    Py_DECREF(pair);
    return out;
}

static PyMethodDef METHODS[] = {
    {"spec", spec, METH_VARARGS, "Pack an encoding's blocks and constants for observe()."},
    {"observe", (PyCFunction)(void (*)(void))observe, METH_FASTCALL,
     "observe(spec, view, as_list): the observation as float32 bytes or a list; None: left to Python."},
    {"mask", mask, METH_VARARGS, "mask(size, legal): a bytearray of size, 1 at each key of the dict legal."},
    {"observe_legal", (PyCFunction)(void (*)(void))observe_legal, METH_FASTCALL,
     "observe_legal(spec, view, known, legal_actions, size): (observation, mask, legal map), or None."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_observe", "boneyard's RL observation writers in C.", -1,
                                    METHODS, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__observe(void)
{
#define INTERN(name) if ((K_##name = PyUnicode_InternFromString(#name)) == NULL) return NULL;
    KEYS(INTERN)
    if ((S_pass = PyUnicode_InternFromString("pass")) == NULL || (S_nelo = PyUnicode_InternFromString("nel-o")) == NULL ||
        (S_shootout = PyUnicode_InternFromString("shootout")) == NULL || (zero = PyFloat_FromDouble(0.0)) == NULL)
        return NULL;
    return PyModule_Create(&MODULE);
}
