/**
 * What a deployment's URLs must look like before main will ever contact them: encrypted transport
 * (https, wss) except on this machine's loopback interface, no credentials, no query or fragment,
 * and a chain id written as a positive decimal. Every failure is one sentence naming the field.
 */
import { DeploymentSchema, type Deployment } from './schema';
import { SettingsError } from './errors';

/** What the window may describe: everything of a deployment except its id, markets and built-in flag. */
export type DeploymentDraft = Pick<
  Deployment,
  'name' | 'httpUrl' | 'marketWsUrl' | 'oracleWsUrl' | 'rpcUrl' | 'chainId'
>;

type Kind = 'http' | 'ws' | 'rpc';

const SECURE: Record<Kind, readonly string[]> = { http: ['https:'], ws: ['wss:'], rpc: ['https:', 'wss:'] };
const PLAIN: Record<Kind, readonly string[]> = { http: ['http:'], ws: ['ws:'], rpc: ['http:', 'ws:'] };
const FIELD: Record<keyof Omit<DeploymentDraft, 'name' | 'chainId'>, { kind: Kind; label: string }> = {
  httpUrl: { kind: 'http', label: 'The base URL' },
  marketWsUrl: { kind: 'ws', label: 'The market WebSocket URL' },
  oracleWsUrl: { kind: 'ws', label: 'The oracle WebSocket URL' },
  rpcUrl: { kind: 'rpc', label: 'The RPC URL' },
};

/** localhost, 127.0.0.0/8 and ::1: traffic that never leaves this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  const m = /^127\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(h);
  return m !== null && m.slice(1).every((o) => Number(o) <= 255);
}

function fail(field: string, sentence: string): never {
  throw new SettingsError('INVALID_SETTINGS', sentence, field);
}

/** Parses and checks one URL; returns it unchanged when it passes. */
export function checkEndpoint(field: keyof typeof FIELD, value: string): URL {
  const { kind, label } = FIELD[field];
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(field, `${label} is not a URL.`);
  }
  const secure = SECURE[kind];
  const plain = PLAIN[kind];
  if (!secure.includes(url.protocol) && !plain.includes(url.protocol)) {
    return fail(field, `${label} must start with ${[...secure, ...plain].map((p) => `${p}//`).join(' or ')}.`);
  }
  if (plain.includes(url.protocol) && !isLoopbackHost(url.hostname)) {
    return fail(
      field,
      `${label} must use ${secure.map((p) => p.slice(0, -1)).join(' or ')}: unencrypted ${url.protocol.slice(0, -1)} is allowed only for this computer (localhost, 127.0.0.1, ::1), and ${url.hostname} is not.`,
    );
  }
  if (url.username !== '' || url.password !== '')
    return fail(field, `${label} must not carry a user name or password.`);
  if (url.search !== '' || url.hash !== '' || value.includes('?') || value.includes('#'))
    return fail(field, `${label} must not carry a query (?) or fragment (#).`);
  return url;
}

/**
 * Checks a draft the window sent: shape (the shared schema), then the transport rules. Returns the
 * draft trimmed; throws INVALID_SETTINGS with the field and a sentence.
 */
export function checkDeploymentDraft(draft: DeploymentDraft): DeploymentDraft {
  // Transport first: its sentences say more than the shape's.
  for (const field of Object.keys(FIELD) as (keyof typeof FIELD)[]) checkEndpoint(field, draft[field].trim());
  const shape = DeploymentSchema.pick({
    name: true,
    httpUrl: true,
    marketWsUrl: true,
    oracleWsUrl: true,
    rpcUrl: true,
    chainId: true,
  }).safeParse(draft);
  if (!shape.success) {
    const issue = shape.error.issues[0];
    const field = issue?.path.map(String).join('.') ?? '';
    fail(
      field,
      `${field ? `${FIELD_NAMES[field] ?? field} ` : ''}${issue?.message ?? 'is invalid'}.`.replace(/\.\.$/, '.'),
    );
  }
  return shape.data;
}

const FIELD_NAMES: Record<string, string> = {
  name: 'The name',
  httpUrl: 'The base URL',
  marketWsUrl: 'The market WebSocket URL',
  oracleWsUrl: 'The oracle WebSocket URL',
  rpcUrl: 'The RPC URL',
  chainId: 'The chain id',
};

/** A short stable id from the name, unique among `taken` ("My Exchange" → "my-exchange", then "my-exchange-2"). */
export function deploymentIdFor(name: string, taken: ReadonlySet<string>): string {
  const base =
    name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 48) || 'deployment';
  const root = /^[a-z0-9]/.test(base) ? base : `d-${base}`;
  if (!taken.has(root) && root !== 'devnet') return root;
  for (let n = 2; ; n++) if (!taken.has(`${root}-${n}`)) return `${root}-${n}`;
}

/** Host (and port) of each distinct endpoint, for the dialog: what main is about to contact. */
export function endpointHosts(
  d: Pick<DeploymentDraft, 'httpUrl' | 'marketWsUrl' | 'oracleWsUrl' | 'rpcUrl'>,
): string[] {
  const hosts = [d.httpUrl, d.marketWsUrl, d.oracleWsUrl, d.rpcUrl].map((u) => {
    const url = new URL(u);
    return `${url.protocol}//${url.host}`;
  });
  return [...new Set(hosts)];
}
