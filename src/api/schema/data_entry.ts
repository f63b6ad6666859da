// DataEntry: one name/value pair an account stores on the ledger (manage_data).
import { builder } from './builder.js';
import { accountIdArg, dataNameArg } from './inputs.js';

export const DataEntryRef = builder.prismaObject('DataEntry', {
  description: 'A name/value pair stored on an account.',
  fields: (t) => ({
    accountId: t.exposeString('accountId'),
    name: t.exposeString('name'),
    value: t.exposeString('value', { description: 'base64 of the raw value' }),
    lastModifiedLedger: t.exposeInt('lastModifiedLedger'),
    sponsor: t.exposeString('sponsor', { nullable: true, description: 'the account sponsoring the entry’s reserve' }),
  }),
});

builder.queryField('accountData', (t) =>
  t.prismaField({
    type: 'DataEntry',
    nullable: true,
    description: "One of an account's data entries, by name.",
    args: { accountId: t.arg.string({ required: true }), name: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) =>
      ctx.prisma.dataEntry.findUnique({
        ...query,
        where: { accountId_name: { accountId: accountIdArg('accountId', args.accountId), name: dataNameArg('name', args.name) } },
      }),
  }),
);
