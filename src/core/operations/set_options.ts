// set_options: inflation destination, flags, home domain, master weight, thresholds and signers.
import { ed25519SignerHex, signerKeyToHex } from '../ledger/entries.js';
import { accountIdFromXdr } from '../../stellar/index.js';
import { asBuffer } from '../../stellar/bytes.js';
import { opInner } from '../ledger/results.js';
import type { OperationDef } from './context.js';
import {
  AUTH_CLAWBACK_ENABLED_FLAG,
  AUTH_IMMUTABLE_FLAG,
  AUTH_REQUIRED_FLAG,
  AUTH_REVOCABLE_FLAG,
  MASK_ACCOUNT_FLAGS,
  accountExists,
  isStringValid,
  loadAccount,
  opBody,
} from './helpers.js';
import { createSignerWithPossibleSponsorship, removeSignerWithPossibleSponsorship, sponsorshipFailure } from './sponsorship.js';

const T = 'setOptions';
const ALL_AUTH_FLAGS = AUTH_REQUIRED_FLAG | AUTH_REVOCABLE_FLAG | AUTH_IMMUTABLE_FLAG | AUTH_CLAWBACK_ENABLED_FLAG;
const MAX_SIGNERS = 20;
const fail = (code: string) => ({ success: false, result: opInner(T, code) });

export const setOptions: OperationDef = {
  threshold(op) {
    const b = opBody(op, T).setOptionsOp;
    const high = b.masterWeight !== null || [b.lowThreshold, b.medThreshold, b.highThreshold, b.signer].some((v) => v !== null);
    return high ? 'high' : 'medium';
  },
  supported: true,
  checkValid(op, sourceId) {
    const b = opBody(op, T).setOptionsOp;
    const setF = b.setFlags;
    const clearF = b.clearFlags;
    if ((setF != null && (setF & ~MASK_ACCOUNT_FLAGS) !== 0) || (clearF != null && (clearF & ~MASK_ACCOUNT_FLAGS) !== 0)) {
      return opInner(T, 'setOptionsUnknownFlag');
    }
    if (setF != null && clearF != null && (setF & clearF) !== 0) return opInner(T, 'setOptionsBadFlags');
    for (const v of [b.masterWeight, b.lowThreshold, b.medThreshold, b.highThreshold]) {
      if (v != null && v > 255) return opInner(T, 'setOptionsThresholdOutOfRange');
    }
    const signer = b.signer;
    if (signer != null) {
      const hex = signerKeyToHex(signer.key);
      if (hex === ed25519SignerHex(sourceId)) return opInner(T, 'setOptionsBadSigner');
      if (signer.weight > 255) return opInner(T, 'setOptionsBadSigner');
      const key = signer.key;
      if (key.type === 'signerKeyTypeEd25519SignedPayload' && key.ed25519SignedPayload.payload.length === 0) {
        return opInner(T, 'setOptionsBadSigner');
      }
    }
    const hd = b.homeDomain;
    if (hd != null && !isStringValid(asBuffer(hd.bytes))) return opInner(T, 'setOptionsInvalidHomeDomain');
    return null;
  },
  apply(ctx) {
    const b = opBody(ctx.op, T).setOptionsOp;
    const acc = loadAccount(ctx.ltx, ctx.sourceId)!;
    const infl = b.inflationDest;
    if (infl != null) {
      const id = accountIdFromXdr(infl);
      if (id !== ctx.sourceId && !accountExists(ctx.ltx, id)) return fail('setOptionsInvalidInflation');
      acc.inflationDest = id;
    }
    const clearF = b.clearFlags;
    if (clearF != null) {
      if (clearF & ALL_AUTH_FLAGS && acc.flags & AUTH_IMMUTABLE_FLAG) return fail('setOptionsCantChange');
      acc.flags &= ~clearF;
    }
    const setF = b.setFlags;
    if (setF != null) {
      if (setF & ALL_AUTH_FLAGS && acc.flags & AUTH_IMMUTABLE_FLAG) return fail('setOptionsCantChange');
      acc.flags |= setF;
    }
    if ((setF != null || clearF != null) && acc.flags & AUTH_CLAWBACK_ENABLED_FLAG && !(acc.flags & AUTH_REVOCABLE_FLAG)) {
      return fail('setOptionsAuthRevocableRequired');
    }
    const hd = b.homeDomain;
    if (hd != null) acc.homeDomain = asBuffer(hd.bytes).toString('latin1');
    const mw = b.masterWeight;
    if (mw != null) acc.thresholds[0] = mw & 0xff;
    const lo = b.lowThreshold;
    if (lo != null) acc.thresholds[1] = lo & 0xff;
    const med = b.medThreshold;
    if (med != null) acc.thresholds[2] = med & 0xff;
    const hi = b.highThreshold;
    if (hi != null) acc.thresholds[3] = hi & 0xff;
    const signer = b.signer;
    if (signer != null) {
      const key = signerKeyToHex(signer.key);
      const idx = acc.signers.findIndex((s) => s.key === key);
      if (signer.weight > 0) {
        if (idx >= 0) {
          acc.signers[idx]!.weight = signer.weight;
        } else {
          if (acc.signers.length >= MAX_SIGNERS) return fail('setOptionsTooManySigners');
          // stellar-core keeps signers sorted by key
          let at = acc.signers.findIndex((s) => s.key > key);
          if (at < 0) at = acc.signers.length;
          acc.signers.splice(at, 0, { key, weight: signer.weight, sponsor: null });
          const r = createSignerWithPossibleSponsorship(ctx.ltx, ctx.header, at, acc);
          if (r !== 'ok') return sponsorshipFailure(r, opInner(T, 'setOptionsLowReserve'));
        }
      } else if (idx >= 0) {
        removeSignerWithPossibleSponsorship(ctx.ltx, idx, acc);
      }
    }
    return { success: true, result: opInner(T, 'setOptionsSuccess') };
  },
};
