// Crossing one book along a payment path with stellar-core's exchange math (exchangeV10 with the
// path payment roundings), as PathPaymentStrictReceive/StrictSend convert through the order book:
// offers best first, each crossed until the amount is met; an offer that stays in the book ends
// the crossing. The sellers' balances and limits are not known here: the offer amounts (already
// bounded by the sellers' liabilities) are taken as what can be crossed.
import { INT64_MAX, exchangeV10 } from '../stellar/index.js';
import type { GraphOffer } from './order_book_graph.js';

/** stellar-core MAX_OFFERS_TO_CROSS: offers one path payment may cross, over all its hops. */
export const MAX_OFFERS_TO_CROSS = 1000;

export interface Crossing {
  /** what the other side of the hop amounts to: sent for strict receive, received for strict send */
  readonly amount: bigint;
  readonly offersCrossed: number;
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
  let remaining = receive;
  let sent = 0n;
  let crossed = 0;
  try {
    for (const offer of book) {
      if (offer.seller === ignoreSeller) continue;
      if (crossed >= maxOffers) return null;
      const ex = exchangeV10(offer.price, offer.amount, remaining, INT64_MAX, INT64_MAX, 'strictReceive');
      crossed += 1;
      sent += ex.sheepSend;
      remaining -= ex.wheatReceive;
      if (sent > INT64_MAX) return null;
      if (remaining === 0n) return sent > 0n ? { amount: sent, offersCrossed: crossed } : null;
      if (ex.wheatStays) return null;
    }
  } catch {
    // an exchange stellar-core would reject (price error bound, overflow) is no path
    return null;
  }
  return null;
}

/**
 * Strict send: how much of the book's selling asset sending exactly `send` of its buying asset
 * receives; null when the book cannot take all of it within `maxOffers` offers or gives nothing.
 */
export function receiveForSend(book: readonly GraphOffer[], send: bigint, maxOffers: number, ignoreSeller: string | null): Crossing | null {
  let remaining = send;
  let received = 0n;
  let crossed = 0;
  try {
    for (const offer of book) {
      if (offer.seller === ignoreSeller) continue;
      if (crossed >= maxOffers) return null;
      const ex = exchangeV10(offer.price, offer.amount, INT64_MAX, remaining, INT64_MAX, 'strictSend');
      crossed += 1;
      received += ex.wheatReceive;
      remaining -= ex.sheepSend;
      if (received > INT64_MAX) return null;
      if (remaining === 0n) return received > 0n ? { amount: received, offersCrossed: crossed } : null;
      if (ex.wheatStays) return null;
    }
  } catch {
    return null;
  }
  return null;
}
