// Helpers shared by the game bindings: numpy arrays owned by Python, 128-bit ints, and the
// checks every value crossing the boundary goes through.
#pragma once

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

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

// The float32 array a caller passed in (C-contiguous, 1-d), checked for its length.
using OutFloats = nb::ndarray<float, nb::ndim<1>, nb::c_contig, nb::device::cpu>;
inline float* checked_out(OutFloats& out, size_t n) {
    if (out.shape(0) != n) {
        throw std::invalid_argument("out has " + std::to_string(out.shape(0)) +
                                    " values; the observation has " + std::to_string(n));
    }
    return out.data();
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

// An action index from Python: any int; out of range is answered by the engine's check.
inline void check_seat(int64_t seat, int num_players) {
    if (seat < 0 || seat >= num_players) {
        throw std::out_of_range("seat " + std::to_string(seat) + " is not a seat (0 to " +
                                std::to_string(num_players - 1) + ")");
    }
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
