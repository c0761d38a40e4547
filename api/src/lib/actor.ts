// The route's side of `Actor` (services/actor.ts): reads who asks from the request once.
import type { Context } from 'hono'
import type { AppEnv } from '../context'
import type { Actor } from '../services/actor'
import { clientAddressOf, clientNetworkOf } from './client-address'

export function actorOf(c: Context<AppEnv>): Actor {
  return {
    userId: c.var.userId ?? null,
    address: clientAddressOf(c),
    network: clientNetworkOf(c),
    userAgent: c.req.header('user-agent') ?? null,
  }
}
