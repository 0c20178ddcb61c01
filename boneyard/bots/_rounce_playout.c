/*
 * Rounce playouts, compiled (boneyard.bots._rounce_playout).
 *
 * The ismcts bot plays each iteration out to the end of the hand on a sampled game. In
 * Rounce most of that time went into the greedy heuristic's play-phase choices
 * (greedy/rounce.py), one Python call per tile. This module makes those choices for the
 * rest of the hand's tricks in one call, operation for operation as greedy/rounce.py's
 * _play makes them (same values, same tie-breaks: the first of equal options in the order
 * the engine lists them), and returns the plays, in order. The caller plays them on the
 * engine, which checks every one and scores the hand: no rule of scoring lives here.
 *
 * What cannot be shared lives here: the trick rules of one hand as the engine's
 * placement, beats, trick_winner and legal_plays state them (each play this module makes
 * is checked by the engine as it is applied, and tests/bots compare the plays with the
 * Python heuristic's over thousands of positions). The heuristic's tile values come in
 * from greedy/rounce.py (keep_value, times ten: whole numbers), so one source defines them.
 * Tiles are their Tile.key (high * 8 + low); a suit of 255 means off-suit or none named.
 *
 * The state buffer (bytes): 0 players n, 1 seat to move, 2 trump, 3 tricks finished,
 * 4 stop when this many tricks are left (0: play to the hand's end), 5 the turn-up's key
 * if it lies face up (not taken), else 255, 6 plays in the current trick m, then m
 * (seat, key, suit, rank) plays; then the count of tiles played in finished tricks and
 * their keys; then per seat: folded (0/1), hand size, its keys, discards, their keys.
 * keep: 64 native ints, ten times keep_value of each tile for this trump.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

#define NK 64
#define TRICKS 5
#define MAXP 6
#define NONE (-1)

typedef struct {
    int n, cur, trump, done, stop;
    int folded[MAXP];
    int m, tseat[MAXP], tkey[MAXP], tsuit[MAXP], trank[MAXP];
    int hand[MAXP][NK];
    int discard[MAXP][NK];
    int public_seen[NK]; /* played, or the turn-up lying face up */
} State;

typedef struct {
    int key, named; /* named: the suit a plain lead is named as, NONE for a plain "play" */
} Option;

static int HIGH[NK], LOW[NK], IS_TILE[NK]; /* IS_TILE: the key is a tile of the set */

static int has(int key, int number)
{
    return HIGH[key] == number || LOW[key] == number;
}

static int other(int key, int number)
{
    return HIGH[key] == number ? LOW[key] : HIGH[key];
}

static int is_trump(int key, int trump)
{
    return has(key, trump);
}

/* placement(): the suit (NONE: off-suit) and rank a tile counts as when played. */
static void placement(int key, int trump, int led, int named, int *suit, int *rank)
{
    if (is_trump(key, trump)) {
        *suit = trump;
        *rank = HIGH[key] == LOW[key] ? trump : other(key, trump);
        return;
    }
    if (led == NONE) {
        *suit = named == NONE ? HIGH[key] : named;
        *rank = other(key, *suit);
        return;
    }
    if (has(key, led)) {
        *suit = led;
        *rank = other(key, led);
        return;
    }
    *suit = NONE;
    *rank = -1;
}

/* beats(): play a beats play b in a trick led in ``led``. */
static int beats(int as, int ar, int bs, int br, int trump, int led)
{
    if (as == trump)
        return bs != trump || ar > br;
    if (bs == trump)
        return 0;
    return as == led && (bs != led || ar > br);
}

static int trick_winner(const State *s)
{
    int led = s->tsuit[0], best = 0;
    for (int i = 1; i < s->m; i++)
        if (beats(s->tsuit[i], s->trank[i], s->tsuit[best], s->trank[best], s->trump, led))
            best = i;
    return best;
}

/* legal_plays(): the seat's legal plays in the engine's order (hand order: descending key). */
static int legal(const State *s, int seat, Option *out)
{
    const int *hand = s->hand[seat];
    int trump = s->trump, trumps = 0, m = 0;
    for (int k = 0; k < NK; k++)
        if (hand[k] && is_trump(k, trump))
            trumps++;
    if (!s->m) {
        int only_trumps = trumps && (s->done > 0 || trumps >= 3);
        for (int k = NK - 1; k >= 0; k--) {
            if (!hand[k] || (only_trumps && !is_trump(k, trump)))
                continue;
            if (is_trump(k, trump) || HIGH[k] == LOW[k]) {
                out[m++] = (Option){k, NONE};
            } else {
                out[m++] = (Option){k, HIGH[k]};
                out[m++] = (Option){k, LOW[k]};
            }
        }
        return m;
    }
    int led = s->tsuit[0];
    for (int k = NK - 1; k >= 0; k--) {
        if (!hand[k])
            continue;
        if (led == trump ? is_trump(k, trump) : has(k, led) && !is_trump(k, trump))
            out[m++] = (Option){k, NONE};
    }
    if (m)
        return m;
    for (int k = NK - 1; k >= 0; k--)
        if (hand[k] && (trumps < 3 || is_trump(k, trump)))
            out[m++] = (Option){k, NONE};
    return m;
}

