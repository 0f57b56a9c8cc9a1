"""`python -m pbp` runs the command line."""

from pbp.cli import main

if __name__ == "__main__":
    main()
