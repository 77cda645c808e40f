"""The toy game's help (Settings -> Help)."""

TEXT = 'Toy. "P1:3 P2:0": each player\'s points; "First to 5": the points that win.'
