// Imported first by the owner's scripts (db:migrate, admin:grant, db:seed): the settings file is read
// before any module that reads the environment (scripts/env-file.mjs).
import { loadEnvFileOrExit } from './env-file.mjs'

loadEnvFileOrExit()
