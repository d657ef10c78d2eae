// numpy's random generator, reproduced exactly: PCG64 seeded through SeedSequence, and the
// draw algorithms of numpy.random.Generator that the Python engines call. A seed therefore
// plays the same game on both engines.
//
//   numpy                                   here
//   np.random.default_rng(seed)             Pcg64::from_entropy({seed words})
//   np.random.default_rng((seed, i))        Pcg64::from_entropy({seed words, i words})
//   rng.integers(n)                         rng.integers(n)        (Lemire, 32 or 64 bit)
//   rng.permutation(n), rng.shuffle(a)      rng.permutation(n), rng.shuffle(a)
//   rng.bit_generator.state                 state, inc, has_uint32, uinteger
//
// The algorithms follow numpy's documented sources (bit_generator.pyx: SeedSequence;
// pcg64.h; distributions.c: bounded integers, random_interval; _generator.pyx: shuffle).
// tests/test_native_rng.py checks every one against numpy itself.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace bge {

using u128 = unsigned __int128;

// The 32-bit words numpy makes of a non-negative Python int: least significant first,
// [0] for zero (SeedSequence's _coerce_to_uint32_array).
inline void append_entropy_words(std::vector<uint32_t>& words, uint64_t value) {
    if (value == 0) {
        words.push_back(0);
        return;
    }
    while (value > 0) {
        words.push_back(static_cast<uint32_t>(value & 0xFFFFFFFFu));
        value >>= 32;
    }
}

class Pcg64 {
public:
    // PCG64's 128-bit multiplier (pcg64.h: PCG_DEFAULT_MULTIPLIER_128).
    static constexpr u128 kMultiplier =
        (static_cast<u128>(2549297995355413924ULL) << 64) + 4865540595714422341ULL;

    Pcg64() = default;

    // default_rng(entropy) for entropy given as SeedSequence words (see append_entropy_words).
    static Pcg64 from_entropy(const std::vector<uint32_t>& entropy) {
        uint32_t pool[4];
        mix_entropy(pool, entropy);
        uint32_t words[8];
        generate_state(pool, words, 8);
        // The uint64 view of the words is little-endian pairs (low word first).
        uint64_t v[4];
        for (int i = 0; i < 4; ++i) {
            v[i] = static_cast<uint64_t>(words[2 * i]) |
                   (static_cast<uint64_t>(words[2 * i + 1]) << 32);
        }
        Pcg64 rng;
        const u128 initstate = (static_cast<u128>(v[0]) << 64) | v[1];
        const u128 initseq = (static_cast<u128>(v[2]) << 64) | v[3];
        rng.state_ = 0;
        rng.inc_ = (initseq << 1) | 1u;
        rng.step();
        rng.state_ += initstate;
        rng.step();
        return rng;
    }

    // default_rng(seed) for an int seed >= 0.
    static Pcg64 from_seed(uint64_t seed) {
        std::vector<uint32_t> words;
        append_entropy_words(words, seed);
        return from_entropy(words);
    }

    // default_rng((a, b)) for two ints >= 0.
    static Pcg64 from_seed_pair(uint64_t a, uint64_t b) {
        std::vector<uint32_t> words;
        append_entropy_words(words, a);
        append_entropy_words(words, b);
        return from_entropy(words);
    }

    // A generator in a given bit_generator.state (inc must be odd).
    static Pcg64 from_state(u128 state, u128 inc, bool has_uint32, uint32_t uinteger) {
        if ((inc & 1u) == 0) throw std::invalid_argument("a PCG64 increment is odd");
        Pcg64 rng;
        rng.state_ = state;
        rng.inc_ = inc;
        rng.has_uint32_ = has_uint32;
        rng.uinteger_ = uinteger;
        return rng;
    }

    u128 state() const { return state_; }
    u128 inc() const { return inc_; }
    bool has_uint32() const { return has_uint32_; }
    uint32_t uinteger() const { return uinteger_; }

    uint64_t next_uint64() {
        step();
        const uint64_t high = static_cast<uint64_t>(state_ >> 64);
        const uint64_t low = static_cast<uint64_t>(state_);
        const unsigned rot = static_cast<unsigned>(state_ >> 122);
        const uint64_t x = high ^ low;
        return rot == 0 ? x : (x >> rot) | (x << (64 - rot));
    }

    // Half of a 64-bit draw; the other half is kept for the next call (pcg64_next32).
    uint32_t next_uint32() {
        if (has_uint32_) {
            has_uint32_ = false;
            return uinteger_;
        }
        const uint64_t next = next_uint64();
        has_uint32_ = true;
        uinteger_ = static_cast<uint32_t>(next >> 32);
        return static_cast<uint32_t>(next & 0xFFFFFFFFu);
    }

    // rng.random(): a double in [0, 1) from the top 53 bits of one 64-bit draw
    // (pcg64_next_double). The half of a draw kept for 32-bit draws stays as it is.
    double random() {
        return static_cast<double>(next_uint64() >> 11) * (1.0 / 9007199254740992.0);  // 2**-53
    }

    // rng.integers(high) for 1 <= high <= 2**63: a draw in [0, high) (Generator.integers,
    // int64).
    uint64_t integers(uint64_t high) {
        if (high < 1) throw std::invalid_argument("integers: high must be >= 1");
        return bounded_uint64(high - 1);
    }

