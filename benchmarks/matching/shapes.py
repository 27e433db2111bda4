"""Data shared by every variant of the matching benchmark: node classes and the subjects matched."""
from __future__ import annotations

import random
from dataclasses import dataclass


@dataclass
class Point:
    x: int
    y: int


@dataclass
class Circle:
    center: Point
    r: int


@dataclass
class Rect:
    corner: Point
    w: int
    h: int


@dataclass
class Num:
    value: int


@dataclass
class Add:
    left: object
    right: object


@dataclass
class Mul:
    left: object
    right: object


@dataclass
class Neg:
    operand: object


def tuple_subjects(rng: random.Random, n: int) -> list:
    return [tuple(rng.randrange(10) for _ in range(rng.randrange(5))) for _ in range(n)]


def nested_list_subjects(rng: random.Random, n: int) -> list:
    shapes = [lambda: [], lambda: [[rng.randrange(9), rng.randrange(9)], [rng.randrange(9), rng.randrange(9)]],
              lambda: [rng.randrange(9), [rng.randrange(9), rng.randrange(9), rng.randrange(9)]],
              lambda: [[rng.randrange(9)], rng.randrange(9)], lambda: [rng.randrange(9)] * 3]
    return [rng.choice(shapes)() for _ in range(n)]


def shape_subjects(rng: random.Random, n: int) -> list:
    makers = [lambda: Circle(Point(0, 0), rng.randrange(1, 5)), lambda: Circle(Point(rng.randrange(3), 1), 2),
              lambda: Rect(Point(0, 0), rng.randrange(1, 5), rng.randrange(1, 5)),
              lambda: Rect(Point(1, 1), 2, 2), lambda: Point(rng.randrange(3), rng.randrange(3))]
    return [rng.choice(makers)() for _ in range(n)]


TOKENS = ["(", ")", "+", "-", "*", "/", "if", "else", "while", "for", 0, 1, "x", None]


def token_subjects(rng: random.Random, n: int) -> list:
    return [rng.choice(TOKENS) for _ in range(n)]


def expression(rng: random.Random, depth: int):
    if depth == 0 or rng.random() < 0.2:
        return Num(rng.randrange(1, 10))
    kind = rng.randrange(3)
    if kind == 0:
        return Add(expression(rng, depth - 1), expression(rng, depth - 1))
    if kind == 1:
        return Mul(expression(rng, depth - 1), expression(rng, depth - 1))
    return Neg(expression(rng, depth - 1))


def expression_subjects(rng: random.Random, n: int) -> list:
    return [expression(rng, 6) for _ in range(n)]


def event_subjects(rng: random.Random, n: int) -> list:
    makers = [lambda: {"type": "click", "x": rng.randrange(100), "y": rng.randrange(100)},
              lambda: {"type": "key", "key": "enter"}, lambda: {"type": "key", "key": rng.choice(["a", "tab"])},
              lambda: {"type": "scroll", "delta": rng.randrange(-3, 4)}, lambda: {"type": "resize"},
              lambda: {"kind": "other"}, lambda: ["not", "a", "mapping"]]
    return [rng.choice(makers)() for _ in range(n)]


def token_pair_subjects(rng: random.Random, n: int) -> list:
    makers = [lambda: ("num", rng.randrange(100)), lambda: ("op", rng.choice("+-*/")),
              lambda: ("name", rng.choice(["x", "_tmp", "value"])), lambda: ("eof",), lambda: ("bad", 1, 2)]
    return [rng.choice(makers)() for _ in range(n)]
