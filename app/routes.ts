import { flatRoutes } from '@remix-run/fs-routes'
import { type RouteConfig, route } from '@remix-run/route-config'
import { SOCIAL_PROVIDERS } from './lib/account'

/**
 * The social sign-in routes (`/auth/{provider}/start`, `/auth/{provider}/redirect`) exist for the
 * known providers only: any other provider is an unknown address, answered by the catch-all route
 * with the shop's 404 screen (their files are resource routes, which cannot show that screen).
 */
const SOCIAL_FILES = ['routes/auth_.$social.start.tsx', 'routes/auth_.$social.redirect.tsx'] as const

export default (async () => {
  const routes = await flatRoutes({ ignoredRouteFiles: [...SOCIAL_FILES] })
  // one route per provider and step; the file reads the provider from the path (socialProviderOf)
  const social = SOCIAL_PROVIDERS.flatMap((provider) =>
    SOCIAL_FILES.map((file) => {
      const step = file.includes('.start.') ? 'start' : 'redirect'
      return route(`auth/${provider}/${step}`, file, { id: `social-${step}-${provider}` })
    }),
  )
  return [...routes, ...social]
})() satisfies Promise<RouteConfig>
