// The storage the page cache and the answer cache share, on lru-cache: two least-recently-used
// lists, answers never served from the cache and answers served at least once, under one bound on
// the count and one on the bytes. Over a bound, never-read answers go first (oldest first), then
// the least recently read. A client cycling one-off URLs (query strings) then mostly displaces its
// own answers, not the ones visitors keep reading; plain LRU would drop those (issue 35 kept this
// rule and gave the lists to lru-cache). Expiry stays with each cache: both serve an expired
// answer a while longer while one request refreshes it.
import { LRUCache } from 'lru-cache'

export interface CacheStoreOptions<E> {
  maxEntries: number
  maxBytes: number
  /** An entry's bytes now (an entry may grow, see `grew`). */
  sizeOf: (entry: E) => number
}

export class CacheStore<E extends {}> {
  readonly #unread: LRUCache<string, E>
  readonly #read: LRUCache<string, E>
  readonly #options: CacheStoreOptions<E>
  #bytes = 0

  constructor(options: CacheStoreOptions<E>) {
    this.#options = options
    // one more than the bound: the lists never evict by themselves, `fit` does (both lists count)
    const max = options.maxEntries + 1
    this.#unread = new LRUCache<string, E>({ max })
    this.#read = new LRUCache<string, E>({ max })
  }

  get size(): number {
    return this.#unread.size + this.#read.size
  }

  get bytes(): number {
    return this.#bytes
  }

  /** The entry, without counting it as read. */
  peek(key: string): E | undefined {
    return this.#unread.peek(key) ?? this.#read.peek(key)
  }

  /** The entry served from the cache: it moves to the read list, as its most recent. */
  read(key: string): E | undefined {
    const unread = this.#unread.peek(key)
    if (unread === undefined) return this.#read.get(key)
    this.#unread.delete(key)
    this.#read.set(key, unread)
    return unread
  }

  /** Stores an entry as never read (replacing any under the key), then keeps within the bounds. */
  set(key: string, entry: E): void {
    this.delete(key)
    this.#unread.set(key, entry)
    this.#bytes += this.#options.sizeOf(entry)
    this.fit(key)
  }

  delete(key: string): void {
    const entry = this.peek(key)
    if (entry === undefined) return
    this.#bytes -= this.#options.sizeOf(entry)
    this.#unread.delete(key)
    this.#read.delete(key)
  }

  /** A stored entry grew by `extra` bytes (a compressed copy): counted, then kept within bounds. */
  grew(key: string, extra: number): void {
    this.#bytes += extra
    this.fit(key)
  }

  /** Back within the bounds: never-read entries but `spare` first, then the least recently read. */
  fit(spare?: string): void {
    const over = () => this.size > this.#options.maxEntries || this.#bytes > this.#options.maxBytes
    for (const key of [...this.#unread.rkeys()]) {
      if (!over()) return
      if (key !== spare) this.delete(key)
    }
    for (const key of [...this.#read.rkeys(), ...this.#unread.rkeys()]) {
      if (!over()) return
      this.delete(key)
    }
  }
}
