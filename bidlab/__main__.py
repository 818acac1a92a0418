"""``python -m bidlab ...`` is the ``bidlab`` command, for machines where the package is on
``PYTHONPATH`` but its console script is not installed (a lent GPU machine, a container)."""

from bidlab.cli import main

if __name__ == "__main__":
    main()
