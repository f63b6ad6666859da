// inflation: removed from the protocol (12+); stellar-core answers opNOT_SUPPORTED.
import { opOuter } from '../ledger/results.js';
import type { OperationDef } from './context.js';

export const inflation: OperationDef = {
  threshold: () => 'low',
  supported: false,
  checkValid: () => null,
  apply: () => ({ success: false, result: opOuter('opNotSupported') }),
};
