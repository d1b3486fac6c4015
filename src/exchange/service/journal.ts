// Append-only JSON-lines journal with group commit: every append of one event-loop turn goes out in
// one write followed by one fdatasync, and callers wait for `durable(seqId)` before answering.
// A torn last line (crash mid-write) is dropped on open and the file is truncated back to the
// last complete line, so later appends never glue onto garbage.
import { mkdir, open, readFile, rm, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { JournalError } from './errors';
import type { JournalRecord } from './records';

export const JOURNAL_FILE = 'journal.ndjson';

/**
 * The index keeps the byte offset of every STRIDE-th durable line only (8 bytes per 64 records, in a
 * typed array), not two numbers per record: a journal grows by hundreds of thousands of lines a day
 * and the one reader (GET /ledger/entries, a page at a time) can scan 64 lines from a checkpoint.
 */
const STRIDE = 64;

/** Byte offsets of lines 1, 1 + STRIDE, 1 + 2·STRIDE… (by seqId), growing by doubling. */
class LineIndex {
  private offsets = new Float64Array(256);
  private count = 0;

  /** Called for every durable line in order; keeps the offset of every STRIDE-th. */
  add(seqId: number, offset: number): void {
    if ((seqId - 1) % STRIDE !== 0) return;
    if (this.count === this.offsets.length) {
      const grown = new Float64Array(this.offsets.length * 2);
      grown.set(this.offsets);
      this.offsets = grown;
    }
    this.offsets[this.count++] = offset;
  }

  /** The byte range of the block that holds `seqId`, and the line's place in it. */
  block(seqId: number, fileSize: number): { index: number; start: number; end: number; line: number } | undefined {
    const index = Math.floor((seqId - 1) / STRIDE);
    if (index >= this.count) return undefined;
    const start = this.offsets[index]!;
    const end = index + 1 < this.count ? this.offsets[index + 1]! : fileSize;
    return { index, start, end, line: (seqId - 1) % STRIDE };
  }
}

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
  /** Where durable lines start (file mode), every STRIDE-th. */
  private readonly index: LineIndex;
  /** The last block read, split into lines: a page of entries reads its block once. */
  private cached: { index: number; end: number; lines: string[] } | undefined;
  private fileSize: number;
  /** Memory mode keeps the lines themselves. */
  private readonly memory: string[] | null;
  /** Timing of the last flushes, for the benchmark's profile. */
  readonly stats = { flushes: 0, records: 0, syncMs: 0 };

  private constructor(
    private readonly fh: FileHandle | null,
    index: LineIndex,
    lineCount: number,
    fileSize: number,
  ) {
    this.memory = fh === null ? [] : null;
    this.index = index;
    this.lastSeq = lineCount;
    this.durableSeq = lineCount;
    this.fileSize = fileSize;
  }

  /** Opens (or creates) the journal in `dataDir`; `fresh` deletes it first. No dataDir: memory only. */
  static async open(dataDir: string | undefined, fresh = false): Promise<OpenedJournal> {
    if (dataDir === undefined)
      return { journal: new Journal(null, new LineIndex(), 0, 0), records: [], discardedBytes: 0 };
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
    const index = new LineIndex();
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
      index.add(rec.seqId, start);
      start = nl + 1;
      good = start;
    }
    const fh = await open(file, 'a+');
    if (good < buf.length) {
      await fh.truncate(good);
      await fh.datasync();
    }
    return {
      journal: new Journal(fh, index, records.length, good),
      records,
      discardedBytes: buf.length - good,
    };
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
        let seq = lastSeq - batch.length;
        for (const line of batch) {
          this.index.add(++seq, off);
          off += Buffer.byteLength(line);
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
    const block = this.index.block(seqId, this.fileSize);
    if (block === undefined) return undefined;
    let cached = this.cached;
    if (cached === undefined || cached.index !== block.index || cached.end !== block.end) {
      const len = block.end - block.start;
      const buf = Buffer.alloc(len);
      await this.fh!.read(buf, 0, len, block.start);
      cached = { index: block.index, end: block.end, lines: buf.toString('utf8').split('\n') };
      this.cached = cached;
    }
    const line = cached.lines[block.line];
    return line === undefined || line === '' ? undefined : (JSON.parse(line) as JournalRecord);
  }

  /** Waits for pending writes, then closes the file. */
  async close(): Promise<void> {
    if (this.lastSeq > this.durableSeq && this.failure === null)
      await this.durable(this.lastSeq).catch(() => undefined);
    await this.fh?.close();
  }
}
