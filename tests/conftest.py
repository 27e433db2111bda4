"""The suite tests compiled code: eager tiering by default (tests of the tiers themselves ask for them)."""
import os

os.environ.setdefault("MOSHJIT_TIER", "eager")
