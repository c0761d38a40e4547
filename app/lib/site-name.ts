/** The shop's name where no messages are at hand (link previews, a failed root loader's title). */
export const SITE_NAME = 'ИгроМаркет'
