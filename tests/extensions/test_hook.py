"""The import hook: which modules it claims, its own pyc tag and cache invalidation, load_source_module."""
from __future__ import annotations

import importlib
import importlib.machinery
import os
import subprocess
import sys
import textwrap
import traceback

import pytest

import moshjit.extensions as extensions
from moshjit.extensions import hook, runtime
from tests.extensions.helpers import forget_module, run_extended, write_module

EXTENDED = """
    # moshmosh?
    # +pattern-matching
    # +pipeline
    def describe(s):
        with match(s):
            if (x, *rest):
                return ("seq", x, rest)
            if _:
                return s | repr

    def fail(s):
        return s | (lambda v: 1 / v)
"""


@pytest.fixture
def module_dir(tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    names_before = set(sys.modules)
    installed_before = hook.is_installed()
    extensions.install()
    yield tmp_path
    if not installed_before:
        extensions.uninstall()
    for name in set(sys.modules) - names_before:
        file = getattr(sys.modules[name], "__file__", None) or ""
        if file.startswith(str(tmp_path)) or name.startswith("moshjit.extensions.rewritten."):
            del sys.modules[name]
    importlib.invalidate_caches()


def test_install_is_idempotent_and_uninstall_removes_the_finder():
    was_installed = hook.is_installed()
    extensions.install()
    extensions.install()
    assert sys.meta_path.count(hook.RewritingFinder) == 1
    extensions.uninstall()
    assert hook.RewritingFinder not in sys.meta_path
    if was_installed:
        extensions.install()


def test_rewritten_module_imports_and_leaks_no_globals(module_dir):
    write_module(module_dir, "ext_basic", EXTENDED)
    module = importlib.import_module("ext_basic")
    assert module.describe((1, 2)) == ("seq", 1, [2]) and module.describe(3) == "3"
    assert isinstance(module.__loader__, hook.RewritingLoader)
    hidden = [name for name in vars(module) if name.startswith("_mj_")]
    assert hidden == ["_mj_rt0"] and vars(module)["_mj_rt0"] is runtime  # the one name a rewrite adds


def test_files_without_the_header_are_imported_plainly(module_dir):
    write_module(module_dir, "ext_plain", "# +pipeline\nvalue = 1 | 2\n")
    module = importlib.import_module("ext_plain")
    assert module.value == 3 and type(module.__loader__) is importlib.machinery.SourceFileLoader


def test_bytecode_is_cached_under_its_own_tag_and_reused(module_dir, monkeypatch):
    path = write_module(module_dir, "ext_cached", EXTENDED)
    importlib.import_module("ext_cached")
    cached = hook.cache_path(str(path))
    assert os.path.exists(cached) and ".opt-moshjit" in cached
    assert os.path.basename(cached).startswith(f"ext_cached.{sys.implementation.cache_tag}.")   # e.g. cpython-313
    assert not os.path.exists(importlib.util.cache_from_source(str(path)))  # no plain pyc for this file

    forget_module("ext_cached")
    def no_recompile(*args, **kwargs):
        raise AssertionError("recompiled although the cache is valid")
    monkeypatch.setattr(hook, "compile_module", no_recompile)
    assert importlib.import_module("ext_cached").describe([5]) == ("seq", 5, [])


def test_editing_the_pragmas_invalidates_the_cache(module_dir):
    path = write_module(module_dir, "ext_edit", "# moshmosh?\n# +pipeline\nvalue = 1 | str\n")
    assert importlib.import_module("ext_edit").value == "1"
    forget_module("ext_edit")
    path.write_text("# moshmosh?\n# -pipeline\nvalue = 1 | 2\n")
    stamp = os.stat(path).st_mtime + 2
    os.utime(path, (stamp, stamp))
    assert importlib.import_module("ext_edit").value == 3


def test_a_plain_pyc_is_never_used_for_a_rewritten_file(module_dir):
    path = write_module(module_dir, "ext_stale", """
        # moshmosh?
        # +pipeline
        class Either:
            def __or__(self, other):
                return "bitwise or"
        value = Either() | (lambda either: "piped")
    """)
    extensions.uninstall()
    try:
        assert importlib.import_module("ext_stale").value == "bitwise or"  # plain meaning, plain pyc written
    finally:
        extensions.install()
    assert os.path.exists(importlib.util.cache_from_source(str(path)))
    forget_module("ext_stale")
    assert importlib.import_module("ext_stale").value == "piped"


def test_tracebacks_show_original_lines(module_dir):
    write_module(module_dir, "ext_trace", EXTENDED)
    module = importlib.import_module("ext_trace")
    with pytest.raises(ZeroDivisionError) as error:
        module.fail(0)
    frames = traceback.extract_tb(error.value.__traceback__)
    assert frames[-2].line == "return s | (lambda v: 1 / v)" and frames[-2].lineno == 12


def test_syntax_errors_in_extended_syntax_carry_file_line_and_column(module_dir):
    path = write_module(module_dir, "ext_broken", """
        # moshmosh?
        # +pattern-matching
        with match(1):
            if x > 1:
                pass
    """)
    with pytest.raises(SyntaxError) as error:
        importlib.import_module("ext_broken")
    assert (error.value.filename, error.value.lineno, error.value.offset) == (str(path), 4, 8)
    assert "unsupported pattern 'x > 1'" in error.value.msg


def test_load_source_module_by_path(tmp_path):
    extended = write_module(tmp_path, "by_path_ext", EXTENDED)
    plain = write_module(tmp_path, "by_path_plain", "value = 1 | 2\n")
    assert extensions.load_source_module(str(extended)).describe(()) == "()"
    assert hook.load_source_module(str(plain)).value == 3


def test_pytest_assertion_rewriting_does_not_swallow_rewritten_test_modules(tmp_path):
    (tmp_path / "conftest.py").write_text("import moshjit.extensions\nmoshjit.extensions.install()\n")
    (tmp_path / "test_ext.py").write_text(textwrap.dedent("""
        # moshmosh?
        # +pipeline
        def test_pipe():
            assert [2, 1] | sorted == [1, 2]
    """).lstrip())
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
                            capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert "1 passed" in result.stdout, result.stdout + result.stderr


def test_the_cache_tag_changes_with_moshjits_version(monkeypatch):
    from moshjit import _version
    before = hook.cache_tag()
    hook._digest.cache_clear()
    monkeypatch.setattr(_version, "__version__", _version.__version__ + ".post1")
    try:
        assert hook.cache_tag() != before and hook.cache_tag().startswith("moshjit")
        assert hook.cache_tag().isalnum()  # importlib requires an alphanumeric optimization tag
    finally:
        hook._digest.cache_clear()


def test_the_cache_tag_covers_every_module_a_rewrite_runs():
    """A rewritten module's cached bytecode is stale when any code the rewrite ran changed, the decision trees
    and emitters the rewriters import included: each such module is among the sources the tag hashes."""
    run_extended(EXTENDED.replace("# moshmosh?", ""))
    package = os.path.dirname(os.path.abspath(extensions.__file__))
    used = {os.path.abspath(module.__file__) for name, module in list(sys.modules.items())     # not the aliases
            if name.startswith("moshjit.extensions.") and os.path.dirname(os.path.abspath(     # of rewritten modules
                getattr(module, "__file__", None) or "/")) == package}
    assert {"decision_tree.py", "match_emit.py", "patterns.py"} <= {os.path.basename(path) for path in used}
    assert used <= set(hook.rewriter_sources())


def test_the_hook_module_is_reachable_from_the_package():
    import moshjit.extensions as package
    assert package.hook is hook and callable(package.hook.load_source_module)


def test_importing_a_file_with_a_misplaced_header_reports_it(module_dir):
    write_module(module_dir, "late_header", '''
        """A docstring first, so the header below would be ignored."""
        # moshmosh?
        # +pattern-matching
        def f(s):
            with match(s):
                if [x]:
                    return x
    ''')
    with pytest.raises(SyntaxError, match="must be the file's first line") as error:
        importlib.import_module("late_header")
    assert error.value.filename.endswith("late_header.py") and error.value.lineno == 2


def test_a_switch_with_a_trailing_comment_works_through_the_hook(module_dir):
    write_module(module_dir, "trailing_switch", '''
        # moshmosh?
        # +pattern-matching  # on
        def f(s):
            with match(s):
                if [x]:
                    return x
                if _:
                    return None
    ''')
    assert importlib.import_module("trailing_switch").f([7]) == 7
