/*
 * Two-box playouts, compiled (boneyard.bots._twobox_playout).
 *
 * The ismcts bot's flat search for two-box plays each candidate action out to the end of
 * the hand on sampled games (see boneyard/bots/greedy/twobox.py). This module runs those
 * playouts: the rules of one hand of two-box (the count, stacking, cutthroat steals,
 * going out, the blocked hand, the target) and the greedy heuristic of greedy/twobox.py,
 * operation for operation (same values, same tie-break), so a playout here takes exactly
 * the actions the Python greedy bot would take on the engine (tests/bots check this
 * action by action, with the heuristic's weights passed in from Python, so that one source
 * defines them). It returns raw outcomes (final scores, the winner); the search's reward is
 * computed from them in Python (boneyard.bots.ismcts.seat_reward), never here.
 *
 * Tiles are numbered 0..27: high*(high+1)/2 + low. A state comes in as bytes:
 *
 *   0 players, 1 observer seat, 2 seat to move, 3 cutthroat, 4 round_to_five,
 *   5 spinner number, 6 spinner stacked (0/1), 7 passes in a row, 8 seat of the last
 *   scoring play that may be stolen (255: none),
 *   9 + 4*arm: arm holds tiles (0/1), its last tile, its open (outer) number, stacked (0/1),
 *   25: boneyard size B, then B tiles (the next draw is the last; outcomes() shuffles them),
 *   then per seat: hand size k, then k tiles.
 *
 * and the scores, the target and the stealable points as Python ints.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define NT 28
#define MAXP 6
#define MAXB 56
#define MAXSTEPS 4000

static int HI[NT], LO[NT], ID[7][7];

typedef struct {
    int n, me, cur, cutthroat, round5, d, spin_id, spin_stacked, passes;
    int steal_seat, steal_pts, target;
    int has[4], tile[4], outer[4], stacked[4];
    int bone[MAXB], nbone;
    int hand[MAXP][NT], size[MAXP], pips[MAXP];
    int hidden[NT]; /* copies in hands and the boneyard */
    int points[MAXP];
    int over, winner, hand_over;
} State;

typedef struct {
    double block, dbl, stranded, pip, out, follow;
} Weights;

/* ---- rules ----------------------------------------------------------------------- */

static int open_end(const State *s, int a)
{
    if (a >= 2 && !(s->has[0] && s->has[1]))
        return -1;
    return s->has[a] ? s->outer[a] : s->d;
}

static int count_of(const State *s, const int *has, const int *tile, const int *outer)
{
    int total = 0;
    for (int a = 0; a < 4; a++)
        if (has[a])
            total += HI[tile[a]] == LO[tile[a]] ? 2 * outer[a] : outer[a];
    if (!(has[0] && has[1]))
        total += 2 * s->d;
    return total;
}

static int count_now(const State *s)
{
    return count_of(s, s->has, s->tile, s->outer);
}

static int scored(int c)
{
    return c > 0 && c % 5 == 0 ? c : 0;
}

static void check_target(State *s, int seat)
{
    if (s->points[seat] >= s->target) {
        s->over = 1;
        s->winner = seat;
    }
}

static void remove_tile(State *s, int seat, int t)
{
    s->hand[seat][t]--;
    s->size[seat]--;
    s->pips[seat] -= HI[t] + LO[t];
    s->hidden[t]--;
}

static void end_domino(State *s, int seat)
{
    int award = 0;
    for (int p = 0; p < s->n; p++)
        if (p != seat)
            award += s->pips[p];
    if (s->round5)
        award = 5 * ((award + 2) / 5);
    s->points[seat] += award;
    s->hand_over = 1;
    check_target(s, seat);
}

static void end_blocked(State *s)
{
    int low = 1 << 30, total = 0;
    for (int p = 0; p < s->n; p++) {
        total += s->pips[p];
        if (s->pips[p] < low)
            low = s->pips[p];
    }
    int best = 1 << 30, who = -1, ties = 0;
    for (int p = 0; p < s->n; p++) {
        if (s->pips[p] != low)
            continue;
        /* the lowest tile: (pips, high) */
        int mine = 1 << 30;
        for (int t = 0; t < NT; t++)
            if (s->hand[p][t]) {
                int key = (HI[t] + LO[t]) * 8 + HI[t];
                if (key < mine)
                    mine = key;
            }
        if (mine < best) {
            best = mine;
            who = p;
            ties = 1;
        } else if (mine == best) {
            ties++;
        }
    }
    s->hand_over = 1;
    if (ties != 1)
        return;
    s->points[who] += total - 2 * s->pips[who];
    check_target(s, who);
}

