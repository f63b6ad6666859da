// The order book of an asset pair, followed live: the subscription answers the book at once, then
// again whenever a ledger changed it.
import { useState } from 'preact/hooks';
import { operation } from '../api.js';
import { LiveStatus, Problem, Table } from '../components.js';
import { amount } from '../format.js';
import { useSubscription } from '../hooks.js';
import { navigate, paths } from '../router.js';
import { assetInput } from '../search.js';
import document from '../../queries/order_book.graphql';

const ORDER_BOOK = operation(document, 'OrderBook');

interface Level {
  price: string;
  amount: string;
}

interface Book {
  bids: Level[];
  asks: Level[];
}

export function OrderBookPage({ selling, buying }: { selling: string; buying: string }) {
  const asked = selling !== '' || buying !== '';
  const sellingAsset = assetInput(selling);
  const buyingAsset = assetInput(buying);
  const invalid = [sellingAsset, buyingAsset].flatMap((asset) => ('invalid' in asset ? [asset.invalid] : []));
  return (
    <>
      <h1>Order book</h1>
      <form
        class="pair"
        onSubmit={(event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          navigate(paths.orderBook(String(form.get('selling') ?? ''), String(form.get('buying') ?? '')));
        }}
      >
        <label>
          Base asset (sold by asks)
          <input name="selling" defaultValue={selling || 'native'} required autoComplete="off" spellcheck={false} />
        </label>
        <label>
          Counter asset
          <input name="buying" defaultValue={buying} placeholder="CODE:ISSUER" required autoComplete="off" spellcheck={false} />
        </label>
        <button type="submit">Show</button>
      </form>
      {asked && invalid.map((message) => <Problem key={message} error={message} />)}
      {asked && invalid.length === 0 && <LiveBook selling={sellingAsset} buying={buyingAsset} />}
    </>
  );
}

function LiveBook({ selling, buying }: { selling: unknown; buying: unknown }) {
  const [book, setBook] = useState<Book | null>(null);
  const live = useSubscription<{ orderBook: Book }>(
    ORDER_BOOK,
    () => ({ selling, buying }),
    ({ orderBook }) => setBook(orderBook),
  );
  return (
    <>
      <LiveStatus live={live} />
      {book === null ? (
        !live.error && (
          <p class="loading" aria-busy="true">
            Loading…
          </p>
        )
      ) : (
        <div class="columns">
          <Side title="Bids" id="bids" levels={book.bids} />
          <Side title="Asks" id="asks" levels={book.asks} />
        </div>
      )}
    </>
  );
}

function Side({ title, id, levels }: { title: string; id: string; levels: Level[] }) {
  return (
    <section aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      {levels.length === 0 ? (
        <p>No offer.</p>
      ) : (
        <Table id={id} columns={['Price (counter per base)', 'Amount']}>
          {levels.map((level) => (
            <tr key={level.price}>
              <td class="number">{amount(level.price)}</td>
              <td class="number">{amount(level.amount)}</td>
            </tr>
          ))}
        </Table>
      )}
    </section>
  );
}
