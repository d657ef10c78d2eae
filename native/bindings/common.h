// Helpers shared by the game bindings: numpy arrays owned by Python, 128-bit ints, and the
// checks every value crossing the boundary goes through (ints that refuse bools, actions,
// seats, strs, lists, seeds as SeedSequence words), with the builders of lists and tuples.
// A game whose messages differ keeps its own reader on top of these.
#pragma once

#include <Python.h>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/rng.h"

namespace bge_py {

namespace nb = nanobind;

template <typename T>
using Array1 = nb::ndarray<nb::numpy, T, nb::ndim<1>>;

// A new 1-d numpy array of n zeroed values, owned by Python.
template <typename T>
Array1<T> new_array(size_t n, T** data_out) {
    T* data = new T[n]();
    nb::capsule owner(data, [](void* p) noexcept { delete[] static_cast<T*>(p); });
    *data_out = data;
    return Array1<T>(data, {n}, owner);
}

// A numpy bool array copied from n bytes that are 0 or 1.
inline Array1<bool> bool_array(const uint8_t* values, size_t n) {
    bool* data;
    auto array = new_array<bool>(n, &data);
    for (size_t i = 0; i < n; ++i) data[i] = values[i] != 0;
    return array;
}

// A numpy bool array of the low n bits of bits (an engine's legal actions as a bit set).
inline Array1<bool> bits_array(uint64_t bits, size_t n) {
    bool* data;
    auto array = new_array<bool>(n, &data);
    for (size_t i = 0; i < n; ++i) data[i] = (bits >> i) & 1u;
    return array;
}

// The float32 array a caller passed in (C-contiguous, 1-d), checked for its length.
using OutFloats = nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
inline float* checked_out(OutFloats& out, size_t n) {
    if (out.shape(0) != n) {
        throw std::invalid_argument("out has " + std::to_string(out.shape(0)) +
                                    " values; the observation has " + std::to_string(n));
    }
    return out.data();
}

// -- Python values in -----------------------------------------------------------------------
// Bools are ints to Python; every binding refuses them where it asks for an int.
inline bool is_int(PyObject* v) { return PyLong_Check(v) && !PyBool_Check(v); }
inline bool is_int(nb::handle v) { return is_int(v.ptr()); }

// A Python int (not a bool) that fits int64; false for anything else.
inline bool read_int64(PyObject* v, int64_t* out) {
    if (!is_int(v)) return false;
    int overflow = 0;
    const long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow != 0) return false;
    if (x == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return false;
    }
    *out = x;
    return true;
}

// An action from Python: true and its index when it is an int (of any size, not a bool) in
// 0 .. num_actions - 1; false for any other object, which no engine treats as an action.
inline bool action_of(nb::handle action, int num_actions, int* out) {
    int64_t a;
    if (!read_int64(action.ptr(), &a) || a < 0 || a >= num_actions) return false;
    *out = static_cast<int>(a);
    return true;
}

// IndexError "seat N is not a seat (0 to M)" for a seat outside 0 .. num_players - 1.
inline void check_seat(int64_t seat, int num_players) {
    if (seat < 0 || seat >= num_players) {
        throw std::out_of_range("seat " + std::to_string(seat) + " is not a seat (0 to " +
                                std::to_string(num_players - 1) + ")");
    }
}

// A seat from Python: TypeError "seat: not an int" for anything but an int; an int beyond
// int64 is refused by check_seat as seat -1.
inline int seat_of(nb::handle seat, int num_players) {
    int64_t x;
    if (!read_int64(seat.ptr(), &x)) {
        if (!is_int(seat)) throw nb::type_error("seat: not an int");
        x = -1;
    }
    check_seat(x, num_players);
    return static_cast<int>(x);
}

// The text of a str; false (with no Python error left set) when it cannot be UTF-8.
inline bool utf8_of(PyObject* v, std::string* out) {
    Py_ssize_t size = 0;
    const char* text = PyUnicode_AsUTF8AndSize(v, &size);
    if (text == nullptr) {
        PyErr_Clear();
        return false;
    }
    out->assign(text, static_cast<size_t>(size));
    return true;
}

// The ValueError and TypeError "<field>: <problem>" of a snapshot or argument check.
[[noreturn]] inline void fail(const std::string& field, const std::string& problem) {
    throw std::invalid_argument(field + ": " + problem);
}

[[noreturn]] inline void fail_type(const std::string& field, const std::string& problem) {
    throw nb::type_error((field + ": " + problem).c_str());
}

