// Player look-up before paying (our extension of the contract): the id typed on an order form in,
// the nickname the supplier knows out. Limited per client address; answers cached (services/player-check).
import { createRoute, z } from '@hono/zod-openapi'
import type { ApiApp } from '../context'
import { ApiError, fail, fieldError, message } from '../lib/errors'
import { ErrorSchema, errorResponses, IdParam, jsonContent, MAX_DB_INT, wholeNumber } from '../lib/schemas'
import { resolveSupplyServer } from '../services/orders/validate'
import {
  checkPlayer,
  findActiveGame,
  lookupFor,
  PLAYER_CHECK_WINDOW_SECONDS,
  playerCheckLimitKey,
  serverCode,
} from '../services/player-check'
import { hitRateLimit } from '../services/rate-limit'
import { clientNetworkOf } from '../lib/client-address'

/** Seconds a client is told to wait when the supplier did not answer. */
const UNAVAILABLE_RETRY_SECONDS = 30

const CheckPlayerRequest = z
  .object(
    {
      user_id: z
        .string({ error: message('field_string') })
        .trim()
        .min(1, message('player_user_id_required'))
        .max(64, message('field_max_chars', { max: 64 }))
        .openapi({
          description:
            'What the order takes as the player id: game_account_id (Standoff), supply_channel_user_id, steam_account_id',
        }),
      server: wholeNumber({ max: MAX_DB_INT, message: message('field_server_id') })
        .nullish()
        .openapi({ description: "Server id from the game's `servers` (is_server_enum games)" }),
      server_custom_id: z
        .string({ error: message('field_string') })
        .trim()
        .max(64, message('field_max_chars', { max: 64 }))
        .nullish()
        .openapi({ description: 'Free-text server (games with is_server_needed and not is_server_enum)' }),
    },
    { error: message('field_json_object') },
  )
  .openapi('PlayerCheckRequest')

const PlayerFound = z
  .object({
    user_id: z.string(),
    nickname: z.string().openapi({ example: 'Тестовый игрок' }),
    cached: z
      .boolean()
      .openapi({ description: 'Answered from the shared cache (a few minutes old at most)' }),
  })
  .openapi('PlayerCheckResult')

const withRetryAfter = (description: string) => ({
  description,
  headers: z.object({ 'Retry-After': z.string() }),
  content: { 'application/json': { schema: ErrorSchema } },
})

const checkRoute = createRoute({
  method: 'post',
  path: '/api/games/{id}/check_player/',
  tags: ['catalogue'],
  summary: 'Look up the player an order would top up (nickname for the id typed)',
  description: `Our extension; order creation never needs it. Games with \`player_check: true\` answer
200 with the nickname; 404 \`player_not_found\` when the supplier does not know the player (order
creation refuses that id too); 400 \`player_id_malformed\` for an id the supplier calls malformed;
503 \`player_check_unavailable\` (Retry-After) when the supplier does not answer in time (orders are
still accepted then, without a nickname); 404 \`player_check_not_offered\` for a game without a check.
Found and not-found answers are cached for a few minutes, shared by every instance. Limited per client
address (429 with Retry-After).`,
  request: {
    params: IdParam,
    body: { content: { 'application/json': { schema: CheckPlayerRequest } }, required: true },
  },
  responses: {
    200: jsonContent(PlayerFound, 'The player exists'),
    ...errorResponses(400, 404),
    429: withRetryAfter('Too many checks from this address'),
    503: withRetryAfter('The supplier did not answer'),
  },
})

export function registerPlayerCheck(app: ApiApp) {
  app.openapi(checkRoute, async (c) => {
    const { deps } = c.var
    const game = await findActiveGame(deps.db, c.req.valid('param').id)
    if (!game) throw fail(404, 'game_not_found')
    if (!lookupFor(deps.config.playerCheck, game)) throw fail(404, 'player_check_not_offered')

    const address = clientNetworkOf(c)
    const hit = await hitRateLimit(
      deps.db,
      playerCheckLimitKey(address),
      deps.config.playerCheck.perAddress,
      PLAYER_CHECK_WINDOW_SECONDS,
    )
    if (!hit.allowed) {
      c.header('Retry-After', String(hit.retryAfter))
      return c.json(
        { detail: message('rate_limited', { seconds: hit.retryAfter }), code: 'rate_limited' },
        429,
      )
    }

    const body = c.req.valid('json')
    const server =
      game.kind === 'SupplyGame'
        ? await serverCode(
            deps,
            await resolveSupplyServer(deps.db, game, body.server, body.server_custom_id, {
              server: 'server',
              custom: 'server_custom_id',
            }),
          )
        : null
    const answer = await checkPlayer(deps, game, { userId: body.user_id, server })
    if (!answer) throw fail(404, 'player_check_not_offered')
    switch (answer.outcome) {
      case 'found':
        return c.json({ user_id: body.user_id, nickname: answer.nickname, cached: answer.cached }, 200)
      case 'not_found': {
        const detail = message('player_not_found', { id: body.user_id })
        throw new ApiError(404, 'player_not_found', detail, { user_id: [detail] })
      }
      case 'malformed':
        throw fieldError('user_id', 'player_id_malformed')
      case 'unavailable':
        c.header('Retry-After', String(UNAVAILABLE_RETRY_SECONDS))
        return c.json({ detail: message('player_check_unavailable'), code: 'player_check_unavailable' }, 503)
    }
  })
}
