import sys

from nardy_pi.cli.main import main

sys.exit(main())
