// What this build is and what it speaks.
import { readFileSync } from 'node:fs';

const packageJson = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export const ZENITH_VERSION: string = packageJson.version;

/** The newest ledger protocol the ingester and the embedded core understand. */
export const SUPPORTED_PROTOCOL_VERSION = 22;
