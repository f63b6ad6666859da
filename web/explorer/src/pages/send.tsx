// A private network's wallet: a key made (or pasted) in this page and kept only in its memory (not
// stored, never sent: it is gone when the page is closed or reloaded), funded by the friendbot, and
// a payment form whose transaction the page builds and signs with @stellar/stellar-sdk (loaded
// when this view opens) and submits through GraphQL's submitTransaction.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, friendbotUrl, fund, networkPassphrase, operation, request } from '../api.js';
import { AccountLink, LedgerLink, Problem, TransactionLink } from '../components.js';
import { asApiError } from '../hooks.js';
import { loadSdk, type Sdk } from '../sdk.js';
import { assetInput } from '../search.js';
import document from '../../queries/send.graphql';

const SENDER = operation(document, 'Sender');
const SUBMIT = operation(document, 'SubmitTransaction');

type Keypair = InstanceType<Sdk['Keypair']>;

/** the page's key: in this module, so it outlives a visit to another view of the page */
let wallet: Keypair | null = null;

type Step<T> = { state: 'idle' } | { state: 'busy' } | { state: 'done'; value: T } | { state: 'failed'; error: ApiError };

export function SendPage() {
  const [sdk, setSdk] = useState<Sdk | null>(null);
  const [sdkError, setSdkError] = useState<ApiError | null>(null);
  useEffect(() => {
    loadSdk().then(setSdk, (error: unknown) => setSdkError(asApiError(error)));
  }, []);
  if (!friendbotUrl()) {
    return (
      <>
        <h1>Send a payment</h1>
        <Problem error="This server has no friendbot: the payment form is for private networks only." />
      </>
    );
  }
  return (
    <>
      <h1>Send a payment</h1>
      <p class="note">
        On this private network, the page can make a key, have the friendbot fund it and sign payments with it. The secret key stays in this
        page's memory: it is neither stored nor sent, and it is gone when the page is closed or reloaded.
      </p>
      {sdkError && <Problem error={`The signing library did not load: ${sdkError.message}`} />}
      {!sdk && !sdkError && (
        <p class="loading" aria-busy="true">
          Loading the signing library…
        </p>
      )}
      {sdk && <Wallet sdk={sdk} />}
    </>
  );
}

function Wallet({ sdk }: { sdk: Sdk }) {
  const [keypair, setKeypair] = useState<Keypair | null>(wallet);
  const [secretError, setSecretError] = useState<string | null>(null);
  const use = (next: Keypair) => {
    wallet = next;
    setKeypair(next);
    setSecretError(null);
  };
  return (
    <>
      <section aria-labelledby="key-title">
        <h2 id="key-title">Key</h2>
        {keypair && (
          <p>
            Signing as <AccountLink id={keypair.publicKey()} />{' '}
            <code class="key" id="public-key">
              {keypair.publicKey()}
            </code>
          </p>
        )}
        <div class="row">
          <button type="button" id="generate" onClick={() => use(sdk.Keypair.random())}>
            Make a new key
          </button>
          <form
            class="inline"
            onSubmit={(event) => {
              event.preventDefault();
              const input = event.currentTarget.elements.namedItem('secret') as HTMLInputElement;
              try {
                use(sdk.Keypair.fromSecret(input.value.trim()));
                input.value = '';
              } catch {
                setSecretError('That is not a valid secret key (S… with a valid checksum).');
              }
            }}
          >
            <label>
              or use a secret key
              <input name="secret" type="password" autoComplete="off" placeholder="S…" required />
            </label>
            <button type="submit">Use</button>
          </form>
        </div>
        {secretError && <Problem error={secretError} />}
      </section>
      {keypair && <Fund address={keypair.publicKey()} />}
      {keypair && <PaymentForm sdk={sdk} keypair={keypair} />}
    </>
  );
}

