/**
 * A bounded cache that evicts the least recently used entry: a Map in insertion order, where
 * a hit moves its entry to the end (delete + set) and an insert past the limit drops the first.
 */
export class Lru<K, V> {
  private readonly map = new Map<K, V>();

  constructor(readonly limit: number) {
    if (!(limit >= 1)) throw new RangeError(`LRU limit must be at least 1, got ${limit}`);
  }

  get size(): number {
    return this.map.size;
  }

  /** The value under `key`, which becomes the most recently used. */
  get(key: K): V | undefined {
    const value = this.map.get(key);
    if (value !== undefined) {
      this.map.delete(key);
      this.map.set(key, value);
    }
    return value;
  }

  /** Whether `key` is cached, without touching its place. */
  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Stores `value` as the most recently used, evicting the least recently used past the limit. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value as K);
  }

  delete(key: K): boolean {
    return this.map.delete(key);
  }

  /** Drops every entry whose key matches. */
  deleteWhere(match: (key: K) => boolean): void {
    for (const key of this.map.keys()) if (match(key)) this.map.delete(key);
  }

  clear(): void {
    this.map.clear();
  }

  /** The keys, least recently used first. */
  keys(): IterableIterator<K> {
    return this.map.keys();
  }
}
