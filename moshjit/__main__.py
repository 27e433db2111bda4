"""Command line: ``python -m moshjit {ssa,annotate,rewrite,run,info} ...``."""
from moshjit.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
