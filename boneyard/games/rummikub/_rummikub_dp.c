/*
 * The Rummikub arrangement search, compiled (boneyard.games._rummikub_dp).
 *
 * The model is the one described in sweep.py (the pure-Python fallback), in its simplest exact form:
 *
 * - A natural tile a-b (a >= b) sits in a run on row a (at position b), in a run on row b
 *   (at position a), or in the sum line of total a+b. The sweep visits the kinds in order
 *   of pip total, so every row is visited position by position (row r, position x is kind
 *   max(r,x)-min(r,x), at total r+x) and every sum line is complete when its total ends.
 * - Each row's runs are followed by an automaton over its open runs: n1, n2 and n3 runs of
 *   one, two and three-or-more positions so far (at most two open at once: covering a
 *   position more than twice never saves a joker; checked over all 3^7 rows). At each
 *   position the row's runs cover the position `cover` times, `cover - naturals` of them
 *   with jokers; runs of one or two must go on, longer ones may stop, new ones may begin.
 * - A sum line of plain sums holds one group (0 naturals, or 3+, or 1-2 plus jokers); with
 *   distinct sums the naturals split into g groups (see _distinct_options).
 * - Jokers: u counts those placed to make groups valid. The jokers that are left (table
 *   jokers, and the hand jokers played) must be 0, 3+ (their own group), or fit the
 *   room the groups have (any run, or a plain sum group, has room for two).
 *
 * States are keyed by the rows' automata, the current sum line and the room; each holds
 * the best value per number of jokers used. They are pruned by the jokers (used plus a
 * lower bound on those the open runs still need), by an upper bound on the value still
 * to come against a floor, and by dominance: with room for two, fewer jokers and no less
 * value beats more jokers. The path back gives, per kind, the copies played and where
 * they went; solver.py turns that into groups.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NU 5      /* jokers used: 0..4 (there are four jokers) */
#define COUNT 1000
#define BIG 99

/* ---- the row automaton ---------------------------------------------------------- */

static int ROW_N1[10], ROW_N2[10], ROW_N3[10];
static int ROW_ID[3][3][3];
typedef struct {
    uint8_t to, jokers;
} RowMove;
static RowMove ROW_MOVES[10][3][2][12];
static int ROW_NMOVES[10][3][2];

static void init_rows(void)
{
    int id = 0;
    memset(ROW_ID, -1, sizeof ROW_ID);
    for (int n3 = 0; n3 <= 2; n3++)
        for (int n2 = 0; n2 + n3 <= 2; n2++)
            for (int n1 = 0; n1 + n2 + n3 <= 2; n1++) {
                ROW_ID[n1][n2][n3] = id;
                ROW_N1[id] = n1;
                ROW_N2[id] = n2;
                ROW_N3[id] = n3;
                id++;
            }
    for (int s = 0; s < 10; s++)
        for (int c = 0; c <= 2; c++)
            for (int last = 0; last <= 1; last++) {
                int best[10];
                for (int i = 0; i < 10; i++)
                    best[i] = BIG;
                int n1 = ROW_N1[s], n2 = ROW_N2[s], n3 = ROW_N3[s];
                for (int cont = 0; cont <= n3; cont++)
                    for (int k = 0; k <= 2; k++) {
                        int cover = n1 + n2 + cont + k;
                        if (cover > 2 || cover < c)
                            continue;
                        int to;
                        if (last) {
                            if (k || n1)
                                continue; /* runs of one or two cannot end the row */
                            to = 0;
                        } else {
                            to = ROW_ID[k][n1][n2 + cont];
                        }
                        if (cover - c < best[to])
                            best[to] = cover - c;
                    }
                int n = 0;
                for (int i = 0; i < 10; i++)
                    if (best[i] < BIG) {
                        ROW_MOVES[s][c][last][n].to = (uint8_t)i;
                        ROW_MOVES[s][c][last][n].jokers = (uint8_t)best[i];
                        n++;
                    }
                ROW_NMOVES[s][c][last] = n;
            }
}

