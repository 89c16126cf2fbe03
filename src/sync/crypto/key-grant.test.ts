import { describe, expect, it } from 'vitest';
import { newDataKey } from './data-key.ts';
import { grantKey, newAgreementKeys, openGrant } from './key-grant.ts';

describe('key grants', () => {
  it('a grant opens with the private key it was made for, in its context, and gives the key back', async () => {
    const device = await newAgreementKeys();
    const raw = newDataKey();
    const grant = await grantKey(raw, device.publicKey, 'db\nepoch 2\ndevice-a');
    expect(await openGrant(grant, device.privateKey, 'db\nepoch 2\ndevice-a')).toEqual(raw);
  });

  it('opens for no other device, no other context, and not once a byte changed', async () => {
    const [device, other] = await Promise.all([newAgreementKeys(), newAgreementKeys()]);
    const grant = await grantKey(newDataKey(), device.publicKey, 'ctx');
    expect(await openGrant(grant, other.privateKey, 'ctx')).toBeUndefined();
    expect(await openGrant(grant, device.privateKey, 'other ctx')).toBeUndefined();
    const flipped = { ...grant, ct: `${grant.ct.slice(0, -2)}${grant.ct.endsWith('AA') ? 'AB' : 'AA'}` };
    expect(await openGrant(flipped, device.privateKey, 'ctx')).toBeUndefined();
    expect(await openGrant({ ...grant, epk: other.publicKey }, device.privateKey, 'ctx')).toBeUndefined();
  });

  it('keeps the private key non-extractable and shares only the public point', async () => {
    const device = await newAgreementKeys();
    expect(device.privateKey.extractable).toBe(false);
    expect(Object.keys(device.publicKey).sort()).toEqual(['crv', 'kty', 'x', 'y']);
    await expect(crypto.subtle.exportKey('jwk', device.privateKey)).rejects.toThrow();
  });

  it('refuses a key that is not 32 bytes', async () => {
    const device = await newAgreementKeys();
    await expect(grantKey(new Uint8Array(16), device.publicKey, 'ctx')).rejects.toThrow(RangeError);
  });
});
