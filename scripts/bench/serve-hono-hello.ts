// The floor of the shop's own stack: a Hono app on the same node server answering a constant JSON
// body. An API read can be compared with it as well as with bare node:http.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const app = new Hono()
app.get('*', (c) => c.json({ hello: 'world' }))
serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3904) })