/* ---- distinct sum lines ------------------------------------------------------------ */

static const int KINDS_WITH_SUM[13] = {1, 1, 2, 2, 3, 3, 4, 3, 3, 2, 2, 1, 1};

typedef struct {
    int g, j, room;
} SumOption;

/* Ways to split n naturals of one total into distinct sum groups: (groups, jokers, room). */
static int distinct_options(int total, int n, int doubled, SumOption *out)
{
    if (n == 0) {
        out[0].g = 0;
        out[0].j = 0;
        out[0].room = 0;
        return 1;
    }
    int kinds = KINDS_WITH_SUM[total];
    if (kinds < 3)
        return 0;
    int count = 0;
    for (int g = doubled ? 2 : 1; g <= n; g++) {
        if (n > g * kinds)
            continue;
        int j = 3 * g - n;
        if (j < 0)
            j = 0;
        int room = g * kinds - n - j;
        if (room > 2)
            room = 2;
        int beaten = 0;
        for (int i = 0; i < count; i++)
            if (out[i].j <= j && out[i].room >= room)
                beaten = 1;
        if (!beaten) {
            out[count].g = g;
            out[count].j = j;
            out[count].room = room;
            count++;
        }
    }
    return count;
}

/* ---- search states ------------------------------------------------------------------ */

typedef unsigned __int128 Key;
/* key: 7 rows x 4 bits, then the sum line's naturals (4 bits), a doubled flag, the room (2 bits) */
#define ROW_BITS 4
#define M_OFF 84
#define DUP_BIT (((Key)1) << 88)
#define ROOM_OFF 89
#define ROW_OF(key, r) ((int)(((key) >> ((r) * ROW_BITS)) & 15))

typedef struct {
    Key key;
    int32_t val[NU];
    int32_t par[NU];
    uint16_t choice[NU];
    uint8_t paru[NU];
    int8_t need;
} Entry;

typedef struct {
    Entry *e;
    int32_t n, cap;
    int32_t *slots;
    uint32_t mask;
} Layer;

static int layer_init(Layer *L, int32_t cap)
{
    L->n = 0;
    L->cap = cap;
    L->e = (Entry *)malloc(sizeof(Entry) * (size_t)cap);
    uint32_t sc = 16;
    while (sc < (uint32_t)cap * 2)
        sc <<= 1;
    L->slots = (int32_t *)malloc(sizeof(int32_t) * sc);
    L->mask = sc - 1;
    if (!L->e || !L->slots)
        return -1;
    memset(L->slots, -1, sizeof(int32_t) * sc);
    return 0;
}

static void layer_free(Layer *L)
{
    free(L->e);
    free(L->slots);
    L->e = NULL;
    L->slots = NULL;
}

static inline uint32_t hash_key(Key key)
{
    uint64_t k = (uint64_t)key ^ ((uint64_t)(key >> 64) * 0xC2B2AE3D27D4EB4FULL);
    k ^= k >> 31;
    k *= 0x9E3779B97F4A7C15ULL;
    k ^= k >> 29;
    return (uint32_t)k;
}

static int layer_grow(Layer *L)
{
    int32_t cap = L->cap * 2;
    Entry *e = (Entry *)realloc(L->e, sizeof(Entry) * (size_t)cap);
    if (!e)
        return -1;
    L->e = e;
    L->cap = cap;
    uint32_t sc = (L->mask + 1) * 2;
    int32_t *slots = (int32_t *)malloc(sizeof(int32_t) * sc);
    if (!slots)
        return -1;
    memset(slots, -1, sizeof(int32_t) * sc);
    free(L->slots);
    L->slots = slots;
    L->mask = sc - 1;
    for (int32_t i = 0; i < L->n; i++) {
        uint32_t h = hash_key(L->e[i].key) & L->mask;
        while (slots[h] >= 0)
            h = (h + 1) & L->mask;
        slots[h] = i;
    }
    return 0;
}

