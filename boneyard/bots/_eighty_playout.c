/*
 * Eighty playouts, compiled (boneyard.bots._eighty_playout).
 *
 * The ismcts bot plays each iteration out to the end of the hand on a sampled game. In
 * Eighty almost all of that time went into the greedy heuristic's play-phase choices
 * (greedy/eighty.py), one Python call per tile. This module makes those choices for the
 * rest of the hand's tricks in one call, operation for operation as greedy/eighty.py's
 * _play, _lead and _nello make them (same comparisons, same tie-breaks: the first of equal
 * options in the order the engine lists them), and returns the tiles played, in order.
 * The caller plays them on the engine, which checks every one and scores the hand: no
 * rule of scoring lives here. tests/bots check the choices against the Python heuristic
 * tile by tile over thousands of positions.
 *
 * The trick rules come in as the engine's own tables (boneyard.games.eighty.engine.tables:
 * the suit a led tile asks for, who follows it, each tile's power in it), and the
 * heuristic's weights as a per-tile table computed by greedy/eighty.py (keep_value), so
 * that one source defines each. Tiles are their Tile.key (high * 8 + low).
 *
 * The table buffer (native ints): lead[64], member[9][64], power[9][64], keep2[64]
 * (twice keep_value, a whole number), count[64] (count points of a tile).
 *
 * The state buffer (bytes): 0 seat to move, 1 the seat sitting out (Nel-O's partner;
 * 255: none, and no Nel-O), 2 tricks finished, 3 stop when this many tricks are left
 * (0: play to the hand's end), 4 bidder, 5 trump number (0: none), 6 plays in the
 * current trick n, then n (seat, key) pairs, then per seat: hand size k, then k keys,
 * then the tiles lying out: their count, then their keys.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NK 64
#define NSUITS 9
#define TRUMP_SUIT 7
#define TRICKS 10
#define SEATS 4

typedef struct {
    const int *lead;
    const int *member; /* [suit * NK + key] */
    const int *power;  /* [suit * NK + key] */
    const int *keep2;
    const int *count;
} Tables;

typedef struct {
    int cur, out, done, stop, bidder, nello, trump, trick_size;
    int n, tseat[SEATS], tkey[SEATS];
    int hand[SEATS][NK];
    int pool[NK]; /* tiles not yet played: every hand and the two lying out */
} State;

static int HIGH[NK], LOW[NK];

static int has(int key, int number)
{
    return HIGH[key] == number || LOW[key] == number;
}

/* How many unseen tiles (for ``seat``) would beat power ``mine`` in suit ``led``. */
static int beaten_by(const State *s, const Tables *t, int seat, int mine, int led)
{
    const int *pw = t->power + led * NK;
    int total = 0;
    for (int k = 0; k < NK; k++) {
        int unseen = s->pool[k] - s->hand[seat][k];
        if (unseen > 0 && pw[k] > mine)
            total += unseen;
    }
    return total;
}

/* The seat's legal plays, in the engine's order (hand order: descending key). */
static int options(const State *s, const Tables *t, int seat, int led, int *out)
{
    int m = 0;
    if (led >= 0) {
        const int *member = t->member + led * NK;
        for (int k = NK - 1; k >= 0; k--)
            if (s->hand[seat][k] > 0 && member[k])
                out[m++] = k;
        if (m)
            return m;
    }
    for (int k = NK - 1; k >= 0; k--)
        if (s->hand[seat][k] > 0)
            out[m++] = k;
    return m;
}

/* The first option with the largest (count, -keep). */
static int most_count(const Tables *t, const int *opts, int m)
{
    int best = opts[0];
    for (int i = 1; i < m; i++) {
        int k = opts[i];
        if (t->count[k] > t->count[best] || (t->count[k] == t->count[best] && t->keep2[k] < t->keep2[best]))
            best = k;
    }
    return best;
}

/* The first option with the smallest keep. */
static int least_keep(const Tables *t, const int *opts, int m)
{
    int best = opts[0];
    for (int i = 1; i < m; i++)
        if (t->keep2[opts[i]] < t->keep2[best])
            best = opts[i];
    return best;
}

static void winning(const State *s, const Tables *t, int led, int *seat, int *best)
{
    const int *pw = t->power + led * NK;
    *best = -1;
    *seat = s->tseat[0];
    for (int i = 0; i < s->n; i++)
        if (pw[s->tkey[i]] > *best) {
            *best = pw[s->tkey[i]];
            *seat = s->tseat[i];
        }
}