static int unseen(const State *s, int seat, int k)
{
    return IS_TILE[k] && !(s->public_seen[k] || s->hand[seat][k] || s->discard[seat][k]);
}

/* _threats() times two: how many unseen tiles could beat the play (a possible ruff counts half). */
static int threats2(const State *s, int seat, int suit, int rank, int led)
{
    int trump = s->trump, higher = 0, trumps = 0, count = 0;
    for (int k = 0; k < NK; k++) {
        if (!unseen(s, seat, k))
            continue;
        if (is_trump(k, trump)) {
            trumps++;
            int r = HIGH[k] == LOW[k] ? trump : other(k, trump);
            if (r > rank)
                higher++;
        } else if (led != NONE && has(k, led)) {
            if (suit == NONE || suit != led || other(k, led) > rank)
                count++;
        }
    }
    if (suit == trump)
        return led == trump ? 2 * higher : higher;
    return 2 * count + trumps;
}

static int least_keep(const Option *opts, const int *idx, int m, const int *keep)
{
    int best = idx[0];
    for (int i = 1; i < m; i++)
        if (keep[opts[idx[i]].key] < keep[opts[best].key])
            best = idx[i];
    return best;
}

static int least_threat(const Option *opts, const int *idx, int m, const int *threat, const int *keep)
{
    int best = idx[0];
    for (int i = 1; i < m; i++) {
        int j = idx[i];
        if (threat[j] < threat[best] || (threat[j] == threat[best] && keep[opts[j].key] < keep[opts[best].key]))
            best = j;
    }
    return best;
}

/* greedy/rounce.py's _play: the index of the chosen option. */
static int choose(const State *s, const Option *opts, int m, const int *keep)
{
    int seat = s->cur, trump = s->trump;
    int suit[2 * NK], rank[2 * NK], threat[2 * NK], all[2 * NK], pick[2 * NK], np = 0;
    int led_now = s->m ? s->tsuit[0] : NONE;
    for (int i = 0; i < m; i++) {
        placement(opts[i].key, trump, led_now, opts[i].named, &suit[i], &rank[i]);
        int led = s->m ? s->tsuit[0] : suit[i];
        threat[i] = threats2(s, seat, suit[i], rank[i], led);
        all[i] = i;
    }
    if (!s->m) {
        for (int i = 0; i < m; i++)
            if (threat[i] == 0)
                pick[np++] = i;
        if (np)
            return least_keep(opts, pick, np, keep);
        return least_threat(opts, all, m, threat, keep);
    }
    int led = s->tsuit[0], w = trick_winner(s);
    for (int i = 0; i < m; i++)
        if (beats(suit[i], rank[i], s->tsuit[w], s->trank[w], trump, led))
            pick[np++] = i;
    if (!np)
        return least_keep(opts, all, m, keep);
    int still_in = 0;
    for (int p = 0; p < s->n; p++)
        still_in += !s->folded[p];
    if (s->m == still_in - 1)
        return least_keep(opts, pick, np, keep);
    int safe[2 * NK], ns = 0;
    for (int i = 0; i < np; i++)
        if (threat[pick[i]] == 0)
            safe[ns++] = pick[i];
    if (ns)
        return least_keep(opts, safe, ns, keep);
    return least_threat(opts, pick, np, threat, keep);
}

static int next_in(const State *s, int seat)
{
    int nxt = (seat + 1) % s->n;
    while (s->folded[nxt])
        nxt = (nxt + 1) % s->n;
    return nxt;
}

/* Play greedy's tiles until the hand ends or ``stop`` tricks are left; (key, named) pairs. */
static int playout(State *s, const int *keep, unsigned char *out)
{
    int played = 0, playing = 0;
    for (int p = 0; p < s->n; p++)
        playing += !s->folded[p];
    while (s->done < TRICKS && !(s->stop && TRICKS - s->done <= s->stop)) {
        Option opts[2 * NK];
        int m = legal(s, s->cur, opts);
        if (!m)
            return -1;
        Option o = opts[m == 1 ? 0 : choose(s, opts, m, keep)];
        int seat = s->cur;
        out[2 * played] = (unsigned char)o.key;
        out[2 * played + 1] = (unsigned char)(o.named == NONE ? 255 : o.named);
        played++;
        s->hand[seat][o.key]--;
        s->public_seen[o.key] = 1;
        placement(o.key, s->trump, s->m ? s->tsuit[0] : NONE, o.named, &s->tsuit[s->m], &s->trank[s->m]);
        s->tseat[s->m] = seat;
        s->tkey[s->m] = o.key;
        s->m++;
        if (s->m < playing) {
            s->cur = next_in(s, seat);
            continue;
        }
        s->cur = s->tseat[trick_winner(s)];
        s->m = 0;
        s->done++;
    }
    return played;
}

