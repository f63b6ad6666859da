import { createHash } from 'node:crypto';

/** A network's id: the sha256 of its passphrase, hashed into every transaction signature. */
export function networkId(passphrase: string): Buffer {
  return createHash('sha256').update(passphrase).digest();
}