/* kind 0: play tile t to arm (1-4); kind 1: stack t on arm (0: the spinner) */
static void apply_play(State *s, int kind, int t, int arm)
{
    int seat = s->cur;
    remove_tile(s, seat, t);
    s->passes = 0;
    if (kind == 0) {
        int a = arm - 1, end = open_end(s, a);
        s->has[a] = 1;
        s->tile[a] = t;
        s->outer[a] = HI[t] == end ? LO[t] : HI[t];
        s->stacked[a] = 0;
    } else if (arm == 0) {
        s->spin_stacked = 1;
    } else {
        s->stacked[arm - 1] = 1;
    }
    if (kind == 1 && s->steal_seat >= 0 && s->cutthroat && s->steal_seat != seat) {
        int amount = s->steal_pts * (HI[t] == LO[t] ? 2 : 1);
        s->points[seat] += amount;
        s->points[s->steal_seat] -= amount;
        s->steal_seat = seat;
        s->steal_pts = amount;
    } else {
        int pts = scored(count_now(s));
        s->steal_seat = pts ? seat : -1;
        s->steal_pts = pts;
        s->points[seat] += pts;
    }
    check_target(s, seat);
    if (s->over)
        return;
    if (s->size[seat] == 0) {
        end_domino(s, seat);
        return;
    }
    s->cur = (seat + 1) % s->n;
}

static void apply_draw(State *s)
{
    int t = s->bone[--s->nbone];
    s->hand[s->cur][t]++;
    s->size[s->cur]++;
    s->pips[s->cur] += HI[t] + LO[t];
}

static void apply_pass(State *s)
{
    s->passes++;
    if (s->passes == s->n) {
        end_blocked(s);
        return;
    }
    s->cur = (s->cur + 1) % s->n;
}

/* ---- the greedy heuristic (greedy/twobox.py, _value) ------------------------------- */

typedef struct {
    int kind, t, arm;
} Move;

static int list_plays(const State *s, Move *out)
{
    int k = 0, seat = s->cur;
    const int *hand = s->hand[seat];
    for (int a = 0; a < 4; a++) {
        int end = open_end(s, a);
        if (end < 0)
            continue;
        for (int x = 0; x < 7; x++) {
            int t = ID[end][x];
            if (hand[t])
                out[k++] = (Move){0, t, a + 1};
        }
    }
    for (int a = 0; a < 4; a++)
        if (s->has[a] && !s->stacked[a] && hand[s->tile[a]])
            out[k++] = (Move){1, s->tile[a], a + 1};
    if (!s->spin_stacked && !(s->has[0] && s->has[1] && s->has[2] && s->has[3]) && hand[s->spin_id])
        out[k++] = (Move){1, s->spin_id, 0};
    return k;
}

/* The sum over the unseen tiles (with multiplicity) of the most each could score next
 * on the layout (has, tile, outer): Layout.threat of greedy/twobox.py. */
static int threat(const State *s, const int *has, const int *tile, const int *outer, const int *unseen)
{
    int parts[4], total = 0;
    int best[NT];
    memset(best, 0, sizeof best);
    for (int a = 0; a < 4; a++) {
        parts[a] = has[a] ? (HI[tile[a]] == LO[tile[a]] ? 2 * outer[a] : outer[a]) : 0;
        total += parts[a];
    }
    int sides = has[0] && has[1];
    for (int a = 0; a < 4; a++) {
        int end;
        if (a >= 2 && !sides)
            continue;
        end = has[a] ? outer[a] : s->d;
        int f0 = has[0] || a == 0, f1 = has[1] || a == 1;
        int base = total - parts[a] + (f0 && f1 ? 0 : 2 * s->d);
        for (int x = 0; x < 7; x++) {
            int c = base + (x == end ? 2 * x : x);
            int sc = scored(c);
            int t = ID[end][x];
            if (sc && sc > best[t])
                best[t] = sc;
        }
    }
    int sum = 0;
    for (int t = 0; t < NT; t++)
        if (best[t])
            sum += best[t] * unseen[t];
    return sum;
}