static int choose_nello(const State *s, const Tables *t, const int *opts, int m)
{
    if (!s->n) {
        int best = opts[0];
        for (int i = 1; i < m; i++) {
            int k = opts[i];
            if (HIGH[k] < HIGH[best] || (HIGH[k] == HIGH[best] && LOW[k] < LOW[best]))
                best = k;
        }
        return best;
    }
    int led = t->lead[s->tkey[0]], who, top;
    winning(s, t, led, &who, &top);
    const int *pw = t->power + led * NK;
    int best = -1;
    for (int i = 0; i < m; i++) {
        int k = opts[i];
        if (pw[k] >= top)
            continue;
        if (best < 0 || pw[k] > pw[best] || (pw[k] == pw[best] && HIGH[k] + LOW[k] > HIGH[best] + LOW[best]))
            best = k;
    }
    if (best >= 0)
        return best;
    best = opts[0];
    for (int i = 1; i < m; i++)
        if (pw[opts[i]] < pw[best])
            best = opts[i];
    return best;
}

static int choose_lead(const State *s, const Tables *t, int seat, const int *opts, int m)
{
    int beaten[NK], led[NK];
    int sure[NK], ns = 0, trumps[NK], nt = 0, plain[NK], np = 0;
    for (int i = 0; i < m; i++) {
        int k = opts[i];
        led[i] = t->lead[k];
        beaten[i] = beaten_by(s, t, seat, t->power[led[i] * NK + k], led[i]);
        if (!beaten[i])
            sure[ns++] = k;
        if (led[i] == TRUMP_SUIT)
            trumps[nt++] = i;
        else
            plain[np++] = k;
    }
    if (ns)
        return most_count(t, sure, ns);
    int unseen_trumps = 0;
    if (s->trump)
        for (int k = 0; k < NK; k++) {
            int unseen = s->pool[k] - s->hand[seat][k];
            if (unseen > 0 && has(k, s->trump))
                unseen_trumps += unseen;
        }
    int bidding_side = s->bidder == seat || s->bidder == (seat + 2) % SEATS;
    if (nt && bidding_side && nt * 2 >= unseen_trumps) {
        int best = trumps[0];
        for (int j = 1; j < nt; j++) {
            int i = trumps[j];
            if (beaten[i] < beaten[best] || (beaten[i] == beaten[best] && t->keep2[opts[i]] > t->keep2[opts[best]]))
                best = i;
        }
        return opts[best];
    }
    const int *pool = np ? plain : opts;
    int n = np ? np : m, best = pool[0];
    for (int i = 1; i < n; i++) {
        int k = pool[i], kc = t->count[k] > 0, bc = t->count[best] > 0;
        if (kc < bc || (kc == bc && t->keep2[k] < t->keep2[best]))
            best = k;
    }
    return best;
}

static int choose_follow(const State *s, const Tables *t, int seat, const int *opts, int m)
{
    int led = t->lead[s->tkey[0]], who, top;
    winning(s, t, led, &who, &top);
    const int *pw = t->power + led * NK;
    int players_left = 3 - s->n, count_in = 0;
    for (int i = 0; i < s->n; i++)
        count_in += t->count[s->tkey[i]];
    int partner_winning = who == (seat + 2) % SEATS;
    if (partner_winning && (players_left == 0 || beaten_by(s, t, seat, top, led) == 0))
        return most_count(t, opts, m);
    int winners[NK], nw = 0;
    for (int i = 0; i < m; i++)
        if (pw[opts[i]] > top)
            winners[nw++] = opts[i];
    if (nw && !partner_winning) {
        if (players_left) {
            int safe[NK], nsafe = 0;
            for (int i = 0; i < nw; i++)
                if (beaten_by(s, t, seat, pw[winners[i]], led) == 0)
                    safe[nsafe++] = winners[i];
            if (nsafe)
                return least_keep(t, safe, nsafe);
        }
        if (players_left == 0 || count_in || s->n >= 2)
            return least_keep(t, winners, nw);
    }
    return least_keep(t, opts, m);
}

/* Greedy's choice among the legal plays ``opts`` of the seat to move. */
static int choose(const State *s, const Tables *t, const int *opts, int m)
{
    int seat = s->cur;
    if (s->nello && s->bidder == seat)
        return choose_nello(s, t, opts, m);
    return s->n ? choose_follow(s, t, seat, opts, m) : choose_lead(s, t, seat, opts, m);
}

/* The seat after ``seat`` in the play: the next one round, passing over Nel-O's partner. */
static int next_seat(const State *s, int seat)
{
    int nxt = (seat + 1) % SEATS;
    return nxt == s->out ? (nxt + 1) % SEATS : nxt;
}

