/**
 * Thrown by the parsers in src/stellar when a value supplied from outside (query string, request
 * body, cursor) is malformed or out of range. The message is meant for humans and does not name the
 * request field: the API layer knows that name and adds it (a 400 problem with `invalid_field`).
 */
export class InvalidValueError extends Error {
  override readonly name = 'InvalidValueError';

  /**
   * Which part of a compound value was wrong, when one parser reads several request fields
   * (e.g. `asset_code` of an `asset_type`/`asset_code`/`asset_issuer` triple). The API layer
   * prefixes it as needed (`selling_` + `asset_code`). Undefined for single-field parsers.
   */
  readonly field: string | undefined;

  constructor(message: string, options?: { field?: string; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.field = options?.field;
  }
}
