#!/usr/bin/env python3
"""Compares `rprof2prof NAME.out | prof-text` with R's own summaryRprof() results.

R's results sit beside each Rprof file of the corpus (made by R 4.2.2; see
golden/rprof/corpus/README.md):

  NAME.by_total.tsv, NAME.by_self.tsv   summaryRprof(f): self and total time per function
  NAME.summary.txt.gz                    also memory = "both" (mem.total per function, MB),
                                         lines = "show" (by.line: self and total per line) and
                                         lines = "show", memory = "both" (mem.total per line)

Times are converted to sample counts (time / interval, R rounds to 3 digits); mem.total is
compared with our `alloc` total in MiB to R's one decimal. For each file it prints one line
per table saying that every row matches, or the rows that differ (R's and ours). The golden
case golden/rprof/reference keeps that report: any change to a count shows up in its diff.

One process for the comparison, the real programs for the profiles (rprof2prof once and
prof-text up to five times per file): a process costs milliseconds on the test machines, and
the shell version of this script started 1,200 of them.

Usage: tests/rprof-reference.py DIR   (DIR holds NAME.out.gz and the files above)
Needs rprof2prof and prof-text on PATH.
"""
import glob
import gzip
import os
import re
import subprocess
import sys
import tempfile

# Every file is bytes: names are compared and printed as R and prof-text wrote them.
ENC = "latin-1"
MIB = 1048576


