import type { ApiApp } from '../context'

export function registerPromo(_app: ApiApp) {}
