/**
 * The emergency kits this machine keeps, with the digests of the entries already used. Persisted in
 * main's key-value store under one key, bounded by count; every kit is checked in full again when it
 * is read back (signatures and fingerprint), so an edited store file gives no kit rather than a
 * wrong one. "Used" only grows: an entry recorded as used is never sent again.
 *
 * Reading them back costs seconds per large kit (its signatures), so main does it once, off its
 * event loop (ready(), kit-checks.ts), and keeps each kit's digests beside it: a view or a panic
 * never hashes its 2,000 entries again.
 *
 * Slots are bounded per source too. Any text the window hands over (kit.importText, QR scans) can
 * be a whole, valid kit signed by a key the window made up for the pinned domain, so kits from the
 * window may fill only a few slots: the rest stay for kits the person brought in through main
 * (made behind main's dialog, or a file picked in main's file dialog).
 */
import { z } from 'zod';
import {
  KIT_FORMAT,
  kitDigests,
  kitToJson,
  parseEmergencyKit,
  payloadToFileText,
  type EmergencyKit,
} from '../../../client';
import type { Hex } from '../../../shared/protocol';
import type { KeyValueStore } from '../../store/key-value-store';
import { BridgeFailure } from '../bridge-runtime';
import type { KitChecks } from './kit-checks';

const STORE_KEY = 'emergencyKits';
/** A watch-only machine keeps a handful: one per account and deployment, and the one before it. */
export const MAX_KITS = 8;

export type KitOrigin = 'made' | 'imported';
/**
 * How a kit reached this store: made here behind main's dialog, a file the person picked in main's
 * file dialog, or text from the window (pasted or scanned: no sign of the person in it).
 */
export type KitSource = 'build' | 'file' | 'window';

/**
 * Slots kits from the window may fill at once (of MAX_KITS): a kit and the one before it by QR, and
 * one to spare. A window that fills them leaves five for kits the person brought in through main,
 * which are bounded by MAX_KITS alone.
 */
export const WINDOW_KIT_SLOTS = 3;

export interface StoredKit {
  readonly kit: EmergencyKit;
  readonly origin: KitOrigin;
  readonly source: KitSource;
  readonly storedAt: string;
  /** Lower-case digests of entries sent (answered) or reported processed by the exchange. */
  readonly used: ReadonlySet<string>;
  /** Lower-case digests of every entry, in kitDigests' order (the cancel-alls, then the revocation). */
  readonly digests: readonly Hex[];
}

type StoredRow = z.infer<typeof storedShape>[number];

const storedShape = z.array(
  z.object({
    kit: z.unknown(),
    origin: z.enum(['made', 'imported']),
    // Absent in stores written before sources were kept: an import then counts as the window's.
    source: z.enum(['build', 'file', 'window']).optional(),
    storedAt: z.string(),
    used: z.array(z.string().regex(/^0x[0-9a-f]{64}$/)).max(5000),
  }),
);

function storedKit(row: StoredRow, kit: EmergencyKit, digests: readonly Hex[]): StoredKit {
  const lower = digests.map((d) => d.toLowerCase() as Hex);
  const known = new Set<string>(lower);
  return {
    kit,
    origin: row.origin,
    source: row.source ?? (row.origin === 'made' ? 'build' : 'window'),
    storedAt: row.storedAt,
    used: new Set(row.used.filter((d) => known.has(d))),
    digests: lower,
  };
}

export class KitStore {
  readonly #store: KeyValueStore;
  readonly #checks: KitChecks | null;
  #kits: StoredKit[] | null = null;
  #ready: Promise<void> | null = null;

  /** Without `checks`, the kits are read back on first use on this thread (small kits, tests). */
  constructor(store: KeyValueStore, checks?: KitChecks) {
    this.#store = store;
    this.#checks = checks ?? null;
  }

  #rows(): StoredRow[] {
    const parsed = storedShape.safeParse(this.#store.get(STORE_KEY) ?? []);
    return parsed.success ? parsed.data.slice(0, MAX_KITS) : [];
  }

  /**
   * Reads the stored kits back, each checked in full off main's event loop: main's handlers await
   * this before they touch a kit (it is started when the core starts, so a panic rarely waits).
   */
  ready(): Promise<void> {
    this.#ready ??= this.#loadChecked();
    return this.#ready;
  }

