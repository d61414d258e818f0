"""python3 -m ckpt.difftest: the differential tester of ckpt-remat."""

import sys

from .tester import main

sys.exit(main())
