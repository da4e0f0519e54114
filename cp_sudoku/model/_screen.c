/* The checker's screen (cp_sudoku/model/checker.py): the rules a grid of a puzzle of
 * units is asked first, in one C pass.
 *
 *   screen(grid, low, high, cells, ends) -> None | True | False
 *
 * ``grid``: a tuple or list, one value per cell.  ``cells``: the cell places
 * (indices into ``grid``) of every unit, one after the other, as native ints
 * (``array("i").tobytes()``); ``ends``: where each unit ends in ``cells``, the
 * same way.  The answer:
 *   - None: some value is not an ``int`` (exactly: a bool is not one) in
 *     ``low..high``, or ``grid`` is not a tuple or list;
 *   - False: every value is, and some unit repeats a value;
 *   - True: every value is, and no unit repeats one.
 * The rules are those of the checker's rule-by-rule loop (a value is an integer
 * of the range; a unit holds no value twice), which names what a grid breaks
 * when this answer is not True.  It shares no code with any back end.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>

#define ON_STACK 1024

static PyObject *screen(PyObject *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "screen(grid, low, high, cells, ends)");
        return NULL;
    }
    PyObject *grid = args[0];
    long low = PyLong_AsLong(args[1]);
    long high = PyLong_AsLong(args[2]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer cells, ends;
    if (PyObject_GetBuffer(args[3], &cells, PyBUF_SIMPLE) < 0) return NULL;
    if (PyObject_GetBuffer(args[4], &ends, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&cells);
        return NULL;
    }
    PyObject *answer = NULL;
    Py_ssize_t size;
    PyObject **items;
    if (PyTuple_CheckExact(grid)) {
        size = PyTuple_GET_SIZE(grid);
        items = &PyTuple_GET_ITEM(grid, 0);
    } else if (PyList_CheckExact(grid)) {
        size = PyList_GET_SIZE(grid);
        items = PySequence_Fast_ITEMS(grid);
    } else {
        answer = Py_None;
        goto done;
    }
    long span = high - low + 1;
    int stack_values[ON_STACK], stack_seen[ON_STACK];
    int *values = size <= ON_STACK ? stack_values : malloc(sizeof(int) * (size_t)size);
    int *seen = span <= ON_STACK ? stack_seen : calloc((size_t)span, sizeof(int));
    if (values == NULL || seen == NULL) {
        PyErr_NoMemory();
        goto release;
    }
    answer = Py_True;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = items[i];
        int overflow;
        long value = PyLong_CheckExact(item) ? PyLong_AsLongAndOverflow(item, &overflow) : 0;
        if (!PyLong_CheckExact(item) || overflow || value < low || value > high) {
            answer = Py_None;
            goto release;
        }
        values[i] = (int)(value - low);
    }
    if (span <= ON_STACK) {
        for (long v = 0; v < span; v++) seen[v] = 0;
    }
    const int *places = (const int *)cells.buf, *unit_ends = (const int *)ends.buf;
    Py_ssize_t units = ends.len / (Py_ssize_t)sizeof(int), start = 0;
    for (Py_ssize_t unit = 0; unit < units && answer == Py_True; unit++) {
        int stamp = (int)unit + 1;  /* seen[v] == stamp: v met in this unit */
        for (Py_ssize_t k = start; k < unit_ends[unit]; k++) {
            int place = places[k];
            if (place < 0 || place >= size) {
                PyErr_SetString(PyExc_IndexError, "a unit's cell is past the grid");
                answer = NULL;
                break;
            }
            int value = values[place];
            if (seen[value] == stamp) {
                answer = Py_False;
                break;
            }
            seen[value] = stamp;
        }
        start = unit_ends[unit];
    }
release:
    if (values != stack_values) free(values);
    if (seen != stack_seen) free(seen);
done:
    PyBuffer_Release(&cells);
    PyBuffer_Release(&ends);
    Py_XINCREF(answer);
    return answer;
}

static PyMethodDef methods[] = {
    {"screen", (PyCFunction)(void (*)(void))screen, METH_FASTCALL,
     "screen(grid, low, high, cells, ends): None (a value that is not an int of low..high), "
     "False (a unit repeats a value) or True."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_screen",
    "The checker's screen of a grid of a puzzle of units (see cp_sudoku/model/checker.py).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__screen(void) { return PyModule_Create(&module); }
