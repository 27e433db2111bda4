"""IPython tests share the test suite's private compile cache; ``shell`` is the test shell with moshjit loaded."""
import os
import tempfile

import pytest

from tests.ipython.helpers import ipython_test_shell

os.environ.setdefault("MOSHJIT_CACHE_DIR", os.path.join(tempfile.gettempdir(), f"moshjit-test-cache-{os.getuid()}"))


@pytest.fixture
def shell():
    ip = ipython_test_shell()
    ip.run_line_magic("load_ext", "moshjit")
    yield ip
    ip.run_line_magic("unload_ext", "moshjit")
