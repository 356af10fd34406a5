"""`python -m hoaregpu ...` is the `hoaregpu` command."""

import sys

from .cli import main

sys.exit(main())
