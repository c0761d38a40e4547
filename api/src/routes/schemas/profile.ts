// Wire shape of the buyer's profile (services/auth/profile.ts builds it).
import { z } from '@hono/zod-openapi'
import { SOCIAL_PROVIDERS } from '../../env'
import { MoneySchema } from '../../lib/schemas'

export const ProfileSchema = z
  .object({
    id: z.number().int(),
    email: z.string().nullable(),
    email_confirmed: z.boolean().openapi({
      description:
        'Our extension: whether the owner opened the confirmation link (or a provider vouched for the email)',
    }),
    nickname: z.string(),
    avatar_img: z.string().nullable().openapi({ description: 'Path of the uploaded avatar, /media/<name>' }),
    balance: MoneySchema,
    active_promo_code: z.string().nullable(),
    social_accounts: z.array(z.enum(SOCIAL_PROVIDERS)).openapi({ description: 'Bound social providers' }),
  })
  .openapi('Profile')
