"""A piezo buzzer on a PWM pin: short beeps that end on their own, without sleeping."""

from dicetower.hw.platform import ticks_diff

TONES = {"roll": (1760, 40), "prison": (220, 400), "explosion": (110, 300), "over": (880, 600), "error": (150, 200)}


class Buzzer:
    def __init__(self, pwm, diff=None):
        self.pwm = pwm
        self.diff = diff or ticks_diff
        self.since = None  # when the beep began (ticks: a sum with its length could leave their range)
        self.ms = 0
        pwm.duty_u16(0)

    def beep(self, name, now):
        freq, self.ms = TONES.get(name, (1000, 50))
        self.pwm.freq(freq)
        self.pwm.duty_u16(32768)
        self.since = now

    def tick(self, now):
        """Called at each poll of the buttons: the beep ends at the first one after its length."""
        if self.since is not None and self.diff(now, self.since) >= self.ms:
            self.pwm.duty_u16(0)
            self.since = None
