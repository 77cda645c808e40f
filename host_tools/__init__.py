"""Host tools for dicetower: the `dicetower` command."""
