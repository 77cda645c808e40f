"""Pure rules: dice, entropy, rolls. No machine, no time, no I/O."""
