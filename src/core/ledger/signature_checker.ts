// Signature weighing as stellar-core's SignatureChecker does it: each signer counts at most once
// per check, each signature may serve several checks, and unused signatures are an error.
import { createHash, createPublicKey, verify } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import type { SignerWeight } from './entries.js';

export interface DecoratedSig {
  hint: Buffer;
  signature: Buffer;
}

const SPKI_ED25519_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const keyCache = new Map<string, KeyObject>();
const CACHE_LIMIT = 250_000;

function keyObject(pubHex: string): KeyObject {
  let k = keyCache.get(pubHex);
  if (!k) {
    k = createPublicKey({
      key: Buffer.concat([SPKI_ED25519_PREFIX, Buffer.from(pubHex, 'hex')]),
      format: 'der',
      type: 'spki',
    });
    if (keyCache.size >= CACHE_LIMIT) keyCache.clear();
    keyCache.set(pubHex, k);
  }
  return k;
}

/** ed25519 verification through node:crypto (public KeyObjects cached). */
export function verifyEd25519(pubHex: string, message: Buffer, signature: Buffer): boolean {
  if (signature.length !== 64) return false;
  try {
    return verify(null, message, keyObject(pubHex), signature);
  } catch {
    return false;
  }
}

// SignerKey XDR discriminants (first 4 bytes of the hex key)
const ED25519 = '00000000';
const PRE_AUTH_TX = '00000001';
const HASH_X = '00000002';
const SIGNED_PAYLOAD = '00000003';

export class SignatureChecker {
  private readonly used: boolean[];
  private readonly hashHex: string;

  /**
   * @param verified results of earlier checks of the same transaction (signature index + key),
   * so that submission, nomination and apply verify each signature once
   */
  constructor(
    private readonly contentsHash: Buffer,
    private readonly signatures: readonly DecoratedSig[],
    private readonly verified: Map<string, boolean> = new Map(),
  ) {
    this.used = signatures.map(() => false);
    this.hashHex = contentsHash.toString('hex');
  }

  /** True when signatures from `signers` reach `neededWeight` (at least one must match, even for weight 0). */
  checkSignature(signers: readonly SignerWeight[], neededWeight: number): boolean {
    let total = 0;
    for (const s of signers) {
      if (s.key.startsWith(PRE_AUTH_TX) && s.key.slice(8) === this.hashHex) {
        total += Math.min(s.weight, 255);
        if (total >= neededWeight) return true;
      }
    }
    const groups: [string, (sig: DecoratedSig, key: string) => boolean][] = [
      [HASH_X, (sig, key) => this.verifyHashX(sig, key)],
      [ED25519, (sig, key) => this.verifyEd(sig, key)],
      [SIGNED_PAYLOAD, (sig, key) => this.verifySignedPayload(sig, key)],
    ];
    for (const [type, check] of groups) {
      const remaining = signers.filter((s) => s.key.startsWith(type));
      if (remaining.length === 0) continue;
      for (let i = 0; i < this.signatures.length; i++) {
        const sig = this.signatures[i]!;
        for (let j = 0; j < remaining.length; j++) {
          const signer = remaining[j]!;
          const memo = `${i}:${signer.key}`;
          let ok = this.verified.get(memo);
          if (ok === undefined) {
            ok = check(sig, signer.key);
            this.verified.set(memo, ok);
          }
          if (ok) {
            this.used[i] = true;
            total += Math.min(signer.weight, 255);
            if (total >= neededWeight) return true;
            remaining.splice(j, 1);
            break;
          }
        }
      }
    }
    return false;
  }

  allSignaturesUsed(): boolean {
    return this.used.every(Boolean);
  }

  private verifyEd(sig: DecoratedSig, keyHex: string): boolean {
    const pubHex = keyHex.slice(8);
    if (sig.hint.toString('hex') !== pubHex.slice(56)) return false;
    return verifyEd25519(pubHex, this.contentsHash, sig.signature);
  }

  private verifyHashX(sig: DecoratedSig, keyHex: string): boolean {
    const x = keyHex.slice(8);
    if (sig.hint.toString('hex') !== x.slice(56)) return false;
    return createHash('sha256').update(sig.signature).digest('hex') === x;
  }

  private verifySignedPayload(sig: DecoratedSig, keyHex: string): boolean {
    // SignerKey ed25519SignedPayload: 32-byte key, then var opaque payload (4-byte length + padded bytes)
    const raw = Buffer.from(keyHex.slice(8), 'hex');
    const pub = raw.subarray(0, 32);
    const len = raw.readUInt32BE(32);
    const payload = raw.subarray(36, 36 + len);
    const hint = Buffer.from(pub.subarray(28, 32));
    const tail = Buffer.alloc(4);
    payload.subarray(Math.max(0, len - 4)).copy(tail, 0);
    for (let i = 0; i < 4; i++) hint[i] = hint[i]! ^ tail[i]!;
    if (!sig.hint.equals(hint)) return false;
    return verifyEd25519(pub.toString('hex'), payload, sig.signature);
  }
}
