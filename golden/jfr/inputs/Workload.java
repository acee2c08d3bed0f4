// The workload the JFR reader's golden cases record (record.sh): what each part does is known,
// so the converted profile can be checked against it.
//   - two named threads, "hot-a" and "hot-b", burning CPU in Workload.spinA / Workload.spinB;
//   - the main thread sleeping 300 ms in Thread.sleep (a jdk.ThreadSleep event of ~300 ms);
//   - "holder" keeping a monitor for 150 ms while "waiter" blocks on it (jdk.JavaMonitorEnter);
//   - "allocator" allocating byte arrays in Workload.allocate (allocation samples).
public final class Workload {
  static final Object LOCK = new Object();
  static volatile long sink;
  static volatile Object keep;

  static long spinA(long n) {
    long x = 1;
    for (long i = 0; i < n; i++) x = x * 31 + i;
    return x;
  }

  static long spinB(long n) {
    long x = 7;
    for (long i = 0; i < n; i++) x = x ^ (x << 3) + i;
    return x;
  }

  static void burn(boolean a, long millis) {
    final long end = System.nanoTime() + millis * 1_000_000L;
    while (System.nanoTime() < end) sink += a ? spinA(100_000) : spinB(100_000);
  }

  static void allocate(long millis) {
    final long end = System.nanoTime() + millis * 1_000_000L;
    while (System.nanoTime() < end) {
      for (int i = 0; i < 1000; i++) keep = new byte[1024 + i];
    }
  }

  public static void main(String[] args) throws Exception {
    Thread a = new Thread(() -> burn(true, 1000), "hot-a");
    Thread b = new Thread(() -> burn(false, 1000), "hot-b");
    Thread alloc = new Thread(() -> allocate(400), "allocator");
    Thread holder = new Thread(() -> {
      synchronized (LOCK) {
        final long end = System.nanoTime() + 150_000_000L;
        while (System.nanoTime() < end) sink++;
      }
    }, "holder");
    Thread waiter = new Thread(() -> {
      synchronized (LOCK) {
        sink++;
      }
    }, "waiter");
    a.start();
    b.start();
    alloc.start();
    holder.start();
    Thread.sleep(20);  // the holder takes the lock first
    waiter.start();
    Thread.sleep(300);
    for (Thread t : new Thread[] {a, b, alloc, holder, waiter}) t.join();
  }
}
