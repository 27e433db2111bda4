"""What the first call of a signature showed about its arguments beyond their dispatch kinds: the class an argument
that is a class names, the classes its instance attributes and its list items had (two levels deep; lists and
tuples inside lists and tuples four, for the item types of native list arguments). The compiler uses these only as
guesses for code it guards at run time (a method inlined behind ``MethodIs``, a list's items checked by a native
entry); only types are
kept, never the arguments, so no object lives longer for being sampled. Reading them runs none of the program's
code and changes no object: only the names the class's methods use are read, with the generic lookup, and only
where the class has nothing of that name (or a slot) and no ``__getattribute__`` or metaclass of its own.
"""
from __future__ import annotations

import types
import weakref

from moshjit.functions import class_attribute, methods_of
from moshjit.match_reference import HEAPTYPE

MAX_DEPTH = 2          # attribute and item levels looked into (``self.board.zobrist``)
MAX_ITEM_DEPTH = 4     # levels of lists and tuples looked into (n-body's pairs: list → tuple → tuple → list → float)
MAX_ATTRIBUTES = 24    # instance attributes looked at per object
MAX_ITEMS = 8          # first items of a list or tuple that must share one class for an item guess


class Shape:
    """The class of one sampled value; ``named``: the class the value is, when it is one; ``attributes``: shapes of
    its instance attributes; ``item``: the shape of a list's or tuple's items, when its first ones share a class;
    ``items``: a short tuple's shape at each position."""

    __slots__ = ("cls", "named", "attributes", "item", "items")

    def __init__(self, cls: type, named: type | None = None, attributes: dict | None = None, item=None,
                 items: tuple | None = None):
        self.cls, self.named, self.attributes, self.item, self.items = cls, named, attributes or {}, item, items

    def __repr__(self) -> str:
        return (f"Shape({self.cls.__name__}, named={self.named}, attributes={self.attributes}, item={self.item}, "
                f"items={self.items})")


def shapes_of(args: tuple) -> tuple:
    """One ``Shape`` per argument."""
    return tuple(shape_of(arg) for arg in args)


def shape_of(value, depth: int = MAX_DEPTH, item_depth: int = MAX_ITEM_DEPTH) -> Shape:
    """``value``'s shape, looking ``depth`` levels of attributes deep and ``item_depth`` levels of list and tuple
    items (an item's own attributes one level less deep than its container's)."""
    cls = type(value)
    if cls is type:
        return Shape(cls, named=value)
    if cls is list or cls is tuple:          # one class among its first items, or no guess (a polymorphic list)
        if item_depth == 0:
            return Shape(cls)
        first = value[:MAX_ITEMS]
        same = bool(first) and all(type(item) is type(first[0]) for item in first)
        items = tuple(shape_of(item, depth - 1, item_depth - 1) for item in value) \
            if cls is tuple and len(value) <= MAX_ITEMS else None
        return Shape(cls, item=shape_of(first[0], depth - 1, item_depth - 1) if same else None, items=items)
    if depth <= 0:
        return Shape(cls)
    attributes = {}
    for name, attribute in _instance_attributes(value).items():
        attributes[name] = shape_of(attribute, depth - 1, depth - 1)   # an attribute's items: as deep as before
    return Shape(cls, attributes=attributes)


def _instance_attributes(value) -> dict:
    """{name: value} of ``value``'s own attributes that its class's methods name, read with the generic lookup
    where the class has nothing of that name (or a slot): no descriptor the program defined is called, and the
    object is left as it was (reading ``__dict__`` would make CPython 3.11+ give it a dict of its own)."""
    cls = type(value)
    if type(cls) is not type or not cls.__flags__ & HEAPTYPE \
            or class_attribute(cls, "__getattribute__") is not _GENERIC_GETATTRIBUTE:
        return {}                         # (a metaclass of its own could run code as its attributes are read)
    found = {}
    for name in _attribute_names(cls):
        in_class = class_attribute(cls, name)
        if in_class is not None and type(in_class) is not types.MemberDescriptorType:
            continue
        try:
            found[name] = object.__getattribute__(value, name)
        except AttributeError:
            continue
        if len(found) == MAX_ATTRIBUTES:
            break
    return found


def _attribute_names(cls: type) -> list:
    """The names ``cls``'s methods use (``co_names``): its instances' attributes are among them. Memoised per class
    (a method added to the class later is not looked at: a guess is missed, nothing else)."""
    names = _names.get(cls)
    if names is None:
        names = _names[cls] = list(dict.fromkeys(name for function in methods_of(cls)
                                                 for name in function.__code__.co_names))
    return names


_names: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_GENERIC_GETATTRIBUTE = vars(object)["__getattribute__"]
