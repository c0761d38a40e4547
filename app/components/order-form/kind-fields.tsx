import { type ReactNode, useEffect, useState } from 'react'
import { standoffListingPrice } from '../../../shared/standoff-listing'
import { useT } from '#app/i18n/i18n-context'
import { FIELD, fieldId } from '#app/lib/order-form/fields'
import { formatDecimal, formatMoney, formatWireDecimal, type Kopecks } from '#app/lib/money'
import type { FieldErrors } from '#app/lib/order-form/schema'
import type { SupplyServer } from '#app/lib/view-models/game'
import { describedBy, FieldErrorText } from './field-error'
import { bpToPercentText, type StandoffSettings } from './settings'

interface FieldProps {
  errors: FieldErrors
  autoFocusField: string | null
}

/**
 * The live player check (nickname or refusal), shown right under the id it is about, before
 * anything else of the form (issue 50: it was under the avatar upload, 600 px further down).
 */
interface PlayerCheckSlot {
  playerCheck?: ReactNode
}

function TextField({
  name,
  label,
  hint,
  defaultValue,
  errors,
  autoFocusField,
  type = 'text',
  autoComplete = 'off',
  required = true,
  inputMode,
  onInput,
}: FieldProps & {
  name: string
  label: string
  hint?: string
  defaultValue?: string
  type?: 'text' | 'email'
  autoComplete?: string
  required?: boolean
  inputMode?: 'text' | 'email' | 'decimal' | 'numeric'
  onInput?: (value: string) => void
}) {
  const hintId = hint ? `${fieldId(name)}-hint` : undefined
  return (
    <div className="field">
      <label htmlFor={fieldId(name)}>{label}</label>
      <input
        id={fieldId(name)}
        name={name}
        type={type}
        defaultValue={defaultValue}
        autoComplete={autoComplete}
        aria-required={required || undefined}
        inputMode={inputMode}
        maxLength={type === 'email' ? 254 : 64}
        // biome-ignore lint/a11y/noAutofocus: the first invalid field after a refused submission, also without JavaScript
        autoFocus={autoFocusField === name}
        onInput={onInput ? (e) => onInput(e.currentTarget.value) : undefined}
        {...describedBy(name, errors[name], hintId)}
      />
      {hint ? (
        <span className="field__hint" id={hintId}>
          {hint}
        </span>
      ) : null}
      <FieldErrorText name={name} error={errors[name]} />
    </div>
  )
}

export function EmailField({
  defaultValue,
  required,
  signedIn,
  ...rest
}: FieldProps & { defaultValue?: string; required: boolean; signedIn: boolean }) {
  const t = useT()
  return (
    <TextField
      {...rest}
      name={FIELD.email}
      type="email"
      inputMode="email"
      autoComplete="email"
      label={t('top_up_balance.email')}
      hint={signedIn ? t('top_up_balance.email_hint_signed_in') : t('top_up_balance.email_hint')}
      defaultValue={defaultValue}
      required={required}
    />
  )
}

