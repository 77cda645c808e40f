"""The re-roll advisor's work arrays (7.4 KB), made before the rest of a Battlerealm game and kept while
it is played; core/games/battlerealm/ranks.py hands them out. The search with Lucky needs three more
(3.9 KB), which core/games/battlerealm/lucky_tables.py makes: only a game with a Lucky hero holds them.

Made late, after a game's presses and the advisor's own modules had cut the heap into pieces, a Pico
with .mpy files found no 1.8 KB block for one: MemoryError on the first roll of a resumed Battlerealm
game (tests/test_rp2040.py, the power cut test; 65 KB free, the largest piece 1.7 KB). So a saved
Battlerealm game has them made by `boot()` in main.py before anything else, and a new one as the first
module its idle passes load once it is chosen (its descriptor's AHEAD), while the
start menu's heap is whole; the other games never make them.
"""

from array import array

from micropython import const  # CPython: the host's stand-in (dicetower_host/micropython.py)

HALF = const(462)  # the entries of a work array: a table's lower half, or its upper (ranks 462..923)
FIVES = const(252)  # how many ranks five dice have: the entries of PA and PB

# Four table halves: 32-bit entries, 4 bytes each as a list's small ints were, and a buffer that
# ranks.py's Viper passes read and write as machine words.
WORK = [array("i", bytes(4 * HALF)) for _ in range(4)]
