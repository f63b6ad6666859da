// The one thing submission needs from a core node: stellar-core's /tx command. In-process for the
// embedded core, over HTTP for a separate stellar-core or `zenith core`.

export type CoreSubmitStatus =
  | { status: 'PENDING' | 'DUPLICATE' | 'TRY_AGAIN_LATER' }
  | { status: 'ERROR'; error: string /* base64 TransactionResult */ };

export interface CoreClient {
  submit(envelopeXdr: string): Promise<CoreSubmitStatus>;
}

export class CoreUnavailableError extends Error {
  override name = 'CoreUnavailableError';
}

/**
 * The core answered /tx, but without a status: an exception (stellar-core's answer to a blob it
 * cannot take), or a status it should not send. Horizon's asynchronous submission tells these apart
 * from a core that did not answer; waiting submitters count them all as an unavailable core.
 */
export class CoreAnswerError extends CoreUnavailableError {
  override name = 'CoreAnswerError';
  constructor(
    readonly kind: 'exception' | 'invalid_status',
    /** the exception's text, or the status the core sent */
    readonly detail: string,
  ) {
    super(`core answered /tx with ${kind === 'exception' ? `an exception: ${detail}` : `the status ${detail}`}`);
  }
}

/** Forwards to a core's GET /tx?blob= (the same command stellar-core answers). */
export function httpCoreClient(coreUrl: string, timeoutMs = 10_000): CoreClient {
  return {
    async submit(envelopeXdr) {
      let answer: unknown;
      try {
        const response = await fetch(`${coreUrl}/tx?blob=${encodeURIComponent(envelopeXdr)}`, {
          signal: AbortSignal.timeout(timeoutMs),
        });
        answer = await response.json();
      } catch (error) {
        throw new CoreUnavailableError(`core at ${coreUrl} did not answer /tx: ${(error as Error).message}`);
      }
      return parseTxAnswer(answer);
    },
  };
}

export function parseTxAnswer(answer: unknown): CoreSubmitStatus {
  const { status, error, exception } = (answer ?? {}) as { status?: unknown; error?: unknown; exception?: unknown };
  if (status === 'ERROR' && typeof error === 'string') return { status, error };
  if (status === 'PENDING' || status === 'DUPLICATE' || status === 'TRY_AGAIN_LATER') return { status };
  // stellar-core answers {"exception": ...} to a blob it cannot decode
  if (typeof exception === 'string' && exception !== '') throw new CoreAnswerError('exception', exception);
  throw new CoreAnswerError('invalid_status', JSON.stringify(answer));
}

/** The embedded core in this process (its /tx, signatures verified on its worker threads). */
export function embeddedCoreClient(core: { submitAsync(envelopeXdr: string): Promise<CoreSubmitStatus> }): CoreClient {
  return { submit: (envelopeXdr) => core.submitAsync(envelopeXdr) };
}