export function SupplyFields({
  servers,
  serverMode,
  values,
  playerCheck,
  ...rest
}: FieldProps &
  PlayerCheckSlot & {
    servers: SupplyServer[]
    serverMode: 'none' | 'enum' | 'custom'
    values: { userId?: string; serverId?: string; serverCustomId?: string }
  }) {
  const t = useT()
  const { errors, autoFocusField } = rest
  return (
    <>
      <TextField
        {...rest}
        name={FIELD.userId}
        label={t('top_up_balance.user_id')}
        hint={t('top_up_balance.user_id_hint')}
        defaultValue={values.userId}
        // the supply games' player ids are digits (Genshin's UID, MLBB's id, Free Fire's id)
        inputMode="numeric"
      />
      {serverMode === 'enum' ? (
        <div className="field">
          <label htmlFor={fieldId(FIELD.serverId)}>{t('top_up_balance.server')}</label>
          <select
            id={fieldId(FIELD.serverId)}
            name={FIELD.serverId}
            defaultValue={values.serverId ?? ''}
            aria-required
            // biome-ignore lint/a11y/noAutofocus: the first invalid field after a refused submission, also without JavaScript
            autoFocus={autoFocusField === FIELD.serverId}
            {...describedBy(FIELD.serverId, errors[FIELD.serverId])}
          >
            <option value="">{t('top_up_balance.server_choose')}</option>
            {servers.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
          <FieldErrorText name={FIELD.serverId} error={errors[FIELD.serverId]} />
        </div>
      ) : serverMode === 'custom' ? (
        <TextField
          {...rest}
          name={FIELD.serverCustomId}
          label={t('top_up_balance.server_custom')}
          defaultValue={values.serverCustomId}
        />
      ) : null}
      {playerCheck}
    </>
  )
}

export function SteamFields({
  values,
  bounds,
  onAmount,
  playerCheck,
  ...rest
}: FieldProps &
  PlayerCheckSlot & {
    values: { steamAccountId?: string; amount?: string }
    bounds: { min: Kopecks; max: Kopecks } | null
    onAmount: (value: string) => void
  }) {
  const t = useT()
  return (
    <>
      <TextField
        {...rest}
        name={FIELD.steamAccountId}
        label={t('top_up_balance.steam_account_id')}
        hint={t('top_up_balance.steam_account_hint')}
        defaultValue={values.steamAccountId}
        autoComplete="username"
      />
      {playerCheck}
      <TextField
        {...rest}
        name={FIELD.amount}
        label={t('top_up_balance.amount')}
        hint={
          bounds
            ? t('top_up_balance.amount_hint', { min: formatMoney(bounds.min), max: formatMoney(bounds.max) })
            : undefined
        }
        defaultValue={values.amount}
        inputMode="decimal"
        onInput={onAmount}
      />
    </>
  )
}

export function StandoffFields({
  values,
  settings,
  surplus,
  goldTotal,
  playerCheck,
  ...rest
}: FieldProps &
  PlayerCheckSlot & {
    values: { userId?: string; avatarUrl?: string; repeatOrderId?: string }
    settings: StandoffSettings | null
    surplus: string
    /** Gold of the chosen products, whole units. */
    goldTotal: number
  }) {
  const t = useT()
  const { errors, autoFocusField } = rest
  const [preview, setPreview] = useState<string | null>(null)
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview])
  const surplusHundredths = Number(surplus.replace('.', ''))
  const listing = settings
    ? standoffListingPrice(goldTotal * 100, settings.marketFeeBp, surplusHundredths)
    : 0
  const hintId = `${fieldId(FIELD.avatar)}-hint`
  const shown = preview ?? values.avatarUrl ?? null
  return (
    <>
      <TextField
        {...rest}
        name={FIELD.userId}
        label={t('top_up_balance.standoff_account_id')}
        hint={t('top_up_balance.user_id_hint')}
        defaultValue={values.userId}
        // Standoff 2 account ids are digits: the phone opens its number pad
        inputMode="numeric"
      />
      {playerCheck}
      <div className="field">
        <label htmlFor={fieldId(FIELD.avatar)}>{t('top_up_balance.avatar')}</label>
        <input
          id={fieldId(FIELD.avatar)}
          name={FIELD.avatar}
          type="file"
          accept="image/png,image/jpeg,image/webp,image/gif"
          required={!values.repeatOrderId}
          // biome-ignore lint/a11y/noAutofocus: the first invalid field after a refused submission, also without JavaScript
          autoFocus={autoFocusField === FIELD.avatar}
          onChange={(e) => {
            const file = e.currentTarget.files?.[0]
            setPreview(file?.type.startsWith('image/') ? URL.createObjectURL(file) : null)
          }}
          {...describedBy(FIELD.avatar, errors[FIELD.avatar], hintId)}
        />
        <span className="field__hint" id={hintId}>
          {t('top_up_balance.avatar_hint')}
        </span>
        <FieldErrorText name={FIELD.avatar} error={errors[FIELD.avatar]} />
        {shown ? (
          <img
            className="avatar-preview"
            src={shown}
            alt={preview ? t('top_up_balance.avatar_preview') : t('top_up_balance.avatar_from_order')}
            width={96}
            height={96}
          />
        ) : null}
        {values.repeatOrderId ? (
          <input type="hidden" name={FIELD.repeatOrderId} value={values.repeatOrderId} />
        ) : null}
      </div>
      <input type="hidden" name={FIELD.surplus} value={surplus} />
      {settings ? (
        <section className="standoff-skin card" aria-labelledby="standoff-skin-heading">
          <h3 id="standoff-skin-heading">{t('top_up_balance.skin_heading')}</h3>
          {settings.skinPicture ? (
            <img
              src={settings.skinPicture}
              alt=""
              width={96}
              height={64}
              className="standoff-skin__picture"
            />
          ) : null}
          <p aria-live="polite">
            {goldTotal > 0
              ? t('top_up_balance.skin_text', { skin: settings.skinName, price: formatDecimal(listing) })
              : t('top_up_balance.skin_intro', { skin: settings.skinName })}
          </p>
          <p className="field__hint">
            {t('top_up_balance.market_fee', { fee: bpToPercentText(settings.marketFeeBp) })}
          </p>
          <p className="field__hint">
            {t('top_up_balance.surplus', { surplus: formatWireDecimal(surplus) })}
          </p>
        </section>
      ) : null}
    </>
  )
}
