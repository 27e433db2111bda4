"""Attribute inline caches (``backends/cython/attribute_cache.py``) against CPython: one load site and one store
site see every kind of attribute — instance values, ``__slots__``, class attributes shadowed or not, properties,
data and non-data descriptors, ``__getattr__``/``__getattribute__``/``__setattr__`` overrides, deleted attributes,
materialised instance dicts, more than four types at a site — and the classes change between calls (a property
added, an attribute deleted, ``__class__`` assigned). Random programs of such steps run plainly and jitted on two
fresh copies of the same world, which must end in the same observations."""
from __future__ import annotations

import re
import sys

import pytest
from hypothesis import given, settings, strategies as hs

import moshjit
from tests.cython.agree import jitted


def read_x(objs):
    out = []
    for o in objs:
        try:
            out.append(o.x)
        except AttributeError as exc:
            out.append(("AttributeError", str(exc)))
    return out


def write_x(objs, value):
    out = []
    for o in objs:
        try:
            o.x = value
            out.append("ok")
        except (AttributeError, TypeError) as exc:
            out.append((type(exc).__name__, str(exc)))
    return out


def bump_x(o, times):
    """A loop reading and writing one attribute (the shape of ``self.count += 1`` in a method)."""
    for _ in range(times):
        o.x = o.x + 1
    return o.x


class Recorder:
    """A data descriptor that logs its uses, so a wrongly skipped ``__get__``/``__set__`` shows."""

    def __init__(self):
        self.log = []

    def __get__(self, obj, owner=None):
        self.log.append("get")
        return "descriptor" if obj is not None else self

    def __set__(self, obj, value):
        self.log.append(("set", value))


class NonData:
    def __get__(self, obj, owner=None):
        return "non-data"


def make_world():
    """Fresh classes and instances, one of each attribute kind (the same for both runs)."""

    class Plain:
        def __init__(self):
            self.x = 1

    class Missing:
        pass

    class ClassAttr:
        x = "class"

    class Shadowed:
        x = "class"

        def __init__(self):
            self.x = "instance"

    class Prop:
        def __init__(self):
            self._x = 5

        @property
        def x(self):
            return self._x * 2

        @x.setter
        def x(self, value):
            self._x = value

    class ReadOnlyProp:
        @property
        def x(self):
            return "read-only"

    class Data:
        x = Recorder()

    class NonDataShadowed:
        x = NonData()

        def __init__(self):
            self.__dict__["x"] = "instance over non-data"

    class GetattrHook:
        def __getattr__(self, name):
            if name == "x":
                return "from __getattr__"
            raise AttributeError(name)

    class GetattributeHook:
        def __getattribute__(self, name):
            return "from __getattribute__ " + name

    class SetattrHook:
        def __init__(self):
            object.__setattr__(self, "x", 0)

        def __setattr__(self, name, value):
            object.__setattr__(self, name, ("hooked", value))

    class Slots:
        __slots__ = ("x", "y")

        def __init__(self):
            self.x = "slot"

    class EmptySlot:
        __slots__ = ("x",)

    class Sub(Plain):
        pass

    class Materialised(Plain):
        def __init__(self):
            super().__init__()
            self.__dict__                   # the instance's values become a real dict

    class Wide:
        def __init__(self):
            for i in range(40):             # beyond the shared keys' size: a dict of its own
                setattr(self, f"a{i}", i)
            self.x = "wide"

    class IntSub(int):
        pass

    class Meta(type):
        x = "from the metaclass"

    class WithMeta(metaclass=Meta):
        pass

    class Inherits(ClassAttr):
        pass

    class Token:                            # a plain class value, until its class gains __get__ (step 12)
        pass

    class WithToken:
        x = Token()

    class SlotsOverClassValue:              # no dict: the class's value is all there is
        __slots__ = ()
        x = "class value, no dict"

    class ClassValueInDict(ClassAttr):      # a dict of its own, which may shadow the class's value (step 11)
        def __init__(self):
            self.__dict__

    int_sub = IntSub(7)
    int_sub.x = "int subclass"
    classes = [Plain, Missing, ClassAttr, Shadowed, Prop, ReadOnlyProp, Data, NonDataShadowed, GetattrHook,
               GetattributeHook, SetattrHook, Slots, EmptySlot, Sub, Materialised, Wide, Inherits, WithMeta,
               WithToken, SlotsOverClassValue, ClassValueInDict]
    objs = [cls() for cls in classes] + [int_sub]
    return classes, objs