  async #loadChecked(): Promise<void> {
    if (this.#kits || !this.#checks) return;
    const out: StoredKit[] = [];
    for (const row of this.#rows()) {
      try {
        const { kit, digests } = await this.#checks.check(JSON.stringify(row.kit), 'main');
        out.push(storedKit(row, kit, digests));
      } catch {
        // A kit that no longer checks out is dropped: sending it could only be refused.
      }
    }
    this.#kits ??= out;
  }

  #load(): StoredKit[] {
    if (this.#kits) return this.#kits;
    const out: StoredKit[] = [];
    for (const row of this.#rows()) {
      try {
        const kit = parseEmergencyKit(row.kit);
        out.push(storedKit(row, kit, kitDigests(kit)));
      } catch {
        // A kit that no longer checks out is dropped: sending it could only be refused.
      }
    }
    this.#kits = out;
    return out;
  }

  #save(): void {
    this.#store.set(
      STORE_KEY,
      this.#load().map((k) => ({
        kit: kitToJson(k.kit),
        origin: k.origin,
        source: k.source,
        storedAt: k.storedAt,
        used: [...k.used],
      })),
    );
  }

  list(): readonly StoredKit[] {
    return this.#load();
  }

  get(id: string): StoredKit {
    const found = this.#load().find((k) => k.kit.id === id);
    if (!found) throw new BridgeFailure('kit.not_found', 'That emergency kit is not kept on this machine.');
    return found;
  }

  /**
   * Refuses what put would refuse for a kit of this id and fingerprint from `source`, before the
   * kit is checked at all (its signatures take seconds). True when that very kit is kept already.
   */
  assertRoom(id: string, fingerprint: string, source: KitSource): boolean {
    const kits = this.#load();
    const same = kits.find((k) => k.kit.id === id);
    if (same) {
      if (same.kit.fingerprint !== fingerprint)
        throw new BridgeFailure(
          'kit.conflict',
          'A different kit with the same id is already kept here: remove it first if this one should replace it.',
        );
      return true;
    }
    if (kits.length >= MAX_KITS)
      throw new BridgeFailure(
        'kit.too_many',
        `This machine already keeps ${MAX_KITS} emergency kits: remove one you no longer need first.`,
      );
    if (source === 'window' && kits.filter((k) => k.source === 'window').length >= WINDOW_KIT_SLOTS)
      throw new BridgeFailure(
        'kit.too_many_from_window',
        `This machine already keeps ${WINDOW_KIT_SLOTS} kits taken in from QR codes or pasted text: remove one of those first, or open this kit from a file.`,
      );
    return false;
  }

  /**
   * Keeps a kit; the same kit again keeps its used entries (and takes no new slot). Refuses a kit
   * beyond its source's slots or a ninth kit rather than drop one. `digests` are the kit's own
   * (kitDigests), when its check already computed them.
   */
  put(kit: EmergencyKit, source: KitSource, now: Date, digests?: readonly Hex[]): StoredKit {
    const kits = this.#load();
    if (this.assertRoom(kit.id, kit.fingerprint, source)) return kits.find((k) => k.kit.id === kit.id)!;
    const origin: KitOrigin = source === 'build' ? 'made' : 'imported';
    const stored: StoredKit = {
      kit,
      origin,
      source,
      storedAt: now.toISOString(),
      used: new Set(),
      digests: (digests ?? kitDigests(kit)).map((d) => d.toLowerCase() as Hex),
    };
    kits.push(stored);
    this.#save();
    return stored;
  }

  /** Records an entry as used, before anything else can read the set: it is never sent again. */
  markUsed(id: string, digest: string): void {
    const kits = this.#load();
    const i = kits.findIndex((k) => k.kit.id === id);
    if (i < 0) return;
    const k = kits[i]!;
    kits[i] = { ...k, used: new Set([...k.used, digest.toLowerCase()]) };
    this.#save();
  }

  remove(id: string): void {
    const kits = this.#load();
    const i = kits.findIndex((k) => k.kit.id === id);
    if (i < 0) throw new BridgeFailure('kit.not_found', 'That emergency kit is not kept on this machine.');
    kits.splice(i, 1);
    this.#save();
  }

  /** The kit's file text (indented JSON envelope): what a file holds and what QR parts carry. */
  envelopeText(id: string): string {
    return payloadToFileText({ format: KIT_FORMAT, kit: this.get(id).kit });
  }
}
