"""The ``__match_args__`` guard of class patterns (``runtime.ArgsSite``): what ``C in site`` may skip, and that
skipping the read is never observable — checked on the site itself (compiled and Python versions) and
through generated code against CPython's own ``match`` in the same module: a metaclass whose
``__getattribute__`` or descriptor computes ``__match_args__``, a base class's ``__match_args__`` changed,
an unrelated class attribute changed, subclasses, and ``__match_args__`` reassigned between matches."""
from __future__ import annotations

import pytest

from moshjit import match_reference
from moshjit.extensions import runtime
from tests.extensions.helpers import run_extended

SITES = [runtime.PyArgsSite] + ([runtime.ArgsSite] if runtime.ArgsSite is not runtime.PyArgsSite else [])


@pytest.fixture(params=SITES, ids=lambda cls: cls.__name__)
def site_class(request):
    return request.param


def _compiled(site) -> bool:
    return not isinstance(site, runtime.PyArgsSite)


def test_the_compiled_site_is_the_one_generated_code_uses():
    assert runtime.ArgsSite.__module__ == "moshjit.runtime.moshjit_match"  # built by `make venv`


def test_a_read_admits_the_class_until_it_or_a_base_changes(site_class):
    class Base:
        pass

    class Point(Base):
        __match_args__ = ("x", "y")

    site = site_class(("x", "y"), match_reference.NO_MATCH_ARGS)

    def admitted(cls) -> bool:
        """Reads until a read admits ``cls`` (one gives the class a version tag, the next admits it)."""
        assert cls not in site
        assert site.read(cls) is True and site.read(cls) is True
        return cls in site

    assert admitted(Point) is _compiled(site)  # the Python version cannot see version tags: it always reads
    assert (Point in site) is _compiled(site)
    Point.__match_args__ = ("x", "y")  # an equal new tuple: still the guess, but read again first
    assert admitted(Point) is _compiled(site)
    Point.unrelated = 1  # any change to the class
    assert admitted(Point) is _compiled(site)
    Base.anything = 2  # any change to a base
    assert admitted(Point) is _compiled(site)

    class Other:
        __match_args__ = ("x", "y")
    assert admitted(Other) is _compiled(site)  # one class per site: another class bound to the name is read
    assert Point not in site


@pytest.mark.parametrize("value", [("y", "x"), ("x",), ("x", "y", "z"), ["x", "y"], ("x", 1), "xy", None, True])
def test_a_value_other_than_the_guess_is_returned_for_the_general_path(site_class, value):
    class Point:
        __match_args__ = value

    site = site_class(("x", "y"), match_reference.NO_MATCH_ARGS)
    assert site.read(Point) == (value,) and Point not in site
    assert site.accepts(value) is False


def test_str_and_tuple_subclasses_are_not_the_guess(site_class):
    class Name(str):
        pass

    class Names(tuple):
        pass
    site = site_class(("x", "y"), match_reference.NO_MATCH_ARGS)
    assert site.accepts(("x", "y")) is True
    assert site.accepts((Name("x"), "y")) is False and site.accepts(Names(("x", "y"))) is False


def test_a_missing_match_args_reads_as_cpython_does(site_class):
    class Plain:
        pass
    assert site_class(("x",), match_reference.NO_MATCH_ARGS).read(Plain) == (match_reference.NO_MATCH_ARGS,)


def test_a_metaclass_is_read_at_every_match(site_class):
    reads = []

    class Meta(type):
        def __getattribute__(cls, name):
            if name == "__match_args__":
                reads.append(name)
            return super().__getattribute__(name)

    class Point(metaclass=Meta):
        __match_args__ = ("x", "y")

    site = site_class(("x", "y"), match_reference.NO_MATCH_ARGS)
    for _ in range(3):
        assert Point not in site and site.read(Point) is True
    assert len(reads) == 3


def test_a_descriptor_is_called_at_every_read(site_class):
    calls = []

    class Names:
        def __get__(self, instance, owner):
            calls.append(owner)
            return ("x", "y")

    class Meta(type):
        __match_args__ = Names()  # found on the metaclass (the class has none): __get__(Point, Meta)

    class Point(metaclass=Meta):
        pass

    class Described:
        __match_args__ = Names()  # a descriptor in the class's own dict: its __get__ runs at each read

    site = site_class(("x", "y"), match_reference.NO_MATCH_ARGS)
    for cls in (Point, Described, Point, Described):
        assert site.read(cls) is True and cls not in site
    assert calls == [Meta, Described, Meta, Described]


def test_errors_other_than_attribute_error_propagate(site_class):
    class Meta(type):
        def __getattribute__(cls, name):
            if name == "__match_args__":
                raise KeyError("computed")
            return super().__getattribute__(name)

    class Point(metaclass=Meta):
        pass

    with pytest.raises(KeyError, match="computed"):
        site_class(("x",), match_reference.NO_MATCH_ARGS).read(Point)