def class_targets(classes) -> list:
    """Classes read as objects themselves (``C.x``): a plain class attribute, one inherited, a data descriptor
    (its ``__get__(None, C)``), a member descriptor, a property, none at all, one found on the metaclass."""
    ClassAttr, Data, Slots, Plain, Missing, Inherits = (classes[i] for i in (2, 6, 11, 0, 1, 16))
    return [ClassAttr, Inherits, Data, Slots, Plain, Missing, classes[17], type]


def _comparable(values: list) -> list:
    """A read's values, descriptors (distinct objects in each world) by their type's name."""
    return [v if isinstance(v, (str, int, tuple, type(None))) else type(v).__name__ for v in values]


def mutate(classes, objs, step: int) -> None:
    """Change the world between calls: the steps a program may take after its methods were compiled."""
    Plain = classes[0]
    if step == 0:
        Plain.x = property(lambda self: "property added later")
    elif step == 1:
        del objs[0].x
    elif step == 2:
        objs[0].__class__ = classes[3]                  # Plain → Shadowed
    elif step == 3:
        del classes[2].x                               # ClassAttr loses its attribute
    elif step == 4:
        classes[11].x = property(lambda self: "slot replaced")   # the member descriptor goes
    elif step == 5:
        objs[1].x = "set later"                        # Missing gets it
    elif step == 6:
        if isinstance(getattr(Plain, "x", None), property):
            del Plain.x
    elif step == 7:
        del objs[11].x                                 # an empty slot again
    elif step == 8:
        classes[2].x = ("class", "again")              # ClassAttr (and Inherits through it) reassigned
    elif step == 9:
        classes[16].x = "own"                          # Inherits gets its own, shadowing the base's
    elif step == 10:
        objs[2].x = "own over the class's"             # a ClassAttr instance shadows the class value (values)
    elif step == 11:
        objs[20].__dict__["x"] = "own in its dict"     # ... and one whose attributes are a dict
    elif step == 12:
        type(vars(classes[18])["x"]).__get__ = lambda self, obj, owner=None: "Token gained __get__"


def run_program(read, write, steps) -> list:
    classes, objs = make_world()
    seen = []
    for step in steps:
        if step == "read":
            seen.append(_comparable(read(objs + class_targets(classes))))
        elif step == "write":
            seen.append(write(objs, step))
            seen.append(_comparable(read(objs + class_targets(classes))))
        else:
            try:
                mutate(classes, objs, step)
                seen.append(("mutated", step))
            except AttributeError as exc:
                seen.append(("mutate failed", step, str(exc)))
    descriptor_log = vars(classes[6])["x"].log
    return seen + [descriptor_log]


def test_every_attribute_kind_reads_and_writes_as_cpython():
    steps = ["read", "write", "read", "read"]
    assert run_program(jitted(read_x), jitted(write_x), steps) == run_program(read_x, write_x, steps)


def test_class_changes_after_compiling_are_seen():
    steps = ["read", "read"]
    for step in range(13):
        steps += [step, "read", "write"]
    assert run_program(jitted(read_x), jitted(write_x), steps) == run_program(read_x, write_x, steps)


@settings(max_examples=25, deadline=None)
@given(hs.lists(hs.sampled_from(["read", "write"] + list(range(13))), min_size=1, max_size=12))
def test_random_programs_of_reads_writes_and_class_changes(steps):
    assert run_program(jitted(read_x), jitted(write_x), steps) == run_program(read_x, write_x, steps)


def read_or_message(o):
    try:
        return o.x
    except AttributeError as exc:
        return str(exc)


def test_a_failed_load_keeps_its_exception_through_the_sites_second_look():
    """A load that misses on an instance with inline values looks at the type's shared keys again; that look goes
    through ``_PyType_Lookup``, which clears a pending exception when it misses the type cache. It ran after the
    failed load, with the AttributeError set, and creating that error can evict the type cache's entry: 1 fresh
    class in some thousands then returned NULL with no exception (a crash on 3.12, SystemError on 3.11)."""
    fast = jitted(read_or_message)
    for _ in range(5000):                   # more fresh type versions than the type cache has entries (4,096)
        class Fresh:
            pass
        assert fast(Fresh()) == read_or_message(Fresh()) == "'Fresh' object has no attribute 'x'"