def number(text):
    """A field as awk reads it as a number: its longest numeric prefix, else 0."""
    m = re.match(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?", text)
    return float(m.group(0)) if m else 0.0


def looks_numeric(text):
    return re.fullmatch(r"\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*", text) is not None


def same(a, b):
    """awk's == on two input fields: numeric when both look like numbers, else as strings."""
    if looks_numeric(a) and looks_numeric(b):
        return number(a) == number(b)
    return a == b


def count(seconds, interval):
    return int(number(seconds) / interval + 0.5)


def lines_of(text):
    """TEXT's lines as awk reads them: a last line without its newline is a line too."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def r_functions(tsv, interval):
    """R's tables -> (name, self, total) in sample counts. R keeps the quotes of each token
    (`"fib"`); a token that is not quoted on both sides (R split a name on a space) is kept
    as R wrote it. write.table escapes quotes inside its own quoting as \\"."""
    rows = []
    with open(tsv, encoding=ENC, newline="\n") as f:
        for line in lines_of(f.read())[1:]:
            fields = line.split("\t")
            fields += [""] * (5 - len(fields))
            name = fields[0]
            if name.startswith('"'):
                name = name[1:]
            if name.endswith('"'):
                name = name[:-1]
            name = name.replace('\\"', '"')
            if len(name) >= 2 and name.startswith('"') and name.endswith('"'):
                name = name[1:-1]
            # by_total has total.time total.pct self.time self.pct; by_self has self first.
            if "by_total" in tsv:
                total, self_ = fields[1], fields[3]
            else:
                self_, total = fields[1], fields[3]
            rows.append((name, str(count(self_, interval)), str(count(total, interval))))
    return rows


def r_printed_table(lines, section, table, n):
    """A table printed by R inside summary.txt: the section whose title is SECTION, the table
    TABLE. Rows are (name, number...) (the name is everything before the last N numbers)."""
    rows = []
    in_section = in_table = header = False
    for line in lines:
        if line == "==== " + section + " ====":
            in_section = True
            continue
        if line.startswith("==== "):
            in_section = False
        if in_section and line == "$" + table:
            in_table = header = True
            continue
        if in_table and header:
            header = False
            continue
        if in_table and (line == "" or line.startswith("$")):
            in_table = False
        if in_table:
            # A row is a name and n numbers; anything else ("<0 rows>", an error) is no row.
            rest, numbers, ok = line, [], True
            for _ in range(n):
                m = re.search(r" +[^ ]+ *$", rest)
                if not m:
                    ok = False
                    break
                value = m.group(0).replace(" ", "")
                if not re.fullmatch(r"-?[0-9.]+", value):
                    ok = False
                    break
                numbers.insert(0, value)
                rest = rest[: m.start()]
            rest = rest.rstrip(" ")
            if ok and rest != "":
                rows.append([rest] + numbers)
    return rows


def prof_text_top(prof, value, granularity="functions"):
    """prof-text --top rows -> (name, flat, cum)."""
    out = subprocess.run(
        ["prof-text", "--top", "--no-trim", "--raw-values", "--value", value,
         "--granularity", granularity, prof],
        check=True, stdout=subprocess.PIPE).stdout.decode(ENC)
    rows, seen = [], False
    row = re.compile(r"^ *[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+ +[^ ]+  ")
    for line in lines_of(out):
        m = row.match(line) if seen else None
        if m:
            fields = line.split()
            rows.append((line[m.end():], fields[0], fields[3]))
        if "flat%" in line:
            seen = True
    return rows


def file_lines(rows):
    """Our FILE:LINE rows as R shows them: basename#LINE (? for an empty file name)."""
    shown = []
    for key, flat, cum in rows:
        name = re.sub(r":[0-9]+$", "", key)
        line = key[len(name) + 1:]
        if name == "?":
            name = ""
        name = re.sub(r".*/", "", name, count=1, flags=re.S)
        shown.append((name + "#" + line, flat, cum))
    return shown


def compare(r_rows, ours, what, mode):
    """Compares (name, a, b) tables: R's against ours. MODE counts: both columns equal; mib:
    column a of R, in MB to 1 decimal, against column b of ours, in bytes. Returns one
    summary line, then the rows that differ."""
    if not r_rows:
        return "  %s: R gives no rows; ours %d\n" % (what, len(ours))
    r_a, r_b, order = {}, {}, []
    for name, a, b in r_rows:
        r_a[name], r_b[name] = a, b
        order.append(name)
    o_a, o_b, extra = {}, {}, []
    for name, a, b in ours:
        o_a[name], o_b[name] = a, b
        if name not in r_a:
            extra.append(name)

    def show(a, b, side):
        if mode != "mib":
            return "self %s total %s" % (a, b)
        return "%s MB" % a if side == "r" else "%.3f MB" % (number(b) / MIB)

    out, matched = "", 0
    for k in order:
        # prof-text --top leaves out rows that are all 0 (as pprof does): as memory, 0 bytes.
        if k not in o_a and mode == "mib":
            o_a[k], o_b[k] = "0", "0"
        if k not in o_a:
            out += "    %s: R %s; ours: none\n" % (k, show(r_a[k], r_b[k], "r"))
            continue
        if mode == "mib":
            ours_mib = number(o_b[k]) / MIB
            ok = ours_mib - number(r_a[k]) <= 0.0500001 and number(r_a[k]) - ours_mib <= 0.0500001
        else:
            ok = same(r_a[k], o_a[k]) and same(r_b[k], o_b[k])
        if ok:
            matched += 1
        else:
            out += "    %s: R %s; ours %s\n" % (k, show(r_a[k], r_b[k], "r"),
                                               show(o_a[k], o_b[k], "o"))
    for k in extra:
        out += "    %s: R none; ours %s\n" % (k, show(o_a[k], o_b[k], "o"))
    if out == "":
        return "  %s: all %d rows match R\n" % (what, len(order))
    more = ", %d more rows in ours" % len(extra) if extra else ""
    return "  %s: %d of %d rows match R%s; differences:\n%s" % (
        what, matched, len(order), more, out)


def r_error(lines, pattern):
    """The first '<error>' line among the lines holding PATTERN and the line after each, cut
    to 80 bytes, or None."""
    shown = set()
    for i, line in enumerate(lines):
        if pattern in line:
            shown.update((i, i + 1))
    for i in sorted(shown):
        if i < len(lines) and "<error>" in lines[i]:
            return lines[i][:80]
    return None


def section_fails(lines, title):
    """Whether the section TITLE's line or the one after it holds R's '<error>'."""
    for i, line in enumerate(lines):
        if line.startswith(title) and any("<error>" in l for l in lines[i:i + 2]):
            return True
    return False


def awk_number(value):
    """A number as awk's print shows it: integers as integers, else %.6g."""
    return "%d" % value if value == int(value) and abs(value) < 1e16 else "%.6g" % value


def compare_file(out_gz, work, emit):
    name = os.path.basename(out_gz)[: -len(".out.gz")]
    base = out_gz[: -len(".out.gz")]
    emit(name + "\n")
    with gzip.open(out_gz) as f:
        data = f.read()
    with open(os.path.join(work, name + ".out"), "wb") as f:
        f.write(data)
    with open(os.path.join(work, name + ".prof"), "wb") as f:
        subprocess.run(["rprof2prof", name + ".out"], cwd=work, check=True, stdout=f,
                       stderr=subprocess.DEVNULL)
    prof = os.path.join(work, name + ".prof")
    header = data.split(b"\n", 1)[0].decode(ENC)
    m = re.match(r".*sample\.interval=([0-9]*)", header)
    digits = m.group(1) if m else header
    interval = number(awk_number(number(digits.split()[0] if digits.split() else "") / 1e6))
    with gzip.open(base + ".summary.txt.gz") as f:
        text = f.read().decode(ENC)
    summary = lines_of(text)

    # Samples: R's sampling.time / interval against the samples of our profile.
    r_samples = ""
    for i, line in enumerate(summary):
        if re.match(r"\$sampling.time", line):
            fields = summary[i + 1].split() if i + 1 < len(summary) else line.split()
            r_samples = str(count(fields[1] if len(fields) > 1 else "", interval))
            break
    top = subprocess.run(
        ["prof-text", "--top", "--no-trim", "--raw-values", "--value", "samples", prof],
        check=True, stdout=subprocess.PIPE).stdout.decode(ENC)
    our_samples = "\n".join(re.findall(r"^.*total \(([0-9]*) samples?\).*$", top, re.M))
    if r_samples == our_samples:
        emit("  samples: %s in R and ours\n" % r_samples)
    else:
        emit("  samples: R %s; ours %s\n" % (r_samples, our_samples))

    # Functions: self and total sample counts, from both of R's tables.
    ours = prof_text_top(prof, "samples")
    emit(compare(r_functions(base + ".by_total.tsv", interval), ours, "functions (by.total)",
                 "counts"))
    ours_self = [row for row in ours if number(row[1]) != 0 or not looks_numeric(row[1])]
    emit(compare(r_functions(base + ".by_self.tsv", interval), ours_self, "functions (by.self)",
                 "counts"))

    # Memory: mem.total per function, where R computes it.
    title = "==== summaryRprof(f, memory = 'both') ===="
    if any(line.startswith(title) for line in summary):
        r_mem = []
        for row in r_printed_table(summary, "summaryRprof(f, memory = 'both')", "by.total", 5):
            fn = row[0]
            if len(fn) >= 2 and fn.startswith('"') and fn.endswith('"'):
                fn = fn[1:-1]
            r_mem.append((fn, row[3], row[3]))
        if not section_fails(summary, title):
            emit(compare(r_mem, prof_text_top(prof, "alloc"), "mem.total per function", "mib"))
        else:
            emit("  mem.total per function: R fails: %s\n"
                 % r_error(summary, "memory = 'both') ===="))

    # Lines: by.line of lines = "show" (self = innermost srcref, total = distinct srcrefs).
    title = "==== summaryRprof(f, lines = 'show') ===="
    if any(line.startswith(title) for line in summary):
        r_lines_all = [(row[0], str(count(row[1], interval)), str(count(row[3], interval)))
                       for row in r_printed_table(summary, "summaryRprof(f, lines = 'show')",
                                                  "by.line", 4)]
        ours_lines = file_lines(prof_text_top(prof, "samples", "filelines"))
        r_lines = [row for row in r_lines_all if row[0] != "<no location>"]
        emit(compare(r_lines, ours_lines, "by.line", "counts"))
        # Samples without any srcref: R's <no location> row; ours: samples minus those with a
        # line.
        r_none = next((row[1] for row in r_lines_all if row[0] == "<no location>"), "0")
        our_lined = sum(number(row[1]) for row in ours_lines)
        ours_none = int(our_samples or 0) - int(our_lined)
        if r_none == str(ours_none):
            emit("  <no location>: %s samples in R and ours\n" % r_none)
        else:
            emit("  <no location>: R %s samples; ours %d\n" % (r_none, ours_none))
        title = "==== summaryRprof(f, lines = 'show', memory = 'both') ===="
        if any(line.startswith(title) for line in summary):
            r_lines_mem = [(row[0], row[5], row[5]) for row in r_printed_table(
                summary, "summaryRprof(f, lines = 'show', memory = 'both')", "by.line", 5)
                if row[0] != "<no location>"]
            ours_lines_mem = file_lines(prof_text_top(prof, "alloc", "filelines"))
            if section_fails(summary, title):
                emit("  mem.total per line: R fails: %s\n"
                     % r_error(summary, "lines = 'show', memory = 'both') ===="))
            else:
                emit(compare(r_lines_mem, ours_lines_mem, "mem.total per line", "mib"))


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: tests/rprof-reference.py DIR")
    directory = sys.argv[1]
    out = sys.stdout.buffer

    def emit(text):
        out.write(text.encode(ENC))

    with tempfile.TemporaryDirectory(prefix="rprof-reference.") as work:
        for out_gz in sorted(glob.glob(os.path.join(glob.escape(directory), "*.out.gz")),
                             key=os.fsencode):
            if os.path.isfile(out_gz[: -len(".out.gz")] + ".by_total.tsv"):
                compare_file(out_gz, work, emit)
    out.flush()


if __name__ == "__main__":
    main()