/* The entry for key (created empty, with `need`, if new); -1 when memory runs out. */
static int32_t layer_get(Layer *L, Key key, int need)
{
    uint32_t h = hash_key(key) & L->mask;
    for (;;) {
        int32_t i = L->slots[h];
        if (i < 0)
            break;
        if (L->e[i].key == key)
            return i;
        h = (h + 1) & L->mask;
    }
    if (L->n >= L->cap) {
        if (layer_grow(L) < 0)
            return -1;
        h = hash_key(key) & L->mask;
        while (L->slots[h] >= 0)
            h = (h + 1) & L->mask;
    }
    int32_t i = L->n++;
    Entry *E = &L->e[i];
    E->key = key;
    E->need = (int8_t)need;
    for (int u = 0; u < NU; u++)
        E->val[u] = -1;
    L->slots[h] = i;
    return i;
}

static inline void offer(Entry *E, int u, int32_t val, int32_t par, int paru, int choice)
{
    if (val > E->val[u]) {
        E->val[u] = val;
        E->par[u] = par;
        E->paru[u] = (uint8_t)paru;
        E->choice[u] = (uint16_t)choice;
    }
}

/* Drop (state, u) pairs beaten by the same state with fewer jokers and no less value
 * (only where the state has room for two spare jokers, so that fewer used never hurts). */
static void dominance(Layer *L)
{
    for (int32_t i = 0; i < L->n; i++) {
        Entry *E = &L->e[i];
        if (((int)(E->key >> ROOM_OFF) & 3) != 2)
            continue;
        int32_t best = -1;
        for (int u = 0; u < NU; u++) {
            if (E->val[u] < 0)
                continue;
            if (E->val[u] <= best)
                E->val[u] = -1;
            else
                best = E->val[u];
        }
    }
}

/* ---- the sweep ------------------------------------------------------------------------ */

typedef struct {
    int close; /* 0: a kind, 1: close the sum line of total s */
    int a, b, s, t, h, gain;
    int pa, pb;   /* the positions rows a and b were at before this step (-1: not begun) */
    int32_t rest; /* the most value the steps after this one can still add */
} Step;

/* the fewest jokers one automaton state's open runs still need after position x */
static inline int auto_need(const int avail[7][8], int r, int x, int st)
{
    int n1 = ROW_N1[st], n2 = ROW_N2[st];
    if (!(n1 | n2))
        return 0;
    int need = 0;
    if (x + 1 > 6)
        return BIG;
    int d1 = n1 + n2 - avail[r][x + 1];
    if (d1 > 0)
        need += d1;
    if (n1) {
        if (x + 2 > 6)
            return BIG;
        int d2 = n1 - avail[r][x + 2];
        if (d2 > 0)
            need += d2;
    }
    return need;
}

static inline int row_need(const int avail[7][8], int r, int x, int st)
{
    return x < 0 ? 0 : auto_need(avail, r, x, st);
}

/* The ways a sum line can close: plain sums hold one group (none for no naturals), distinct
 * sums split into groups (distinct_options). Returns how many are written to opts. */
static int line_options(int distinct, int total, Key key, SumOption *opts)
{
    int m = (int)(key >> M_OFF) & 15;
    if (distinct)
        return distinct_options(total, m, (key & DUP_BIT) != 0, opts);
    opts[0].g = m ? 1 : 0;
    opts[0].j = (m && m < 3) ? 3 - m : 0;
    opts[0].room = m ? 2 : 0;
    return 1;
}

/* One way through a kind step: the state after it, the jokers it spends, the lower bound
 * on the jokers still needed, and the choice (copies played * 100 + to the sum line * 10 +
 * to row a). */
typedef struct {
    Key key;
    int dj, need, choice;
} Move;

#define MAX_MOVES 1024 /* 3 sum splits x 3 row splits x 10 x 10 row moves bounds it */

/* Every move of kind step S from a state (key, need) playing p hand copies, within jmax
 * jokers; returns how many were written to out. */
