"""`python -m zoneproof` and the `zoneproof` command. The command line is imported here, so that
a Ctrl-C during the imports (z3 takes a while to load) exits 130 as it does later."""

import sys


def main() -> None:
    try:
        from .cli import entry_point
    except KeyboardInterrupt:
        print("zoneproof: interrupted (Ctrl-C) while starting", file=sys.stderr)
        sys.exit(130)
    entry_point()


if __name__ == "__main__":
    main()
