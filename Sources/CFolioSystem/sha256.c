// SHA-256's compression function on the x86 SHA extensions (SHA-NI): a first sync hashes
// every file it reads, and the portable Swift rounds were a tenth of its processor time.
// Checked at run time (CPUID); elsewhere, and on other processors, Swift's rounds run.
#include "CFolioSystem.h"

// FIPS 180-4, 4.2.2: kept here once, and read by Swift's portable rounds too.
const uint32_t folio_sha256_round_constants[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>

int folio_sha256_hardware(void) {
    unsigned int a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d)) return 0;
    // SSSE3 (byte shuffles) and SSE4.1 (blends) besides the SHA instructions.
    if (!(c & (1u << 9)) || !(c & (1u << 19))) return 0;
    if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return 0;
    return (b & (1u << 29)) != 0;
}


__attribute__((target("sha,sse4.1,ssse3")))
void folio_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t count) {
    // The instructions keep the state as two halves, A B E F and C D G H (lane 3 first).
    __m128i dcba = _mm_loadu_si128((const __m128i *)&state[0]);
    __m128i hgfe = _mm_loadu_si128((const __m128i *)&state[4]);
    __m128i cdab = _mm_shuffle_epi32(dcba, 0xB1);
    __m128i efgh = _mm_shuffle_epi32(hgfe, 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    // Big-endian words: the bytes of each 32-bit lane reversed.
    const __m128i big_endian = _mm_set_epi64x(0x0c0d0e0f08090a0bULL, 0x0405060700010203ULL);
    for (; count > 0; count--, data += 64) {
        const __m128i abef_before = abef, cdgh_before = cdgh;
        // x[g % 4] holds the four schedule words of group g (rounds 4g to 4g+3).
        __m128i x[4];
        for (int g = 0; g < 16; g++) {
            __m128i words;
            if (g < 4) {
                words = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(data + 16 * g)), big_endian);
            } else {
                // W[i-16] + s0(W[i-15]), plus W[i-7], then s1(W[i-2]) added lane by lane.
                __m128i sum = _mm_sha256msg1_epu32(x[g & 3], x[(g + 1) & 3]);
                sum = _mm_add_epi32(sum, _mm_alignr_epi8(x[(g + 3) & 3], x[(g + 2) & 3], 4));
                words = _mm_sha256msg2_epu32(sum, x[(g + 3) & 3]);
            }
            x[g & 3] = words;
            const __m128i message = _mm_add_epi32(words, _mm_loadu_si128((const __m128i *)&folio_sha256_round_constants[4 * g]));
            // Two rounds each; the halves trade places, and are back after the second.
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, message);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(message, 0x0E));
        }
        abef = _mm_add_epi32(abef, abef_before);
        cdgh = _mm_add_epi32(cdgh, cdgh_before);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&state[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&state[4], _mm_alignr_epi8(dchg, feba, 8));
}

#else

int folio_sha256_hardware(void) { return 0; }

void folio_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t count) {
    (void)state;
    (void)data;
    (void)count;
}

#endif