static double value_of(const State *s, const Move *m, const int *unseen, double p, const Weights *w)
{
    int seat = s->cur, t = m->t;
    int has[4], tile[4], outer[4];
    memcpy(has, s->has, sizeof has);
    memcpy(tile, s->tile, sizeof tile);
    memcpy(outer, s->outer, sizeof outer);
    int score;
    if (m->kind == 1) {
        if (s->cutthroat && s->steal_seat >= 0 && s->steal_pts)
            score = s->steal_pts * (HI[t] == LO[t] ? 2 : 1) * 2;
        else
            score = scored(count_now(s));
    } else {
        int a = m->arm - 1, end = open_end(s, a);
        has[a] = 1;
        tile[a] = t;
        outer[a] = HI[t] == end ? LO[t] : HI[t];
        score = scored(count_of(s, has, tile, outer));
    }
    double th = p * (double)threat(s, has, tile, outer, unseen);
    double value = (double)score - w->block * th + w->pip * (double)(HI[t] + LO[t]);
    if (HI[t] == LO[t])
        value += w->dbl;
    /* doubles left in hand whose number shows on no open end after the play */
    int open[7] = {0};
    int sides = has[0] && has[1];
    for (int a = 0; a < 4; a++) {
        if (a >= 2 && !sides)
            continue;
        open[has[a] ? outer[a] : s->d] = 1;
    }
    int stranded = 0;
    for (int x = 0; x < 7; x++) {
        int dt = ID[x][x];
        int copies = s->hand[seat][dt] - (dt == t ? 1 : 0);
        if (copies > 0 && !open[x])
            stranded += copies;
    }
    value -= w->stranded * (double)stranded;
    /* open ends after the play that a tile left in hand matches (each arm counted); not
     * counted when the term is off, as in the search's playouts */
    if (w->follow != 0.0) {
        int follow = 0;
        for (int a = 0; a < 4; a++) {
            if (a >= 2 && !sides)
                continue;
            int e = has[a] ? outer[a] : s->d;
            for (int x = 0; x < 7; x++) {
                int u = ID[e][x];
                if (s->hand[seat][u] - (u == t ? 1 : 0) > 0) {
                    follow++;
                    break;
                }
            }
        }
        value += w->follow * (double)follow;
    }
    if (s->size[seat] == 1)
        value += w->out;
    return value;
}

/* greedy's tie-break: the larger notation ("stack" > "play", then high, low, arm) */
static int notation_above(const Move *a, const Move *b)
{
    if (a->kind != b->kind)
        return a->kind > b->kind;
    if (HI[a->t] != HI[b->t])
        return HI[a->t] > HI[b->t];
    if (LO[a->t] != LO[b->t])
        return LO[a->t] > LO[b->t];
    return a->arm > b->arm;
}

static int greedy_pick(const State *s, const Move *moves, int k, const Weights *w)
{
    int seat = s->cur, unseen[NT], total = 0;
    for (int t = 0; t < NT; t++) {
        unseen[t] = s->hidden[t] - s->hand[seat][t];
        total += unseen[t];
    }
    int nxt = (seat + 1) % s->n;
    double p = (double)s->size[nxt] / (double)(total > 1 ? total : 1);
    int best = 0;
    double best_value = 0;
    for (int i = 0; i < k; i++) {
        double v = value_of(s, &moves[i], unseen, p, w);
        if (i == 0 || v > best_value || (v == best_value && notation_above(&moves[i], &moves[best]))) {
            best = i;
            best_value = v;
        }
    }
    return best;
}

/* ---- playouts --------------------------------------------------------------------- */

/* Play greedy to the end of the hand (or the game). Records the actions when trace != NULL
 * (kind 0 play, 1 stack, 2 draw, 3 pass). */
static void playout(State *s, const Weights *w, PyObject *trace)
{
    Move moves[64];
    for (int step = 0; step < MAXSTEPS && !s->over && !s->hand_over; step++) {
        int k = list_plays(s, moves);
        if (k) {
            int i = greedy_pick(s, moves, k, w);
            if (trace) {
                PyObject *item = Py_BuildValue("(iii)", moves[i].kind, moves[i].t, moves[i].arm);
                PyList_Append(trace, item);
                Py_XDECREF(item);
            }
            apply_play(s, moves[i].kind, moves[i].t, moves[i].arm);
        } else if (s->nbone) {
            if (trace) {
                PyObject *item = Py_BuildValue("(iii)", 2, -1, -1);
                PyList_Append(trace, item);
                Py_XDECREF(item);
            }
            apply_draw(s);
        } else {
            if (trace) {
                PyObject *item = Py_BuildValue("(iii)", 3, -1, -1);
                PyList_Append(trace, item);
                Py_XDECREF(item);
            }
            apply_pass(s);
        }
    }
}

