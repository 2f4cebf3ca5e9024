"""`python -m plyground`: the same as the `plyground` command."""

import sys

from plyground.launcher import main

sys.exit(main())