static int parse(State *s, const unsigned char *b, Py_ssize_t len)
{
    memset(s, 0, sizeof(*s));
    if (len < 7)
        return 0;
    s->n = b[0];
    s->cur = b[1];
    s->trump = b[2];
    s->done = b[3];
    s->stop = b[4];
    int turn_up = b[5];
    s->m = b[6];
    if (s->n < 2 || s->n > MAXP || s->cur >= s->n || s->trump > 6 || s->m >= s->n || s->done > TRICKS)
        return 0;
    if (turn_up != 255) {
        if (turn_up >= NK)
            return 0;
        s->public_seen[turn_up] = 1;
    }
    Py_ssize_t at = 7;
    if (at + 4 * s->m > len)
        return 0;
    for (int i = 0; i < s->m; i++) {
        s->tseat[i] = b[at++];
        s->tkey[i] = b[at++];
        int suit = b[at++];
        s->tsuit[i] = suit == 255 ? NONE : suit;
        s->trank[i] = (int)b[at++] - 1;
        if (s->tkey[i] >= NK || s->tseat[i] >= s->n)
            return 0;
        s->public_seen[s->tkey[i]] = 1;
    }
    if (s->m && s->tsuit[0] == NONE)
        return 0;
    if (at >= len)
        return 0;
    int gone = b[at++];
    if (at + gone > len)
        return 0;
    for (int i = 0; i < gone; i++) {
        if (b[at] >= NK)
            return 0;
        s->public_seen[b[at++]] = 1;
    }
    for (int p = 0; p < s->n; p++) {
        if (at + 2 > len)
            return 0;
        s->folded[p] = b[at++];
        int k = b[at++];
        if (at + k + 1 > len)
            return 0;
        for (int i = 0; i < k; i++) {
            if (b[at] >= NK)
                return 0;
            s->hand[p][b[at++]]++;
        }
        int d = b[at++];
        if (at + d > len)
            return 0;
        for (int i = 0; i < d; i++) {
            if (b[at] >= NK)
                return 0;
            s->discard[p][b[at++]] = 1;
        }
    }
    return at == len && !s->folded[s->cur];
}

static PyObject *play(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer state_buf, keep_buf;
    if (!PyArg_ParseTuple(args, "y*y*", &state_buf, &keep_buf))
        return NULL;
    PyObject *result = NULL;
    State s;
    if (keep_buf.len != (Py_ssize_t)sizeof(int) * NK) {
        PyErr_Format(PyExc_ValueError, "the tile values must be %zd bytes, got %zd", (Py_ssize_t)sizeof(int) * NK,
                     keep_buf.len);
        goto done;
    }
    if (!parse(&s, (const unsigned char *)state_buf.buf, state_buf.len)) {
        PyErr_SetString(PyExc_ValueError, "malformed Rounce playout state");
        goto done;
    }
    unsigned char out[2 * MAXP * TRICKS];
    int played = playout(&s, (const int *)keep_buf.buf, out);
    if (played < 0) {
        PyErr_SetString(PyExc_ValueError, "a seat to play holds no tile: the Rounce playout state is inconsistent");
        goto done;
    }
    result = PyBytes_FromStringAndSize((const char *)out, 2 * played);
done:
    PyBuffer_Release(&state_buf);
    PyBuffer_Release(&keep_buf);
    return result;
}

static PyMethodDef METHODS[] = {
    {"play", play, METH_VARARGS,
     "play(state, keep) -> bytes\n\n"
     "Greedy's plays from the state to the hand's end, or until the state's stop count of\n"
     "tricks is left: (key, named suit or 255) pairs, in order. The layouts are in the\n"
     "module's source."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_rounce_playout", "Compiled Rounce playouts for the ismcts bot.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__rounce_playout(void)
{
    for (int k = 0; k < NK; k++) {
        HIGH[k] = k / 8;
        LOW[k] = k % 8;
        IS_TILE[k] = HIGH[k] <= 6 && LOW[k] <= HIGH[k];
    }
    return PyModule_Create(&MODULE);
}
