# The workload of golden/pstats (record.sh): known functions, call counts and a sleep.
import time


def leaf(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def fib(n):  # recursion: 177 calls for fib(10), one of them primitive
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def café():  # a non-ASCII name
    return sum(leaf(2000) for _ in range(5))


class Reader:
    def __init__(self):  # __init__ twice, in two classes: two functions
        self.rows = [leaf(500) for _ in range(3)]


class Writer:
    def __init__(self):
        self.sleeps = 0


def work():
    for _ in range(10):
        leaf(20000)
    fib(10)
    café()
    Reader()
    Writer()
    square = lambda x: x * x  # noqa: E731
    [square(i) for i in range(100)]
    time.sleep(0.1)


work()
