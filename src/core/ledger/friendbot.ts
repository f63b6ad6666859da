// Funding facility: creates an account with 10000 XLM from the root account and answers once the
// ledger holding it closed. Root transactions get their sequence numbers from the core's queue at
// submission time (synchronously), so concurrent requests chain instead of colliding.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { type Keypair, StrKey, xdr } from '@stellar/stellar-base';
import type { Core } from '../core.js';
import { rootKeypair } from './genesis.js';
import { makeTxFrame } from './tx_frame.js';
import { XdrBytes } from './entry_codec.js';
import type { TxOutcome } from '../types.js';

export const FRIENDBOT_STARTING_BALANCE = 10_000n * 10_000_000n;
const MAX_BODY = 64 * 1024;

/** The spec's fields (hash, result, submission_result) plus those of Horizon's transaction resource. */
export interface FundResult {
  hash: string;
  result: 'received';
  /** base64 TransactionResult */
  submission_result: string;
  id: string;
  paging_token: string;
  successful: boolean;
  ledger: number;
  created_at: string;
  source_account: string;
  source_account_sequence: string;
  fee_account: string;
  fee_charged: string;
  max_fee: string;
  operation_count: number;
  envelope_xdr: string;
  result_xdr: string;
  result_meta_xdr: string;
  fee_meta_xdr: string;
  memo_type: 'none';
  signatures: string[];
  created_account: string;
  starting_balance: string;
}

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  extras?: Record<string, unknown>;
}

export class FriendbotError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail);
  }
}

function badRequest(detail: string, reason: string): FriendbotError {
  return new FriendbotError({
    type: 'https://stellar.org/horizon-errors/bad_request',
    title: 'Bad Request',
    status: 400,
    detail,
    extras: { invalid_field: 'addr', reason },
  });
}

export class Friendbot {
  private readonly root: Keypair;

  constructor(
    private readonly core: Core,
    private readonly amount: bigint = FRIENDBOT_STARTING_BALANCE,
  ) {
    this.root = rootKeypair(core.networkPassphrase);
  }

