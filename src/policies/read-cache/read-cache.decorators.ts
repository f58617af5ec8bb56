import { SetMetadata } from '@nestjs/common';

export const CACHED_READ = Symbol('cached read');
export const INVALIDATES_CACHED_READS = Symbol('invalidates cached reads');

/**
 * Serves this GET from the replica's read cache while the data generation holds: its answer is
 * the same for every caller (it depends on the URL and the links' base only). `headers` the
 * handler sets (such as `Link`) are kept with it.
 */
export const CachedRead = (...headers: string[]) => SetMetadata(CACHED_READ, headers);

/** Marks a write: once it has ended (its transaction committed), every replica's cached reads are renewed. */
export const InvalidatesCachedReads = () => SetMetadata(INVALIDATES_CACHED_READS, true);
