// Crossing one book along a payment path with stellar-core's exchange math (exchangeV10 with the
// path payment roundings), as PathPaymentStrictReceive/StrictSend convert through the order book:
// offers best first, each crossed until the amount is met; an offer that stays in the book ends
// the crossing. The sellers' balances and limits are not known here: the offer amounts (already
// bounded by the sellers' liabilities) are taken as what can be crossed.
import { INT64_MAX, exchangeV10 } from '../stellar/index.js';
import type { GraphOffer } from './order_book_graph.js';

export interface Crossing {
  /** what the other side of the hop amounts to: sent for strict receive, received for strict send */
  readonly amount: bigint;
  readonly offersCrossed: number;
}

/**
 * Crosses `book` until `amount` of the fixed side is met: what the book's offers sell for strict
 * receive, what they buy for strict send. Null when the book cannot meet it within `maxOffers`
 * offers, or when the other side amounts to nothing.
 */
function crossBook(
  book: readonly GraphOffer[],
  amount: bigint,
  maxOffers: number,
  ignoreSeller: string | null,
  round: 'strictReceive' | 'strictSend',
): Crossing | null {
  const receive = round === 'strictReceive';
  let remaining = amount;
  let total = 0n;
  let crossed = 0;
  try {
    for (const offer of book) {
      if (offer.seller === ignoreSeller) continue;
      if (crossed >= maxOffers) return null;
      const ex = receive
        ? exchangeV10(offer.price, offer.amount, remaining, INT64_MAX, INT64_MAX, round)
        : exchangeV10(offer.price, offer.amount, INT64_MAX, remaining, INT64_MAX, round);
      crossed += 1;
      total += receive ? ex.sheepSend : ex.wheatReceive;
      remaining -= receive ? ex.wheatReceive : ex.sheepSend;
      if (total > INT64_MAX) return null;
      if (remaining === 0n) return total > 0n ? { amount: total, offersCrossed: crossed } : null;
      if (ex.wheatStays) return null;
    }
  } catch {
    // an exchange stellar-core would reject (price error bound, overflow) is no path
    return null;
  }
  return null;
}

/**
 * Strict receive: how much of the book's buying asset it takes to receive exactly `receive` of
 * its selling asset; null when the book cannot deliver it within `maxOffers` offers.
 */
export function sendToReceive(
  book: readonly GraphOffer[],
  receive: bigint,
  maxOffers: number,
  ignoreSeller: string | null,
): Crossing | null {
  return crossBook(book, receive, maxOffers, ignoreSeller, 'strictReceive');
}

/**
 * Strict send: how much of the book's selling asset sending exactly `send` of its buying asset
 * receives; null when the book cannot take all of it within `maxOffers` offers or gives nothing.
 */
export function receiveForSend(book: readonly GraphOffer[], send: bigint, maxOffers: number, ignoreSeller: string | null): Crossing | null {
  return crossBook(book, send, maxOffers, ignoreSeller, 'strictSend');
}
