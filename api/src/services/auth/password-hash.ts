import { hash } from '@node-rs/argon2'

/** argon2id (the library's default algorithm) with OWASP's minimum parameters. */
const ARGON_OPTS = { memoryCost: 19456, timeCost: 2, parallelism: 1 } as const

/** A leaf (no database, no mail): the demo seeder hashes its staff passwords with it too. */
export const hashPassword = (password: string) => hash(password, ARGON_OPTS)
