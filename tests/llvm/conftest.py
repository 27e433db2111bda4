"""LLVM-backend tests share one private compile cache (content-addressed, so never stale)."""
import os
import tempfile

os.environ.setdefault("MOSHJIT_CACHE_DIR", os.path.join(tempfile.gettempdir(), f"moshjit-test-cache-{os.getuid()}"))
