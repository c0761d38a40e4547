import type { ApiApp } from '../context'

export function registerOrdersHistory(_app: ApiApp) {}
