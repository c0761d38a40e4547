import { messagesFor } from '#app/i18n/i18n.server'
import type { Messages } from '#app/i18n/translate'

/**
 * The messages of a locale for the page. A failure to load them is logged to the console only
 * (§8): the page still renders, showing message keys instead of text.
 */
export function loadLocaleMessages(
  locale: string,
  load: (locale: string) => Messages = messagesFor,
): Messages {
  try {
    const messages = load(locale)
    if (!messages || typeof messages !== 'object') throw new Error('no messages')
    return messages
  } catch (error) {
    console.error(`Could not load the messages of locale "${locale}"`, error)
    return {}
  }
}