def test_store_fast_path_keeps_reference_counts_and_values():
    import sys

    class Counter:
        def __init__(self):
            self.x = 0

    class SlotCounter:
        __slots__ = ("x",)

        def __init__(self):
            self.x = 0

    for cls in (Counter, SlotCounter):
        plain, fast = cls(), cls()
        big = 10 ** 30                       # a fresh int object whose reference count is checked
        fast.x = big
        plain.x = big
        before = sys.getrefcount(big)
        assert jitted(bump_x)(fast, 100) == bump_x(plain, 100) == big + 100
        assert sys.getrefcount(big) == before - 2


def make_shapes():
    """A fresh class whose methods call each other through ``self`` (one copy stays plain, one gets @jit)."""

    class Shape:
        def __init__(self, w):
            self.w = w

        def area(self):
            return self.w * self.w

        def scaled(self, k):
            return self.area() * k

        def total(self, n):
            s = 0
            for i in range(n):
                s += self.area() + self.scaled(i)
            return s

        def depth(self, n):
            return 0 if n == 0 else 1 + self.depth(n - 1)

    return Shape


def shape_program(Shape) -> list:
    """Calls between methods, with the class and the instance changed between calls as a program may."""
    s = Shape(3)
    seen = [s.total(4), s.depth(30)]
    s.area = lambda: 100                               # an instance attribute shadows the method
    seen.append(s.total(4))
    del s.area
    seen.append(s.total(4))
    s.__dict__["scaled"] = lambda k: -k                # through a real instance dict
    seen.append(s.total(4))
    del s.__dict__["scaled"]
    seen.append(s.total(4))
    Shape.area = lambda self: 1                        # the class rebinds the method after compiling
    seen.append(s.total(4))
    Shape.__getattribute__ = lambda self, name: (lambda *a: 5) if name == "area" else object.__getattribute__(
        self, name)
    seen.append(s.total(4))
    del Shape.__getattribute__
    del Shape.area                                     # no method at all: CPython's AttributeError
    try:
        s.total(4)
    except AttributeError as exc:
        seen.append(str(exc))
    return seen


def test_direct_method_calls_follow_every_change_to_class_and_instance():
    plain, fast = make_shapes(), moshjit.jit(make_shapes(), backend="cython")
    assert shape_program(fast) == shape_program(plain)


def test_generated_code_takes_the_fast_paths():
    """The golden shape of the fast paths in the generated module (small jitted methods are inlined behind the
    guard, their calls kept for a miss going direct)."""
    Shape = moshjit.jit(make_shapes(), backend="cython")
    Shape(2).total(3)
    total = str(Shape.total.inspect_code())
    assert "mj_attr_load(a_self, 'w'" in str(Shape.area.inspect_code())
    assert " = mj_method_is(a_self, 'area', &_mj_mg0, " in total
    assert "(mj_entry_call1(_k4, a_self) if mj_method_is(a_self, 'area', &_mj_mg1, " in total
    assert " = mj_method_is(a_self, 'scaled', &_mj_mg2, " in total
    assert "mj_method_is(a_self, 'depth'" not in str(Shape.depth.inspect_code())   # itself: being compiled


def test_class_assignment_to_a_class_with_another_key_order():
    """After ``obj.__class__ = B`` the instance's values were laid out by its old class: CPython moves them into
    a dict, and a cached index of ``x`` in B's keys must not be applied to them."""

    def make():
        class A:
            def __init__(self):
                self.x = "A.x"
                self.y = "A.y"

        class B:
            def __init__(self):
                self.y = "B.y"
                self.x = "B.x"

        return A(), B(), B

    def program(read, write):
        a, b, B = make()
        seen = [read([a, b])]
        a.__class__ = B
        seen += [read([a, b]), write([a, b], "new"), read([a, b]), vars(a)]
        return seen

    assert program(jitted(read_x), jitted(write_x)) == program(read_x, write_x)


def read_class_value(cls):
    return cls.value


def test_a_cached_class_attribute_whose_type_gains_get_becomes_a_descriptor():
    """A class attribute cached by the class's version tag: giving the value's own type ``__get__`` changes no
    version of the class, and the next load must call it as CPython does."""

    def world():
        class Value:
            pass

        class Holder:
            value = Value()

        return Value, Holder

    def program(read):
        Value, Holder = world()
        seen = [type(read(Holder)).__name__, type(read(Holder)).__name__]
        Value.__get__ = lambda self, obj, owner: ("got", obj, owner.__name__)
        seen += [read(Holder), read(Holder)]
        del Value.__get__
        Holder.value = "reassigned"
        return seen + [read(Holder)]

    assert program(jitted(read_class_value)) == program(read_class_value)


