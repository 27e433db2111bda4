"""Class statements inside functions: the class body runs as a plain function under ``__build_class__``, as in
CPython, closing over the compiled function's cells."""
# ruff: noqa


def local_class(x):
    class Local:
        value = x

        def twice(self):
            return self.value * 2
    return Local().twice(), Local.__name__, Local.__qualname__


def class_with_base_and_super(x):
    class Base:
        def f(self, v):
            return v + 1

    class Child(Base):
        def f(self, v):
            return super().f(v) * x
    return Child().f(3), [c.__name__ for c in Child.__mro__]


def class_sees_later_binding(x):
    class Reader:
        def read(self):
            return x
    r = Reader()
    x = x * 10
    return r.read()


def class_body_raises(x):
    class Bad:
        value = 1 // x
    return Bad.value


def class_with_keywords(n):
    class Meta(type):
        def __new__(mcls, name, bases, ns, **kw):
            ns["extra"] = kw.get("extra", 0) + n
            return super().__new__(mcls, name, bases, ns)

    class Made(metaclass=Meta, extra=5):
        pass
    return Made.extra


CASES = [
    (local_class, [(1,), ("ab",)]),
    (class_with_base_and_super, [(2,), ("s",)]),
    (class_sees_later_binding, [(3,)]),
    (class_body_raises, [(0,), (1,)]),
    (class_with_keywords, [(2,)]),
]
