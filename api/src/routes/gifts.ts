import type { ApiApp } from '../context'

export function registerGifts(_app: ApiApp) {}
