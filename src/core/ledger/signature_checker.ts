// Signature weighing as stellar-core's SignatureChecker does it: each signer counts at most once
// per check, each signature may serve several checks, and unused signatures are an error.
import { createHash } from 'node:crypto';
import { verifyEd25519 } from './ed25519.js';
import { boundedMemo } from '../../support/bounded_memo.js';
import type { SignerWeight } from './entries.js';

export interface DecoratedSig {
  hint: Buffer;
  signature: Buffer;
}

// SignerKey XDR discriminants: the first 4 bytes of a hex key, and its 8th digit as a char code
const ED25519 = '00000000';
const TYPE_ED25519 = 0x30;
const TYPE_PRE_AUTH_TX = 0x31;
const TYPE_HASH_X = 0x32;
const TYPE_SIGNED_PAYLOAD = 0x33;

const firstMemoKey = boundedMemo(100_000, (signerKey) => `0:${signerKey}`);

/**
 * The memo key of a check: signature index and hex SignerKey. Those of the first signature (most
 * transactions have one) are cached, being looked up at submission, nomination and apply.
 */
function memoKey(index: number, signerKey: string): string {
  return index === 0 ? firstMemoKey(signerKey) : `${index}:${signerKey}`;
}

/** An ed25519 check a SignatureChecker may ask for, done ahead (verify_pool.ts) into its memo. */
export interface PendingCheck {
  verified: Map<string, boolean>;
  memo: string;
  publicKey: Buffer;
  message: Buffer;
  signature: Buffer;
}

/**
 * The checks of `signatures` over `message` against the ed25519 keys among `signerKeys` (distinct
 * hex SignerKeys) whose hint they carry, not yet in `verified`; `out` holds at most `limit`.
 */
export function pendingEd25519Checks(
  message: Buffer,
  signatures: readonly DecoratedSig[],
  verified: Map<string, boolean>,
  signerKeys: Iterable<string>,
  out: PendingCheck[],
  limit: number,
): void {
  let hints: string[] | null = null;
  for (const key of signerKeys) {
    if (!key.startsWith(ED25519)) continue;
    const hint = key.slice(-8);
    hints ??= signatures.map((s) => s.hint.toString('hex'));
    for (let i = 0; i < signatures.length; i++) {
      // a signature of another length never verifies: the checker says so itself
      if (hints[i] !== hint || signatures[i]!.signature.length !== 64) continue;
      const memo = memoKey(i, key);
      if (verified.has(memo)) continue;
      if (out.length >= limit) return;
      out.push({ verified, memo, publicKey: publicKeyOf(key), message, signature: signatures[i]!.signature });
    }
  }
}

/** the raw key of an ed25519 hex SignerKey, cached (the same accounts sign again and again) */
const publicKeyOf = boundedMemo(100_000, (signerKeyHex) => Buffer.from(signerKeyHex.slice(8), 'hex'));

export class SignatureChecker {
  private readonly used: boolean[];
  private hashHex: string | null = null;

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
  }

  /** True when signatures from `signers` reach `neededWeight` (at least one must match, even for weight 0). */
  checkSignature(signers: readonly SignerWeight[], neededWeight: number): boolean {
    let total = 0;
    let hashX: SignerWeight[] | null = null;
    let ed: SignerWeight[] | null = null;
    let payload: SignerWeight[] | null = null;
    // the key's type is its 8th hex digit (SignerKeyType 0 to 3)
    for (const s of signers) {
      switch (s.key.charCodeAt(7)) {
        case TYPE_ED25519:
          (ed ??= []).push(s);
          break;
        case TYPE_PRE_AUTH_TX:
          this.hashHex ??= this.contentsHash.toString('hex');
          if (s.key.slice(8) === this.hashHex) {
            total += Math.min(s.weight, 255);
            if (total >= neededWeight) return true;
          }
          break;
        case TYPE_HASH_X:
          (hashX ??= []).push(s);
          break;
        case TYPE_SIGNED_PAYLOAD:
          (payload ??= []).push(s);
          break;
      }
    }
    // then hash(x) signers, ed25519 ones and signed payloads, in stellar-core's order
    const weight = { total, needed: neededWeight };
    if (hashX && this.weigh(hashX, TYPE_HASH_X, weight)) return true;
    if (ed && this.weigh(ed, TYPE_ED25519, weight)) return true;
    if (payload && this.weigh(payload, TYPE_SIGNED_PAYLOAD, weight)) return true;
    return false;
  }

  /** Adds the weight of the signers in `remaining` (all of one type) that signed: true once a match reaches the needed weight. */
  private weigh(remaining: SignerWeight[], type: number, weight: { total: number; needed: number }): boolean {
    for (let i = 0; i < this.signatures.length; i++) {
      const sig = this.signatures[i]!;
      for (let j = 0; j < remaining.length; j++) {
        const signer = remaining[j]!;
        const memo = memoKey(i, signer.key);
        let ok = this.verified.get(memo);
        if (ok === undefined) {
          ok =
            type === TYPE_ED25519
              ? this.verifyEd(sig, signer.key)
              : type === TYPE_HASH_X
                ? this.verifyHashX(sig, signer.key)
                : this.verifySignedPayload(sig, signer.key);
          this.verified.set(memo, ok);
        }
        if (ok) {
          this.used[i] = true;
          weight.total += Math.min(signer.weight, 255);
          if (weight.total >= weight.needed) return true;
          remaining.splice(j, 1);
          break;
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
    return verifyEd25519(Buffer.from(pubHex, 'hex'), this.contentsHash, sig.signature);
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
    return verifyEd25519(pub, payload, sig.signature);
  }
}
