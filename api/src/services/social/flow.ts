// One entry point per step of social sign-in, dispatching on the provider's kind.
import type { ApiDeps } from '../../context'
import type { SocialProviderConfig } from '../../env'
import { refuse } from '../../lib/domain-error'
import { type OAuthProvider, oauthAuthorizeUrl, oauthIdentity } from './oauth2'
import { PROVIDER_TITLES, SOCIAL_PROVIDERS, type SocialIdentity, type SocialProvider } from './providers'
import { checkRedirectUri, consumeState, createState, type FlowMode, type ReturnContext } from './state'
import { steamAuthorizeUrl, steamIdentity } from './steam'
import { telegramAuthorizeUrl, telegramIdentity } from './telegram'

export function configuredProviders(deps: ApiDeps): SocialProvider[] {
  return SOCIAL_PROVIDERS.filter((p) => deps.config.social[p])
}

function providerConfig(deps: ApiDeps, provider: SocialProvider): SocialProviderConfig {
  const cfg = deps.config.social[provider]
  if (!cfg) throw refuse('social_provider_not_configured', { provider: PROVIDER_TITLES[provider] })
  return cfg
}

/**
 * The address to send the shopper to, with a fresh one-time state, and the nonce the starting
 * browser must hold (as a cookie) to finish the flow.
 */
export async function authorizeUrl(
  deps: ApiDeps,
  provider: SocialProvider,
  rawRedirectUri: string,
  flow: { mode: FlowMode; userId: number | null },
): Promise<{ url: string; nonce: string }> {
  const cfg = providerConfig(deps, provider)
  const redirectUri = checkRedirectUri(deps.config, provider, rawRedirectUri)
  const { state, nonce } = await createState(deps.db, { provider, redirectUri, ...flow })
  switch (cfg.kind) {
    case 'steam':
      return { url: steamAuthorizeUrl(cfg, redirectUri, state), nonce }
    case 'telegram':
      return { url: telegramAuthorizeUrl(cfg, redirectUri, state), nonce }
    case 'oauth2':
      return {
        url: oauthAuthorizeUrl(deps.config, provider as OAuthProvider, cfg, redirectUri, state),
        nonce,
      }
  }
}

export interface ReturnInput {
  code: string
  redirect_uri: string
  state?: string
  device_id?: string
}

/**
 * Turns what the provider sent back into a verified identity: the state is used up (it must
 * match the provider, the return address, the browser's nonce and the use), then the code,
 * assertion or signed payload is checked.
 */
export async function identityFromReturn(
  deps: ApiDeps,
  provider: SocialProvider,
  input: ReturnInput,
  ctx: ReturnContext,
): Promise<SocialIdentity> {
  const cfg = providerConfig(deps, provider)
  const redirectUri = checkRedirectUri(deps.config, provider, input.redirect_uri)
  switch (cfg.kind) {
    case 'steam': {
      const { identity, state } = await steamIdentity(deps.fetch, cfg, input.code, redirectUri)
      if (input.state && state !== input.state) throw refuse('social_state_invalid')
      await consumeState(deps.db, state ?? undefined, provider, redirectUri, ctx)
      return identity
    }
    case 'telegram': {
      const identity = telegramIdentity(cfg, input.code)
      await consumeState(deps.db, input.state, provider, redirectUri, ctx)
      return identity
    }
    case 'oauth2': {
      await consumeState(deps.db, input.state, provider, redirectUri, ctx)
      return oauthIdentity(deps.fetch, deps.config, provider as OAuthProvider, cfg, {
        code: input.code,
        redirectUri,
        state: input.state!,
        deviceId: input.device_id,
      })
    }
  }
}
