/*
 * Game-independent helpers of the RL adapters in C: legal-action masks and legal maps.
 *
 * Nothing here knows a game: every observation is written by the game's Python encoding
 * (boneyard/rl/encodings/<id>.py and boneyard/rl/encoding.py), which is its one
 * definition. What is left to C is the part of every step that is the same for all
 * games and runs once per decision: turning the legal actions of a position into the
 * int8 mask and the index -> action map the adapters hand out, from the indices the
 * encoding has already given each action.
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
    {"mask", mask, METH_VARARGS, "mask(size, legal): a bytearray of size, 1 at each key of the dict legal."},
    {"legal_mask", (PyCFunction)(void (*)(void))legal_mask, METH_FASTCALL,
     "legal_mask(known, legal_actions, size): (index -> action, mask bytes), or None: left to Python."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_observe",
                                    "Game-independent helpers of boneyard's RL adapters: masks and legal maps.", -1,
                                    METHODS, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__observe(void)
{
    return PyModule_Create(&MODULE);
}
