import { SetMetadata } from '@nestjs/common';

export const CACHED_READ = Symbol('cached read');
export const INVALIDATES_CACHED_READS = Symbol('invalidates cached reads');

export interface CachedReadOptions {
  /** What the read shows: a write marked with the same tag renews it. */
  tag: string;
  /** The headers its handler sets, kept with the body. */
  headers?: string[];
}

/** Serves this GET from the read cache: the answer must be the same for every caller. */
export const CachedRead = ({ tag, headers = [] }: CachedReadOptions) => SetMetadata(CACHED_READ, { tag, headers });

/** Marks a write: once it has ended (its transaction committed), every replica's cached reads of `tag` are renewed. */
export const InvalidatesCachedReads = (tag: string) => SetMetadata(INVALIDATES_CACHED_READS, tag);
