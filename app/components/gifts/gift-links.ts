import type { LinksFunction } from '@remix-run/node'
import giftsCss from '#app/styles/gifts.css?url'

/** The gift pages' stylesheet (each gift route links it; there is no layout route to share). */
export const giftLinks: LinksFunction = () => [{ rel: 'stylesheet', href: giftsCss }]