static uint64_t next_random(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* ---- parsing ------------------------------------------------------------------------ */

static int parse_state(State *s, Py_buffer *buf, PyObject *points, long target, long steal_pts)
{
    const unsigned char *b = buf->buf;
    Py_ssize_t len = buf->len, i;
    memset(s, 0, sizeof *s);
    if (len < 26)
        goto bad;
    s->n = b[0];
    s->me = b[1];
    s->cur = b[2];
    s->cutthroat = b[3] != 0;
    s->round5 = b[4] != 0;
    s->d = b[5];
    s->spin_stacked = b[6] != 0;
    s->passes = b[7];
    s->steal_seat = b[8] == 255 ? -1 : b[8];
    if (s->n < 2 || s->n > MAXP || s->me >= s->n || s->cur >= s->n || s->d > 6 || s->passes > s->n)
        goto bad;
    if (s->steal_seat >= s->n)
        goto bad;
    s->spin_id = ID[s->d][s->d];
    for (int a = 0; a < 4; a++) {
        s->has[a] = b[9 + 4 * a] != 0;
        s->tile[a] = b[10 + 4 * a];
        s->outer[a] = b[11 + 4 * a];
        s->stacked[a] = b[12 + 4 * a] != 0;
        if (s->has[a] && (s->tile[a] >= NT || s->outer[a] > 6))
            goto bad;
        if (s->has[a] && HI[s->tile[a]] != s->outer[a] && LO[s->tile[a]] != s->outer[a])
            goto bad;
    }
    i = 25;
    s->nbone = b[i++];
    if (s->nbone > MAXB || i + s->nbone > len)
        goto bad;
    for (int k = 0; k < s->nbone; k++) {
        int t = b[i++];
        if (t >= NT)
            goto bad;
        s->bone[k] = t;
        s->hidden[t]++;
    }
    for (int p = 0; p < s->n; p++) {
        if (i >= len)
            goto bad;
        int k = b[i++];
        if (i + k > len)
            goto bad;
        for (int j = 0; j < k; j++) {
            int t = b[i++];
            if (t >= NT)
                goto bad;
            s->hand[p][t]++;
            s->size[p]++;
            s->pips[p] += HI[t] + LO[t];
            s->hidden[t]++;
        }
    }
    if (i != len)
        goto bad;
    for (int t = 0; t < NT; t++)
        if (s->hidden[t] > 2)
            goto bad;
    if (!PyTuple_Check(points) || PyTuple_GET_SIZE(points) != s->n) {
        PyErr_SetString(PyExc_ValueError, "points must be a tuple with one score per seat");
        return 0;
    }
    for (int p = 0; p < s->n; p++) {
        long v = PyLong_AsLong(PyTuple_GET_ITEM(points, p));
        if (v == -1 && PyErr_Occurred())
            return 0;
        s->points[p] = (int)v;
    }
    s->target = (int)target;
    s->steal_pts = (int)steal_pts;
    return 1;
bad:
    PyErr_SetString(PyExc_ValueError, "malformed two-box state");
    return 0;
}

static int parse_weights(Weights *w, PyObject *tuple)
{
    double v[6];
    if (!PyTuple_Check(tuple) || PyTuple_GET_SIZE(tuple) != 6) {
        PyErr_SetString(PyExc_ValueError, "weights must be a tuple of 6 numbers");
        return 0;
    }
    for (int i = 0; i < 6; i++) {
        v[i] = PyFloat_AsDouble(PyTuple_GET_ITEM(tuple, i));
        if (v[i] == -1.0 && PyErr_Occurred())
            return 0;
    }
    *w = (Weights){v[0], v[1], v[2], v[3], v[4], v[5]};
    return 1;
}

/* a candidate (kind, tile, arm) is legal in s */
static int legal_candidate(const State *s, int kind, int t, int arm)
{
    Move moves[64];
    int k = list_plays(s, moves);
    for (int i = 0; i < k; i++)
        if (moves[i].kind == kind && moves[i].t == t && moves[i].arm == arm)
            return 1;
    return 0;
}

/* ---- the module's functions ----------------------------------------------------------- */

static PyObject *outcomes(PyObject *self, PyObject *args)
{
    Py_buffer state_buf, cand_buf;
    PyObject *points, *weights;
    long target, steal_pts;
    int rounds;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "y*O!lly*iKO!", &state_buf, &PyTuple_Type, &points, &target, &steal_pts,
                          &cand_buf, &rounds, &seed, &PyTuple_Type, &weights))
        return NULL;
    PyObject *result = NULL;
    State start, s;
    Weights w;
    int ncand = (int)(cand_buf.len / 3);
    const unsigned char *c = cand_buf.buf;
    if (!parse_state(&start, &state_buf, points, target, steal_pts) || !parse_weights(&w, weights))
        goto done;
    if (cand_buf.len % 3 || ncand < 1 || rounds < 1) {
        PyErr_SetString(PyExc_ValueError, "need candidates as (kind, tile, arm) byte triples and rounds >= 1");
        goto done;
    }
    for (int j = 0; j < ncand; j++)
        if (c[3 * j] == 2 ? start.nbone < 1
                          : (c[3 * j] > 1 || c[3 * j + 1] >= NT
                             || !legal_candidate(&start, c[3 * j], c[3 * j + 1], c[3 * j + 2]))) {
            PyErr_Format(PyExc_ValueError, "candidate %d is not a legal play, stack or draw", j);
            goto done;
        }
    int width = start.n + 1;
    result = PyList_New((Py_ssize_t)rounds * ncand * width);
    if (!result)
        goto done;
    uint64_t rng = seed;
    for (int r = 0; r < rounds; r++) {
        State world = start;
        /* a fresh order of the boneyard: uniformly random given the hands */
        for (int k = world.nbone - 1; k > 0; k--) {
                int j = (int)(next_random(&rng) % (uint64_t)(k + 1));
                int tmp = world.bone[k];
                world.bone[k] = world.bone[j];
                world.bone[j] = tmp;
            }
        for (int j = 0; j < ncand; j++) {
            s = world;
            if (c[3 * j] == 2)
                apply_draw(&s);
            else
                apply_play(&s, c[3 * j], c[3 * j + 1], c[3 * j + 2]);
            playout(&s, &w, NULL);
            Py_ssize_t at = ((Py_ssize_t)r * ncand + j) * width;
            for (int p = 0; p <= s.n; p++) {
                PyObject *v = PyLong_FromLong(p < s.n ? s.points[p] : (s.over ? s.winner : -1));
                if (!v) {
                    Py_CLEAR(result);
                    goto done;
                }
                PyList_SET_ITEM(result, at + p, v);
            }
        }
    }
