"""A piezo buzzer on a PWM pin: short beeps that end on their own, without sleeping."""

TONES = {"roll": (1760, 40), "prison": (220, 400), "explosion": (110, 300), "over": (880, 600), "error": (150, 200)}


class Buzzer:
    def __init__(self, pwm, diff=None):
        self.pwm = pwm
        self.diff = diff or (lambda a, b: a - b)
        self.until = None
        pwm.duty_u16(0)

    def beep(self, name, now):
        freq, ms = TONES.get(name, (1000, 50))
        self.pwm.freq(freq)
        self.pwm.duty_u16(32768)
        self.until = now + ms

    def tick(self, now):
        if self.until is not None and self.diff(now, self.until) >= 0:
            self.pwm.duty_u16(0)
            self.until = None
