import { describe, expect, it } from 'vitest';
import { SettingsError } from './errors';
import {
  checkDeploymentDraft,
  checkEndpoint,
  deploymentIdFor,
  endpointHosts,
  isLoopbackHost,
  type DeploymentDraft,
} from './endpoint-rules';

const DRAFT: DeploymentDraft = {
  name: 'Example',
  httpUrl: 'https://api.example.com/v1',
  marketWsUrl: 'wss://api.example.com/ws/',
  oracleWsUrl: 'wss://oracle.example.com/oracle-ws/',
  rpcUrl: 'https://rpc.example.com',
  chainId: '8453',
};

function refusal(fn: () => unknown): SettingsError {
  try {
    fn();
  } catch (e) {
    if (e instanceof SettingsError) return e;
    throw e;
  }
  throw new Error('not refused');
}

describe('deployment endpoint rules', () => {
  it('knows loopback hosts', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '::1', 'LOCALHOST'])
      expect(isLoopbackHost(h), h).toBe(true);
    for (const h of [
      'example.com',
      '10.0.0.1',
      '127.0.0.1.example.com',
      '128.0.0.1',
      '127.0.0.256',
      'localhost.evil',
      '0.0.0.0',
    ])
      expect(isLoopbackHost(h), h).toBe(false);
  });

  it('accepts encrypted URLs anywhere and plain ones on loopback only', () => {
    expect(checkDeploymentDraft(DRAFT)).toEqual(DRAFT);
    const local = {
      ...DRAFT,
      httpUrl: 'http://127.0.0.1:8787',
      marketWsUrl: 'ws://localhost:8787/ws/',
      oracleWsUrl: 'ws://[::1]:8787/oracle-ws/',
      rpcUrl: 'http://127.0.0.1:8545',
    };
    expect(checkDeploymentDraft(local)).toEqual(local);
    expect(checkEndpoint('rpcUrl', 'wss://rpc.example.com').host).toBe('rpc.example.com');
  });

  it('refuses unencrypted transport to another host with a sentence naming the field', () => {
    const cases: [keyof DeploymentDraft, string, RegExp][] = [
      [
        'httpUrl',
        'http://api.example.com',
        /^The base URL must use https: unencrypted http is allowed only for this computer .*api\.example\.com is not\.$/,
      ],
      ['marketWsUrl', 'ws://api.example.com/ws/', /^The market WebSocket URL must use wss:/],
      ['oracleWsUrl', 'ws://10.0.0.5/oracle-ws/', /^The oracle WebSocket URL must use wss:/],
      ['rpcUrl', 'http://rpc.example.com', /^The RPC URL must use https or wss:/],
      ['httpUrl', 'ftp://api.example.com', /^The base URL must start with https:\/\/ or http:\/\/\.$/],
      [
        'marketWsUrl',
        'https://api.example.com/ws/',
        /^The market WebSocket URL must start with wss:\/\/ or ws:\/\/\.$/,
      ],
      ['httpUrl', 'https://user:pw@api.example.com', /./],
      ['httpUrl', 'https://api.example.com/v1?next=https://evil.example', /must not carry a query/],
      ['httpUrl', 'https://api.example.com/v1#x', /./],
      ['chainId', '0x2105', /^The chain id must be a positive whole number written in decimal\.$/],
      ['chainId', '0', /^The chain id /],
      ['name', '   ', /^The name /],
    ];
    for (const [field, value, sentence] of cases) {
      const err = refusal(() => checkDeploymentDraft({ ...DRAFT, [field]: value }));
      expect(err.code, `${field}=${value}`).toBe('INVALID_SETTINGS');
      expect(err.path, `${field}=${value}`).toBe(field);
      expect(err.message, `${field}=${value}`).toMatch(sentence);
    }
  });

  it('names the hosts the app will contact, once each', () => {
    expect(endpointHosts(DRAFT)).toEqual([
      'https://api.example.com',
      'wss://api.example.com',
      'wss://oracle.example.com',
      'https://rpc.example.com',
    ]);
  });

  it('makes short unique ids from names, never the built-in devnet id', () => {
    expect(deploymentIdFor('My Exchange!', new Set())).toBe('my-exchange');
    expect(deploymentIdFor('My Exchange', new Set(['my-exchange', 'my-exchange-2']))).toBe('my-exchange-3');
    expect(deploymentIdFor('Devnet', new Set())).toBe('devnet-2');
    expect(deploymentIdFor('***', new Set())).toBe('deployment');
  });
});