/* Play greedy's tiles until the hand ends or ``stop`` tricks are left; the keys played. */
static int playout(State *s, const Tables *t, unsigned char *out)
{
    int played = 0;
    while (s->done < TRICKS && !(s->stop && TRICKS - s->done <= s->stop)) {
        int opts[NK], led = s->n ? t->lead[s->tkey[0]] : -1;
        int m = options(s, t, s->cur, led, opts);
        if (!m)
            return -1;
        int key = m == 1 ? opts[0] : choose(s, t, opts, m);
        int seat = s->cur;
        out[played++] = (unsigned char)key;
        s->hand[seat][key]--;
        s->pool[key]--;
        s->tseat[s->n] = seat;
        s->tkey[s->n] = key;
        s->n++;
        if (s->n < s->trick_size) {
            s->cur = next_seat(s, seat);
            continue;
        }
        int who, top;
        winning(s, t, t->lead[s->tkey[0]], &who, &top);
        s->n = 0;
        s->done++;
        if (s->nello && who == s->bidder)
            break;
        s->cur = who;
    }
    return played;
}

static int parse(State *s, const unsigned char *b, Py_ssize_t len)
{
    memset(s, 0, sizeof(*s));
    if (len < 7)
        return 0;
    s->cur = b[0];
    s->out = b[1] == 255 ? -1 : b[1];
    s->done = b[2];
    s->stop = b[3];
    s->bidder = b[4];
    s->trump = b[5];
    s->n = b[6];
    s->nello = s->out >= 0; /* only Nel-O has a seat sitting out */
    s->trick_size = s->nello ? SEATS - 1 : SEATS;
    Py_ssize_t at = 7;
    if (s->cur >= SEATS || s->out >= SEATS || s->cur == s->out || s->n >= s->trick_size || s->bidder >= SEATS)
        return 0;
    if (at + 2 * s->n > len)
        return 0;
    for (int i = 0; i < s->n; i++) {
        s->tseat[i] = b[at++];
        s->tkey[i] = b[at++];
        if (s->tkey[i] >= NK)
            return 0;
    }
    for (int p = 0; p <= SEATS; p++) { /* the four hands, then the tiles lying out */
        if (at >= len)
            return 0;
        int k = b[at++];
        if (at + k > len)
            return 0;
        for (int i = 0; i < k; i++) {
            if (b[at] >= NK)
                return 0;
            int key = b[at++];
            s->pool[key]++;
            if (p < SEATS)
                s->hand[p][key]++;
        }
    }
    return at == len;
}

static PyObject *play(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer state_buf, table_buf;
    if (!PyArg_ParseTuple(args, "y*y*", &state_buf, &table_buf))
        return NULL;
    PyObject *result = NULL;
    State s;
    Py_ssize_t need = (Py_ssize_t)sizeof(int) * NK * (3 + 2 * NSUITS);
    if (table_buf.len != need) {
        PyErr_Format(PyExc_ValueError, "the tables must be %zd bytes, got %zd", need, table_buf.len);
        goto done;
    }
    if (!parse(&s, (const unsigned char *)state_buf.buf, state_buf.len)) {
        PyErr_SetString(PyExc_ValueError, "malformed Eighty playout state");
        goto done;
    }
    const int *ints = (const int *)table_buf.buf;
    Tables t = {ints, ints + NK, ints + NK + NSUITS * NK, ints + NK + 2 * NSUITS * NK,
                ints + 2 * NK + 2 * NSUITS * NK};
    unsigned char out[SEATS * TRICKS];
    int played = playout(&s, &t, out);
    if (played < 0) {
        PyErr_SetString(PyExc_ValueError, "a seat to play holds no tile: the Eighty playout state is inconsistent");
        goto done;
    }
    result = PyBytes_FromStringAndSize((const char *)out, played);
done:
    PyBuffer_Release(&state_buf);
    PyBuffer_Release(&table_buf);
    return result;
}

static PyMethodDef METHODS[] = {
    {"play", play, METH_VARARGS,
     "play(state, tables) -> bytes\n\n"
     "Greedy's tiles (their keys, in order) from the state to the hand's end, or until the\n"
     "state's stop count of tricks is left. The layouts are in the module's source."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_eighty_playout", "Compiled Eighty playouts for the ismcts bot.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__eighty_playout(void)
{
    for (int k = 0; k < NK; k++) {
        HIGH[k] = k / 8;
        LOW[k] = k % 8;
    }
    return PyModule_Create(&MODULE);
}
