import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { ApiApp, AppEnv } from '../context'
import { fail, fieldError, message } from '../lib/errors'
import { bearerUser, requireUser } from '../lib/auth'
import { errorResponses, jsonContent } from '../lib/schemas'
import { activeUserById, type UserRow } from '../services/auth/accounts'
import { deleteAccount } from '../services/auth/delete-account'
import { changeNickname, changeProfile, profileOf } from '../services/auth/profile'
import { ProfileSchema } from './schemas/profile'
import { cleanImage } from '../services/uploads/images'
import { limitUploads } from '../services/uploads/limits'
import { actorOf } from '../lib/actor'

const NICKNAME_MAX = 50

const nickname = z
  .string(message('field_nickname_string'))
  .trim()
  .max(NICKNAME_MAX, message('field_nickname_long', { max: NICKNAME_MAX }))
  // biome-ignore lint/suspicious/noControlCharactersInRegex: rejecting control characters is the point
  .regex(/^[^\u0000-\u001f\u007f]*$/, message('field_nickname_chars'))

const SettingsJson = z.object({ nickname: nickname.optional() }).openapi('ProfileSettings')

const SettingsForm = z
  .object({
    nickname: nickname.optional(),
    avatar_img: z
      .any()
      .optional()
      .openapi({ type: 'string', format: 'binary', description: 'PNG, JPEG, WebP or GIF, up to 5 MB' }),
    remove_avatar: z
      .enum(['1', 'true'])
      .optional()
      .openapi({ description: 'Set to drop the current avatar' }),
  })
  .openapi('ProfileSettingsUpload')

const getProfile = createRoute({
  method: 'get',
  path: '/api/auth/profile/',
  tags: ['auth'],
  summary: 'The signed-in user’s profile',
  description:
    'Bearer token required (401 without): email and whether it is confirmed, nickname, avatar, balance, the active promo code and the bound social providers.',
  responses: { 200: jsonContent(ProfileSchema), ...errorResponses(401) },
})

const patchProfile = createRoute({
  method: 'patch',
  path: '/api/auth/profile/',
  tags: ['auth'],
  summary: 'Change profile settings (nickname)',
  description: 'Not in the original call list: the profile settings screen (§2) needs it.',
  request: { body: { content: { 'application/json': { schema: SettingsJson } }, required: true } },
  responses: { 200: jsonContent(ProfileSchema), ...errorResponses(400, 401) },
})

const postProfile = createRoute({
  method: 'post',
  path: '/api/auth/profile/',
  tags: ['auth'],
  summary: 'Change profile settings with an avatar upload (multipart)',
  description:
    'Not in the original call list. The avatar is checked by its content (PNG, JPEG, WebP, GIF), stripped of metadata and stored under a random name, served at /media/<name>; it replaces the previous one. Uploads are limited per client address and per account (429 with Retry-After).',
  request: { body: { content: { 'multipart/form-data': { schema: SettingsForm } }, required: true } },
  responses: { 200: jsonContent(ProfileSchema), ...errorResponses(400, 401, 413, 415, 429) },
})

const deleteProfile = createRoute({
  method: 'post',
  path: '/api/auth/profile/delete/',
  tags: ['auth'],
  summary: 'Delete the account',
  description:
    'Not in the original call list: the user-deletion popup (§2). Every sign-in ends; email, password, nickname, avatar and social accounts are erased. Orders stay for the shop’s records without the link to the account and without the buyer’s email.',
  responses: { 204: { description: 'Deleted' }, ...errorResponses(401) },
})

async function currentUser(c: Context<AppEnv>): Promise<UserRow> {
  // a read takes the row its bearer check read; a write reads it again inside its own request
  const user =
    (c.req.method === 'GET' ? bearerUser(c) : null) ?? (await activeUserById(c.var.deps.db, requireUser(c)))
  // a token that outlived its (deleted) account
  if (!user) throw fail(401, 'token_not_valid')
  return user
}

export function registerProfile(app: ApiApp) {
  app.openapi(getProfile, async (c) => {
    const user = await currentUser(c)
    return c.json(await profileOf(c.var.deps.db, user), 200)
  })

  app.openapi(patchProfile, async (c) => {
    const user = await currentUser(c)
    const body = c.req.valid('json')
    const { db } = c.var.deps
    if (body.nickname === undefined) return c.json(await profileOf(db, user), 200)
    const updated = await changeNickname(db, user, body.nickname)
    return c.json(await profileOf(db, updated ?? user), 200)
  })

  app.openapi(postProfile, async (c) => {
    const user = await currentUser(c)
    const form = c.req.valid('form')
    const { db, config } = c.var.deps
    const file = form.avatar_img as unknown
    // the avatar as it will be stored: undefined = unchanged, null = removed
    let avatar: ReturnType<typeof cleanImage> | undefined
    if (file instanceof File && file.size > 0) {
      await limitUploads(c.var.deps, actorOf(c), `account:${user.id}`)
      if (file.size > config.maxUploadBytes)
        throw fieldError('avatar_img', 'profile_avatar_too_large', {
          mb: Math.floor(config.maxUploadBytes / 2 ** 20),
        })
      avatar = cleanImage(new Uint8Array(await file.arrayBuffer()))
      if (!avatar) throw fieldError('avatar_img', 'profile_avatar_not_image')
    } else if (typeof file === 'string' && file !== '') {
      throw fieldError('avatar_img', 'profile_avatar_not_image')
    } else if (form.remove_avatar) {
      avatar = null
    }
    if (form.nickname === undefined && avatar === undefined) return c.json(await profileOf(db, user), 200)
    const updated = await changeProfile(db, user, { nickname: form.nickname, avatar })
    return c.json(await profileOf(db, updated ?? user), 200)
  })

  app.openapi(deleteProfile, async (c) => {
    const user = await currentUser(c)
    await deleteAccount(c.var.deps.db, user.id)
    return c.body(null, 204)
  })
}
