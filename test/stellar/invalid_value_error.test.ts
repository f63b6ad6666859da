import { describe, expect, it } from 'vitest';
import { InvalidValueError, parseAmount, parseAssetQuery } from '../../src/stellar/index.js';

describe('InvalidValueError', () => {
  it('is an Error with a readable message, a name, and an optional field and cause', () => {
    const cause = new Error('inner');
    const error = new InvalidValueError('bad thing', { field: 'asset_code', cause });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('InvalidValueError');
    expect(error.message).toBe('bad thing');
    expect(error.field).toBe('asset_code');
    expect(error.cause).toBe(cause);
    const plain = new InvalidValueError('x');
    expect(plain.field).toBeUndefined();
    expect(plain.cause).toBeUndefined();
  });

  it('is what the parsers throw, with the offending value quoted in the message', () => {
    expect(() => parseAmount('12abc')).toThrow(/"12abc"/);
    try {
      parseAssetQuery({ assetType: 'native', assetCode: 'XLM' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidValueError);
      expect((error as InvalidValueError).message).toBe('native asset does not have a code');
    }
  });
});