static int kind_moves(const Step *S, const int avail[7][8], int distinct, int jmax, Key key, int need, int p,
                      Move *out)
{
    int a = S->a, b = S->b, two = a != b;
    int last_a = b == 6, last_b = a == 6;
    int sum_ok = S->s >= 1 && S->s <= 11 && (!distinct || KINDS_WITH_SUM[S->s] >= 3);
    Key rest = key & ~((((Key)15) << (a * ROW_BITS)) | (((Key)15) << (b * ROW_BITS)) | (((Key)15) << M_OFF) |
                       (((Key)3) << ROOM_OFF));
    int sa = ROW_OF(key, a), sb = ROW_OF(key, b);
    int base_need = need - row_need(avail, a, S->pa, sa) - (two ? row_need(avail, b, S->pb, sb) : 0);
    int m = (int)(key >> M_OFF) & 15;
    int room = (int)(key >> ROOM_OFF) & 3;
    int n = S->t + p, count = 0;
    for (int xs = 0; xs <= (sum_ok ? n : 0); xs++) {
        int m2 = m + xs;
        if (!distinct && m2 > 3)
            m2 = 3;
        Key dup = distinct ? ((key & DUP_BIT) | (xs == 2 ? DUP_BIT : 0)) : 0;
        int left = n - xs;
        for (int xa = two ? 0 : left; xa <= left; xa++) {
            int xb = left - xa;
            int nma = ROW_NMOVES[sa][xa][last_a];
            int nmb = two ? ROW_NMOVES[sb][xb][last_b] : 1;
            for (int ia = 0; ia < nma; ia++)
                for (int ib = 0; ib < nmb; ib++) {
                    RowMove ma = ROW_MOVES[sa][xa][last_a][ia];
                    int db = 0, jb = 0;
                    if (two) {
                        RowMove mb = ROW_MOVES[sb][xb][last_b][ib];
                        db = mb.to;
                        jb = mb.jokers;
                    }
                    int dj = ma.jokers + jb;
                    int need2 = base_need + row_need(avail, a, b, ma.to) + (two ? row_need(avail, b, a, db) : 0);
                    if (dj + need2 > jmax)
                        continue;
                    int room2 = (xa || xb) ? 2 : room;
                    Move *M = &out[count++];
                    M->key = rest | ((Key)ma.to << (a * ROW_BITS)) | ((Key)m2 << M_OFF) | dup |
                             ((Key)room2 << ROOM_OFF) | (two ? (Key)db << (b * ROW_BITS) : 0);
                    M->dj = dj;
                    M->need = need2;
                    M->choice = p * 100 + xs * 10 + xa;
                }
        }
    }
    return count;
}

/* ---- first try: can every hand tile be played? ---------------------------------------- *
 * Nearly always the best play lays every hand tile that could go anywhere, and then any
 * one arrangement of them all is optimal. A depth-first search over the same steps, with
 * every hand tile played and failed states remembered, finds one quickly where the sweep
 * would build every arrangement of the table. */

#define EMPTY_KEY (~(Key)0)

typedef struct {
    const Step *steps;
    int nsteps;
    const int (*avail)[8];
    int jmax, jt, jh0, jh6, distinct;
    long long target;
    Key *memo;
    uint32_t memo_mask;
    int32_t memo_n;
    long long nodes, limit;
    int path[64];
    int bq, bu;
    int aborted;
    Move *moves; /* MAX_MOVES per step */
} Dfs;

static inline Key memo_key(int k, Key key, int u)
{
    return key | ((Key)k << 92) | ((Key)u << 100);
}

static int memo_has(const Dfs *D, Key mk)
{
    uint32_t h = hash_key(mk) & D->memo_mask;
    while (D->memo[h] != EMPTY_KEY) {
        if (D->memo[h] == mk)
            return 1;
        h = (h + 1) & D->memo_mask;
    }
    return 0;
}