// An int (not a bool) in low..high: TypeError "<field>: not an int", else ValueError
// "<field>: out of range low..high".
inline int64_t get_int(nb::handle value, const std::string& field, int64_t low, int64_t high) {
    if (!is_int(value)) fail_type(field, "not an int");
    int64_t x;
    if (!read_int64(value.ptr(), &x) || x < low || x > high) {
        fail(field, "out of range " + std::to_string(low) + ".." + std::to_string(high));
    }
    return x;
}

// A str: TypeError "<field>: not a str", ValueError "<field>: not a valid str" (no UTF-8).
inline std::string get_str(nb::handle value, const std::string& field) {
    if (!PyUnicode_Check(value.ptr())) fail_type(field, "not a str");
    std::string text;
    if (!utf8_of(value.ptr(), &text)) fail(field, "not a valid str");
    return text;
}

// A list or tuple, held while its items are read (no Python code runs meanwhile).
struct Seq {
    nb::object owner;
    Py_ssize_t size = 0;
    PyObject** items = nullptr;
    nb::handle operator[](Py_ssize_t i) const { return items[i]; }
};

// A list or tuple of exactly `length` entries and at most `max_length` (-1: any number);
// TypeError "not a list", ValueError for the count.
inline Seq get_seq(nb::handle value, const std::string& field, Py_ssize_t length = -1,
                   Py_ssize_t max_length = -1) {
    PyObject* v = value.ptr();
    if (!PyList_Check(v) && !PyTuple_Check(v)) fail_type(field, "not a list");
    Seq seq;
    seq.owner = nb::borrow(value);
    seq.size = PySequence_Fast_GET_SIZE(v);
    seq.items = PySequence_Fast_ITEMS(v);
    if (length >= 0 && seq.size != length) {
        fail(field, "has " + std::to_string(seq.size) + " entries, not " + std::to_string(length));
    }
    if (max_length >= 0 && seq.size > max_length) {
        fail(field, "more than " + std::to_string(max_length) + " entries");
    }
    return seq;
}

// An int >= 0 (checked by the caller, with its own messages) as numpy's SeedSequence reads
// it: 32-bit words, least significant first, [0] for 0.
inline std::vector<uint32_t> seed_words(nb::handle seed) {
    std::vector<uint32_t> words;
    nb::object rest = nb::borrow(seed);
    const nb::object shift = nb::int_(32);
    do {
        const unsigned long long low = PyLong_AsUnsignedLongLongMask(rest.ptr());
        if (low == static_cast<unsigned long long>(-1) && PyErr_Occurred()) {
            throw nb::python_error();
        }
        words.push_back(static_cast<uint32_t>(low & 0xFFFFFFFFu));
        nb::object next = nb::steal(PyNumber_Rshift(rest.ptr(), shift.ptr()));
        if (!next.is_valid()) throw nb::python_error();
        rest = next;
    } while (_PyLong_Sign(rest.ptr()) != 0);
    return words;
}

// A seed from Python as seed_words: TypeError "<field>: not an int", ValueError
// "<field>: negative" or, with max_words > 0, "<field>: above 2**(32 max_words) - 1".
inline std::vector<uint32_t> get_seed_words(nb::handle value, const std::string& field,
                                            int max_words = 0) {
    PyObject* v = value.ptr();
    if (!is_int(v)) fail_type(field, "not an int");
    if (_PyLong_Sign(v) < 0) fail(field, "negative");
    if (max_words > 0 && _PyLong_NumBits(v) > static_cast<size_t>(32 * max_words)) {
        fail(field, "above 2**" + std::to_string(32 * max_words) + " - 1");
    }
    return seed_words(value);
}

// A _native.Pcg64 the caller passed (advanced in place by what draws from it): TypeError
// "<field>: not a Pcg64" for anything else, None included.
inline bge::Pcg64& pcg64_ref(nb::handle value, const char* field) {
    bge::Pcg64* rng = nullptr;
    if (!nb::try_cast<bge::Pcg64*>(value, rng, false) || rng == nullptr) {
        fail_type(field, "not a Pcg64");
    }
    return *rng;
}

// -- Python values out ----------------------------------------------------------------------
inline nb::object py_int(long long x) {
    PyObject* value = PyLong_FromLongLong(x);
    if (value == nullptr) throw nb::python_error();
    return nb::steal(value);
}

