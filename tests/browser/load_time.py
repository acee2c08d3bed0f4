"""Prints how long a page takes to load in headless Chromium (navigation to load event, the
page's script having drawn its first view), the median of three loads, and fails on a console
error. Usage: load_time.py FILE [FRAGMENT]"""

import statistics
import sys

from cdp import Browser, Failure, run


def main():
    path = sys.argv[1]
    browser = Browser()
    try:
        times = [browser.open(path) for _ in range(3)]
        problems = browser.problems()
        if problems:
            raise Failure("; ".join(problems))
        print(f"{statistics.median(times):.2f}")
    finally:
        browser.close()


if __name__ == "__main__":
    run(main)
