// The shared core's bindings: numpy's generator, exposed so that tests can hold it to numpy.
#include <nanobind/stl/vector.h>

#include "bindings/common.h"
#include "core/rng.h"

namespace nb = nanobind;
using bge::Pcg64;

void bind_core(nb::module_& m) {
    nb::class_<Pcg64>(m, "Pcg64",
                      "numpy's PCG64 generator and Generator draws, reproduced exactly")
        .def_static("from_seed", &Pcg64::from_seed, nb::arg("seed"),
                    "np.random.default_rng(seed) for an int 0 <= seed < 2**64")
        .def_static("from_seed_pair", &Pcg64::from_seed_pair, nb::arg("a"), nb::arg("b"),
                    "np.random.default_rng((a, b))")
        .def_static(
            "from_state",
            [](nb::dict state) { return bge_py::rng_from_state_dict(state); },
            nb::arg("state"), "a generator in numpy's bit_generator.state")
        .def_prop_ro("state", [](const Pcg64& rng) { return bge_py::rng_state_dict(rng); })
        .def("next_uint64", &Pcg64::next_uint64)
        .def("next_uint32", &Pcg64::next_uint32)
        .def("random", &Pcg64::random, "rng.random(): a float in [0, 1)")
        .def("integers", &Pcg64::integers, nb::arg("high"), "rng.integers(high)")
        .def("permutation", &Pcg64::permutation, nb::arg("n"), "rng.permutation(n)")
        .def(
            "shuffle",
            [](Pcg64& rng, std::vector<int64_t> values) {
                rng.shuffle(values);
                return values;
            },
            nb::arg("values"), "a shuffled copy of values, as rng.shuffle shuffles an array");
}
