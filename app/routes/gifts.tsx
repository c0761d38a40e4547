import type { LinksFunction } from '@remix-run/node'
import { Outlet } from '@remix-run/react'
import giftsCss from '#app/styles/gifts.css?url'

/** Layout of `/gifts`, `/gifts/{page}` and `/gifts/detalis/{id}`: the gift styles. */
export const links: LinksFunction = () => [{ rel: 'stylesheet', href: giftsCss }]

export default function GiftsLayout() {
  return <Outlet />
}
