"""Host tools for dicetower: the `dicetower` command."""

import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # firmware/, boards/, vm/ live here
