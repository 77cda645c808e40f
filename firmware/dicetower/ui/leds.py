"""What the LED ring shows: the dice, a score gauge, and animations for the moments that matter.

`Lights.tick(app)` paints one frame into the ring's colour buffer and sends
it. It allocates nothing: colours are preallocated tuples and all the
arithmetic is on small ints.
- Dice on screen: the six dice spread round the ring in their face colours;
  a locked die's next LED is lit white; the dice the advisor would re-roll
  blink.
- Otherwise a gauge a player reads across the table: the acting hero's PVP
  toward 21, threat toward the scheme's target, KO tokens toward the loss,
  battles won (green) and lost (red).
- A roll spins, the Crystal Prison pulses purple, an Explosion flashes
  orange, the end of a game cycles the faces' colours.
"""

# Face colours, in dice.SYMBOLS order: Mutant, Science, Skill, Tech, Cosmic, Mystic.
FACE_COLOURS = ((255, 190, 0), (0, 255, 40), (255, 0, 0), (0, 70, 255), (150, 0, 255), (0, 230, 230))
WHITE = (120, 120, 120)
PRISON = (150, 0, 255)
EXPLOSION = (255, 80, 0)
GAUGE = (0, 200, 40)
DANGER = (255, 0, 0)
FRAMES = 30  # an animation's length in frames (about a second at 30 fps)
BLINK = 8  # frames on, then off, for the dice the advice re-rolls
DICE_MODES = ("dice", "mark")  # built once: a tuple made in tick() would cost heap each frame


class Lights:
    def __init__(self, ring):
        self.ring = ring
        self.frame = 0
        self.playing = None  # the animation on the ring, until its FRAMES are shown
        self._started = 0  # the app's count of animations asked for when this one started
        self.ticks = 0
        self._gauge_out = [0, 0, 0, 0]  # the game's gauge, filled each frame (a tuple made per frame costs heap)

    def _set(self, i, colour, level):
        # level: 0-256, the app's brightness times the animation's fade
        self.ring.set(i % self.ring.count, (colour[0] * level) >> 8, (colour[1] * level) >> 8, (colour[2] * level) >> 8)

    def tick(self, app):
        ring = self.ring
        n = ring.count
        level = app.settings["brightness"] * 256 // 100
        if app.animations != self._started:  # a new moment (a second roll restarts the first's animation)
            self._started = app.animations
            self.playing = app.animation
            self.frame = 0
        ring.fill(0, 0, 0)
        self.ticks += 1
        if self.playing is not None:
            self._animate(app, n, level)
            self.frame += 1
            if self.frame >= FRAMES:
                self.playing = None
        elif app.mode in DICE_MODES and app.roll is not None:
            self._dice(app.roll, n, level, app.advised if (self.ticks // BLINK) % 2 else 0)
        elif app.game is not None:
            self._gauge(app, n, level)
        else:
            self._set(0, GAUGE, level // 4)
        ring.show()

    def _dice(self, roll, n, level, dark):
        for die in range(6):
            at = die * n // 6
            face = roll.faces[die]
            self._set(at, FACE_COLOURS[face], 0 if dark & (1 << die) else level)
            if roll.locked[die] and n >= 12:
                self._set(at + 1, WHITE, level)

    def _gauge(self, app, n, level):
        # The game's own gauge (core/games/): green toward a win, red toward a loss.
        gauge = self._gauge_out
        app.game_module.gauge(app.game.state, gauge)
        value, full, lost = gauge[0], gauge[1], gauge[2]
        lit = value * n // full if full else 0
        colour = DANGER if gauge[3] else GAUGE
        for i in range(min(lit, n)):
            self._set(i, colour, level)
        for i in range(lost):
            self._set(n - 1 - i, DANGER, level)

    def _animate(self, app, n, level):
        f = self.frame
        kind = self.playing
        if kind == "roll":
            for i in range(n):
                self._set(i + f, FACE_COLOURS[(i + f) % 6], level if i % 2 == 0 else level // 4)
        elif kind == "prison" or kind == "explosion":
            colour = PRISON if kind == "prison" else EXPLOSION
            fade = level * (FRAMES - f) // FRAMES if (f // 5) % 2 == 0 else level // 8
            for i in range(n):
                self._set(i, colour, fade)
        else:  # the game is over
            for i in range(n):
                self._set(i, FACE_COLOURS[(i + f // 3) % 6], level)
