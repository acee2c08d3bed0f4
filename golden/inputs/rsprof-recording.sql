-- An rsprof recording, written by hand from rsprof's storage design (its schema, pragmas and
-- inserts as section 7 gives them: ../shared/background/002_*): rsprof is not a Debian package,
-- so no real recording can be made here. Three checkpoints of one second, a process whose
-- compute() is sampled most, whose parse() allocates and frees, and whose cache_put() keeps
-- what it allocates (live bytes at the end: 4096 + 2048, and 512 of parse()).
-- rsprof-recording.db beside it is this file in a database of small pages, for the unit tests
-- and the fuzzer's seeds (under libFuzzer's 8 KiB):
--   sqlite3 -cmd 'PRAGMA page_size=512' rsprof-recording.db < rsprof-recording.sql
PRAGMA journal_mode = WAL;
PRAGMA synchronous = NORMAL;
CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE checkpoints (
    id INTEGER PRIMARY KEY,
    timestamp_ms INTEGER NOT NULL  -- offset from start_time
);
CREATE TABLE symbols (
    addr INTEGER PRIMARY KEY,
    file TEXT,
    line INTEGER,
    function TEXT
);
CREATE TABLE cpu_samples (
    checkpoint_id INTEGER NOT NULL,
    addr INTEGER NOT NULL,
    count INTEGER NOT NULL,
    FOREIGN KEY (checkpoint_id) REFERENCES checkpoints(id),
    FOREIGN KEY (addr) REFERENCES symbols(addr)
);
CREATE INDEX idx_cpu_checkpoint ON cpu_samples(checkpoint_id);
CREATE INDEX idx_cpu_addr ON cpu_samples(addr);
CREATE TABLE heap_events (
    checkpoint_id INTEGER NOT NULL,
    addr INTEGER NOT NULL,
    alloc_bytes INTEGER NOT NULL DEFAULT 0,
    free_bytes INTEGER NOT NULL DEFAULT 0,
    FOREIGN KEY (checkpoint_id) REFERENCES checkpoints(id),
    FOREIGN KEY (addr) REFERENCES symbols(addr)
);
CREATE INDEX idx_heap_checkpoint ON heap_events(checkpoint_id);
CREATE INDEX idx_heap_addr ON heap_events(addr);
INSERT INTO meta VALUES ('version', '1'), ('pid', '123456'), ('process_name', 'my-app'),
    ('exe_path', '/usr/bin/my-app'), ('start_time', '2025-01-06T14:30:22Z'),
    ('checkpoint_interval_ms', '1000'), ('cpu_freq_hz', '99');
BEGIN;
INSERT INTO checkpoints (timestamp_ms) VALUES (1000);
INSERT OR IGNORE INTO symbols (addr, file, line, function) VALUES
    (4198400, 'src/main.rs', 42, 'my_app::compute'),
    (4198656, 'src/parse.rs', 17, 'my_app::parse'),
    (4198912, NULL, NULL, NULL);
INSERT INTO cpu_samples (checkpoint_id, addr, count) VALUES (1, 4198400, 60), (1, 4198656, 20),
    (1, 4198912, 3);
INSERT INTO heap_events (checkpoint_id, addr, alloc_bytes, free_bytes) VALUES
    (1, 4198656, 8192, 4096);
COMMIT;
BEGIN;
INSERT INTO checkpoints (timestamp_ms) VALUES (2001);
INSERT OR IGNORE INTO symbols (addr, file, line, function) VALUES
    (4198408, 'src/main.rs', 43, 'my_app::compute'),
    (4199168, 'src/cache.rs', 8, 'my_app::cache_put');
INSERT INTO cpu_samples (checkpoint_id, addr, count) VALUES (2, 4198400, 50), (2, 4198408, 25),
    (2, 4199168, 4);
INSERT INTO heap_events (checkpoint_id, addr, alloc_bytes, free_bytes) VALUES
    (2, 4198656, 1024, 4608), (2, 4199168, 4096, 0);
COMMIT;
BEGIN;
INSERT INTO checkpoints (timestamp_ms) VALUES (3000);
INSERT INTO cpu_samples (checkpoint_id, addr, count) VALUES (3, 4198400, 70), (3, 4198656, 9);
INSERT INTO heap_events (checkpoint_id, addr, alloc_bytes, free_bytes) VALUES
    (3, 4199168, 2048, 0);
COMMIT;
