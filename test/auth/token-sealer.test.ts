import { createCipheriv, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TokenSealer } from '../../src/auth/token-sealer.js';
import { ConfigError } from '../../src/errors/index.js';

const key = randomBytes(32);
const sealer = TokenSealer.withKeys(key.toString('base64'));
const kid = sealer.currentKeyId!;

/** A value sealed under `key` for `context` whose tag is cut to `tagBytes` (what a forger would try: a short tag is cheap to guess). */
function sealedWithShortTag(plain: string, context: string, tagBytes: number): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag().subarray(0, tagBytes);
  return `sealed:v1:${kid}:${Buffer.concat([iv, tag, ct]).toString('base64')}`;
}

describe('TokenSealer.open', () => {
  it('given a value sealed with a 4-byte tag and nothing else, then it does not open (only a whole 16-byte tag is accepted)', () => {
    const short = sealedWithShortTag('', 'a:refreshToken', 4);
    expect(() => sealer.open(short, 'a:refreshToken')).toThrow(ConfigError);
    expect(() => sealer.open(short, 'a:refreshToken')).toThrow(/truncated/);
  });

  it('given a value with a 12-byte tag and a ciphertext, then it does not open either', () => {
    const short = sealedWithShortTag('rt-secret', 'a:refreshToken', 12);
    expect(() => sealer.open(short, 'a:refreshToken')).toThrow(/does not open/);
  });

  it('given a properly sealed value, then it opens, also an empty one', () => {
    expect(sealer.open(sealer.seal('rt-secret', 'a:refreshToken'), 'a:refreshToken')).toBe('rt-secret');
    expect(sealer.open(sealer.seal('', 'a:refreshToken'), 'a:refreshToken')).toBe('');
  });

  it('given a key, when a plain value is opened with refusePlain, then it is refused naming its place, never its value; without it (or without a key) it is read', () => {
    expect(() => sealer.open('attacker-refresh-token', 'a:refreshToken', { refusePlain: true })).toThrow(
      /^the stored token of a:refreshToken is plain text(?!.*attacker)/,
    );
    expect(sealer.open('legacy-plain', 'a:refreshToken')).toBe('legacy-plain');
    expect(TokenSealer.plain().open('plain', 'a:refreshToken', { refusePlain: true })).toBe('plain');
  });
});
