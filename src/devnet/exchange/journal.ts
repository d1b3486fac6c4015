// Append-only JSON-lines journal with group commit: every append of one event-loop turn goes out in
// one write followed by one fdatasync, and callers wait for `durable(seqId)` before answering.
// A torn last line (crash mid-write) is dropped on open and the file is truncated back to the
// last complete line, so later appends never glue onto garbage.
import { mkdir, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { JournalError } from './errors';
import type { JournalRecord } from './records';

export const JOURNAL_FILE = 'journal.ndjson';

interface Waiter {
  seqId: number;
  resolve(): void;
  reject(e: unknown): void;
}

export interface OpenedJournal {
  journal: Journal;
  /** Complete records already on disk, in order, for replay. */
  records: JournalRecord[];
  /** Bytes of a torn tail that were discarded (0 normally). */
  discardedBytes: number;
}

export class Journal {
  private pending: string[] = [];
  private pendingLastSeq = 0;
  private scheduled = false;
  private writing = false;
  private waiters: Waiter[] = [];
  private failure: unknown = null;
  private durableSeq: number;
  private lastSeq: number;
  /** Byte offset and length of every durable line, by seqId − 1 (file mode). */
  private readonly offsets: number[] = [];
  private readonly lengths: number[] = [];
  private fileSize: number;
  /** Memory mode keeps the lines themselves. */
  private readonly memory: string[] | null;
  /** Timing of the last flushes, for the benchmark's profile. */
  readonly stats = { flushes: 0, records: 0, syncMs: 0 };

  private constructor(
    private readonly fh: FileHandle | null,
    lines: { offset: number; length: number }[],
    fileSize: number,
  ) {
    this.memory = fh === null ? [] : null;
    for (const l of lines) {
      this.offsets.push(l.offset);
      this.lengths.push(l.length);
    }
    this.lastSeq = lines.length;
    this.durableSeq = lines.length;
    this.fileSize = fileSize;
  }

  /** Opens (or creates) the journal in `dataDir`; `fresh` deletes it first. No dataDir: memory only. */
  static async open(dataDir: string | undefined, fresh = false): Promise<OpenedJournal> {
    if (dataDir === undefined) return { journal: new Journal(null, [], 0), records: [], discardedBytes: 0 };
    const file = join(dataDir, JOURNAL_FILE);
    if (fresh) await rm(file, { force: true });
    await mkdir(dataDir, { recursive: true });
    let buf: Buffer;
    try {
      buf = await readFile(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      buf = Buffer.alloc(0);
    }
    const records: JournalRecord[] = [];
    const lines: { offset: number; length: number }[] = [];
    let start = 0;
    let good = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(0x0a, start);
      if (nl < 0) break; // torn tail: no newline
      const text = buf.toString('utf8', start, nl);
      let rec: JournalRecord;
      try {
        rec = JSON.parse(text) as JournalRecord;
      } catch {
        if (buf.indexOf(0x0a, nl + 1) < 0) break; // unparsable last complete line: torn
        throw new JournalError(
          'JOURNAL_CORRUPT',
          `Journal line ${records.length + 1} is not valid JSON and is not the last line.`,
        );
      }
      if (rec.seqId !== records.length + 1) {
        throw new JournalError(
          'JOURNAL_CORRUPT',
          `Journal line ${records.length + 1} carries seqId ${String(rec.seqId)}.`,
        );
      }
      records.push(rec);
      lines.push({ offset: start, length: nl + 1 - start });
      start = nl + 1;
      good = start;
    }
    const fh = await open(file, 'a+');
    if (good < buf.length) {
      await fh.truncate(good);
      await fh.datasync();
    }
    return { journal: new Journal(fh, lines, good), records, discardedBytes: buf.length - good };
  }

  get lastSeqId(): number {
    return this.lastSeq;
  }

  get durableSeqId(): number {
    return this.durableSeq;
  }

  /** Buffers one record (its seqId must be lastSeqId + 1) for the next group commit. */
  append(record: JournalRecord): void {
    if (this.failure !== null)
      throw new JournalError('JOURNAL_UNAVAILABLE', 'The journal failed earlier; no change can be made durable.');
    if (record.seqId !== this.lastSeq + 1)
      throw new JournalError('JOURNAL_MISMATCH', `Expected seqId ${this.lastSeq + 1}, got ${record.seqId}.`);
    this.lastSeq = record.seqId;
    this.pending.push(`${JSON.stringify(record)}\n`);
    this.pendingLastSeq = record.seqId;
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.flush();
      });
    }
  }

  /** Resolves once every record up to `seqId` is on disk. */
  durable(seqId: number): Promise<void> {
    if (seqId <= this.durableSeq) return Promise.resolve();
    if (this.failure !== null) return Promise.reject(this.unavailable());
    return new Promise((resolve, reject) => this.waiters.push({ seqId, resolve, reject }));
  }

  private unavailable(): JournalError {
    return new JournalError('JOURNAL_UNAVAILABLE', 'The journal could not be written; the change is not durable.');
  }

  private async flush(): Promise<void> {
    if (this.writing || this.pending.length === 0 || this.failure !== null) return;
    this.writing = true;
    const batch = this.pending;
    const lastSeq = this.pendingLastSeq;
    this.pending = [];
    try {
      if (this.fh === null) {
        this.memory!.push(...batch);
      } else {
        const data = Buffer.from(batch.join(''), 'utf8');
        const t0 = performance.now();
        await this.fh.write(data, 0, data.length, null);
        await this.fh.datasync();
        this.stats.syncMs += performance.now() - t0;
        let off = this.fileSize;
        for (const line of batch) {
          const len = Buffer.byteLength(line);
          this.offsets.push(off);
          this.lengths.push(len);
          off += len;
        }
        this.fileSize = off;
      }
      this.stats.flushes++;
      this.stats.records += batch.length;
      this.durableSeq = lastSeq;
      const ready = this.waiters.filter((w) => w.seqId <= lastSeq);
      this.waiters = this.waiters.filter((w) => w.seqId > lastSeq);
      for (const w of ready) w.resolve();
    } catch (e) {
      this.failure = e;
      const all = this.waiters;
      this.waiters = [];
      for (const w of all) w.reject(this.unavailable());
    } finally {
      this.writing = false;
    }
    if (this.pending.length > 0) void this.flush();
  }

  /** A durable record by seqId, or undefined. */
  async read(seqId: number): Promise<JournalRecord | undefined> {
    if (!Number.isSafeInteger(seqId) || seqId < 1 || seqId > this.durableSeq) return undefined;
    if (this.memory !== null) {
      const line = this.memory[seqId - 1];
      return line === undefined ? undefined : (JSON.parse(line) as JournalRecord);
    }
    const off = this.offsets[seqId - 1];
    const len = this.lengths[seqId - 1];
    if (off === undefined || len === undefined) return undefined;
    const buf = Buffer.alloc(len);
    await this.fh!.read(buf, 0, len, off);
    return JSON.parse(buf.toString('utf8')) as JournalRecord;
  }

  /** Waits for pending writes, then closes the file. */
  async close(): Promise<void> {
    if (this.lastSeq > this.durableSeq && this.failure === null)
      await this.durable(this.lastSeq).catch(() => undefined);
    await this.fh?.close();
  }
}
