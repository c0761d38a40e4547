import { SOCIAL_PROVIDERS, type SocialProvider } from '../../env'

export { SOCIAL_PROVIDERS, type SocialProvider }

/** Which providers may be bound to and unbound from a signed-in account (§7). */
export const BIND_PROVIDERS = ['steam', 'telegram', 'vk', 'vk_id', 'yandex'] as const
export const UNBIND_PROVIDERS = ['facebook', 'steam', 'telegram', 'vk', 'vk_id', 'yandex'] as const

/** Names for messages shown to shoppers. */
export const PROVIDER_TITLES: Record<SocialProvider, string> = {
  facebook: 'Facebook',
  google: 'Google',
  steam: 'Steam',
  telegram: 'Telegram',
  vk: 'ВКонтакте',
  vk_id: 'VK ID',
  yandex: 'Яндекс ID',
}

/** What a provider told us about the person who signed in. */
export interface SocialIdentity {
  /** The provider's stable user id. */
  id: string
  /** An email the provider vouches for (verified there), if any. */
  email: string | null
  nickname: string | null
}