class Limits:
    LIMIT = 3


def read_limit():
    try:
        return Limits.LIMIT
    except AttributeError as exc:
        return ("AttributeError", str(exc))


def test_a_class_known_when_compiling_sees_its_attribute_change():
    """``Limits`` is a constant of the compiled code; its attribute is read through the class cache."""
    fast = jitted(read_limit)

    def program(read):
        seen = [read(), read()]
        Limits.LIMIT = (4,)
        seen.append(read())
        del Limits.LIMIT
        seen.append(read())
        Limits.LIMIT = property(lambda self: "a property read from the class is the property itself")
        seen.append(type(read()).__name__)
        Limits.LIMIT = 3
        return seen + [read()]

    assert program(fast) == program(read_limit)
    assert "mj_attr_load(" in str(fast.inspect_code())


def swap_x(objs, value):
    """Read each object's ``x`` and write it back changed (the load and the store sites see every object)."""
    out = []
    for o in objs:
        try:
            out.append(o.x)
            o.x = (value, o.x)
        except AttributeError as exc:
            out.append(("AttributeError", str(exc)))
    return out


class DictSub(dict):
    def __getitem__(self, key):            # never called by attribute access (CPython reads the dict directly)
        return "DictSub.__getitem__"


def dict_world():
    """Instances keeping their attributes in dicts of their own, ``x`` at a different entry in each (as CPython
    leaves them once instances of a class set attributes in different orders)."""

    class Node:
        pass

    objs = []
    for i in range(6):
        o = Node()
        vars(o)                              # a dict of its own, not the shared keys
        for name in [f"a{j}" for j in range(i)] + ["x"] + [f"b{j}" for j in range(5 - i)]:
            setattr(o, name, (i, name))
        objs.append(o)
    return Node, objs


def change_dict(Node, objs, step: int) -> None:
    o = objs[step % len(objs)]
    if step < 6:
        del o.x                                         # its entry emptied: the hint must not find it
    elif step < 12:
        vars(o).pop("a0", None)
        vars(o)["x"] = "re-added"                      # another entry, the old one deleted
    elif step < 18:
        o.__dict__ = {f"z{k}": k for k in range(step % 4)} | {"x": "new dict"}
    elif step < 24:
        o.__dict__ = DictSub(x="in a dict subclass")
    elif step < 30:
        for k in range(12):                            # the table resized: every index moves
            setattr(o, f"grow{k}", k)
    else:
        Node.x = property(lambda self: "property")     # the class gains a data descriptor


def run_dict_program(swap, steps) -> list:
    Node, objs = dict_world()
    seen = []
    for step in steps:
        if step == "swap":
            seen.append(swap(objs, len(seen)))
        else:
            try:
                change_dict(Node, objs, step)
            except AttributeError as exc:
                seen.append(("change failed", str(exc)))
    return seen + [sorted(map(str, vars(o).items())) for o in objs]


@settings(max_examples=30, deadline=None)
@given(hs.lists(hs.one_of(hs.just("swap"), hs.integers(0, 30)), min_size=1, max_size=14))
def test_instance_dicts_read_through_hints_and_written_as_cpython(steps):
    """Loads from instance dicts go through an entry-index hint, stores straight to ``PyDict_SetItem``: deleted
    and moved entries, replaced dicts, dict subclasses, resized tables and a class gaining a descriptor."""
    steps = ["swap"] + steps + ["swap"]
    assert run_dict_program(jitted(swap_x), steps) == run_dict_program(swap_x, steps)


class Fields:
    def __init__(self, order):
        for name in order:                 # the shared keys learn the names in the first order seen
            setattr(self, name, 0)


def fill_in_order(objs, first, second, third):
    """Stores of attributes an instance does not have yet (as ``__init__`` makes them), in varying orders, one
    deleted and set again: the instance's values gain them and ``vars`` must list them as CPython does."""
    out = []
    for o in objs:
        o.c = first
        o.a = second
        o.b = third
        del o.a
        o.a = (first, third)
        out.append(list(vars(o).items()))
    return out


