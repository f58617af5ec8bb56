/** cluster-key-slot ships no types: the Redis Cluster slot (0 to 16383) of a key, hash tags honoured. */
declare module 'cluster-key-slot' {
  export default function calculateSlot(key: string): number;
}
