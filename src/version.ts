// What this build is and what it speaks.
import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export const ZENITH_VERSION: string = packageJson.version;

/**
 * The newest ledger protocol the ingester reads: the SDK's XDR (stellar-core's protocol-27 golden
 * meta, test/ingest/stellar_core_lcm.db.test.ts). The embedded core reports its own.
 */
export const SUPPORTED_PROTOCOL_VERSION = 27;
