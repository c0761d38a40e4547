import type { ApiApp } from '../context'

export function registerPayments(_app: ApiApp) {}
