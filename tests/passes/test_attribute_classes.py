"""``passes.attribute_classes.stored_classes``: what a class's methods store in ``self.<name>``, as a guess of
the attribute's class, on the raw SSA of tiny classes; and the driver's memo of it."""
from __future__ import annotations

import moshjit
from moshjit.passes.attribute_classes import stored_classes
from moshjit.compiler import DriverContext
from moshjit.frontend import build_ssa


class Leaf:
    def __init__(self, value):
        self.value = value


class Other:
    pass


class Node:
    def __init__(self, value, parent=None):
        self.leaf = Leaf(value)                            # a constructor: guessed
        self.me = self                                     # the receiver: the class itself
        self.value = value                                 # an argument: nothing known
        self.maybe = Leaf(value) if parent is None else parent     # a φ of a constructor and an argument
        self.either = Leaf(value) if value else Other()    # two classes: no guess
        self.nothing = None
        self.counted = len([value])                        # a builtin's result: nothing known

    def later(self):
        self.made_later = Other()                          # stored by another method
        other = Node(1)
        other.foreign = Leaf(2)                            # not on the receiver: not this class's attribute


def guesses(cls):
    methods = [build_ssa(f, optimize=False) for f in vars(cls).values() if callable(f) and hasattr(f, "__code__")]
    return stored_classes(methods, cls)


def test_constructors_and_the_receiver_are_guessed():
    found = guesses(Node)
    assert found["leaf"] is Leaf and found["me"] is Node and found["maybe"] is Leaf
    assert found["made_later"] is Other


def test_arguments_two_classes_none_and_other_calls_give_no_guess():
    found = guesses(Node)
    for name in ("value", "either", "nothing", "counted", "foreign"):
        assert name not in found


def test_the_driver_memoises_per_class_and_looks_again_when_a_method_changes():
    class Box:
        def __init__(self):
            self.item = Leaf(0)
    ctx = DriverContext(Box.__init__, (Box,))
    assert ctx.attribute_classes(Box) == {"item": Leaf}
    assert ctx.attribute_classes(Box) is ctx.attribute_classes(Box)

    def __init__(self):
        self.item = Other()
    Box.__init__ = __init__
    assert ctx.attribute_classes(Box) == {"item": Other}


def test_jitted_methods_and_inherited_ones_are_read():
    class Base:
        def __init__(self):
            self.base_item = Leaf(0)

    class Derived(Base):
        def reset(self):
            self.own_item = Other()
    Derived = moshjit.jit(Derived)
    found = DriverContext(None, ()).attribute_classes(Derived)
    assert found == {"base_item": Leaf, "own_item": Other}
