#!/usr/bin/python3
"""Writes a large massif output or DHAT JSON for tests/bench/bench-valgrind.sh.

   make-valgrind.py OUT massif SNAPSHOTS SITES DEPTH
   make-valgrind.py OUT dhat POINTS DEPTH

massif: SNAPSHOTS detailed snapshots (every one detailed, the middle one the peak), each a heap
tree of SITES allocation sites, each below a chain of DEPTH callers out of 50 functions, as
massif writes them (valgrind 3.19). DHAT: POINTS program points of DEPTH frames each, out of a
frame table of 5000, every heap-mode field set, as DHAT 3.19 writes them."""
import random
import sys

out, kind = sys.argv[1], sys.argv[2]
rng = random.Random(45)


def frame(i):
    return "0x%X: function_%d (source_%d.c:%d)" % (0x400000 + 16 * i, i, i % 20, 10 + i % 300)


with open(out, "w") as f:
    if kind == "massif":
        snapshots, sites, depth = map(int, sys.argv[3:6])
        f.write("desc: --detailed-freq=1\ncmd: ./synthetic\ntime_unit: i\n")
        chains = [[rng.randrange(50) for _ in range(depth)] for _ in range(sites)]
        for n in range(snapshots):
            sizes = [rng.randrange(1, 100000) for _ in range(sites)]
            total = sum(sizes)
            tree = "peak" if n == snapshots // 2 else "detailed"
            f.write("#-----------\nsnapshot=%d\n#-----------\ntime=%d\nmem_heap_B=%d\n"
                    "mem_heap_extra_B=%d\nmem_stacks_B=0\nheap_tree=%s\n"
                    % (n, 1000 * n, total, sites * 8, tree))
            f.write("n%d: %d (heap allocation functions) malloc/new/new[], --alloc-fns, etc.\n"
                    % (sites, total))
            for site, size in enumerate(sizes):
                f.write(" n1: %d %s\n" % (size, frame(1000 + site)))
                for level, function in enumerate(chains[site]):
                    last = level == depth - 1
                    f.write("%sn%d: %d %s\n" % (" " * (level + 2), 0 if last else 1, size,
                                                frame(function)))
    else:
        points, depth = map(int, sys.argv[3:5])
        f.write('{"dhatFileVersion":2\n,"mode":"heap","verb":"Allocated"\n,"bklt":true,'
                '"bkacc":true\n,"tu":"instrs","Mtu":"Minstr"\n,"tuth":500\n,"cmd":"./synthetic"\n'
                ',"pid":1\n,"te":100000000\n,"tg":50000000\n,"pps":\n [')
        for p in range(points):
            tb = rng.randrange(1, 1 << 20)
            fs = ",".join(str(1 + rng.randrange(4999)) for _ in range(depth))
            f.write('%s{"tb":%d,"tbk":%d\n  ,"tl":%d\n  ,"mb":%d,"mbk":1\n  ,"gb":%d,"gbk":1\n'
                    '  ,"eb":0,"ebk":0\n  ,"rb":%d,"wb":%d\n  ,"fs":[%s]\n  }\n '
                    % ("" if p == 0 else ",", tb, 1 + tb % 7, tb * 3, tb, tb // 2, tb, tb, fs))
        f.write(']\n,"ftbl":\n ["[root]"\n')
        for i in range(1, 5000):
            f.write(' ,"%s"\n' % frame(i))
        f.write(' ]\n}\n')
