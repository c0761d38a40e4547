import type { ApiApp } from '../context'

export function registerAuth(_app: ApiApp) {}