static int memo_add(Dfs *D, Key mk)
{
    if ((uint32_t)(D->memo_n + 1) * 2 > D->memo_mask) {
        uint32_t sc = (D->memo_mask + 1) * 2;
        Key *m = (Key *)malloc(sizeof(Key) * sc);
        if (!m)
            return -1;
        for (uint32_t i = 0; i < sc; i++)
            m[i] = EMPTY_KEY;
        for (uint32_t i = 0; i <= D->memo_mask; i++) {
            if (D->memo[i] == EMPTY_KEY)
                continue;
            uint32_t h = hash_key(D->memo[i]) & (sc - 1);
            while (m[h] != EMPTY_KEY)
                h = (h + 1) & (sc - 1);
            m[h] = D->memo[i];
        }
        free(D->memo);
        D->memo = m;
        D->memo_mask = sc - 1;
    }
    uint32_t h = hash_key(mk) & D->memo_mask;
    while (D->memo[h] != EMPTY_KEY)
        h = (h + 1) & D->memo_mask;
    D->memo[h] = mk;
    D->memo_n++;
    return 0;
}

static int dfs(Dfs *D, int k, Key key, int u, int need)
{
    if (k == D->nsteps) {
        int room = (int)(key >> ROOM_OFF) & 3;
        int jh = D->jh0 + D->jh6;
        int q = jh; /* every hand joker, or this arrangement does not reach the target */
        int spare = D->jt + q - u;
        if (spare < 0 || !(spare == 0 || spare >= 3 || spare <= room))
            return 0;
        D->bq = q;
        D->bu = u;
        return 1;
    }
    Key mk = memo_key(k, key, u);
    if (memo_has(D, mk))
        return 0;
    if (++D->nodes > D->limit) {
        D->aborted = 1;
        return 0;
    }
    const Step *S = &D->steps[k];
    int jmax = D->jmax;
    if (S->close) {
        SumOption opts[8];
        int room = (int)(key >> ROOM_OFF) & 3;
        Key clean = key & ((((Key)1) << M_OFF) - 1);
        int nopt = line_options(D->distinct, S->s, key, opts);
        for (int o = 0; o < nopt; o++) {
            int u2 = u + opts[o].j;
            if (u2 + need > jmax)
                continue;
            int room2 = room + opts[o].room;
            if (room2 > 2)
                room2 = 2;
            if (dfs(D, k + 1, clean | ((Key)room2 << ROOM_OFF), u2, need)) {
                D->path[k] = o;
                return 1;
            }
            if (D->aborted)
                return 0;
        }
    } else {
        Move *moves = D->moves + (size_t)k * MAX_MOVES;
        int count = kind_moves(S, D->avail, D->distinct, jmax - u, key, need, S->h, moves);
        for (int jl = 0; jl <= jmax - u; jl++) /* fewer jokers first */
            for (int i = 0; i < count; i++) {
                if (moves[i].dj != jl)
                    continue;
                if (dfs(D, k + 1, moves[i].key, u + jl, moves[i].need)) {
                    D->path[k] = moves[i].choice;
                    return 1;
                }
                if (D->aborted)
                    return 0;
            }
    }
    if (memo_add(D, mk) < 0) {
        D->aborted = 1;
    }
    return 0;
}

/* The path of an arrangement playing every hand tile (as a Python list), Py_None when there
 * is none, NULL with an error set, or (PyObject *)1 when the search gave up. */
