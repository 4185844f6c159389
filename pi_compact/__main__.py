"""``python -m pi_compact``: the same as the ``pi-compact`` command."""

from .cli import main

if __name__ == "__main__":
    main()
