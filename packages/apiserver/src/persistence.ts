/**
 * Durability for `statePath`: an append-only log of JSON lines, one per committed change, made
 * durable by group commit (every write waits for the fsync of the batch that holds it, so an
 * acknowledged write survives kill -9 and power loss), and compacted into a snapshot by
 * write-to-temp, fsync, rename. On start the log is replayed; a torn last line is ignored.
 */
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Registry } from './registry';
import type { CommitRecord, Store } from './store/store';

/**
 * Writes that were applied in memory (and possibly seen by a watcher) but not yet fsynced when
 * the process died are lost; starting past them makes every resumed watch from before the
 * crash relist (410) instead of missing a reused resourceVersion.
 */
const RESTART_GAP = 1000;

/** State files locked by this process (a second server in one process is refused too). */
const lockedHere = new Set<string>();

/** The lock file is refused: another live process serves this state file. */
export class StateLockedError extends Error {}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists but belongs to someone else; ESRCH: it is gone.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes `<state>.lock`, holding this process's pid, so that two servers never append to one
 * log (each would lose the other's writes at its next compaction). A lock whose process is gone
 * (kill -9, power loss) is stale and taken over.
 */
export function lockState(path: string): () => void {
  const lock = `${path}.lock`;
  if (lockedHere.has(lock)) {
    throw new StateLockedError(
      `the state file ${path} is already in use by this process (lock file ${lock})`,
    );
  }
  for (let attempt = 0; ; attempt++) {
    try {
      writeFileSync(lock, `${String(process.pid)}\n`, { flag: 'wx', mode: 0o600 });
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw e;
      let owner = NaN;
      try {
        owner = Number.parseInt(readFileSync(lock, 'utf8').trim(), 10);
      } catch {
        // Removed meanwhile, or unreadable: treated as stale.
      }
      if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processAlive(owner)) {
        throw new StateLockedError(
          `the state file ${path} is in use by process ${String(owner)} (lock file ${lock}); stop that process first (if it is not a server of this state file, delete the lock file)`,
        );
      }
      try {
        unlinkSync(lock);
      } catch {
        // Someone else removed it: the next attempt decides.
      }
    }
  }
  lockedHere.add(lock);
  const release = () => {
    if (!lockedHere.delete(lock)) return;
    try {
      if (readFileSync(lock, 'utf8').trim() === String(process.pid)) unlinkSync(lock);
    } catch {
      // Already gone.
    }
  };
  process.once('exit', release);
  return () => {
    process.off('exit', release);
    release();
  };
}

interface Header {
  v: 1;
  rv: number;
}

interface PutRecord {
  t: 'P';
  rv: number;
  r: string;
  o: unknown;
}

interface DeleteRecord {
  t: 'D';
  rv: number;
  r: string;
  k: string;
}