SOURCE = '''
from dataclasses import dataclass

class Meta(type):
    flip = False
    def __getattribute__(cls, name):
        if name == "__match_args__" and type.__getattribute__(cls, "flip"):
            return ("y", "x")
        return super().__getattribute__(name)

@dataclass
class Base:
    x: object
    y: object

class Point(Base):
    __match_args__ = ("x", "y")

@dataclass
class Flipping:
    x: object
    y: object

@dataclass
class MetaFlipping(metaclass=Meta):  # what a change rebinds the name Flipping to (the rewrite guessed Flipping's)
    x: object
    y: object

def ours(s):
    with match(s):
        if Point(0, y):
            return ("on the y axis", y)
        if Point(x, y):
            return ("point", x, y)
        if Flipping(x, 1):
            return ("flipping, second is one", x)
        if Flipping(x, y):
            return ("flipping", x, y)
        if Base(x, y):
            return ("base", x, y)
        if _:
            return ("other",)

def boxed(box):  # for @jit: one compiled specialisation (a list) for every subject
    s = box[0]
    with match(s):
        if Point(0, y):
            return ("on the y axis", y)
        if Point(x, y):
            return ("point", x, y)
        if Flipping(x, 1):
            return ("flipping, second is one", x)
        if Flipping(x, y):
            return ("flipping", x, y)
        if Base(x, y):
            return ("base", x, y)
        if _:
            return ("other",)

def theirs(s):
    match s:
        case Point(0, y):
            return ("on the y axis", y)
        case Point(x, y):
            return ("point", x, y)
        case Flipping(x, 1):
            return ("flipping, second is one", x)
        case Flipping(x, y):
            return ("flipping", x, y)
        case Base(x, y):
            return ("base", x, y)
        case _:
            return ("other",)
'''


def _outcome(fn, subject):
    try:
        return fn(subject)
    except Exception as error:
        return ("raised", type(error).__name__, str(error))


def _agree(ns, compiled=None):
    subjects = [ns["Point"](0, 1), ns["Point"](2, 3), ns["Flipping"](4, 1), ns["Flipping"](5, 6), ns["Base"](7, 8), 9]
    for subject in subjects:
        expected = _outcome(ns["theirs"], subject)
        assert _outcome(ns["ours"], subject) == expected, subject
        if compiled is not None:
            assert _outcome(compiled, [subject]) == expected, subject


def _change_base_match_args(ns):
    ns["Base"].__match_args__ = ("y",)


def _change_point_match_args(ns):
    ns["Point"].__match_args__ = ("y", "x")


def _change_unrelated_attribute(ns):
    ns["Point"].note = "changed"


def _rebind_to_a_metaclass_class(ns):
    ns["Flipping"] = ns["MetaFlipping"]


def _flip_metaclass(ns):
    ns["Meta"].flip = True


def _delete_point_match_args(ns):
    del ns["Point"].__match_args__  # Base's is found then


def _restore_point_match_args(ns):
    ns["Point"].__match_args__ = ("x", "y")


@pytest.mark.parametrize("changes", [
    [_change_point_match_args, _restore_point_match_args], [_change_base_match_args],
    [_delete_point_match_args, _change_base_match_args, _restore_point_match_args],
    [_change_unrelated_attribute], [_rebind_to_a_metaclass_class, _flip_metaclass],
    [_rebind_to_a_metaclass_class, _flip_metaclass, _change_point_match_args],
], ids=lambda changes: "+".join(change.__name__.lstrip("_") for change in changes))
def test_changes_between_matches_are_seen_at_the_next_match(changes):
    ns = run_extended(SOURCE, active={"pattern-matching": {}}, filename="<sites>")
    assert "read" in ns["ours"].__code__.co_names  # guarded loads by name
    _agree(ns)  # the sites have admitted the classes (a plain metaclass only)
    _agree(ns)
    for change in changes:
        change(ns)
        _agree(ns)
        _agree(ns)


def test_the_compiled_guard_sees_the_same_changes():
    """Under ``@jit`` the guard is the same ``in`` and ``read`` (compiled calls of the site)."""
    import moshjit
    ns = run_extended(SOURCE, active={"pattern-matching": {}}, filename="<sites-jit>")
    compiled = moshjit.jit(ns["boxed"], strict=True)
    _agree(ns, compiled)
    _agree(ns, compiled)
    # (not rebinding a name: compiled code takes module globals as they were when it was compiled)
    for change in (_change_point_match_args, _restore_point_match_args, _change_base_match_args,
                   _change_unrelated_attribute, _delete_point_match_args):
        change(ns)
        _agree(ns, compiled)
        _agree(ns, compiled)
    assert compiled.signatures == [("list",)]


def test_the_compiled_guard_binds_its_site_and_sees_it_rebound():
    """``@jit`` binds a site as it binds a class (``__moshjit_constant__``): no global load per match, and a site or
    class rebound after compiling is seen at the next call, as the plain function sees it."""
    import moshjit
    ns = run_extended(SOURCE, active={"pattern-matching": {}}, filename="<sites-jit-bound>")
    compiled = moshjit.jit(ns["boxed"], strict=True)
    _agree(ns, compiled)
    _agree(ns, compiled)
    sites = sorted(name for name in ns if name.startswith("_mj_ma") and isinstance(ns[name], runtime.ArgsSite))
    bound = {b.label for b in compiled._artifacts[next(iter(compiled._artifacts))].bindings}
    assert sites and set(sites) <= bound
    for name in sites:                      # fresh sites: they admit nothing until they read
        ns[name] = type(ns[name])(ns[name].guess, ns[name].missing)
    _agree(ns, compiled)
    _agree(ns, compiled)
    _rebind_to_a_metaclass_class(ns)
    _flip_metaclass(ns)
    _agree(ns, compiled)
    _agree(ns, compiled)


def test_a_pickled_site_starts_afresh(site_class):
    """A class's version tag means nothing in another process: a copy admits nothing until it reads."""
    import pickle

    site = site_class(("x", "y"), match_reference.NO_MATCH_ARGS)
    site.read(Point := type("Point", (), {"__match_args__": ("x", "y")}))
    site.read(Point)
    copy = pickle.loads(pickle.dumps(site))
    assert type(copy) is site_class and copy.guess == ("x", "y") and Point not in copy
    assert copy.missing is match_reference.NO_MATCH_ARGS
