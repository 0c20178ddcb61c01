/*
 * Game-independent helpers of the RL adapters in C: float32 packing, tile counts,
 * legal-action masks and legal maps.
 *
 * Nothing here knows a game: every observation is written by the game's Python encoding
 * (boneyard/rl/encodings/<id>.py and boneyard/rl/encoding.py), which is its one
 * definition, into a list of floats. What is left to C is what is the same for all games
 * and runs at every decision: packing that list as the float32 bytes a NumPy vector
 * wraps, the loop that counts a list of tiles into a block (the positions from the
 * encoding's own tile index), and turning the legal actions of a position into the int8
 * mask and the index -> action map the adapters hand out, from the indices the encoding
 * has already given each action.
 *
 * pack(values): a bytearray of the float32 value of each item of the list `values`
 * (floats or ints), each rounded from its double as a float32 store rounds it.
 *
 * counts(buf, base, items, copies, index, key): the tile-count scatter every game's
 * blocks of tiles use, into the list `buf`: for each item (its tile: the item itself, or
 * item[key] when key is not None), entry base + index[tile] is set to 1.0 (copies 1) or
 * grows by 1 / copies. `index` (tile -> position) comes from the encoding, so the tile
 * order is defined once, in Python; boneyard.rl.encoding.counts is the Python twin.
 *
 * mask(size, legal): a bytearray of `size` zero bytes with 1 at each key of the dict
 * `legal` (index -> action).
 *
 * legal_mask(known, legal_actions, size): (index -> action, mask bytes) for a position
 * whose listed actions (a tuple) all have an index in `known` (action -> index); None
 * when one has none yet or two share one, so that the caller's Python path indexes the
 * new action or says what is wrong.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>

static PyObject *pack(PyObject *self, PyObject *values)
{
    if (!PyList_Check(values))
        return PyErr_Format(PyExc_TypeError, "pack(values): a list of floats, got %.100s", Py_TYPE(values)->tp_name);
    Py_ssize_t n = PyList_GET_SIZE(values);
    PyObject *out = PyByteArray_FromStringAndSize(NULL, 4 * n);
    if (out == NULL)
        return NULL;
    char *bytes = PyByteArray_AS_STRING(out);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(values, i);
        double d;
        if (PyFloat_CheckExact(item)) {
            d = PyFloat_AS_DOUBLE(item);
        } else {
            d = PyFloat_AsDouble(item);  /* an int, or anything with __float__; else TypeError */
            if (d == -1.0 && PyErr_Occurred()) {
                Py_DECREF(out);
                return NULL;
            }
        }
        float f = (float)d;
        memcpy(bytes + 4 * i, &f, 4);
    }
    return out;
}

static PyObject *one;  /* the float 1.0, shared by every entry counts() sets */

static PyObject *counts(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 || !PyList_Check(args[0]) || !PyLong_Check(args[1]) || !PyLong_Check(args[3]) || !PyDict_Check(args[4]))
        return PyErr_Format(PyExc_TypeError,
                            "counts(buf: list, base: int, items: sequence, copies: int, index: dict, key)");
    PyObject *buf = args[0], *index = args[4], *key = args[5];
    Py_ssize_t base = PyLong_AsSsize_t(args[1]);
    long copies = PyLong_AsLong(args[3]);
    if ((base == -1 || copies == -1) && PyErr_Occurred())
        return NULL;
    if (copies < 1)
        return PyErr_Format(PyExc_ValueError, "copies must be at least 1, got %ld", copies);
    double step = 1.0 / (double)copies;
    PyObject *items = PySequence_Fast(args[2], "counts: items must be a sequence");
    if (items == NULL)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    PyObject **all = PySequence_Fast_ITEMS(items);
    for (Py_ssize_t j = 0; j < n; j++) {
        PyObject *tile = key == Py_None ? Py_NewRef(all[j]) : PyObject_GetItem(all[j], key);
        if (tile == NULL)
            goto fail;
        PyObject *found = PyDict_GetItemWithError(index, tile);
        if (found == NULL) {
            if (!PyErr_Occurred())
                PyErr_SetObject(PyExc_KeyError, tile);
            Py_DECREF(tile);
            goto fail;
        }
        Py_DECREF(tile);
        Py_ssize_t i = PyLong_AsSsize_t(found);
        if (i == -1 && PyErr_Occurred())
            goto fail;
        i += base;
        if (i < 0 || i >= PyList_GET_SIZE(buf)) {
            PyErr_Format(PyExc_IndexError, "counts: entry %zd outside the observation", i);
            goto fail;
        }
        PyObject *value;
        if (copies == 1) {
            value = Py_NewRef(one);
        } else {
            double old = PyFloat_AsDouble(PyList_GET_ITEM(buf, i));
            if (old == -1.0 && PyErr_Occurred())
                goto fail;
            value = PyFloat_FromDouble(old + step);
            if (value == NULL)
                goto fail;
        }
        PyList_SetItem(buf, i, value);  /* steals value, releases the old entry */
    }
    Py_DECREF(items);
    Py_RETURN_NONE;
fail:
    Py_DECREF(items);
    return NULL;
}

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

static PyObject *legal_mask(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3 || !PyDict_Check(args[0]) || !PyTuple_Check(args[1]) || !PyLong_Check(args[2]))
        return PyErr_Format(PyExc_TypeError, "legal_mask(known: dict, legal_actions: tuple, size: int)");
    PyObject *known = args[0], *legal = args[1];
    Py_ssize_t size = PyLong_AsSsize_t(args[2]);
    if (size < 0)
        return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_ValueError, "size must not be negative");
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
        Py_ssize_t i = (index == NULL || !PyLong_Check(index)) ? -1 : PyLong_AsSsize_t(index);
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

static PyMethodDef METHODS[] = {
    {"pack", pack, METH_O, "pack(values): the float32 bytes of a list of floats, as a bytearray."},
    {"counts", (PyCFunction)(void (*)(void))counts, METH_FASTCALL,
     "counts(buf, base, items, copies, index, key): set 1.0 or add 1 / copies at base + index[tile] of each item."},
    {"mask", mask, METH_VARARGS, "mask(size, legal): a bytearray of size, 1 at each key of the dict legal."},
    {"legal_mask", (PyCFunction)(void (*)(void))legal_mask, METH_FASTCALL,
     "legal_mask(known, legal_actions, size): (index -> action, mask bytes), or None: left to Python."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_observe",
                                    "Game-independent helpers of boneyard's RL adapters: float32 packing, tile counts, masks, legal maps.", -1,
                                    METHODS, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__observe(void)
{
    if ((one = PyFloat_FromDouble(1.0)) == NULL)
        return NULL;
    return PyModule_Create(&MODULE);
}