@settings(max_examples=20, deadline=None)
@given(hs.permutations(["a", "b", "c"]), hs.integers(0, 3), hs.lists(hs.integers(0, 5), max_size=3))
def test_new_attributes_join_the_instance_values_in_cpythons_order(order, prefilled, values):
    """An object fresh from ``object.__new__`` (no values yet), and ones whose values already hold some names."""
    first, second, third = (values + [7, 8, 9])[:3]
    Fields(order)                                                     # teaches the class its shared keys

    def world():
        fresh = [object.__new__(Fields) for _ in range(3)]
        for o in fresh[1:]:
            for name in order[:prefilled]:
                setattr(o, name, -1)
        return fresh

    assert jitted(fill_in_order)(world(), first, second, third) == fill_in_order(world(), first, second, third)


def read_write_one(o, value):
    """One load site and one store site seeing a single type: the inlined first-entry path."""
    out = []
    for _ in range(3):
        try:
            out.append(o.x)
            o.x = value
            out.append(o.x)
        except AttributeError as exc:
            out.append(("AttributeError", str(exc)))
    return out


def test_the_inlined_first_entry_follows_deletion_slots_and_materialised_dicts():
    class Point:
        def __init__(self):
            self.x = 1

    class Slotted:
        __slots__ = ("x",)

    def world():
        with_values, emptied, materialised, slot, empty_slot = Point(), Point(), Point(), Slotted(), Slotted()
        del emptied.x
        slot.x = 2
        return [with_values, emptied, materialised, slot, empty_slot]

    def run(fn):
        seen = []
        objs = world()
        for o in objs:
            seen.append(fn(o, "v"))
            if type(o) is Point:
                vars(o)                                   # a real dict from now on (3.11+): the slow path
                seen.append(fn(o, "w"))
                if hasattr(o, "x"):
                    del o.x
                seen.append(fn(o, "z"))
        return seen, [getattr(o, "x", None) for o in objs]

    assert run(jitted(read_write_one)) == run(read_write_one)


def test_stores_made_before_the_shared_keys_knew_the_names_keep_cpythons_order():
    """The first instance's ``__init__`` adds its names to the type's shared keys while the store sites are first
    filled (as a dict entry); later instances take the values path. Orders, values and later changes of order
    agree with CPython's."""
    def make(cls, n):
        objs = [cls(i, float(i)) for i in range(n)]
        objs[1].c = "late"
        del objs[2].a
        objs[2].a = "again"                                  # a re-added name goes last in vars()
        return [sorted(vars(o).items(), key=lambda kv: str(kv)) for o in objs], [list(vars(o)) for o in objs]

    def define():
        class Point:
            def __init__(self, a, b):
                self.a = a
                self.b = b
        return Point

    plain, compiled = define(), define()
    moshjit.jit(compiled)
    assert make(compiled, 5) == make(plain, 5)


def test_instances_whose_values_became_dicts_read_through_the_inlined_hint():
    """Many instances use up a class's shared keys (3.11 shrinks their room with every instance), so names added
    later give the instances dicts: the load sites read those at the hint. Deleting, re-adding and writing through
    ``vars()`` move or empty the hinted entries."""
    def define():
        class Square:
            def __init__(self, p):
                self.a = p
                self.b = p * 2

            def late(self):
                self.c = self.a + 1
                self.d = -self.b

            def read(self):
                return (self.a, self.b, self.c, self.d)
        return Square

    def run(Square):
        objs = [Square(i) for i in range(60)]
        for o in objs:
            o.late()
        out = [o.read() for o in objs]
        del objs[3].a
        objs[3].a = "back"
        vars(objs[4])["c"] = "via dict"
        del objs[5].c
        for o in objs[3:6]:
            try:
                out.append(o.read())
            except AttributeError as exc:
                out.append(str(exc))
        return out

    assert run(moshjit.jit(define())) == run(define())


def set_x_twice(o, first, second):
    """Two stores at one site: the first notes where ``x`` is in the instance's dict, the second writes there."""
    o.x = first
    o.x = second
    return o.x


