"""A virtual `pwmio.PWMOut` (the buzzer): records its frequency and duty on the bench."""

import devices


class PWMOut:
    def __init__(self, pin, *, duty_cycle=0, frequency=500, variable_frequency=False):
        self.pin = pin
        self.duty_cycle = duty_cycle
        self.frequency = frequency
        devices.BENCH.pwm[pin.id] = self

    # what the bench's readers call on a machine.PWM
    def freq(self):
        return self.frequency

    def duty_u16(self):
        return self.duty_cycle