    // A draw in [0, max] (random_bounded_uint64_fill, Lemire's method, not masked).
    uint64_t bounded_uint64(uint64_t max) {
        if (max == 0) return 0;
        if (max <= 0xFFFFFFFFull) {
            if (max == 0xFFFFFFFFull) return next_uint32();
            return bounded_lemire_uint32(static_cast<uint32_t>(max));
        }
        if (max == ~0ull) return next_uint64();
        return bounded_lemire_uint64(max);
    }

    // A draw in [0, max] by masked rejection (random_interval), as shuffles use.
    uint64_t interval(uint64_t max) {
        if (max == 0) return 0;
        uint64_t mask = max;
        mask |= mask >> 1;
        mask |= mask >> 2;
        mask |= mask >> 4;
        mask |= mask >> 8;
        mask |= mask >> 16;
        mask |= mask >> 32;
        uint64_t value;
        if (max <= 0xFFFFFFFFull) {
            while ((value = (next_uint32() & mask)) > max) {
            }
        } else {
            while ((value = (next_uint64() & mask)) > max) {
            }
        }
        return value;
    }

    // rng.shuffle(values) for a 1-d array (Fisher-Yates from the end).
    template <typename T>
    void shuffle(T* values, int64_t n) {
        for (int64_t i = n - 1; i >= 1; --i) {
            const int64_t j = static_cast<int64_t>(interval(static_cast<uint64_t>(i)));
            const T tmp = values[j];
            values[j] = values[i];
            values[i] = tmp;
        }
    }

    template <typename T>
    void shuffle(std::vector<T>& values) {
        shuffle(values.data(), static_cast<int64_t>(values.size()));
    }

    // rng.permutation(n): a shuffled arange(n).
    std::vector<int> permutation(int n) {
        std::vector<int> out(static_cast<size_t>(n < 0 ? 0 : n));
        for (int i = 0; i < n; ++i) out[static_cast<size_t>(i)] = i;
        shuffle(out);
        return out;
    }

private:
    void step() { state_ = state_ * kMultiplier + inc_; }

    uint32_t bounded_lemire_uint32(uint32_t max) {
        const uint32_t excl = max + 1;
        uint64_t m = static_cast<uint64_t>(next_uint32()) * excl;
        uint32_t leftover = static_cast<uint32_t>(m);
        if (leftover < excl) {
            const uint32_t threshold = (0xFFFFFFFFu - max) % excl;
            while (leftover < threshold) {
                m = static_cast<uint64_t>(next_uint32()) * excl;
                leftover = static_cast<uint32_t>(m);
            }
        }
        return static_cast<uint32_t>(m >> 32);
    }

    uint64_t bounded_lemire_uint64(uint64_t max) {
        const uint64_t excl = max + 1;
        u128 m = static_cast<u128>(next_uint64()) * excl;
        uint64_t leftover = static_cast<uint64_t>(m);
        if (leftover < excl) {
            const uint64_t threshold = (~0ull - max) % excl;
            while (leftover < threshold) {
                m = static_cast<u128>(next_uint64()) * excl;
                leftover = static_cast<uint64_t>(m);
            }
        }
        return static_cast<uint64_t>(m >> 64);
    }

    // SeedSequence (pool size 4, no spawn key): hash the entropy into the pool.
    static constexpr uint32_t kInitA = 0x43b0d7e5u, kMultA = 0x931e8875u;
    static constexpr uint32_t kInitB = 0x8b51f9ddu, kMultB = 0x58f38dedu;
    static constexpr uint32_t kMixMultL = 0xca01f9ddu, kMixMultR = 0x4973f715u;
    static constexpr unsigned kXShift = 16;

    static uint32_t hashmix(uint32_t value, uint32_t& hash_const) {
        value ^= hash_const;
        hash_const *= kMultA;
        value *= hash_const;
        value ^= value >> kXShift;
        return value;
    }

    static uint32_t mix(uint32_t x, uint32_t y) {
        uint32_t result = kMixMultL * x - kMixMultR * y;
        result ^= result >> kXShift;
        return result;
    }

    static void mix_entropy(uint32_t pool[4], const std::vector<uint32_t>& entropy) {
        uint32_t hash_const = kInitA;
        for (size_t i = 0; i < 4; ++i) {
            pool[i] = hashmix(i < entropy.size() ? entropy[i] : 0u, hash_const);
        }
        for (size_t src = 0; src < 4; ++src) {
            for (size_t dst = 0; dst < 4; ++dst) {
                if (src != dst) pool[dst] = mix(pool[dst], hashmix(pool[src], hash_const));
            }
        }
        for (size_t src = 4; src < entropy.size(); ++src) {
            for (size_t dst = 0; dst < 4; ++dst) {
                pool[dst] = mix(pool[dst], hashmix(entropy[src], hash_const));
            }
        }
    }

    static void generate_state(const uint32_t pool[4], uint32_t* out, int n_words) {
        uint32_t hash_const = kInitB;
        for (int i = 0; i < n_words; ++i) {
            uint32_t value = pool[i % 4];
            value ^= hash_const;
            hash_const *= kMultB;
            value *= hash_const;
            value ^= value >> kXShift;
            out[i] = value;
        }
    }

    u128 state_ = 0;
    u128 inc_ = 1;
    bool has_uint32_ = false;
    uint32_t uinteger_ = 0;
};

}  // namespace bge
