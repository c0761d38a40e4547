import type { ApiDeps } from '../context'
import { getpayProvider } from './getpay'
import { payselectionProvider } from './payselection'
import { sandboxProvider } from './sandbox'
import type { PaymentProvider } from './types'
import { yookassaProvider } from './yookassa'

const PROVIDERS: Record<string, PaymentProvider> = {
  sandbox: sandboxProvider,
  payselection: payselectionProvider,
  getpay: getpayProvider,
  yookassa: yookassaProvider,
}

export function getProvider(name: string): PaymentProvider | null {
  return PROVIDERS[name] ?? null
}

/** A method can take payments when it is active and its provider is configured. */
export function isMethodUsable(deps: ApiDeps, method: { isActive: boolean; provider: string }): boolean {
  const p = getProvider(method.provider)
  return method.isActive && p?.isAvailable(deps) === true
}
