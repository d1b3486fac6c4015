import { describe, expect, it } from 'vitest';
import { compareVersions, parseVersion } from './version';

const v = (text: string) => {
  const parsed = parseVersion(text);
  if (!parsed) throw new Error(`${text} did not parse`);
  return parsed;
};

describe('semantic versions', () => {
  it('parses releases, pre-releases and build metadata, and refuses anything else', () => {
    expect(v('1.2.3')).toMatchObject({ major: 1n, minor: 2n, patch: 3n, pre: [] });
    expect(v('1.2.3-beta.4+build.7')).toMatchObject({ pre: ['beta', '4'] });
    for (const bad of [
      '1.2',
      '01.2.3',
      '1.2.3-',
      '1.2.3-01',
      'v1.2.3',
      ' 1.2.3',
      '1.2.3 ',
      '',
      '1.2.3-a..b',
      `1.2.${'9'.repeat(70)}`,
    ])
      expect(parseVersion(bad), bad).toBeNull();
  });

  it('orders by precedence as semver.org says (its own example list)', () => {
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
      '1.0.1',
      '1.1.0',
      '2.0.0',
      '10.0.0',
    ];
    for (let i = 0; i < ordered.length; i++) {
      for (let j = 0; j < ordered.length; j++) {
        const c = compareVersions(v(ordered[i]!), v(ordered[j]!));
        expect(Math.sign(c), `${ordered[i]} vs ${ordered[j]}`).toBe(Math.sign(i - j));
      }
    }
    expect(compareVersions(v('1.0.0+a'), v('1.0.0+b'))).toBe(0);
  });
});