  /** Funds `addr`; resolves when its ledger closed. Throws FriendbotError with a problem document. */
  async fund(addr: string): Promise<FundResult> {
    if (!StrKey.isValidEd25519PublicKey(addr)) {
      throw badRequest('The request you sent was invalid in some way.', 'addr must be a valid account id (G...)');
    }
    if (this.core.account(addr)) {
      throw badRequest(`account ${addr} is already funded`, 'account already funded to starting balance');
    }
    const seq = this.core.nextSequence(this.root.publicKey());
    if (seq === null) throw new Error('root account is missing');
    const tx = new xdr.Transaction({
      sourceAccount: xdr.MuxedAccount.keyTypeEd25519(this.root.rawPublicKey()),
      fee: this.core.info().info.ledger.baseFee,
      seqNum: new xdr.Int64(seq),
      cond: xdr.Preconditions.precondNone(),
      memo: xdr.Memo.memoNone(),
      operations: [
        new xdr.Operation({
          sourceAccount: null,
          body: xdr.OperationBody.createAccount(
            new xdr.CreateAccountOp({
              destination: xdr.PublicKey.publicKeyTypeEd25519(StrKey.decodeEd25519PublicKey(addr)),
              startingBalance: new xdr.Int64(this.amount),
            }),
          ),
        }),
      ],
      ext: new xdr.TransactionExt(0),
    });
    const hash = createHash('sha256')
      .update(this.core.networkId)
      .update(Buffer.from([0, 0, 0, 2]))
      .update(tx.toXDR())
      .digest();
    const env = xdr.TransactionEnvelope.envelopeTypeTx(new xdr.TransactionV1Envelope({ tx, signatures: [this.root.signDecorated(hash)] }));
    const frame = makeTxFrame(env, this.core.networkId);
    const status = this.core.submitFrame(frame);
    if (status.status === 'TRY_AGAIN_LATER') {
      throw new FriendbotError({
        type: 'https://stellar.org/horizon-errors/server_over_capacity',
        title: 'Server Over Capacity',
        status: 503,
        detail: 'The transaction queue is full; try again later.',
      });
    }
    if (status.status === 'ERROR') {
      throw new FriendbotError({
        type: 'https://stellar.org/horizon-errors/transaction_failed',
        title: 'Transaction Failed',
        status: 400,
        detail: 'The funding transaction was rejected by the core.',
        extras: { result_xdr: status.error },
      });
    }
    const outcome: TxOutcome = await this.core.waitForTransaction(frame.hashHex);
    if (outcome.code !== 'txSuccess') {
      const r = xdr.TransactionResult.fromXDR(outcome.resultXdr, 'base64');
      const opCode = outcome.code === 'txFailed' ? (r.result().results()[0]?.tr().createAccountResult().switch().name ?? '') : '';
      if (opCode === 'createAccountAlreadyExist') {
        throw badRequest(`account ${addr} is already funded`, 'account already funded to starting balance');
      }
      throw new FriendbotError({
        type: 'https://stellar.org/horizon-errors/transaction_failed',
        title: 'Transaction Failed',
        status: 400,
        detail: `The funding transaction failed: ${outcome.code}`,
        extras: { hash: outcome.hash, result_xdr: outcome.resultXdr, envelope_xdr: outcome.envelopeXdr },
      });
    }
    let resultMeta = '';
    let feeMeta = '';
    const raw = this.core.ledgerMetaXdr(outcome.ledger);
    const processed = raw ? xdr.LedgerCloseMeta.fromXDR(raw).v1().txProcessing()[outcome.applyOrder - 1] : undefined;
    if (processed) {
      resultMeta = processed.txApplyProcessing().toXDR('base64');
      feeMeta = new XdrBytes(256)
        .u32(processed.feeProcessing().length)
        .raw(Buffer.concat(processed.feeProcessing().map((c) => c.toXDR())))
        .toBuffer()
        .toString('base64');
    }
    const toid = (BigInt(outcome.ledger) << 32n) | (BigInt(outcome.applyOrder) << 12n);
    return {
      hash: outcome.hash,
      result: 'received',
      submission_result: outcome.resultXdr,
      id: outcome.hash,
      paging_token: toid.toString(),
      successful: true,
      ledger: outcome.ledger,
      created_at: new Date(outcome.closeTime * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      source_account: this.root.publicKey(),
      source_account_sequence: seq.toString(),
      fee_account: this.root.publicKey(),
      fee_charged: String(outcome.feeCharged),
      max_fee: String(tx.fee()),
      operation_count: 1,
      envelope_xdr: outcome.envelopeXdr,
      result_xdr: outcome.resultXdr,
      result_meta_xdr: resultMeta,
      fee_meta_xdr: feeMeta,
      memo_type: 'none',
      signatures: env
        .v1()
        .signatures()
        .map((s) => s.signature().toString('base64')),
      created_account: addr,
      starting_balance: (Number(this.amount) / 1e7).toFixed(7),
    };
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = JSON.stringify(body, null, 2);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    const b = c as Buffer;
    size += b.length;
    if (size > MAX_BODY) throw badRequest('request body too large', 'body too large');
    chunks.push(b);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface FriendbotHandlerOptions {
  /** paths served, default ['/friendbot', '/friendbot/'] */
  paths?: string[];
}

/**
 * A request handler for GET/POST /friendbot?addr= (POST also takes addr from a form or JSON body).
 * Resolves false for other paths so the caller can route them elsewhere.
 */
export function friendbotHandler(
  friendbot: Friendbot,
  options: FriendbotHandlerOptions = {},
): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const paths = new Set(options.paths ?? ['/friendbot', '/friendbot/']);
  return async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://friendbot');
    if (!paths.has(url.pathname)) return false;
    try {
      if (req.method !== 'GET' && req.method !== 'POST') {
        sendJson(
          res,
          405,
          {
            type: 'https://stellar.org/horizon-errors/method_not_allowed',
            title: 'Method Not Allowed',
            status: 405,
            detail: 'Use GET or POST.',
          },
          'application/problem+json',
        );
        return true;
      }
      let addr = url.searchParams.get('addr');
      if (addr === null && req.method === 'POST') {
        const body = await readBody(req);
        const type = req.headers['content-type'] ?? '';
        if (type.includes('application/json')) {
          try {
            const parsed = JSON.parse(body) as { addr?: unknown };
            addr = typeof parsed.addr === 'string' ? parsed.addr : null;
          } catch {
            addr = null;
          }
        } else {
          addr = new URLSearchParams(body).get('addr');
        }
      }
      if (!addr) throw badRequest('The request you sent was invalid in some way.', 'addr is required');
      sendJson(res, 200, await friendbot.fund(addr));
    } catch (e) {
      if (e instanceof FriendbotError) sendJson(res, e.problem.status, e.problem, 'application/problem+json');
      else
        sendJson(
          res,
          500,
          {
            type: 'https://stellar.org/horizon-errors/server_error',
            title: 'Internal Server Error',
            status: 500,
            detail: e instanceof Error ? e.message : String(e),
          },
          'application/problem+json',
        );
    }
    return true;
  };
}
