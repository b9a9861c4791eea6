#!/usr/bin/env python
"""Django's command-line utility for DocIntel."""

import os
import sys


def main() -> None:
    # Fail closed: production unless told otherwise; `make up`, `make demo` and the benchmarks say
    # config.settings.dev, pytest config.settings.test.
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
