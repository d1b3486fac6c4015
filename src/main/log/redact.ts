import { LangEn } from 'ethers';

export const REDACTED = '[REDACTED]';

/** Keys whose values are secret whatever they look like. */
const SECRET_KEY_RE = /priv(ate)?_?key|mnemonic|phrase|passw(or)?d|passphrase|secret|seed|\bpin\b/i;
/** Keys under which a 32-byte hex value is probably a key rather than a hash. */
const KEYISH_KEY_RE = /key|secret|seed|priv|^pk$|^sk$|credential|token/i;
const HEX32_RE = /(?:0x)?[0-9a-fA-F]{64}(?![0-9a-fA-F])/g;
const MIN_PHRASE_WORDS = 12;
const MAX_DEPTH = 12;

let words: Set<string> | undefined;
function bip39Words(): Set<string> {
  if (!words) {
    const list = LangEn.wordlist();
    words = new Set(Array.from({ length: 2048 }, (_, i) => list.getWord(i)));
  }
  return words;
}

/**
 * Replaces every run of 12 or more consecutive English BIP-39 words (a recovery phrase, possibly with
 * neighbours) by [REDACTED]. Words are compared case-insensitively, ignoring punctuation around them.
 */
export function redactPhrases(text: string): string {
  const list = bip39Words();
  const tokens = text.split(/(\s+)/); // keeps separators at odd indices
  const isWord = (t: string) => list.has(t.toLowerCase().replace(/^[^a-z]+|[^a-z]+$/g, ''));
  let out = '';
  let i = 0;
  while (i < tokens.length) {
    let j = i;
    let count = 0;
    while (j < tokens.length && isWord(tokens[j]!)) {
      count++;
      j += 2; // skip the separator
    }
    if (count >= MIN_PHRASE_WORDS) {
      out += REDACTED;
      i = j - 1; // resume at the separator after the run
    } else {
      out += tokens[i];
      i++;
    }
  }
  return out;
}

function redactString(value: string, key: string): string {
  if (SECRET_KEY_RE.test(key)) return REDACTED;
  let out = KEYISH_KEY_RE.test(key) ? value.replace(HEX32_RE, REDACTED) : value;
  // Cheap pre-check: a phrase needs at least 11 spaces.
  if ((out.match(/\s/g)?.length ?? 0) >= MIN_PHRASE_WORDS - 1) out = redactPhrases(out);
  return out;
}

/**
 * A copy of `value` fit for a log line: secrets removed (values under secret-sounding keys, 32-byte hex
 * under key-sounding keys, recovery phrases anywhere), errors flattened, bigints as strings, cycles cut.
 */
export function redact(value: unknown, key = '', depth = 0, seen = new WeakSet<object>()): unknown {
  if (typeof value === 'string') return redactString(value, key);
  if (typeof value === 'bigint') return SECRET_KEY_RE.test(key) ? REDACTED : value.toString();
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'function' || typeof value === 'symbol') return undefined;
    // Flags such as hasPassword are not secrets; numbers under a secret key might be (a PIN).
    return SECRET_KEY_RE.test(key) && typeof value === 'number' ? REDACTED : value;
  }
  if (SECRET_KEY_RE.test(key)) return REDACTED;
  if (seen.has(value)) return '[Circular]';
  if (depth >= MAX_DEPTH) return '[Too deep]';
  seen.add(value);
  try {
    if (value instanceof Error) {
      const code = (value as { code?: unknown }).code;
      return redact(
        { name: value.name, message: value.message, ...(code === undefined ? {} : { code }) },
        key,
        depth + 1,
        seen,
      );
    }
    if (value instanceof Uint8Array) return `[${value.length} bytes]`;
    if (Array.isArray(value)) return value.map((v) => redact(v, key, depth + 1, seen));
    if (value instanceof Date) return value.toISOString();
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = redact(v, k, depth + 1, seen);
      if (r !== undefined) out[k] = r;
    }
    return out;
  } finally {
    seen.delete(value);
  }
}