static PyObject *play_everything(Step *steps, int nsteps, const int avail[7][8], int jt, int jh0, int jh6,
                                 int distinct, long long limit, int *q_out, int *u_out)
{
    Dfs D;
    memset(&D, 0, sizeof D);
    D.steps = steps;
    D.nsteps = nsteps;
    D.avail = avail;
    D.jmax = jt + jh0 + jh6;
    D.jt = jt;
    D.jh0 = jh0;
    D.jh6 = jh6;
    D.distinct = distinct;
    D.limit = limit;
    D.memo_mask = 1023;
    D.memo = (Key *)malloc(sizeof(Key) * 1024);
    D.moves = (Move *)malloc(sizeof(Move) * MAX_MOVES * (size_t)nsteps);
    if (!D.memo || !D.moves) {
        free(D.memo);
        free(D.moves);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < 1024; i++)
        D.memo[i] = EMPTY_KEY;
    int found = dfs(&D, 0, 0, 0, 0);
    free(D.memo);
    free(D.moves);
    if (!found)
        return D.aborted ? (PyObject *)1 : Py_None;
    PyObject *path = PyList_New(nsteps);
    if (!path)
        return NULL;
    for (int k = 0; k < nsteps; k++) {
        Step *S = &steps[k];
        PyObject *item;
        int c = D.path[k];
        if (S->close)
            item = Py_BuildValue("(iii)", 1, S->s, c);
        else
            item = Py_BuildValue("(iiiiii)", 0, S->a, S->b, c / 100, (c / 10) % 10, c % 10);
        if (!item) {
            Py_DECREF(path);
            return NULL;
        }
        PyList_SET_ITEM(path, k, item);
    }
    *q_out = D.bq;
    *u_out = D.bu;
    return path;
}