export class Persistence {
  private handle: FileHandle | undefined;
  private pending: string[] = [];
  private appended = 0;
  private durableSeq = 0;
  private waiters: { seq: number; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private flushing = false;
  private fileBytes = 0;
  private liveBytes = 0;
  private failed: unknown;
  private unlock: () => void = () => undefined;

  private constructor(
    private readonly path: string,
    private readonly store: Store,
    private readonly compactMinBytes: number,
  ) {}

  /** Replays the log into the store, then opens it for appending. */
  static async open(
    path: string,
    store: Store,
    registry: Registry,
    compactMinBytes = 64 * 1024 * 1024,
  ): Promise<Persistence> {
    const p = new Persistence(path, store, compactMinBytes);
    // `pnpm sim --state .sim/state.jsonl` on a fresh clone: the folder is made, as for the
    // kubeconfig, rather than a stack trace about the lock file.
    mkdirSync(dirname(path), { recursive: true });
    p.unlock = lockState(path);
    try {
      await p.load(registry);
    } catch (e) {
      p.unlock();
      throw e;
    }
    return p;
  }

  private async load(registry: Registry): Promise<void> {
    const { path, store } = this;
    let maxRv = 0;
    if (existsSync(path)) {
      const text = readFileSync(path, 'utf8');
      this.fileBytes = Buffer.byteLength(text);
      const lines = text.split('\n');
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i];
        if (!line) continue;
        let rec: Header | PutRecord | DeleteRecord;
        try {
          rec = JSON.parse(line) as Header | PutRecord | DeleteRecord;
        } catch (e) {
          // Only the last line can be torn by a crash mid-append; anything else is corruption.
          if (i >= lines.length - 2) break;
          throw new Error(`${path}: line ${i + 1} is not valid JSON`, { cause: e });
        }
        maxRv = Math.max(maxRv, rec.rv);
        if (!('t' in rec)) continue;
        const rt = registry.byStorageKey(rec.r);
        if (!rt) continue;
        if (rec.t === 'P') store.restore(rt, JSON.stringify(rec.o));
        else store.restoreRemove(rt, rec.k);
      }
      store.resetHistory(maxRv + RESTART_GAP);
    }
    // Start from a compacted file so replay time stays proportional to the live state.
    this.compactSync();
    this.handle = await open(path, 'a');
    store.onCommit = (rec) => {
      this.append(rec);
    };
  }

  private append(rec: CommitRecord): void {
    const line =
      rec.type === 'DELETED'
        ? JSON.stringify({ t: 'D', rv: rec.rv, r: rec.key, k: rec.obj.key } satisfies DeleteRecord)
        : `{"t":"P","rv":${rec.rv},"r":${JSON.stringify(rec.key)},"o":${rec.obj.json}}`;
    this.pending.push(`${line}\n`);
    this.appended++;
  }

  /** Resolves once everything committed so far is on disk. */
  durable(): Promise<void> {
    if (this.failed !== undefined)
      return Promise.reject(
        this.failed instanceof Error ? this.failed : new Error('the state file cannot be written'),
      );
    const seq = this.appended;
    if (this.durableSeq >= seq) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ seq, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.join('');
        this.pending = [];
        const seq = this.appended;
        const handle = this.handle;
        if (!handle) throw new Error('state file is closed');
        await handle.write(batch);
        await handle.sync();
        this.fileBytes += Buffer.byteLength(batch);
        this.durableSeq = seq;
        const done = this.waiters.filter((w) => w.seq <= seq);
        this.waiters = this.waiters.filter((w) => w.seq > seq);
        for (const w of done) w.resolve();
        if (this.fileBytes > Math.max(this.compactMinBytes, this.liveBytes * 2))
          await this.compact();
      }
    } catch (e) {
      this.failed = e;
      for (const w of this.waiters) w.reject(e);
      this.waiters = [];
    } finally {
      this.flushing = false;
    }
  }

  private async compact(): Promise<void> {
    await this.handle?.close();
    this.handle = undefined;
    this.compactSync();
    this.handle = await open(this.path, 'a');
  }

  /** Writes the current state as a fresh file and atomically replaces the log with it. */
  private compactSync(): void {
    const tmp = `${this.path}.tmp`;
    const fd = openSync(tmp, 'w');
    let bytes = 0;
    const write = (s: string) => {
      bytes += writeSync(fd, s);
    };
    write(`${JSON.stringify({ v: 1, rv: this.store.resourceVersion } satisfies Header)}\n`);
    let chunk: string[] = [];
    for (const s of this.store.all()) {
      chunk.push(`{"t":"P","rv":${s.rv},"r":${JSON.stringify(s.rt.key)},"o":${s.json}}\n`);
      if (chunk.length >= 1000) {
        write(chunk.join(''));
        chunk = [];
      }
    }
    if (chunk.length) write(chunk.join(''));
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, this.path);
    // The rename itself must be durable: fsync the directory.
    try {
      const dfd = openSync(dirname(this.path), 'r');
      fsyncSync(dfd);
      closeSync(dfd);
    } catch {
      // Some filesystems refuse fsync on directories; the rename is still atomic.
    }
    this.fileBytes = bytes;
    this.liveBytes = bytes;
  }

  async close(): Promise<void> {
    await this.durable().catch(() => undefined);
    await this.handle?.close();
    this.handle = undefined;
    this.unlock();
  }
}