done:
    PyBuffer_Release(&state_buf);
    PyBuffer_Release(&cand_buf);
    return result;
}

static PyObject *trace(PyObject *self, PyObject *args)
{
    Py_buffer state_buf;
    PyObject *points, *weights;
    long target, steal_pts;
    if (!PyArg_ParseTuple(args, "y*O!llO!", &state_buf, &PyTuple_Type, &points, &target, &steal_pts, &PyTuple_Type,
                          &weights))
        return NULL;
    PyObject *result = NULL, *actions = NULL, *scores = NULL;
    State s;
    Weights w;
    if (!parse_state(&s, &state_buf, points, target, steal_pts) || !parse_weights(&w, weights))
        goto done;
    actions = PyList_New(0);
    if (!actions)
        goto done;
    playout(&s, &w, actions);
    if (PyErr_Occurred())
        goto done;
    scores = PyList_New(s.n);
    if (!scores)
        goto done;
    for (int p = 0; p < s.n; p++)
        PyList_SET_ITEM(scores, p, PyLong_FromLong(s.points[p]));
    result = Py_BuildValue("(OOii)", actions, scores, s.over, s.over ? s.winner : -1);
done:
    Py_XDECREF(actions);
    Py_XDECREF(scores);
    PyBuffer_Release(&state_buf);
    return result;
}

static PyMethodDef METHODS[] = {
    {"outcomes", outcomes, METH_VARARGS,
     "outcomes(state, points, target, steal_points, candidates, rounds, seed, weights)\n\n"
     "Each candidate in each round (round-major) is played, then greedy plays every seat to\n"
     "the end of the hand; the outcome is one flat list, per playout the seats' final scores\n"
     "and the winner (-1 unless the game ended). Every round shuffles the boneyard afresh\n"
     "(the same order for every candidate of the round). The reward is computed from these\n"
     "outcomes in Python. candidates: bytes, (kind, tile, arm) per candidate: kind 0 a play,\n"
     "1 a stack, 2 a draw (tile and arm 0; greedy then plays on for the same seat)."},
    {"trace", trace, METH_VARARGS,
     "trace(state, points, target, steal_points, weights)\n\n"
     "Greedy play from the state to the end of the hand: (actions as (kind, tile, arm),\n"
     "final scores, game over, winner or -1). Kinds: 0 play, 1 stack, 2 draw, 3 pass."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_twobox_playout", "Compiled two-box playouts for the ismcts bot.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__twobox_playout(void)
{
    for (int h = 0; h < 7; h++)
        for (int l = 0; l <= h; l++) {
            int t = h * (h + 1) / 2 + l;
            HI[t] = h;
            LO[t] = l;
            ID[h][l] = ID[l][h] = t;
        }
    return PyModule_Create(&MODULE);
}
