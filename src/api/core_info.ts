// What the service shows of the core it follows, read from stellar-core's /info answer: in-process
// from the embedded core, or over HTTP from a separate one (`--core-url`).
import type { CoreInfo } from './context.js';

interface InfoAnswer {
  info?: { build?: unknown; protocol_version?: unknown; state?: unknown; ledger?: { num?: unknown } };
}

export function coreInfoFromAnswer(answer: unknown): CoreInfo | null {
  const info = (answer as InfoAnswer | null)?.info;
  if (!info || typeof info.ledger?.num !== 'number') return null;
  return {
    version: typeof info.build === 'string' ? info.build : '',
    latestLedger: info.ledger.num,
    protocolVersion: typeof info.protocol_version === 'number' ? info.protocol_version : 0,
    // stellar-core's state once it follows the network (stellar-go's InfoResponse.IsSynced)
    synced: info.state === 'Synced!',
  };
}

/** Asks a core's /info; null when it does not answer within a second or answers nonsense. */
export async function fetchCoreInfo(coreUrl: string): Promise<CoreInfo | null> {
  try {
    const response = await fetch(`${coreUrl}/info`, { signal: AbortSignal.timeout(1000) });
    if (!response.ok) return null;
    return coreInfoFromAnswer(await response.json());
  } catch {
    return null;
  }
}