function Fund({ address }: { address: string }) {
  const [step, setStep] = useState<Step<string>>({ state: 'idle' });
  useEffect(() => setStep({ state: 'idle' }), [address]);
  return (
    <section aria-labelledby="fund-title">
      <h2 id="fund-title">Fund</h2>
      <button
        type="button"
        id="fund"
        disabled={step.state === 'busy'}
        onClick={() => {
          setStep({ state: 'busy' });
          fund(address).then(
            (hash) => setStep({ state: 'done', value: hash }),
            (error: unknown) => setStep({ state: 'failed', error: asApiError(error) }),
          );
        }}
      >
        {step.state === 'busy' ? 'Funding…' : 'Fund with the friendbot'}
      </button>
      {step.state === 'done' && (
        <p role="status" id="funded">
          Funded by transaction <TransactionLink hash={step.value} />.
        </p>
      )}
      {step.state === 'failed' && <Problem error={step.error} />}
    </section>
  );
}

interface Sent {
  hash: string;
  ledgerSequence: number;
}

function PaymentForm({ sdk, keypair }: { sdk: Sdk; keypair: Keypair }) {
  const [step, setStep] = useState<Step<Sent>>({ state: 'idle' });
  const submit = async (form: FormData): Promise<Sent> => {
    const destination = String(form.get('destination') ?? '').trim();
    const value = String(form.get('amount') ?? '').trim();
    const memo = String(form.get('memo') ?? '');
    const asset = assetInput(String(form.get('asset') ?? 'native'));
    if ('invalid' in asset) throw new ApiError(asset.invalid, 'bad_request');
    if (!sdk.StrKey.isValidEd25519PublicKey(destination) && !sdk.StrKey.isValidMed25519PublicKey(destination)) {
      throw new ApiError(`“${destination}” is not a valid destination: an account id (G…) or a muxed account (M…).`, 'bad_request');
    }
    if (!/^\d{1,12}(\.\d{1,7})?$/.test(value) || Number(value) <= 0) {
      throw new ApiError(`“${value}” is not a valid amount: a positive number with at most 7 decimals.`, 'bad_request');
    }
    const sender = await request<{ account: { sequence: string } | null }>(SENDER, { id: keypair.publicKey() });
    if (!sender.account) throw new ApiError('The signing account does not exist yet: fund it first.', 'not_found');
    const builder = new sdk.TransactionBuilder(new sdk.Account(keypair.publicKey(), sender.account.sequence), {
      fee: sdk.BASE_FEE,
      networkPassphrase: networkPassphrase(),
    });
    builder.addOperation(
      sdk.Operation.payment({
        destination,
        asset: asset.assetType === 'native' ? sdk.Asset.native() : new sdk.Asset(asset.assetCode!, asset.assetIssuer),
        amount: value,
      }),
    );
    if (memo) builder.addMemo(sdk.Memo.text(memo));
    // no upper time bound: a private network's ledgers may close faster than the clock
    const tx = builder.setTimeout(0).build();
    tx.sign(keypair);
    const answer = await request<{ submitTransaction: Sent }>(SUBMIT, { tx: tx.toXDR() });
    return answer.submitTransaction;
  };
  return (
    <section aria-labelledby="pay-title">
      <h2 id="pay-title">Pay</h2>
      <form
        class="payment"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          setStep({ state: 'busy' });
          submit(form).then(
            (sent) => setStep({ state: 'done', value: sent }),
            (error: unknown) => setStep({ state: 'failed', error: asApiError(error) }),
          );
        }}
      >
        <label>
          Destination
          <input name="destination" required autoComplete="off" spellcheck={false} placeholder="G… or M…" />
        </label>
        <label>
          Asset
          <input name="asset" defaultValue="native" required autoComplete="off" spellcheck={false} />
        </label>
        <label>
          Amount
          <input name="amount" required inputMode="decimal" autoComplete="off" placeholder="10" />
        </label>
        <label>
          Memo (text, optional)
          <input name="memo" maxLength={28} autoComplete="off" />
        </label>
        <button type="submit" disabled={step.state === 'busy'}>
          {step.state === 'busy' ? 'Sending…' : 'Sign and send'}
        </button>
      </form>
      {step.state === 'done' && (
        <p role="status" id="sent">
          Sent by transaction <TransactionLink hash={step.value.hash} /> in ledger <LedgerLink sequence={step.value.ledgerSequence} />.
        </p>
      )}
      {step.state === 'failed' && <Problem error={step.error} />}
    </section>
  );
}
