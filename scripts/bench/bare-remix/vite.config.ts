// The baseline of the SSR benchmark: the smallest Remix app (one route, a static paragraph),
// built with the same Remix and served by remix-serve.
import { fileURLToPath } from 'node:url'
import { vitePlugin as remix } from '@remix-run/dev'
import { defineConfig } from 'vite'

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url))

export default defineConfig({
  root: here('.'),
  logLevel: 'warn',
  plugins: [
    remix({
      appDirectory: here('./app'),
      buildDirectory: here('../../../.cache/bench-bare-remix'),
      future: { v3_singleFetch: true, v3_lazyRouteDiscovery: true, v3_relativeSplatPath: true },
    }),
  ],
})
