import { linkTarget } from './link-header.js';
import type { Call, Transport } from './transport.js';

/**
 * Every item of every page, fetched as the caller iterates: the first page, then each `Link: <…>;
 * rel="next"` until an answer has none (the last page, even when it is full). Each page is a call
 * of its own, with the retry rules.
 */
export async function* paginate<T>(transport: Transport, first: Call): AsyncGenerator<T, void, undefined> {
  for (let call: Call | undefined = first; call;) {
    const { data, headers } = await transport.exchange<T[]>(call);
    yield* data;
    const next = linkTarget(headers.get('link'), 'next');
    call = next === undefined ? undefined : { ...first, url: transport.follow(next) };
  }
}
