// Signed transaction envelopes for generated traffic (benchmarks, the ingest tests), built straight
// from XDR and signed through node:crypto, so that setup stays short and a profile shows the
// network's work, not the client's.
import { createHash, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { type Keypair, xdr } from '@stellar/stellar-sdk/base';
import { networkId as networkIdOf } from '../../src/stellar/index.js';

const PKCS8_ED25519_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

export function envelopeSigner(passphrase: string) {
  const networkId = networkIdOf(passphrase);
  const privateKeys = new Map<string, KeyObject>();

  function signDecorated(kp: Keypair, hash: Buffer): xdr.DecoratedSignature {
    let key = privateKeys.get(kp.publicKey());
    if (!key) {
      key = createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, kp.rawSecretKey()]), format: 'der', type: 'pkcs8' });
      privateKeys.set(kp.publicKey(), key);
    }
    return new xdr.DecoratedSignature({ hint: kp.signatureHint(), signature: sign(null, hash, key) });
  }

  /** a v1 envelope of these operations from `source` with sequence `seq`, fee 100 per operation, base64 */
  function envelope(source: Keypair, seq: bigint, ops: xdr.Operation[], memo: xdr.Memo = xdr.Memo.memoNone()): string {
    const tx = new xdr.Transaction({
      sourceAccount: xdr.MuxedAccount.keyTypeEd25519(source.rawPublicKey()),
      fee: 100 * ops.length,
      seqNum: seq,
      cond: xdr.Preconditions.precondNone(),
      memo,
      operations: ops,
      ext: xdr.TransactionExt.v0(),
    });
    const hash = createHash('sha256')
      .update(networkId)
      .update(Buffer.from([0, 0, 0, 2]))
      .update(tx.toXdr())
      .digest();
    return xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx, signatures: [signDecorated(source, hash)] })).toXdr(
      'base64',
    );
  }

  return { networkId, envelope };
}
