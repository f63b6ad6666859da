import { xdr } from '@stellar/stellar-sdk/base';
import { describe, expect, it } from 'vitest';
import {
  InvalidValueError,
  OPERATION_TYPE_NAMES,
  PAYMENT_OPERATION_TYPES,
  isPaymentType,
  operationTypeName,
  operationTypeNumber,
} from '../../src/stellar/index.js';

// an XDR enum's schema maps each member's value to its name
const xdrOperationTypes = [...xdr.OperationType.schema.nameByValue].map(([value, name]) => ({ name, value }));

describe('operation type names', () => {
  it('has the Horizon names at their xdr numbers', () => {
    expect(operationTypeName(0)).toBe('create_account');
    expect(operationTypeName(1)).toBe('payment');
    expect(operationTypeName(2)).toBe('path_payment_strict_receive');
    expect(operationTypeName(3)).toBe('manage_sell_offer');
    expect(operationTypeName(4)).toBe('create_passive_sell_offer');
    expect(operationTypeName(8)).toBe('account_merge');
    expect(operationTypeName(11)).toBe('bump_sequence');
    expect(operationTypeName(12)).toBe('manage_buy_offer');
    expect(operationTypeName(13)).toBe('path_payment_strict_send');
    expect(operationTypeName(21)).toBe('set_trust_line_flags');
    expect(operationTypeName(24)).toBe('invoke_host_function');
    expect(operationTypeName(25)).toBe('extend_footprint_ttl');
    expect(operationTypeName(26)).toBe('restore_footprint');
  });

  it('covers every OperationType of the XDR, in order, named like its xdr member', () => {
    expect(xdrOperationTypes.length).toBe(OPERATION_TYPE_NAMES.length);
    for (const { name, value } of xdrOperationTypes) {
      const snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      expect(operationTypeName(value)).toBe(snake);
    }
  });

  it('maps names back to numbers', () => {
    OPERATION_TYPE_NAMES.forEach((name, typeI) => {
      expect(operationTypeNumber(name)).toBe(typeI);
    });
    expect(operationTypeNumber('payment')).toBe(1);
  });

  it('rejects unknown numbers and names', () => {
    for (const typeI of [-1, 27, 1.5, Number.NaN]) expect(() => operationTypeName(typeI)).toThrow(InvalidValueError);
    for (const name of ['', 'Payment', 'manage_offer', 'path_payment', 'toString', 'constructor']) {
      expect(() => operationTypeNumber(name)).toThrow(InvalidValueError);
    }
  });
});

describe('payment types', () => {
  it('are exactly the ones Horizon lists under /payments', () => {
    const payments = OPERATION_TYPE_NAMES.filter((_, typeI) => isPaymentType(typeI));
    expect(payments.sort()).toEqual(
      ['account_merge', 'create_account', 'path_payment_strict_receive', 'path_payment_strict_send', 'payment'].sort(),
    );
    expect(PAYMENT_OPERATION_TYPES.length).toBe(5);
  });

  it('leave invoke_host_function to the per-operation flag', () => {
    expect(isPaymentType(24)).toBe(false);
    expect(isPaymentType(3)).toBe(false);
    expect(isPaymentType(99)).toBe(false);
  });
});
