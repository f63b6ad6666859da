// An asset as an argument: the triple the REST market endpoints take as
// <prefix>_asset_type/_code/_issuer, checked by the market library's parsers.
import { builder } from './builder.js';

export const AssetInput = builder.inputType('AssetInput', {
  description: 'native, or credit_alphanum4/credit_alphanum12 with its code and issuer.',
  fields: (t) => ({
    assetType: t.string({ required: true }),
    assetCode: t.string(),
    assetIssuer: t.string(),
  }),
});
