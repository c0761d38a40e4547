import type { ApiApp } from '../context'

export function registerOrders(_app: ApiApp) {}
