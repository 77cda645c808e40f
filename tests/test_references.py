"""Our numbers checked against reference implementations: scipy, and C sfc16."""

import math
import shutil
import subprocess

import pytest
from scipy.stats import binom

from dicetower.core.health import ALPHA_BITS, APT_CUTOFFS, rct_cutoff
from dicetower.core.replay import SeededSource

ALPHA = 2.0**-ALPHA_BITS


@pytest.mark.parametrize("window,h", sorted(APT_CUTOFFS))
def test_adaptive_proportion_cutoffs_match_sp800_90b(window, h):
    # SP 800-90B 4.4.2: C = 1 + CRITBINOM(W, 2**-H, 1 - alpha)
    assert APT_CUTOFFS[(window, h)] == 1 + int(binom.ppf(1 - ALPHA, window, 2.0**-h))


@pytest.mark.parametrize("window,h,cutoff", [(1024, 0.8, 664), (1024, 1.0, 589), (512, 1, 311), (512, 8, 13)])
def test_the_formula_reproduces_sp800_90b_table_2(window, h, cutoff):
    # Table 2 of SP 800-90B is printed for alpha = 2**-20; the same formula
    # with our alpha gives APT_CUTOFFS.
    assert 1 + int(binom.ppf(1 - 2.0**-20, window, 2.0**-h)) == cutoff


@pytest.mark.parametrize("h", [0.5, 0.8, 1.0, 7, 8])
def test_repetition_count_cutoffs(h):
    assert rct_cutoff(h) == 1 + math.ceil(ALPHA_BITS / h)


SFC16_C = r"""
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
/* PractRand sfc16 (BARREL_SHIFT 6, RSHIFT 5, LSHIFT 3), seeded as PractRand's
   seed(Uint64): a, b, c, counter from the seed's 16-bit slices, 10 rounds. */
static uint16_t a, b, c, counter;
static uint16_t next16(void) {
    uint16_t tmp = a + b + counter++;
    a = b ^ (b >> 5);
    b = c + (c << 3);
    c = ((c << 6) | (c >> 10)) + tmp;
    return tmp;
}
int main(int argc, char **argv) {
    uint64_t s = strtoull(argv[1], 0, 10);
    int n = atoi(argv[2]);
    a = s; b = s >> 16; c = s >> 32; counter = s >> 48;
    for (int i = 0; i < 10; i++) next16();
    for (int i = 0; i < n; i++) { uint16_t w = next16(); printf("%02x%02x", w & 0xff, w >> 8); }
    return 0;
}
"""


@pytest.mark.parametrize("seed", [0, 1, 2024, 2**63 + 12345, 2**64 - 1])
def test_seeded_source_is_sfc16(tmp_path, seed):
    cc = shutil.which("cc") or shutil.which("gcc")
    if not cc:
        pytest.skip("no C compiler to build the reference sfc16")
    (tmp_path / "sfc16.c").write_text(SFC16_C)
    exe = tmp_path / "sfc16"
    subprocess.run([cc, "-O2", "-o", str(exe), str(tmp_path / "sfc16.c")], check=True)
    expected = subprocess.run([str(exe), str(seed), "512"], capture_output=True, text=True, check=True).stdout
    buf = bytearray(1024)
    SeededSource(seed).fill(buf)
    assert buf.hex() == expected
