"""``moshjit.samples``: what a signature's first call shows of its arguments (classes of attributes and list items,
the class an argument is), read without running any of the program's code; and its use by the compiler as a
guarded guess (a method inlined behind ``MethodIs``), exact when later calls bring other classes."""
from __future__ import annotations

from moshjit import jit
from moshjit.functions import dispatcher_behind
from moshjit.samples import MAX_DEPTH, shape_of, shapes_of


class Part:
    def __init__(self, k):
        self.k = k

    def get(self):
        return self.k


class Whole:
    def __init__(self, k):
        self.part = Part(k)
        self.parts = [Part(k), Part(k + 1)]

    def total(self):
        return self.part.get() + sum(p.get() for p in self.parts)


class Watched:
    """Reading it any other way than the generic lookup of its own storage would run its code."""
    calls = 0

    def __init__(self):
        self.plain = Part(1)

    @property
    def computed(self):
        Watched.calls += 1
        return Part(2)

    def __getattr__(self, name):
        Watched.calls += 1
        return Part(3)

    def use(self):
        return self.plain, self.computed, self.missing


class Odd:
    def __getattribute__(self, name):
        raise AssertionError("never called by sampling")

    def use(self):
        return self.anything


def test_attributes_items_and_named_classes_are_sampled():
    whole, part = shapes_of((Whole(1), Part))
    assert whole.cls is Whole and whole.attributes["part"].cls is Part
    assert whole.attributes["parts"].cls is list and whole.attributes["parts"].item.cls is Part
    assert part.cls is type and part.named is Part
    assert shape_of([]).item is None and shape_of(3).attributes == {}


def test_sampling_runs_none_of_the_programs_code():
    Watched.calls = 0
    shape = shape_of(Watched())
    assert Watched.calls == 0
    assert set(shape.attributes) == {"plain"}         # neither the property nor __getattr__ was asked
    assert shape_of(Odd()).attributes == {}          # a __getattribute__ of its own: nothing read


def test_depth_is_bounded():
    class Chain:
        def __init__(self, n):
            self.next = Chain(n - 1) if n else None

        def walk(self):
            return self.next
    shape, depth = shape_of(Chain(10)), 0
    while shape is not None and "next" in shape.attributes:
        shape, depth = shape.attributes["next"], depth + 1
    assert depth == MAX_DEPTH


def make_grid_user():
    namespace: dict = {"__name__": "samples_program"}
    exec(compile('''
class Grid:
    def __init__(self, n):
        self.cells = list(range(n))

    def __getitem__(self, i):
        return self.cells[i]


class Shifted(Grid):
    def __getitem__(self, i):
        return self.cells[i] + 100


def first_of(Array, n):
    grid = Array(n)
    return grid[0] + grid[n - 1]
''', "<samples program>", "exec"), namespace)
    return namespace


def test_a_class_passed_as_argument_is_guessed_and_checked_at_each_call():
    plain, jitted = make_grid_user(), make_grid_user()
    jitted["Grid"] = jit(jitted["Grid"])
    jitted["Shifted"] = jit(jitted["Shifted"])
    first_of = jit(jitted["first_of"])
    assert first_of(jitted["Grid"], 4) == plain["first_of"](plain["Grid"], 4) == 3
    text = first_of.inspect_types(first_of.signatures[0])
    assert "method_is['__getitem__'" in text and "Grid" in text
    # the same specialisation (the key says only "a class"), another class: the subscript itself
    assert first_of(jitted["Shifted"], 4) == plain["first_of"](plain["Shifted"], 4) == 203
    assert len(first_of.signatures) == 1


def test_the_dispatcher_keeps_the_first_calls_shapes_per_signature():
    whole = jit(Whole)
    Whole(1).total()
    obj = whole(2)
    assert obj.total() == Whole(2).total()
    dispatcher = dispatcher_behind(vars(whole)["total"])
    (key,) = dispatcher._shapes
    assert dispatcher._shapes[key][0].attributes["part"].cls is Part


@jit
class Item:
    def __init__(self, k):
        self.k = k

    def get(self):
        return self.k


@jit
class Holder:
    def __init__(self, k, items):
        self.first = items[0]
        self.items = items
        self.k = k

    def total(self):
        return self.first.get() + sum(p.get() for p in self.items)


def test_attribute_and_list_item_receivers_are_inlined_from_the_sample():
    """``self.first``'s class comes from no constructor the class's methods call: only the sample tells it."""
    holder = Holder(1, [Item(5), Item(6)])
    assert holder.total() == 5 + 5 + 6
    dispatcher = dispatcher_behind(vars(Holder)["total"])
    text = dispatcher.inspect_types(dispatcher.signatures[0])
    assert text.count("method_is['get'") == 2            # self.first.get() and p.get() for p in self.items
    holder.first = Part(40)                               # another class there: the call itself
    assert holder.total() == 40 + 5 + 6


def test_a_list_of_several_classes_gives_no_item_guess():
    """A polymorphic list (deltablue's constraints) would make the guard fail at most calls, each failure paying
    the check on top of the call."""
    assert shape_of([Part(1), Part(2)]).item.cls is Part
    assert shape_of([Part(1), Item(2), Part(3)]).item is None