// A new tuple / list of n items made by make(i) (each an nb::object).
template <typename F>
nb::object tuple_of(int n, F make) {
    PyObject* t = PyTuple_New(n);
    if (t == nullptr) throw nb::python_error();
    nb::object out = nb::steal(t);
    for (int i = 0; i < n; ++i) PyTuple_SET_ITEM(t, i, make(i).release().ptr());
    return out;
}

template <typename F>
nb::object list_of(int n, F make) {
    PyObject* l = PyList_New(n);
    if (l == nullptr) throw nb::python_error();
    nb::object out = nb::steal(l);
    for (int i = 0; i < n; ++i) PyList_SET_ITEM(l, i, make(i).release().ptr());
    return out;
}

// The indices of the set bits of bits, ascending, as a list of ints.
inline nb::list bits_list(uint64_t bits) {
    nb::object out = list_of(__builtin_popcountll(bits), [&](int) {
        const int index = __builtin_ctzll(bits);
        bits &= bits - 1;
        return py_int(index);
    });
    return nb::steal<nb::list>(out.release());
}

// The first n of values as a tuple / list of ints.
template <typename T>
nb::tuple int_tuple(const T* values, int n) {
    nb::object out = tuple_of(n, [&](int i) { return py_int(static_cast<long long>(values[i])); });
    return nb::steal<nb::tuple>(out.release());
}

template <typename T>
nb::list int_list(const T* values, int n) {
    nb::object out = list_of(n, [&](int i) { return py_int(static_cast<long long>(values[i])); });
    return nb::steal<nb::list>(out.release());
}

// Python ints of up to 128 bits, to and from unsigned __int128.
inline nb::object int_from_u128(bge::u128 value) {
    nb::object high = nb::int_(static_cast<uint64_t>(value >> 64));
    nb::object low = nb::int_(static_cast<uint64_t>(value));
    return (high << nb::int_(64)) | low;
}

inline bge::u128 u128_from_int(nb::handle value, const char* field) {
    PyObject* v = value.ptr();
    if (!PyLong_Check(v) || PyBool_Check(v)) {
        throw std::invalid_argument(std::string(field) + ": not an integer");
    }
    const std::string range = std::string(field) + ": not in 0 .. 2**128 - 1";
    if (_PyLong_Sign(v) < 0 || _PyLong_NumBits(v) > 128) throw std::invalid_argument(range);
    nb::object shift = nb::int_(64);
    nb::object high = nb::steal(PyNumber_Rshift(v, shift.ptr()));
    if (!high.is_valid()) throw nb::python_error();
    const uint64_t low = PyLong_AsUnsignedLongLongMask(v);
    const uint64_t high64 = PyLong_AsUnsignedLongLongMask(high.ptr());
    return (static_cast<bge::u128>(high64) << 64) | low;
}

// numpy's bit_generator.state dict of a PCG64 and back (the snapshot field "rng").
inline nb::dict rng_state_dict(const bge::Pcg64& rng) {
    nb::dict inner;
    inner["state"] = int_from_u128(rng.state());
    inner["inc"] = int_from_u128(rng.inc());
    nb::dict out;
    out["bit_generator"] = "PCG64";
    out["state"] = inner;
    out["has_uint32"] = static_cast<int>(rng.has_uint32());
    out["uinteger"] = static_cast<uint64_t>(rng.uinteger());
    return out;
}

inline bge::Pcg64 rng_from_state_dict(nb::handle value) {
    nb::dict d = nb::cast<nb::dict>(value);
    if (nb::cast<std::string>(d["bit_generator"]) != "PCG64") {
        throw std::invalid_argument("rng.bit_generator: not PCG64");
    }
    nb::dict inner = nb::cast<nb::dict>(d["state"]);
    const bge::u128 state = u128_from_int(inner["state"], "rng.state.state");
    const bge::u128 inc = u128_from_int(inner["inc"], "rng.state.inc");
    const int64_t has = nb::cast<int64_t>(d["has_uint32"]);
    const int64_t uinteger = nb::cast<int64_t>(d["uinteger"]);
    if (has < 0 || has > 1) throw std::invalid_argument("rng.has_uint32: not 0 or 1");
    if (uinteger < 0 || uinteger > 0xFFFFFFFFll) {
        throw std::invalid_argument("rng.uinteger: not in 0 .. 2**32 - 1");
    }
    return bge::Pcg64::from_state(state, inc, has == 1, static_cast<uint32_t>(uinteger));
}

}  // namespace bge_py