def test_stores_at_the_hint_follow_moved_entries_subclassed_dicts_and_gc_tracking():
    """Stores into instance dicts of their own at the noted entry index: replaced values, entries moved by a
    deletion or a resize, a dict subclass, and the dict's GC tracking (a dict of atoms is untracked until a
    container goes in, as ``PyDict_SetItem`` decides)."""
    import gc

    class Node:
        pass

    def world():
        objs = []
        for i in range(5):
            o = Node()
            vars(o)                                      # a dict of its own
            for name in [f"a{j}" for j in range(i)] + ["x", "y"]:
                setattr(o, name, i)
            objs.append(o)
        objs[4].__dict__ = DictSub(x=0)
        return objs

    def run(fn):
        objs, seen = world(), []
        for step, o in enumerate(objs + objs):
            seen.append((fn(o, step, [step]), gc.is_tracked(vars(o))))
            seen.append((fn(o, "atom", step * 0.5), gc.is_tracked(vars(o))))
            if step == 2:
                del o.a0
                o.x = "moved"
            elif step == 3:
                for k in range(12):
                    setattr(o, f"grow{k}", k)
        return seen, [sorted(map(str, vars(o).items())) for o in objs]

    def tracking(fn):
        """Whether the dict is tracked after atoms, then a container, are stored (3.11 and 3.12 start tracking a
        dict of its own then; 3.13 keeps such values inline, and the dict untracked)."""
        fresh = Node()
        vars(fresh)
        fresh.x = 1
        states = [gc.is_tracked(vars(fresh))]
        fn(fresh, 2, 3)
        states.append(gc.is_tracked(vars(fresh)))
        fn(fresh, 4, (5, [6]))
        return states + [gc.is_tracked(vars(fresh))]

    assert run(jitted(set_x_twice)) == run(set_x_twice)
    assert tracking(jitted(set_x_twice)) == tracking(set_x_twice)


def dict_version_tag(d) -> int:
    """A dict's PEP 509 ``ma_version_tag`` (after the refcount, the type and ``ma_used``: 3.11-3.13)."""
    import ctypes
    return ctypes.c_uint64.from_address(id(d) + 3 * ctypes.sizeof(ctypes.c_void_p)).value


def write_x_and_tag(o, values):
    """One store site written several times (the first notes the hint, the others write there)."""
    tags = []
    for value in values:
        o.x = value
        tags.append(dict_version_tag(o.__dict__))
    return tags


@pytest.mark.skipif(sys.version_info >= (3, 14), reason="3.14 dicts have no version tag")
def test_stores_at_the_hint_give_the_dict_a_new_version_tag():
    """Each write at the hint gives the dict a tag no dict had before (as ``PyDict_SetItem`` does: binding checks
    and Cython's module-global caches compare them), here on an instance whose ``__dict__`` is a module's."""
    import types

    class Holder:
        pass

    namespace = types.ModuleType("mj_tagged")
    for k in range(6):
        setattr(namespace, f"n{k}", k)
    namespace.x = -1
    holder = Holder()
    holder.__dict__ = vars(namespace)
    before = dict_version_tag(vars(namespace))
    tags = jitted(write_x_and_tag)(holder, list(range(8))) + jitted(write_x_and_tag)(holder, list(range(8)))
    assert len(set(tags + [before])) == len(tags) + 1
    assert namespace.x == 7 and vars(namespace)["x"] == 7
    assert max(tags) >= 1 << 62              # written at the hint: moshjit's counter gave the later tags


def test_generated_code_sets_the_dict_version_counter():
    """Golden: a module with attribute caches takes its dict version tags from the process-wide counter."""
    fn = jitted(set_x_twice)
    fn(Fields(["x"]), 1, 2)
    code = str(fn.inspect_code())
    assert "mj_attr_use_versions(mj_dict_versions())" in code
    # the value is cast to object when its signature types it natively (which signature came first depends on
    # the tests that ran before this one)
    assert re.search(r"mj_attr_store\(a_o, 'x', (a_second|\(<object>a_second\)), &_mj_ac1\)", code)


def make_point_class(jit_it: bool):
    class Point:
        def __init__(self, x, y, swap):
            if swap:
                self.y = y
                self.x = x
            else:
                self.x = x
                self.y = y
            self.z = x

    return moshjit.jit(Point, backend="cython") if jit_it else Point


def test_new_attributes_join_the_insertion_order():
    """``__init__`` filling fresh instances (the store sites' inline path for a value not there yet): ``vars`` lists
    the attributes in the order CPython gives, also when another call stores them in another order."""
    fast, plain = make_point_class(True), make_point_class(False)
    for swap in (False, False, True, False, True, True):
        for i in range(3):
            made, expected = fast(i, 2.5, swap), plain(i, 2.5, swap)
            assert list(vars(made).items()) == list(vars(expected).items())
            assert (made.x, made.y, made.z) == (expected.x, expected.y, expected.z)
