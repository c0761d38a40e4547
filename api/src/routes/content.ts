import type { ApiApp } from '../context'

export function registerContent(_app: ApiApp) {}
