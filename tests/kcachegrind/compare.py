"""Compares what KCachegrind showed of prof2callgrind's output (flat_profile.py's lines) with
prof-text's report of the same profile and value type (`prof-text --top --no-trim --raw-values
--value TYPE`): the status bar's total is prof-text's total; each function's self cost in
percent is prof-text's flat% to the hundredth KCachegrind prints (functions of one name in
several files, which KCachegrind lists apart, summed); with --inclusive, its inclusive cost is
prof-text's cum% (KCachegrind sums the calls into a function: equal where every stack starts at
one root and nothing recurses); no function of a larger cost (inclusive with --inclusive, else
self) than the last one listed is missing (KCachegrind lists the first 100 by inclusive cost).

prof2callgrind names a frame without a function by its address, KCachegrind showing its object
(or "(unknown)"); prof-text names it "[object]" (or "<unknown>"), all of one object in one row.

Usage: compare.py [--inclusive] SHOWN TOP"""

import re
import sys


def read_top(top):
    """prof-text's rows {name: (flat, cum)} and its total."""
    expected, total = {}, None
    with open(top, encoding="utf-8") as lines:
        for line in lines:
            match = re.search(r" of (-?[0-9.e+]+) total", line)
            if match and total is None:
                total = float(match.group(1))
            fields = line.split()
            if len(fields) >= 6 and re.match(r"^-?[0-9.e+]+$", fields[0]):
                name = line.rstrip("\n")
                for _ in range(5):
                    name = re.sub(r"^ *\S+", "", name, count=1)
                expected[name.strip()] = (float(fields[0]), float(fields[3]))
    return expected, total


def main():
    args = sys.argv[1:]
    inclusive = args[0] == "--inclusive"
    if inclusive:
        args = args[1:]
    shown, top = args
    expected, total = read_top(top)
    expected_names = set(expected)
    total_shown, rows, skipped, by_address = None, {}, 0, set()
    with open(shown, encoding="utf-8") as lines:
        for line in lines:
            fields = line.rstrip("\n").split("\t")
            if fields[0] == "total":
                total_shown = float(fields[2])
            elif fields[0] == "row":
                incl, self_, name = float(fields[1]), float(fields[2]), fields[3]
                if re.match(r"^0x[0-9a-f]+$", name) and name not in expected_names:
                    name = "<unknown>" if fields[4] == "(unknown)" else f"[{fields[4]}]"
                    by_address.add(name)
                sums = rows.setdefault(name, [0.0, 0.0, 0])
                sums[0] += incl
                sums[1] += self_
                sums[2] += 1
            elif fields[0] == "skipped":
                skipped = int(fields[1])
    errors = []
    if total_shown is None or total is None:
        sys.exit(f"compare.py: {shown}: no total shown, or {top}: no total")
    if total_shown != total:
        errors.append(f"total {total_shown:g} in KCachegrind's status bar, prof-text {total:g}")
    for name, (incl, self_, count) in rows.items():
        if name not in expected:
            errors.append(f"{name!r} is listed by KCachegrind, not by prof-text")
            continue
        flat, cum = expected[name]
        # Each row is printed to 0.01: a rounding of 0.005 a row.
        slack = 0.005 * count + 1e-9
        # Rows of one name merged: their inclusive costs add up where prof-text counts once.
        wrong_incl = inclusive and count == 1 and abs(incl - 100 * cum / total) > slack
        wrong_self = abs(self_ - 100 * flat / total) > slack
        if skipped and name in by_address:
            # Some of the addresses prof-text puts in this row may be among those not listed.
            wrong_self = self_ > 100 * flat / total + slack
        if wrong_self or wrong_incl:
            errors.append(f"{name!r}: incl. {incl:.2f}%, self {self_:.2f}% in KCachegrind;"
                          f" prof-text cum {100 * cum / total:.3f}%, flat {100 * flat / total:.3f}%")
    if rows and skipped:
        smallest = min(incl for incl, _, _ in rows.values())
        for name, (flat, cum) in expected.items():
            # KCachegrind lists by inclusive cost, never below the self cost.
            shown_cost = cum if inclusive else flat
            if name not in rows and 100 * shown_cost / total > smallest + 0.005:
                errors.append(f"{name!r} ({100 * shown_cost / total:.2f}%) is not listed")
    if len(rows) + skipped < len(expected):
        errors.append(f"KCachegrind has {len(rows)} functions listed and {skipped} skipped;"
                      f" prof-text {len(expected)}")
    if not rows:
        errors.append("KCachegrind listed no function")
    if errors:
        sys.exit(f"compare.py: {shown}: {len(errors)} differences: " + "; ".join(errors[:8]))
    print(f"kcachegrind: {shown.rsplit('/', 1)[-1]}: total {total:g}, {len(rows)} functions'"
          f" self{' and inclusive' if inclusive else ''} costs as prof-text's"
          f" ({skipped} more not listed)")


if __name__ == "__main__":
    main()