static PyObject *solve(PyObject *self, PyObject *args)
{
    Py_buffer tb, hb;
    PyObject *result = NULL;
    int jt, jh0, jh6, distinct;
    long long floor_, limit;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*y*iiipLL", &tb, &hb, &jt, &jh0, &jh6, &distinct, &floor_, &limit))
        return NULL;
    if (tb.len != 49 || hb.len != 49) {
        PyBuffer_Release(&tb);
        PyBuffer_Release(&hb);
        PyErr_SetString(PyExc_ValueError, "table and hand counts must be 49 bytes (7x7, high*7+low)");
        return NULL;
    }
    int tc[7][7], hc[7][7];
    for (int a = 0; a < 7; a++)
        for (int b = 0; b < 7; b++) {
            tc[a][b] = ((unsigned char *)tb.buf)[a * 7 + b];
            hc[a][b] = ((unsigned char *)hb.buf)[a * 7 + b];
        }
    PyBuffer_Release(&tb);
    PyBuffer_Release(&hb);
    int jmax = jt + jh0 + jh6;
    if (jt < 0 || jh0 < 0 || jh6 < 0 || jmax > NU - 1) {
        PyErr_SetString(PyExc_ValueError, "between zero and four jokers");
        return NULL;
    }
    for (int a = 0; a < 7; a++)
        for (int b = 0; b <= a; b++)
            if (tc[a][b] + hc[a][b] > 2 || ((a == b) && (a == 0 || a == 6) && tc[a][b] + hc[a][b])) {
                PyErr_SetString(PyExc_ValueError, "at most two of each natural kind (jokers are counted apart)");
                return NULL;
            }

    /* naturals that exist at each row position (for the jokers-still-needed bound) */
    int avail[7][8];
    for (int r = 0; r < 7; r++) {
        for (int x = 0; x < 7; x++) {
            int hi = r > x ? r : x, lo = r > x ? x : r;
            avail[r][x] = tc[hi][lo] + hc[hi][lo];
        }
        avail[r][7] = 0;
    }

    Step steps[64];
    int nsteps = 0;
    for (int s = 0; s <= 12; s++) {
        int present = 0;
        for (int a = 6; a >= 0; a--) {
            int b = s - a;
            if (b < 0 || b > a)
                continue;
            Step *S = &steps[nsteps++];
            S->close = 0;
            S->a = a;
            S->b = b;
            S->s = s;
            S->t = tc[a][b];
            S->h = hc[a][b];
            S->gain = COUNT + s;
            present |= S->t + S->h;
        }
        if (present && s >= 1 && s <= 11) {
            Step *S = &steps[nsteps++];
            S->close = 1;
            S->s = s;
            S->a = S->b = S->t = S->h = S->gain = 0;
        }
    }
    int32_t acc = jh6 * (COUNT + 12) + jh0 * COUNT;
    for (int i = nsteps - 1; i >= 0; i--) {
        steps[i].rest = acc;
        acc += steps[i].h * steps[i].gain;
    }
    {
        int at[7];
        for (int r = 0; r < 7; r++)
            at[r] = -1;
        for (int i = 0; i < nsteps; i++) {
            if (steps[i].close)
                continue;
            steps[i].pa = at[steps[i].a];
            steps[i].pb = at[steps[i].b];
            at[steps[i].a] = steps[i].b;
            at[steps[i].b] = steps[i].a;
        }
    }
    /* acc is now the score of playing every hand tile */
    if (acc > floor_) {
        int q = 0, u = 0;
        PyObject *path = play_everything(steps, nsteps, (const int(*)[8])avail, jt, jh0, jh6, distinct,
                                         limit, &q, &u);
        if (path == NULL)
            return NULL;
        if (path != Py_None && path != (PyObject *)1)
            return Py_BuildValue("(LiiN)", (long long)acc, q, u, path);
    }

    Layer *layers = (Layer *)calloc((size_t)nsteps + 1, sizeof(Layer));
    if (!layers)
        return PyErr_NoMemory();
    long long spent = 0;
    int status = 0; /* 0 ok, 1 out of memory, 2 over the limit, 3 nothing */
    if (layer_init(&layers[0], 16) < 0) {
        status = 1;
        goto done;
    }
    {
        int32_t i = layer_get(&layers[0], 0, 0);
        layers[0].e[i].val[0] = 0;
    }
    for (int k = 0; k < nsteps && status == 0; k++) {
        Step *S = &steps[k];
        Layer *P = &layers[k], *N = &layers[k + 1];
        if (layer_init(N, P->n > 8 ? P->n * 2 : 16) < 0) {
            status = 1;
            break;
        }
        if (S->close) {
            SumOption opts[8];
            for (int32_t i = 0; i < P->n; i++) {
                Entry *E = &P->e[i];
                int room = (int)(E->key >> ROOM_OFF) & 3;
                Key clean = E->key & ((((Key)1) << M_OFF) - 1);
                int nopt = line_options(distinct, S->s, E->key, opts);
                for (int o = 0; o < nopt && !status; o++) {
                    int room2 = room + opts[o].room;
                    if (room2 > 2)
                        room2 = 2;
                    Key key = clean | ((Key)room2 << ROOM_OFF);
                    int32_t ni = -2;
                    for (int u = 0; u < NU; u++) {
                        if (E->val[u] < 0)
                            continue;
                        int u2 = u + opts[o].j;
                        if (u2 + E->need > jmax)
                            continue;
                        if (ni == -2) {
                            ni = layer_get(N, key, E->need);
                            if (ni < 0) {
                                status = 1;
                                break;
                            }
                        }
                        offer(&N->e[ni], u2, E->val[u], i, u, o);
                    }
                }
                if (status)
                    break;
            }
        } else {
            Move moves[MAX_MOVES];
            for (int32_t i = 0; i < P->n && !status; i++) {
                Entry *E = &P->e[i];
                int32_t top = -1;
                for (int u = 0; u < NU; u++)
                    if (E->val[u] > top)
                        top = E->val[u];
                if (top < 0)
                    continue;
                for (int p = 0; p <= S->h && !status; p++) {
                    int32_t add = p * S->gain;
                    if ((long long)top + add + S->rest <= floor_)
                        continue;
                    int count = kind_moves(S, (const int(*)[8])avail, distinct, jmax, E->key, E->need, p, moves);
                    for (int mi = 0; mi < count && !status; mi++) {
                        const Move *M = &moves[mi];
                        int32_t ni = -2;
                        for (int u = 0; u < NU; u++) {
                            if (E->val[u] < 0)
                                continue;
                            int u2 = u + M->dj;
                            if (u2 + M->need > jmax)
                                break;
                            int32_t v = E->val[u] + add;
                            if ((long long)v + S->rest <= floor_)
                                continue;
                            if (ni == -2) {
                                int32_t before = N->n;
                                ni = layer_get(N, M->key, M->need);
                                if (ni < 0) {
                                    status = 1;
                                    break;
                                }
                                if (N->n > before && ++spent > limit) {
                                    status = 2;
                                    break;
                                }
                            }
                            offer(&N->e[ni], u2, v, i, u, M->choice);
                        }
                    }
                }
            }
        }
        if (status)
            break;
        dominance(N);
#ifdef RKDP_DEBUG
        fprintf(stderr, "%d%s(%d,%d) %d\n", k, S->close ? "C" : "K", S->a, S->b, N->n);
#endif
        if (N->n == 0) {
            status = 3;
            break;
        }
    }

    if (status == 0) {
        /* the end: every row closed; leftover jokers must be 0, 3+, or fit the room */
        Layer *F = &layers[nsteps];
        long long best = -1;
        int32_t bi = -1;
        int bu = 0, bq = 0;
        int jh = jh0 + jh6;
        for (int32_t i = 0; i < F->n; i++) {
            Entry *E = &F->e[i];
            int room = (int)(E->key >> ROOM_OFF) & 3;
            for (int u = 0; u < NU; u++) {
                if (E->val[u] < 0)
                    continue;
                for (int q = jh; q >= 0; q--) {
                    int spare = jt + q - u;
                    if (spare < 0)
                        break;
                    if (spare == 0 || spare >= 3 || spare <= room) {
                        int six = q < jh6 ? q : jh6;
                        long long score = (long long)E->val[u] + (long long)q * COUNT + 12LL * six;
                        if (score > floor_ && score > best) {
                            best = score;
                            bi = i;
                            bu = u;
                            bq = q;
                        }
                        break;
                    }
                }
            }
        }
        if (bi < 0) {
            result = Py_None;
            Py_INCREF(result);
        } else {
            PyObject *path = PyList_New(nsteps);
            if (path) {
                int32_t i = bi;
                int u = bu;
                for (int k = nsteps; k >= 1; k--) {
                    Entry *E = &layers[k].e[i];
                    Step *S = &steps[k - 1];
                    PyObject *item;
                    if (S->close) {
                        item = Py_BuildValue("(iii)", 1, S->s, (int)E->choice[u]);
                    } else {
                        int c = E->choice[u];
                        item = Py_BuildValue("(iiiiii)", 0, S->a, S->b, c / 100, (c / 10) % 10, c % 10);
                    }
                    if (!item) {
                        Py_DECREF(path);
                        path = NULL;
                        break;
                    }
                    PyList_SET_ITEM(path, k - 1, item);
                    int32_t pi = E->par[u];
                    u = E->paru[u];
                    i = pi;
                }
            }
            if (path)
                result = Py_BuildValue("(LiiN)", best, bq, bu, path);
        }
    } else if (status == 1) {
        PyErr_NoMemory();
    } else if (status == 2) {
        result = PyLong_FromLong(-1);
    } else {
        result = Py_None;
        Py_INCREF(result);
    }

done:
    for (int k = 0; k <= nsteps; k++)
        layer_free(&layers[k]);
    free(layers);
    if (status == 1 && !PyErr_Occurred())
        PyErr_NoMemory();
    return result;
}

static PyMethodDef METHODS[] = {
    {"solve", solve, METH_VARARGS,
     "solve(table, hand, table_jokers, hand_00, hand_66, distinct, floor, limit)\n\n"
     "The best arrangement's (score, hand jokers played, jokers used, path), None when no\n"
     "arrangement scores above floor, or -1 when more than limit states were needed.\n"
     "table and hand are 49 bytes: the count of natural kind high-low at high*7+low."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_rummikub_dp", "The compiled Rummikub arrangement search.", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__rummikub_dp(void)
{
    init_rows();
    return PyModule_Create(&MODULE);
}
