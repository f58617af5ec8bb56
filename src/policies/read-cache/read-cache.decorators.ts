import { SetMetadata } from '@nestjs/common';

export const CACHED_READ = Symbol('cached read');
export const INVALIDATES_CACHED_READS = Symbol('invalidates cached reads');

/** Serves this GET from the read cache, with the `headers` its handler sets: the answer must be the same for every caller. */
export const CachedRead = (...headers: string[]) => SetMetadata(CACHED_READ, headers);

/** Marks a write: once it has ended (its transaction committed), every replica's cached reads are renewed. */
export const InvalidatesCachedReads = () => SetMetadata(INVALIDATES_CACHED_READS, true);
