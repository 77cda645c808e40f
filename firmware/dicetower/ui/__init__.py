"""Pure mapping between the player and the core: screens drawn into a byte canvas, LED scenes, inputs."""
