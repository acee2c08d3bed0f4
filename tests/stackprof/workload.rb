# A Ruby program with known functions, profiled by stackprof (tests/stackprof/record.sh and
# tests/interop-stackprof.sh): `spin` burns thread CPU time for the milliseconds it is given,
# `nap` sleeps them, `fib` recurses, `allocate` makes strings.
# Usage: ruby workload.rb MODE OUT [raw|aggregate] [SCALE]
#   MODE   cpu, wall or object (StackProf.run's mode; interval 1000 µs, or 1 allocation)
#   OUT    the Marshal dump StackProf.run writes
#   SCALE  the milliseconds multiply by it (default 1)
require 'stackprof'

def spin(ms)
  start = Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID)
  n = 0
  n += 1 while Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID) - start < ms / 1000.0
  n
end

def nap(ms)
  sleep(ms / 1000.0)
end

def fib(n)
  n < 2 ? n : fib(n - 1) + fib(n - 2)
end

def allocate(n)
  n.times.map { |i| 'x' * (i % 7) }
end

def work(scale)
  spin(200 * scale)
  nap(100 * scale)
  fib(26)
  3.times { spin(50 * scale) }
end

mode, out, kind, scale = ARGV
scale = (scale || '1').to_f
raw = kind != 'aggregate'
if mode == 'object'
  StackProf.run(mode: :object, raw: raw, interval: 1, out: out) { allocate(200) }
else
  StackProf.run(mode: mode.to_sym, raw: raw, interval: 1000, out: out) { work(scale) }
end
