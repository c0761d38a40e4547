// Account facts shared by server and browser code (no server-only imports).
import type { components } from '#openapi/schema'

export type SocialProvider = components['schemas']['Profile']['social_accounts'][number]

/** Display order of the social providers (§1). */
export const SOCIAL_PROVIDERS: readonly SocialProvider[] = [
  'vk_id',
  'vk',
  'yandex',
  'telegram',
  'steam',
  'google',
  'facebook',
]

/** The profile (§3) in camelCase, as components read it. */
export interface UserView {
  id: number
  email: string | null
  nickname: string
  avatarImg: string | null
  balance: string
  activePromoCode: string | null
  socialAccounts: SocialProvider[]
}
